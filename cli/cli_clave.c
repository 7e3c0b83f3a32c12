/* What the commands that hold a masking key share (enmascarar, copiar): reading a small rules file,
 * telling a key pasted where a path goes, keeping the key out of core files and out of the environment. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* unsetenv, pread */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef O_NOCTTY
#define O_NOCTTY 0 /* wasm32-wasi's libc may lack it */
#endif
#endif
#if !defined(_WIN32) && !defined(__wasi__) /* WASI has no process limits (and no core files) */
#include <sys/resource.h>
#endif
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "cli_interno.h"
#include "internal.h"
#include "mascara/prf.h" /* dt__borrar */

/* A whole small file into a new buffer (NUL-terminated), or NULL with errno set (EFBIG when longer
 * than `max`). For the rules only: the key is read by the library (dt_mascara_clave_leer). */
char *dt__cli_archivo_chico(const char *ruta, size_t max, size_t *len) {
    FILE *f = fopen(ruta, "rb");
    if (f == NULL) return NULL;
    char *b = malloc(max + 2);
    if (b == NULL) {
        fclose(f);
        errno = ENOMEM;
        return NULL;
    }
    size_t n = fread(b, 1, max + 1, f);
    int err = ferror(f);
    fclose(f);
    if (err || n > max) {
        dt__borrar(b, max + 2);
        free(b);
        errno = err ? EIO : EFBIG;
        return NULL;
    }
    b[n] = '\0';
    *len = n;
    return b;
}

static int dt__cli_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

int dt__cli_tiene_clave(const char *s, size_t n) {
    size_t corrida = 0;
    for (size_t i = 0; i < n; i++)
        if ((corrida = dt__cli_hex(s[i]) ? corrida + 1 : 0) >= 64) return 1;
    return 0;
}

/* Whether an argument's last component holds a key: 64 hexadecimal digits in a row, alone (what
 * `$(cat clave.hex)` or a paste gives where a path goes) or inside a name (`<key>.csv`). Refused
 * before it is used as a name: as --salida the output would be a file named after the key. A
 * hash-named directory on the way (Docker's layers are 64 hex digits) is not a key given by mistake
 * and passes. No message here prints an argument that may be a key: they say "the rules file given
 * (--reglas)". */
int dt__cli_parece_clave(const char *s) {
    return dt__cli_tiene_clave(dt__cli_base(s), strlen(dt__cli_base(s)));
}

int dt__cli_texto_es_clave(const char *s, size_t n) {
    /* the forms a key file takes (dt_mascara_clave_leer: 64 digits and a newline), and what an editor
     * or a copy adds around them: spaces, tabs, CR, LF */
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) s++, n--;
    if (n != 64) return 0;
    for (size_t i = 0; i < n; i++)
        if (!dt__cli_hex(s[i])) return 0;
    return 1;
}

int dt__cli_archivo_es_clave(const char *ruta) {
#if defined(_WIN32)
    (void)ruta;
    return 0;
#else
    /* O_NONBLOCK: a FIFO is not waited for (and is not judged: its bytes are the reader's alone) */
    int fd = ruta != NULL ? open(ruta, O_RDONLY | O_NONBLOCK | O_NOCTTY) : 0;
    if (fd < 0) return 0; /* the reader says why it cannot open it */
    struct stat sb;
    int es = 0;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 64 && sb.st_size <= DT__CLI_CLAVE_ARCHIVO_MAX) {
        char b[DT__CLI_CLAVE_ARCHIVO_MAX];
        /* pread: stdin redirected from a file is read from where it is, its position left as it was */
        ssize_t r = pread(fd, b, (size_t)sb.st_size, 0);
        es = r > 0 && dt__cli_texto_es_clave(b, (size_t)r);
        dt__borrar(b, sizeof b);
    }
    if (ruta != NULL) close(fd);
    return es;
#endif
}

int dt__cli_rehusar_clave(const char *orden, const char *opcion, const char *que) {
    fprintf(stderr, "datoteca: %s: %s: the file given holds a masking key (64 hexadecimal digits), not %s; it is not read "
                    "and none of it is printed. A key is given with --clave-archivo or DATOTECA_CLAVE only\n",
            orden, opcion, que);
    return 2;
}

int dt__cli_valor_con_clave(const char *orden, const char *opcion, const char *valor) {
    if (valor == NULL || !dt__cli_tiene_clave(valor, strlen(valor))) return 0;
    fprintf(stderr, "datoteca: %s: the value given to %s holds 64 hexadecimal digits in a row: it looks like a masking "
                    "key, and is neither used nor printed\n",
            orden, opcion);
    return 2;
}

/* The part of a path after its last '/' (or '\\'): what the rules' sentences name ("reglas.toml:4:
 * ..."), so that a directory typed on the command line is not repeated. */
const char *dt__cli_base(const char *ruta) {
    const char *b = ruta;
    for (const char *p = ruta; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    return b;
}

/* A process that holds a key: no core file (it would hold the per-class subkeys, enough to reverse
 * every RUT), and on Linux not dumpable (no core through a pipe handler either, /proc/PID/mem and
 * ptrace closed to the same user). Best effort: a failure leaves the process as it was. */
void dt__cli_sin_volcado(void) {
#if !defined(_WIN32) && !defined(__wasi__)
    struct rlimit rl = {0, 0};
    (void)setrlimit(RLIMIT_CORE, &rl);
#endif
#ifdef __linux__
    (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

/* Wipe the value of DATOTECA_CLAVE where the environment holds it, then remove the variable: unsetenv
 * alone only drops the pointer, and the bytes would stay readable in /proc/PID/environ (the initial
 * environment block) for the whole run. */
void dt__cli_olvidar_clave_env(char *valor) {
    if (valor == NULL) return;
    dt__borrar(valor, strlen(valor));
#ifdef _WIN32
    _putenv("DATOTECA_CLAVE=");
#else
    unsetenv("DATOTECA_CLAVE");
#endif
}


int dt__cli_opcion_clave(const char *a, const char *orden, unsigned *opciones) {
    if (strcmp(a, "--clave-de-prueba") == 0) {
        *opciones |= DT_MASCARA_CLAVE_DE_PRUEBA;
        return 1;
    }
    if (strcmp(a, "--clave-compartida") == 0) {
        *opciones |= DT_MASCARA_CLAVE_COMPARTIDA;
        return 1;
    }
    if (strncmp(a, "--clave", 7) == 0 && strncmp(a, "--clave-archivo", 15) != 0) {
        /* never echo it, nor what follows it: that is a key */
        fprintf(stderr, "datoteca: %s: the key is never taken from the command line (it would be in the shell's history "
                        "and the process list): give it with --clave-archivo FILE or the environment variable "
                        "DATOTECA_CLAVE\n", orden);
        return 2;
    }
    return 0;
}

int dt__cli_clave_dada(const char *ruta, const char *orden) {
    const char *env = getenv("DATOTECA_CLAVE");
    if (ruta != NULL || (env != NULL && env[0] != '\0')) return 0;
    fprintf(stderr, "datoteca: %s: no key: give --clave-archivo FILE or set the environment variable DATOTECA_CLAVE (64 "
                    "hexadecimal digits)\n", orden);
    return 2;
}

int dt__cli_clave_leer(const char *ruta, unsigned opciones, const char *orden, dt_mascara_clave **out) {
    char *env = getenv("DATOTECA_CLAVE");
    char why[DT_SENTENCE_MAX];
    dt_status st = ruta != NULL ? dt_mascara_clave_leer(ruta, opciones, out, why, sizeof why)
                                : dt_mascara_clave_new_opciones(env, strlen(env), opciones, out, why, sizeof why);
    dt__cli_olvidar_clave_env(env); /* read (or overridden by the file): out of the environment either way */
    if (st == DT_OK) return 0;
    fprintf(stderr, "datoteca: %s: %s (from %s)\n", orden, why, ruta ? "--clave-archivo" : "DATOTECA_CLAVE");
    return 2;
}
