/* The CLI's shared helpers, declared (and documented) in cli_interno.h. */
#include "cli_interno.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h> /* the cell writers' sixteen-byte scan */
#endif

int dt__cli_ob_init(outbuf *o, size_t cap, FILE *f) {
    o->data = (char *)malloc(cap);
    o->p = o->data;
    o->end = o->data ? o->data + cap : NULL;
    o->f = f;
    o->error = 0;
    return o->data == NULL;
}

void dt__cli_ob_free(outbuf *o) {
    free(o->data);
    o->data = o->p = o->end = NULL;
}

void dt__cli_ob_flush(outbuf *o) {
    size_t n = (size_t)(o->p - o->data);
    if (o->f && n && !o->error && fwrite(o->data, 1, n, o->f) != n) o->error = 1;
    if (o->f) o->p = o->data;
}

/* Make room for n more bytes: write out (a stream) or grow (a block). */
static void ob_room(outbuf *o, size_t n) {
    if ((size_t)(o->end - o->p) >= n) return;
    if (o->f) {
        dt__cli_ob_flush(o);
        if ((size_t)(o->end - o->p) >= n) return;
    }
    size_t used = (size_t)(o->p - o->data), cap = (size_t)(o->end - o->data) * 2 + n;
    char *d = (char *)realloc(o->data, cap);
    if (d == NULL) {
        fprintf(stderr, "datoteca: out of memory\n");
        exit(1);
    }
    o->data = d;
    o->p = d + used;
    o->end = d + cap;
}

char *dt__cli_ob_reservar(outbuf *o, size_t n) {
    ob_room(o, n);
    return o->p;
}

void dt__cli_ob_put(outbuf *o, const char *s, size_t n) {
    ob_room(o, n);
    memcpy(o->p, s, n);
    o->p += n;
}

void dt__cli_ob_putc(outbuf *o, char c) {
    ob_room(o, 1);
    *o->p++ = c;
}

/* Copying a cell while looking for the bytes that make it escaped (JSON: a control character, '"',
 * '\\'; CSV: ',', '"', '\n', '\r'): dt__copiar(d, s, n, json) copies s[0, n) to d and returns 1 as soon
 * as it meets one such byte (d is then partly written, and the caller writes the cell again), else 0.
 * Long texts go sixteen bytes at a time with SSE2 (every x86-64), eight elsewhere, and the last block
 * is read where the text ends (overlapping the one before); a short text is two overlapping halves of
 * one block; so nothing past s + n is read. Most cells are one or two blocks: the early exit also keeps
 * compilers from vectorising a loop that rarely runs twice. */
#define DT__RARO_JSON(c) ((c) < 0x20 || (c) == '"' || (c) == '\\')
#define DT__RARO_CSV(c) ((c) == ',' || (c) == '"' || (c) == '\n' || (c) == '\r')
#if defined(__GNUC__) || defined(__clang__)
#define DT__SIEMPRE_EN_LINEA static inline __attribute__((always_inline))
#else
#define DT__SIEMPRE_EN_LINEA static inline
#endif

#if defined(__SSE2__)
DT__SIEMPRE_EN_LINEA int dt__marca(__m128i v, int json) {
    __m128i m;
    if (json) {
        __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f)); /* v <= 0x1f */
        m = _mm_or_si128(control, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    } else {
        m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')), _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    }
    return _mm_movemask_epi8(m) != 0;
}

DT__SIEMPRE_EN_LINEA int dt__copiar(char *d, const char *s, size_t n, int json) {
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 < n; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            if (dt__marca(v, json)) return 1;
            _mm_storeu_si128((__m128i *)(void *)(d + i), v);
        }
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
        _mm_storeu_si128((__m128i *)(void *)(d + n - 16), v);
        return dt__marca(v, json);
    }
    if (n >= 8) {
        __m128i a = _mm_loadl_epi64((const __m128i *)(const void *)s);
        __m128i b = _mm_loadl_epi64((const __m128i *)(const void *)(s + n - 8));
        _mm_storel_epi64((__m128i *)(void *)d, a);
        _mm_storel_epi64((__m128i *)(void *)(d + n - 8), b);
        return dt__marca(_mm_unpacklo_epi64(a, b), json);
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
        return dt__marca(_mm_unpacklo_epi32(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b)), json);
    }
    int hay = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        hay |= json ? DT__RARO_JSON(c) : DT__RARO_CSV(c);
        d[i] = (char)c;
    }
    return hay;
}
#else
/* Whether any byte of w equals c, or is below 0x20: a borrow can mark a byte above a true match, never
 * a word without one, so "any" is exact on either byte order (s390x is big-endian). */
#define DT__UNOS 0x0101010101010101ULL
#define DT__ALTOS 0x8080808080808080ULL
DT__SIEMPRE_EN_LINEA uint64_t dt__iguales(uint64_t w, unsigned char c) {
    uint64_t x = w ^ (DT__UNOS * c);
    return (x - DT__UNOS) & ~x & DT__ALTOS;
}
DT__SIEMPRE_EN_LINEA int dt__marca(uint64_t w, int json) {
    if (json) return (((w - DT__UNOS * 0x20) & ~w & DT__ALTOS) | dt__iguales(w, '"') | dt__iguales(w, '\\')) != 0;
    return (dt__iguales(w, ',') | dt__iguales(w, '"') | dt__iguales(w, '\n') | dt__iguales(w, '\r')) != 0;
}

DT__SIEMPRE_EN_LINEA int dt__copiar(char *d, const char *s, size_t n, int json) {
    uint64_t w;
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 < n; i += 8) {
            memcpy(&w, s + i, 8);
            if (dt__marca(w, json)) return 1;
            memcpy(d + i, &w, 8);
        }
        memcpy(&w, s + n - 8, 8);
        memcpy(d + n - 8, &w, 8);
        return dt__marca(w, json);
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
        return dt__marca(a | (uint64_t)b << 32, json);
    }
    int hay = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        hay |= json ? DT__RARO_JSON(c) : DT__RARO_CSV(c);
        d[i] = (char)c;
    }
    return hay;
}
#endif

char *dt__cli_json_texto(char *d, const char *s, size_t n) {
    *d++ = '"';
    if (!dt__copiar(d, s, n, 1)) {
        d[n] = '"';
        return d + n + 1;
    }
    static const char hex[] = "0123456789abcdef"; /* as "\\u%04x" wrote them */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!DT__RARO_JSON(c)) {
            *d++ = (char)c;
        } else if (c == '"' || c == '\\') {
            *d++ = '\\';
            *d++ = (char)c;
        } else {
            memcpy(d, "\\u00", 4);
            d[4] = hex[c >> 4];
            d[5] = hex[c & 15];
            d += 6;
        }
    }
    *d++ = '"';
    return d;
}

void dt__cli_json_string(outbuf *o, const char *s, size_t n) { o->p = dt__cli_json_texto(dt__cli_ob_reservar(o, 6 * n + 2), s, n); }

DT__SIEMPRE_EN_LINEA char *dt__csv_celda(char *d, const char *s, size_t n, int vacio_entre_comillas) {
    if (n == 0) {
        if (vacio_entre_comillas) {
            *d++ = '"';
            *d++ = '"';
        }
        return d;
    }
    if (!dt__copiar(d, s, n, 0)) return d + n;
    *d++ = '"'; /* written again, quoted, over the copy: runs up to each quote, which is doubled */
    const char *p = s, *fin = s + n, *q;
    while ((q = (const char *)memchr(p, '"', (size_t)(fin - p))) != NULL) {
        memcpy(d, p, (size_t)(q - p) + 1);
        d += q - p + 1;
        *d++ = '"';
        p = q + 1;
    }
    memcpy(d, p, (size_t)(fin - p));
    d += fin - p;
    *d++ = '"';
    return d;
}

char *dt__cli_csv_fila(char *d, const char *const *ini, const size_t *largo, const uint8_t *nulo, size_t ncol, int vacio_entre_comillas) {
    for (size_t j = 0; j < ncol; j++) {
        if (j) *d++ = ',';
        if (!(nulo && nulo[j])) d = dt__csv_celda(d, ini[j], largo[j], vacio_entre_comillas);
    }
    *d++ = '\n';
    return d;
}

char *dt__cli_json_fila(char *d, const char *const *claves, const size_t *largo_clave, const char *const *ini,
                        const size_t *largo, const uint8_t *nulo, const uint8_t *entero, size_t ncol) {
    *d++ = '{';
    for (size_t j = 0; j < ncol; j++) {
        memcpy(d, claves[j], largo_clave[j]);
        d += largo_clave[j];
        if (nulo && nulo[j]) {
            memcpy(d, "null", 4);
            d += 4;
        } else if (entero && entero[j]) {
            memcpy(d, ini[j], largo[j]);
            d += largo[j];
        } else {
            d = dt__cli_json_texto(d, ini[j], largo[j]);
        }
    }
    *d++ = '}';
    *d++ = '\n';
    return d;
}

void dt__cli_csv_field(outbuf *o, const char *s, size_t n, int vacio_entre_comillas) {
    o->p = dt__csv_celda(dt__cli_ob_reservar(o, 2 * n + 2), s, n, vacio_entre_comillas);
}

/* Strict unsigned decimal: digits only, no sign, no overflow. */
int dt__cli_parse_u64(const char *s, unsigned long long max, unsigned long long *out) {
    if (*s == '\0') return 0;
    unsigned long long v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        unsigned d = (unsigned)(*s - '0');
        if (v > (max - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

/* A signed decimal integer of int64 above its lowest value (which is DT_ARG_DEFAULT, "absent",
 * in the library): an optional '-', then digits only. */
static int parse_i64(const char *s, long long *out) {
    int neg = *s == '-';
    unsigned long long u;
    if (!dt__cli_parse_u64(s + neg, 9223372036854775807ULL, &u)) return 0;
    *out = neg ? (long long)(0 - u) : (long long)u;
    return 1;
}

/* Exactly "YYYY-MM-DD" (ten characters, digits where digits go) naming a real day from
 * 1900-01-01 to 2200-12-31, the range dt_set_hoy accepts. */
static int parse_fecha(const char *s, int32_t out[3]) {
    static const char forma[] = "dddd-dd-dd";
    if (strlen(s) != sizeof forma - 1) return 0;
    for (size_t i = 0; forma[i]; i++)
        if (forma[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != '-') return 0;
    int32_t y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    int32_t m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    static const int32_t dias[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int bisiesto = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return 0;
    if (d > dias[m - 1] + (m == 2 && bisiesto)) return 0;
    out[0] = y;
    out[1] = m;
    out[2] = d;
    return 1;
}


/* The call named by argv[1]; a namespace alone means its record call (persona -> persona.persona). */
int dt__cli_parse_call(const char *arg, peticion *r) {
    char name[64];
    const char *call = arg;
    if (dt_call_find(call, strlen(call), &r->index) != DT_OK) {
        if (strchr(call, '.') == NULL && strlen(call) < 30) {
            snprintf(name, sizeof name, "%s.%s", call, call);
            call = name;
        }
        if (dt_call_find(call, strlen(call), &r->index) != DT_OK) {
            fprintf(stderr, "datoteca: " DT_FRASE_UNKNOWN_CALL "\n", arg);
            return 2;
        }
    }
    r->info = dt_call_at(r->index);
    r->key = strrchr(r->info->name, '.') ? strrchr(r->info->name, '.') + 1 : r->info->name;
    return 0;
}

/* The parameter named by `--name` ('-' and '_' alike: --edad-min is --edad_min), or -1. */
static int param_index(const dt_call_info *info, const char *opt) {
    if (strncmp(opt, "--", 2) != 0) return -1;
    for (size_t j = 0; j < info->nparams; j++) {
        const char *a = info->params[j].name, *b = opt + 2;
        while (*a && (*a == *b || (*a == '_' && *b == '-'))) a++, b++;
        if (*a == '\0' && *b == '\0') return (int)j;
    }
    return -1;
}

/* --PARAM VALUE into r->args: a choice by name, or an integer whose range is the library's to check. */
static int parse_param(peticion *r, const char *opt, const char *val) {
    const dt_call_info *info = r->info;
    int jj = param_index(info, opt);
    if (jj < 0) {
        fprintf(stderr, "datoteca: unknown option '%s' (see 'datoteca %s --help')\n", opt, info->name);
        return 2;
    }
    size_t j = (size_t)jj;
    const dt_param_info *p = &info->params[j];
    if (p->choices) { /* a choice by its name: the library's sentence when it has none of that name */
        char why[DT_SENTENCE_MAX];
        if (dt_param_choice(info, j, val, strlen(val), &r->args[j], why, sizeof why, NULL) == DT_OK) return 0;
        fprintf(stderr, "datoteca: %s\n", why);
        return 2;
    }
    long long v;
    if (parse_i64(val, &v)) {
        r->args[j] = (int64_t)v;
        return 0;
    }
    fprintf(stderr, "datoteca: --%s must be an integer, got '%s'\n", p->name, val);
    return 2;
}

/* A seed: decimal, or 0x and 1 to 16 hexadecimal digits. */
static int parse_seed(const char *s, unsigned long long *out) {
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        const char *h = s + 2;
        if (*h == '\0' || strlen(h) > 16) return 0;
        unsigned long long v = 0;
        for (; *h; h++) {
            int d = (*h >= '0' && *h <= '9') ? *h - '0' : (*h >= 'a' && *h <= 'f') ? *h - 'a' + 10 : (*h >= 'A' && *h <= 'F') ? *h - 'A' + 10 : -1;
            if (d < 0) return 0;
            v = v * 16 + (unsigned)d;
        }
        *out = v;
        return 1;
    }
    return dt__cli_parse_u64(s, 18446744073709551615ULL, out);
}

void dt__cli_call_help(FILE *f, const dt_call_info *c, const char *modo) {
    fprintf(f, "datoteca %s%s [options]\n\n", modo, c->name);
    if (c->nparams) fprintf(f, "Parameters (--name VALUE; '-' or '_' in names):\n");
    for (size_t j = 0; j < c->nparams; j++) {
        const dt_param_info *p = &c->params[j];
        if (p->choices) {
            fprintf(f, "  --%-14s one of", p->name);
            for (int64_t v = p->min; v <= p->max; v++) fprintf(f, " %s", p->choices[v - p->min]);
            fprintf(f, " (default %s)\n", p->choices[p->def - p->min]);
        } else {
            fprintf(f, "  --%-14s %lld..%lld (default %lld)\n", p->name, (long long)p->min, (long long)p->max, (long long)p->def);
        }
    }
    if (c->kind == DT_KIND_RECORD) {
        fprintf(f, "Fields:");
        for (size_t j = 0; j < c->nfields; j++) fprintf(f, "%s%s", j ? ", " : " ", c->fields[j]);
        fprintf(f, "\n");
    }
    fprintf(f, "Options: --seed N (decimal or 0x-hex) | --seed-str TEXT, -n COUNT, --format %s, --hoy YYYY-MM-DD,\n"
               "         --progreso | --silencio (a progress line on stderr: shown on a terminal, or always, or never)\n",
            *modo ? "jsonl|csv|sql|ddl|plain" : "plain|jsonl|csv");
    fprintf(f, "Example: datoteca %s%s --seed 42 -n 3\n", modo, c->name);
}

int dt__cli_parse_comun(peticion *r, const char *opt, const char *val) {
    if (strcmp(opt, "--seed") == 0) {
        r->seed_given = 1;
        if (!parse_seed(val, &r->seed)) {
            fprintf(stderr, "datoteca: --seed must be an integer from 0 to 18446744073709551615 (decimal or 0x-hex), got '%s'\n", val);
            return 2;
        }
    } else if (strcmp(opt, "--seed-str") == 0) {
        r->seed_str = val;
    } else if (strcmp(opt, "--hoy") == 0) {
        if (!parse_fecha(val, r->hoy)) {
            fprintf(stderr, "datoteca: --hoy must be a date YYYY-MM-DD from 1900-01-01 to 2200-12-31, got '%s'\n", val);
            return 2;
        }
        r->hoy_given = 1;
    } else if (strncmp(opt, "--", 2) == 0) {
        return parse_param(r, opt, val);
    } else {
        fprintf(stderr, "datoteca: unexpected argument '%s'\n", opt);
        return 2;
    }
    return 0;
}

int dt__cli_check_seeds(const peticion *r) {
    if (r->seed_given && r->seed_str) {
        fprintf(stderr, "datoteca: give --seed or --seed-str, not both\n");
        return 2;
    }
    return 0;
}

int dt__cli_check_opcion(const peticion *r, int argc, char **argv, int i, const char *const *propias, size_t n, const char *modo) {
    const char *opt = argv[i];
    int conocida = param_index(r->info, opt) >= 0;
    for (size_t k = 0; k < n; k++) conocida |= strcmp(opt, propias[k]) == 0;
    if (!conocida) {
        fprintf(stderr, "datoteca: unknown option '%s' (see 'datoteca %s%s --help')\n", opt, modo, r->info->name);
        return 2;
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "datoteca: option '%s' needs a value\n", opt);
        return 2;
    }
    return 0;
}

int dt__cli_tipo_entero(const char *tipo_sql) {
    return strcmp(tipo_sql, "bigint") == 0 || strcmp(tipo_sql, "integer") == 0 || strcmp(tipo_sql, "smallint") == 0;
}

void dt__cli_sql_texto(outbuf *o, const char *s, size_t n) {
    dt__cli_ob_putc(o, '\'');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\'') continue;
        dt__cli_ob_put(o, s + run, i + 1 - run);
        dt__cli_ob_putc(o, '\'');
        run = i + 1;
    }
    dt__cli_ob_put(o, s + run, n - run);
    dt__cli_ob_putc(o, '\'');
}

typedef struct lote {
    const dt__cli_lotes *l;
    unsigned long long desde;
    size_t n;
    outbuf o;
    char *scratch;
    pthread_t hilo;
} lote;

static void *hacer_lote(void *arg) {
    lote *t = (lote *)arg;
    t->o.p = t->o.data; /* the block's buffer is reused round after round */
    t->l->hacer(t->l->ctx, t->desde, t->n, &t->o, t->scratch);
    return NULL;
}

static int usar_lote(const dt__cli_lotes *l, lote *t) {
    return l->usar_bloque ? l->usar_bloque(l->ctx, &t->o, t->scratch) : l->usar(l->ctx, &t->o);
}

/* A block was used: its rows are done for the progress line (this thread writes in row order). 0. */
static int avanzar(const dt__cli_lotes *l, const lote *t) {
    if (l->progreso) dt__cli_progreso_filas(l->progreso, t->n);
    return 0;
}

/* Ready up to `jobs` blocks in ts[0..) from row `*hecho` on (reading them when the input is a stream;
 * the last one when it ends): how many. */
static size_t preparar(const dt__cli_lotes *l, lote *ts, size_t jobs, unsigned long long *hecho, int *agotada) {
    size_t k = 0;
    for (; k < jobs && !*agotada && *hecho < l->n; k++) {
        lote *t = &ts[k];
        t->desde = l->desde + *hecho;
        size_t max = l->n - *hecho < l->bloque ? (size_t)(l->n - *hecho) : l->bloque;
        t->n = max;
        if (l->llenar && !l->llenar(l->ctx, t->desde, max, t->scratch, &t->n)) *agotada = 1;
        *hecho += t->n;
    }
    return k;
}

/* Make the `k` blocks ready in ts[0..): here, at once, with one job; else one thread each. */
static void arrancar(lote *ts, size_t k, size_t jobs) {
    for (size_t i = 0; i < k; i++) {
        if (jobs == 1) hacer_lote(&ts[i]);
        else if (pthread_create(&ts[i].hilo, NULL, hacer_lote, &ts[i]) != 0) {
            fprintf(stderr, "datoteca: cannot start a thread\n");
            exit(1);
        }
    }
}

int dt__cli_lotes_run(const dt__cli_lotes *l) {
    /* Two sets of workers: while one set's blocks are used, the other set makes the next round, so
     * writing (and, for a stream, reading) overlaps the work. With one job everything runs on this
     * thread, block by block. */
    size_t jobs = l->jobs ? l->jobs : 1;
    size_t ntrab = jobs == 1 ? 1 : 2 * jobs;
    lote *ts = (lote *)calloc(ntrab, sizeof *ts);
    int error = ts == NULL;
    for (size_t k = 0; !error && k < ntrab; k++) {
        ts[k].l = l;
        ts[k].scratch = (char *)calloc(l->scratch ? l->scratch : 1, 1);
        error = ts[k].scratch == NULL || dt__cli_ob_init(&ts[k].o, 1 << 20, NULL);
    }
    if (error) {
        for (size_t k = 0; ts && k < ntrab; k++) {
            free(ts[k].scratch);
            dt__cli_ob_free(&ts[k].o);
        }
        free(ts);
        fprintf(stderr, "datoteca: out of memory\n");
        return -1;
    }
    unsigned long long hecho = 0;
    int agotada = 0;
    size_t activos[2] = {0, 0};
    int cur = 0;
    activos[0] = preparar(l, ts, jobs, &hecho, &agotada);
    arrancar(ts, activos[0], jobs);
    while (activos[cur] > 0) {
        int sig = jobs > 1 ? 1 - cur : 0;
        size_t nusar = activos[cur];
        if (jobs == 1) {
            for (size_t k = 0; k < nusar; k++)
                if (!error) error = usar_lote(l, &ts[k]) || avanzar(l, &ts[k]);
            if (error) break; /* stop at once */
            activos[0] = preparar(l, ts, 1, &hecho, &agotada);
            arrancar(ts, activos[0], 1);
            continue;
        }
        /* A stream's next round is read while this one is made (the reader is this thread's work);
         * its threads start once this round's are done, so `jobs` blocks are made at a time. */
        if (l->llenar) activos[sig] = error ? 0 : preparar(l, ts + sig * jobs, jobs, &hecho, &agotada);
        for (size_t k = 0; k < activos[cur]; k++) pthread_join(ts[cur * jobs + k].hilo, NULL);
        if (!l->llenar) activos[sig] = error ? 0 : preparar(l, ts + sig * jobs, jobs, &hecho, &agotada);
        arrancar(ts + sig * jobs, activos[sig], jobs); /* the next round is made while this one is used */
        for (size_t k = 0; k < nusar; k++)
            if (!error) error = usar_lote(l, &ts[cur * jobs + k]) || avanzar(l, &ts[cur * jobs + k]);
        cur = sig;
    }
    if (error && l->progreso) dt__cli_progreso_limpiar(l->progreso); /* the caller's message comes next */
    for (size_t k = 0; k < ntrab; k++) {
        if (l->soltar) l->soltar(l->ctx, ts[k].scratch);
        free(ts[k].scratch);
        dt__cli_ob_free(&ts[k].o);
    }
    free(ts);
    return error != 0;
}

char *dt__cli_sql_citado(const char *s) {
    size_t n = 3;
    for (const char *p = s; *p; p++) n += *p == '"' ? 2 : 1;
    char *o = (char *)malloc(n), *q = o;
    if (o == NULL) return NULL;
    *q++ = '"';
    for (const char *p = s; *p; p++) {
        if (*p == '"') *q++ = '"';
        *q++ = *p;
    }
    *q++ = '"';
    *q = '\0';
    return o;
}

int dt__cli_crecer(void **p, size_t *cap, size_t n, size_t tam) {
    if (n <= *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c < n) c *= 2;
    void *q = realloc(*p, c * tam);
    if (q == NULL) return 1;
    *p = q;
    *cap = c;
    return 0;
}
