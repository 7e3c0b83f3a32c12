/* Civil-calendar arithmetic in integers (proleptic Gregorian): no clock, no time zone, no locale. */
#include "nucleo/calendario.h"

#include "internal.h"

int dt__bisiesto(int32_t a) { return (a % 4 == 0 && a % 100 != 0) || a % 400 == 0; }

int32_t dt__dias_mes(int32_t a, int32_t m) {
    static const int8_t dias[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && dt__bisiesto(a) ? 29 : dias[m - 1];
}

int dt__fecha_valida(int32_t a, int32_t m, int32_t d) {
    return a >= DT_HOY_ANIO_MIN && a <= DT_HOY_ANIO_MAX && m >= 1 && m <= 12 && d >= 1 && d <= dt__dias_mes(a, m);
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

char *dt__put_fecha(char *p, int64_t dias) {
    int32_t a, m, d;
    dt__civil_desde_dias(dias, &a, &m, &d);
    p = dt__put_u32_width(p, (uint32_t)a, 4);
    *p++ = '-';
    p = dt__put_u32_width(p, (uint32_t)m, 2);
    *p++ = '-';
    return dt__put_u32_width(p, (uint32_t)d, 2);
}
