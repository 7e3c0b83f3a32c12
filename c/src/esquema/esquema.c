/* esquema: a schema (docs/esquemas.md) built from a parsed document (documento.h): tables of column
 * groups, each group drawing from its own key, foreign keys to a parent's unique column, fan-out
 * tables whose rows map to their parent's by prefix sums. Everything is checked here, before any
 * row, so every runtime accepts and refuses the same schemas with the same sentences. */
#include "esquema/esquema.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datos/tabla_interno.h"
#include "nucleo/calendario.h"
#include "esquema/documento.h"
#include "esquema/documento_interno.h"
#include "esquema/reparto.h"
#include "esquema/tipo_sql.h"
#include "internal.h"

enum { DT__G_SERIE, DT__G_LLAMADA, DT__G_ELEGIR, DT__G_REF, DT__G_REPARTO, DT__G_POSICION };

/* The most children a parent row may have in a table with a `reparto` column: each child's part is
 * computed from all its siblings' weights, so a parent's children cost k^2 weights in all. */
#define DT__REPARTO_HIJOS_MAX 1000
/* The most parent columns one reparto adds up (a DTE's neto and exento). */
#define DT__REPARTO_SUMANDOS 4

/* How many call columns an argument may pass through (a column whose argument comes from a column
 * whose argument comes from another ...): each link recomputes its source, so a chain is bounded. */
#define DT__DE_PROFUNDIDAD 8
/* The largest |mas| of an argument from a column: with a source of at most 18 digits, the sum stays
 * inside int64 (the call's own range check then refuses what it does not take). */
#define DT__DE_MAS_MAX 1000000000000000LL

/* A call's parameter whose value comes from another column: of the same row (tabla < 0; a column of
 * an earlier group) or of the row this one fans out from in an ancestor table. */
typedef struct dt__de {
    size_t param;
    int64_t tabla;          /* -1: this row; else the ancestor table's index */
    size_t col;             /* the source column in that table */
    int64_t mas;            /* added to the source's value: { de = "fecha_nacimiento", mas = 6575 } */
    const dt__doc_node *nodo; /* only while building: the { de = "..." } node */
} dt__de;

typedef struct dt__grupo {
    int tipo;
    char *nombre;           /* the column key in the document */
    uint64_t clave;         /* mezcla(seed ^ fnv1a64("tabla\0columna")): the group's own key */
    dt_tabla *ds;           /* DT__G_LLAMADA: the dataset, seeded with `clave` */
    size_t col0, ncol;      /* its columns in the table: col0 .. col0 + ncol - 1 */
    size_t nopc;            /* DT__G_ELEGIR: the options, their cumulative weights and total */
    char **opc;
    uint64_t *acum, total;
    size_t rtabla, rcol;    /* DT__G_REF and DT__G_REPARTO: the parent table and its (first) column */
    size_t nsumandos;       /* DT__G_REPARTO: the parent's columns it adds up and splits */
    size_t sumandos[DT__REPARTO_SUMANDOS];
    size_t nde;             /* DT__G_LLAMADA: parameters taken from other columns, row by row */
    dt__de de[DT_MAX_PARAMS];
    int64_t crudos[DT_MAX_PARAMS]; /* the document's arguments, DT_ARG_DEFAULT where absent or from a column */
    int profundidad;        /* 0 without de; else 1 + the deepest source's */
    int uuid;               /* DT__G_SERIE: serie = "uuid", the row's UUID instead of its number */
    int64_t sesgo_s;        /* DT__G_REF: the Zipf exponent of sesgo, 0 for a uniform ref */
    int diferida;           /* DT__G_REF: diferida = true, an edge that may close a cycle (the load sets it last) */
    dt__sesgo *sesgo;       /* and its buckets, built once the parent's rows are known */
    const dt__doc_node *nodo; /* only while building: the column's node, for sentences */
} dt__grupo;

typedef struct dt__col {
    char *nombre;
    size_t grupo, campo;    /* the group, and the dataset column for a call's group */
    const char *tipo;       /* PostgreSQL type, as dt_columna_info.tipo_sql: static, or tipo_dado */
    char tipo_dado[24];     /* a type the document gave (tipo, tipos), normalized */
    int nulable, unico;
    int tiempo;             /* its values are a date and a time (fecha.fecha_hora's, text in the dataset) */
} dt__col;

typedef struct dt__etabla {
    char *nombre;
    uint64_t filas;
    int64_t por;            /* the fan-out parent's index, or -1 */
    uint64_t cmin, cmax;    /* children per parent row: cmin..cmax, uniform unless `reparto` */
    dt__reparto *reparto;   /* cuantos.distribucion other than "uniforme": weights of cmin.. */
    uint64_t clave;         /* mezcla(seed ^ fnv1a64("tabla")): the fan-out counts' key */
    uint64_t *fin;          /* fan-out: fin[p] = rows of the children of parent rows 0..p */
    uint64_t npadres;       /* fan-out: the parent's rows, fin's length */
    size_t ngr, ncol;
    dt__grupo *gr;
    dt__col *col;
    const dt__doc_node *nodo, *nodo_por;
} dt__etabla;

typedef struct dt__nombre {
    const char *s; /* a table's name (its own string) */
    size_t i;      /* and its index */
} dt__nombre;

struct dt_esquema {
    size_t nt;
    dt__nombre *nombres;    /* the tables by name, for lookups */
    dt__etabla *t;
    size_t *orden;          /* the tables in dependency order: parents first, then declaration order */
    uint64_t seed;
};

/* 2^64 mod n: the incomplete run's length. Two divisions: a row's loop computes it once per group. */
static uint64_t dt__resto(uint64_t n) { return (UINT64_MAX % n + 1) % n; }

static uint64_t dt__acotado_con(uint64_t clave, uint64_t i, uint64_t n, uint64_t resto) {
    uint64_t h = dt__mezcla(clave ^ dt__mezcla(i));
    while (h > UINT64_MAX - resto) h = dt__mezcla(h ^ 0x7265686173ULL);
    return h % n;
}

uint64_t dt__esquema_acotado(uint64_t clave, uint64_t i, uint64_t n) { return dt__acotado_con(clave, i, n, dt__resto(n)); }

static char *dt__dup(const char *s, size_t n) {
    char *p = (char *)malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Letters, digits and '_', not starting with a digit, at most 63 bytes: a name SQL takes bare. */
static int dt__ident(const char *s, size_t n) {
    if (n == 0 || n > 63 || (s[0] >= '0' && s[0] <= '9')) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
    }
    return 1;
}

/* "<file>:<line of n>: <path of n>: <text>": every schema refusal names where it is. Text from the
 * document reaches `fmt`'s arguments only through dt__doc_cite (bounded, control characters shown as
 * U+XXXX), names are identifiers of at most 63 bytes; a sentence that would still reach
 * DT_SENTENCE_MAX (long lists of names) is cut between characters and ends in "...". */
static dt_status dt__mal(const dt__doc_node *n, char *why, size_t whycap, const char *fmt, ...) DT__DOC_PRINTF(4, 5);
static dt_status dt__mal(const dt__doc_node *n, char *why, size_t whycap, const char *fmt, ...) {
    char ruta[DT__DOC_PATH_MAX + 1], texto[1024], todo[2048];
    dt__doc_path(n, ruta, sizeof ruta);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(texto, sizeof texto, fmt, ap);
    va_end(ap);
    if (ruta[0]) dt__doc_refuse(n, todo, sizeof todo, "%s: %s", ruta, texto);
    else dt__doc_refuse(n, todo, sizeof todo, "%s", texto);
    size_t l = strlen(todo);
    if (l >= DT_SENTENCE_MAX) {
        l = DT_SENTENCE_MAX - 4;
        while (l > 0 && ((unsigned char)todo[l] & 0xC0) == 0x80) l--; /* not inside a character */
        memcpy(todo + l, "...", 4);
    }
    if (why && whycap) snprintf(why, whycap, "%s", todo);
    return DT_ERR_INVALID_ARG;
}

/* Document text for a sentence (dt__doc_cite: its first 40 bytes, control characters as U+XXXX). */
typedef struct dt__cita {
    char s[DT__DOC_CITE_BUF];
} dt__cita;
static dt__cita dt__citar(const char *s, size_t n) {
    dt__cita c;
    dt__doc_cite(s, n, c.s);
    return c;
}

void dt_esquema_free(dt_esquema *e) {
    if (e == NULL) return;
    for (size_t i = 0; i < e->nt; i++) {
        dt__etabla *t = &e->t[i];
        for (size_t g = 0; g < t->ngr; g++) {
            dt_tabla_free(t->gr[g].ds);
            for (size_t k = 0; k < t->gr[g].nopc; k++) free(t->gr[g].opc[k]);
            free(t->gr[g].opc);
            free(t->gr[g].acum);
            free(t->gr[g].nombre);
            dt__sesgo_free(t->gr[g].sesgo);
        }
        dt__reparto_free(t->reparto);
        for (size_t j = 0; j < t->ncol; j++) free(t->col[j].nombre);
        free(t->gr);
        free(t->col);
        free(t->fin);
        free(t->nombre);
    }
    free(e->t);
    free(e->orden);
    free(e->nombres);
    free(e);
}

/* ---- building: the document's tables and columns ---- */

#define DT__SIN_MEMORIA (-1)

/* A group's column: name (copied), dataset column, type and flags. 0, or DT__SIN_MEMORIA. */
static int dt__col_nueva(dt__etabla *t, const char *nombre, size_t n, size_t campo, const char *tipo, int nulable,
                         int unico) {
    dt__col *c = &t->col[t->ncol];
    c->nombre = dt__dup(nombre, n);
    if (c->nombre == NULL) return DT__SIN_MEMORIA;
    c->grupo = t->ngr - 1; /* the group being built, counted from its start */
    c->campo = campo;
    c->tipo = tipo;
    c->nulable = nulable;
    c->unico = unico;
    t->ncol++;
    return 0;
}

/* The key name of entry `it` of a table (NUL-terminated; document keys may hold NULs, names not). */
static const char *dt__clave(const dt__doc_node *it, size_t *n) { return dt__doc_key(it, n); }

static int dt__es(const char *k, size_t n, const char *nombre) { return strlen(nombre) == n && memcmp(k, nombre, n) == 0; }

/* Append "s" (n bytes) to a comma-separated list of at most cap bytes; 1 if it does not fit. */
static int dt__lista_mas(char *lista, size_t cap, const char *s, size_t n) {
    size_t l = strlen(lista);
    if (l + n + 2 > cap) return 1;
    if (l) lista[l++] = ',';
    memcpy(lista + l, s, n);
    lista[l + n] = '\0';
    return 0;
}

/* A field name in campos, unico, nulos or sucio: checked here so a comma or colon in it cannot
 * become two items of the dataset's option lists. */
static dt_status dt__campo_ok(const dt__doc_node *cn, const char *que, const char *s, size_t n, char *why, size_t whycap) {
    if (dt__ident(s, n)) return DT_OK;
    return dt__mal(cn, why, whycap, "%s: '%s' is not a field name (letters, digits and '_')", que, dt__citar(s, n).s);
}

/* A rate table { campo = permil } into "campo:permil,…". */
static dt_status dt__tasas(const dt__doc_node *cn, const dt__doc_node *v, const char *que, char *lista, size_t cap, char *why,
                           size_t whycap) {
    dt_status st = dt__doc_want(v, DT__DOC_TABLE, why, whycap);
    if (st != DT_OK) return st;
    for (size_t i = 0; i < dt__doc_len(v); i++) {
        const dt__doc_node *it = dt__doc_item(v, i);
        size_t n;
        const char *k = dt__clave(it, &n);
        int64_t x;
        if ((st = dt__campo_ok(cn, que, k, n, why, whycap)) != DT_OK) return st;
        if ((st = dt__doc_want_integer(it, &x, why, whycap)) != DT_OK) return st;
        if (x < 0 || x > 1000) return dt__mal(it, why, whycap, "must be a per mille rate from 0 to 1000, got %lld", (long long)x);
        char item[96];
        int m = snprintf(item, sizeof item, "%s:%lld", k, (long long)x);
        if (dt__lista_mas(lista, cap, item, (size_t)m)) return dt__mal(cn, why, whycap, "%s lists too many fields", que);
    }
    return DT_OK;
}

/* A column that comes from a call: its dataset, seeded with the group's key, and its columns. */
static dt_status dt__grupo_llamada(dt__etabla *t, dt__grupo *g, const dt__doc_node *cn, const dt__doc_node *vll,
                                   const int32_t hoy[3], char *why, size_t whycap) {
    const char *nombre;
    size_t n;
    dt_status st = dt__doc_want_string(vll, &nombre, &n, why, whycap);
    if (st != DT_OK) return st;
    size_t idx;
    if (memchr(nombre, '\0', n) || dt_call_find(nombre, n, &idx) != DT_OK)
        return dt__mal(cn, why, whycap, "unknown call '%s' (datoteca list names them all)", dt__citar(nombre, n).s);
    const dt_call_info *info = dt_call_at(idx);
    int64_t args[DT_MAX_PARAMS];
    for (size_t a = 0; a < DT_MAX_PARAMS; a++) args[a] = DT_ARG_DEFAULT;
    char campos[DT_MAX_FIELDS * 72] = "", unico[DT_MAX_FIELDS * 72] = "", nulos[DT_MAX_FIELDS * 80] = "",
         sucio[DT_MAX_FIELDS * 80] = "";
    const char *nuevo[DT_MAX_FIELDS]; /* a campos table's new column names, by position */
    size_t nuevo_n[DT_MAX_FIELDS], ncampos = 0;
    int renombra = 0, unico_todo = 0;
    for (size_t i = 0; i < dt__doc_len(cn); i++) {
        const dt__doc_node *it = dt__doc_item(cn, i);
        size_t kn;
        const char *k = dt__clave(it, &kn);
        if (dt__es(k, kn, "llamada") || dt__es(k, kn, "tipo_sql")) continue; /* tipo_sql: dt__tipos_leer */
        if (dt__es(k, kn, "campos")) {
            int tabla = dt__doc_kind_of(it) == DT__DOC_TABLE;
            if (!tabla && (st = dt__doc_want(it, DT__DOC_ARRAY, why, whycap)) != DT_OK) return st;
            if (dt__doc_len(it) == 0) return dt__mal(it, why, whycap, "must name at least one field");
            if (dt__doc_len(it) > DT_MAX_FIELDS)
                return dt__mal(it, why, whycap, "names %zu fields; a call has at most %d", dt__doc_len(it), DT_MAX_FIELDS);
            renombra = tabla;
            for (size_t c = 0; c < dt__doc_len(it); c++) {
                const dt__doc_node *x = dt__doc_item(it, c);
                const char *f;
                size_t fn;
                if (tabla) {
                    f = dt__clave(x, &fn);
                    if ((st = dt__doc_want_string(x, &nuevo[ncampos], &nuevo_n[ncampos], why, whycap)) != DT_OK) return st;
                } else if ((st = dt__doc_want_string(x, &f, &fn, why, whycap)) != DT_OK) {
                    return st;
                }
                if ((st = dt__campo_ok(cn, "campos", f, fn, why, whycap)) != DT_OK) return st;
                dt__lista_mas(campos, sizeof campos, f, fn);
                ncampos++;
            }
        } else if (dt__es(k, kn, "unico")) {
            if (dt__doc_kind_of(it) == DT__DOC_BOOLEAN) {
                unico_todo = dt__doc_boolean(it);
                continue;
            }
            if ((st = dt__doc_want(it, DT__DOC_ARRAY, why, whycap)) != DT_OK) return st;
            for (size_t c = 0; c < dt__doc_len(it); c++) {
                const char *f;
                size_t fn;
                if ((st = dt__doc_want_string(dt__doc_item(it, c), &f, &fn, why, whycap)) != DT_OK) return st;
                if ((st = dt__campo_ok(cn, "unico", f, fn, why, whycap)) != DT_OK) return st;
                if (dt__lista_mas(unico, sizeof unico, f, fn)) return dt__mal(cn, why, whycap, "unico lists too many fields");
            }
        } else if (dt__es(k, kn, "nulos")) {
            if ((st = dt__tasas(cn, it, "nulos", nulos, sizeof nulos, why, whycap)) != DT_OK) return st;
        } else if (dt__es(k, kn, "sucio")) {
            if ((st = dt__tasas(cn, it, "sucio", sucio, sizeof sucio, why, whycap)) != DT_OK) return st;
        } else {
            size_t p = 0;
            while (p < info->nparams && !dt__es(k, kn, info->params[p].name)) p++;
            if (p == info->nparams) {
                char lista[DT_SENTENCE_MAX] = "";
                for (size_t q = 0; q < info->nparams; q++)
                    dt__lista_mas(lista, sizeof lista - 64, info->params[q].name, strlen(info->params[q].name));
                for (char *c = lista; *c; c++)
                    if (*c == ',') *c = '/';
                return dt__mal(cn, why, whycap, "%s: unknown option '%s'; its options are campos, unico, nulos, sucio%s%s",
                               info->name, dt__citar(k, kn).s, lista[0] ? " and its parameters " : "", lista);
            }
            if (dt__doc_kind_of(it) == DT__DOC_TABLE) { /* { de = "columna" | "tabla.columna" } */
                const dt__doc_node *de = dt__doc_get(it, "de", 2), *mas = dt__doc_get(it, "mas", 3);
                if (de == NULL || dt__doc_len(it) != 1 + (mas != NULL))
                    return dt__mal(it, why, whycap, "an argument is a value or { de = \"columna\" [, mas = N] } (or \"tabla.columna\" of a table up the fan-out chain)");
                if ((st = dt__doc_want_string(de, NULL, NULL, why, whycap)) != DT_OK) return st;
                g->de[g->nde].mas = 0;
                if (mas) {
                    if ((st = dt__doc_want_integer(mas, &g->de[g->nde].mas, why, whycap)) != DT_OK) return st;
                    if (g->de[g->nde].mas < -DT__DE_MAS_MAX || g->de[g->nde].mas > DT__DE_MAS_MAX)
                        return dt__mal(mas, why, whycap, "must be from -%lld to %lld, got %lld", (long long)DT__DE_MAS_MAX, (long long)DT__DE_MAS_MAX,
                                       (long long)g->de[g->nde].mas);
                }
                g->de[g->nde].param = p;
                g->de[g->nde].nodo = de;
                g->nde++;
                continue;
            }
            if (dt__doc_kind_of(it) == DT__DOC_STRING && info->params[p].choices) {
                const char *s;
                size_t sn;
                char frase[DT_SENTENCE_MAX];
                dt__doc_want_string(it, &s, &sn, NULL, 0);
                /* the choice's name as cited: the same text for every real choice (short, printable
                 * ASCII), and a sentence that quotes only bounded, printable text for any other */
                dt__cita cita = dt__citar(s, sn);
                if (dt_param_choice(info, p, cita.s, strlen(cita.s), &args[p], frase, sizeof frase, NULL) != DT_OK)
                    return dt__mal(cn, why, whycap, "%s", frase);
            } else if ((st = dt__doc_want_integer(it, &args[p], why, whycap)) != DT_OK) {
                return st;
            }
            if (args[p] == DT_ARG_DEFAULT) args[p] = DT_ARG_DEFAULT + 1; /* never "absent": out of range, refused */
        }
    }
    /* unico = true: every chosen field (a scalar call's one column is named after the call's last part) */
    if (unico_todo) {
        if (campos[0]) {
            memcpy(unico, campos, sizeof unico);
        } else if (info->kind == DT_KIND_RECORD) {
            for (size_t f = 0; f < info->nfields; f++) dt__lista_mas(unico, sizeof unico, info->fields[f], strlen(info->fields[f]));
        } else {
            const char *punto = strrchr(info->name, '.');
            const char *u = punto ? punto + 1 : info->name;
            dt__lista_mas(unico, sizeof unico, u, strlen(u));
        }
    }
    if (g->nde && unico[0])
        return dt__mal(cn, why, whycap, "unico cannot go with arguments from other columns (de): a unique field's values are drawn as one permutation of the whole table");
    memcpy(g->crudos, args, sizeof g->crudos);
    /* The dataset is built (and its other arguments checked) with each column-given parameter at the
     * end of its range that no cross-parameter check can refuse: its minimum, or its maximum where it
     * is the larger of a check. The rows use their own arguments, checked row by row. */
    const dt__llamada *ll = &dt__llamadas[idx];
    for (size_t d = 0; d < g->nde; d++) {
        size_t p = g->de[d].param;
        args[p] = info->params[p].min;
        for (size_t c = 0; c < ll->nchecks; c++)
            if (ll->checks[c].b == p) args[p] = info->params[p].max;
    }
    dt_tabla_opciones o = {sizeof o, idx, args, info->nparams, g->clave, NULL, 0, hoy[0], hoy[1], hoy[2], campos, unico, nulos, sucio};
    char frase[DT_SENTENCE_MAX];
    st = dt_tabla_new(&o, &g->ds, frase, sizeof frase);
    if (st == DT_ERR_NO_MEMORY) return st;
    if (st != DT_OK) return dt__mal(cn, why, whycap, "%s", frase);
    size_t nc = dt_tabla_columnas(g->ds);
    for (size_t j = 0; j < nc; j++) {
        dt_columna_info ci;
        dt_tabla_columna(g->ds, j, &ci);
        const char *cnom = ci.nombre;
        size_t cnl = strlen(cnom);
        if (renombra) {
            cnom = nuevo[j];
            cnl = nuevo_n[j];
        } else if (info->kind != DT_KIND_RECORD && !campos[0]) {
            cnom = g->nombre; /* a scalar call's column takes the column's own key */
            cnl = strlen(cnom);
        }
        if (!dt__sql_nombre_valido(cnom, cnl))
            return dt__mal(cn, why, whycap, "'%s' is not a column name (letters of any alphabet, digits and '_', not starting with a digit, at most 63 bytes)", dt__citar(cnom, cnl).s);
        if (dt__col_nueva(t, cnom, cnl, j, ci.tipo_sql, ci.nulable, ci.unico)) return DT_ERR_NO_MEMORY;
        /* the one call whose values are a date and a time: text unless the document asks for timestamp */
        t->col[t->ncol - 1].tiempo = strcmp(info->name, "fecha.fecha_hora") == 0;
    }
    return DT_OK;
}

static dt_status dt__grupo_elegir(dt__grupo *g, const dt__doc_node *cn, const dt__doc_node *v, char *why, size_t whycap) {
    dt_status st = dt__doc_want(v, DT__DOC_TABLE, why, whycap);
    if (st != DT_OK) return st;
    size_t n = dt__doc_len(v);
    if (n == 0) return dt__mal(cn, why, whycap, "elegir needs at least one option: elegir = { A = 3, B = 1 }");
    g->opc = (char **)calloc(n, sizeof *g->opc);
    g->acum = (uint64_t *)calloc(n, sizeof *g->acum);
    if (g->opc == NULL || g->acum == NULL) return DT_ERR_NO_MEMORY;
    for (size_t i = 0; i < n; i++) {
        const dt__doc_node *it = dt__doc_item(v, i);
        size_t kn;
        const char *k = dt__clave(it, &kn);
        int64_t w;
        if ((st = dt__doc_want_integer(it, &w, why, whycap)) != DT_OK) return st;
        if (w < 0 || w > DT__ESQUEMA_PESO_MAX)
            return dt__mal(it, why, whycap, "a weight must be an integer from 0 to %d, got %lld", DT__ESQUEMA_PESO_MAX, (long long)w);
        if (kn > 200) return dt__mal(it, why, whycap, "an option is at most 200 bytes");
        for (size_t c = 0; c < kn; c++)
            if ((unsigned char)k[c] < 0x20 || k[c] == 0x7f)
                return dt__mal(it, why, whycap, "an option must not hold control characters (they separate fields and rows)");
        if ((g->opc[i] = dt__dup(k, kn)) == NULL) return DT_ERR_NO_MEMORY;
        g->nopc = i + 1;
        g->total += (uint64_t)w;
        g->acum[i] = g->total;
    }
    if (g->total == 0) return dt__mal(cn, why, whycap, "elegir needs a positive weight");
    return DT_OK;
}

static const char *const dt__tipos_columna = "serie, llamada, elegir, ref, reparto or posicion";

/* ---- column types: tipo_sql = "varchar(12)" on a one-column group, = { col = "…" } on a call ---- */

/* Column c's new type from node v: refused unless the whitelist has it and it can hold the values
 * (integers go into any numeric or text type, dates into date, timestamp, timestamptz or text, a date
 * and time into timestamp, timestamptz or text, text only into text; a length or precision too small
 * for a value is the document's promise, checked by the database). */
static dt_status dt__tipo_poner(const dt__etabla *t, dt__col *c, const dt__doc_node *v, char *why, size_t whycap) {
    const char *s;
    size_t n;
    dt_status st = dt__doc_want_string(v, &s, &n, why, whycap);
    if (st != DT_OK) return st;
    int f = dt__tipo_sql(s, n);
    if (f == 0)
        return dt__mal(v, why, whycap,
                       "%s.%s: '%s' is not a type here; a column takes smallint, integer, bigint, numeric, numeric(p), numeric(p,s), text, "
                       "varchar(n), char(n), date, timestamp, timestamptz or uuid",
                       t->nombre, c->nombre, dt__citar(s, n).s);
    int propia = c->tiempo ? DT__F_TIEMPO : dt__tipo_familia(c->tipo);
    static const char *const familias[] = {"", "integers", "text", "dates", "dates with a time of day", "UUIDs"};
    if (f != DT__F_TEXTO && f != propia && !(propia == DT__F_FECHA && f == DT__F_TIEMPO))
        return dt__mal(v, why, whycap, "%s.%s: its values are %s (%s), which %s cannot hold; it takes %s", t->nombre, c->nombre, familias[propia],
                       c->tiempo ? "YYYY-MM-DDTHH:MM:SS" : c->tipo, dt__citar(s, n).s,
                       propia == DT__F_ENTERO  ? "smallint, integer, bigint, numeric or a text type"
                       : propia == DT__F_FECHA ? "date, timestamp, timestamptz or a text type"
                       : propia == DT__F_TIEMPO ? "timestamp, timestamptz or a text type"
                       : propia == DT__F_UUID   ? "uuid or a text type"
                                               : "text, varchar(n) or char(n)");
    memcpy(c->tipo_dado, s, n); /* at most "varchar(10485760)" or "numeric(1000,1000)" */
    c->tipo_dado[n] = '\0';
    c->tipo = c->tipo_dado;
    return DT_OK;
}

/* A group's tipo_sql: a string for its one column, or a table of its columns by their names in the
 * table (a call's columns, after campos renamed them). Not a key of the call's own options, so it
 * cannot clash with a parameter (rut, vehiculo.patente and invalido.rut have one named tipo). */
static dt_status dt__tipos_leer(dt__etabla *t, const dt__grupo *g, const dt__doc_node *cn, char *why, size_t whycap) {
    const dt__doc_node *v = dt__doc_get(cn, "tipo_sql", 8);
    if (v == NULL) return DT_OK;
    if (dt__doc_kind_of(v) != DT__DOC_TABLE) {
        if (g->ncol != 1)
            return dt__mal(v, why, whycap, "gives one column's type, and this call gives %zu columns (tipo_sql = { %s = \"...\" } names each)",
                           g->ncol, t->col[g->col0].nombre);
        return dt__tipo_poner(t, &t->col[g->col0], v, why, whycap);
    }
    for (size_t i = 0; i < dt__doc_len(v); i++) {
        const dt__doc_node *it = dt__doc_item(v, i);
        size_t kn;
        const char *k = dt__clave(it, &kn);
        size_t j = g->col0;
        while (j < g->col0 + g->ncol && !dt__es(k, kn, t->col[j].nombre)) j++;
        if (j == g->col0 + g->ncol) {
            char lista[300] = "";
            for (size_t q = g->col0; q < g->col0 + g->ncol; q++)
                if (dt__lista_mas(lista, sizeof lista - 8, t->col[q].nombre, strlen(t->col[q].nombre))) break;
            for (char *c = lista; *c; c++)
                if (*c == ',') *c = '/';
            return dt__mal(v, why, whycap, "'%s' is not a column of this group; its columns are %s", dt__citar(k, kn).s, lista);
        }
        dt_status st = dt__tipo_poner(t, &t->col[j], it, why, whycap);
        if (st != DT_OK) return st;
    }
    return DT_OK;
}

/* A ref's sesgo = { distribucion = "zipf", s = 1..8 }: only the exponent is kept here; the buckets
 * need the parent's rows, known after the fan-outs (dt__abanicos). */
static dt_status dt__sesgo_leer(dt__grupo *g, const dt__doc_node *v, char *why, size_t whycap) {
    dt_status st = dt__doc_want(v, DT__DOC_TABLE, why, whycap);
    if (st != DT_OK) return st;
    for (size_t i = 0; i < dt__doc_len(v); i++) {
        size_t n;
        const char *k = dt__clave(dt__doc_item(v, i), &n);
        if (!dt__es(k, n, "distribucion") && !dt__es(k, n, "s"))
            return dt__mal(v, why, whycap, "unknown key '%s' (sesgo takes distribucion = \"zipf\" and s)", dt__citar(k, n).s);
    }
    const dt__doc_node *d = dt__doc_need(v, "distribucion", why, whycap);
    if (d == NULL) return DT_ERR_INVALID_ARG;
    const char *s;
    size_t sn;
    if ((st = dt__doc_want_string(d, &s, &sn, why, whycap)) != DT_OK) return st;
    if (!dt__es(s, sn, "zipf"))
        return dt__mal(d, why, whycap, "'%s' is not a skew; sesgo takes distribucion = \"zipf\" with an exponent s", dt__citar(s, sn).s);
    const dt__doc_node *e = dt__doc_need(v, "s", why, whycap);
    if (e == NULL) return DT_ERR_INVALID_ARG;
    int64_t x;
    if ((st = dt__doc_want_integer(e, &x, why, whycap)) != DT_OK) return st;
    if (x < 1 || x > DT__REPARTO_S_MAX)
        return dt__mal(e, why, whycap, "must be an integer exponent from 1 to %d, got %lld", DT__REPARTO_S_MAX, (long long)x);
    g->sesgo_s = x;
    return DT_OK;
}

/* One entry of columnas: a group of one column, or of a call's chosen fields. */
static dt_status dt__grupo_nuevo(dt__etabla *t, const dt__doc_node *cn, uint64_t seed, const int32_t hoy[3], char *why,
                                 size_t whycap) {
    /* Counted before it is complete, so a refusal half-way still frees what it allocated. */
    dt__grupo *g = &t->gr[t->ngr++];
    memset(g, 0, sizeof *g);
    g->nodo = cn;
    g->col0 = t->ncol;
    size_t kn;
    const char *k = dt__clave(cn, &kn);
    if (!dt__sql_nombre_valido(k, kn))
        return dt__mal(cn, why, whycap, "a column name must be letters of any alphabet, digits and '_', not starting with a digit (at most 63 bytes)");
    if ((g->nombre = dt__dup(k, kn)) == NULL) return DT_ERR_NO_MEMORY;
    /* The group's key: its own stream and hashes, so no other group's values move with it. */
    char clave[140];
    size_t tn = strlen(t->nombre);
    memcpy(clave, t->nombre, tn);
    clave[tn] = '\0';
    memcpy(clave + tn + 1, k, kn);
    g->clave = dt__mezcla(seed ^ dt__fnv1a64(clave, tn + 1 + kn));
    dt_status st = dt__doc_want(cn, DT__DOC_TABLE, why, whycap);
    if (st != DT_OK) return st;
    static const char *const tipos[] = {"serie", "llamada", "elegir", "ref", "reparto", "posicion"};
    const dt__doc_node *v = NULL;
    int tipo = -1;
    for (int i = 0; i < 6; i++) {
        const dt__doc_node *x = dt__doc_get(cn, tipos[i], strlen(tipos[i]));
        if (x == NULL) continue;
        if (tipo >= 0) return dt__mal(cn, why, whycap, "a column is one of %s, not both %s and %s", dt__tipos_columna, tipos[tipo], tipos[i]);
        tipo = i;
        v = x;
    }
    if (tipo < 0) return dt__mal(cn, why, whycap, "needs one of the keys %s", dt__tipos_columna);
    g->tipo = tipo;
    if (tipo != DT__G_LLAMADA) {
        for (size_t i = 0; i < dt__doc_len(cn); i++) {
            size_t n2;
            const char *k2 = dt__clave(dt__doc_item(cn, i), &n2);
            if ((tipo == DT__G_REF || tipo == DT__G_REPARTO) && dt__es(k2, n2, "tipo_sql"))
                return dt__mal(cn, why, whycap, "a %s has its parent column's type (a tipo_sql belongs on the parent column)", tipos[tipo]);
            if (tipo == DT__G_REF && !dt__es(k2, n2, "ref") && !dt__es(k2, n2, "sesgo") && !dt__es(k2, n2, "diferida"))
                return dt__mal(cn, why, whycap, "unknown key '%s' (a ref column takes only ref, sesgo and diferida)", dt__citar(k2, n2).s);
            if (tipo != DT__G_REF && !dt__es(k2, n2, tipos[tipo]) && !dt__es(k2, n2, "tipo_sql"))
                return dt__mal(cn, why, whycap, "unknown key '%s' (a %s column takes only %s and tipo_sql)", dt__citar(k2, n2).s, tipos[tipo], tipos[tipo]);
        }
    }
    switch (tipo) {
    case DT__G_SERIE:
    case DT__G_POSICION: {
        int b;
        size_t un;
        const char *u;
        if (tipo == DT__G_SERIE && dt__doc_kind_of(v) == DT__DOC_STRING) { /* serie = "uuid" */
            if ((st = dt__doc_want_string(v, &u, &un, why, whycap)) != DT_OK) return st;
            if (!dt__es(u, un, "uuid"))
                return dt__mal(v, why, whycap, "serie must be true or \"uuid\", got '%s'", dt__citar(u, un).s);
            g->uuid = 1;
            if (dt__col_nueva(t, k, kn, 0, "uuid", 0, 1)) return DT_ERR_NO_MEMORY;
            break;
        }
        if ((st = dt__doc_want_boolean(v, &b, why, whycap)) != DT_OK) return st;
        if (!b) return dt__mal(cn, why, whycap, "%s must be true (a column that is not a %s leaves the key out)", tipos[tipo], tipos[tipo]);
        if (dt__col_nueva(t, k, kn, 0, "bigint", 0, tipo == DT__G_SERIE)) return DT_ERR_NO_MEMORY;
        break;
    }
    case DT__G_LLAMADA:
        if ((st = dt__grupo_llamada(t, g, cn, v, hoy, why, whycap)) != DT_OK) return st;
        break;
    case DT__G_ELEGIR:
        if ((st = dt__grupo_elegir(g, cn, v, why, whycap)) != DT_OK) return st;
        if (dt__col_nueva(t, k, kn, 0, "text", 0, 0)) return DT_ERR_NO_MEMORY;
        break;
    default: {
        const char *s;
        size_t sn;
        if (tipo == DT__G_REPARTO && dt__doc_kind_of(v) == DT__DOC_ARRAY) { /* reparto = ["p.a", "p.b"]: their sum */
            if (dt__doc_len(v) < 1 || dt__doc_len(v) > DT__REPARTO_SUMANDOS)
                return dt__mal(v, why, whycap, "names 1 to %d columns of the parent, got %zu", DT__REPARTO_SUMANDOS, dt__doc_len(v));
            for (size_t i = 0; i < dt__doc_len(v); i++) {
                if ((st = dt__doc_want_string(dt__doc_item(v, i), &s, &sn, why, whycap)) != DT_OK) return st;
                const char *punto = memchr(s, '.', sn);
                if (punto == NULL || punto == s || punto == s + sn - 1 || memchr(s, '\0', sn))
                    return dt__mal(cn, why, whycap, "reparto must be \"tabla.columna\" or a list of them, got '%s'", dt__citar(s, sn).s);
            }
            if (dt__col_nueva(t, k, kn, 0, "bigint", 0, 0)) return DT_ERR_NO_MEMORY;
            break;
        }
        if ((st = dt__doc_want_string(v, &s, &sn, why, whycap)) != DT_OK) return st;
        const char *punto = memchr(s, '.', sn);
        if (punto == NULL || punto == s || punto == s + sn - 1 || memchr(s, '\0', sn))
            return dt__mal(cn, why, whycap, "%s must be \"tabla.columna\", got '%s'", tipos[tipo], dt__citar(s, sn).s);
        const dt__doc_node *sesgo = tipo == DT__G_REF ? dt__doc_get(cn, "sesgo", 5) : NULL;
        if (sesgo && (st = dt__sesgo_leer(g, sesgo, why, whycap)) != DT_OK) return st;
        const dt__doc_node *diferida = tipo == DT__G_REF ? dt__doc_get(cn, "diferida", 8) : NULL;
        if (diferida && (st = dt__doc_want_boolean(diferida, &g->diferida, why, whycap)) != DT_OK) return st;
        if (dt__col_nueva(t, k, kn, 0, "bigint", 0, 0)) return DT_ERR_NO_MEMORY; /* type and target: resolved later */
        break;
    }
    }
    g->ncol = t->ncol - g->col0;
    if ((st = dt__tipos_leer(t, g, cn, why, whycap)) != DT_OK) return st;
    if (t->ncol > DT__ESQUEMA_COLUMNAS_MAX)
        return dt__mal(cn, why, whycap, "a table has at most %d columns (PostgreSQL's limit), and this one reaches %zu",
                       DT__ESQUEMA_COLUMNAS_MAX, t->ncol);
    for (size_t j = g->col0; j < t->ncol; j++)
        for (size_t i = 0; i < j; i++)
            if (strcmp(t->col[i].nombre, t->col[j].nombre) == 0)
                return dt__mal(cn, why, whycap, "the column '%s' is already in the table (from columnas.%s)", t->col[j].nombre,
                               t->gr[t->col[i].grupo].nombre);
    return DT_OK;
}

static const char *const dt__repartos[] = {"uniforme", "geometrica", "zipf", "pesos"};
static const char *const dt__reparto_param[] = {NULL, "p", "s", "pesos"};

/* cuantos = { min, max [, distribucion = "…" and its parameter] }: the range, and for a distribution
 * other than "uniforme" its table of cumulative weights (reparto.h). `entradas` counts the entries of
 * every table built so far in this schema, to bound them together. */
static dt_status dt__cuantos_leer(dt__etabla *t, const dt__doc_node *cuantos, size_t *entradas, char *why, size_t whycap) {
    dt_status st = dt__doc_want(cuantos, DT__DOC_TABLE, why, whycap);
    if (st != DT_OK) return st;
    const dt__doc_node *nd = NULL, *param[4] = {NULL, NULL, NULL, NULL};
    int dist = DT__REPARTO_UNIFORME;
    for (size_t i = 0; i < dt__doc_len(cuantos); i++) {
        const dt__doc_node *it = dt__doc_item(cuantos, i);
        size_t n2;
        const char *k2 = dt__clave(it, &n2);
        int d = 1;
        while (d < 4 && !dt__es(k2, n2, dt__reparto_param[d])) d++;
        if (d < 4) {
            param[d] = it;
        } else if (dt__es(k2, n2, "distribucion")) {
            const char *s;
            size_t sn;
            if ((st = dt__doc_want_string(it, &s, &sn, why, whycap)) != DT_OK) return st;
            nd = it;
            for (dist = 0; dist < 4 && !dt__es(s, sn, dt__repartos[dist]); dist++) continue;
            if (dist == 4)
                return dt__mal(it, why, whycap,
                               "'%s' is not a distribution; cuantos takes \"uniforme\", \"geometrica\" (with p), \"zipf\" (with s) or \"pesos\" (with pesos)",
                               dt__citar(s, sn).s);
        } else if (!dt__es(k2, n2, "min") && !dt__es(k2, n2, "max")) {
            return dt__mal(cuantos, why, whycap, "unknown key '%s' (cuantos takes min, max, distribucion and its p, s or pesos)",
                           dt__citar(k2, n2).s);
        }
    }
    const dt__doc_node *mn = dt__doc_need(cuantos, "min", why, whycap);
    if (mn == NULL) return DT_ERR_INVALID_ARG;
    const dt__doc_node *mx = dt__doc_need(cuantos, "max", why, whycap);
    if (mx == NULL) return DT_ERR_INVALID_ARG;
    int64_t a, b;
    if ((st = dt__doc_want_integer(mn, &a, why, whycap)) != DT_OK) return st;
    if ((st = dt__doc_want_integer(mx, &b, why, whycap)) != DT_OK) return st;
    if (a < 0 || a > DT__ESQUEMA_CUANTOS_MAX) return dt__mal(mn, why, whycap, "must be from 0 to %d, got %lld", DT__ESQUEMA_CUANTOS_MAX, (long long)a);
    if (b < 0 || b > DT__ESQUEMA_CUANTOS_MAX) return dt__mal(mx, why, whycap, "must be from 0 to %d, got %lld", DT__ESQUEMA_CUANTOS_MAX, (long long)b);
    if (a > b) return dt__mal(cuantos, why, whycap, "min must not exceed max, got min=%lld, max=%lld", (long long)a, (long long)b);
    t->cmin = (uint64_t)a;
    t->cmax = (uint64_t)b;
    for (int d = 1; d < 4; d++)
        if (param[d] && d != dist)
            return dt__mal(param[d], why, whycap, "belongs to distribucion = \"%s\", and this cuantos is \"%s\"", dt__repartos[d],
                           dt__repartos[dist]);
    if (dist == DT__REPARTO_UNIFORME) return DT_OK; /* no table: min + acotado(key, p, max - min + 1) */
    if (param[dist] == NULL)
        return dt__mal(nd, why, whycap, "\"%s\" needs %s", dt__repartos[dist],
                       dist == DT__REPARTO_GEOMETRICA ? "p, the per mille share of weight each extra child loses (1 to 1000)"
                       : dist == DT__REPARTO_ZIPF     ? "s, the integer exponent (1 to 8)"
                                                      : "pesos = [w_min, ..., w_max], one integer weight per count");
    uint64_t n = t->cmax - t->cmin + 1;
    if (n > DT__REPARTO_CUENTAS_MAX)
        return dt__mal(cuantos, why, whycap, "distribucion = \"%s\" keeps one weight per count: max - min may be at most %u, got %llu",
                       dt__repartos[dist], DT__REPARTO_CUENTAS_MAX - 1, (unsigned long long)(n - 1));
    if (*entradas + n > DT__REPARTO_ESQUEMA_MAX)
        return dt__mal(cuantos, why, whycap,
                       "the schema's fan-out distributions may keep at most %u weights together (8 bytes each), and this one brings them to %llu",
                       DT__REPARTO_ESQUEMA_MAX, (unsigned long long)(*entradas + n));
    int64_t x = 0;
    const dt__doc_node *pn = param[dist];
    if (dist == DT__REPARTO_PESOS) {
        if ((st = dt__doc_want(pn, DT__DOC_ARRAY, why, whycap)) != DT_OK) return st;
        if (dt__doc_len(pn) != n)
            return dt__mal(pn, why, whycap, "has %zu weights for the %llu counts from min = %lld to max = %lld (one weight per count)",
                           dt__doc_len(pn), (unsigned long long)n, (long long)a, (long long)b);
        int positivo = 0;
        for (size_t k = 0; k < n; k++) { /* checked before the table exists: a refusal allocates nothing */
            const dt__doc_node *it = dt__doc_item(pn, k);
            if ((st = dt__doc_want_integer(it, &x, why, whycap)) != DT_OK) return st;
            if (x < 0 || x > DT__ESQUEMA_PESO_MAX)
                return dt__mal(it, why, whycap, "a weight must be an integer from 0 to %d, got %lld", DT__ESQUEMA_PESO_MAX, (long long)x);
            positivo |= x > 0;
        }
        if (!positivo) return dt__mal(pn, why, whycap, "needs a positive weight");
    } else {
        if ((st = dt__doc_want_integer(pn, &x, why, whycap)) != DT_OK) return st;
        if (dist == DT__REPARTO_GEOMETRICA && (x < 1 || x > 1000))
            return dt__mal(pn, why, whycap, "must be a per mille rate from 1 to 1000, got %lld", (long long)x);
        if (dist == DT__REPARTO_ZIPF && (x < 1 || x > DT__REPARTO_S_MAX))
            return dt__mal(pn, why, whycap, "must be an integer exponent from 1 to %d, got %lld", DT__REPARTO_S_MAX, (long long)x);
    }
    if ((t->reparto = dt__reparto_nuevo(dist, x, (size_t)n)) == NULL) return DT_ERR_NO_MEMORY;
    if (dist == DT__REPARTO_PESOS) {
        for (size_t k = 0; k < n; k++) {
            int64_t w;
            dt__doc_want_integer(dt__doc_item(pn, k), &w, NULL, 0);
            t->reparto->acum[k] = (uint64_t)w;
        }
        dt__reparto_cerrar(t->reparto); /* at most 65,536 weights of 10^9: below 2^46 */
    }
    *entradas += (size_t)n;
    return DT_OK;
}

static dt_status dt__tabla_nueva(dt__etabla *t, const dt__doc_node *tn, uint64_t seed, const int32_t hoy[3], size_t *entradas,
                                 char *why, size_t whycap) {
    size_t kn;
    const char *k = dt__clave(tn, &kn);
    t->nodo = tn;
    t->por = -1;
    if (!dt__sql_nombre_valido(k, kn))
        return dt__mal(tn, why, whycap, "a table name must be letters of any alphabet, digits and '_', not starting with a digit (at most 63 bytes)");
    if ((t->nombre = dt__dup(k, kn)) == NULL) return DT_ERR_NO_MEMORY;
    t->clave = dt__mezcla(seed ^ dt__fnv1a64(k, kn));
    dt_status st = dt__doc_want(tn, DT__DOC_TABLE, why, whycap);
    if (st != DT_OK) return st;
    for (size_t i = 0; i < dt__doc_len(tn); i++) {
        size_t n2;
        const char *k2 = dt__clave(dt__doc_item(tn, i), &n2);
        if (!dt__es(k2, n2, "filas") && !dt__es(k2, n2, "por") && !dt__es(k2, n2, "cuantos") && !dt__es(k2, n2, "columnas"))
            return dt__mal(tn, why, whycap, "unknown key '%s' (a table takes filas or por and cuantos, and columnas)", dt__citar(k2, n2).s);
    }
    const dt__doc_node *filas = dt__doc_get(tn, "filas", 5), *por = dt__doc_get(tn, "por", 3), *cuantos = dt__doc_get(tn, "cuantos", 7);
    if (filas && por) return dt__mal(tn, why, whycap, "takes filas or por, not both");
    if (!filas && !por) return dt__mal(tn, why, whycap, "needs filas (a row count) or por (a fan-out from a parent table)");
    if (filas) {
        int64_t x;
        if ((st = dt__doc_want_integer(filas, &x, why, whycap)) != DT_OK) return st;
        if (x < 0 || (uint64_t)x > DT__ESQUEMA_FILAS_MAX)
            return dt__mal(filas, why, whycap, "must be from 0 to %llu, got %lld", (unsigned long long)DT__ESQUEMA_FILAS_MAX, (long long)x);
        t->filas = (uint64_t)x;
        if (cuantos) return dt__mal(cuantos, why, whycap, "belongs to a fan-out (por = \"parent\"); a table with filas has none");
    } else {
        if ((st = dt__doc_want_string(por, NULL, NULL, why, whycap)) != DT_OK) return st;
        t->nodo_por = por;
        if (cuantos == NULL) return dt__mal(tn, why, whycap, "needs cuantos = { min = 1, max = 3 }: children per row of the parent");
        if ((st = dt__cuantos_leer(t, cuantos, entradas, why, whycap)) != DT_OK) return st;
    }
    const dt__doc_node *cols = dt__doc_need(tn, "columnas", why, whycap);
    if (cols == NULL) return DT_ERR_INVALID_ARG;
    if ((st = dt__doc_want(cols, DT__DOC_TABLE, why, whycap)) != DT_OK) return st;
    size_t n = dt__doc_len(cols);
    if (n == 0) return dt__mal(cols, why, whycap, "needs at least one column");
    t->gr = (dt__grupo *)calloc(n, sizeof *t->gr);
    t->col = (dt__col *)calloc(n * DT_MAX_FIELDS, sizeof *t->col);
    if (t->gr == NULL || t->col == NULL) return DT_ERR_NO_MEMORY;
    for (size_t i = 0; i < n; i++)
        if ((st = dt__grupo_nuevo(t, dt__doc_item(cols, i), seed, hoy, why, whycap)) != DT_OK) return st;
    return DT_OK;
}

/* ---- building: references, cycles, fan-out ---- */

/* Names in byte order (strcmp: the same on every platform), so a lookup is a binary search: a
 * document of many tables and refs stays far from quadratic. Names are unique (keys of one table). */
static int dt__por_nombre(const void *a, const void *b) {
    return strcmp(((const dt__nombre *)a)->s, ((const dt__nombre *)b)->s);
}

static int64_t dt__tabla_de(const dt_esquema *e, const char *s, size_t n) {
    size_t lo = 0, hi = e->nt;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        const char *x = e->nombres[m].s;
        size_t xn = strlen(x);
        int c = memcmp(x, s, xn < n ? xn : n);
        if (c == 0) c = xn < n ? -1 : xn > n ? 1 : 0;
        if (c == 0) return (int64_t)e->nombres[m].i;
        if (c < 0) lo = m + 1;
        else hi = m;
    }
    return -1;
}

static dt_status dt__indexar(dt_esquema *e) {
    e->nombres = (dt__nombre *)malloc(e->nt * sizeof *e->nombres);
    if (e->nombres == NULL) return DT_ERR_NO_MEMORY;
    for (size_t i = 0; i < e->nt; i++) {
        e->nombres[i].s = e->t[i].nombre;
        e->nombres[i].i = i;
    }
    qsort(e->nombres, e->nt, sizeof *e->nombres, dt__por_nombre);
    return DT_OK;
}

static void dt__nombres_tablas(const dt_esquema *e, char *lista, size_t cap) {
    lista[0] = '\0';
    for (size_t i = 0; i < e->nt; i++) {
        size_t l = strlen(lista);
        if (l + strlen(e->t[i].nombre) + 8 >= cap) {
            snprintf(lista + l, cap - l, ", ...");
            return;
        }
        snprintf(lista + l, cap - l, "%s%s", i ? ", " : "", e->t[i].nombre);
    }
}

static dt_status dt__resolver(dt_esquema *e, char *why, size_t whycap) {
    char lista[300];
    for (size_t i = 0; i < e->nt; i++) {
        dt__etabla *t = &e->t[i];
        if (t->nodo_por) {
            size_t n;
            const char *s = dt__doc_string(t->nodo_por, &n);
            t->por = dt__tabla_de(e, s, n);
            if (t->por < 0) {
                dt__nombres_tablas(e, lista, sizeof lista);
                return dt__mal(t->nodo_por, why, whycap, "unknown table '%s'; the tables are %s", dt__citar(s, n).s, lista);
            }
        }
        for (size_t g = 0; g < t->ngr; g++) {
            dt__grupo *gr = &t->gr[g];
            if (gr->tipo != DT__G_REF) continue;
            size_t n;
            const char *s = dt__doc_string(dt__doc_get(gr->nodo, "ref", 3), &n);
            const char *punto = memchr(s, '.', n);
            int64_t rt = dt__tabla_de(e, s, (size_t)(punto - s));
            if (rt < 0) {
                dt__nombres_tablas(e, lista, sizeof lista);
                return dt__mal(gr->nodo, why, whycap, "ref: unknown table '%s'; the tables are %s", dt__citar(s, (size_t)(punto - s)).s, lista);
            }
            const dt__etabla *p = &e->t[rt];
            const char *c = punto + 1;
            size_t cn = n - (size_t)(c - s);
            size_t j;
            for (j = 0; j < p->ncol; j++)
                if (strlen(p->col[j].nombre) == cn && memcmp(p->col[j].nombre, c, cn) == 0) break;
            if (j == p->ncol) {
                lista[0] = '\0';
                for (size_t q = 0; q < p->ncol; q++) {
                    size_t l = strlen(lista);
                    if (l + strlen(p->col[q].nombre) + 8 >= sizeof lista) {
                        snprintf(lista + l, sizeof lista - l, ", ...");
                        break;
                    }
                    snprintf(lista + l, sizeof lista - l, "%s%s", q ? ", " : "", p->col[q].nombre);
                }
                return dt__mal(gr->nodo, why, whycap, "ref: the table %s has no column '%s'; its columns are %s", p->nombre, dt__citar(c, cn).s, lista);
            }
            const dt__grupo *pg = &p->gr[p->col[j].grupo];
            if (!p->col[j].unico || pg->tipo == DT__G_REF || pg->tipo == DT__G_ELEGIR)
                return dt__mal(gr->nodo, why, whycap, "ref: %s.%s is not unique; a foreign key needs a serie column or a call's unico column",
                               p->nombre, p->col[j].nombre);
            gr->rtabla = (size_t)rt;
            gr->rcol = j;
            t->col[gr->col0].tipo = p->col[j].tipo;
            /* a deferred ref is written NULL first wherever its parent row may not exist yet */
            t->col[gr->col0].nulable = p->col[j].nulable || gr->diferida;
        }
    }
    return DT_OK;
}

/* Depth-first over the dependencies (the fan-out parent, then each ref in column order), tables in
 * declaration order: a table is placed after all it depends on (post-order), and an edge back to a
 * table on the current path is a cycle, named from that table round to it again. */
typedef struct dt__dfs {
    dt_esquema *e;
    uint8_t *color;  /* 0 new, 1 on the path, 2 placed */
    size_t *camino, ncamino, norden, *sig;
    char *why;
    size_t whycap;
} dt__dfs;

static dt_status dt__ciclo(dt__dfs *d, size_t desde, const dt__doc_node *nodo) {
    char texto[DT_SENTENCE_MAX] = "";
    size_t k = 0;
    while (d->camino[k] != desde) k++;
    for (size_t i = k; i < d->ncamino; i++) {
        size_t l = strlen(texto);
        if (l > 300) { /* a long cycle keeps its start and its end */
            snprintf(texto + l, sizeof texto - l, "... -> ");
            break;
        }
        snprintf(texto + l, sizeof texto - l, "%s -> ", d->e->t[d->camino[i]].nombre);
    }
    size_t l = strlen(texto);
    snprintf(texto + l, sizeof texto - l, "%s", d->e->t[desde].nombre);
    return dt__mal(nodo, d->why, d->whycap, "a foreign-key cycle: %s (a table must come after the tables it refers to)", texto);
}

/* The walk from table i, with an explicit stack (the path itself) rather than recursion: a document
 * of a megabyte can chain tens of thousands of tables, more than a thread's stack would hold. sig[u]
 * is the next dependency of u to look at: 0 its fan-out parent, g + 1 its group g. */
static dt_status dt__visitar(dt__dfs *d, size_t i) {
    d->color[i] = 1;
    d->sig[i] = 0;
    d->camino[d->ncamino++] = i;
    while (d->ncamino) {
        size_t u = d->camino[d->ncamino - 1];
        const dt__etabla *t = &d->e->t[u];
        int64_t dep = -1;
        const dt__doc_node *nodo = NULL;
        while (dep < 0 && d->sig[u] <= t->ngr) {
            size_t g = d->sig[u]++;
            if (g == 0) {
                dep = t->por;
                nodo = t->nodo_por;
            } else if (t->gr[g - 1].tipo == DT__G_REF && !t->gr[g - 1].diferida) { /* a deferred ref orders nothing */
                dep = (int64_t)t->gr[g - 1].rtabla;
                nodo = t->gr[g - 1].nodo;
            }
            if (dep >= 0 && d->color[dep] == 2) dep = -1;
        }
        if (dep < 0) { /* every dependency placed: so is u */
            d->color[u] = 2;
            d->ncamino--;
            d->e->orden[d->norden++] = u;
            continue;
        }
        if (d->color[dep] == 1) return dt__ciclo(d, (size_t)dep, nodo);
        d->color[dep] = 1;
        d->sig[dep] = 0;
        d->camino[d->ncamino++] = (size_t)dep;
    }
    return DT_OK;
}

/* The column of table t named s[0, n), or -1. */
static int64_t dt__columna_de(const dt__etabla *t, const char *s, size_t n) {
    for (size_t j = 0; j < t->ncol; j++)
        if (strlen(t->col[j].nombre) == n && memcmp(t->col[j].nombre, s, n) == 0) return (int64_t)j;
    return -1;
}

/* A `reparto` or `posicion` column: a fan-out table's, and a reparto's source an integer column of
 * the fan-out parent, which every parent row splits among at least one and at most
 * DT__REPARTO_HIJOS_MAX children. */
static dt_status dt__resolver_reparto(dt_esquema *e, dt__etabla *t, dt__grupo *g, char *why, size_t whycap) {
    const char *que = g->tipo == DT__G_REPARTO ? "reparto" : "posicion";
    if (t->por < 0) return dt__mal(g->nodo, why, whycap, "%s belongs to a fan-out table (por = \"parent\"): it counts among a parent row's children", que);
    if (g->tipo == DT__G_POSICION) return DT_OK;
    const dt__etabla *p = &e->t[t->por];
    if (t->cmin < 1 || t->cmax > DT__REPARTO_HIJOS_MAX)
        return dt__mal(g->nodo, why, whycap, "reparto splits a parent's value among 1 to %d children; cuantos is %llu to %llu", DT__REPARTO_HIJOS_MAX,
                       (unsigned long long)t->cmin, (unsigned long long)t->cmax);
    const dt__doc_node *v = dt__doc_get(g->nodo, "reparto", 7);
    int lista = dt__doc_kind_of(v) == DT__DOC_ARRAY;
    size_t cuantos = lista ? dt__doc_len(v) : 1;
    int bigint = 0, nulable = 0, prof = 0;
    for (size_t q = 0; q < cuantos; q++) {
        size_t n;
        const char *s = dt__doc_string(lista ? dt__doc_item(v, q) : v, &n);
        const char *punto = memchr(s, '.', n);
        if (dt__tabla_de(e, s, (size_t)(punto - s)) != t->por)
            return dt__mal(g->nodo, why, whycap, "reparto: '%s' is not this table's fan-out parent (por = \"%s\")", dt__citar(s, (size_t)(punto - s)).s, p->nombre);
        int64_t j = dt__columna_de(p, punto + 1, n - (size_t)(punto + 1 - s));
        if (j < 0) return dt__mal(g->nodo, why, whycap, "reparto: the table %s has no column '%s'", p->nombre, dt__citar(punto + 1, n - (size_t)(punto + 1 - s)).s);
        const char *tipo = p->col[j].tipo;
        if (strcmp(tipo, "bigint") != 0 && strcmp(tipo, "integer") != 0)
            return dt__mal(g->nodo, why, whycap, "reparto: %s.%s is %s; it splits an integer column", p->nombre, p->col[j].nombre, tipo);
        const dt__grupo *pg = &p->gr[p->col[j].grupo];
        if (pg->tipo == DT__G_LLAMADA && pg->ds->sucio[p->col[j].campo])
            return dt__mal(g->nodo, why, whycap, "reparto: %s.%s has dirty values (sucio); it splits a clean one", p->nombre, p->col[j].nombre);
        g->sumandos[q] = (size_t)j;
        bigint |= strcmp(tipo, "bigint") == 0 || cuantos > 1; /* a sum of integers may pass 2^31 */
        nulable |= p->col[j].nulable;
        int pp = pg->tipo == DT__G_LLAMADA || pg->tipo == DT__G_REPARTO ? pg->profundidad : 0;
        if (pp > prof) prof = pp;
    }
    g->nsumandos = cuantos;
    g->rtabla = (size_t)t->por;
    g->rcol = g->sumandos[0];
    t->col[g->col0].tipo = bigint ? "bigint" : "integer";
    t->col[g->col0].nulable = nulable;
    g->profundidad = prof + 1;
    if (g->profundidad > DT__DE_PROFUNDIDAD)
        return dt__mal(g->nodo, why, whycap, "its value comes through a chain of more than %d columns (de, reparto)", DT__DE_PROFUNDIDAD);
    return DT_OK;
}

/* Every { de = ... } argument: its source column, found once the tables are in dependency order (so
 * an ancestor's own arguments are resolved before its descendants'), and the depth of its chain;
 * and every reparto and posicion column. */
static dt_status dt__resolver_de(dt_esquema *e, char *why, size_t whycap) {
    for (size_t k = 0; k < e->nt; k++) {
        dt__etabla *t = &e->t[e->orden[k]];
        for (size_t gi = 0; gi < t->ngr; gi++) {
            dt__grupo *g = &t->gr[gi];
            if (g->tipo == DT__G_REPARTO || g->tipo == DT__G_POSICION) {
                dt_status st = dt__resolver_reparto(e, t, g, why, whycap);
                if (st != DT_OK) return st;
                continue;
            }
            for (size_t d = 0; d < g->nde; d++) {
                dt__de *de = &g->de[d];
                size_t n;
                const char *s = dt__doc_string(de->nodo, &n);
                const char *punto = memchr(s, '.', n);
                const dt__etabla *st = t;
                const char *c = s;
                size_t cn = n;
                de->tabla = -1;
                if (punto) {
                    int64_t rt = dt__tabla_de(e, s, (size_t)(punto - s));
                    const dt__etabla *a = t;
                    while (a->por >= 0 && a != &e->t[rt < 0 ? 0 : rt]) a = &e->t[a->por];
                    if (rt < 0 || a != &e->t[rt] || a == t)
                        return dt__mal(de->nodo, why, whycap,
                                       "'%s' is not a table up this table's fan-out chain (por); an argument comes from a column of the same row or of a row it fans out from",
                                       dt__citar(s, (size_t)(punto - s)).s);
                    de->tabla = rt;
                    st = &e->t[rt];
                    c = punto + 1;
                    cn = n - (size_t)(c - s);
                }
                int64_t j = dt__columna_de(st, c, cn);
                if (j < 0)
                    return dt__mal(de->nodo, why, whycap, "the table %s has no column '%s'", st->nombre, dt__citar(c, cn).s);
                const dt__col *sc = &st->col[j];
                const dt__grupo *sg = &st->gr[sc->grupo];
                if (de->tabla < 0 && sc->grupo >= gi)
                    return dt__mal(de->nodo, why, whycap, "the column %s must come before this one in the table (a row's columns are made in order)", sc->nombre);
                if (sg->tipo == DT__G_LLAMADA && sg->ds->sucio[sc->campo])
                    return dt__mal(de->nodo, why, whycap, "%s.%s has dirty values (sucio); an argument takes a clean one", st->nombre, sc->nombre);
                de->col = (size_t)j;
                int p = sg->tipo == DT__G_LLAMADA || sg->tipo == DT__G_REPARTO ? sg->profundidad : 0;
                if (p + 1 > g->profundidad) g->profundidad = p + 1;
            }
            if (g->profundidad > DT__DE_PROFUNDIDAD)
                return dt__mal(g->nodo, why, whycap, "its arguments come through a chain of more than %d columns (de)", DT__DE_PROFUNDIDAD);
        }
    }
    return DT_OK;
}

/* The parent row of row r of fan-out table t: the first p with fin[p] > r (fin is non-decreasing). */
static uint64_t dt__padre(const dt__etabla *t, uint64_t r) {
    uint64_t lo = 0, hi = t->npadres - 1;
    while (lo < hi) {
        uint64_t m = lo + (hi - lo) / 2;
        if (t->fin[m] > r) hi = m;
        else lo = m + 1;
    }
    return lo;
}

/* Children of parent row p: cmin + a keyed hash of (table, p) bounded to cmax - cmin + 1, never a
 * stream, so a parent row's count does not depend on any other row. */
static uint64_t dt__cuantos(const dt__etabla *t, uint64_t p) {
    if (t->reparto) return t->cmin + dt__reparto_indice(t->reparto, dt__esquema_acotado(t->clave, p, dt__reparto_total(t->reparto)));
    if (t->cmax == t->cmin) return t->cmin;
    return t->cmin + dt__esquema_acotado(t->clave, p, t->cmax - t->cmin + 1);
}

static dt_status dt__abanicos(dt_esquema *e, char *why, size_t whycap) {
    for (size_t k = 0; k < e->nt; k++) {
        dt__etabla *t = &e->t[e->orden[k]];
        if (t->por < 0) continue;
        const dt__etabla *p = &e->t[t->por];
        if (p->filas > DT__ESQUEMA_PADRES_MAX)
            return dt__mal(t->nodo_por, why, whycap,
                           "a fan-out's parent may have at most %llu rows (8 bytes of memory per parent row), %s has %llu",
                           (unsigned long long)DT__ESQUEMA_PADRES_MAX, p->nombre, (unsigned long long)p->filas);
        t->npadres = p->filas;
        if (p->filas) {
            t->fin = (uint64_t *)malloc((size_t)p->filas * sizeof *t->fin);
            if (t->fin == NULL) return DT_ERR_NO_MEMORY;
        }
        uint64_t suma = 0; /* at most 10^8 parents times 10^6 children: far below 2^62 */
        for (uint64_t r = 0; r < p->filas; r++) {
            suma += dt__cuantos(t, r);
            t->fin[r] = suma;
        }
        t->filas = suma;
    }
    /* Every unique column must have a value for every row of its table. */
    for (size_t i = 0; i < e->nt; i++) {
        dt__etabla *t = &e->t[i];
        for (size_t g = 0; g < t->ngr; g++) {
            const dt__grupo *gr = &t->gr[g];
            if (gr->tipo == DT__G_LLAMADA && t->filas > dt_tabla_capacidad(gr->ds)) {
                char abanico[160] = "";
                if (t->por >= 0)
                    snprintf(abanico, sizeof abanico, " (%llu to %llu per row of %s)", (unsigned long long)t->cmin,
                             (unsigned long long)t->cmax, e->t[t->por].nombre);
                return dt__mal(gr->nodo, why, whycap, "the table has %llu rows%s, more than the %llu its unique columns can take",
                               (unsigned long long)t->filas, abanico, (unsigned long long)dt_tabla_capacidad(gr->ds));
            }
            if (gr->tipo == DT__G_REF && t->filas > 0 && e->t[gr->rtabla].filas == 0)
                return dt__mal(gr->nodo, why, whycap, "ref: the table %s has no rows to refer to", e->t[gr->rtabla].nombre);
            if (gr->tipo == DT__G_REF && gr->sesgo_s) {
                for (const dt__etabla *a = t; a->por >= 0; a = &e->t[a->por])
                    if ((size_t)a->por == gr->rtabla)
                        return dt__mal(gr->nodo, why, whycap,
                                       "sesgo: %s is up this table's fan-out chain, so each row refers to the row it fans out from (a skew needs a ref to another table)",
                                       e->t[gr->rtabla].nombre);
                const dt__etabla *p = &e->t[gr->rtabla];
                uint64_t n = p->filas ? p->filas : 1; /* a table of no rows is never read */
                t->gr[g].sesgo = dt__sesgo_nuevo(gr->sesgo_s, n, dt__mezcla(p->clave ^ 0x736573676fULL));
                if (t->gr[g].sesgo == NULL) return DT_ERR_NO_MEMORY;
            }
        }
    }
    return DT_OK;
}

/* The document's `hoy = "YYYY-MM-DD"`: the reference date its calls count days from, so the document
 * alone says what it makes. Always checked; taken into hoy only when the caller gave none (`--hoy`,
 * `Esquema(hoy=)` override it, as --seed overrides nothing in the document). */
static dt_status dt__hoy_del_documento(const dt__doc_node *it, int32_t hoy[3], int tomar, char *why, size_t whycap) {
    const char *s;
    size_t n;
    dt_status st = dt__doc_want_string(it, &s, &n, why, whycap);
    if (st != DT_OK) return st;
    int32_t f[3] = {0, 0, 0};
    int ok = n == 10 && s[4] == '-' && s[7] == '-';
    for (size_t i = 0, k = 0; ok && i < 10; i++) {
        if (i == 4 || i == 7) {
            k++;
            continue;
        }
        if (s[i] < '0' || s[i] > '9') ok = 0;
        else f[k] = f[k] * 10 + (s[i] - '0');
    }
    if (ok) {
        dt_gen *probe = NULL;
        if (dt_new(0, &probe) != DT_OK) return DT_ERR_NO_MEMORY;
        ok = dt_set_hoy(probe, f[0], f[1], f[2]) == DT_OK;
        dt_free(probe);
    }
    if (!ok)
        return dt__mal(it, why, whycap, "must be a real day YYYY-MM-DD from %d-01-01 to %d-12-31, got '%s'", DT_HOY_ANIO_MIN, DT_HOY_ANIO_MAX,
                       dt__citar(s, n).s);
    if (tomar) memcpy(hoy, f, sizeof f);
    return DT_OK;
}

dt_status dt_esquema_new(const char *texto, size_t len, int formato, const char *archivo, uint64_t seed, int32_t hoy_anio,
                         int32_t hoy_mes, int32_t hoy_dia, dt_esquema **out, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out == NULL || (texto == NULL && len > 0)) return DT_ERR_NULL;
    *out = NULL;
    if (formato != DT_ESQUEMA_TOML && formato != DT_ESQUEMA_JSON) {
        if (why && whycap) snprintf(why, whycap, "formato must be %d (TOML) or %d (JSON), got %d", DT_ESQUEMA_TOML, DT_ESQUEMA_JSON, formato);
        return DT_ERR_INVALID_ARG;
    }
    if (hoy_anio || hoy_mes || hoy_dia) { /* checked here too: a schema without calls would not check it */
        dt_gen *probe = NULL;
        if (dt_new(0, &probe) != DT_OK) return DT_ERR_NO_MEMORY;
        dt_status h = dt_set_hoy(probe, hoy_anio, hoy_mes, hoy_dia);
        dt_free(probe);
        if (h != DT_OK) {
            if (why && whycap)
                snprintf(why, whycap, "hoy must be a real day from %d-01-01 to %d-12-31, got %04d-%02d-%02d", DT_HOY_ANIO_MIN,
                         DT_HOY_ANIO_MAX, (int)hoy_anio, (int)hoy_mes, (int)hoy_dia);
            return DT_ERR_INVALID_ARG;
        }
    }
    int32_t hoy[3] = {hoy_anio, hoy_mes, hoy_dia}; /* the caller's; else the document's hoy; else the default */
    dt__doc *d = NULL;
    dt_status st = formato == DT_ESQUEMA_TOML ? dt__doc_parse_toml(texto, len, archivo, &d, why, whycap)
                                              : dt__doc_parse_json(texto, len, archivo, &d, why, whycap);
    if (st != DT_OK) return st;
    dt_esquema *e = (dt_esquema *)calloc(1, sizeof *e);
    if (e == NULL) {
        dt__doc_free(d);
        return DT_ERR_NO_MEMORY;
    }
    e->seed = seed;
    const dt__doc_node *raiz = dt__doc_root(d);
    for (size_t i = 0; i < dt__doc_len(raiz); i++) {
        const dt__doc_node *it = dt__doc_item(raiz, i);
        size_t n;
        const char *k = dt__clave(it, &n);
        if (dt__es(k, n, "version")) {
            int64_t v;
            if ((st = dt__doc_want_integer(it, &v, why, whycap)) != DT_OK) goto fin;
            if (v != 1) {
                st = dt__mal(it, why, whycap, "must be 1 (the only version of the schema language), got %lld", (long long)v);
                goto fin;
            }
        } else if (dt__es(k, n, "hoy")) {
            if ((st = dt__hoy_del_documento(it, hoy, !(hoy_anio || hoy_mes || hoy_dia), why, whycap)) != DT_OK) goto fin;
        } else if (!dt__es(k, n, "tablas")) {
            st = dt__doc_refuse(it, why, whycap, "unknown key '%s' (a schema takes version, hoy and tablas)", dt__citar(k, n).s);
            goto fin;
        }
    }
    const dt__doc_node *tablas = dt__doc_need(raiz, "tablas", why, whycap);
    if (tablas == NULL) {
        st = DT_ERR_INVALID_ARG;
        goto fin;
    }
    if ((st = dt__doc_want(tablas, DT__DOC_TABLE, why, whycap)) != DT_OK) goto fin;
    size_t nt = dt__doc_len(tablas);
    if (nt == 0) {
        st = dt__mal(tablas, why, whycap, "needs at least one table");
        goto fin;
    }
    e->t = (dt__etabla *)calloc(nt, sizeof *e->t);
    e->orden = (size_t *)calloc(nt, sizeof *e->orden);
    if (e->t == NULL || e->orden == NULL) {
        st = DT_ERR_NO_MEMORY;
        goto fin;
    }
    size_t entradas = 0; /* the fan-out distributions' weights, over all tables */
    for (size_t i = 0; i < nt; i++) {
        e->nt = i + 1;
        if ((st = dt__tabla_nueva(&e->t[i], dt__doc_item(tablas, i), seed, hoy, &entradas, why, whycap)) != DT_OK) goto fin;
    }
    if ((st = dt__indexar(e)) != DT_OK) goto fin;
    if ((st = dt__resolver(e, why, whycap)) != DT_OK) goto fin;
    {
        dt__dfs dfs = {e, (uint8_t *)calloc(nt, 1), (size_t *)calloc(nt, sizeof(size_t)), 0, 0,
                       (size_t *)calloc(nt, sizeof(size_t)), why, whycap};
        if (dfs.color == NULL || dfs.camino == NULL || dfs.sig == NULL) st = DT_ERR_NO_MEMORY;
        for (size_t i = 0; st == DT_OK && i < nt; i++)
            if (dfs.color[i] == 0) st = dt__visitar(&dfs, i);
        free(dfs.color);
        free(dfs.camino);
        free(dfs.sig);
        if (st != DT_OK) goto fin;
    }
    if ((st = dt__resolver_de(e, why, whycap)) != DT_OK) goto fin;
    st = dt__abanicos(e, why, whycap);
fin:
    for (size_t i = 0; i < e->nt; i++) { /* the nodes die with the document */
        e->t[i].nodo = e->t[i].nodo_por = NULL;
        for (size_t g = 0; g < e->t[i].ngr; g++) {
            e->t[i].gr[g].nodo = NULL;
            for (size_t q = 0; q < e->t[i].gr[g].nde; q++) e->t[i].gr[g].de[q].nodo = NULL;
        }
    }
    dt__doc_free(d);
    if (st == DT_ERR_NO_MEMORY && why && whycap) snprintf(why, whycap, "%s: out of memory", archivo ? archivo : "<document>");
    if (st != DT_OK) {
        dt_esquema_free(e);
        return st;
    }
    *out = e;
    return DT_OK;
}

/* ---- reading ---- */

size_t dt_esquema_tablas(const dt_esquema *e) { return e ? e->nt : 0; }

const char *dt_esquema_tabla(const dt_esquema *e, size_t tabla) { return e && tabla < e->nt ? e->t[tabla].nombre : NULL; }

dt_status dt_esquema_buscar(const dt_esquema *e, const char *nombre, size_t len, size_t *tabla) {
    if (e == NULL || tabla == NULL || (nombre == NULL && len > 0)) return DT_ERR_NULL;
    int64_t i = dt__tabla_de(e, nombre ? nombre : "", len);
    if (i < 0) return DT_ERR_INVALID_ARG;
    *tabla = (size_t)i;
    return DT_OK;
}

uint64_t dt_esquema_tabla_filas(const dt_esquema *e, size_t tabla) { return e && tabla < e->nt ? e->t[tabla].filas : 0; }

size_t dt_esquema_orden(const dt_esquema *e, size_t k) { return e && k < e->nt ? e->orden[k] : (size_t)-1; }

size_t dt_esquema_columnas(const dt_esquema *e, size_t tabla) { return e && tabla < e->nt ? e->t[tabla].ncol : 0; }

/* The primary key: the first serie or unique column that cannot be null, or -1. */
static int64_t dt__clave_primaria(const dt__etabla *t) {
    for (size_t j = 0; j < t->ncol; j++)
        if (t->col[j].unico && !t->col[j].nulable) return (int64_t)j;
    return -1;
}

dt_status dt_esquema_columna(const dt_esquema *e, size_t tabla, size_t j, dt_esquema_columna_info *out) {
    if (e == NULL || out == NULL) return DT_ERR_NULL;
    if (tabla >= e->nt || j >= e->t[tabla].ncol) return DT_ERR_INVALID_ARG;
    const dt__etabla *t = &e->t[tabla];
    const dt__col *c = &t->col[j];
    const dt__grupo *g = &t->gr[c->grupo];
    out->nombre = c->nombre;
    out->tipo_sql = c->tipo;
    out->nulable = c->nulable;
    out->unico = c->unico;
    out->clave_primaria = dt__clave_primaria(t) == (int64_t)j;
    out->ref_tabla = g->tipo == DT__G_REF ? e->t[g->rtabla].nombre : NULL;
    out->ref_columna = g->tipo == DT__G_REF ? e->t[g->rtabla].col[g->rcol].nombre : NULL;
    return DT_OK;
}

/* ---- rows ---- */

/* What one dt_esquema_filas call keeps from row to row, never shared: each group's 2^64 mod n, and
 * where the last row's fan-out parent was (rows come in order, and so do their parents). */
typedef struct dt__recorrido {
    uint64_t *resto;
    int hay_padre;
    uint64_t fila, padre;
} dt__recorrido;

/* A cell of another row made for an argument or a reparto, kept: a parent's children are consecutive
 * rows, so the next row usually needs the same cell again. A cell is a pure function of (table,
 * column, row), so keeping it changes nothing but the time. */
#define DT__GUARDADAS 16
typedef struct dt__guardada {
    const dt__etabla *t; /* NULL: empty */
    size_t col;
    uint64_t fila;
    size_t n;
    char texto[DT_MAX_TEXT];
} dt__guardada;

/* What making rows needs besides the schema: scratch for a call's values, this row's columns as they
 * are written (for arguments from the same row), what is kept from row to row, and the sentence of a
 * row that cannot be made. */
typedef struct dt__hacer {
    dt__valores *v;
    dt__recorrido rc;        /* of the table being written */
    dt__guardada *guardadas; /* DT__GUARDADAS of them, direct-mapped by (table, column) */
    const char **ini;       /* per column of the table being written: its text in the row, */
    size_t *largo;          /* its length, */
    uint8_t *nulo;          /* and 1 for a null */
    char why[DT_SENTENCE_MAX];
} dt__hacer;

/* Row r's UUID in a serie = "uuid" group: version 4's layout (the version nibble 4, the variant 8 to b),
 * its first 74 free bits drawn from the group's key and the row, so keys look like the random ones
 * applications make, and its last 48 bits the row number + 1, so no two rows share one (a table has
 * fewer than 2^48 rows). Integer mixing only: the same UUID on every machine. */
static char *dt__put_uuid(char *p, uint64_t clave, uint64_t r) {
    static const char hex[] = "0123456789abcdef";
    uint64_t a = dt__mezcla(clave ^ dt__mezcla(r + 1)), b = dt__mezcla(a ^ 0x75756964ULL), n = r + 1;
    /* 8-4-4-4-12: a's 32 + 16 bits, 4 then a's 12, the variant's 2 bits from b then b's 12, then n */
    uint64_t grupos[5] = {a >> 32, (a >> 16) & 0xffff, 0x4000 | (a & 0xfff), 0x8000 | ((b >> 12) & 0x3000) | (b & 0xfff),
                          n & 0xffffffffffffULL};
    static const int largo[5] = {8, 4, 4, 4, 12};
    for (int k = 0; k < 5; k++) {
        if (k) *p++ = '-';
        for (int i = largo[k] - 1; i >= 0; i--) *p++ = hex[(grupos[k] >> (4 * i)) & 0xf];
    }
    *p = '\0';
    return p;
}

static char *dt__put_serie(char *p, const dt__grupo *g, uint64_t r) {
    return g->uuid ? dt__put_uuid(p, g->clave, r) : dt__put_u64(p, r + 1);
}

/* The value of column j of table t at row r, at p (room for DT_MAX_TEXT bytes); v is scratch. */
static char *dt__valor_unico(const dt__etabla *t, size_t j, uint64_t r, char *p, dt__valores *v) {
    const dt__col *c = &t->col[j];
    const dt__grupo *g = &t->gr[c->grupo];
    if (g->tipo == DT__G_SERIE) return dt__put_serie(p, g, r);
    dt__tabla_valores(g->ds, r, v); /* ref targets are serie or call columns without de */
    if (v->nulo[c->campo]) return dt__putc(p, DT_NULO);
    return dt__put(p, v->ini[c->campo], v->largo[c->campo]);
}


/* dt__padre for row r of t itself, starting from the last row's parent when r comes after it: every
 * parent before that one ends at or before the last row, so the first one past r is at or after it. */
static uint64_t dt__padre_en(const dt__etabla *t, uint64_t r, dt__recorrido *rc) {
    if (rc->hay_padre && r >= rc->fila) {
        for (uint64_t p = rc->padre, k = 0; k < 16 && p < t->npadres; p++, k++)
            if (t->fin[p] > r) {
                rc->fila = r;
                rc->padre = p;
                return p;
            }
    }
    rc->hay_padre = 1;
    rc->fila = r;
    rc->padre = dt__padre(t, r);
    return rc->padre;
}

/* The row of table `destino` a row r of table t refers to: its ancestor's row when `destino` is up
 * t's fan-out chain (a cuenta's cliente is the cliente it fans out from), else a row from a keyed
 * hash of (group, r): uniform, or Zipf-skewed with sesgo (reparto.h). */
/* rc: the call's walk when t is the table being written and r its current row, else NULL; resto
 * the group's 2^64 mod (parent rows) then. */
static uint64_t dt__fila_ref(const dt_esquema *e, const dt__etabla *t, const dt__grupo *g, uint64_t r, dt__recorrido *rc,
                             uint64_t resto) {
    const dt__etabla *a = t;
    uint64_t fa = r;
    while (a->por >= 0) {
        fa = a == t && rc ? dt__padre_en(a, fa, rc) : dt__padre(a, fa);
        a = &e->t[a->por];
        if (a == &e->t[g->rtabla]) return fa;
    }
    if (g->sesgo) return dt__sesgo_fila(g->sesgo, g->clave, r);
    uint64_t n = e->t[g->rtabla].filas;
    return dt__acotado_con(g->clave, r, n, rc ? resto : dt__resto(n));
}

/* The row of ancestor table `destino` that row r of t fans out from. */
static uint64_t dt__fila_ancestro(const dt_esquema *e, const dt__etabla *t, size_t destino, uint64_t r) {
    while (t != &e->t[destino]) {
        r = dt__padre(t, r);
        t = &e->t[t->por];
    }
    return r;
}

/* A source column's text as an argument (docs/esquemas.md): an integer as written, a date
 * YYYY-MM-DD as its days from the reference date, a RUT (with or without dots) as its body when
 * its check digit is right. 0, or 1 when the text is none of these. */
static int dt__como_argumento(const char *s, size_t n, const dt_tabla *ds, int64_t *out) {
    if (n == 10 && s[4] == '-' && s[7] == '-') {
        int32_t f[3] = {0, 0, 0};
        for (size_t i = 0, k = 0; i < 10; i++) {
            if (i == 4 || i == 7) {
                k++;
                continue;
            }
            if (s[i] < '0' || s[i] > '9') return 1;
            f[k] = f[k] * 10 + (s[i] - '0');
        }
        if (!dt__fecha_valida(f[0], f[1], f[2])) return 1;
        *out = dt__dias_desde_civil(f[0], f[1], f[2]) - dt__dias_desde_civil(ds->hoy_anio, ds->hoy_mes, ds->hoy_dia);
        return 0;
    }
    size_t i = 0, digitos = 0;
    int negativo = n > 0 && s[0] == '-';
    int64_t x = 0;
    if (negativo) i++;
    int puntos = 0;
    for (; i < n && digitos < 18; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            x = x * 10 + (s[i] - '0');
            digitos++;
        } else if (s[i] == '.' && !negativo && digitos > 0) {
            puntos = 1;
        } else {
            break;
        }
    }
    if (digitos == 0) return 1;
    if (i == n && !puntos) {
        *out = negativo ? -x : x;
        return 0;
    }
    /* a RUT: a body of at most 8 digits, '-', its check digit */
    if (negativo || i + 2 != n || s[i] != '-' || x < 1 || x > 99999999) return 1;
    char dv = s[i + 1] == 'k' ? 'K' : s[i + 1];
    if (dv != dt__dv((uint32_t)x)) return 1;
    *out = x;
    return 0;
}

static char *dt__celda(const dt_esquema *e, const dt__etabla *t, size_t j, uint64_t r, char *p, dt__hacer *h, int mismo);

/* Column j of table t at row r for a source, kept in h (a pointer into h, valid until the next call
 * that may make another cell); NULL with the sentence in h->why. */
static const char *dt__celda_guardada(const dt_esquema *e, const dt__etabla *t, size_t j, uint64_t r, dt__hacer *h, size_t *n) {
    dt__guardada *c = &h->guardadas[((size_t)(t - e->t) * 31u + j) % DT__GUARDADAS];
    if (c->t == t && c->col == j && c->fila == r) {
        *n = c->n;
        return c->texto;
    }
    char tmp[DT_MAX_TEXT];
    char *fin = dt__celda(e, t, j, r, tmp, h, 0); /* may fill other slots, or this one: copied after */
    if (fin == NULL) return NULL;
    c->t = t;
    c->col = j;
    c->fila = r;
    c->n = (size_t)(fin - tmp);
    memcpy(c->texto, tmp, c->n);
    *n = c->n;
    return c->texto;
}
static char *dt__repartir(const dt_esquema *e, const dt__etabla *t, const dt__grupo *g, uint64_t r, char *p, dt__hacer *h, int mismo);

/* A row's refusal into h->why: "tablas.<t>.columnas.<c>: row <r>: <text>", cut under
 * DT_SENTENCE_MAX between characters as dt__mal does. */
static void dt__rechazo_fila(dt__hacer *h, const dt__etabla *t, const dt__grupo *g, uint64_t r, const char *fmt, ...)
    DT__DOC_PRINTF(5, 6);
static void dt__rechazo_fila(dt__hacer *h, const dt__etabla *t, const dt__grupo *g, uint64_t r, const char *fmt, ...) {
    char texto[1024], todo[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(texto, sizeof texto, fmt, ap);
    va_end(ap);
    snprintf(todo, sizeof todo, "tablas.%s.columnas.%s: row %llu: %s", t->nombre, g->nombre, (unsigned long long)r, texto);
    size_t l = strlen(todo);
    if (l >= sizeof h->why) {
        l = sizeof h->why - 4;
        while (l > 0 && ((unsigned char)todo[l] & 0xC0) == 0x80) l--;
        memcpy(todo + l, "...", 4);
    }
    memcpy(h->why, todo, strlen(todo) + 1);
}

/* The complete, checked arguments of call group g at row r of t: the document's, with each { de }
 * parameter taken from its source column (a null source leaves the parameter's default). `mismo` is 1
 * when h holds row r of t's earlier columns. NULL return: the sentence is in h->why. */
static int dt__args_fila(const dt_esquema *e, const dt__etabla *t, const dt__grupo *g, uint64_t r, int64_t *out, dt__hacer *h,
                         int mismo) {
    int64_t args[DT_MAX_PARAMS];
    memcpy(args, g->crudos, sizeof args);
    const dt__llamada *ll = g->ds->ll;
    for (size_t d = 0; d < g->nde; d++) {
        const dt__de *de = &g->de[d];
        const dt__etabla *st = de->tabla < 0 ? t : &e->t[de->tabla];
        const char *s;
        size_t n;
        int nulo;
        char tmp[DT_MAX_TEXT];
        if (de->tabla < 0 && mismo) {
            s = h->ini[de->col];
            n = h->largo[de->col];
            nulo = h->nulo[de->col];
        } else {
            uint64_t sr = de->tabla < 0 ? r : dt__fila_ancestro(e, t, (size_t)de->tabla, r);
            const char *c = dt__celda_guardada(e, st, de->col, sr, h, &n);
            if (c == NULL) return 1;
            memcpy(tmp, c, n); /* the next source may take the slot */
            s = tmp;
            nulo = n == 1 && tmp[0] == DT_NULO;
        }
        if (nulo) continue; /* DT_ARG_DEFAULT: the parameter's default */
        int malo = dt__como_argumento(s, n, g->ds, &args[de->param]);
        if (!malo) args[de->param] += de->mas;
        if (malo) {
            dt__rechazo_fila(h, t, g, r, "%s takes %s.%s, whose value is not an integer, a date (YYYY-MM-DD) or a RUT",
                             ll->info.params[de->param].name, st->nombre, st->col[de->col].nombre);
            return 1;
        }
    }
    char frase[DT_SENTENCE_MAX];
    if (dt__llamada_args(ll, args, ll->info.nparams, out, frase, sizeof frase) != DT_OK) {
        dt__rechazo_fila(h, t, g, r, "%s", frase);
        return 1;
    }
    return 0;
}

/* floor(v * s / w) for 0 <= s <= w <= 10^9 and v < 2^62, without overflow: v = q w + m. */
static uint64_t dt__proporcion(uint64_t v, uint64_t s, uint64_t w) { return (v / w) * s + (v % w) * s / w; }

/* A reparto column at row r of t: its parent row's value V split among the parent's k children by
 * weights w_i = 1 + acotado(clave, first child's row + i, 100); child i gets
 * floor(V * S(i+1) / W) - floor(V * S(i) / W), S(i) the sum of the first i weights and W = S(k), so
 * the parts add up to V exactly. A null V gives a null part. */
static char *dt__repartir(const dt_esquema *e, const dt__etabla *t, const dt__grupo *g, uint64_t r, char *p, dt__hacer *h, int mismo) {
    uint64_t pr = mismo ? dt__padre_en(t, r, &h->rc) : dt__padre(t, r), primero = pr ? t->fin[pr - 1] : 0, k = t->fin[pr] - primero, i = r - primero;
    uint64_t v = 0;
    for (size_t q = 0; q < g->nsumandos; q++) {
        size_t n;
        const char *tmp = dt__celda_guardada(e, &e->t[g->rtabla], g->sumandos[q], pr, h, &n);
        if (tmp == NULL) return NULL;
        if (n == 1 && tmp[0] == DT_NULO) return dt__putc(p, DT_NULO);
        uint64_t x = 0;
        size_t d = 0;
        while (d < n && d < 19 && tmp[d] >= '0' && tmp[d] <= '9') x = x * 10 + (uint64_t)(tmp[d++] - '0');
        v += x;
        if (d == 0 || d != n || x >= (1ULL << 60) || v >= (1ULL << 62)) {
            dt__rechazo_fila(h, t, g, r, "reparto takes %s.%s, whose value is not an integer from 0 to 2^60 (or the sum passes 2^62)",
                             e->t[g->rtabla].nombre, e->t[g->rtabla].col[g->sumandos[q]].nombre);
            return NULL;
        }
    }
    uint64_t w = 0, s = 0;
    for (uint64_t j = 0; j < k; j++) {
        uint64_t x = 1 + dt__esquema_acotado(g->clave, primero + j, 100);
        if (j < i) s += x;
        w += x;
    }
    uint64_t x = 1 + dt__esquema_acotado(g->clave, r, 100);
    return dt__put_u64(p, dt__proporcion(v, s + x, w) - dt__proporcion(v, s, w));
}

/* Column j of table t at row r, alone (a source of an argument in another row or table), at p (room
 * for DT_MAX_TEXT bytes); a null as DT_NULO. NULL with the sentence in h->why when it cannot be made. */
static char *dt__celda(const dt_esquema *e, const dt__etabla *t, size_t j, uint64_t r, char *p, dt__hacer *h, int mismo) {
    const dt__col *c = &t->col[j];
    const dt__grupo *g = &t->gr[c->grupo];
    switch (g->tipo) {
    case DT__G_SERIE: return dt__put_serie(p, g, r);
    case DT__G_ELEGIR: {
        uint64_t x = dt__acotado_con(g->clave, r, g->total, mismo ? h->rc.resto[c->grupo] : dt__resto(g->total));
        size_t lo = 0, hi = g->nopc - 1; /* the first option whose cumulative weight exceeds x */
        while (lo < hi) {
            size_t m = lo + (hi - lo) / 2;
            if (g->acum[m] > x) hi = m;
            else lo = m + 1;
        }
        return dt__put(p, g->opc[lo], strlen(g->opc[lo]));
    }
    case DT__G_REF:
        return dt__valor_unico(&e->t[g->rtabla], g->rcol, dt__fila_ref(e, t, g, r, mismo ? &h->rc : NULL, mismo ? h->rc.resto[c->grupo] : 0),
                               p, h->v);
    case DT__G_POSICION: {
        uint64_t pr = mismo ? dt__padre_en(t, r, &h->rc) : dt__padre(t, r);
        return dt__put_u64(p, r - (pr ? t->fin[pr - 1] : 0) + 1);
    }
    case DT__G_REPARTO: return dt__repartir(e, t, g, r, p, h, mismo);
    default:
        break;
    }
    dt__valores *v = h->v;
    dt__valores *propio = NULL;
    if (g->nde) {
        int64_t args[DT_MAX_PARAMS];
        if (dt__args_fila(e, t, g, r, args, h, mismo)) return NULL;
        /* the sources above reused h->v; this group's values get their own (a source's source may
         * come back through here while they are read) */
        if ((propio = (dt__valores *)malloc(sizeof *propio)) == NULL) {
            snprintf(h->why, sizeof h->why, "out of memory");
            return NULL;
        }
        v = propio;
        dt__tabla_valores_con(g->ds, r, args, v);
    } else {
        dt__tabla_valores(g->ds, r, v);
    }
    size_t k = c->campo;
    p = v->nulo[k] ? dt__putc(p, DT_NULO) : dt__put(p, v->ini[k], v->largo[k]);
    free(propio);
    return p;
}

/* Row r of t at p, its columns joined by DT_FIELD_SEP; NULL with the sentence in h->why. */
static char *dt__fila(const dt_esquema *e, const dt__etabla *t, uint64_t r, char *p, dt__hacer *h) {
    for (size_t gi = 0; gi < t->ngr; gi++) {
        const dt__grupo *g = &t->gr[gi];
        if (gi) *p++ = DT_FIELD_SEP;
        if (g->tipo != DT__G_LLAMADA) {
            char *fin = dt__celda(e, t, g->col0, r, p, h, 1);
            if (fin == NULL) return NULL;
            h->ini[g->col0] = p;
            h->largo[g->col0] = (size_t)(fin - p);
            h->nulo[g->col0] = fin == p + 1 && *p == DT_NULO; /* a reparto of a null */
            p = fin;
            continue;
        }
        dt__valores *v = h->v;
        if (g->nde) {
            int64_t args[DT_MAX_PARAMS];
            if (dt__args_fila(e, t, g, r, args, h, 1)) return NULL;
            dt__tabla_valores_con(g->ds, r, args, v);
        } else {
            dt__tabla_valores(g->ds, r, v);
        }
        for (size_t j = 0; j < g->ncol; j++) {
            if (j) *p++ = DT_FIELD_SEP;
            size_t col = g->col0 + j;
            h->ini[col] = p;
            h->nulo[col] = v->nulo[j];
            if (v->nulo[j]) *p++ = DT_NULO;
            else p = dt__put(p, v->ini[j], v->largo[j]);
            h->largo[col] = (size_t)(p - h->ini[col]);
        }
    }
    return p;
}

/* Bytes that always hold one row of t with its newline: a call's group is under DT_MAX_TEXT, a
 * serie 20 digits, an option 200 bytes, a ref one value of its target. */
static size_t dt__cota_fila(const dt__etabla *t) { return t->ngr * (DT_MAX_TEXT + 1) + 1; }

dt_status dt_esquema_filas(const dt_esquema *e, size_t tabla, uint64_t desde, size_t n, char *buf, size_t cap, size_t *len) {
    if (e == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    if (cap > 0) buf[0] = '\0';
    if (tabla >= e->nt) return DT_ERR_INVALID_ARG;
    const dt__etabla *t = &e->t[tabla];
    if (desde > t->filas || n > t->filas - desde) return DT_ERR_INVALID_ARG;
    size_t cota = dt__cota_fila(t);
    if (n > (SIZE_MAX - 1) / cota) return DT_ERR_INVALID_ARG;
    size_t total = n * cota + 1;
    if (cap == 0) { /* the size query: no row is made, so no row's refusal can answer it */
        if (len) *len = total;
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    dt__hacer h;
    h.v = (dt__valores *)malloc(sizeof *h.v);
    h.guardadas = (dt__guardada *)calloc(DT__GUARDADAS, sizeof *h.guardadas);
    h.ini = (const char **)malloc(t->ncol * sizeof *h.ini);
    h.largo = (size_t *)malloc(t->ncol * sizeof *h.largo);
    h.nulo = (uint8_t *)malloc(t->ncol);
    h.why[0] = '\0';
    h.rc.resto = (uint64_t *)malloc((t->ngr ? t->ngr : 1) * sizeof(uint64_t));
    h.rc.hay_padre = 0;
    h.rc.fila = h.rc.padre = 0;
    char *fila = (char *)malloc(cota);
    dt_status st = DT_OK;
    if (h.v == NULL || h.guardadas == NULL || h.ini == NULL || h.largo == NULL || h.nulo == NULL || fila == NULL || h.rc.resto == NULL)
        st = DT_ERR_NO_MEMORY;
    for (size_t gi = 0; st == DT_OK && gi < t->ngr; gi++) { /* each group's 2^64 mod n, once per call */
        const dt__grupo *g = &t->gr[gi];
        uint64_t m = g->tipo == DT__G_ELEGIR ? g->total : g->tipo == DT__G_REF ? e->t[g->rtabla].filas : 0;
        h.rc.resto[gi] = m ? dt__resto(m) : 0;
    }
    size_t k = 0;
    for (size_t i = 0; st == DT_OK && i < n; i++) {
        /* Straight into buf while a whole row surely fits (the rule with a sized buffer), else through
         * the row scratch, so a small buffer is never overrun. */
        char *dst = cap - k > cota ? buf + k : fila;
        char *fin = dt__fila(e, t, desde + i, dst, &h);
        if (fin == NULL) {
            st = strcmp(h.why, "out of memory") == 0 ? DT_ERR_NO_MEMORY : DT_ERR_INVALID_ARG;
            break;
        }
        *fin++ = '\n';
        size_t m = (size_t)(fin - dst);
        if (dst == fila) {
            if (k + m + 1 > cap) {
                st = DT_ERR_BUFFER_TOO_SMALL;
                break;
            }
            memcpy(buf + k, fila, m);
        }
        k += m;
    }
    free(h.v);
    free(h.rc.resto);
    free(h.guardadas);
    free(h.ini);
    free(h.largo);
    free(h.nulo);
    free(fila);
    if (st == DT_ERR_INVALID_ARG) { /* a row its arguments cannot make: the sentence, as text out */
        dt__sentence_out(h.why, buf, cap, len);
        return st;
    }
    if (st == DT_ERR_NO_MEMORY) {
        if (cap > 0) buf[0] = '\0';
        return st;
    }
    if (st == DT_OK && k + 1 > cap) st = DT_ERR_BUFFER_TOO_SMALL; /* n == 0 with cap == 0 */
    if (st != DT_OK) {
        if (cap > 0) buf[0] = '\0';
        if (len) *len = total;
        return st;
    }
    buf[k] = '\0';
    if (len) *len = k;
    return DT_OK;
}

/* ---- DDL ---- */

/* SQLite has its affinities only: integers (bigint, integer, and a document's smallint or numeric)
 * are INTEGER, everything else TEXT (a date is ISO text there). */
static const char *dt__tipo_en(const char *tipo_pg, dt_dialecto d) {
    if (d == DT_SQL_POSTGRESQL) return tipo_pg;
    return tipo_pg[0] == 'i' || tipo_pg[0] == 'b' || tipo_pg[0] == 's' || tipo_pg[0] == 'n' ? "INTEGER" : "TEXT";
}

/* A NUL-terminated name as SQL spells it, into q (DT__SQL_CITADO_MAX bytes). */
static const char *dt__sql_q(const char *nombre, char *q) {
    dt__sql_nombre(nombre, strlen(nombre), q);
    return q;
}

/* Whether table a comes before table b in the dependency order (a deferred ref's parent may not). */
static int dt__antes(const dt_esquema *e, size_t a, size_t b) {
    for (size_t k = 0; k < e->nt; k++) {
        if (e->orden[k] == a) return 1;
        if (e->orden[k] == b) return 0;
    }
    return 0;
}

dt_status dt_esquema_ddl(const dt_esquema *e, dt_dialecto dialecto, char *buf, size_t cap, size_t *len) {
    if (e == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    if (dialecto != DT_SQL_POSTGRESQL && dialecto != DT_SQL_SQLITE) {
        char why[DT_SENTENCE_MAX];
        snprintf(why, sizeof why, "dialecto must be %d (postgresql) or %d (sqlite), got %d", DT_SQL_POSTGRESQL, DT_SQL_SQLITE,
                 (int)dialecto);
        dt__sentence_out(why, buf, cap, len);
        return DT_ERR_INVALID_ARG;
    }
    dt__creciente x = {NULL, 0, 0, 0};
    char q[DT__SQL_CITADO_MAX], q2[DT__SQL_CITADO_MAX], q3[DT__SQL_CITADO_MAX]; /* names as SQL spells them */
    for (size_t k = 0; k < e->nt; k++) {
        const dt__etabla *t = &e->t[e->orden[k]];
        int64_t pk = dt__clave_primaria(t);
        dt__tx(&x, "%sCREATE TABLE %s (\n", k ? "\n" : "", dt__sql_q(t->nombre, q));
        for (size_t j = 0; j < t->ncol; j++) {
            const dt__col *c = &t->col[j];
            dt__tx(&x, "%s    %s %s%s%s", j ? ",\n" : "", dt__sql_q(c->nombre, q), dt__tipo_en(c->tipo, dialecto), c->nulable ? "" : " NOT NULL",
                   (int64_t)j == pk ? " PRIMARY KEY" : c->unico ? " UNIQUE" : "");
        }
        /* Table constraints after the columns, as both dialects require; parents come first in
         * the dependency order, so every REFERENCES names a table already created, except a deferred
         * ref's: checked at COMMIT (its rows may point at rows loaded later), and in PostgreSQL added
         * once every table exists when its parent comes later (SQLite takes a forward reference). */
        for (size_t g = 0; g < t->ngr; g++) {
            const dt__grupo *gr = &t->gr[g];
            if (gr->tipo != DT__G_REF) continue;
            if (gr->diferida && dialecto == DT_SQL_POSTGRESQL && dt__antes(e, e->orden[k], gr->rtabla)) continue;
            const dt__etabla *p = &e->t[gr->rtabla];
            dt__tx(&x, ",\n    FOREIGN KEY (%s) REFERENCES %s (%s)%s", dt__sql_q(t->col[gr->col0].nombre, q), dt__sql_q(p->nombre, q2),
                   dt__sql_q(p->col[gr->rcol].nombre, q3), gr->diferida ? " DEFERRABLE INITIALLY DEFERRED" : "");
        }
        dt__tx(&x, "\n");
        dt__tx(&x, ");\n");
    }
    for (size_t k = 0; dialecto == DT_SQL_POSTGRESQL && k < e->nt; k++) {
        const dt__etabla *t = &e->t[e->orden[k]];
        for (size_t g = 0; g < t->ngr; g++) {
            const dt__grupo *gr = &t->gr[g];
            if (gr->tipo != DT__G_REF || !gr->diferida || !dt__antes(e, e->orden[k], gr->rtabla)) continue;
            const dt__etabla *p = &e->t[gr->rtabla];
            char q4[DT__SQL_CITADO_MAX];
            dt__tx(&x, "\nALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (%s) DEFERRABLE INITIALLY DEFERRED;\n", dt__sql_q(t->nombre, q),
                   dt__sql_q(t->col[gr->col0].nombre, q2), dt__sql_q(p->nombre, q3), dt__sql_q(p->col[gr->rcol].nombre, q4));
        }
    }
    if (x.sin_memoria) {
        free(x.p);
        return DT_ERR_NO_MEMORY;
    }
    dt_status st = dt__copy_out(x.p ? x.p : "", x.n, buf, cap, len);
    free(x.p);
    return st;
}
