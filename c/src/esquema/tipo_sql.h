/* tipo_sql: the whitelist of PostgreSQL types a schema column may declare (docs/esquemas.md,
 * tipo_sql), and what each can hold. Pure functions of their text; no state. Not installed. */
#ifndef DT_ESQUEMA_TIPO_SQL_H
#define DT_ESQUEMA_TIPO_SQL_H

#include <stddef.h>

/* What a column's values are, and what a type holds (TIEMPO: a date and a time of day, no zone). */
enum { DT__F_ENTERO = 1, DT__F_TEXTO, DT__F_FECHA, DT__F_TIEMPO, DT__F_UUID };

/* The family of the `n` bytes at s if they spell a type of the whitelist exactly: smallint, integer,
 * bigint, numeric, numeric(p), numeric(p,s) (1 <= p <= 1000, 0 <= s <= p), text, varchar(n), char(n)
 * (1 <= n <= 10485760), date, timestamp, timestamptz (the last two hold a date too, as its midnight),
 * uuid (a serie = "uuid"'s values only);
 * lowercase, no spaces, no leading zeros. 0 otherwise (NUL bytes included). At most 18 bytes when
 * accepted. */
int dt__tipo_sql(const char *s, size_t n);

/* The family of the values of a column whose type is one of the library's own ("bigint", "integer",
 * "date", "text", "char(1)", a serie's "uuid"): integers, dates, UUIDs or text. */
int dt__tipo_familia(const char *tipo);

#endif
