/* datoteca inferir postgresql://...: PostgreSQL's catalog into the model (cli/conectar.h), through libpq.
 * The URL goes to PQconnectdb as it is, so libpq's own conventions hold (PGPASSWORD, ~/.pgpass,
 * PGSERVICE, sslmode, ...). A password is never printed: sentences name host, port and database, and
 * any text from libpq has the URL's password blotted out before it is shown.
 *
 * The catalog is read set-wise, one query for all the tables' columns, one for their constraints, and
 * so on; only the row count and the sample are one query per table. Views, materialized views, foreign
 * tables, triggers, exclusion constraints and partial or expression unique indexes become notes.
 *
 * This file links libpq, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "conectar.h"
#include "conectar_pg.h"

/* The tables' filter, shared by every query: $1 is the schema asked for, or NULL for every one. */
#define FILTRO                                                                                                  \
    " n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%' "                   \
    " AND ($1::text IS NULL OR n.nspname = $1) "                                                                \
    " AND NOT EXISTS (SELECT 1 FROM pg_depend dep WHERE dep.objid = c.oid AND dep.deptype = 'e') "

static const char *Q_TABLAS =
    "SELECT c.oid::text, n.nspname, c.relname, c.relkind, c.reltuples::bigint::text FROM pg_class c "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND" FILTRO "ORDER BY n.nspname, c.relname";

static const char *Q_COLUMNAS =
    "SELECT a.attrelid::text, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
    "pg_get_expr(d.adbin, d.adrelid), a.attidentity, a.attgenerated, t.typtype, t.typname, "
    "CASE WHEN t.typtype = 'd' THEN format_type(t.typbasetype, t.typtypmod) END, t.typnotnull, "
    "CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END::text, t.oid::text "
    "FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
    "JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
    "WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND" FILTRO
    "ORDER BY a.attrelid, a.attnum";

static const char *Q_ENUMS = "SELECT enumtypid::text, enumlabel FROM pg_enum ORDER BY enumtypid, enumsortorder";

static const char *Q_DOMINIOS =
    "SELECT contypid::text, conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contypid <> 0 AND contype = 'c' "
    "ORDER BY contypid, conname";

/* Keys and foreign keys, one row per column in the key's order. */
static const char *Q_CLAVES =
    "SELECT con.conrelid::text, con.contype, con.conname, k.o, a.attname, fa.attname, fn.nspname, fc.relname, "
    "con.condeferrable FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "CROSS JOIN LATERAL unnest(con.conkey, COALESCE(con.confkey, con.conkey)) WITH ORDINALITY AS k(a, f, o) "
    "JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.a "
    "LEFT JOIN pg_class fc ON fc.oid = con.confrelid LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace "
    "LEFT JOIN pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = k.f "
    "WHERE con.contype IN ('p', 'u', 'f') AND" FILTRO "ORDER BY con.conrelid, con.contype, con.conname, k.o";

static const char *Q_OTRAS =
    "SELECT con.conrelid::text, con.contype, con.conname, pg_get_constraintdef(con.oid) FROM pg_constraint con "
    "JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE con.contype IN ('c', 'x') AND" FILTRO "ORDER BY con.conrelid, con.conname";

/* Unique indexes that back no constraint: plain ones are UNIQUE, partial and expression ones notes. */
static const char *Q_INDICES =
    "SELECT i.indrelid::text, ic.relname, i.indpred IS NOT NULL OR i.indexprs IS NOT NULL, "
    "(SELECT string_agg(a.attnum::text, ',' ORDER BY k.o) FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o) "
    " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n), "
    "(SELECT string_agg(quote_ident(a.attname), ',' ORDER BY k.o) FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o) "
    " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n) "
    "FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class c ON c.oid = i.indrelid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE i.indisunique AND NOT EXISTS (SELECT 1 FROM pg_constraint x WHERE x.conindid = i.indexrelid) AND" FILTRO
    "ORDER BY i.indrelid, ic.relname";

static const char *Q_DISPARADORES =
    "SELECT c.relname, t.tgname, p.prosrc FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE NOT t.tgisinternal AND" FILTRO "ORDER BY c.relname, t.tgname";

typedef struct lector {
    PGconn *con;
    dt__pg *sesion;
    dt__ic_modelo *m;
    const char *esquema;
    char **oids; /* each table's oid, by table index */
    char *why;
    size_t whycap;
} lector;

static int fallo(lector *l, const char *que, const char *msg) {
    char m[600];
    dt__pg_limpio(l->sesion, msg ? msg : PQerrorMessage(l->con), m, sizeof m);
    snprintf(l->why, l->whycap, "PostgreSQL at %s: %s: %s", l->sesion->donde, que, m);
    return 2;
}

static PGresult *consulta(lector *l, const char *q, const char *que) {
    const char *param[1] = {l->esquema};
    PGresult *r = PQexecParams(l->con, q, strstr(q, "$1") ? 1 : 0, NULL, param, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fallo(l, que, PQresultErrorMessage(r));
        PQclear(r);
        return NULL;
    }
    return r;
}

static long tabla_de_oid(const lector *l, const char *oid) {
    for (size_t i = 0; i < l->m->ntablas; i++) /* tables arrive in oid order from most queries: cheap */
        if (strcmp(l->oids[i], oid) == 0) return (long)i;
    return -1;
}

static int cita(char *d, size_t cap, const char *s) {
    size_t k = 0;
    if (k + 1 >= cap) return 1;
    d[k++] = '"';
    for (; *s; s++) {
        if (k + 3 >= cap) return 1;
        if (*s == '"') d[k++] = '"';
        d[k++] = *s;
    }
    d[k++] = '"';
    d[k] = '\0';
    return 0;
}

static int leer(lector *l, size_t muestra) {
    dt__ic_modelo *m = l->m;
    PGresult *r = consulta(l, Q_TABLAS, "reading pg_class");
    if (r == NULL) return 2;
    int n = PQntuples(r);
    l->oids = (char **)calloc((size_t)n + 1, sizeof *l->oids);
    if (l->oids == NULL) goto memoria;
    for (int i = 0; i < n; i++) {
        const char *k = PQgetvalue(r, i, 3);
        if (k[0] == 'v' || k[0] == 'm' || k[0] == 'f') {
            if (dt__ic_nota(m, "%s %s.%s: %s", k[0] == 'v' ? "view" : k[0] == 'm' ? "materialized view" : "foreign table",
                            PQgetvalue(r, i, 1), PQgetvalue(r, i, 2),
                            k[0] == 'f' ? "its rows live elsewhere; not read" : "it holds no rows of its own; the database keeps it"))
                goto memoria;
            continue;
        }
        dt__ic_tabla *t = dt__ic_tabla_nueva(m, PQgetvalue(r, i, 1), PQgetvalue(r, i, 2));
        if (t == NULL || (l->oids[m->ntablas - 1] = dt__ic_dup(PQgetvalue(r, i, 0))) == NULL) goto memoria;
        long long est = strtoll(PQgetvalue(r, i, 4), NULL, 10);
        if (est >= 1000000) t->filas = (uint64_t)est, t->filas_estimadas = 1;
    }
    PQclear(r);
    /* enums and domains' checks, kept by type oid */
    PGresult *en = consulta(l, Q_ENUMS, "reading pg_enum"), *dom = en ? consulta(l, Q_DOMINIOS, "reading domains") : NULL;
    if (dom == NULL) {
        PQclear(en);
        return 2;
    }
    r = consulta(l, Q_COLUMNAS, "reading pg_attribute");
    if (r == NULL) {
        PQclear(en), PQclear(dom);
        return 2;
    }
    long ti = -1;
    const char *ultimo = "";
    for (int i = 0; i < PQntuples(r); i++) {
        if (strcmp(PQgetvalue(r, i, 0), ultimo) != 0) ti = tabla_de_oid(l, ultimo = PQgetvalue(r, i, 0));
        if (ti < 0) continue;
        dt__ic_tabla *t = &m->tablas[ti];
        const char *tipo = PQgetvalue(r, i, 2), *base = PQgetisnull(r, i, 9) ? tipo : PQgetvalue(r, i, 9);
        char typtype = PQgetvalue(r, i, 7)[0];
        dt__ic_col *c = dt__ic_col_nueva(t, PQgetvalue(r, i, 1), tipo);
        if (c == NULL) goto memoria2;
        dt__ic_clasificar(c, base);
        c->nulable = PQgetvalue(r, i, 3)[0] != 't' && PQgetvalue(r, i, 10)[0] != 't';
        if (!PQgetisnull(r, i, 4)) {
            c->defecto = dt__ic_dup(PQgetvalue(r, i, 4));
            if (strncmp(c->defecto, "nextval(", 8) == 0) c->identidad = 1;
        }
        char ident = PQgetvalue(r, i, 5)[0];
        if (ident == 'a') c->identidad = 2;
        else if (ident == 'd') c->identidad = 1;
        c->generada = PQgetvalue(r, i, 6)[0] == 's' || PQgetvalue(r, i, 6)[0] == 'v'; /* stored, or PostgreSQL 18's virtual */
        c->falso = dt__ic_dup("false"), c->verdadero = dt__ic_dup("true");
        if (typtype == 'e' || typtype == 'd') c->tipo_propio = dt__ic_dup(PQgetvalue(r, i, 8));
        const char *tipo_oid = PQgetvalue(r, i, 11); /* the enum's oid, through a domain too */
        for (int e = 0; e < PQntuples(en); e++)
            if (strcmp(PQgetvalue(en, e, 0), tipo_oid) == 0 && dt__ic_valor_add(c, PQgetvalue(en, e, 1))) goto memoria2;
        if (typtype == 'd')
            for (int e = 0; e < PQntuples(dom); e++)
                if (strcmp(PQgetvalue(dom, e, 0), PQgetvalue(r, i, 12)) == 0) {
                    char origen[300];
                    snprintf(origen, sizeof origen, "%s of domain %s", PQgetvalue(dom, e, 1), PQgetvalue(r, i, 8));
                    if (dt__ic_check_add(t, PQgetvalue(dom, e, 2), (long)t->ncols - 1, origen)) goto memoria2;
                }
    }
    PQclear(r), PQclear(en), PQclear(dom);
    /* keys */
    r = consulta(l, Q_CLAVES, "reading pg_constraint");
    if (r == NULL) return 2;
    ultimo = "";
    const char *ultima_con = "";
    dt__ic_lista *u = NULL;
    dt__ic_fk *f = NULL;
    for (int i = 0; i < PQntuples(r); i++) {
        int nueva = strcmp(PQgetvalue(r, i, 0), ultimo) != 0 || strcmp(PQgetvalue(r, i, 2), ultima_con) != 0;
        if (strcmp(PQgetvalue(r, i, 0), ultimo) != 0) ti = tabla_de_oid(l, ultimo = PQgetvalue(r, i, 0));
        ultima_con = PQgetvalue(r, i, 2);
        if (ti < 0) continue;
        dt__ic_tabla *t = &m->tablas[ti];
        long j = dt__ic_col_indice(t, PQgetvalue(r, i, 4));
        if (j < 0) continue;
        char tipo = PQgetvalue(r, i, 1)[0];
        if (tipo == 'p') {
            if (dt__ic_lista_add(&t->pk, (size_t)j)) goto memoria1;
            t->cols[j].nulable = 0;
        } else if (tipo == 'u') {
            if (nueva && (u = dt__ic_unico_nuevo(t)) == NULL) goto memoria1;
            if (dt__ic_lista_add(u, (size_t)j)) goto memoria1;
        } else {
            if (nueva && (f = dt__ic_fk_nueva(t, PQgetvalue(r, i, 2), PQgetvalue(r, i, 6), PQgetvalue(r, i, 7))) == NULL) goto memoria1;
            if (nueva) f->diferible = PQgetvalue(r, i, 8)[0] == 't';
            if (dt__ic_fk_col(f, (size_t)j, PQgetvalue(r, i, 5))) goto memoria1;
        }
    }
    PQclear(r);
    r = consulta(l, Q_OTRAS, "reading pg_constraint");
    if (r == NULL) return 2;
    for (int i = 0; i < PQntuples(r); i++) {
        long k = tabla_de_oid(l, PQgetvalue(r, i, 0));
        if (k < 0) continue;
        if (PQgetvalue(r, i, 1)[0] == 'x') {
            if (dt__ic_nota(m, "%s: exclusion constraint %s (%s): the document's values may break it", m->tablas[k].nombre,
                            PQgetvalue(r, i, 2), PQgetvalue(r, i, 3)))
                goto memoria1;
        } else if (dt__ic_check_add(&m->tablas[k], PQgetvalue(r, i, 3), -1, PQgetvalue(r, i, 2)))
            goto memoria1;
    }
    PQclear(r);
    r = consulta(l, Q_INDICES, "reading pg_index");
    if (r == NULL) return 2;
    for (int i = 0; i < PQntuples(r); i++) {
        long k = tabla_de_oid(l, PQgetvalue(r, i, 0));
        if (k < 0) continue;
        dt__ic_tabla *t = &m->tablas[k];
        if (PQgetvalue(r, i, 2)[0] == 't' || PQgetisnull(r, i, 4)) {
            if (dt__ic_nota(m, "%s: partial or expression unique index %s: the document's values may break it", t->nombre,
                            PQgetvalue(r, i, 1)))
                goto memoria1;
            continue;
        }
        /* the columns by name, as quote_ident wrote them: split on commas outside quotes */
        if ((u = dt__ic_unico_nuevo(t)) == NULL) goto memoria1;
        const char *p = PQgetvalue(r, i, 4);
        while (*p) {
            char nombre[256];
            size_t q = 0;
            int comillas = *p == '"';
            if (comillas) p++;
            while (*p && (comillas ? !(*p == '"' && p[1] != '"') : *p != ',') && q + 1 < sizeof nombre) {
                if (comillas && *p == '"') p++;
                nombre[q++] = *p++;
            }
            if (comillas && *p == '"') p++;
            if (*p == ',') p++;
            nombre[q] = '\0';
            long j = dt__ic_col_indice(t, nombre);
            if (j >= 0 && dt__ic_lista_add(u, (size_t)j)) goto memoria1;
        }
    }
    PQclear(r);
    r = consulta(l, Q_DISPARADORES, "reading pg_trigger");
    if (r == NULL) return 2;
    for (int i = 0; i < PQntuples(r); i++) {
        if (dt__ic_nota(m, "trigger %s on %s: it runs during the load; the document does not know what it does", PQgetvalue(r, i, 1),
                        PQgetvalue(r, i, 0)))
            goto memoria1;
        char quien[300];
        snprintf(quien, sizeof quien, "trigger %s on %s", PQgetvalue(r, i, 1), PQgetvalue(r, i, 0));
        if (dt__ic_disparador(m, PQgetvalue(r, i, 2), quien)) goto memoria1; /* the tables its function inserts into */
    }
    PQclear(r);
    /* per table: the count (unless the estimate is large) and the sample */
    for (size_t i = 0; i < m->ntablas; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        char q[1200], a[300], b[300];
        if (cita(a, sizeof a, t->esquema) || cita(b, sizeof b, t->nombre)) continue;
        if (!t->filas_estimadas) {
            snprintf(q, sizeof q, "SELECT count(*) FROM %s.%s", a, b);
            r = PQexec(l->con, q);
            if (PQresultStatus(r) != PGRES_TUPLES_OK) {
                char que[700];
                snprintf(que, sizeof que, "counting %s.%s", t->esquema, t->nombre);
                fallo(l, que, PQresultErrorMessage(r));
                PQclear(r);
                return 2;
            }
            t->filas = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
            PQclear(r);
        }
        for (size_t k = 0; k < t->nfks; k++) {
            dt__ic_fk *fk = &t->fks[k];
            char c[300], q2[1800];
            if (!dt__ic_abanico_pedir(t, fk) || cita(c, sizeof c, t->cols[fk->cols.cols[0]].nombre)) continue;
            /* ORDER BY g.n, the count: an unqualified n would name the output column n::text and sort
             * "10" < "100" < "2" (libpq gives every value as text anyway) */
            snprintf(q2, sizeof q2, "SELECT g.n, count(*) FROM (SELECT count(*) AS n FROM %s.%s GROUP BY %s) g "
                                    "GROUP BY g.n ORDER BY g.n", a, b, c);
            r = PQexec(l->con, q2);
            if (PQresultStatus(r) != PGRES_TUPLES_OK) {
                char que[700];
                snprintf(que, sizeof que, "counting %s.%s per %s", t->esquema, t->nombre, fk->ref_tabla);
                fallo(l, que, PQresultErrorMessage(r));
                PQclear(r);
                return 2;
            }
            for (int f2 = 0; f2 < PQntuples(r); f2++)
                if (dt__ic_abanico_add(fk, strtoull(PQgetvalue(r, f2, 0), NULL, 10), strtoull(PQgetvalue(r, f2, 1), NULL, 10)))
                    goto memoria1;
            PQclear(r);
        }
        if (muestra == 0 || t->filas == 0 || t->ncols == 0) continue;
        snprintf(q, sizeof q, "SELECT * FROM %s.%s LIMIT %zu", a, b, muestra);
        r = PQexec(l->con, q);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) {
            char que[700];
            snprintf(que, sizeof que, "sampling %s.%s", t->esquema, t->nombre);
            fallo(l, que, PQresultErrorMessage(r));
            PQclear(r);
            return 2;
        }
        size_t filas = (size_t)PQntuples(r), cols = (size_t)PQnfields(r);
        t->muestra = (char **)calloc(filas * t->ncols + 1, sizeof(char *));
        if (t->muestra == NULL) goto memoria1;
        for (size_t f2 = 0; f2 < filas; f2++)
            for (size_t j = 0; j < cols && j < t->ncols; j++)
                if (!PQgetisnull(r, (int)f2, (int)j) &&
                    (t->muestra[f2 * t->ncols + j] = dt__ic_dup(PQgetvalue(r, (int)f2, (int)j))) == NULL)
                    goto memoria1;
        t->nmuestra = filas;
        PQclear(r);
    }
    return 0;
memoria2:
    PQclear(en), PQclear(dom);
memoria1:
    PQclear(r);
    return 2;
memoria:
    PQclear(r);
    snprintf(l->why, l->whycap, "out of memory");
    return 2;
}

int dt__conectar_pg(const char *url, const char *esquema, size_t muestra, dt__ic_modelo *m, char *why, size_t whycap) {
    dt__pg pg;
    int rc = dt__pg_abrir(&pg, url, why, whycap);
    if (rc) return rc;
    lector l;
    memset(&l, 0, sizeof l);
    l.con = pg.con, l.sesion = &pg, l.m = m, l.esquema = esquema, l.why = why, l.whycap = whycap;
    char origen[700];
    snprintf(origen, sizeof origen, "postgresql://%s:%s/%s%s%s", PQhost(l.con), PQport(l.con), PQdb(l.con),
             esquema ? " --esquema " : "", esquema ? esquema : "");
    m->origen = dt__ic_dup(origen);
    m->dialecto = DT__IC_PG;
    /* a consistent read of the catalog and the samples, and nothing written */
    PGresult *r = PQexec(l.con, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    PQclear(r);
    rc = m->origen ? leer(&l, muestra) : 2;
    r = PQexec(l.con, "ROLLBACK");
    PQclear(r);
    if (l.oids)
        for (size_t i = 0; i < m->ntablas; i++) free(l.oids[i]);
    free(l.oids);
    if (rc && !why[0]) snprintf(why, whycap, "PostgreSQL at %s: out of memory", pg.donde);
    dt__pg_cerrar(&pg);
    return rc;
}
