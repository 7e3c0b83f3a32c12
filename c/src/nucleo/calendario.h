/* Civil-calendar arithmetic in integers (proleptic Gregorian). */
#ifndef DT_CALENDARIO_H
#define DT_CALENDARIO_H

#include <stdint.h>

int dt__bisiesto(int32_t anio);
int32_t dt__dias_mes(int32_t anio, int32_t mes);
/* 1 if the date exists and DT_HOY_ANIO_MIN <= anio <= DT_HOY_ANIO_MAX. */
int dt__fecha_valida(int32_t anio, int32_t mes, int32_t dia);
/* Days since 1970-01-01 (negative before). */
int64_t dt__dias_desde_civil(int32_t anio, int32_t mes, int32_t dia);
void dt__civil_desde_dias(int64_t dias, int32_t *anio, int32_t *mes, int32_t *dia);
/* "YYYY-MM-DD" of a day number at p; returns the end. */
char *dt__put_fecha(char *p, int64_t dias);

#endif
