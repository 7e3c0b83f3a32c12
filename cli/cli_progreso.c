/* Progress on stderr for the long commands (declared and described in cli_progreso.h). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* clock_gettime, isatty */
#endif
#include "cli_progreso.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <io.h>
#include <windows.h> /* GetTickCount64 */
#define dt__prog_isatty _isatty
#else
#include <unistd.h>
#define dt__prog_isatty isatty
#endif

enum { CADA_TERMINAL_MS = 250, CADA_TUBERIA_MS = 1000 };

/* The progress whose line is on the terminal, for dt__cli_progreso_cortar: set before the workers start
 * and cleared after they are joined, so a worker only ever reads it. */
static const dt__progreso *en_pantalla;

int dt__cli_progreso_opcion(const char *arg, int *pedido) {
    if (strcmp(arg, "--progreso") == 0) *pedido |= DT__PROGRESO_SI;
    else if (strcmp(arg, "--silencio") == 0) *pedido |= DT__PROGRESO_NO;
    else return 0;
    return 1;
}

int dt__cli_progreso_pedido(int pedido, const char *quien) {
    if (pedido == (DT__PROGRESO_SI | DT__PROGRESO_NO)) {
        fprintf(stderr, "datoteca: %sgive --progreso or --silencio, not both\n", quien);
        return 2;
    }
    return 0;
}

/* Milliseconds on a clock that only moves forward, or -1 without one: the line then shows no rate or
 * time, and is drawn only at the start and at the end. */
static int64_t ahora_ms(void) {
#if defined(_WIN32)
    return (int64_t)GetTickCount64();
#elif defined(CLOCK_MONOTONIC)
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t) != 0) return -1;
    return (int64_t)t.tv_sec * 1000 + (int64_t)(t.tv_nsec / 1000000);
#else
    return -1;
#endif
}

/* The least time between two drawings: a quarter of a second on a terminal, a second in a pipe; or
 * DATOTECA_PROGRESO_MS (0 to 60000; 0 draws after every block, which is how the tests see every line). */
static int64_t cada_ms(int terminal) {
    const char *v = getenv("DATOTECA_PROGRESO_MS");
    if (v != NULL && *v) {
        int64_t ms = 0;
        const char *c = v;
        for (; *c >= '0' && *c <= '9' && ms <= 60000; c++) ms = ms * 10 + (*c - '0');
        if (*c == '\0' && ms <= 60000) return ms;
    }
    return terminal ? CADA_TERMINAL_MS : CADA_TUBERIA_MS;
}

/* The line under construction: bytes appended up to the buffer's end, never past it. */
typedef struct linea {
    char b[240];
    size_t n;
} linea;

static void pon(linea *l, const char *s) {
    size_t k = strlen(s);
    if (k > sizeof l->b - 1 - l->n) k = sizeof l->b - 1 - l->n;
    memcpy(l->b + l->n, s, k);
    l->n += k;
    l->b[l->n] = '\0';
}

/* v in decimal, thousands apart with commas (the same whatever the locale). */
static void pon_numero(linea *l, uint64_t v) {
    char t[32], d[40];
    size_t n = 0, k = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n > 0) {
        d[k++] = t[--n];
        if (n && n % 3 == 0) d[k++] = ',';
    }
    d[k] = '\0';
    pon(l, d);
}

/* s seconds as M:SS, or H:MM:SS from an hour on. */
static void pon_duracion(linea *l, uint64_t s) {
    char d[40];
    if (s >= 3600) snprintf(d, sizeof d, "%llu:%02u:%02u", (unsigned long long)(s / 3600), (unsigned)(s / 60 % 60), (unsigned)(s % 60));
    else snprintf(d, sizeof d, "%u:%02u", (unsigned)(s / 60), (unsigned)(s % 60));
    pon(l, d);
}

/* a of b in percent (0..100), without overflow. */
static unsigned por_ciento(uint64_t a, uint64_t b) {
    if (b == 0) return 0;
    uint64_t p = a > UINT64_MAX / 100 ? a / (b / 100) : a * 100 / b;
    return p > 100 ? 100u : (unsigned)p;
}

/* v per second over ms milliseconds, without overflow (ms > 0). */
static uint64_t por_segundo(uint64_t v, uint64_t ms) {
    return v / ms * 1000 + v % ms * 1000 / ms;
}

/* The line's text: numbers only (see cli_progreso.h). */
static void componer(const dt__progreso *p, int final, linea *l) {
    l->n = 0;
    l->b[0] = '\0';
    pon(l, "datoteca");
    if (*p->orden) {
        pon(l, " ");
        pon(l, p->orden);
    }
    pon(l, ": ");
    if (p->tablas) {
        pon(l, "table ");
        pon_numero(l, p->tabla ? p->tabla : 1); /* the first line comes before the first table starts */
        pon(l, " of ");
        pon_numero(l, p->tablas);
        pon(l, ", ");
    }
    pon_numero(l, p->filas);
    if (p->total) {
        char c[16];
        pon(l, " of ");
        pon_numero(l, p->total);
        snprintf(c, sizeof c, " rows (%u%%)", por_ciento(p->filas, p->total));
        pon(l, c);
    } else {
        pon(l, p->filas == 1 ? " row" : " rows");
    }
    if (p->bytes_total) {
        char c[32];
        snprintf(c, sizeof c, ", %u%% of the input", por_ciento(p->bytes, p->bytes_total));
        pon(l, c);
    }
    if (p->inicio < 0) return;
    int64_t t = ahora_ms();
    uint64_t ms = t > p->inicio ? (uint64_t)(t - p->inicio) : 0;
    uint64_t ritmo = ms ? por_segundo(p->filas, ms) : 0;
    if (ritmo) {
        pon(l, ", ");
        pon_numero(l, ritmo);
        pon(l, " rows/s");
    }
    pon(l, ", ");
    pon_duracion(l, ms / 1000);
    pon(l, " elapsed");
    if (final) return;
    /* What is left at the pace so far: by rows when their total is known, else by the input's bytes. */
    uint64_t queda = 0;
    int sabe = 0;
    if (p->total && ritmo) {
        queda = (p->total > p->filas ? p->total - p->filas : 0) / ritmo;
        sabe = 1;
    } else if (p->bytes_total && ms && p->bytes) {
        uint64_t bps = por_segundo(p->bytes, ms);
        if (bps) {
            queda = (p->bytes_total > p->bytes ? p->bytes_total - p->bytes : 0) / bps;
            sabe = 1;
        }
    }
    if (sabe) {
        pon(l, ", ");
        pon_duracion(l, queda);
        pon(l, " left");
    }
}

/* What erases a line on the terminal: clear-to-end where terminals speak ANSI; the Windows console
 * (without VT processing) gets the line overwritten with spaces instead. */
static void borrar(size_t ancho) {
    int e = errno; /* a message about the failure that errno names may follow */
#ifdef _WIN32
    char s[260];
    size_t k = ancho < sizeof s - 2 ? ancho : sizeof s - 2;
    s[0] = '\r';
    memset(s + 1, ' ', k);
    s[k + 1] = '\r';
    fwrite(s, 1, k + 2, stderr);
#else
    (void)ancho;
    fputs("\r\033[K", stderr);
#endif
    fflush(stderr);
    errno = e;
}

static void dibujar(dt__progreso *p, int final) {
    linea l;
    componer(p, final, &l);
    char s[sizeof l.b + 16];
    size_t k = 0;
    if (p->terminal) s[k++] = '\r';
    memcpy(s + k, l.b, l.n);
    k += l.n;
    if (p->terminal) {
#ifdef _WIN32
        size_t relleno = p->ancho > l.n ? p->ancho - l.n : 0; /* spaces over the longer line before */
        if (relleno > sizeof s - 2 - k) relleno = sizeof s - 2 - k;
        memset(s + k, ' ', relleno);
        k += relleno;
#else
        memcpy(s + k, "\033[K", 3);
        k += 3;
#endif
    }
    if (final || !p->terminal) s[k++] = '\n';
    int e = errno;
    fwrite(s, 1, k, stderr);
    fflush(stderr);
    errno = e;
    p->ancho = l.n;
    p->mostrada = p->terminal && !final;
}

void dt__cli_progreso_empezar(dt__progreso *p, const char *orden, int pedido, int a_stdout, uint64_t total, uint32_t tablas,
                              uint64_t bytes_total) {
    memset(p, 0, sizeof *p);
    p->orden = orden;
    p->total = total;
    p->tablas = tablas;
    p->bytes_total = bytes_total;
    p->inicio = p->ultimo = -1;
    if (pedido & DT__PROGRESO_NO) return;
    int e = errno; /* isatty sets it when the answer is no */
    int terminal = dt__prog_isatty(2) != 0;
    /* Unasked, only for a person at a terminal, and not over rows being printed on that terminal. */
    int calla = !(pedido & DT__PROGRESO_SI) && (!terminal || (a_stdout && dt__prog_isatty(1)));
    errno = e;
    if (calla) return;
    p->activo = 1;
    p->terminal = terminal;
    p->cada = cada_ms(terminal);
    p->inicio = p->ultimo = ahora_ms();
    if (terminal) en_pantalla = p;
    dibujar(p, 0);
}

void dt__cli_progreso_filas(dt__progreso *p, uint64_t n) {
    if (!p->activo) return;
    p->filas += n;
    if (p->inicio < 0) return;
    int64_t t = ahora_ms();
    if (t - p->ultimo < p->cada) return;
    p->ultimo = t;
    dibujar(p, 0);
}

void dt__cli_progreso_limpiar(dt__progreso *p) {
    if (!p->activo || !p->mostrada) return;
    borrar(p->ancho + 1);
    p->mostrada = 0;
}

void dt__cli_progreso_terminar(dt__progreso *p, int bien) {
    if (!p->activo) return;
    if (bien) dibujar(p, 1);
    else dt__cli_progreso_limpiar(p);
    p->activo = 0;
    if (en_pantalla == p) en_pantalla = NULL;
}

void dt__cli_progreso_cortar(void) {
    if (en_pantalla != NULL) borrar(sizeof ((linea *)0)->b);
}
