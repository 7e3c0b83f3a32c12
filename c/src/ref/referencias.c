/* The directory of reference tables with their digests (the tables themselves: tablas.gen.c). */
#include "internal.h"
#include "ref/huella.h"

size_t dt_referencia_count(void) { return DT_T_N_TABLAS; }

dt_status dt_referencia_at(size_t index, dt_referencia_info *out) {
    if (out == NULL) return DT_ERR_NULL;
    if (index >= DT_T_N_TABLAS) return DT_ERR_INVALID_ARG;
    const dt_t_tabla *t = &dt_t_tablas[index];
    out->name = t->nombre;
    out->rows = t->filas;
    out->digest = t->huella(DT_FNV_BASIS);
    return DT_OK;
}
