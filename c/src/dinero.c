/* dinero: CLP amounts, UF in integer hundredths, salaries, Chilean number formatting. */
#include "internal.h"

static int dt__rango_valido(int64_t min, int64_t max) { return min >= 0 && min <= max && max <= DT_DINERO_MAX; }

static char *dt__put_clp(char *p, int64_t monto) {
    *p++ = '$';
    return dt__put_miles(p, (uint64_t)monto);
}

static char *dt__put_uf(char *p, int64_t centesimos) {
    p = dt__put(p, "UF ", 3);
    p = dt__put_miles(p, (uint64_t)(centesimos / 100));
    *p++ = ',';
    return dt__put_u32_width(p, (uint32_t)(centesimos % 100), 2);
}

dt_status dt_dinero_monto(dt_gen *g, int64_t min, int64_t max, int64_t *out) {
    if (g == NULL || out == NULL) return DT_ERR_NULL;
    if (!dt__rango_valido(min, max)) return DT_ERR_INVALID_ARG;
    *out = dt__range(g, min, max);
    return DT_OK;
}

dt_status dt_dinero_clp(dt_gen *g, int64_t min, int64_t max, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(dt__rango_valido(min, max));
    p = dt__put_clp(p, dt__range(g, min, max));
    DT_END_TEXT();
}

dt_status dt_dinero_uf(dt_gen *g, int64_t min, int64_t max, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(dt__rango_valido(min, max));
    p = dt__put_uf(p, dt__range(g, min, max));
    DT_END_TEXT();
}

/* A band (one draw: 40 % up to $800.000, 35 % up to $1.500.000, 18 % up to $3.000.000,
 * 7 % up to $8.000.000), then a multiple of $1.000 inside it (one draw). */
dt_status dt_dinero_sueldo(dt_gen *g, int64_t *out) {
    if (g == NULL || out == NULL) return DT_ERR_NULL;
    static const uint32_t techo[4] = {40, 75, 93, 100};
    static const uint32_t miles[5] = {DT_SUELDO_MINIMO / 1000, 800, 1500, 3000, 8000};
    uint32_t banda = dt__below(g, 100), i = 0;
    while (banda >= techo[i]) i++;
    uint32_t desde = i == 0 ? miles[0] : miles[i] + 1;
    *out = (int64_t)(desde + dt__below(g, miles[i + 1] - desde + 1)) * 1000;
    return DT_OK;
}

dt_status dt_dinero_formatear_clp(int64_t monto, char *buf, size_t cap, size_t *len) {
    if (buf == NULL && cap > 0) return DT_ERR_NULL;
    if (monto < 0 || monto > DT_DINERO_MAX) return DT_ERR_INVALID_ARG;
    char tmp[32];
    return dt__copy_out(tmp, (size_t)(dt__put_clp(tmp, monto) - tmp), buf, cap, len);
}

dt_status dt_dinero_formatear_uf(int64_t centesimos, char *buf, size_t cap, size_t *len) {
    if (buf == NULL && cap > 0) return DT_ERR_NULL;
    if (centesimos < 0 || centesimos > DT_DINERO_MAX) return DT_ERR_INVALID_ARG;
    char tmp[32];
    return dt__copy_out(tmp, (size_t)(dt__put_uf(tmp, centesimos) - tmp), buf, cap, len);
}
