/* What a table's CHECK constraints say to the detector (dt_detector_check; docs/enmascarar.md, "What
 * the database declares"): every column a CHECK names is marked, so no per-cell noise leaves the range
 * it allows; and a CHECK that binds one column to a sum of others (`monto_total = monto_neto +
 * monto_exento + iva`, `liquido = total_haberes - total_descuentos`) is kept as that sum, so the free
 * columns can be masked and the bound one computed from their masked values (the rule suma). The
 * expression is read as text: identifiers (bare, "double-quoted" or `back-quoted`), casts (::numeric)
 * and parentheses around the whole skipped; anything else makes it a CHECK that is only marked. */
#include <stdlib.h>

#include "internal.h"
#include "mascara/detector_check.h"

#define DT__DC_MAX 16

typedef struct dt__dc_token {
    char tipo; /* 'i' identifier, '=', '+', '-', '(', ')', '?' anything else */
    const char *s;
    size_t n;
} dt__dc_token;

static int dt__dc_letra(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (unsigned char)c >= 0x80 || (c >= '0' && c <= '9');
}

/* The tokens of t, at most cap; the count, or cap + 1 when there were more. */
static size_t dt__dc_tokens(const char *t, dt__dc_token *out, size_t cap) {
    size_t n = 0;
    for (const char *p = t; *p;) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            p++;
            continue;
        }
        if (p[0] == ':' && p[1] == ':') { /* a cast: ::numeric, ::numeric(14,0) */
            p += 2;
            while (dt__dc_letra(*p) || *p == ' ') p++;
            if (*p == '(') {
                while (*p && *p != ')') p++;
                if (*p) p++;
            }
            continue;
        }
        if (n == cap) return cap + 1;
        dt__dc_token *k = &out[n++];
        if (*p == '"' || *p == '`') {
            char q = *p++;
            k->tipo = 'i', k->s = p;
            while (*p && *p != q) p++;
            k->n = (size_t)(p - k->s);
            if (*p) p++;
        } else if (dt__dc_letra(*p) && !(*p >= '0' && *p <= '9')) {
            k->tipo = 'i', k->s = p;
            while (dt__dc_letra(*p)) p++;
            k->n = (size_t)(p - k->s);
        } else if (*p == '=' || *p == '+' || *p == '-' || *p == '(' || *p == ')') {
            k->tipo = *p, k->s = p, k->n = 1;
            p++;
        } else {
            k->tipo = '?', k->s = p, k->n = 1;
            p++;
        }
    }
    return n;
}

static int dt__dc_igual(const char *a, size_t n, const char *b) {
    size_t m = strlen(b);
    if (m != n) return 0;
    for (size_t i = 0; i < n; i++)
        if ((a[i] | 0x20) != (b[i] | 0x20)) return 0;
    return 1;
}

static long dt__dc_columna(const dt__dc_token *k, char *const *columnas, size_t ncol) {
    for (size_t j = 0; j < ncol; j++)
        if (dt__dc_igual(k->s, k->n, columnas[j])) return (long)j;
    return -1;
}

/* terms: IDENT (('+'|'-') IDENT)*, parentheses ignored; each term's column and sign into t. The count,
 * or -1 when it is not such a sum. */
static int dt__dc_terminos(const dt__dc_token *k, size_t a, size_t b, char *const *columnas, size_t ncol,
                           dt__dc_termino *t, size_t cap) {
    int n = 0, signo = 1, espera = 1;
    for (size_t i = a; i < b; i++) {
        if (k[i].tipo == '(' || k[i].tipo == ')') continue;
        if (espera && k[i].tipo == 'i') {
            long c = dt__dc_columna(&k[i], columnas, ncol);
            if (c < 0 || (size_t)n == cap) return -1;
            t[n].columna = (size_t)c, t[n].signo = signo;
            n++;
            espera = 0;
        } else if (!espera && (k[i].tipo == '+' || k[i].tipo == '-')) {
            signo = k[i].tipo == '+' ? 1 : -1;
            espera = 1;
        } else {
            return -1;
        }
    }
    return espera ? -1 : n;
}

/* Whether the CHECK only says a column is not negative (`saldo >= 0`, `(monto > 0)`): noise within ±P %,
 * P below 100, keeps a number's sign, so it holds over masked amounts. */
static int dt__dc_signo(const char *texto, char *const *columnas, size_t ncol) {
    char t[160];
    size_t n = 0;
    for (const char *p = texto; *p && n + 1 < sizeof t; p++)
        if (*p != ' ' && *p != '(' && *p != ')' && *p != '"' && *p != '`') t[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    t[n] = '\0';
    const char *u = strncmp(t, "check", 5) == 0 ? t + 5 : t;
    for (size_t j = 0; j < ncol; j++) {
        size_t m = strlen(columnas[j]);
        if (strlen(u) <= m || !dt__dc_igual(u, m, columnas[j])) continue;
        if (strcmp(u + m, ">=0") == 0 || strcmp(u + m, ">0") == 0) return 1;
    }
    return 0;
}

int dt__dc_leer(const char *texto, char *const *columnas, size_t ncol, unsigned char *nombradas, dt__dc_suma *suma) {
    dt__dc_token k[64];
    suma->n = 0;
    if (texto == NULL || dt__dc_signo(texto, columnas, ncol)) return 0;
    size_t n = dt__dc_tokens(texto, k, 64);
    size_t a = 0;
    if (n > 64) n = 64; /* a long CHECK: its columns are still marked below, it is no sum */
    for (size_t i = 0; i < n; i++)
        if (k[i].tipo == 'i') {
            long c = dt__dc_columna(&k[i], columnas, ncol);
            if (c >= 0) nombradas[c] = 1;
        }
    if (n > 0 && k[0].tipo == 'i' && dt__dc_igual(k[0].s, k[0].n, "check")) a = 1;
    size_t igual = n, iguales = 0;
    for (size_t i = a; i < n; i++)
        if (k[i].tipo == '=') igual = i, iguales++;
    if (iguales != 1) return 0;
    dt__dc_termino izq[DT__DC_MAX], der[DT__DC_MAX];
    int ni = dt__dc_terminos(k, a, igual, columnas, ncol, izq, DT__DC_MAX);
    int nd = dt__dc_terminos(k, igual + 1, n, columnas, ncol, der, DT__DC_MAX);
    if (ni < 1 || nd < 1 || (ni > 1 && nd > 1) || ni + nd < 3) return 0;
    /* one column alone on a side, positive: it is bound; the other side's terms are free */
    const dt__dc_termino *solo = ni == 1 ? &izq[0] : &der[0], *otros = ni == 1 ? der : izq;
    int no = ni == 1 ? nd : ni;
    if (solo->signo != 1) return 0;
    suma->ligada = solo->columna;
    for (int i = 0; i < no; i++) {
        if (otros[i].columna == solo->columna) return 0;
        suma->t[i] = otros[i];
    }
    suma->n = (size_t)no;
    return 1;
}
