/* datoteca inferir mariadb://... (or mysql://...): a MariaDB/MySQL database's catalog into the model
 * (cli/conectar.h), through MariaDB Connector/C and the session of cli/conectar_mariadb_sesion.c (no
 * password ever printed; ANSI_QUOTES, so a name is written "name" here as for PostgreSQL and SQLite).
 *
 * One database is read: the URL's (DATABASE()), or --esquema NAME's. The catalog is read set-wise from
 * information_schema, one query for all the tables' columns, one for their unique indexes, one for
 * their foreign keys, one for their CHECKs, one for the triggers; only the row count, the fan-outs and
 * the sample are queries per table. Everything is read inside one START TRANSACTION WITH CONSISTENT
 * SNAPSHOT, READ ONLY: inferir writes nothing.
 *
 * What MariaDB spells its own way: BOOLEAN is tinyint(1) (a boolean, 0/1); JSON is longtext with a
 * CHECK (json_valid(col)) the server adds (a json column, the CHECK dropped); an ENUM's labels are in
 * COLUMN_TYPE; AUTO_INCREMENT is in EXTRA, and so are VIRTUAL/STORED GENERATED columns; a column's
 * CHECK is named after its column; CHECK_CLAUSE and COLUMN_TYPE write a text with backslash escapes
 * ('it\'s', 'a\\b'), which is rewritten here as standard SQL ('it''s', 'a\b') for cli_inferir_check.c.
 * Views, sequences, triggers and prefix unique indexes become notes.
 *
 * This file links libmariadb, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conectar.h"
#include "conectar_mariadb.h"

typedef struct lector {
    dt__mdb *s;
    dt__ic_modelo *m;
    char *base;   /* the database read */
    char *filtro; /* base as a SQL text, '...' */
    int mariadb;  /* the server is MariaDB (else MySQL) */
    size_t ultima; /* the last table found by name: rows arrive in table order */
    char *why;
    size_t whycap;
} lector;

static int sin_memoria(lector *l) {
    snprintf(l->why, l->whycap, "MariaDB at %s: out of memory", l->s->donde);
    return 2;
}

static int fallo(lector *l, const char *que) {
    char m[600];
    dt__mdb_limpio(l->s, mysql_error(l->s->con), m, sizeof m);
    snprintf(l->why, l->whycap, "MariaDB at %s: %s: %s", l->s->donde, que, m);
    return 2;
}

/* A question's whole result, or NULL (said in why). */
static MYSQL_RES *consulta(lector *l, const char *q, const char *que) {
    MYSQL_RES *r = NULL;
    if (mysql_query(l->s->con, q) != 0 || (r = mysql_store_result(l->s->con)) == NULL) {
        fallo(l, que);
        return NULL;
    }
    return r;
}

/* s between delimiters, the delimiter doubled inside: "name" or 'text' (ANSI_QUOTES and
 * NO_BACKSLASH_ESCAPES are the session's, so nothing else needs escaping). NULL when memory runs out. */
static char *citar(const char *s, char d) {
    size_t n = strlen(s), k = 0;
    char *o = (char *)malloc(2 * n + 3);
    if (o == NULL) return NULL;
    o[k++] = d;
    for (; *s; s++) {
        if (*s == d) o[k++] = d;
        o[k++] = *s;
    }
    o[k++] = d;
    o[k] = '\0';
    return o;
}

/* The table of that name, or -1. */
static long tabla(lector *l, const char *nombre) {
    dt__ic_modelo *m = l->m;
    if (l->ultima < m->ntablas && strcmp(m->tablas[l->ultima].nombre, nombre) == 0) return (long)l->ultima;
    for (size_t k = 0; k < m->ntablas; k++) {
        size_t i = (l->ultima + 1 + k) % m->ntablas; /* the next one first */
        if (strcmp(m->tablas[i].nombre, nombre) == 0) return (long)(l->ultima = i);
    }
    return -1;
}

/* A column by name; MariaDB's names of columns ignore case, so a key may spell it otherwise. */
static long columna(const dt__ic_tabla *t, const char *nombre) {
    long j = dt__ic_col_indice(t, nombre);
    for (size_t i = 0; j < 0 && i < t->ncols; i++) {
        const char *a = t->cols[i].nombre, *b = nombre;
        while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b)) a++, b++;
        if (*a == '\0' && *b == '\0') j = (long)i;
    }
    return j;
}

/* A '...' text of COLUMN_TYPE or CHECK_CLAUSE at *p (p at the opening quote) into out, its escapes
 * undone: '' and \' are a quote, \\ a backslash, \n \t \r \0 \Z their characters, \x any other x.
 * *p past the closing quote; 0 when it does not close. out holds strlen(*p) + 1 bytes. */
static int texto(const char **p, char *out) {
    const char *s = *p + 1;
    size_t k = 0;
    for (;; s++) {
        if (*s == '\0') return 0;
        if (*s == '\'' && s[1] == '\'') out[k++] = '\'', s++;
        else if (*s == '\'') break;
        else if (*s == '\\' && s[1]) {
            s++;
            out[k++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s == 'r' ? '\r' : *s == '0' ? '\0' : *s == 'Z' ? '\032' : *s;
        } else
            out[k++] = *s;
    }
    out[k] = '\0';
    *p = s + 1;
    return 1;
}

/* An ENUM's labels from its COLUMN_TYPE, enum('a','b''c'). Non-zero only when memory runs out. */
static int etiquetas(dt__ic_col *c, const char *tipo) {
    const char *p = strchr(tipo, '(');
    char *buf = (char *)malloc(strlen(tipo) + 1);
    if (buf == NULL) return 1;
    while (p && *p && *p != ')') {
        p++;
        if (*p != '\'' || !texto(&p, buf)) break;
        if (dt__ic_valor_add(c, buf)) {
            free(buf);
            return 1;
        }
    }
    free(buf);
    return 0;
}

/* A CHECK_CLAUSE as standard SQL, for cli_inferir_check.c: each text's escapes undone and written with
 * doubled quotes, a MySQL charset introducer (_utf8mb4'x') dropped; identifiers ("c", `c`) as they
 * are. NULL when memory runs out. */
static char *check_normal(const char *s) {
    size_t n = strlen(s);
    char *o = (char *)malloc(2 * n + 1), *buf = (char *)malloc(n + 1);
    size_t k = 0;
    if (o == NULL || buf == NULL) {
        free(o), free(buf);
        return NULL;
    }
    for (const char *p = s; *p;) {
        if (*p == '"' || *p == '`') { /* an identifier: copied whole, its doubled delimiters too */
            char d = *p;
            o[k++] = *p++;
            while (*p && !(*p == d && p[1] != d)) {
                if (*p == d) o[k++] = *p++;
                o[k++] = *p++;
            }
            if (*p) o[k++] = *p++;
        } else if (*p == '_' && (p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
            const char *q = p + 1;
            while (isalnum((unsigned char)*q)) q++;
            if (*q == '\'' && q > p + 1) p = q; /* _utf8mb4'x': the text alone */
            else
                while (p < q) o[k++] = *p++;
        } else if (*p == '\'') {
            const char *q = p;
            if (!texto(&q, buf)) { /* unclosed: left as it is, the CHECK will be listed as unread */
                while (*p) o[k++] = *p++;
                break;
            }
            o[k++] = '\'';
            for (const char *b = buf; *b; b++) {
                if (*b == '\'') o[k++] = '\'';
                o[k++] = *b;
            }
            o[k++] = '\'';
            p = q;
        } else
            o[k++] = *p++;
    }
    o[k] = '\0';
    free(buf);
    return o;
}

/* Whether a CHECK is json_valid(col) alone, on column j: MariaDB's JSON type. */
static int es_json(const dt__ic_tabla *t, const char *clausula, long *j) {
    const char *p = clausula;
    while (isspace((unsigned char)*p) || *p == '(') p++;
    if (strncmp(p, "json_valid(", 11) != 0) return 0;
    p += 11;
    char d = *p == '"' || *p == '`' ? *p : 0, nombre[256];
    size_t k = 0;
    if (d) p++;
    while (*p && (d ? *p != d : (isalnum((unsigned char)*p) || *p == '_')) && k + 1 < sizeof nombre) nombre[k++] = *p++;
    nombre[k] = '\0';
    if (d && *p == d) p++;
    while (*p == ')' || isspace((unsigned char)*p)) p++;
    if (*p || k == 0) return 0;
    return (*j = columna(t, nombre)) >= 0;
}

/* A column's class and sizes from information_schema.COLUMNS (DATA_TYPE decides; COLUMN_TYPE is the
 * spelling kept, as enum('a','b') would fool a search for "int" or "char" in it). */
static void clasificar(dt__ic_col *c, const char *dato, const char *tipo, const char *largo, const char *prec, const char *esc) {
    static const struct {
        const char *nombre;
        int bits;
    } ENTEROS[] = {{"tinyint", 8}, {"smallint", 16}, {"mediumint", 24}, {"int", 32}, {"integer", 32}, {"bigint", 64}};
    c->clase = DT__IC_OTRO, c->bits = 0, c->largo = 0, c->es_char = 0, c->precision = 0, c->escala = 0;
    for (size_t i = 0; i < sizeof ENTEROS / sizeof *ENTEROS; i++)
        if (strcmp(dato, ENTEROS[i].nombre) == 0) c->clase = DT__IC_ENTERO, c->bits = ENTEROS[i].bits;
    if (c->clase == DT__IC_ENTERO && (strncmp(tipo, "tinyint(1)", 10) == 0 || strcmp(dato, "bool") == 0 || strcmp(dato, "boolean") == 0)) {
        c->clase = DT__IC_BOOL, c->bits = 0; /* BOOLEAN: tinyint(1), 0 or 1 */
    } else if (strcmp(dato, "decimal") == 0 || strcmp(dato, "numeric") == 0) {
        c->clase = DT__IC_NUMERICO;
        c->precision = prec ? atoi(prec) : 0, c->escala = esc ? atoi(esc) : 0;
    } else if (strcmp(dato, "varchar") == 0 || strcmp(dato, "char") == 0) {
        c->clase = DT__IC_TEXTO;
        c->largo = largo ? atol(largo) : 0;
        c->es_char = strcmp(dato, "char") == 0;
    } else if (strcmp(dato, "tinytext") == 0 || strcmp(dato, "text") == 0 || strcmp(dato, "mediumtext") == 0 ||
               strcmp(dato, "longtext") == 0) {
        c->clase = DT__IC_TEXTO; /* bounded in bytes, not characters: no varchar(n) of the document's */
    } else if (strcmp(dato, "date") == 0) {
        c->clase = DT__IC_FECHA;
    } else if (strcmp(dato, "datetime") == 0 || strcmp(dato, "timestamp") == 0) {
        c->clase = DT__IC_TIMESTAMP; /* no zone kept: the session's time_zone is +00:00 */
    }
}

/* The tables (and the notes of what is no table). */
static int tablas(lector *l) {
    char q[1024];
    snprintf(q, sizeof q, "SELECT TABLE_NAME, TABLE_TYPE, ENGINE, TABLE_ROWS FROM information_schema.TABLES "
                          "WHERE TABLE_SCHEMA = %s ORDER BY BINARY TABLE_NAME", l->filtro);
    MYSQL_RES *r = consulta(l, q, "reading information_schema.TABLES");
    if (r == NULL) return 2;
    MYSQL_ROW f;
    while ((f = mysql_fetch_row(r)) != NULL) {
        const char *tipo = f[1] ? f[1] : "";
        if (strcmp(tipo, "BASE TABLE") != 0 && strcmp(tipo, "SYSTEM VERSIONED") != 0) {
            int e = strcmp(tipo, "VIEW") == 0 ? dt__ic_nota(l->m, "view %s.%s: it holds no rows of its own; the database keeps it", l->base, f[0])
                    : strcmp(tipo, "SEQUENCE") == 0
                        ? dt__ic_nota(l->m, "sequence %s.%s: not read; the database keeps it", l->base, f[0])
                        : dt__ic_nota(l->m, "%s %s.%s: not read", tipo, l->base, f[0]);
            if (e) goto memoria;
            continue;
        }
        dt__ic_tabla *t = dt__ic_tabla_nueva(l->m, l->base, f[0]);
        if (t == NULL) goto memoria;
        unsigned long long est = f[3] ? strtoull(f[3], NULL, 10) : 0;
        if (est >= 1000000) t->filas = est, t->filas_estimadas = 1; /* InnoDB's estimate, as PostgreSQL's reltuples */
    }
    mysql_free_result(r);
    return 0;
memoria:
    mysql_free_result(r);
    return sin_memoria(l);
}

static int columnas(lector *l) {
    char q[1024];
    snprintf(q, sizeof q, "SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA, "
                          "CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION, NUMERIC_SCALE FROM information_schema.COLUMNS "
                          "WHERE TABLE_SCHEMA = %s ORDER BY BINARY TABLE_NAME, ORDINAL_POSITION", l->filtro);
    MYSQL_RES *r = consulta(l, q, "reading information_schema.COLUMNS");
    if (r == NULL) return 2;
    MYSQL_ROW f;
    while ((f = mysql_fetch_row(r)) != NULL) {
        long i = tabla(l, f[0]);
        if (i < 0) continue; /* a view's columns */
        dt__ic_tabla *t = &l->m->tablas[i];
        const char *dato = f[2] ? f[2] : "", *tipo = f[3] ? f[3] : dato, *extra = f[6] ? f[6] : "";
        dt__ic_col *c = dt__ic_col_nueva(t, f[1], tipo);
        if (c == NULL) goto memoria;
        clasificar(c, dato, tipo, f[7], f[8], f[9]);
        c->nulable = f[4] && strcmp(f[4], "YES") == 0;
        /* MariaDB writes a NULL default as the word NULL, MySQL as a null */
        if (f[5] && strcmp(f[5], "NULL") != 0 && (c->defecto = dt__ic_dup(f[5])) == NULL) goto memoria;
        if (strstr(extra, "auto_increment")) c->identidad = 1;
        c->generada = strstr(extra, "VIRTUAL GENERATED") || strstr(extra, "STORED GENERATED") || strstr(extra, "PERSISTENT GENERATED") ||
                      strstr(extra, "VIRTUAL") == extra || strstr(extra, "PERSISTENT") == extra;
        if ((c->falso = dt__ic_dup("0")) == NULL || (c->verdadero = dt__ic_dup("1")) == NULL) goto memoria;
        if (strcmp(dato, "enum") == 0 && etiquetas(c, tipo)) goto memoria;
    }
    mysql_free_result(r);
    return 0;
memoria:
    mysql_free_result(r);
    return sin_memoria(l);
}

/* PRIMARY KEY and UNIQUE, from the unique indexes (a UNIQUE constraint is one), in key order. */
static int claves(lector *l) {
    char q[1024];
    snprintf(q, sizeof q, "SELECT TABLE_NAME, INDEX_NAME, COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS "
                          "WHERE TABLE_SCHEMA = %s AND NON_UNIQUE = 0 "
                          "ORDER BY BINARY TABLE_NAME, INDEX_NAME <> 'PRIMARY', BINARY INDEX_NAME, SEQ_IN_INDEX", l->filtro);
    MYSQL_RES *r = consulta(l, q, "reading information_schema.STATISTICS");
    if (r == NULL) return 2;
    my_ulonglong n = mysql_num_rows(r);
    MYSQL_ROW *filas = (MYSQL_ROW *)malloc((size_t)(n ? n : 1) * sizeof *filas);
    if (filas == NULL) goto memoria;
    for (my_ulonglong k = 0; k < n; k++) filas[k] = mysql_fetch_row(r);
    for (size_t a = 0, b; a < (size_t)n; a = b) {
        /* one index: rows a..b */
        for (b = a + 1; b < (size_t)n && strcmp(filas[b][0], filas[a][0]) == 0 && strcmp(filas[b][1], filas[a][1]) == 0; b++) {}
        long i = tabla(l, filas[a][0]);
        if (i < 0) continue;
        dt__ic_tabla *t = &l->m->tablas[i];
        int parcial = 0;
        for (size_t k = a; k < b; k++) parcial |= filas[k][2] == NULL || filas[k][3] != NULL || columna(t, filas[k][2]) < 0;
        if (parcial) {
            if (dt__ic_nota(l->m, "%s: unique index %s on a prefix or an expression: the document's values may break it", t->nombre,
                            filas[a][1]))
                goto memoria;
            continue;
        }
        int pk = strcmp(filas[a][1], "PRIMARY") == 0;
        dt__ic_lista *u = pk ? &t->pk : dt__ic_unico_nuevo(t);
        if (u == NULL) goto memoria;
        for (size_t k = a; k < b; k++) {
            long j = columna(t, filas[k][2]);
            if (dt__ic_lista_add(u, (size_t)j)) goto memoria;
            if (pk) t->cols[j].nulable = 0;
        }
    }
    free(filas);
    mysql_free_result(r);
    return 0;
memoria:
    free(filas);
    mysql_free_result(r);
    return sin_memoria(l);
}

static int foraneas(lector *l) {
    char q[1024];
    snprintf(q, sizeof q, "SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, "
                          "REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE "
                          "WHERE TABLE_SCHEMA = %s AND REFERENCED_TABLE_NAME IS NOT NULL "
                          "ORDER BY BINARY TABLE_NAME, BINARY CONSTRAINT_NAME, ORDINAL_POSITION", l->filtro);
    MYSQL_RES *r = consulta(l, q, "reading information_schema.KEY_COLUMN_USAGE");
    if (r == NULL) return 2;
    MYSQL_ROW f;
    char ultima[300] = "";
    long ti = -1;
    dt__ic_fk *fk = NULL;
    while ((f = mysql_fetch_row(r)) != NULL) {
        long i = tabla(l, f[0]);
        if (i < 0) continue;
        dt__ic_tabla *t = &l->m->tablas[i];
        long j = columna(t, f[2]);
        if (j < 0) continue;
        if (i != ti || strcmp(f[1], ultima) != 0) {
            if ((fk = dt__ic_fk_nueva(t, f[1], f[3] ? f[3] : l->base, f[4])) == NULL) goto memoria;
            snprintf(ultima, sizeof ultima, "%s", f[1]);
            ti = i;
        }
        if (dt__ic_fk_col(fk, (size_t)j, f[5] ? f[5] : "")) goto memoria;
    }
    mysql_free_result(r);
    /* the parent's columns as the parent spells them (a FOREIGN KEY may write them in another case) */
    for (size_t i = 0; i < l->m->ntablas; i++)
        for (size_t k = 0; k < l->m->tablas[i].nfks; k++) {
            dt__ic_fk *g = &l->m->tablas[i].fks[k];
            long p = strcmp(g->ref_esquema, l->base) == 0 ? tabla(l, g->ref_tabla) : -1;
            for (size_t c = 0; p >= 0 && c < g->cols.n; c++) {
                long pc = columna(&l->m->tablas[p], g->ref_cols[c]);
                if (pc < 0 || strcmp(l->m->tablas[p].cols[pc].nombre, g->ref_cols[c]) == 0) continue;
                char *nuevo = dt__ic_dup(l->m->tablas[p].cols[pc].nombre);
                if (nuevo == NULL) return sin_memoria(l);
                free(g->ref_cols[c]);
                g->ref_cols[c] = nuevo;
            }
        }
    return 0;
memoria:
    mysql_free_result(r);
    return sin_memoria(l);
}

static int checks(lector *l) {
    char q[1200];
    /* MariaDB names each CHECK's table; MySQL 8 through TABLE_CONSTRAINTS (its names are unique per schema) */
    if (l->mariadb)
        snprintf(q, sizeof q, "SELECT TABLE_NAME, CONSTRAINT_NAME, CHECK_CLAUSE FROM information_schema.CHECK_CONSTRAINTS "
                              "WHERE CONSTRAINT_SCHEMA = %s ORDER BY BINARY TABLE_NAME, BINARY CONSTRAINT_NAME", l->filtro);
    else
        snprintf(q, sizeof q, "SELECT tc.TABLE_NAME, cc.CONSTRAINT_NAME, cc.CHECK_CLAUSE FROM information_schema.TABLE_CONSTRAINTS tc "
                              "JOIN information_schema.CHECK_CONSTRAINTS cc ON cc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA "
                              "AND cc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME WHERE tc.TABLE_SCHEMA = %s AND tc.CONSTRAINT_TYPE = 'CHECK' "
                              "ORDER BY BINARY tc.TABLE_NAME, BINARY cc.CONSTRAINT_NAME", l->filtro);
    if (mysql_query(l->s->con, q) != 0 && !l->mariadb && mysql_errno(l->s->con) == 1109)
        return 0; /* MySQL before 8.0.16 has no CHECK_CONSTRAINTS, and enforces no CHECK */
    MYSQL_RES *r = mysql_store_result(l->s->con);
    if (r == NULL) return fallo(l, "reading information_schema.CHECK_CONSTRAINTS");
    MYSQL_ROW f;
    while ((f = mysql_fetch_row(r)) != NULL) {
        long i = tabla(l, f[0]), j;
        if (i < 0 || f[2] == NULL) continue;
        dt__ic_tabla *t = &l->m->tablas[i];
        if (es_json(t, f[2], &j)) { /* JSON: the column's type, and a constraint any JSON text meets */
            dt__ic_col *c = &t->cols[j];
            char *json = dt__ic_dup("json");
            if (json == NULL) goto memoria;
            free(c->tipo);
            c->tipo = json, c->clase = DT__IC_OTRO, c->largo = 0;
            continue;
        }
        char *texto = check_normal(f[2]);
        if (texto == NULL || dt__ic_check_add(t, texto, -1, f[1])) {
            free(texto);
            goto memoria;
        }
        free(texto);
    }
    mysql_free_result(r);
    return 0;
memoria:
    mysql_free_result(r);
    return sin_memoria(l);
}

static int disparadores(lector *l) {
    char q[1024];
    snprintf(q, sizeof q, "SELECT EVENT_OBJECT_TABLE, TRIGGER_NAME, ACTION_STATEMENT FROM information_schema.TRIGGERS "
                          "WHERE EVENT_OBJECT_SCHEMA = %s ORDER BY BINARY EVENT_OBJECT_TABLE, BINARY TRIGGER_NAME", l->filtro);
    MYSQL_RES *r = consulta(l, q, "reading information_schema.TRIGGERS");
    if (r == NULL) return 2;
    MYSQL_ROW f;
    while ((f = mysql_fetch_row(r)) != NULL) {
        if (dt__ic_nota(l->m, "trigger %s on %s: it runs during the load; the document does not know what it does", f[1], f[0]))
            goto memoria;
        char quien[300];
        snprintf(quien, sizeof quien, "trigger %s on %s", f[1], f[0]);
        if (f[2] && dt__ic_disparador(l->m, f[2], quien)) goto memoria; /* the tables its body inserts into */
    }
    mysql_free_result(r);
    return 0;
memoria:
    mysql_free_result(r);
    return sin_memoria(l);
}

/* Per table: its count (unless the estimate is large), its fan-outs and its sample. */
static int filas(lector *l, dt__ic_tabla *t, size_t muestra) {
    char *b = citar(l->base, '"'), *n = citar(t->nombre, '"'), que[700];
    size_t cap = 256 + (b ? strlen(b) : 0) + (n ? strlen(n) : 0);
    for (size_t j = 0; j < t->ncols; j++) cap += 2 * strlen(t->cols[j].nombre) + 4;
    char *q = (char *)malloc(cap);
    MYSQL_RES *r = NULL;
    MYSQL_ROW f;
    int rc = 0;
    if (b == NULL || n == NULL || q == NULL) goto memoria;
    if (!t->filas_estimadas) {
        snprintf(q, cap, "SELECT count(*) FROM %s.%s", b, n);
        snprintf(que, sizeof que, "counting %s.%s", l->base, t->nombre);
        if ((r = consulta(l, q, que)) == NULL) goto error;
        if ((f = mysql_fetch_row(r)) != NULL && f[0]) t->filas = strtoull(f[0], NULL, 10);
        mysql_free_result(r), r = NULL;
    }
    for (size_t k = 0; k < t->nfks; k++) {
        dt__ic_fk *fk = &t->fks[k];
        if (!dt__ic_abanico_pedir(t, fk)) continue;
        char *c = citar(t->cols[fk->cols.cols[0]].nombre, '"');
        if (c == NULL) goto memoria;
        snprintf(q, cap, "SELECT n, count(*) FROM (SELECT count(*) AS n FROM %s.%s GROUP BY %s) g GROUP BY n ORDER BY n", b, n, c);
        free(c);
        snprintf(que, sizeof que, "counting %s.%s per %s", l->base, t->nombre, fk->ref_tabla);
        if ((r = consulta(l, q, que)) == NULL) goto error;
        while ((f = mysql_fetch_row(r)) != NULL)
            if (dt__ic_abanico_add(fk, strtoull(f[0], NULL, 10), strtoull(f[1], NULL, 10))) goto memoria;
        mysql_free_result(r), r = NULL;
    }
    if (muestra && t->filas && t->ncols) {
        /* the columns by name: SELECT * leaves an INVISIBLE column out */
        size_t k = (size_t)snprintf(q, cap, "SELECT ");
        for (size_t j = 0; j < t->ncols; j++) {
            char *c = citar(t->cols[j].nombre, '"');
            if (c == NULL) goto memoria;
            k += (size_t)snprintf(q + k, cap - k, "%s%s", j ? ", " : "", c);
            free(c);
        }
        snprintf(q + k, cap - k, " FROM %s.%s LIMIT %zu", b, n, muestra);
        snprintf(que, sizeof que, "sampling %s.%s", l->base, t->nombre);
        if ((r = consulta(l, q, que)) == NULL) goto error;
        size_t nf = (size_t)mysql_num_rows(r);
        t->muestra = (char **)calloc(nf * t->ncols + 1, sizeof(char *));
        if (t->muestra == NULL) goto memoria;
        for (; (f = mysql_fetch_row(r)) != NULL && t->nmuestra < nf; t->nmuestra++)
            for (size_t j = 0; j < t->ncols; j++)
                if (f[j] && (t->muestra[t->nmuestra * t->ncols + j] = dt__ic_dup(f[j])) == NULL) goto memoria;
        mysql_free_result(r), r = NULL;
    }
    goto fin;
memoria:
    rc = sin_memoria(l);
    goto fin;
error:
    rc = 2;
fin:
    if (r) mysql_free_result(r);
    free(b), free(n), free(q);
    return rc;
}

/* s percent-encoded where a URL's path or query would misread it, into out. */
static void codificar(const char *s, char *out, size_t cap) {
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && k + 4 < cap; p++) {
        if (isalnum(*p) || strchr("/._-~", *p)) out[k++] = (char)*p;
        else k += (size_t)snprintf(out + k, cap - k, "%%%02X", *p);
    }
    out[k] = '\0';
}

/* The database as the document names it, a URL datoteca reads back: mariadb://host:port/db, or
 * mariadb:///db?socket=/path; no user, no password. */
static char *origen(lector *l, const char *url, const char *base_url, const char *esquema) {
    const char *host = NULL, *socket = NULL;
    unsigned int puerto = 0;
    mariadb_get_infov(l->s->con, MARIADB_CONNECTION_HOST, &host);
    mariadb_get_infov(l->s->con, MARIADB_CONNECTION_PORT, &puerto);
    mariadb_get_infov(l->s->con, MARIADB_CONNECTION_UNIX_SOCKET, &socket);
    const char *info = mysql_get_host_info(l->s->con);
    int por_socket = info && strstr(info, "socket") != NULL;
    char db[600], sk[1200], o[2200];
    codificar(base_url, db, sizeof db);
    const char *esquema_url = strncmp(url, "mysql://", 8) == 0 ? "mysql" : "mariadb";
    if (por_socket) {
        codificar(socket ? socket : "", sk, sizeof sk);
        snprintf(o, sizeof o, "%s:///%s%s%s", esquema_url, db, socket ? "?socket=" : "", socket ? sk : "");
    } else
        snprintf(o, sizeof o, "%s://%s:%u/%s", esquema_url, host ? host : "localhost", puerto ? puerto : 3306, db);
    if (esquema) {
        size_t k = strlen(o);
        snprintf(o + k, sizeof o - k, " --esquema %s", esquema);
    }
    return dt__ic_dup(o);
}

static int leer(lector *l, size_t muestra) {
    int rc;
    if ((rc = tablas(l)) || (rc = columnas(l)) || (rc = claves(l)) || (rc = foraneas(l)) || (rc = checks(l)) || (rc = disparadores(l)))
        return rc;
    for (size_t i = 0; i < l->m->ntablas; i++)
        if ((rc = filas(l, &l->m->tablas[i], muestra))) return rc;
    return 0;
}

int dt__conectar_mariadb(const char *url, const char *esquema, size_t muestra, dt__ic_modelo *m, char *why, size_t whycap) {
    dt__mdb s;
    int rc = dt__mdb_abrir(&s, url, why, whycap);
    if (rc) return rc;
    lector l;
    char *base_url = NULL; /* the URL's database */
    memset(&l, 0, sizeof l);
    l.s = &s, l.m = m, l.why = why, l.whycap = whycap;
    l.mariadb = mariadb_connection(s.con) != 0;
    m->dialecto = DT__IC_MARIADB;
    /* a consistent read of the catalog and the rows, and nothing written */
    if (mysql_query(s.con, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ") != 0 ||
        mysql_query(s.con, "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY") != 0) {
        rc = fallo(&l, "cannot start a read-only transaction");
    } else {
        MYSQL_RES *r = consulta(&l, "SELECT DATABASE()", "reading DATABASE()");
        MYSQL_ROW f = r ? mysql_fetch_row(r) : NULL;
        if (r && f && f[0]) base_url = dt__ic_dup(f[0]);
        if (r) mysql_free_result(r);
        if (r == NULL) rc = 2;
        else if (base_url == NULL || (l.base = dt__ic_dup(esquema ? esquema : base_url)) == NULL ||
                 (l.filtro = citar(l.base, '\'')) == NULL || (m->origen = origen(&l, url, base_url, esquema)) == NULL)
            rc = sin_memoria(&l);
    }
    if (rc == 0 && esquema) {
        /* a database that is not there reads as one without tables: say so instead */
        char q[700];
        snprintf(q, sizeof q, "SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = %s", l.filtro);
        MYSQL_RES *r = consulta(&l, q, "reading information_schema.SCHEMATA");
        if (r == NULL) rc = 2;
        else if (mysql_num_rows(r) == 0) {
            snprintf(why, whycap, "MariaDB at %s: --esquema %s: no such database (or no privilege on it)", s.donde, l.base);
            rc = 2;
        }
        if (r) mysql_free_result(r);
    }
    if (rc == 0) rc = leer(&l, muestra);
    mysql_query(s.con, "ROLLBACK");
    free(l.base), free(l.filtro), free(base_url);
    if (rc && !why[0]) snprintf(why, whycap, "MariaDB at %s: out of memory", s.donde);
    dt__mdb_cerrar(&s);
    return rc;
}
