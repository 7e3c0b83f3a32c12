/* The risk report of a masked output (`datoteca riesgo`, docs/enmascarar.md "Measuring the risk"):
 * k-anonymity over the quasi-identifiers the user names, the linkage rate of a pair of columns an
 * attacker knows, and the original values found anywhere in the masked output.
 *
 * Everything is counted with integers and reported as integers (rates as numerator, denominator and
 * per-mille rounded half up), so the report is the same bytes on every platform. The hash tables only
 * count: every number in the report is a sum over all entries or comes from a sorted array, never from
 * the order the table happens to hold its entries in.
 *
 * Memory: the classes table holds one entry per distinct quasi-identifier tuple (its bytes and a
 * count); the linkage table one per distinct generalised pair seen in either file (its bytes and three
 * counts); the needles, one per distinct value of the personal columns of the original (its bytes and
 * the column). Nothing is kept per row, so a file of any length is read in one pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datoteca.h"
#include "internal.h"

#define DT__RG_COLS_MAX 64     /* quasi-identifiers, and personal columns (a 64-bit set per cell) */
#define DT__RG_AGUJA_MIN 4     /* a text needle shorter than this (M, F, "Ana") is not searched */
#define DT__RG_DIGITOS_MIN 7   /* a digit needle (a RUT body, a phone) has at least this many digits */

/* ---- a table of byte strings: the key's bytes in an arena, open addressing on a 64-bit hash ---- */

typedef struct {
    uint64_t hash;
    size_t off, len; /* the key: arena[off, off + len) */
    uint64_t a, b, c; /* the owner's counts */
} dt__rg_ent;

typedef struct {
    dt__rg_ent *e;     /* the entries, in insertion order */
    size_t n, cap;
    uint32_t *slot;    /* 0 empty, else entry index + 1 */
    size_t nslot;      /* a power of two, at least twice n */
    char *arena;
    size_t largo, cap_arena;
} dt__rg_tabla;

static uint64_t dt__rg_hash(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a, then a finaliser: only to spread the slots */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static void dt__rg_tabla_free(dt__rg_tabla *t) {
    free(t->e);
    free(t->slot);
    free(t->arena);
    memset(t, 0, sizeof *t);
}

static int dt__rg_rehacer(dt__rg_tabla *t, size_t nslot) {
    uint32_t *s = (uint32_t *)calloc(nslot, sizeof *s);
    if (s == NULL) return 1;
    for (size_t i = 0; i < t->n; i++) {
        size_t p = (size_t)t->e[i].hash & (nslot - 1);
        while (s[p]) p = (p + 1) & (nslot - 1);
        s[p] = (uint32_t)(i + 1);
    }
    free(t->slot);
    t->slot = s;
    t->nslot = nslot;
    return 0;
}

/* The entry of key s[0, n) whose hash is h, made (counts zero) when new and `crear`: its index, -2
 * when absent, or -1 out of memory. One table always hashes its keys one way. */
static long long dt__rg_buscar_h(dt__rg_tabla *t, uint64_t h, const char *s, size_t n, int crear) {
    if (t->nslot) {
        size_t p = (size_t)h & (t->nslot - 1);
        for (; t->slot[p]; p = (p + 1) & (t->nslot - 1)) {
            const dt__rg_ent *e = &t->e[t->slot[p] - 1];
            if (e->hash == h && e->len == n && memcmp(t->arena + e->off, s, n) == 0) return (long long)(t->slot[p] - 1);
        }
    }
    if (!crear) return -2;
    if (t->n >= 0xFFFFFFF0u) return -1;
    if ((t->n + 1) * 2 > t->nslot && dt__rg_rehacer(t, t->nslot ? t->nslot * 2 : 64)) return -1;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        dt__rg_ent *e = (dt__rg_ent *)realloc(t->e, cap * sizeof *e);
        if (e == NULL) return -1;
        t->e = e;
        t->cap = cap;
    }
    if (t->largo + n + 1 > t->cap_arena) {
        size_t cap = t->cap_arena ? t->cap_arena : 4096;
        while (t->largo + n + 1 > cap) cap *= 2;
        char *a = (char *)realloc(t->arena, cap);
        if (a == NULL) return -1;
        t->arena = a;
        t->cap_arena = cap;
    }
    memcpy(t->arena + t->largo, s, n);
    dt__rg_ent *e = &t->e[t->n];
    memset(e, 0, sizeof *e);
    e->hash = h;
    e->off = t->largo;
    e->len = n;
    t->largo += n;
    size_t p = (size_t)h & (t->nslot - 1);
    while (t->slot[p]) p = (p + 1) & (t->nslot - 1);
    t->slot[p] = (uint32_t)(t->n + 1);
    return (long long)t->n++;
}

static long long dt__rg_buscar(dt__rg_tabla *t, const char *s, size_t n, int crear) {
    return dt__rg_buscar_h(t, dt__rg_hash(s, n), s, n, crear);
}

/* ---- a growing byte string (one row's key) ---- */

typedef struct {
    char *p;
    size_t n, cap;
    int sin_memoria;
} dt__rg_buf;

static void dt__rg_put(dt__rg_buf *b, const char *s, size_t n) {
    if (b->sin_memoria) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->n + n > cap) cap *= 2;
        char *p = (char *)realloc(b->p, cap);
        if (p == NULL) {
            b->sin_memoria = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

/* A value's length as 4 bytes, then its bytes: tuples of different values never share a key. */
static void dt__rg_put_campo(dt__rg_buf *b, const char *s, size_t n) {
    unsigned char l[4] = {(unsigned char)(n >> 24), (unsigned char)(n >> 16), (unsigned char)(n >> 8), (unsigned char)n};
    dt__rg_put(b, (const char *)l, 4);
    dt__rg_put(b, s, n);
}

/* ---- reading values: dates, amounts, the generalisations ---- */

enum { DT__RG_GEN_NADA, DT__RG_GEN_ANIO, DT__RG_GEN_MES, DT__RG_GEN_TRAMO };

typedef struct {
    char *nombre;  /* the column's name (without the generalisation) */
    char *spec;    /* as the user wrote it, for the report */
    int gen;
    int64_t tramo; /* DT__RG_GEN_TRAMO: the width */
    long long col; /* its index in the masked header, in the original's (-1: absent) */
    long long col_orig;
} dt__rg_col;

static void dt__rg_recortar(const char **s, size_t *n) {
    while (*n && ((*s)[0] == ' ' || (*s)[0] == '\t')) (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\r')) (*n)--;
}

static int dt__rg_digitos(const char *s, size_t n, int64_t *v) {
    int64_t x = 0;
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        x = x * 10 + (s[i] - '0');
    }
    *v = x;
    return 1;
}

/* A date YYYY-MM-DD (a time may follow after 'T' or ' '), DD-MM-YYYY or DD/MM/YYYY: 1 with its parts. */
static int dt__rg_fecha(const char *s, size_t n, int64_t *a, int64_t *m, int64_t *d) {
    if (n >= 10 && s[4] == '-' && s[7] == '-' && (n == 10 || s[10] == 'T' || s[10] == ' ')) {
        if (!dt__rg_digitos(s, 4, a) || !dt__rg_digitos(s + 5, 2, m) || !dt__rg_digitos(s + 8, 2, d)) return 0;
    } else if (n == 10 && (s[2] == '-' || s[2] == '/') && s[5] == s[2]) {
        if (!dt__rg_digitos(s, 2, d) || !dt__rg_digitos(s + 3, 2, m) || !dt__rg_digitos(s + 6, 4, a)) return 0;
    } else {
        return 0;
    }
    static const int dias[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (*a < 1 || *m < 1 || *m > 12 || *d < 1 || *d > dias[*m - 1]) return 0;
    if (*m == 2 && *d == 29 && !((*a % 4 == 0 && *a % 100 != 0) || *a % 400 == 0)) return 0;
    return 1;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static int64_t dt__rg_dia(int64_t a, int64_t m, int64_t d) {
    a -= m <= 2;
    int64_t era = (a >= 0 ? a : a - 399) / 400;
    int64_t yoe = a - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* An amount as the monto rule writes it: an optional '-', an optional '$' (and a space), digits, or
 * groups of three with dots; a fraction after ',' is dropped (truncated). At most 15 digits. */
static int dt__rg_monto(const char *s, size_t n, int64_t *v) {
    size_t i = 0;
    int neg = 0;
    if (i < n && s[i] == '-') neg = 1, i++;
    if (i < n && s[i] == '$') {
        i++;
        if (i < n && s[i] == ' ') i++;
    }
    int64_t x = 0;
    int digitos = 0, grupo = 0, puntos = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (++digitos > 15) return 0;
            x = x * 10 + (c - '0');
            grupo++;
        } else if (c == '.') {
            if (digitos == 0 || (puntos && grupo != 3) || (!puntos && grupo > 3)) return 0;
            puntos = 1;
            grupo = 0;
        } else if (c == ',') {
            break;
        } else {
            return 0;
        }
    }
    if (digitos == 0 || (puntos && grupo != 3)) return 0;
    if (i < n) { /* the fraction: digits only */
        if (i + 1 == n) return 0;
        for (size_t j = i + 1; j < n; j++)
            if (s[j] < '0' || s[j] > '9') return 0;
    }
    *v = neg ? -x : x;
    return 1;
}

/* The value generalised as `c` says into b (as a field): 1, or 0 when it does not read as that
 * generalisation asks (then it goes in whole, and the caller counts it). */
static int dt__rg_generalizar(dt__rg_buf *b, const dt__rg_col *c, const char *s, size_t n) {
    dt__rg_recortar(&s, &n);
    char t[64];
    int64_t a, m, d, v;
    switch (c->gen) {
    case DT__RG_GEN_ANIO:
    case DT__RG_GEN_MES:
        if (!dt__rg_fecha(s, n, &a, &m, &d)) break;
        if (c->gen == DT__RG_GEN_ANIO) snprintf(t, sizeof t, "%04lld", (long long)a);
        else snprintf(t, sizeof t, "%04lld-%02lld", (long long)a, (long long)m);
        dt__rg_put_campo(b, t, strlen(t));
        return 1;
    case DT__RG_GEN_TRAMO: {
        if (!dt__rg_monto(s, n, &v)) break;
        int64_t q = v / c->tramo;
        if (v % c->tramo != 0 && v < 0) q--; /* floor, so the buckets are all one width */
        snprintf(t, sizeof t, "%lld", (long long)(q * c->tramo));
        dt__rg_put_campo(b, t, strlen(t));
        return 1;
    }
    default:
        dt__rg_put_campo(b, s, n);
        return 1;
    }
    dt__rg_put_campo(b, s, n);
    return 0;
}

/* The number a linkage value stands for in the modes diferencia and razon: a date's day, else an
 * amount. 0 when it is neither. */
static int dt__rg_numero(const char *s, size_t n, int64_t *v, int *es_fecha) {
    dt__rg_recortar(&s, &n);
    int64_t a, m, d;
    if (dt__rg_fecha(s, n, &a, &m, &d)) {
        *v = dt__rg_dia(a, m, d);
        *es_fecha = 1;
        return 1;
    }
    *es_fecha = 0;
    return dt__rg_monto(s, n, v);
}

/* ---- the accumulator ---- */

struct dt_riesgo {
    dt__rg_col qi[DT__RG_COLS_MAX];
    size_t nqi;
    dt__rg_col enl[2];
    size_t nenl; /* 0 or 2 */
    int modo;
    dt__rg_col pers[DT__RG_COLS_MAX];
    size_t npers;

    int atado;          /* dt_riesgo_columnas was called */
    int con_original;   /* an original header was bound */
    char **cols;        /* the masked header's names (for the report of values found) */
    size_t *largos_cols;
    size_t ncols, ncols_orig;
    int filas_empezadas;

    uint64_t filas, filas_original;
    dt__rg_tabla clases;       /* QI tuple -> a: rows */
    uint64_t no_generalizados; /* QI values left whole */

    dt__rg_tabla pares;        /* pair key -> a: masked rows, b: original rows, c: rows whose two keys agree */
    uint64_t sin_par, sin_par_enmascarado;

    dt__rg_tabla agujas;       /* needle bytes -> a: the personal columns holding it, b: those found (bit sets) */
    size_t largos_aguja[260];  /* the distinct lengths of the text needles (4..256) */
    size_t nlargos;
    uint64_t *hallados;        /* [pers][masked column]: cells holding a value of that original column */
    uint64_t *misma_fila;      /* [pers][masked column]: cells holding the value of their own original row */
    struct dt__rg_formas_s *propias; /* the current original row's forms, per personal column */
    uint64_t agujas_por_col[DT__RG_COLS_MAX];

    dt__rg_buf k1, k2, tmp;
    size_t largo_texto; /* the text part of the haystack in tmp */
};

static void dt__rg_why(char *why, size_t whycap, const char *fmt, const char *a) {
    if (why && whycap) snprintf(why, whycap, fmt, a);
}

/* "name" or "name:anio" / ":mes" / ":N" (N a positive integer, a bucket width). */
static int dt__rg_spec(dt__rg_col *c, const char *spec, int generalizable, const char *que, char *why, size_t whycap) {
    memset(c, 0, sizeof *c);
    c->col = c->col_orig = -1;
    size_t n = strlen(spec);
    const char *dos = strrchr(spec, ':');
    size_t largo = n;
    if (dos) {
        const char *g = dos + 1;
        int64_t v;
        if (strcmp(g, "anio") == 0) c->gen = DT__RG_GEN_ANIO;
        else if (strcmp(g, "mes") == 0) c->gen = DT__RG_GEN_MES;
        else if (strlen(g) <= 15 && dt__rg_digitos(g, strlen(g), &v) && v > 0) c->gen = DT__RG_GEN_TRAMO, c->tramo = v;
        if (c->gen != DT__RG_GEN_NADA) largo = (size_t)(dos - spec);
    }
    if (largo == 0) {
        dt__rg_why(why, whycap, "riesgo: a %s has no column name", que);
        return 1;
    }
    if (c->gen != DT__RG_GEN_NADA && !generalizable) {
        dt__rg_why(why, whycap, "riesgo: a %s takes no generalisation (:anio, :mes, :N) in this mode", que);
        return 1;
    }
    c->nombre = (char *)malloc(largo + 1);
    c->spec = (char *)malloc(n + 1);
    if (c->nombre == NULL || c->spec == NULL) return 2;
    memcpy(c->nombre, spec, largo);
    c->nombre[largo] = '\0';
    memcpy(c->spec, spec, n + 1);
    return 0;
}

static void dt__rg_col_free(dt__rg_col *c) {
    free(c->nombre);
    free(c->spec);
}

void dt_riesgo_free(dt_riesgo *r) {
    if (r == NULL) return;
    for (size_t i = 0; i < r->nqi; i++) dt__rg_col_free(&r->qi[i]);
    for (size_t i = 0; i < r->nenl; i++) dt__rg_col_free(&r->enl[i]);
    for (size_t i = 0; i < r->npers; i++) dt__rg_col_free(&r->pers[i]);
    for (size_t i = 0; i < r->ncols; i++) free(r->cols[i]);
    free(r->cols);
    free(r->largos_cols);
    dt__rg_tabla_free(&r->clases);
    dt__rg_tabla_free(&r->pares);
    dt__rg_tabla_free(&r->agujas);
    free(r->hallados);
    free(r->misma_fila);
    free(r->propias);
    free(r->k1.p);
    free(r->k2.p);
    free(r->tmp.p);
    free(r);
}

dt_status dt_riesgo_new(size_t nqi, const char *const *qi, size_t nenlace, const char *const *enlace, int modo,
                        size_t npersonales, const char *const *personales, dt_riesgo **out, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out == NULL || (qi == NULL && nqi) || (enlace == NULL && nenlace) || (personales == NULL && npersonales)) {
        if (out) *out = NULL;
        dt__rg_why(why, whycap, "%sriesgo: out is NULL, or a list is NULL with a count", "");
        return DT_ERR_NULL;
    }
    *out = NULL;
    if (nqi > DT__RG_COLS_MAX || npersonales > DT__RG_COLS_MAX) {
        if (why && whycap) snprintf(why, whycap, "riesgo: at most %d quasi-identifiers and %d personal columns", DT__RG_COLS_MAX, DT__RG_COLS_MAX);
        return DT_ERR_INVALID_ARG;
    }
    if (nenlace != 0 && nenlace != 2) {
        dt__rg_why(why, whycap, "%sriesgo: the linkage attack takes exactly two columns", "");
        return DT_ERR_INVALID_ARG;
    }
    if (modo != DT_RIESGO_IGUAL && modo != DT_RIESGO_DIFERENCIA && modo != DT_RIESGO_RAZON) {
        dt__rg_why(why, whycap, "%sriesgo: the linkage mode is DT_RIESGO_IGUAL, _DIFERENCIA or _RAZON", "");
        return DT_ERR_INVALID_ARG;
    }
    dt_riesgo *r = (dt_riesgo *)calloc(1, sizeof *r);
    if (r == NULL) return DT_ERR_NO_MEMORY;
    r->modo = modo;
    int e = 0;
    for (size_t i = 0; i < nqi && !e; i++) {
        if (qi[i] == NULL) e = 3;
        else if ((e = dt__rg_spec(&r->qi[i], qi[i], 1, "quasi-identifier", why, whycap)) == 0) r->nqi++;
    }
    for (size_t i = 0; i < nenlace && !e; i++) {
        if (enlace[i] == NULL) e = 3;
        else if ((e = dt__rg_spec(&r->enl[i], enlace[i], modo == DT_RIESGO_IGUAL, "linkage column", why, whycap)) == 0) r->nenl++;
    }
    for (size_t i = 0; i < npersonales && !e; i++) {
        if (personales[i] == NULL) e = 3;
        else if ((e = dt__rg_spec(&r->pers[i], personales[i], 0, "personal column", why, whycap)) == 0) r->npers++;
    }
    if (e) {
        dt_riesgo_free(r);
        if (e == 3) {
            dt__rg_why(why, whycap, "%sriesgo: a column name is NULL", "");
            return DT_ERR_NULL;
        }
        return e == 2 ? DT_ERR_NO_MEMORY : DT_ERR_INVALID_ARG;
    }
    *out = r;
    return DT_OK;
}

static long long dt__rg_indice(size_t n, const char *const *nombres, const size_t *largos, const char *nombre) {
    size_t l = strlen(nombre);
    for (size_t j = 0; j < n; j++)
        if (largos[j] == l && memcmp(nombres[j], nombre, l) == 0) return (long long)j;
    return -1;
}

dt_status dt_riesgo_columnas(dt_riesgo *r, size_t n, const char *const *columnas, const size_t *largos, size_t norig,
                             const char *const *columnas_orig, const size_t *largos_orig, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (r == NULL || (n && (columnas == NULL || largos == NULL)) || (norig && (columnas_orig == NULL || largos_orig == NULL)))
        return DT_ERR_NULL;
    if (r->atado) {
        dt__rg_why(why, whycap, "%sriesgo: the columns are already bound", "");
        return DT_ERR_INVALID_STATE;
    }
    /* A missing column is named as the user wrote it (argv), never by the header's cells: a file with no
     * header line has a data row there. */
    for (size_t i = 0; i < r->nqi; i++)
        if ((r->qi[i].col = dt__rg_indice(n, columnas, largos, r->qi[i].nombre)) < 0) {
            dt__rg_why(why, whycap, "riesgo: the masked table has no column named by the quasi-identifier %s", r->qi[i].spec);
            return DT_ERR_INVALID_ARG;
        }
    int orig = columnas_orig != NULL;
    if (!orig && (r->nenl || r->npers)) {
        dt__rg_why(why, whycap, "%sriesgo: the linkage attack and the search for original values need the original's header", "");
        return DT_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < r->nenl; i++) {
        if ((r->enl[i].col = dt__rg_indice(n, columnas, largos, r->enl[i].nombre)) < 0) {
            dt__rg_why(why, whycap, "riesgo: the masked table has no column named by the linkage column %s", r->enl[i].spec);
            return DT_ERR_INVALID_ARG;
        }
        if ((r->enl[i].col_orig = dt__rg_indice(norig, columnas_orig, largos_orig, r->enl[i].nombre)) < 0) {
            dt__rg_why(why, whycap, "riesgo: the original has no column named by the linkage column %s", r->enl[i].spec);
            return DT_ERR_INVALID_ARG;
        }
    }
    for (size_t i = 0; i < r->npers; i++)
        if ((r->pers[i].col_orig = dt__rg_indice(norig, columnas_orig, largos_orig, r->pers[i].nombre)) < 0) {
            dt__rg_why(why, whycap, "riesgo: the original has no column named by the personal column %s", r->pers[i].spec);
            return DT_ERR_INVALID_ARG;
        }
    r->cols = (char **)calloc(n ? n : 1, sizeof *r->cols);
    r->largos_cols = (size_t *)calloc(n ? n : 1, sizeof *r->largos_cols);
    r->hallados = (uint64_t *)calloc((r->npers ? r->npers : 1) * (n ? n : 1), sizeof *r->hallados);
    r->misma_fila = (uint64_t *)calloc((r->npers ? r->npers : 1) * (n ? n : 1), sizeof *r->misma_fila);
    if (r->cols == NULL || r->largos_cols == NULL || r->hallados == NULL || r->misma_fila == NULL) return DT_ERR_NO_MEMORY;
    /* The report names a masked column only by a name the original's header also has: a masked file
     * without its header line has a row of data where the names go, and those cells must not reach the
     * report. Any other column is "#N" (its position from 1). */
    for (size_t j = 0; j < n; j++) {
        char pos[32];
        const char *nom = columnas[j];
        size_t l = largos[j];
        int conocido = 0;
        for (size_t k = 0; k < norig && !conocido; k++)
            conocido = largos_orig[k] == l && memcmp(columnas_orig[k], nom, l) == 0;
        if (!conocido) {
            snprintf(pos, sizeof pos, "#%zu", j + 1);
            nom = pos;
            l = strlen(pos);
        }
        r->cols[j] = (char *)malloc(l + 1);
        if (r->cols[j] == NULL) return DT_ERR_NO_MEMORY;
        r->ncols = j + 1;
        memcpy(r->cols[j], nom, l);
        r->cols[j][l] = '\0';
        r->largos_cols[j] = l;
    }
    r->ncols = n;
    r->ncols_orig = norig;
    r->con_original = orig;
    r->atado = 1;
    return DT_OK;
}

/* ---- the needles: personal values of the original ---- */

/* A needle of personal column p, of kind `digitos` (searched among the digit runs) or text (searched in
 * the text, at word boundaries). Entry: a, the columns holding it as text; c, as digits; b, the
 * columns of it found (bit sets). */
static int dt__rg_aguja(dt_riesgo *r, size_t p, const char *s, size_t n, int digitos) {
    long long i = dt__rg_buscar(&r->agujas, s, n, 1);
    if (i < 0) return 1;
    dt__rg_ent *e = &r->agujas.e[i];
    if (!((e->a | e->c) & (1ULL << p))) r->agujas_por_col[p]++; /* a distinct value of this column */
    if (digitos) {
        e->c |= 1ULL << p;
        return 0;
    }
    e->a |= 1ULL << p;
    size_t k;
    for (k = 0; k < r->nlargos && r->largos_aguja[k] != n; k++) {}
    if (k == r->nlargos) r->largos_aguja[r->nlargos++] = n; /* n <= DT__RG_AGUJA_MAX: room for every length */
    return 0;
}

static char dt__rg_minuscula(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* The needles of one cell of a personal column: its text (ASCII lower case, trimmed) when it has
 * DT__RG_AGUJA_MIN to DT__RG_AGUJA_MAX bytes; and when it is written with digits and separators only
 * (a RUT, a phone, a number), its digits (7 or more), a RUT's body alone, a phone's number without
 * the 56 or 0 before it: those are looked for as whole digit runs, not inside longer ones (a RUT body
 * inside a phone number or a date written 19831126 is chance, not a leak). */
#define DT__RG_AGUJA_MAX 256
typedef struct dt__rg_formas_s {
    size_t n, ini[5], len[5];
    int digitos[5]; /* 1: searched among digit runs; 0: in the text */
    char b[DT__RG_AGUJA_MAX + 4 * 64];
} dt__rg_formas;

static void dt__rg_forma(dt__rg_formas *f, const char *s, size_t n) {
    size_t at = f->n ? f->ini[f->n - 1] + f->len[f->n - 1] : 0;
    f->ini[f->n] = at;
    f->len[f->n] = n;
    f->digitos[f->n] = 1;
    memcpy(f->b + at, s, n);
    f->n++;
}

static void dt__rg_formas_de(dt__rg_formas *f, const char *s, size_t n) {
    f->n = 0;
    dt__rg_recortar(&s, &n);
    if (n >= DT__RG_AGUJA_MIN && n <= DT__RG_AGUJA_MAX) {
        f->ini[0] = 0;
        f->len[0] = n;
        for (size_t i = 0; i < n; i++) f->b[i] = dt__rg_minuscula(s[i]);
        f->digitos[0] = 0;
        f->n = 1;
    }
    char d[40];
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (nd == sizeof d) return;
            d[nd++] = c;
        } else if (!(c == ' ' || c == '.' || c == '-' || c == '+' || c == '(' || c == ')' ||
                     ((c == 'k' || c == 'K') && i + 1 == n))) {
            return; /* not a number as written: its text is its needle */
        }
    }
    if (nd < DT__RG_DIGITOS_MIN) return;
    dt__rg_forma(f, d, nd);
    uint32_t cuerpo;
    char dv, t[16];
    if (dt_rut_leer(s, n, &cuerpo, &dv) == DT_OK) {
        int l = snprintf(t, sizeof t, "%lu", (unsigned long)cuerpo);
        if (l >= DT__RG_DIGITOS_MIN && (size_t)l < nd) dt__rg_forma(f, t, (size_t)l);
    }
    if (nd == 11 && d[0] == '5' && d[1] == '6') dt__rg_forma(f, d + 2, 9);
    else if (nd == 10 && d[0] == '0') dt__rg_forma(f, d + 1, 9);
}

static int dt__rg_agujas_celda(dt_riesgo *r, size_t p, const char *s, size_t n) {
    dt__rg_formas f;
    dt__rg_formas_de(&f, s, n);
    for (size_t i = 0; i < f.n; i++)
        if (dt__rg_aguja(r, p, f.b + f.ini[i], f.len[i], f.digitos[i])) return 1;
    return 0;
}

dt_status dt_riesgo_original(dt_riesgo *r, size_t n, const char *const *valores, const size_t *largos, char *why,
                             size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (r == NULL || (n && (valores == NULL || largos == NULL))) return DT_ERR_NULL;
    if (!r->atado || !r->con_original || r->filas_empezadas) {
        dt__rg_why(why, whycap, "%sriesgo: the original's rows go after dt_riesgo_columnas (with its header) and before the first dt_riesgo_fila", "");
        return DT_ERR_INVALID_STATE;
    }
    if (n != r->ncols_orig) {
        if (why && whycap) snprintf(why, whycap, "riesgo: original row %llu has %zu values, its header %zu", (unsigned long long)r->filas_original + 1, n, r->ncols_orig);
        return DT_ERR_INVALID_ARG;
    }
    r->filas_original++;
    for (size_t p = 0; p < r->npers; p++) {
        size_t j = (size_t)r->pers[p].col_orig;
        if (valores[j] != NULL && dt__rg_agujas_celda(r, p, valores[j], largos[j])) return DT_ERR_NO_MEMORY;
    }
    return DT_OK;
}

/* A byte that continues a word: an ASCII letter or digit, or any byte of a UTF-8 sequence. */
static int dt__rg_palabra(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* The haystack of a masked cell s[0, n) into r->tmp: its text in ASCII lower case (r->largo_texto
 * bytes), then its digit runs, each preceded by a NUL: the digits of a written number with the
 * separators between them dropped (spaces, '.', '-', '(', ')', '+'), so 12.345.678-5, +56 9 8765 4321
 * and (2) 2345 6789 are each one run. A date (dddd-dd-dd, dd-dd-dddd) is three runs, not one. */
static void dt__rg_pajar(dt_riesgo *r, const char *s, size_t n) {
    r->tmp.n = 0;
    for (size_t i = 0; i < n; i++) {
        char c = dt__rg_minuscula(s[i]);
        dt__rg_put(&r->tmp, &c, 1);
    }
    r->largo_texto = r->tmp.n;
    const char sep = '\0';
    int en_run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (!en_run) {
                dt__rg_put(&r->tmp, &sep, 1);
                en_run = 1;
            }
            dt__rg_put(&r->tmp, &c, 1);
            continue;
        }
        int fecha = 0; /* a '-' after the year, the day or the month of a date breaks the run */
        if (c == '-' && i + 1 < n) {
            size_t d = 0;
            while (d < i && s[i - 1 - d] >= '0' && s[i - 1 - d] <= '9') d++;
            if (d == 4 && i + 6 <= n && s[i + 3] == '-') fecha = 1;                          /* dddd-dd-dd */
            else if (d == 2 && i + 4 <= n && s[i + 3] == '-') fecha = 1;                     /* dd-dd-... */
            else if (d == 2 && i >= 3 && s[i - 3] == '-') fecha = 1;                         /* ...-dd-dd */
        }
        if (en_run && !fecha && (c == ' ' || c == '.' || c == '-' || c == '(' || c == ')' || c == '+') && i + 1 < n &&
            ((s[i + 1] >= '0' && s[i + 1] <= '9') || s[i + 1] == ' ' || s[i + 1] == '(')) {
            continue; /* a separator inside a written number */
        }
        en_run = 0;
    }
}

/* The personal columns whose needles occur in the haystack r->tmp (dt__rg_pajar), as a bit set; the
 * needles found are marked. A text needle matches a window of the text that does not start or end
 * inside a word (where the window's own first or last byte is a word byte); a digit needle matches a
 * whole digit run, the run without its last digit (a RUT's check digit), or the run without a leading
 * 56 or 0 (a phone's country or trunk prefix). */
static uint64_t dt__rg_buscar_en(dt_riesgo *r) {
    if (r->agujas.n == 0 || r->tmp.sin_memoria) return 0;
    uint64_t cols = 0;
    const unsigned char *t = (const unsigned char *)r->tmp.p;
    size_t nt = r->largo_texto;
    for (size_t i = 0; i < nt; i++) {
        if (i > 0 && dt__rg_palabra(t[i - 1]) && dt__rg_palabra(t[i])) continue; /* inside a word */
        for (size_t k = 0; k < r->nlargos; k++) {
            size_t l = r->largos_aguja[k];
            if (i + l > nt) continue;
            if (i + l < nt && dt__rg_palabra(t[i + l - 1]) && dt__rg_palabra(t[i + l])) continue;
            long long e = dt__rg_buscar(&r->agujas, (const char *)t + i, l, 0);
            if (e >= 0 && r->agujas.e[e].a) {
                cols |= r->agujas.e[e].a;
                r->agujas.e[e].b |= r->agujas.e[e].a;
            }
        }
    }
    for (size_t i = nt; i < r->tmp.n;) { /* each run: a NUL, then its digits */
        size_t ini = i + 1, fin = ini;
        while (fin < r->tmp.n && t[fin] != '\0') fin++;
        const char *d = (const char *)t + ini;
        size_t nd = fin - ini;
        for (int forma = 0; forma < 3; forma++) {
            const char *x = d;
            size_t nx = nd;
            if (forma == 1) nx = nd - 1;
            else if (forma == 2 && nd > 2 && d[0] == '5' && d[1] == '6') x = d + 2, nx = nd - 2;
            else if (forma == 2 && nd > 1 && d[0] == '0') x = d + 1, nx = nd - 1;
            else if (forma == 2) continue;
            if (nx < DT__RG_DIGITOS_MIN) continue;
            long long e = dt__rg_buscar(&r->agujas, x, nx, 0);
            if (e >= 0 && r->agujas.e[e].c) {
                cols |= r->agujas.e[e].c;
                r->agujas.e[e].b |= r->agujas.e[e].c;
            }
        }
        i = fin;
    }
    return cols;
}

/* 1 when one of the forms f occurs in the haystack r->tmp by the rules of dt__rg_buscar_en. */
static int dt__rg_contiene(const dt_riesgo *r, const dt__rg_formas *f) {
    const unsigned char *t = (const unsigned char *)r->tmp.p;
    size_t nt = r->largo_texto;
    for (size_t k = 0; k < f->n; k++) {
        const char *a = f->b + f->ini[k];
        size_t l = f->len[k];
        if (!f->digitos[k]) {
            for (size_t i = 0; i + l <= nt; i++)
                if (!(i > 0 && dt__rg_palabra(t[i - 1]) && dt__rg_palabra(t[i])) &&
                    !(i + l < nt && dt__rg_palabra(t[i + l - 1]) && dt__rg_palabra(t[i + l])) && memcmp(t + i, a, l) == 0)
                    return 1;
            continue;
        }
        for (size_t i = nt; i < r->tmp.n;) {
            size_t ini = i + 1, fin = ini;
            while (fin < r->tmp.n && t[fin] != '\0') fin++;
            const char *d = (const char *)t + ini;
            size_t nd = fin - ini;
            if ((nd == l || nd == l + 1) && memcmp(d, a, l) == 0) return 1;
            if (nd == l + 2 && d[0] == '5' && d[1] == '6' && memcmp(d + 2, a, l) == 0) return 1;
            if (nd == l + 1 && d[0] == '0' && memcmp(d + 1, a, l) == 0) return 1;
            i = fin;
        }
    }
    return 0;
}

/* ---- a row ---- */

/* The linkage key of one file's row into b: 1, or 0 when the row has no pair (an empty value; in the
 * modes diferencia and razon, a value that is not a date or an amount, or dates mixed with amounts, or
 * a first amount of 0 for razon). */
static int dt__rg_clave_par(const dt_riesgo *r, dt__rg_buf *b, const char *const *v, const size_t *l, int orig) {
    b->n = 0;
    const char *s[2];
    size_t n[2];
    for (int i = 0; i < 2; i++) {
        size_t j = (size_t)(orig ? r->enl[i].col_orig : r->enl[i].col);
        s[i] = v[j];
        n[i] = l[j];
        if (s[i] == NULL) n[i] = 0;
        const char *t = s[i];
        size_t m = n[i];
        dt__rg_recortar(&t, &m);
        if (m == 0) return 0;
    }
    if (r->modo == DT_RIESGO_IGUAL) {
        dt__rg_generalizar(b, &r->enl[0], s[0], n[0]);
        dt__rg_generalizar(b, &r->enl[1], s[1], n[1]);
        return !b->sin_memoria;
    }
    int64_t x, y;
    int fx, fy;
    if (!dt__rg_numero(s[0], n[0], &x, &fx) || !dt__rg_numero(s[1], n[1], &y, &fy) || fx != fy) return 0;
    char t[64];
    if (r->modo == DT_RIESGO_DIFERENCIA) {
        snprintf(t, sizeof t, "%lld", (long long)(y - x));
    } else {
        /* razon: y / x in thousandths, rounded half away from zero; amounts are below 10^15, so
         * |y| * 1000 stays inside int64_t */
        if (x == 0 || fx) return 0;
        int64_t num = y * 1000, den = x;
        if (den < 0) num = -num, den = -den;
        int64_t q = num >= 0 ? (num + den / 2) / den : -((-num + den / 2) / den);
        snprintf(t, sizeof t, "%lld", (long long)q);
    }
    dt__rg_put_campo(b, t, strlen(t));
    return !b->sin_memoria;
}

dt_status dt_riesgo_fila(dt_riesgo *r, size_t n, const char *const *valores, const size_t *largos, size_t norig,
                         const char *const *originales, const size_t *largos_orig, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (r == NULL || (n && (valores == NULL || largos == NULL)) || (norig && (originales == NULL || largos_orig == NULL)))
        return DT_ERR_NULL;
    if (!r->atado) {
        dt__rg_why(why, whycap, "%sriesgo: dt_riesgo_columnas first", "");
        return DT_ERR_INVALID_STATE;
    }
    if (n != r->ncols) {
        if (why && whycap) snprintf(why, whycap, "riesgo: masked row %llu has %zu values, its header %zu", (unsigned long long)r->filas + 1, n, r->ncols);
        return DT_ERR_INVALID_ARG;
    }
    int con_par = r->nenl && originales != NULL;
    if (r->nenl && originales == NULL) {
        if (why && whycap) snprintf(why, whycap, "riesgo: masked row %llu has no original row (the linkage attack needs both)", (unsigned long long)r->filas + 1);
        return DT_ERR_INVALID_ARG;
    }
    if (originales != NULL && norig != r->ncols_orig) {
        if (why && whycap) snprintf(why, whycap, "riesgo: original row %llu has %zu values, its header %zu", (unsigned long long)r->filas + 1, norig, r->ncols_orig);
        return DT_ERR_INVALID_ARG;
    }
    r->filas_empezadas = 1;
    /* k-anonymity: the row's quasi-identifier tuple */
    if (r->nqi) {
        r->k1.n = 0;
        for (size_t i = 0; i < r->nqi; i++) {
            size_t j = (size_t)r->qi[i].col;
            if (!dt__rg_generalizar(&r->k1, &r->qi[i], valores[j] ? valores[j] : "", valores[j] ? largos[j] : 0))
                r->no_generalizados++;
        }
        if (r->k1.sin_memoria) return DT_ERR_NO_MEMORY;
        long long e = dt__rg_buscar(&r->clases, r->k1.p, r->k1.n, 1);
        if (e < 0) return DT_ERR_NO_MEMORY;
        r->clases.e[e].a++;
    }
    /* linkage: count the masked pair, the original pair, and whether they are one key */
    if (con_par) {
        int m = dt__rg_clave_par(r, &r->k1, valores, largos, 0);
        int o = dt__rg_clave_par(r, &r->k2, originales, largos_orig, 1);
        if (r->k1.sin_memoria || r->k2.sin_memoria) return DT_ERR_NO_MEMORY;
        if (m) {
            long long e = dt__rg_buscar(&r->pares, r->k1.p, r->k1.n, 1);
            if (e < 0) return DT_ERR_NO_MEMORY;
            r->pares.e[e].a++;
        } else {
            r->sin_par_enmascarado++;
        }
        if (o) {
            long long e = dt__rg_buscar(&r->pares, r->k2.p, r->k2.n, 1);
            if (e < 0) return DT_ERR_NO_MEMORY;
            r->pares.e[e].b++;
            if (m && r->k1.n == r->k2.n && memcmp(r->k1.p, r->k2.p, r->k1.n) == 0) r->pares.e[e].c++;
        } else {
            r->sin_par++;
        }
    }
    /* original values in any masked cell; and the row's own original values in its masked row, which
     * tells a value that stayed with its person from a common name drawn again by chance */
    if (r->npers && (r->agujas.n || originales != NULL)) {
        if (originales != NULL && r->propias == NULL) {
            r->propias = (dt__rg_formas *)malloc(r->npers * sizeof *r->propias);
            if (r->propias == NULL) return DT_ERR_NO_MEMORY;
        }
        if (originales != NULL)
            for (size_t p = 0; p < r->npers; p++) {
                size_t jo = (size_t)r->pers[p].col_orig;
                dt__rg_formas_de(&r->propias[p], originales[jo] ? originales[jo] : "", originales[jo] ? largos_orig[jo] : 0);
            }
        for (size_t j = 0; j < n; j++) {
            if (valores[j] == NULL || largos[j] == 0) continue;
            dt__rg_pajar(r, valores[j], largos[j]);
            if (r->tmp.sin_memoria) return DT_ERR_NO_MEMORY;
            uint64_t cols = dt__rg_buscar_en(r);
            for (size_t p = 0; p < r->npers; p++) {
                if (cols & (1ULL << p)) r->hallados[p * r->ncols + j]++;
                if (originales != NULL && dt__rg_contiene(r, &r->propias[p]))
                    r->misma_fila[p * r->ncols + j]++;
            }
        }
    }
    r->filas++;
    return DT_OK;
}

uint64_t dt_riesgo_filas(const dt_riesgo *r) { return r ? r->filas : 0; }

/* ---- the report ---- */

static int dt__rg_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* n / de in thousandths, rounded half up (0 when de is 0). */
static uint64_t dt__rg_por_mil(uint64_t n, uint64_t de) {
    if (de == 0) return 0;
    return (n * 2000 / de + 1) / 2;
}

static void dt__rg_json_texto(dt__creciente *x, const char *s, size_t n) {
    dt__tx(x, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') dt__tx(x, "\\%c", c);
        else if (c < 0x20) dt__tx(x, "\\u%04x", c);
        else dt__tx(x, "%c", c);
    }
    dt__tx(x, "\"");
}

static void dt__rg_tasa(dt__creciente *x, const char *nombre, uint64_t n, uint64_t de) {
    dt__tx(x, "\"%s\":{\"n\":%llu,\"de\":%llu,\"por_mil\":%llu}", nombre, (unsigned long long)n, (unsigned long long)de,
           (unsigned long long)dt__rg_por_mil(n, de));
}

typedef struct {
    uint64_t clases, k_min, k_max, unicas, filas_k5, tam[5];
    uint64_t *tamanos; /* sorted class sizes */
} dt__rg_k;

static int dt__rg_calc_k(const dt_riesgo *r, dt__rg_k *k) {
    memset(k, 0, sizeof *k);
    k->clases = r->clases.n;
    if (k->clases == 0) return 0;
    k->tamanos = (uint64_t *)malloc(k->clases * sizeof *k->tamanos);
    if (k->tamanos == NULL) return 1;
    for (size_t i = 0; i < r->clases.n; i++) k->tamanos[i] = r->clases.e[i].a;
    qsort(k->tamanos, k->clases, sizeof *k->tamanos, dt__rg_cmp_u64);
    k->k_min = k->tamanos[0];
    k->k_max = k->tamanos[k->clases - 1];
    for (size_t i = 0; i < k->clases; i++) {
        uint64_t t = k->tamanos[i];
        k->tam[t == 1 ? 0 : t == 2 ? 1 : t <= 4 ? 2 : t <= 9 ? 3 : 4]++;
        if (t == 1) k->unicas++;
        if (t < 5) k->filas_k5 += t;
    }
    return 0;
}

typedef struct {
    uint64_t con_par, unicas, reidentificadas;
} dt__rg_enl;

static void dt__rg_calc_enl(const dt_riesgo *r, dt__rg_enl *e) {
    memset(e, 0, sizeof *e);
    for (size_t i = 0; i < r->pares.n; i++) {
        const dt__rg_ent *p = &r->pares.e[i];
        e->con_par += p->b;
        if (p->a == 1) {
            e->unicas += p->b;          /* these originals find exactly one masked row */
            e->reidentificadas += p->c; /* ... and it is their own (0 or 1) */
        }
    }
}

static void dt__rg_lista(dt__creciente *x, const dt__rg_col *c, size_t n) {
    dt__tx(x, "[");
    for (size_t i = 0; i < n; i++) {
        if (i) dt__tx(x, ",");
        dt__rg_json_texto(x, c[i].spec, strlen(c[i].spec));
    }
    dt__tx(x, "]");
}

static const char *const dt__rg_modos[] = {"igual", "diferencia", "razon"};

dt_status dt_riesgo_informe_json(const dt_riesgo *r, const char *tabla, char *buf, size_t cap, size_t *len) {
    if (r == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    dt__rg_k k;
    if (dt__rg_calc_k(r, &k)) return DT_ERR_NO_MEMORY;
    dt__creciente x = {NULL, 0, 0, 0};
    dt__tx(&x, "{\"tabla\":");
    tabla = tabla ? tabla : "entrada";
    dt__rg_json_texto(&x, tabla, strlen(tabla));
    dt__tx(&x, ",\"filas\":%llu,\"cuasi_identificadores\":", (unsigned long long)r->filas);
    dt__rg_lista(&x, r->qi, r->nqi);
    dt__tx(&x, ",\"k_anonimato\":");
    if (r->nqi == 0) {
        dt__tx(&x, "null");
    } else {
        dt__tx(&x, "{\"clases\":%llu,\"k_min\":%llu,\"k_max\":%llu,", (unsigned long long)k.clases,
               (unsigned long long)k.k_min, (unsigned long long)k.k_max);
        dt__tx(&x, "\"clases_por_tamano\":{\"1\":%llu,\"2\":%llu,\"3-4\":%llu,\"5-9\":%llu,\"10+\":%llu},",
               (unsigned long long)k.tam[0], (unsigned long long)k.tam[1], (unsigned long long)k.tam[2],
               (unsigned long long)k.tam[3], (unsigned long long)k.tam[4]);
        dt__rg_tasa(&x, "filas_unicas", k.unicas, r->filas);
        dt__tx(&x, ",");
        dt__rg_tasa(&x, "filas_k_menor_5", k.filas_k5, r->filas);
        dt__tx(&x, ",");
        /* ARX's average prosecutor risk: 1 / the mean class size = classes / rows */
        dt__rg_tasa(&x, "riesgo_medio", k.clases, r->filas);
        dt__tx(&x, ",\"no_generalizados\":%llu,\"tamanos\":[", (unsigned long long)r->no_generalizados);
        for (size_t i = 0; i < k.clases;) { /* [size, classes of that size], sizes ascending */
            size_t j = i;
            while (j < k.clases && k.tamanos[j] == k.tamanos[i]) j++;
            dt__tx(&x, "%s[%llu,%llu]", i ? "," : "", (unsigned long long)k.tamanos[i], (unsigned long long)(j - i));
            i = j;
        }
        dt__tx(&x, "]}");
    }
    dt__tx(&x, ",\"enlace\":");
    if (r->nenl == 0) {
        dt__tx(&x, "null");
    } else {
        dt__rg_enl e;
        dt__rg_calc_enl(r, &e);
        dt__tx(&x, "{\"columnas\":");
        dt__rg_lista(&x, r->enl, r->nenl);
        dt__tx(&x, ",\"modo\":\"%s\",\"filas_con_par\":%llu,\"filas_sin_par\":%llu,\"enmascaradas_sin_par\":%llu,",
               dt__rg_modos[r->modo], (unsigned long long)e.con_par, (unsigned long long)r->sin_par,
               (unsigned long long)r->sin_par_enmascarado);
        dt__rg_tasa(&x, "unicas", e.unicas, e.con_par);
        dt__tx(&x, ",");
        dt__rg_tasa(&x, "reidentificadas", e.reidentificadas, e.con_par);
        dt__tx(&x, "}");
    }
    dt__tx(&x, ",\"valores_originales\":");
    if (r->npers == 0) {
        dt__tx(&x, "null");
    } else {
        uint64_t total = 0, total_mf = 0, agujas = 0, halladas[DT__RG_COLS_MAX] = {0};
        for (size_t i = 0; i < r->agujas.n; i++)
            for (size_t p = 0; p < r->npers; p++)
                if (r->agujas.e[i].b & (1ULL << p)) halladas[p]++;
        dt__tx(&x, "{\"personales\":");
        dt__rg_lista(&x, r->pers, r->npers);
        dt__tx(&x, ",\"filas_original\":%llu,\"por_columna\":[", (unsigned long long)r->filas_original);
        for (size_t p = 0; p < r->npers; p++) {
            agujas += r->agujas_por_col[p];
            dt__tx(&x, "%s{\"columna\":", p ? "," : "");
            dt__rg_json_texto(&x, r->pers[p].nombre, strlen(r->pers[p].nombre));
            dt__tx(&x, ",\"valores\":%llu,\"hallados\":%llu}", (unsigned long long)r->agujas_por_col[p],
                   (unsigned long long)halladas[p]);
        }
        dt__tx(&x, "],\"encontrados\":[");
        int primero = 1;
        for (size_t p = 0; p < r->npers; p++)
            for (size_t j = 0; j < r->ncols; j++) {
                uint64_t c = r->hallados[p * r->ncols + j], mf = r->misma_fila[p * r->ncols + j];
                if (c == 0 && mf == 0) continue;
                total += c;
                dt__tx(&x, "%s{\"tabla\":", primero ? "" : ",");
                dt__rg_json_texto(&x, tabla, strlen(tabla));
                dt__tx(&x, ",\"columna\":");
                dt__rg_json_texto(&x, r->cols[j], r->largos_cols[j]);
                dt__tx(&x, ",\"de_columna_original\":");
                dt__rg_json_texto(&x, r->pers[p].nombre, strlen(r->pers[p].nombre));
                dt__tx(&x, ",\"celdas\":%llu,\"misma_fila\":%llu}", (unsigned long long)c, (unsigned long long)mf);
                total_mf += mf;
                primero = 0;
            }
        dt__tx(&x, "],\"valores_buscados\":%llu,\"celdas\":%llu,\"misma_fila\":%llu}", (unsigned long long)agujas,
               (unsigned long long)total, (unsigned long long)total_mf);
    }
    dt__tx(&x, "}\n");
    free(k.tamanos);
    if (x.sin_memoria) {
        free(x.p);
        return DT_ERR_NO_MEMORY;
    }
    dt_status st = dt__copy_out(x.p, x.n, buf, cap, len);
    free(x.p);
    return st;
}

dt_status dt_riesgo_informe_texto(const dt_riesgo *r, const char *tabla, char *buf, size_t cap, size_t *len) {
    if (r == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    dt__rg_k k;
    if (dt__rg_calc_k(r, &k)) return DT_ERR_NO_MEMORY;
    dt__creciente x = {NULL, 0, 0, 0};
    tabla = tabla ? tabla : "entrada";
    dt__tx(&x, "datoteca riesgo: %s, %llu rows\n", tabla, (unsigned long long)r->filas);
    if (r->nqi) {
        dt__tx(&x, "k-anonymity over");
        for (size_t i = 0; i < r->nqi; i++) dt__tx(&x, "%s %s", i ? "," : "", r->qi[i].spec);
        dt__tx(&x, ": %llu classes, min k %llu, max k %llu\n", (unsigned long long)k.clases, (unsigned long long)k.k_min,
               (unsigned long long)k.k_max);
        dt__tx(&x, "  classes of size 1: %llu, 2: %llu, 3-4: %llu, 5-9: %llu, 10+: %llu\n", (unsigned long long)k.tam[0],
               (unsigned long long)k.tam[1], (unsigned long long)k.tam[2], (unsigned long long)k.tam[3],
               (unsigned long long)k.tam[4]);
        uint64_t pm = dt__rg_por_mil(k.unicas, r->filas), pk = dt__rg_por_mil(k.filas_k5, r->filas);
        dt__tx(&x, "  unique rows: %llu of %llu (%llu.%llu %%); rows in classes with k < 5: %llu (%llu.%llu %%)\n",
               (unsigned long long)k.unicas, (unsigned long long)r->filas, (unsigned long long)(pm / 10),
               (unsigned long long)(pm % 10), (unsigned long long)k.filas_k5, (unsigned long long)(pk / 10),
               (unsigned long long)(pk % 10));
    }
    if (r->nenl) {
        dt__rg_enl e;
        dt__rg_calc_enl(r, &e);
        uint64_t pu = dt__rg_por_mil(e.unicas, e.con_par), pr = dt__rg_por_mil(e.reidentificadas, e.con_par);
        dt__tx(&x, "linkage (%s, %s; %s): of %llu rows with both values, %llu find exactly one masked row (%llu.%llu %%), "
                   "%llu of them their own (%llu.%llu %%)\n",
               r->enl[0].spec, r->enl[1].spec, dt__rg_modos[r->modo], (unsigned long long)e.con_par,
               (unsigned long long)e.unicas, (unsigned long long)(pu / 10), (unsigned long long)(pu % 10),
               (unsigned long long)e.reidentificadas, (unsigned long long)(pr / 10), (unsigned long long)(pr % 10));
    }
    if (r->npers) {
        uint64_t total = 0, total_mf = 0;
        for (size_t i = 0; i < r->npers * r->ncols; i++) total += r->hallados[i], total_mf += r->misma_fila[i];
        dt__tx(&x, "original values found: %llu cells, %llu of them in the row masked from that value's row\n",
               (unsigned long long)total, (unsigned long long)total_mf);
        for (size_t p = 0; p < r->npers; p++)
            for (size_t j = 0; j < r->ncols; j++)
                if (r->hallados[p * r->ncols + j] || r->misma_fila[p * r->ncols + j])
                    dt__tx(&x, "  %s.%s holds values of the original's %s in %llu cells (%llu in their own row)\n", tabla,
                           r->cols[j], r->pers[p].nombre, (unsigned long long)r->hallados[p * r->ncols + j],
                           (unsigned long long)r->misma_fila[p * r->ncols + j]);
    }
    free(k.tamanos);
    if (x.sin_memoria) {
        free(x.p);
        return DT_ERR_NO_MEMORY;
    }
    dt_status st = dt__copy_out(x.p, x.n, buf, cap, len);
    free(x.p);
    return st;
}
