/* Civil dates and birth dates relative to the instance's reference date. */
#include "internal.h"
#include "nucleo/calendario.h"

/* The same day `n` years earlier; 29 February becomes 28 February in a common year. */
static int64_t dt__hace_anios(const dt_gen *g, int32_t n) {
    int32_t a = g->hoy_anio - n;
    int32_t d = g->hoy_dia;
    if (d > dt__dias_mes(a, g->hoy_mes)) d = dt__dias_mes(a, g->hoy_mes);
    return dt__dias_desde_civil(a, g->hoy_mes, d);
}

/* The age: weighted by the population of each age (dt_t_edades) within [edad_min, edad_max],
 * one draw; uniform over the range when no age in it has a weight (only ages above 110). */
static int32_t dt__gen_edad(dt_gen *g, int32_t edad_min, int32_t edad_max) {
    uint32_t total = 0;
    for (int32_t e = edad_min; e <= edad_max; e++) total += dt_t_edades[e];
    if (total == 0) return edad_min + (int32_t)dt__below(g, (uint32_t)(edad_max - edad_min + 1));
    uint32_t r = dt__below(g, total);
    int32_t e = edad_min;
    while (r >= dt_t_edades[e]) r -= dt_t_edades[e++];
    return e;
}

/* Aged edad_min..edad_max on "hoy": the age by the pyramid (one draw), then the day uniform among
 * those on which one turns that age (one draw): born after the day age + 1 years before hoy, and
 * on or before the day age years before hoy. */
char *dt__gen_fecha_nacimiento(dt_gen *g, int32_t edad_min, int32_t edad_max, char *p, int32_t *edad_out) {
    int32_t edad = dt__gen_edad(g, edad_min, edad_max);
    if (edad_out) *edad_out = edad;
    return dt__gen_fecha_edad(g, edad, p);
}

char *dt__gen_fecha_edad(dt_gen *g, int32_t edad, char *p) {
    int64_t desde = dt__hace_anios(g, edad + 1) + 1;
    int64_t hasta = dt__hace_anios(g, edad);
    return dt__put_fecha(p, desde + dt__below(g, (uint32_t)(hasta - desde + 1)));
}

char *dt__persona_fecha_nacimiento(dt_gen *g, int32_t edad_min, int32_t edad_max, char *p) {
    return dt__gen_fecha_nacimiento(g, edad_min, edad_max, p, NULL);
}

/* ---- fecha: dates and times relative to the reference date ---- */

/* One draw: a day in [hoy + desde, hoy + hasta]. */
static char *dt__gen_fecha_rango(dt_gen *g, int32_t desde, int32_t hasta, char *p) {
    int64_t hoy = dt__dias_desde_civil(g->hoy_anio, g->hoy_mes, g->hoy_dia);
    return dt__put_fecha(p, hoy + desde + dt__below(g, (uint32_t)(hasta - desde + 1)));
}

/* One draw: a second of the day. */
static char *dt__gen_hora(dt_gen *g, char *p) {
    uint32_t s = dt__below(g, 86400u);
    p = dt__put_u32_width(p, s / 3600u, 2);
    *p++ = ':';
    p = dt__put_u32_width(p, s / 60u % 60u, 2);
    *p++ = ':';
    return dt__put_u32_width(p, s % 60u, 2);
}

char *dt__fecha_fecha(dt_gen *g, int32_t desde, int32_t hasta, char *p) {
    p = dt__gen_fecha_rango(g, desde, hasta, p);
    return p;
}

char *dt__fecha_hora(dt_gen *g, char *p) {
    p = dt__gen_hora(g, p);
    return p;
}

char *dt__fecha_fecha_hora(dt_gen *g, int32_t desde, int32_t hasta, char *p) {
    p = dt__gen_fecha_rango(g, desde, hasta, p);
    *p++ = 'T';
    p = dt__gen_hora(g, p);
    return p;
}
