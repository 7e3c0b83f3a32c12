/* datoteca copiar --desde postgresql:// --subconjunto "clientes=10%": which rows of a PostgreSQL source a
 * smaller copy keeps, with its foreign keys whole (docs/copia.md, "A smaller copy"). Each table i gets a
 * TEMP table pg_temp.datoteca_sub_<i>(toid, rid) of the (tableoid, ctid) of its kept rows: TEMP, the
 * session's own, so production's tables are not written; within one REPEATABLE READ snapshot a row's ctid
 * does not move, and tableoid tells a partitioned table's partitions apart.
 *
 *   1. the roots: a row of a named table is kept when a hash of (semilla, table, the row's primary key as
 *      text) falls in its share (cli_subconjunto.c: integers only, decided here in C, not by a server's
 *      hash function, so the same seed keeps the same rows of the same data on any server);
 *   2. with --con-hijos, downward from the roots: a row whose foreign key points at a kept row is kept,
 *      transitively;
 *   3. upward until nothing changes: the row every kept row's foreign key points at is kept (a foreign key
 *      to a UNIQUE column that is not the key, composite keys, self-references and cycles alike: each is a
 *      join on its own columns, and a pass that adds nothing ends it).
 *
 * Each pass of 2 and 3 joins only the rows the pass before added (semi-naive evaluation: TEMP tables
 * datoteca_nue_<i> and datoteca_sig_<i>), which reaches the same sets as joining every kept row each pass.
 *
 * The target's constraints, added after the rows (cli/copiar_pg.c), prove the result.
 * This file links libpq, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "subconjunto_pg.h"

typedef struct fk {
    size_t hijo, padre;
    char *union_; /* "P.a = C.x AND ...": the parent's referenced columns and the child's */
} fk;

static void decir(dt__pg *s, const char *que, const PGresult *r) {
    const char *estado = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *primario = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char m[700];
    if (primario == NULL) dt__pg_limpio(s, PQerrorMessage(s->con), m, sizeof m);
    else if (dt__pg_sin_valores(estado)) dt__pg_limpio(s, primario, m, sizeof m);
    else snprintf(m, sizeof m, "a value PostgreSQL refuses (its sentence is not printed)");
    fprintf(stderr, "datoteca: copiar: --subconjunto: PostgreSQL at %s: %s: %s%s%s%s (nothing was written)\n", s->donde, que, m,
            estado ? " [SQLSTATE " : "", estado ? estado : "", estado ? "]" : "");
}

/* A statement; its rows changed into *cambios when not NULL. 0, or 2 said. */
static int orden(dt__pg *s, const char *sql, const char *que, long long *cambios) {
    PGresult *r = PQexec(s->con, sql);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : 2;
    if (rc) decir(s, que, r);
    else if (cambios) *cambios += atoll(PQcmdTuples(r));
    PQclear(r);
    return rc;
}

/* The kept rows of root table i: its (tableoid, ctid, key text) read by COPY, each kept row's first two
 * fields sent back by COPY into datoteca_sub_i. 0, 1 out of memory, 2 said. */
static int raiz(dt__pg *s, const char *oid, const char *citada, size_t i, const char *nombre, uint64_t semilla, unsigned pct,
                uint64_t *raices) {
    static const char PK[] = "SELECT format('%I::text', a.attname) FROM pg_index x JOIN pg_attribute a ON a.attrelid = "
                             "x.indrelid AND a.attnum = ANY (x.indkey) WHERE x.indrelid = $1::oid AND x.indisprimary "
                             "ORDER BY array_position(x.indkey::int2[], a.attnum)";
    PGresult *r = PQexecParams(s->con, PK, 1, NULL, &oid, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        decir(s, "reading a root's primary key", r);
        PQclear(r);
        return 2;
    }
    outbuf sql, kept;
    if (dt__cli_ob_init(&sql, 256, NULL) || dt__cli_ob_init(&kept, 1 << 16, NULL)) {
        PQclear(r);
        dt__cli_ob_free(&sql);
        return 1;
    }
    dt__cli_ob_put(&sql, "COPY (SELECT tableoid, ctid, ", 29);
    if (PQntuples(r) == 0) dt__cli_ob_put(&sql, "ctid::text", 10); /* no key: the row's place identifies it */
    else {
        dt__cli_ob_put(&sql, "concat_ws(E'\\x1f'", 17);
        for (int k = 0; k < PQntuples(r); k++) {
            dt__cli_ob_putc(&sql, ',');
            dt__cli_ob_put(&sql, PQgetvalue(r, k, 0), strlen(PQgetvalue(r, k, 0)));
        }
        dt__cli_ob_putc(&sql, ')');
    }
    PQclear(r);
    dt__cli_ob_put(&sql, " FROM ", 6);
    dt__cli_ob_put(&sql, citada, strlen(citada));
    dt__cli_ob_put(&sql, ") TO STDOUT", 12);
    r = PQexec(s->con, sql.data);
    dt__cli_ob_free(&sql);
    int rc = 0;
    if (PQresultStatus(r) != PGRES_COPY_OUT) {
        decir(s, "reading a root table", r);
        rc = 2;
    }
    PQclear(r);
    uint64_t sal = dt__cli_sub_sal(semilla, nombre);
    char *linea = NULL;
    int l;
    while (rc == 0 && (l = PQgetCopyData(s->con, &linea, 0)) > 0) {
        const char *t1 = memchr(linea, '\t', (size_t)l), *t2 = t1 ? memchr(t1 + 1, '\t', (size_t)(l - (t1 + 1 - linea))) : NULL;
        if (t2) {
            size_t lk = (size_t)(linea + l - (t2 + 1)) - (linea[l - 1] == '\n');
            if (dt__cli_sub_queda(sal, dt__cli_sub_fnv(t2 + 1, lk), pct)) {
                dt__cli_ob_put(&kept, linea, (size_t)(t2 - linea));
                dt__cli_ob_putc(&kept, '\n');
                (*raices)++;
            }
        }
        PQfreemem(linea);
    }
    while ((r = PQgetResult(s->con)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
            decir(s, "reading a root table", r);
            rc = 2;
        }
        PQclear(r);
    }
    char ins[96];
    snprintf(ins, sizeof ins, "COPY pg_temp.datoteca_sub_%zu (toid, rid) FROM STDIN", i);
    if (rc == 0) {
        r = PQexec(s->con, ins);
        if (PQresultStatus(r) != PGRES_COPY_IN) {
            decir(s, "keeping a root's rows", r);
            rc = 2;
        }
        PQclear(r);
        if (rc == 0) {
            size_t n = (size_t)(kept.p - kept.data);
            int ok = n == 0 || PQputCopyData(s->con, kept.data, (int)n) == 1;
            PQputCopyEnd(s->con, ok ? NULL : "datoteca stopped sending rows");
            while ((r = PQgetResult(s->con)) != NULL) {
                if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
                    decir(s, "keeping a root's rows", r);
                    rc = 2;
                }
                PQclear(r);
            }
        }
    }
    dt__cli_ob_free(&kept);
    return rc;
}

/* Every foreign key among the nt tables (not a partition's copy of its parent's), with its join. */
static int claves_foraneas(dt__pg *s, char *const *oids, size_t nt, fk **fks, size_t *nfks) {
    static const char Q[] =
        "SELECT c.conrelid::text, c.confrelid::text, string_agg(format('P.%I = C.%I', pa.attname, ca.attname), ' AND ' "
        "ORDER BY k.i) FROM pg_constraint c CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(ck, pk, i) "
        "JOIN pg_attribute ca ON ca.attrelid = c.conrelid AND ca.attnum = k.ck "
        "JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = k.pk "
        "WHERE c.contype = 'f' AND c.conparentid = 0 GROUP BY c.oid, c.conrelid, c.confrelid, c.conname "
        "ORDER BY c.conrelid, c.conname";
    PGresult *r = PQexec(s->con, Q);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        decir(s, "reading its foreign keys", r);
        PQclear(r);
        return 2;
    }
    *fks = (fk *)calloc((size_t)PQntuples(r) + 1, sizeof **fks);
    *nfks = 0;
    int rc = *fks ? 0 : 1;
    for (int f = 0; rc == 0 && f < PQntuples(r); f++) {
        size_t h = 0, p = 0;
        while (h < nt && strcmp(oids[h], PQgetvalue(r, f, 0)) != 0) h++;
        while (p < nt && strcmp(oids[p], PQgetvalue(r, f, 1)) != 0) p++;
        if (h == nt || p == nt) continue; /* a table not copied (an extension's) */
        fk *k = &(*fks)[(*nfks)++];
        k->hijo = h, k->padre = p;
        if ((k->union_ = (char *)malloc(strlen(PQgetvalue(r, f, 2)) + 1)) == NULL) rc = 1;
        else strcpy(k->union_, PQgetvalue(r, f, 2));
    }
    PQclear(r);
    return rc;
}

int dt__cli_pg_subconjunto(dt__pg *s, char *const *nombres, char *const *oids, char *const *citadas, size_t nt,
                           const char *spec, uint64_t semilla, int hijos, const char *const *donde, size_t ndonde,
                           uint64_t *raices) {
    unsigned char *pct = (unsigned char *)calloc(nt ? nt : 1, 1), *alcanzada = (unsigned char *)calloc(nt ? nt : 1, 1);
    unsigned char *crecio = (unsigned char *)calloc(nt ? nt : 1, 1);
    if (pct == NULL || alcanzada == NULL || crecio == NULL) {
        free(pct), free(alcanzada), free(crecio);
        return 1;
    }
    *raices = 0;
    int rc = dt__cli_sub_raices(spec, nombres, nt, pct);
    char sql[512];
    for (size_t i = 0; i < nt && rc == 0; i++) {
        snprintf(sql, sizeof sql, "CREATE TEMP TABLE datoteca_sub_%zu (toid oid, rid tid, PRIMARY KEY (toid, rid))", i);
        rc = orden(s, sql, "a TEMP table of the rows kept (a subset needs the TEMP privilege on the source)", NULL);
    }
    for (size_t i = 0; i < nt && rc == 0; i++)
        if (pct[i]) rc = raiz(s, oids[i], citadas[i], i, nombres[i], semilla, pct[i], raices);
    for (size_t d = 0; d < ndonde && rc == 0; d++) { /* the roots a condition chooses */
        size_t i;
        const char *expr;
        if ((rc = dt__cli_sub_donde(donde[d], nombres, nt, &i, &expr)) != 0) break;
        pct[i] = pct[i] ? pct[i] : 100; /* a root, for --con-hijos */
        size_t n = strlen(citadas[i]) + strlen(expr) + 160;
        char *q = (char *)malloc(n);
        if (q == NULL) {
            rc = 1;
            break;
        }
        snprintf(q, n, "INSERT INTO pg_temp.datoteca_sub_%zu SELECT tableoid, ctid FROM %s WHERE (%s) ON CONFLICT DO NOTHING", i,
                 citadas[i], expr);
        long long antes = 0;
        rc = orden(s, q, "keeping the rows --donde chooses", &antes);
        *raices += (uint64_t)antes;
        free(q);
    }
    fk *fks = NULL;
    size_t nfks = 0;
    if (rc == 0) rc = claves_foraneas(s, oids, nt, &fks, &nfks);
    /* the rows each pass adds (datoteca_nue_<i>) and the next pass's (datoteca_sig_<i>): each pass joins only the
     * rows the pass before added (semi-naive evaluation), so a long chain of self-references costs passes over
     * a few rows, not over the whole kept sets; the sets reached are the same */
    for (size_t i = 0; i < nt && rc == 0; i++) {
        snprintf(sql, sizeof sql, "CREATE TEMP TABLE datoteca_nue_%zu (toid oid, rid tid); CREATE TEMP TABLE datoteca_sig_%zu "
                                  "(toid oid, rid tid)", i, i);
        rc = orden(s, sql, "a TEMP table of the rows kept", NULL);
    }
    /* downward from the roots, then upward until a pass adds nothing */
    for (int fase = hijos ? 0 : 1; fase < 2 && rc == 0; fase++) {
        /* the first pass starts from every row kept so far */
        for (size_t i = 0; i < nt && rc == 0; i++) {
            snprintf(sql, sizeof sql, "TRUNCATE pg_temp.datoteca_nue_%zu; INSERT INTO pg_temp.datoteca_nue_%zu SELECT toid, rid FROM "
                                      "pg_temp.datoteca_sub_%zu; ANALYZE pg_temp.datoteca_nue_%zu; ANALYZE pg_temp.datoteca_sub_%zu",
                     i, i, i, i, i);
            rc = orden(s, sql, "counting the rows kept", NULL);
        }
        for (size_t i = 0; i < nt; i++) alcanzada[i] = 1; /* which tables' deltas may hold rows */
        long long cambios;
        do {
            cambios = 0;
            for (size_t i = 0; i < nt; i++) crecio[i] = 0;
            for (size_t f = 0; f < nfks && rc == 0; f++) {
                const fk *k = &fks[f];
                size_t a = fase == 0 ? k->hijo : k->padre, de = fase == 0 ? k->padre : k->hijo;
                if (!alcanzada[de]) continue; /* nothing new there: nothing new through this key */
                const char *fila = fase == 0 ? "C" : "P", *desde = fase == 0 ? "P" : "C";
                size_t n = strlen(citadas[k->hijo]) + strlen(citadas[k->padre]) + strlen(k->union_) + 400;
                char *q = (char *)malloc(n);
                if (q == NULL) {
                    rc = 1;
                    break;
                }
                snprintf(q, n, "WITH n AS (INSERT INTO pg_temp.datoteca_sub_%zu SELECT DISTINCT %s.tableoid, %s.ctid FROM %s AS C JOIN %s "
                               "AS P ON %s WHERE (%s.tableoid, %s.ctid) IN (SELECT toid, rid FROM pg_temp.datoteca_nue_%zu) ON CONFLICT "
                               "DO NOTHING RETURNING toid, rid) INSERT INTO pg_temp.datoteca_sig_%zu SELECT toid, rid FROM n",
                         a, fila, fila, citadas[k->hijo], citadas[k->padre], k->union_, desde, desde, de, a);
                long long antes = cambios;
                rc = orden(s, q, fase == 0 ? "keeping the children of kept rows" : "keeping the parents of kept rows", &cambios);
                free(q);
                if (cambios > antes) crecio[a] = 1;
            }
            /* the rows this pass added are the next pass's start */
            for (size_t i = 0; i < nt && rc == 0; i++) {
                if (!alcanzada[i] && !crecio[i]) continue;
                if (crecio[i])
                    snprintf(sql, sizeof sql, "TRUNCATE pg_temp.datoteca_nue_%zu; INSERT INTO pg_temp.datoteca_nue_%zu SELECT toid, rid "
                                              "FROM pg_temp.datoteca_sig_%zu; TRUNCATE pg_temp.datoteca_sig_%zu; ANALYZE "
                                              "pg_temp.datoteca_nue_%zu", i, i, i, i, i);
                else snprintf(sql, sizeof sql, "TRUNCATE pg_temp.datoteca_nue_%zu", i);
                rc = orden(s, sql, "counting the rows kept", NULL);
                alcanzada[i] = crecio[i];
            }
        } while (rc == 0 && cambios > 0);
    }
    for (size_t f = 0; f < nfks; f++) free(fks[f].union_);
    free(fks);
    free(pct);
    free(alcanzada);
    free(crecio);
    return rc;
}
