/* datoteca copiar --subconjunto "clientes=10%": which rows of an SQLite source a smaller copy keeps, with
 * its foreign keys whole (docs/copia.md, "A smaller copy"). Each table i gets a TEMP table
 * datoteca_sub_<i>(rid) of the rowids kept (TEMP: the source is opened read-only and stays untouched):
 *
 *   1. the roots: a row of a named table is kept when a hash of (semilla, table, rowid) falls in its
 *      share (cli_subconjunto.c: integers only, the same seed keeps the same rows on every machine);
 *   2. with --con-hijos, downward from the roots: a row whose foreign key points at a kept row is kept,
 *      transitively (the children are not followed up from parents pulled in by step 3);
 *   3. upward until nothing changes: the row every kept row's foreign key points at is kept, so no
 *      reference dangles (self-references and cycles end when a pass adds nothing).
 *
 * This file links libsqlite3: the datoteca program only (CMakeLists.txt). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "cli_interno.h"
#include "subconjunto_sqlite.h"

/* A foreign key of table `hijo` to table `padre`: its columns' join condition "P.a = C.x AND ...". */
typedef struct dt__fk_sub {
    size_t hijo, padre;
    char *union_;
} dt__fk_sub;

static int exec(sqlite3 *db, const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK) return 0;
    fprintf(stderr, "datoteca: copiar: --subconjunto: %s\n", err ? err : sqlite3_errmsg(db));
    sqlite3_free(err);
    return 2;
}

/* The primary key's columns of table t, in key order, for a foreign key that names none: into *cols. */
static size_t clave_primaria(sqlite3 *db, const char *t, char ***cols) {
    sqlite3_stmt *st = NULL;
    size_t n = 0;
    *cols = NULL;
    if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1) WHERE pk > 0 ORDER BY pk", -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        char **m = (char **)realloc(*cols, (n + 1) * sizeof *m);
        if (m == NULL) break;
        *cols = m;
        const char *v = (const char *)sqlite3_column_text(st, 0);
        m[n] = (char *)malloc(strlen(v) + 1);
        if (m[n] == NULL) break;
        strcpy(m[n++], v);
    }
    sqlite3_finalize(st);
    return n;
}

/* Every foreign key among the tables, with its join condition: into *fks (*nfks). 0, 1 out of memory. */
static int claves_foraneas(sqlite3 *db, char *const *tablas, size_t nt, dt__fk_sub **fks, size_t *nfks) {
    *fks = NULL;
    *nfks = 0;
    for (size_t i = 0; i < nt; i++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(db, "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?1) ORDER BY id, seq", -1, &st,
                               NULL) != SQLITE_OK)
            continue;
        sqlite3_bind_text(st, 1, tablas[i], -1, SQLITE_STATIC);
        long actual = -1;
        size_t col = 0;
        char **pk = NULL;
        size_t npk = 0;
        int rc = 0;
        while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
            long id = sqlite3_column_int(st, 0);
            const char *padre = (const char *)sqlite3_column_text(st, 1), *de = (const char *)sqlite3_column_text(st, 2),
                       *a = (const char *)sqlite3_column_text(st, 3);
            size_t p = 0;
            while (p < nt && sqlite3_stricmp(tablas[p], padre) != 0) p++;
            if (p == nt) continue; /* a parent that is not a table of the source: the copy's check will say */
            if (id != actual) {
                dt__fk_sub *m = (dt__fk_sub *)realloc(*fks, (*nfks + 1) * sizeof *m);
                if (m == NULL) {
                    rc = 1;
                    break;
                }
                *fks = m;
                m[*nfks].hijo = i, m[*nfks].padre = p, m[*nfks].union_ = NULL;
                (*nfks)++;
                actual = id, col = 0;
                for (size_t k = 0; k < npk; k++) free(pk[k]);
                free(pk);
                npk = a ? 0 : clave_primaria(db, padre, &pk);
            }
            const char *ref = a ? a : (col < npk ? pk[col] : NULL);
            if (ref == NULL) continue;
            char *qa = dt__cli_sql_citado(ref), *qd = dt__cli_sql_citado(de);
            dt__fk_sub *f = &(*fks)[*nfks - 1];
            size_t viejo = f->union_ ? strlen(f->union_) : 0;
            char *u = qa && qd ? (char *)realloc(f->union_, viejo + strlen(qa) + strlen(qd) + 20) : NULL;
            if (u == NULL) rc = 1;
            else {
                sprintf(u + viejo, "%sP.%s = C.%s", viejo ? " AND " : "", qa, qd);
                f->union_ = u;
            }
            free(qa);
            free(qd);
            col++;
        }
        for (size_t k = 0; k < npk; k++) free(pk[k]);
        free(pk);
        sqlite3_finalize(st);
        if (rc) return 1;
    }
    return 0;
}

/* INSERT OR IGNORE into a kept set; the rows it added. */
static int agregar(sqlite3 *db, const char *sql, long long *cambios) {
    if (exec(db, sql)) return 2;
    *cambios += sqlite3_changes(db);
    return 0;
}

int dt__cli_sqlite_subconjunto(sqlite3 *db, char *const *tablas, size_t nt, const char *spec, uint64_t semilla, int hijos,
                               const char *const *donde, size_t ndonde, uint64_t *raices) {
    char sql[4096];
    int rc = 0;
    for (size_t i = 0; i < nt && rc == 0; i++) {
        /* pase: the pass that kept the row (0: a root), so a pass joins only the rows the one before added */
        snprintf(sql, sizeof sql, "CREATE TEMP TABLE datoteca_sub_%zu (rid INTEGER PRIMARY KEY, pase INTEGER NOT NULL DEFAULT 0); "
                                  "CREATE INDEX temp.datoteca_sub_%zu_pase ON datoteca_sub_%zu (pase)", i, i, i);
        rc = exec(db, sql);
    }
    /* the roots: "tabla=N%" separated by commas */
    unsigned char *raiz = (unsigned char *)calloc(nt ? nt : 1, 1);
    if (raiz == NULL) return 1;
    *raices = 0;
    if (rc == 0) rc = dt__cli_sub_raices(spec, tablas, nt, raiz);
    for (size_t i = 0; i < nt && rc == 0; i++) {
        if (raiz[i] == 0) continue;
        char *q = dt__cli_sql_citado(tablas[i]);
        sqlite3_stmt *st = NULL, *ins = NULL;
        snprintf(sql, sizeof sql, "INSERT INTO temp.datoteca_sub_%zu (rid) VALUES (?1)", i);
        char sel[600];
        snprintf(sel, sizeof sel, "SELECT rowid FROM %s", q ? q : "\"\"");
        free(q);
        if (sqlite3_prepare_v2(db, sel, -1, &st, NULL) != SQLITE_OK || sqlite3_prepare_v2(db, sql, -1, &ins, NULL) != SQLITE_OK) {
            fprintf(stderr, "datoteca: copiar: --subconjunto: table %s: %s (a WITHOUT ROWID table cannot be a root)\n",
                    tablas[i], sqlite3_errmsg(db));
            rc = 2;
        }
        uint64_t sal = dt__cli_sub_sal(semilla, tablas[i]);
        while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
            sqlite3_int64 rid = sqlite3_column_int64(st, 0);
            if (!dt__cli_sub_queda(sal, (uint64_t)rid, raiz[i])) continue;
            sqlite3_bind_int64(ins, 1, rid);
            if (sqlite3_step(ins) != SQLITE_DONE) {
                fprintf(stderr, "datoteca: copiar: --subconjunto: %s\n", sqlite3_errmsg(db));
                rc = 2;
            }
            sqlite3_reset(ins);
            (*raices)++;
        }
        sqlite3_finalize(st);
        sqlite3_finalize(ins);
    }
    /* the roots a condition chooses */
    for (size_t d = 0; d < ndonde && rc == 0; d++) {
        size_t i;
        const char *expr;
        if ((rc = dt__cli_sub_donde(donde[d], tablas, nt, &i, &expr)) != 0) break;
        raiz[i] = raiz[i] ? raiz[i] : 1;
        char *q = dt__cli_sql_citado(tablas[i]);
        size_t n = q ? strlen(q) + strlen(expr) + 120 : 0;
        char *ins = q ? (char *)malloc(n) : NULL;
        if (ins == NULL) rc = 1;
        else {
            snprintf(ins, n, "INSERT OR IGNORE INTO temp.datoteca_sub_%zu (rid) SELECT rowid FROM %s WHERE (%s)", i, q, expr);
            long long antes = 0;
            rc = agregar(db, ins, &antes);
            *raices += (uint64_t)antes;
        }
        free(q);
        free(ins);
    }
    dt__fk_sub *fks = NULL;
    size_t nfks = 0;
    if (rc == 0 && claves_foraneas(db, tablas, nt, &fks, &nfks)) rc = 1;
    /* downward from the roots, then upward until a pass adds nothing; pass p joins only the rows kept with
     * pase = p - 1 (semi-naive evaluation: the same rows as joining every kept row each pass) */
    long long pase = 0;
    for (int fase = hijos ? 0 : 1; fase < 2 && rc == 0; fase++) {
        for (size_t i = 0; i < nt && rc == 0; i++) { /* the phase starts from every row kept so far */
            snprintf(sql, sizeof sql, "UPDATE temp.datoteca_sub_%zu SET pase = %lld", i, pase);
            rc = exec(db, sql);
        }
        long long cambios;
        do {
            cambios = 0;
            for (size_t f = 0; f < nfks && rc == 0; f++) {
                const dt__fk_sub *k = &fks[f];
                if (k->union_ == NULL) continue;
                char *qp = dt__cli_sql_citado(tablas[k->padre]), *qh = dt__cli_sql_citado(tablas[k->hijo]);
                if (qp == NULL || qh == NULL) rc = 1;
                else if (fase == 0) {
                    snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO temp.datoteca_sub_%zu (rid, pase) SELECT C.rowid, %lld FROM %s AS C "
                                              "JOIN %s AS P ON %s WHERE P.rowid IN (SELECT rid FROM temp.datoteca_sub_%zu WHERE pase = %lld)",
                             k->hijo, pase + 1, qh, qp, k->union_, k->padre, pase);
                    rc = agregar(db, sql, &cambios);
                } else {
                    snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO temp.datoteca_sub_%zu (rid, pase) SELECT P.rowid, %lld FROM %s AS P "
                                              "JOIN %s AS C ON %s WHERE C.rowid IN (SELECT rid FROM temp.datoteca_sub_%zu WHERE pase = %lld)",
                             k->padre, pase + 1, qp, qh, k->union_, k->hijo, pase);
                    rc = agregar(db, sql, &cambios);
                }
                free(qp);
                free(qh);
            }
            pase++;
        } while (rc == 0 && cambios > 0);
    }
    for (size_t f = 0; f < nfks; f++) free(fks[f].union_);
    free(fks);
    free(raiz);
    return rc;
}
