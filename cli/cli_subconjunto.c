/* datoteca copiar --subconjunto "clientes=10%": the part every database's subset shares (cli_interno.h):
 * reading the roots' shares, and whether a root's row is kept. The decision is integers only (SplitMix64's
 * finalizer over the seed, an FNV-1a hash of the table's name and the row's identity), so the same seed
 * keeps the same rows on every machine; what identifies a row is the database's (SQLite's rowid,
 * PostgreSQL's primary key as text). No database is linked here: the library holds it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"

static uint64_t mezcla(uint64_t x) { /* SplitMix64's finalizer: every bit of x reaches every bit out */
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

uint64_t dt__cli_sub_fnv(const char *s, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

uint64_t dt__cli_sub_sal(uint64_t semilla, const char *tabla) { return mezcla(semilla ^ dt__cli_sub_fnv(tabla, strlen(tabla))); }

int dt__cli_sub_queda(uint64_t sal, uint64_t fila, unsigned pct) { return mezcla(sal ^ fila) % 100 < (uint64_t)pct; }

int dt__cli_sub_donde(const char *d, char *const *tablas, size_t nt, size_t *tabla, const char **expr) {
    const char *igual = strchr(d, '=');
    size_t i = 0;
    while (igual && i < nt && !(strlen(tablas[i]) == (size_t)(igual - d) && strncmp(tablas[i], d, (size_t)(igual - d)) == 0)) i++;
    if (igual == NULL || igual[1] == '\0') {
        fprintf(stderr, "datoteca: copiar: --donde must be TABLE=CONDITION, such as \"clientes=region = 13\"\n");
        return 2;
    }
    if (i == nt) {
        fprintf(stderr, "datoteca: copiar: --donde names a table the source does not have: %.*s\n", (int)(igual - d), d);
        return 2;
    }
    *tabla = i, *expr = igual + 1;
    return 0;
}

int dt__cli_sub_raices(const char *spec, char *const *tablas, size_t nt, unsigned char *pct) {
    memset(pct, 0, nt);
    for (const char *p = spec; *p;) {
        const char *igual = strchr(p, '='), *fin = strchr(p, ',');
        if (fin == NULL) fin = p + strlen(p);
        char *resto = NULL;
        long n = igual && igual < fin ? strtol(igual + 1, &resto, 10) : -1;
        if (igual == NULL || igual > fin || resto == NULL || *resto != '%' || resto + 1 != fin || n < 1 || n > 100) {
            fprintf(stderr, "datoteca: copiar: --subconjunto must be TABLE=N%% (N from 1 to 100), comma-separated, such as "
                            "clientes=10%%\n");
            return 2;
        }
        size_t i = 0;
        while (i < nt && !(strlen(tablas[i]) == (size_t)(igual - p) && strncmp(tablas[i], p, (size_t)(igual - p)) == 0)) i++;
        if (i == nt) {
            fprintf(stderr, "datoteca: copiar: --subconjunto names a table the source does not have: %.*s\n", (int)(igual - p), p);
            return 2;
        }
        pct[i] = (unsigned char)n;
        p = *fin ? fin + 1 : fin;
    }
    return 0;
}
