/* datoteca copiar --desde mariadb:// --subconjunto "clientes=10%": which rows of a MariaDB source a smaller
 * copy keeps, with its foreign keys whole (docs/copia.md, "A smaller copy"), as cli/subconjunto_pg.c does for
 * PostgreSQL. MariaDB has no row address that a query can keep (PostgreSQL's ctid), so a row is its primary
 * key: each table i gets a TEMPORARY table datoteca_sub_<i> shaped like its key (the session's own; the
 * source's tables are not written), filled by
 *
 *   1. the roots: a row kept when a hash of (semilla, table, its key as text) falls in its share, decided in
 *      C (cli_subconjunto.c), so the same seed keeps the same rows of the same data here and in PostgreSQL;
 *   2. with --con-hijos, downward: a row whose foreign key points at a kept row, transitively;
 *   3. upward until a pass adds nothing: the row each kept row's foreign key points at (by that key's own
 *      columns: composite keys, keys to a UNIQUE column, self-references and cycles alike); each pass joins
 *      only the rows the pass before added (their `pase`), which reaches the same rows.
 *
 * This file links libmariadb, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "subconjunto_mariadb.h"

typedef struct fk {
    size_t hijo, padre;
    char *union_; /* "P.a = C.x AND ..." */
} fk;

static void decir(dt__mdb *s, const char *que) {
    char m[700];
    dt__mdb_frase(s, 0, m, sizeof m);
    fprintf(stderr, "datoteca: copiar: --subconjunto: MariaDB at %s: %s: %s [error %u] (nothing was written)\n", s->donde, que, m,
            mysql_errno(s->con));
}

static int orden(dt__mdb *s, const char *sql, const char *que, long long *cambios) {
    if (mysql_query(s->con, sql) != 0) {
        decir(s, que);
        return 2;
    }
    MYSQL_RES *r = mysql_store_result(s->con);
    if (r) mysql_free_result(r);
    if (cambios) *cambios += (long long)mysql_affected_rows(s->con);
    return 0;
}

static MYSQL_RES *consulta(dt__mdb *s, const char *sql, const char *que) {
    MYSQL_RES *r = mysql_query(s->con, sql) == 0 ? mysql_store_result(s->con) : NULL;
    if (r == NULL) decir(s, que);
    return r;
}

/* nombre as a text literal of this session (quotes doubled; NO_BACKSLASH_ESCAPES) into o. */
static void literal(outbuf *o, const char *v, size_t n) {
    char *q = dt__cli_ob_reservar(o, 2 * n + 2);
    *q++ = '\'';
    for (size_t i = 0; i < n; i++) {
        if (v[i] == '\'') *q++ = '\'';
        *q++ = v[i];
    }
    *q++ = '\'';
    o->p = q;
}

/* Table i's primary key columns, quoted and comma-separated with prefix `pre` ("P." or ""), into o; 0 when it
 * has none. */
static size_t clave(dt__mdb *s, const char *tabla, const char *pre, const char *post, outbuf *o, int *rc) {
    outbuf q;
    if (dt__cli_ob_init(&q, 256, NULL)) return *rc = 1, 0;
    static const char Q[] = "SELECT column_name FROM information_schema.statistics WHERE table_schema = DATABASE() AND "
                            "index_name = 'PRIMARY' AND table_name = ";
    dt__cli_ob_put(&q, Q, sizeof Q - 1);
    literal(&q, tabla, strlen(tabla));
    dt__cli_ob_put(&q, " ORDER BY seq_in_index", 23);
    MYSQL_RES *r = consulta(s, q.data, "reading a primary key");
    dt__cli_ob_free(&q);
    if (r == NULL) return *rc = 2, 0;
    size_t n = 0;
    MYSQL_ROW f;
    while ((f = mysql_fetch_row(r)) != NULL) {
        char *c = dt__cli_sql_citado(f[0]);
        if (c == NULL) {
            *rc = 1;
            break;
        }
        if (n++) dt__cli_ob_put(o, ", ", 2);
        dt__cli_ob_put(o, pre, strlen(pre));
        dt__cli_ob_put(o, c, strlen(c));
        dt__cli_ob_put(o, post, strlen(post));
        free(c);
    }
    mysql_free_result(r);
    return n;
}

int dt__cli_mariadb_subconjunto(dt__mdb *s, char *const *nombres, size_t nt, const char *spec, uint64_t semilla, int hijos,
                                const char *const *condiciones, size_t ncondiciones, char **donde, uint64_t *raices) {
    unsigned char *pct = (unsigned char *)calloc(nt + 1, 1);
    char **cl = (char **)calloc(nt + 1, sizeof *cl), **clp = (char **)calloc(nt + 1, sizeof *clp), **clc = (char **)calloc(nt + 1, sizeof *clc);
    char **clh = (char **)calloc(nt + 1, sizeof *clh);
    fk *fks = NULL;
    size_t nfks = 0;
    int rc = pct && cl && clp && clc && clh ? 0 : 1;
    *raices = 0;
    if (rc == 0) rc = dt__cli_sub_raices(spec, nombres, nt, pct);
    /* each table's key, in four spellings ("a, b", "P.a, P.b", "C.a, C.b", "HEX(CONCAT(a)), ..."), and its TEMPORARY
     * table; a root's key is read as the hexadecimal of its bytes (of its text for a number: CONCAT) and written back by
     * UNHEX, so a BINARY key's NUL or a byte that is not UTF-8 goes through a statement unharmed */
    for (size_t i = 0; i < nt && rc == 0; i++) {
        const char *pres[4] = {"", "P.", "C.", "HEX(CONCAT("}, *posts[4] = {"", "", "", "))"};
        char **dest[4] = {&cl[i], &clp[i], &clc[i], &clh[i]};
        for (int k = 0; k < 4 && rc == 0; k++) {
            outbuf o;
            if (dt__cli_ob_init(&o, 128, NULL)) {
                rc = 1;
                break;
            }
            size_t n = clave(s, nombres[i], pres[k], posts[k], &o, &rc);
            dt__cli_ob_putc(&o, '\0');
            if (rc == 0 && n == 0) {
                fprintf(stderr, "datoteca: copiar: --subconjunto: table %s has no primary key: a subset of a MariaDB source "
                                "identifies each row by it (nothing was written)\n", nombres[i]);
                rc = 2;
            } else if (rc == 0 && (*dest[k] = (char *)malloc(strlen(o.data) + 1)) == NULL) rc = 1;
            else if (rc == 0) strcpy(*dest[k], o.data);
            dt__cli_ob_free(&o);
        }
        if (rc) break;
        char *q = dt__cli_sql_citado(nombres[i]);
        size_t n = q ? 2 * strlen(cl[i]) + strlen(q) + 200 : 0;
        char *sql = q ? (char *)malloc(n) : NULL;
        if (sql == NULL) rc = 1;
        else {
            /* pase: the pass that kept the row (0: a root), so a pass joins only the rows the one before added */
            snprintf(sql, n, "CREATE TEMPORARY TABLE datoteca_sub_%zu (pase INT NOT NULL DEFAULT 0, PRIMARY KEY (%s), KEY (pase)) AS "
                             "SELECT %s FROM %s WHERE 0", i, cl[i], cl[i], q);
            rc = orden(s, sql, "a TEMPORARY table of the rows kept (a subset needs CREATE TEMPORARY TABLES on the source)", NULL);
            snprintf(sql, n, "WHERE (%s) IN (SELECT %s FROM datoteca_sub_%zu)", cl[i], cl[i], i);
            if (rc == 0 && (donde[i] = (char *)malloc(strlen(sql) + 1)) == NULL) rc = 1;
            else if (rc == 0) strcpy(donde[i], sql);
        }
        free(q);
        free(sql);
    }
    /* the roots: each row's key read as text, the decision made here, the kept keys inserted back */
    for (size_t i = 0; i < nt && rc == 0; i++) {
        if (pct[i] == 0) continue;
        char *q = dt__cli_sql_citado(nombres[i]);
        size_t n = q ? strlen(cl[i]) + strlen(clh[i]) + strlen(q) + 100 : 0;
        char *sql = q ? (char *)malloc(n) : NULL;
        if (sql == NULL) {
            free(q);
            rc = 1;
            break;
        }
        snprintf(sql, n, "SELECT CONCAT_WS(x'1f', %s), %s FROM %s", cl[i], clh[i], q);
        free(q);
        MYSQL_RES *r = consulta(s, sql, "reading a root table");
        free(sql);
        if (r == NULL) {
            rc = 2;
            break;
        }
        unsigned int nc = mysql_num_fields(r);
        uint64_t sal = dt__cli_sub_sal(semilla, nombres[i]);
        outbuf ins;
        size_t en = 0;
        if (dt__cli_ob_init(&ins, 1 << 16, NULL)) rc = 1;
        MYSQL_ROW f;
        while (rc == 0 && (f = mysql_fetch_row(r)) != NULL) {
            unsigned long *l = mysql_fetch_lengths(r);
            if (!dt__cli_sub_queda(sal, dt__cli_sub_fnv(f[0] ? f[0] : "", f[0] ? l[0] : 0), pct[i])) continue;
            if (en == 0) {
                char cab[64];
                int k = snprintf(cab, sizeof cab, "INSERT INTO datoteca_sub_%zu (", i);
                dt__cli_ob_put(&ins, cab, (size_t)k);
                dt__cli_ob_put(&ins, cl[i], strlen(cl[i]));
                dt__cli_ob_put(&ins, ") VALUES ", 9);
            } else dt__cli_ob_putc(&ins, ',');
            dt__cli_ob_putc(&ins, '(');
            for (unsigned int c = 1; c < nc; c++) {
                if (c > 1) dt__cli_ob_putc(&ins, ',');
                dt__cli_ob_put(&ins, "UNHEX('", 7);
                dt__cli_ob_put(&ins, f[c] ? f[c] : "", f[c] ? l[c] : 0);
                dt__cli_ob_put(&ins, "')", 2);
            }
            dt__cli_ob_putc(&ins, ')');
            (*raices)++;
            if (++en == 1000) {
                dt__cli_ob_putc(&ins, '\0');
                rc = orden(s, ins.data, "keeping a root's rows", NULL);
                ins.p = ins.data, en = 0;
            }
        }
        if (rc == 0 && en) {
            dt__cli_ob_putc(&ins, '\0');
            rc = orden(s, ins.data, "keeping a root's rows", NULL);
        }
        dt__cli_ob_free(&ins);
        mysql_free_result(r);
    }
    for (size_t d = 0; d < ncondiciones && rc == 0; d++) { /* the roots a condition chooses */
        size_t i;
        const char *expr;
        if ((rc = dt__cli_sub_donde(condiciones[d], nombres, nt, &i, &expr)) != 0) break;
        pct[i] = pct[i] ? pct[i] : 100; /* a root, for --con-hijos */
        char *q = dt__cli_sql_citado(nombres[i]);
        size_t n = q ? strlen(q) + 3 * strlen(cl[i]) + strlen(expr) + 120 : 0;
        char *sql = q ? (char *)malloc(n) : NULL;
        if (sql == NULL) rc = 1;
        else {
            snprintf(sql, n, "INSERT IGNORE INTO datoteca_sub_%zu (%s) SELECT %s FROM %s WHERE (%s)", i, cl[i], cl[i], q, expr);
            long long antes = 0;
            rc = orden(s, sql, "keeping the rows --donde chooses", &antes);
            *raices += (uint64_t)antes;
        }
        free(q);
        free(sql);
    }
    /* the foreign keys among the tables, each with its join on its own columns */
    MYSQL_RES *r = rc ? NULL : consulta(s, "SELECT table_name, referenced_table_name, GROUP_CONCAT(CONCAT('P.\"', REPLACE("
                                           "referenced_column_name, '\"', '\"\"'), '\" = C.\"', REPLACE(column_name, '\"', '\"\"'), "
                                           "'\"') ORDER BY ordinal_position SEPARATOR ' AND ') FROM information_schema.key_column_usage "
                                           "WHERE table_schema = DATABASE() AND referenced_table_name IS NOT NULL AND "
                                           "referenced_table_schema = DATABASE() GROUP BY table_name, constraint_name, "
                                           "referenced_table_name ORDER BY table_name, constraint_name", "reading its foreign keys");
    if (rc == 0 && r == NULL) rc = 2;
    if (r) {
        fks = (fk *)calloc((size_t)mysql_num_rows(r) + 1, sizeof *fks);
        if (fks == NULL) rc = 1;
        MYSQL_ROW f;
        while (rc == 0 && (f = mysql_fetch_row(r)) != NULL) {
            size_t h = 0, p = 0;
            while (h < nt && strcmp(nombres[h], f[0]) != 0) h++;
            while (p < nt && strcmp(nombres[p], f[1]) != 0) p++;
            if (h == nt || p == nt || f[2] == NULL) continue;
            fks[nfks].hijo = h, fks[nfks].padre = p;
            if ((fks[nfks].union_ = (char *)malloc(strlen(f[2]) + 1)) == NULL) rc = 1;
            else strcpy(fks[nfks++].union_, f[2]);
        }
        mysql_free_result(r);
    }
    /* downward from the roots, then upward until a pass adds nothing; pass p joins only the rows kept with
     * pase = p - 1 (semi-naive evaluation: the same rows as joining every kept row each pass) */
    long long pase = 0;
    for (int fase = hijos ? 0 : 1; fase < 2 && rc == 0; fase++) {
        for (size_t i = 0; i < nt && rc == 0; i++) { /* the phase starts from every row kept so far */
            char q[96];
            snprintf(q, sizeof q, "UPDATE datoteca_sub_%zu SET pase = %lld", i, pase);
            rc = orden(s, q, "counting the rows kept", NULL);
        }
        long long cambios;
        do {
            cambios = 0;
            for (size_t f = 0; f < nfks && rc == 0; f++) {
                const fk *k = &fks[f];
                size_t a = fase == 0 ? k->hijo : k->padre, de = fase == 0 ? k->padre : k->hijo;
                char *qh = dt__cli_sql_citado(nombres[k->hijo]), *qp = dt__cli_sql_citado(nombres[k->padre]);
                size_t n = qh && qp ? strlen(qh) + strlen(qp) + strlen(k->union_) + 3 * strlen(clp[a]) + 2 * strlen(clp[de]) + 400 : 0;
                char *sql = n ? (char *)malloc(n) : NULL;
                if (sql == NULL) rc = 1;
                else {
                    snprintf(sql, n, "INSERT IGNORE INTO datoteca_sub_%zu (%s, pase) SELECT DISTINCT %s, %lld FROM %s AS C JOIN %s AS P ON "
                                     "%s WHERE (%s) IN (SELECT %s FROM datoteca_sub_%zu WHERE pase = %lld)",
                             a, cl[a], fase == 0 ? clc[a] : clp[a], pase + 1, qh, qp, k->union_, fase == 0 ? clp[de] : clc[de], cl[de],
                             de, pase);
                    rc = orden(s, sql, fase == 0 ? "keeping the children of kept rows" : "keeping the parents of kept rows", &cambios);
                }
                free(qh), free(qp), free(sql);
            }
            pase++;
        } while (rc == 0 && cambios > 0);
    }
    for (size_t f = 0; f < nfks; f++) free(fks[f].union_);
    free(fks);
    for (size_t i = 0; i < nt; i++) {
        if (cl) free(cl[i]);
        if (clp) free(clp[i]);
        if (clc) free(clc[i]);
        if (clh) free(clh[i]);
    }
    free(cl), free(clp), free(clc), free(clh), free(pct);
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    return rc;
}
