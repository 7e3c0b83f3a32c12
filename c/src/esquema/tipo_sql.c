/* tipo_sql: the whitelist grammar of a schema column's PostgreSQL type (tipo_sql.h). */
#include "esquema/tipo_sql.h"

#include <stdint.h>
#include <string.h>

/* A decimal from lo to hi, digits only and no leading zero, at s[*i]; advances *i. 0 if not one. */
static int dt__tipo_num(const char *s, size_t n, size_t *i, uint64_t lo, uint64_t hi, uint64_t *out) {
    size_t j = *i;
    uint64_t x = 0;
    if (j >= n || s[j] < '0' || s[j] > '9' || (s[j] == '0' && j + 1 < n && s[j + 1] >= '0' && s[j + 1] <= '9')) return 0;
    while (j < n && s[j] >= '0' && s[j] <= '9') {
        if (x > hi) return 0;
        x = x * 10 + (uint64_t)(s[j++] - '0');
    }
    if (x < lo || x > hi) return 0;
    *i = j;
    *out = x;
    return 1;
}

/* PostgreSQL's own spelling and limits (numeric's precision 1000, varchar's 10485760), so every
 * accepted type is one PostgreSQL accepts; lowercase only, so the DDL is one spelling per type. */
int dt__tipo_sql(const char *s, size_t n) {
    if (memchr(s, '\0', n)) return 0;
    static const struct {
        const char *nombre;
        int familia;
    } solos[] = {{"smallint", DT__F_ENTERO}, {"integer", DT__F_ENTERO}, {"bigint", DT__F_ENTERO}, {"numeric", DT__F_ENTERO},
                 {"text", DT__F_TEXTO},      {"date", DT__F_FECHA},     {"timestamp", DT__F_TIEMPO},
                 {"timestamptz", DT__F_TIEMPO}, {"uuid", DT__F_UUID}};
    for (size_t k = 0; k < sizeof solos / sizeof solos[0]; k++)
        if (strlen(solos[k].nombre) == n && memcmp(s, solos[k].nombre, n) == 0) return solos[k].familia;
    size_t i;
    uint64_t a, b;
    if (n > 8 && memcmp(s, "numeric(", 8) == 0) {
        i = 8;
        if (!dt__tipo_num(s, n, &i, 1, 1000, &a)) return 0;
        if (i < n && s[i] == ',') {
            i++;
            if (!dt__tipo_num(s, n, &i, 0, a, &b)) return 0;
        }
        return i + 1 == n && s[i] == ')' ? DT__F_ENTERO : 0;
    }
    i = n > 8 && memcmp(s, "varchar(", 8) == 0 ? 8 : n > 5 && memcmp(s, "char(", 5) == 0 ? 5 : 0;
    if (i == 0 || !dt__tipo_num(s, n, &i, 1, 10485760, &a)) return 0;
    return i + 1 == n && s[i] == ')' ? DT__F_TEXTO : 0;
}

int dt__tipo_familia(const char *tipo) {
    if (tipo[0] == 'i' || tipo[0] == 'b') return DT__F_ENTERO;
    if (strcmp(tipo, "uuid") == 0) return DT__F_UUID; /* a serie = "uuid" */
    return strcmp(tipo, "date") == 0 ? DT__F_FECHA : DT__F_TEXTO;
}
