/* The random stream: PCG32 seeding as the reference pcg32_srandom_r, the exposed draws, bounded
 * ranges, and an instance's state as plain bytes. */
#include "internal.h"
#include "nucleo/calendario.h"
#include "ref/huella.h"

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

dt_status dt_next_u32(dt_gen *g, uint32_t *out) {
    if (g == NULL || out == NULL) return DT_ERR_NULL;
    *out = dt__next(g);
    return DT_OK;
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

