/* Instances, versions, status strings, and the exposed random stream. */
#include <stdlib.h>

#include "fecha.h"
#include "huella.h"
#include "internal.h"

const char *dt_version(void) { return DT_VERSION_STRING; }
uint32_t dt_version_number(void) { return DT_VERSION_MAJOR * 10000u + DT_VERSION_MINOR * 100u + DT_VERSION_PATCH; }
uint32_t dt_data_version(void) { return DT_DATA_VERSION; }

const char *dt_status_str(int status) {
    switch (status) {
    case DT_OK: return "ok";
    case DT_ERR_NULL: return "a required pointer argument is NULL";
    case DT_ERR_INVALID_ARG: return "an argument is outside its documented range";
    case DT_ERR_BUFFER_TOO_SMALL: return "buffer too small";
    case DT_ERR_NO_MEMORY: return "out of memory";
    case DT_ERR_INVALID_STATE: return "not a valid datoteca state";
    case DT_ERR_INVALID_RUT: return "not a valid RUT";
    case DT_ERR_UNKNOWN_CALL: return "unknown call";
    case DT_ERR_INVALID_PATENTE: return "not a valid Chilean plate";
    default: return "unknown status";
    }
}

/* The reference pcg32_srandom_r. */
void dt__seed(dt_rng *rng, uint64_t initstate, uint64_t initseq) {
    dt_gen tmp;
    tmp.rng.state = 0u;
    tmp.rng.inc = (initseq << 1u) | 1u;
    (void)dt__next(&tmp);
    tmp.rng.state += initstate;
    (void)dt__next(&tmp);
    *rng = tmp.rng;
}

uint64_t dt__fnv1a64(const char *s, size_t len) { return dt__fnv_bytes(DT_FNV_BASIS, s, len); }

static dt_status dt__alloc(dt_gen **out) {
    dt_gen *g = (dt_gen *)malloc(sizeof *g);
    if (g == NULL) return DT_ERR_NO_MEMORY;
    g->unico = NULL;
    g->hoy_anio = DT_HOY_DEFAULT_ANIO;
    g->hoy_mes = DT_HOY_DEFAULT_MES;
    g->hoy_dia = DT_HOY_DEFAULT_DIA;
    *out = g;
    return DT_OK;
}

dt_status dt_new_pcg(uint64_t initstate, uint64_t initseq, dt_gen **out) {
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    dt_gen *g;
    dt_status st = dt__alloc(&g);
    if (st != DT_OK) return st;
    dt__seed(&g->rng, initstate, initseq);
    *out = g;
    return DT_OK;
}

dt_status dt_new(uint64_t seed, dt_gen **out) { return dt_new_pcg(seed, DT_SEED_STREAM, out); }

dt_status dt_new_str(const char *seed, size_t len, dt_gen **out) {
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    if (seed == NULL && len > 0) return DT_ERR_NULL;
    return dt_new(len ? dt__fnv1a64(seed, len) : dt__fnv1a64("", 0), out);
}

void dt_free(dt_gen *g) { free(g); }

dt_status dt_set_hoy(dt_gen *g, int32_t anio, int32_t mes, int32_t dia) {
    if (g == NULL) return DT_ERR_NULL;
    if (!dt__fecha_valida(anio, mes, dia)) return DT_ERR_INVALID_ARG;
    g->hoy_anio = anio;
    g->hoy_mes = mes;
    g->hoy_dia = dia;
    return DT_OK;
}

dt_status dt_get_hoy(const dt_gen *g, int32_t *anio, int32_t *mes, int32_t *dia) {
    if (g == NULL) return DT_ERR_NULL;
    if (anio) *anio = g->hoy_anio;
    if (mes) *mes = g->hoy_mes;
    if (dia) *dia = g->hoy_dia;
    return DT_OK;
}

dt_status dt_next_u32(dt_gen *g, uint32_t *out) {
    if (g == NULL || out == NULL) return DT_ERR_NULL;
    *out = dt__next(g);
    return DT_OK;
}

static uint64_t dt__next64(dt_gen *g) {
    uint64_t hi = dt__next(g);
    uint64_t lo = dt__next(g);
    return (hi << 32) | lo;
}

dt_status dt_range(dt_gen *g, int64_t lo, int64_t hi, int64_t *out) {
    if (g == NULL || out == NULL) return DT_ERR_NULL;
    if (lo > hi) return DT_ERR_INVALID_ARG;
    *out = dt__range(g, lo, hi);
    return DT_OK;
}

int64_t dt__range(dt_gen *g, int64_t lo, int64_t hi) {
    /* Two's-complement span without signed overflow. */
    uint64_t span_minus_1 = (uint64_t)hi - (uint64_t)lo;
    uint64_t r;
    if (span_minus_1 <= 0xffffffffULL) {
        r = span_minus_1 == 0xffffffffULL ? dt__next(g) : dt__below(g, (uint32_t)(span_minus_1 + 1));
    } else if (span_minus_1 == UINT64_MAX) {
        r = dt__next64(g);
    } else {
        uint64_t span = span_minus_1 + 1;
        uint64_t limit = UINT64_MAX - (UINT64_MAX % span + 1) % span; /* last accepted value */
        do {
            r = dt__next64(g);
        } while (r > limit);
        r %= span;
    }
    return (int64_t)((uint64_t)lo + r);
}

static void dt__le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t dt__rd64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

dt_status dt_state_save(const dt_gen *g, uint8_t *buf, size_t cap, size_t *len) {
    if (g == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    if (len) *len = DT_STATE_SIZE;
    if (cap < DT_STATE_SIZE) return DT_ERR_BUFFER_TOO_SMALL;
    memcpy(buf, "DTS1", 4);
    dt__le64(buf + 4, g->rng.state);
    dt__le64(buf + 12, g->rng.inc);
    buf[20] = (uint8_t)(g->hoy_anio & 0xff);
    buf[21] = (uint8_t)((g->hoy_anio >> 8) & 0xff);
    buf[22] = (uint8_t)g->hoy_mes;
    buf[23] = (uint8_t)g->hoy_dia;
    return DT_OK;
}

dt_status dt_state_restore(dt_gen *g, const uint8_t *buf, size_t len) {
    if (g == NULL || (buf == NULL && len > 0)) return DT_ERR_NULL;
    if (len != DT_STATE_SIZE || memcmp(buf, "DTS1", 4) != 0) return DT_ERR_INVALID_STATE;
    uint64_t inc = dt__rd64(buf + 12);
    int32_t anio = (int32_t)buf[20] | ((int32_t)buf[21] << 8);
    if ((inc & 1u) == 0 || !dt__fecha_valida(anio, buf[22], buf[23])) return DT_ERR_INVALID_STATE;
    g->rng.state = dt__rd64(buf + 4);
    g->rng.inc = inc;
    g->hoy_anio = anio;
    g->hoy_mes = buf[22];
    g->hoy_dia = buf[23];
    return DT_OK;
}

dt_status dt_derive(dt_gen *parent, const char *label, size_t label_len, dt_gen **out) {
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    if (parent == NULL || (label == NULL && label_len > 0)) return DT_ERR_NULL;
    dt_gen *child;
    dt_status st = dt__alloc(&child);
    if (st != DT_OK) return st; /* nothing drawn yet: the parent is untouched */
    uint64_t h = dt__fnv1a64(label_len ? label : "", label_len);
    uint64_t ab = dt__next64(parent);
    dt__seed(&child->rng, ab ^ h, h);
    child->hoy_anio = parent->hoy_anio;
    child->hoy_mes = parent->hoy_mes;
    child->hoy_dia = parent->hoy_dia;
    *out = child;
    return DT_OK;
}

/* ---- text helpers ---- */

dt_status dt__copy_out(const char *tmp, size_t n, char *buf, size_t cap, size_t *len) {
    if (len) *len = n;
    if (cap < n + 1) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(buf, tmp, n);
    buf[n] = '\0';
    return DT_OK;
}

dt_status dt__emit(dt_gen *g, const dt_rng *saved, const char *tmp, size_t n,
                   char *buf, size_t cap, size_t *len) {
    dt_status st = dt__copy_out(tmp, n, buf, cap, len);
    if (st != DT_OK) g->rng = *saved;
    return st;
}

char *dt__put_u64(char *p, uint64_t v) {
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

/* "00".."99": two digits per division in the fixed-width writer records use most. */
static const char dt__pares[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char *dt__put_u32_width(char *p, uint32_t v, int width) {
    char *end = p + width, *q = end;
    while (q - p >= 2) {
        uint32_t r = v % 100;
        v /= 100;
        q -= 2;
        q[0] = dt__pares[2 * r];
        q[1] = dt__pares[2 * r + 1];
    }
    if (q > p) *--q = (char)('0' + v % 10);
    return end;
}

char *dt__put_miles(char *p, uint64_t v) {
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) {
        *p++ = tmp[--n];
        if (n && n % 3 == 0) *p++ = '.';
    }
    return p;
}

char *dt__put_ascii_fold(char *p, const char *s, size_t n) {
    const uint8_t *u = (const uint8_t *)s;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = u[i];
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            *p++ = (char)c;
        } else if (c >= 'A' && c <= 'Z') {
            *p++ = (char)(c - 'A' + 'a');
        } else if (c == 0xC3 && i + 1 < n) {
            /* Latin-1 supplement letters U+00C0..U+00FF are C3 80..C3 BF. */
            static const char fold[64] = "aaaaaaaceeeeiiii" "dnooooo ouuuuy  "
                                         "aaaaaaaceeeeiiii" "dnooooo ouuuuy y";
            char f = fold[u[++i] & 0x3f];
            if (f != ' ') *p++ = f;
        }
        /* everything else (spaces, apostrophes, other scripts) is dropped */
    }
    return p;
}
