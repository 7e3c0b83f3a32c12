/* Civil dates and birth dates relative to the instance's reference date. */
#include "fecha.h"

#include "internal.h"

int dt__bisiesto(int32_t a) { return (a % 4 == 0 && a % 100 != 0) || a % 400 == 0; }

int32_t dt__dias_mes(int32_t a, int32_t m) {
    static const int8_t dias[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && dt__bisiesto(a) ? 29 : dias[m - 1];
}

int dt__fecha_valida(int32_t a, int32_t m, int32_t d) {
    return a >= 1900 && a <= 2200 && m >= 1 && m <= 12 && d >= 1 && d <= dt__dias_mes(a, m);
}

/* Howard Hinnant's days_from_civil / civil_from_days, integer only. */
int64_t dt__dias_desde_civil(int32_t a, int32_t m, int32_t d) {
    int64_t y = (int64_t)a - (m <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void dt__civil_desde_dias(int64_t z, int32_t *a, int32_t *m, int32_t *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t dd = doy - (153 * mp + 2) / 5 + 1;
    int64_t mm = mp < 10 ? mp + 3 : mp - 9;
    *a = (int32_t)(y + (mm <= 2));
    *m = (int32_t)mm;
    *d = (int32_t)dd;
}

int dt__edades_validas(int32_t edad_min, int32_t edad_max) {
    return edad_min >= 0 && edad_max <= 120 && edad_min <= edad_max;
}

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

char *dt__put_fecha(char *p, int64_t dias) {
    int32_t a, m, d;
    dt__civil_desde_dias(dias, &a, &m, &d);
    p = dt__put_u32_width(p, (uint32_t)a, 4);
    *p++ = '-';
    p = dt__put_u32_width(p, (uint32_t)m, 2);
    *p++ = '-';
    return dt__put_u32_width(p, (uint32_t)d, 2);
}

dt_status dt_persona_fecha_nacimiento(dt_gen *g, int32_t edad_min, int32_t edad_max, char *buf, size_t cap, size_t *len) {
    dt_status st = dt__check_out(g, buf, cap);
    if (st != DT_OK) return st;
    if (!dt__edades_validas(edad_min, edad_max)) return DT_ERR_INVALID_ARG;
    dt_rng saved = g->rng;
    char tmp[16];
    char *end = dt__gen_fecha_nacimiento(g, edad_min, edad_max, tmp, NULL);
    return dt__emit(g, &saved, tmp, (size_t)(end - tmp), buf, cap, len);
}

/* ---- fecha: dates and times relative to the reference date ---- */

#define DT__FECHA_RANGO 36500 /* days either side of the reference date: a century */

static int dt__rango_valido(int32_t desde, int32_t hasta) {
    return desde >= -DT__FECHA_RANGO && hasta <= DT__FECHA_RANGO && desde <= hasta;
}

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

dt_status dt_fecha_fecha(dt_gen *g, int32_t desde, int32_t hasta, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(dt__rango_valido(desde, hasta));
    p = dt__gen_fecha_rango(g, desde, hasta, p);
    DT_END_TEXT();
}

dt_status dt_fecha_hora(dt_gen *g, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(1);
    p = dt__gen_hora(g, p);
    DT_END_TEXT();
}

dt_status dt_fecha_fecha_hora(dt_gen *g, int32_t desde, int32_t hasta, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(dt__rango_valido(desde, hasta));
    p = dt__gen_fecha_rango(g, desde, hasta, p);
    *p++ = 'T';
    p = dt__gen_hora(g, p);
    DT_END_TEXT();
}
