/* dinero: CLP amounts, UF in integer hundredths, salaries, Chilean number formatting. */
#include "internal.h"


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

int64_t dt__dinero_monto(dt_gen *g, int64_t min, int64_t max) {
    return dt__range(g, min, max);
}

char *dt__dinero_clp(dt_gen *g, int64_t min, int64_t max, char *p) {
    p = dt__put_clp(p, dt__range(g, min, max));
    return p;
}

char *dt__dinero_uf(dt_gen *g, int64_t min, int64_t max, char *p) {
    p = dt__put_uf(p, dt__range(g, min, max));
    return p;
}

uint32_t dt__sueldo_minimo(const dt_gen *g) {
    uint32_t hoy = (uint32_t)(g->hoy_anio * 10000 + g->hoy_mes * 100 + g->hoy_dia), clp = dt_t_minimos[0].clp;
    for (uint32_t i = 0; i < DT_T_N_MINIMOS && dt_t_minimos[i].desde <= hoy; i++) clp = dt_t_minimos[i].clp;
    return clp;
}

/* A band (one draw below 1000), then a multiple of $1.000 inside it (one draw). The band edges are
 * INE ESI 2024's net figures turned gross by their 18.7 % of legal deductions (docs/data.md): the
 * median $611.162 net -> $752.000, the mean $897.019 -> $1.103.000 (68.3 % earn at most the mean),
 * $3.000.000 net -> $3.690.000 (3.3 % above), $4.500.000 net -> $5.535.000 (1.2 % above), up to
 * $8.000.000. The first band starts at the minimum wage in force on hoy, rounded up to $1.000. */
int64_t dt__dinero_sueldo(dt_gen *g) {
    static const uint32_t techo[5] = {500, 683, 967, 988, 1000};        /* per mille, cumulative */
    static const uint32_t miles[6] = {0, 752, 1103, 3690, 5535, 8000}; /* band edges, thousands */
    uint32_t minimo = (dt__sueldo_minimo(g) + 999) / 1000;
    uint32_t banda = dt__below(g, 1000), i = 0;
    while (banda >= techo[i]) i++;
    uint32_t desde = i == 0 ? minimo : miles[i] + 1, hasta = miles[i + 1];
    if (desde > hasta) desde = hasta; /* a minimum above the first band's top: not in the table */
    return (int64_t)(desde + dt__below(g, hasta - desde + 1)) * 1000;
}

/* ---- utilities (the registry checked the arguments: c/src/registro/utilidades.c) ---- */

dt_status dt__util_formatear_clp(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    (void)s, (void)n;
    *end = dt__put_clp(p, a[0]);
    return DT_OK;
}

dt_status dt__util_formatear_uf(const char *s, size_t n, const int64_t *a, char *p, char **end) {
    (void)s, (void)n;
    *end = dt__put_uf(p, a[0]);
    return DT_OK;
}
