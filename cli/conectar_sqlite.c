/* datoteca inferir sqlite:PATH: SQLite's catalog into the model (cli/conectar.h). The file is opened
 * read-only; tables come from sqlite_master in creation order, columns from PRAGMA table_xinfo (hidden
 * 2 and 3 are generated columns), keys from PRAGMA foreign_key_list and index_list, CHECK constraints
 * from the CREATE TABLE text (SQLite keeps no other record of them). Views, triggers and partial or
 * expression indexes become notes.
 *
 * This file links libsqlite3, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "conectar.h"

/* ASCII case-insensitive comparison of the first n bytes (n 0: whole strings); strncasecmp is POSIX only. */
static int sin_caso(const char *a, const char *b, size_t n) {
    for (size_t i = 0; n == 0 || i < n; i++) {
        int x = tolower((unsigned char)a[i]), y = tolower((unsigned char)b[i]);
        if (x != y) return x - y;
        if (x == 0) return 0;
    }
    return 0;
}

const char *dt__conectar_sqlite_ruta(const char *url) {
    const char *p = url + 7;
    if (strncmp(p, "//", 2) == 0) p += 2;
    return p;
}

static int sin_memoria(char *why, size_t whycap) {
    snprintf(why, whycap, "out of memory");
    return 2;
}

/* Each CHECK ( ... ) of a CREATE TABLE text, skipping quoted text, as a check of the table. */
static int checks(dt__ic_tabla *t, const char *sql) {
    for (const char *p = sql; *p; p++) {
        if (p[0] == '-' && p[1] == '-') { /* a comment is no constraint */
            while (p[1] && p[1] != '\n') p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *fin = strstr(p + 2, "*/");
            if (fin == NULL) break;
            p = fin + 1;
            continue;
        }
        if (*p == '\'' || *p == '"' || *p == '`' || *p == '[') {
            char cierre = *p == '[' ? ']' : *p;
            for (p++; *p && *p != cierre; p++) {}
            if (!*p) break;
            continue;
        }
        if ((p == sql || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) && sin_caso(p, "check", 5) == 0) {
            const char *q = p + 5;
            while (isspace((unsigned char)*q)) q++;
            if (*q != '(') continue;
            int prof = 0;
            const char *ini = q;
            for (; *q; q++) {
                if (*q == '\'') {
                    for (q++; *q && *q != '\''; q++) {}
                    if (!*q) break;
                } else if (*q == '(') prof++;
                else if (*q == ')' && --prof == 0) break;
            }
            if (!*q) break;
            char *texto = dt__ic_dupn(ini, (size_t)(q - ini + 1));
            if (texto == NULL || dt__ic_check_add(t, texto, -1, texto)) {
                free(texto);
                return 1;
            }
            free(texto);
            p = q;
        }
    }
    return 0;
}

static char *cita(const char *nombre) { /* "name" with quotes doubled */
    size_t n = strlen(nombre), k = 0;
    char *d = (char *)malloc(2 * n + 3);
    if (d == NULL) return NULL;
    d[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        if (nombre[i] == '"') d[k++] = '"';
        d[k++] = nombre[i];
    }
    d[k++] = '"';
    d[k] = '\0';
    return d;
}

static int tabla(sqlite3 *db, dt__ic_modelo *m, const char *nombre, const char *sql, size_t muestra, char *why, size_t whycap) {
    dt__ic_tabla *t = dt__ic_tabla_nueva(m, "main", nombre);
    char *q = cita(nombre), consulta[512 + 2048 + 2048];
    sqlite3_stmt *st = NULL;
    if (t == NULL || q == NULL || strlen(q) > 2000) {
        free(q);
        return sin_memoria(why, whycap);
    }
    int rc = 0;
    snprintf(consulta, sizeof consulta, "PRAGMA table_xinfo(%s)", q);
    if (sqlite3_prepare_v2(db, consulta, -1, &st, NULL) != SQLITE_OK) goto error;
    size_t npk = 0;
    int pk_orden[1600];
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *cn = (const char *)sqlite3_column_text(st, 1), *tipo = (const char *)sqlite3_column_text(st, 2);
        dt__ic_col *c = dt__ic_col_nueva(t, cn ? cn : "", tipo ? tipo : "");
        if (c == NULL) goto memoria;
        dt__ic_clasificar(c, c->tipo);
        c->nulable = !sqlite3_column_int(st, 3);
        if (sqlite3_column_type(st, 4) != SQLITE_NULL) c->defecto = dt__ic_dup((const char *)sqlite3_column_text(st, 4));
        int pk = sqlite3_column_int(st, 5), oculta = sqlite3_column_int(st, 6);
        c->generada = oculta == 2 || oculta == 3;
        c->falso = dt__ic_dup("0"), c->verdadero = dt__ic_dup("1");
        if (pk > 0 && npk < 1600) pk_orden[npk++] = pk;
        if (pk > 0) {
            c->nulable = 0;
            if (dt__ic_lista_add(&t->pk, t->ncols - 1)) goto memoria;
        }
    }
    sqlite3_finalize(st), st = NULL;
    /* the key's columns in the key's order (pk is the 1-based place in the key) */
    for (size_t a = 0; a < t->pk.n; a++)
        for (size_t b = a + 1; b < t->pk.n; b++)
            if (pk_orden[b] < pk_orden[a]) {
                int o = pk_orden[a];
                pk_orden[a] = pk_orden[b], pk_orden[b] = o;
                size_t c = t->pk.cols[a];
                t->pk.cols[a] = t->pk.cols[b], t->pk.cols[b] = c;
            }
    /* INTEGER PRIMARY KEY is the rowid: the database numbers it when left out */
    if (t->pk.n == 1 && sin_caso(t->cols[t->pk.cols[0]].tipo, "integer", 0) == 0) t->cols[t->pk.cols[0]].identidad = 1;
    snprintf(consulta, sizeof consulta, "PRAGMA foreign_key_list(%s)", q);
    if (sqlite3_prepare_v2(db, consulta, -1, &st, NULL) != SQLITE_OK) goto error;
    int ultimo = -1;
    dt__ic_fk *f = NULL;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int id = sqlite3_column_int(st, 0);
        const char *padre = (const char *)sqlite3_column_text(st, 2), *de = (const char *)sqlite3_column_text(st, 3),
                   *a = (const char *)sqlite3_column_text(st, 4);
        if (id != ultimo) {
            char nom[64];
            snprintf(nom, sizeof nom, "fk%d", id);
            f = dt__ic_fk_nueva(t, nom, "main", padre ? padre : "");
            if (f == NULL) goto memoria;
            ultimo = id;
        }
        long j = dt__ic_col_indice(t, de ? de : "");
        if (j < 0) continue;
        /* REFERENCES parent with no column names the parent's primary key, resolved after all tables */
        if (dt__ic_fk_col(f, (size_t)j, a ? a : "")) goto memoria;
    }
    sqlite3_finalize(st), st = NULL;
    snprintf(consulta, sizeof consulta, "PRAGMA index_list(%s)", q);
    if (sqlite3_prepare_v2(db, consulta, -1, &st, NULL) != SQLITE_OK) goto error;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *idx = (const char *)sqlite3_column_text(st, 1), *origen = (const char *)sqlite3_column_text(st, 3);
        int unico = sqlite3_column_int(st, 2), parcial = sqlite3_column_int(st, 4);
        if (!unico || (origen && strcmp(origen, "pk") == 0)) continue;
        if (parcial) {
            if (dt__ic_nota(m, "%s: partial unique index %s: the document's values may break it", nombre, idx ? idx : "")) goto memoria;
            continue;
        }
        char *qi = cita(idx ? idx : "");
        char c2[2100];
        sqlite3_stmt *s2 = NULL;
        if (qi == NULL) goto memoria;
        snprintf(c2, sizeof c2, "PRAGMA index_info(%s)", qi);
        free(qi);
        dt__ic_lista *u = dt__ic_unico_nuevo(t);
        if (u == NULL) goto memoria;
        int expr = 0;
        if (sqlite3_prepare_v2(db, c2, -1, &s2, NULL) == SQLITE_OK)
            while (sqlite3_step(s2) == SQLITE_ROW) {
                int cid = sqlite3_column_int(s2, 1);
                if (cid < 0) expr = 1;
                else if (dt__ic_lista_add(u, (size_t)cid)) {
                    sqlite3_finalize(s2);
                    goto memoria;
                }
            }
        sqlite3_finalize(s2);
        if (expr) {
            u->n = 0;
            if (dt__ic_nota(m, "%s: unique index %s on an expression: the document's values may break it", nombre, idx ? idx : ""))
                goto memoria;
        }
    }
    sqlite3_finalize(st), st = NULL;
    if (sql && checks(t, sql)) goto memoria;
    snprintf(consulta, sizeof consulta, "SELECT count(*) FROM %s", q);
    if (sqlite3_prepare_v2(db, consulta, -1, &st, NULL) != SQLITE_OK) goto error;
    if (sqlite3_step(st) == SQLITE_ROW) t->filas = (uint64_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st), st = NULL;
    /* each NOT NULL foreign key's children per parent row: how many parents have 1, 2, ... children */
    for (size_t k = 0; k < t->nfks; k++) {
        dt__ic_fk *fk = &t->fks[k];
        if (!dt__ic_abanico_pedir(t, fk)) continue;
        char *qc = cita(t->cols[fk->cols.cols[0]].nombre);
        if (qc == NULL || strlen(qc) > 1000) {
            free(qc);
            goto memoria;
        }
        snprintf(consulta, sizeof consulta, "SELECT n, count(*) FROM (SELECT count(*) AS n FROM %s GROUP BY %s) GROUP BY n ORDER BY n", q, qc);
        free(qc);
        if (sqlite3_prepare_v2(db, consulta, -1, &st, NULL) != SQLITE_OK) goto error;
        while (sqlite3_step(st) == SQLITE_ROW)
            if (dt__ic_abanico_add(fk, (uint64_t)sqlite3_column_int64(st, 0), (uint64_t)sqlite3_column_int64(st, 1))) goto memoria;
        sqlite3_finalize(st), st = NULL;
    }
    if (muestra && t->filas && t->ncols) {
        snprintf(consulta, sizeof consulta, "SELECT * FROM %s LIMIT %zu", q, muestra);
        if (sqlite3_prepare_v2(db, consulta, -1, &st, NULL) != SQLITE_OK) goto error;
        size_t cap = t->filas < muestra ? (size_t)t->filas : muestra;
        t->muestra = (char **)calloc(cap * t->ncols, sizeof(char *));
        if (t->muestra == NULL) goto memoria;
        while (t->nmuestra < cap && sqlite3_step(st) == SQLITE_ROW) {
            int n = sqlite3_column_count(st);
            size_t k = 0;
            for (int j = 0; j < n && k < t->ncols; j++) {
                /* SELECT * leaves generated columns in; a hidden one (a virtual table's) is not there */
                char **v = &t->muestra[t->nmuestra * t->ncols + k++];
                if (sqlite3_column_type(st, j) != SQLITE_NULL) {
                    *v = dt__ic_dup((const char *)sqlite3_column_text(st, j));
                    if (*v == NULL) goto memoria;
                }
            }
            t->nmuestra++;
        }
        sqlite3_finalize(st), st = NULL;
    }
    free(q);
    return rc;
error:
    snprintf(why, whycap, "%s: %s", nombre, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    free(q);
    return 2;
memoria:
    sqlite3_finalize(st);
    free(q);
    return sin_memoria(why, whycap);
}

int dt__conectar_sqlite(const char *url, const char *esquema, size_t muestra, dt__ic_modelo *m, char *why, size_t whycap) {
    const char *ruta = dt__conectar_sqlite_ruta(url);
    sqlite3 *db = NULL;
    if (esquema && strcmp(esquema, "main") != 0) {
        snprintf(why, whycap, "--esquema %s: a SQLite file has one schema, main", esquema);
        return 2;
    }
    if (sqlite3_open_v2(ruta, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        snprintf(why, whycap, "SQLite file %s: %s", ruta, db ? sqlite3_errmsg(db) : "cannot open it");
        sqlite3_close(db);
        return 2;
    }
    m->origen = (char *)malloc(strlen(ruta) + 8);
    if (m->origen == NULL) {
        sqlite3_close(db);
        return sin_memoria(why, whycap);
    }
    sprintf(m->origen, "sqlite:%s", ruta);
    sqlite3_stmt *st = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY rowid", -1,
                           &st, NULL) != SQLITE_OK) {
        snprintf(why, whycap, "SQLite file %s: %s", ruta, sqlite3_errmsg(db));
        sqlite3_close(db);
        return 2;
    }
    /* collect first: reading a table runs other statements */
    char **tipos = NULL, **nombres = NULL, **sqls = NULL, **de = NULL;
    size_t n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        char **a = (char **)realloc(tipos, (n + 1) * sizeof *a);
        if (a) tipos = a;
        char **b = (char **)realloc(nombres, (n + 1) * sizeof *b);
        if (b) nombres = b;
        char **c = (char **)realloc(sqls, (n + 1) * sizeof *c);
        if (c) sqls = c;
        char **d = (char **)realloc(de, (n + 1) * sizeof *d);
        if (d) de = d;
        if (!a || !b || !c || !d) {
            rc = sin_memoria(why, whycap);
            break;
        }
        tipos[n] = dt__ic_dup((const char *)sqlite3_column_text(st, 0));
        nombres[n] = dt__ic_dup((const char *)sqlite3_column_text(st, 1));
        de[n] = dt__ic_dup((const char *)sqlite3_column_text(st, 2));
        sqls[n] = sqlite3_column_type(st, 3) == SQLITE_NULL ? NULL : dt__ic_dup((const char *)sqlite3_column_text(st, 3));
        n++;
    }
    if (rc == 0 && sqlite3_errcode(db) != SQLITE_OK && sqlite3_errcode(db) != SQLITE_DONE && sqlite3_errcode(db) != SQLITE_ROW) {
        snprintf(why, whycap, "SQLite file %s: %s", ruta, sqlite3_errmsg(db));
        rc = 2;
    }
    sqlite3_finalize(st);
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!tipos[i] || !nombres[i]) continue;
        if (strcmp(tipos[i], "table") == 0) {
            if (sqls[i] && sin_caso(sqls[i], "CREATE VIRTUAL", 14) == 0) rc = dt__ic_nota(m, "virtual table %s: not read", nombres[i]);
            else rc = tabla(db, m, nombres[i], sqls[i], muestra, why, whycap);
        } else if (strcmp(tipos[i], "view") == 0)
            rc = dt__ic_nota(m, "view %s: a view holds no rows of its own; the database keeps it", nombres[i]);
        else if (strcmp(tipos[i], "trigger") == 0)
            rc = dt__ic_nota(m, "trigger %s on %s: it runs during the load; the document does not know what it does", nombres[i],
                             de[i] ? de[i] : "");
        else if (strcmp(tipos[i], "index") == 0 && sqls[i] && sin_caso(sqls[i], "CREATE UNIQUE", 13) != 0) {
            /* a plain index constrains nothing */
        }
    }
    /* the tables a trigger inserts into (read once every table is in the model) */
    for (size_t i = 0; i < n && rc == 0; i++)
        if (tipos[i] && nombres[i] && sqls[i] && strcmp(tipos[i], "trigger") == 0) {
            char quien[400];
            snprintf(quien, sizeof quien, "trigger %s on %s", nombres[i], de[i] ? de[i] : "");
            const char *cuerpo = strstr(sqls[i], "BEGIN") ? strstr(sqls[i], "BEGIN") : sqls[i];
            if (dt__ic_disparador(m, cuerpo, quien)) rc = sin_memoria(why, whycap);
        }
    /* REFERENCES parent with no columns: the parent's primary key */
    for (size_t i = 0; i < m->ntablas && rc == 0; i++)
        for (size_t k = 0; k < m->tablas[i].nfks; k++) {
            dt__ic_fk *f = &m->tablas[i].fks[k];
            for (size_t q = 0; q < f->cols.n; q++)
                if (f->ref_cols[q][0] == '\0')
                    for (size_t p = 0; p < m->ntablas; p++)
                        if (strcmp(m->tablas[p].nombre, f->ref_tabla) == 0 && q < m->tablas[p].pk.n) {
                            free(f->ref_cols[q]);
                            f->ref_cols[q] = dt__ic_dup(m->tablas[p].cols[m->tablas[p].pk.cols[q]].nombre);
                        }
        }
    for (size_t i = 0; i < n; i++) {
        free(tipos[i]);
        free(nombres[i]);
        free(sqls[i]);
        free(de[i]);
    }
    free(tipos);
    free(nombres);
    free(sqls);
    free(de);
    sqlite3_close(db);
    return rc ? (rc == 1 ? sin_memoria(why, whycap) : rc) : 0;
}
