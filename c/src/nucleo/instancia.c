/* Instances: creation from a seed, the reference date, freeing and derived children. */
#include <stdlib.h>

#include "internal.h"
#include "nucleo/calendario.h"

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

