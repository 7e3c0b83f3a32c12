/* The model a connector fills (cli/conectar.h): allocation helpers and the reading of a declared type.
 * Kept apart from cli_inferir.c (which maps a model to a document) so a connector's needs stay small. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conectar.h"

dt__ic_conector dt__cli_conectar_sqlite = NULL;
dt__ic_conector dt__cli_conectar_pg = NULL;
dt__ic_conector dt__cli_conectar_mariadb = NULL;

char *dt__ic_dupn(const char *s, size_t n) {
    char *d = (char *)malloc(n + 1);
    if (d == NULL) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *dt__ic_dup(const char *s) { return s ? dt__ic_dupn(s, strlen(s)) : NULL; }

/* Grows *p (of *n items of `size` bytes) by one zeroed item; NULL when memory runs out. */
static void *crecer(void **p, size_t *n, size_t size) {
    void *q = realloc(*p, (*n + 1) * size);
    if (q == NULL) return NULL;
    *p = q;
    void *item = (char *)q + *n * size;
    memset(item, 0, size);
    (*n)++;
    return item;
}

dt__ic_tabla *dt__ic_tabla_nueva(dt__ic_modelo *m, const char *esquema, const char *nombre) {
    dt__ic_tabla *t = (dt__ic_tabla *)crecer((void **)&m->tablas, &m->ntablas, sizeof *t);
    if (t == NULL) return NULL;
    t->esquema = dt__ic_dup(esquema ? esquema : "");
    t->nombre = dt__ic_dup(nombre);
    return t->esquema && t->nombre ? t : NULL;
}

dt__ic_col *dt__ic_col_nueva(dt__ic_tabla *t, const char *nombre, const char *tipo) {
    dt__ic_col *c = (dt__ic_col *)crecer((void **)&t->cols, &t->ncols, sizeof *c);
    if (c == NULL) return NULL;
    c->nombre = dt__ic_dup(nombre);
    c->tipo = dt__ic_dup(tipo ? tipo : "");
    c->nulable = 1;
    return c->nombre && c->tipo ? c : NULL;
}

int dt__ic_lista_add(dt__ic_lista *l, size_t col) {
    size_t *p = (size_t *)crecer((void **)&l->cols, &l->n, sizeof *p);
    if (p == NULL) return 1;
    *p = col;
    return 0;
}

dt__ic_lista *dt__ic_unico_nuevo(dt__ic_tabla *t) {
    return (dt__ic_lista *)crecer((void **)&t->unicos, &t->nunicos, sizeof(dt__ic_lista));
}

dt__ic_fk *dt__ic_fk_nueva(dt__ic_tabla *t, const char *nombre, const char *ref_esquema, const char *ref_tabla) {
    dt__ic_fk *f = (dt__ic_fk *)crecer((void **)&t->fks, &t->nfks, sizeof *f);
    if (f == NULL) return NULL;
    f->nombre = dt__ic_dup(nombre ? nombre : "");
    f->ref_esquema = dt__ic_dup(ref_esquema ? ref_esquema : "");
    f->ref_tabla = dt__ic_dup(ref_tabla);
    return f->nombre && f->ref_esquema && f->ref_tabla ? f : NULL;
}

int dt__ic_fk_col(dt__ic_fk *f, size_t col, const char *ref_col) {
    size_t n = f->cols.n;
    if (dt__ic_lista_add(&f->cols, col)) return 1;
    char **r = (char **)realloc(f->ref_cols, (n + 1) * sizeof *r);
    if (r == NULL) return 1;
    f->ref_cols = r;
    r[n] = dt__ic_dup(ref_col ? ref_col : "");
    return r[n] == NULL;
}

int dt__ic_check_add(dt__ic_tabla *t, const char *texto, long columna, const char *origen) {
    dt__ic_check *k = (dt__ic_check *)crecer((void **)&t->checks, &t->nchecks, sizeof *k);
    if (k == NULL) return 1;
    k->texto = dt__ic_dup(texto);
    k->columna = columna;
    k->origen = dt__ic_dup(origen ? origen : "");
    return k->texto == NULL || k->origen == NULL;
}

int dt__ic_valor_add(dt__ic_col *c, const char *v) {
    char **p = (char **)crecer((void **)&c->valores, &c->nvalores, sizeof *p);
    if (p == NULL) return 1;
    *p = dt__ic_dup(v);
    return *p == NULL;
}

int dt__ic_abanico_add(dt__ic_fk *f, uint64_t n, uint64_t cuenta) {
    uint64_t *a = (uint64_t *)realloc(f->ab_n, (f->nab + 1) * sizeof *a);
    if (a == NULL) return 1;
    f->ab_n = a;
    uint64_t *b = (uint64_t *)realloc(f->ab_cuenta, (f->nab + 1) * sizeof *b);
    if (b == NULL) return 1;
    f->ab_cuenta = b;
    /* kept ascending by n whatever order the server returns (observado walks them in order, and a pair
     * out of order would drop its parents' children: PostgreSQL once sorted n as text, "10" < "100" < "2") */
    size_t i = f->nab;
    while (i > 0 && a[i - 1] > n) i--;
    if (i > 0 && a[i - 1] == n) {
        b[i - 1] += cuenta;
        return 0;
    }
    memmove(a + i + 1, a + i, (f->nab - i) * sizeof *a);
    memmove(b + i + 1, b + i, (f->nab - i) * sizeof *b);
    a[i] = n, b[i] = cuenta;
    f->nab++;
    return 0;
}

int dt__ic_abanico_pedir(const dt__ic_tabla *t, const dt__ic_fk *f) {
    return f->cols.n == 1 && !t->cols[f->cols.cols[0]].nulable && t->filas > 0 && !t->filas_estimadas &&
           !(strcmp(f->ref_tabla, t->nombre) == 0 && (!f->ref_esquema[0] || strcmp(f->ref_esquema, t->esquema) == 0));
}

int dt__ic_nota(dt__ic_modelo *m, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **p = (char **)crecer((void **)&m->notas, &m->nnotas, sizeof *p);
    if (p == NULL) return 1;
    *p = dt__ic_dup(buf);
    return *p == NULL;
}

void dt__ic_limpio(const char *clave, const char *msg, char *out, size_t cap) {
    size_t k = 0, pl = clave ? strlen(clave) : 0;
    for (const char *p = msg ? msg : ""; *p && *p != '\n' && k + 4 < cap;) {
        if (pl && strncmp(p, clave, pl) == 0) {
            memcpy(out + k, "***", 3);
            k += 3, p += pl;
        } else
            out[k++] = *p++;
    }
    if (cap) out[k < cap ? k : cap - 1] = '\0';
}

long dt__ic_col_indice(const dt__ic_tabla *t, const char *nombre) {
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i].nombre, nombre) == 0) return (long)i;
    return -1;
}

/* An identifier at *p: "quoted" (a doubled quote is one), `quoted`, [quoted] or bare (letters, digits,
 * _ and $, any byte past ASCII); into out (cap bytes). 1 when one was read; *quoted says how. */
static int identificador(const char **p, char *out, size_t cap, int *citado) {
    const char *s = *p;
    size_t k = 0;
    *citado = *s == '"' || *s == '`' || *s == '[';
    if (*citado) {
        char cierre = *s == '[' ? ']' : *s;
        for (s++; *s; s++) {
            if (*s == cierre && s[1] == cierre && cierre != ']') s++;
            else if (*s == cierre) break;
            if (k + 1 < cap) out[k++] = *s;
        }
        if (*s != cierre) return 0;
        s++;
    } else {
        while (*s && (isalnum((unsigned char)*s) || *s == '_' || *s == '$' || (unsigned char)*s >= 0x80)) {
            if (k + 1 < cap) out[k++] = *s;
            s++;
        }
        if (k == 0) return 0;
    }
    out[k] = '\0';
    *p = s;
    return 1;
}

static int igual_sin_caso(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

int dt__ic_disparador(dt__ic_modelo *m, const char *cuerpo, const char *quien) {
    for (const char *p = cuerpo; p && *p; p++) {
        if (!((p == cuerpo || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) && tolower((unsigned char)p[0]) == 'i')) continue;
        static const char *const palabras[2] = {"insert", "into"};
        const char *q = p;
        int ok = 1;
        for (int w = 0; w < 2 && ok; w++) {
            size_t n = strlen(palabras[w]);
            for (size_t i = 0; i < n && ok; i++) ok = tolower((unsigned char)q[i]) == palabras[w][i];
            if (!ok) break;
            q += n;
            if (!isspace((unsigned char)*q)) ok = 0;
            while (isspace((unsigned char)*q)) q++;
        }
        if (!ok) continue;
        char nombre[200];
        int citado;
        if (!identificador(&q, nombre, sizeof nombre, &citado)) continue;
        if (*q == '.') { /* schema.table: the table's name decides */
            q++;
            if (!identificador(&q, nombre, sizeof nombre, &citado)) continue;
        }
        for (size_t i = 0; i < m->ntablas; i++) {
            dt__ic_tabla *t = &m->tablas[i];
            int es = citado ? strcmp(t->nombre, nombre) == 0 : igual_sin_caso(t->nombre, nombre);
            if (es && t->disparada == NULL && (t->disparada = dt__ic_dup(quien)) == NULL) return 1;
        }
        p = q - 1;
    }
    return 0;
}

static int contiene(const char *s, const char *sub) { return strstr(s, sub) != NULL; }

/* The first integer in parentheses after position p, or -1. */
static long entre_parentesis(const char *s, int *segundo) {
    const char *p = strchr(s, '(');
    *segundo = -1;
    if (p == NULL) return -1;
    long v = strtol(p + 1, NULL, 10);
    const char *coma = strchr(p, ',');
    if (coma) *segundo = (int)strtol(coma + 1, NULL, 10);
    return v;
}

void dt__ic_clasificar(dt__ic_col *c, const char *tipo) {
    char t[128];
    size_t n = 0;
    for (; tipo && tipo[n] && n + 1 < sizeof t; n++) t[n] = (char)tolower((unsigned char)tipo[n]);
    t[n] = '\0';
    int segundo;
    c->bits = 0, c->largo = 0, c->es_char = 0, c->precision = 0, c->escala = 0;
    if (contiene(t, "timestamptz") || (contiene(t, "timestamp") && contiene(t, "with time zone") && !contiene(t, "without")))
        c->clase = DT__IC_TIMESTAMPTZ;
    else if (contiene(t, "timestamp") || contiene(t, "datetime"))
        c->clase = DT__IC_TIMESTAMP;
    else if (contiene(t, "bool"))
        c->clase = DT__IC_BOOL;
    else if (contiene(t, "int") && !contiene(t, "interval") && !contiene(t, "point")) {
        c->clase = DT__IC_ENTERO;
        c->bits = contiene(t, "smallint") || contiene(t, "int2") ? 16
                  : contiene(t, "bigint") || contiene(t, "int8") ? 64
                  : strcmp(t, "integer") == 0 || strcmp(t, "int") == 0 || contiene(t, "int4") || contiene(t, "mediumint") ? 32
                                                                                                                          : 64;
    } else if (contiene(t, "char") || contiene(t, "text") || contiene(t, "clob")) {
        c->clase = DT__IC_TEXTO;
        long l = entre_parentesis(t, &segundo);
        c->largo = l > 0 ? l : 0;
        c->es_char = (strncmp(t, "char", 4) == 0 || strncmp(t, "character(", 10) == 0 || strcmp(t, "character") == 0 ||
                      strncmp(t, "bpchar", 6) == 0 || strncmp(t, "nchar", 5) == 0) &&
                     !contiene(t, "varying");
        if (c->es_char && c->largo == 0) c->largo = 1; /* char without a length is char(1) */
    } else if (strcmp(t, "date") == 0)
        c->clase = DT__IC_FECHA;
    else if (contiene(t, "numeric") || contiene(t, "decimal")) {
        c->clase = DT__IC_NUMERICO;
        long p = entre_parentesis(t, &segundo);
        c->precision = p > 0 ? (int)p : 0;
        c->escala = segundo > 0 ? segundo : 0;
    } else
        c->clase = DT__IC_OTRO;
}

static void col_free(dt__ic_col *c) {
    free(c->nombre);
    free(c->tipo);
    free(c->defecto);
    free(c->tipo_propio);
    free(c->falso);
    free(c->verdadero);
    for (size_t i = 0; i < c->nvalores; i++) free(c->valores[i]);
    free(c->valores);
}

void dt__ic_modelo_free(dt__ic_modelo *m) {
    for (size_t i = 0; i < m->ntablas; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        for (size_t j = 0; j < t->ncols; j++) col_free(&t->cols[j]);
        free(t->cols);
        free(t->pk.cols);
        for (size_t j = 0; j < t->nunicos; j++) free(t->unicos[j].cols);
        free(t->unicos);
        for (size_t j = 0; j < t->nfks; j++) {
            dt__ic_fk *f = &t->fks[j];
            for (size_t k = 0; k < f->cols.n; k++) free(f->ref_cols[k]);
            free(f->ref_cols);
            free(f->cols.cols);
            free(f->nombre);
            free(f->ref_esquema);
            free(f->ref_tabla);
            free(f->ab_n);
            free(f->ab_cuenta);
        }
        free(t->fks);
        for (size_t j = 0; j < t->nchecks; j++) {
            free(t->checks[j].texto);
            free(t->checks[j].origen);
        }
        free(t->checks);
        for (size_t j = 0; j < t->nmuestra * t->ncols; j++) free(t->muestra[j]);
        free(t->muestra);
        free(t->esquema);
        free(t->nombre);
        free(t->disparada);
    }
    free(m->tablas);
    for (size_t i = 0; i < m->nnotas; i++) free(m->notas[i]);
    free(m->notas);
    free(m->origen);
    memset(m, 0, sizeof *m);
}
