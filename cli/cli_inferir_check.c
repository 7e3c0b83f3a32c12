/* datoteca inferir: the CHECK constraints a schema document can say. A CHECK is read as a conjunction
 * of simple terms on one column each: `col IN ('a', 'b')`, PostgreSQL's `col = ANY (ARRAY['a', 'b'])`,
 * `col BETWEEN a AND b`, and comparisons of a column with an integer. Anything else (OR, NOT,
 * functions, two columns) makes the whole CHECK unread, which the caller lists as not expressed:
 * a CHECK is never half-read. Casts (`::text`, `::character varying[]`) and parentheses are skipped,
 * since they change no value a term allows. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_inferir.h"

enum { T_ID, T_NUM, T_STR, T_OP, T_COMA, T_FIN };

typedef struct tok {
    int tipo;
    char *s; /* identifiers lower-cased unless quoted; strings unquoted */
    int64_t v;
} tok;

static int es_id(int c) { return isalnum(c) || c == '_' || c >= 0x80; }

/* The tokens of `s` (casts and parentheses dropped), or -1 for something no term has. */
static long tokens(const char *s, tok **out) {
    size_t cap = 16, n = 0;
    tok *v = (tok *)malloc(cap * sizeof *v);
    if (v == NULL) return -1;
    const char *p = s;
    while (*p) {
        if (n + 2 >= cap) {
            tok *w = (tok *)realloc(v, (cap *= 2) * sizeof *v);
            if (w == NULL) goto mal;
            v = w;
        }
        unsigned char c = (unsigned char)*p;
        if (isspace(c) || c == '(' || c == ')' || c == '[' || c == ']') {
            p++;
            continue;
        }
        if (c == ':' && p[1] == ':') { /* a cast: skip its type name, words and brackets */
            p += 2;
            while (*p == ' ') p++;
            if (*p == '"') {
                p++;
                while (*p && *p != '"') p++;
                if (*p) p++;
            }
            for (;;) {
                while (es_id((unsigned char)*p)) p++;
                if (*p == '[' && p[1] == ']') {
                    p += 2;
                    continue;
                }
                /* "character varying", "timestamp without time zone", "double precision" */
                const char *q = p;
                while (*q == ' ') q++;
                if (q != p && (strncmp(q, "varying", 7) == 0 || strncmp(q, "without", 7) == 0 || strncmp(q, "with", 4) == 0 ||
                               strncmp(q, "time", 4) == 0 || strncmp(q, "zone", 4) == 0 || strncmp(q, "precision", 9) == 0)) {
                    p = q;
                    continue;
                }
                break;
            }
            continue;
        }
        tok *t = &v[n];
        t->s = NULL;
        t->v = 0;
        if (c == '\'') {
            size_t k = 0, m = strlen(p);
            char *d = (char *)malloc(m + 1);
            if (d == NULL) goto mal;
            p++;
            for (;;) {
                if (*p == '\0') {
                    free(d);
                    goto mal;
                }
                if (*p == '\'' && p[1] == '\'') {
                    d[k++] = '\'';
                    p += 2;
                } else if (*p == '\'') {
                    p++;
                    break;
                } else
                    d[k++] = *p++;
            }
            d[k] = '\0';
            t->tipo = T_STR, t->s = d;
        } else if (c == '"' || c == '`') {
            const char *q = strchr(p + 1, (char)c);
            if (q == NULL) goto mal;
            t->tipo = T_ID, t->s = dt__ic_dupn(p + 1, (size_t)(q - p - 1));
            if (t->s == NULL) goto mal;
            p = q + 1;
        } else if (isdigit(c) || (c == '-' && isdigit((unsigned char)p[1]))) {
            char *fin;
            long long x = strtoll(p, &fin, 10);
            if (*fin == '.' || *fin == 'e' || *fin == 'E') goto mal; /* a fraction: not an integer bound */
            t->tipo = T_NUM, t->v = x;
            p = fin;
        } else if (es_id(c)) {
            const char *q = p;
            while (es_id((unsigned char)*q)) q++;
            t->tipo = T_ID, t->s = dt__ic_dupn(p, (size_t)(q - p));
            if (t->s == NULL) goto mal;
            for (char *w = t->s; *w; w++) *w = (char)tolower((unsigned char)*w);
            p = q;
        } else if (c == ',') {
            t->tipo = T_COMA;
            p++;
        } else if (strchr("<>=!", (int)c)) {
            char op[3] = {(char)c, 0, 0};
            if (p[1] == '=' || (c == '<' && p[1] == '>')) op[1] = p[1];
            t->tipo = T_OP, t->s = dt__ic_dup(op);
            if (t->s == NULL) goto mal;
            p += op[1] ? 2 : 1;
        } else
            goto mal;
        n++;
    }
    v[n].tipo = T_FIN, v[n].s = NULL;
    *out = v;
    return (long)n;
mal:
    for (size_t i = 0; i < n; i++) free(v[i].s);
    free(v);
    return -1;
}

static int es(const tok *t, const char *w) { return t->tipo == T_ID && strcmp(t->s, w) == 0; }

/* A string written as an integer ('-5'::integer): its value. */
static int numero(const tok *t, int64_t *v) {
    if (t->tipo == T_NUM) {
        *v = t->v;
        return 1;
    }
    if (t->tipo == T_STR && t->s[0]) {
        char *fin;
        long long x = strtoll(t->s, &fin, 10);
        if (*fin == '\0') {
            *v = x;
            return 1;
        }
    }
    return 0;
}

static long columna(const dt__ic_tabla *t, const tok *k, long valor_col) {
    if (k->tipo != T_ID) return -1;
    if (valor_col >= 0 && strcmp(k->s, "value") == 0) return valor_col;
    for (size_t i = 0; i < t->ncols; i++) {
        const char *n = t->cols[i].nombre;
        size_t j = 0;
        for (; n[j] && k->s[j] && tolower((unsigned char)n[j]) == tolower((unsigned char)k->s[j]); j++) {}
        if (n[j] == '\0' && k->s[j] == '\0') return (long)i;
    }
    return -1;
}

static void acotar(dt__inf_check *r, const char *op, int64_t v, int col_a_la_izquierda) {
    /* col op v, or v op col (then the operator reads mirrored) */
    char o[3];
    strcpy(o, op);
    if (!col_a_la_izquierda) {
        if (o[0] == '<') o[0] = '>';
        else if (o[0] == '>') o[0] = '<';
    }
    if (strcmp(o, ">=") == 0 || strcmp(o, ">") == 0) {
        int64_t m = o[1] ? v : (v == INT64_MAX ? v : v + 1);
        if (!r->con_min || m > r->min) r->min = m, r->con_min = 1;
    } else if (strcmp(o, "<=") == 0 || strcmp(o, "<") == 0) {
        int64_t m = o[1] ? v : (v == INT64_MIN ? v : v - 1);
        if (!r->con_max || m < r->max) r->max = m, r->con_max = 1;
    } else if (strcmp(o, "=") == 0) {
        r->min = r->max = v, r->con_min = r->con_max = 1;
    }
}

int dt__inf_check_leer(const dt__ic_tabla *t, const char *texto, long valor_col, dt__inf_check *r, size_t ncols) {
    tok *v;
    const char *s = texto;
    while (isspace((unsigned char)*s)) s++;
    if (strncmp(s, "CHECK", 5) == 0 || strncmp(s, "check", 5) == 0) s += 5;
    long n = tokens(s, &v);
    if (n < 0) return 0;
    /* read into a copy, so a CHECK that fails half-way changes nothing */
    dt__inf_check *cp = (dt__inf_check *)calloc(ncols ? ncols : 1, sizeof *cp);
    int ok = cp != NULL;
    long i = 0;
    while (ok && i < n) {
        long c = columna(t, &v[i], valor_col);
        int64_t x, y;
        if (c >= 0 && es(&v[i + 1], "in")) {
            i += 2;
            for (;;) {
                if (v[i].tipo != T_STR && v[i].tipo != T_NUM) {
                    ok = 0;
                    break;
                }
                char num[32];
                if (v[i].tipo == T_NUM) snprintf(num, sizeof num, "%lld", (long long)v[i].v);
                if (dt__inf_lista_add(&cp[c], v[i].tipo == T_NUM ? num : v[i].s)) ok = 0;
                i++;
                if (v[i].tipo == T_COMA) i++;
                else break;
            }
        } else if (c >= 0 && v[i + 1].tipo == T_OP && strcmp(v[i + 1].s, "=") == 0 && es(&v[i + 2], "any")) {
            i += 3;
            if (es(&v[i], "array")) i++;
            for (;;) {
                if (v[i].tipo != T_STR && v[i].tipo != T_NUM) {
                    ok = 0;
                    break;
                }
                char num[32];
                if (v[i].tipo == T_NUM) snprintf(num, sizeof num, "%lld", (long long)v[i].v);
                if (dt__inf_lista_add(&cp[c], v[i].tipo == T_NUM ? num : v[i].s)) ok = 0;
                i++;
                if (v[i].tipo == T_COMA) i++;
                else break;
            }
        } else if (c >= 0 && es(&v[i + 1], "between") && numero(&v[i + 2], &x) && es(&v[i + 3], "and") && numero(&v[i + 4], &y)) {
            acotar(&cp[c], ">=", x, 1);
            acotar(&cp[c], "<=", y, 1);
            i += 5;
        } else if (c >= 0 && v[i + 1].tipo == T_OP && strcmp(v[i + 1].s, "<>") && strcmp(v[i + 1].s, "!=") && numero(&v[i + 2], &x)) {
            acotar(&cp[c], v[i + 1].s, x, 1);
            i += 3;
        } else if (numero(&v[i], &x) && v[i + 1].tipo == T_OP && strcmp(v[i + 1].s, "<>") && strcmp(v[i + 1].s, "!=") &&
                   (c = columna(t, &v[i + 2], valor_col)) >= 0) {
            acotar(&cp[c], v[i + 1].s, x, 0);
            i += 3;
        } else if (c >= 0 && es(&v[i + 1], "is") && es(&v[i + 2], "not") && es(&v[i + 3], "null")) {
            i += 4; /* NOT NULL said as a CHECK: every value the document draws has one */
        } else
            ok = 0;
        if (ok && i < n) {
            if (es(&v[i], "and")) i++;
            else ok = 0;
        }
    }
    if (ok)
        for (size_t k = 0; k < ncols; k++) {
            for (size_t j = 0; j < cp[k].nin; j++)
                if (dt__inf_lista_add(&r[k], cp[k].in[j])) ok = 0;
            if (cp[k].con_min && (!r[k].con_min || cp[k].min > r[k].min)) r[k].min = cp[k].min, r[k].con_min = 1;
            if (cp[k].con_max && (!r[k].con_max || cp[k].max < r[k].max)) r[k].max = cp[k].max, r[k].con_max = 1;
        }
    if (cp)
        for (size_t k = 0; k < ncols; k++) dt__inf_check_free(&cp[k]);
    free(cp);
    for (long k = 0; k < n; k++) free(v[k].s);
    free(v);
    return ok;
}

int dt__inf_lista_add(dt__inf_check *r, const char *s) {
    for (size_t i = 0; i < r->nin; i++)
        if (strcmp(r->in[i], s) == 0) return 0;
    char **p = (char **)realloc(r->in, (r->nin + 1) * sizeof *p);
    if (p == NULL) return 1;
    r->in = p;
    p[r->nin] = dt__ic_dup(s);
    if (p[r->nin] == NULL) return 1;
    r->nin++;
    return 0;
}

void dt__inf_check_free(dt__inf_check *r) {
    for (size_t i = 0; i < r->nin; i++) free(r->in[i]);
    free(r->in);
    memset(r, 0, sizeof *r);
}
