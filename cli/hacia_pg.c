/* datoteca esquema --hacia postgresql://...: every row of a schema document into an existing
 * PostgreSQL database whose tables the application made, through libpq, in one transaction:
 *
 *   1. each document table found in the database (on the search_path first, else in the one schema
 *      that has it), empty unless --vaciar (then TRUNCATE, which refuses when a table outside the
 *      document points at one of them, instead of emptying that one too);
 *   2. each column the database keeps unique is one the document keeps unique, before any row;
 *   3. each table, parents first, by COPY ... FROM STDIN (FORMAT csv), constraints and triggers on
 *      (COPY writes identity columns, GENERATED ALWAYS too, as the document gives them);
 *   4. each sequence behind a written column (serial, identity) moved to that column's largest value
 *      right after its table's COPY, so neither a later table's trigger nor the application's next
 *      insert collides with a written key;
 *   5. each deferred ref (a foreign key closing a cycle, or pointing at its own table: dt__cli_diferidas)
 *      was copied as NULL; once every table is written, its values go into a temporary table by COPY
 *      and one UPDATE per table sets them by the table's key, so the database's own constraint (deferrable
 *      or not) sees every parent row there;
 *   6. COMMIT. Any refusal is a ROLLBACK: the database is as it was.
 *
 * A refusal names the table, the row (COPY's line, from 0 as the document counts rows) and the column
 * where PostgreSQL says them, and quotes PostgreSQL's sentence only where that sentence cannot hold a
 * value (integrity, privileges, sizes); a value's own error (class 22) is named by its SQLSTATE.
 *
 * This file links libpq, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "conectar.h" /* dt__ic_dup */
#include "conectar_pg.h"
#include "internal.h" /* dt__sql_nombre: names as SQL spells them */

typedef struct destino {
    dt__pg s;
    const dt_esquema *e;
    char **nombres; /* each document table's name in the database, schema-qualified and quoted */
    size_t tabla;   /* the table being copied, for a sentence */
    int copiando;
} destino;

static void decir(const destino *d, const char *fmt, const char *a, const char *b) {
    dt__cli_progreso_cortar();
    fprintf(stderr, "datoteca: --hacia: PostgreSQL at %s: ", d->s.donde);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

/* COPY's context, "COPY t, line N, column c: ...": the row (N - 1) and, when it is one of table t's
 * columns, the column. 1 when the row was read. */
static int donde_en_copy(const destino *d, const char *ctx, unsigned long long *fila, const char **columna) {
    const char *p = ctx ? strstr(ctx, ", line ") : NULL;
    if (p == NULL || strncmp(ctx, "COPY ", 5) != 0) return 0;
    p += 7;
    unsigned long long n = 0;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') n = n * 10 + (unsigned)(*p++ - '0');
    *fila = n ? n - 1 : 0;
    *columna = NULL;
    if (strncmp(p, ", column ", 9) == 0) {
        p += 9;
        size_t mejor = 0;
        for (size_t j = 0; j < dt_esquema_columnas(d->e, d->tabla); j++) {
            dt_esquema_columna_info ci;
            dt_esquema_columna(d->e, d->tabla, j, &ci);
            size_t k = strlen(ci.nombre);
            if (k > mejor && strncmp(p, ci.nombre, k) == 0 && (p[k] == ':' || p[k] == '\0')) *columna = ci.nombre, mejor = k;
        }
    }
    return 1;
}

/* One sentence for a failed result: what was being done, where (table, row, column), PostgreSQL's
 * sentence when it holds no value, its SQLSTATE. */
static void fallo(const destino *d, const char *que, const PGresult *r) {
    const char *estado = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *primario = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    char m[700], lugar[400] = "";
    if (primario == NULL) dt__pg_limpio(&d->s, PQerrorMessage(d->s.con), m, sizeof m);
    else if (dt__pg_sin_valores(estado)) dt__pg_limpio(&d->s, primario, m, sizeof m);
    else snprintf(m, sizeof m, "a value PostgreSQL refuses (its sentence is not printed: it quotes the value)");
    if (d->copiando) {
        unsigned long long fila;
        const char *columna = NULL;
        const char *tabla = dt_esquema_tabla(d->e, d->tabla);
        if (donde_en_copy(d, r ? PQresultErrorField(r, PG_DIAG_CONTEXT) : NULL, &fila, &columna))
            snprintf(lugar, sizeof lugar, "table %s, row %llu%s%s: ", tabla, fila, columna ? ", column " : "", columna ? columna : "");
        else
            snprintf(lugar, sizeof lugar, "table %s: ", tabla);
    }
    const char *col = r ? PQresultErrorField(r, PG_DIAG_COLUMN_NAME) : NULL;
    const char *restr = r ? PQresultErrorField(r, PG_DIAG_CONSTRAINT_NAME) : NULL;
    dt__cli_progreso_cortar();
    fprintf(stderr, "datoteca: --hacia: PostgreSQL at %s: %s: %s%s", d->s.donde, que, lugar, m);
    if (col && !strstr(lugar, ", column ") && !strstr(m, col)) fprintf(stderr, " (column %s)", col);
    if (restr && !strstr(m, restr)) fprintf(stderr, " (constraint %s)", restr);
    if (estado) fprintf(stderr, " [SQLSTATE %s]", estado);
    /* TRUNCATE's refusal names, in its detail, the table outside the document that points in */
    const char *detalle = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL) : NULL;
    if (estado && strcmp(estado, "0A000") == 0 && detalle) {
        dt__pg_limpio(&d->s, detalle, m, sizeof m);
        fprintf(stderr, " %s", m);
    }
    fputc('\n', stderr);
}

/* A statement that returns no rows; 0, or 1 (said). */
static int orden(destino *d, const char *sql, const char *que) {
    PGresult *r = PQexec(d->s.con, sql);
    int rc = PQresultStatus(r) != PGRES_COMMAND_OK;
    if (rc) fallo(d, que, r);
    PQclear(r);
    return rc;
}

static PGresult *consulta(destino *d, const char *sql, int n, const char *const *param, const char *que) {
    PGresult *r = PQexecParams(d->s.con, sql, n, NULL, param, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK) return r;
    fallo(d, que, r);
    PQclear(r);
    return NULL;
}

/* Each document table's name in the database: on the search_path, else the one schema that has it. */
static int resolver(destino *d) {
    static const char *const Q =
        "SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname), pg_table_is_visible(c.oid), n.nspname "
        "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = $1 AND c.relkind IN ('r', 'p') "
        "AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%' ORDER BY 2 DESC, 3";
    for (size_t t = 0; t < dt_esquema_tablas(d->e); t++) {
        const char *tabla = dt_esquema_tabla(d->e, t);
        PGresult *r = consulta(d, Q, 1, &tabla, "reading pg_class");
        if (r == NULL) return 2;
        int n = PQntuples(r), rc = 0;
        if (n == 0) {
            decir(d, "table %s is not in the database%s", tabla, " (create the tables with the application's DDL first)");
            rc = 2;
        } else if (PQgetvalue(r, 0, 1)[0] != 't' && n > 1) {
            decir(d, "table %s is in several schemas and none is on the search_path; name one in the URL (%s)", tabla,
                  "?options=-csearch_path%3DNAME)");
            rc = 2;
        } else if ((d->nombres[t] = dt__ic_dup(PQgetvalue(r, 0, 0))) == NULL) {
            rc = 2;
        }
        PQclear(r);
        if (rc) return rc;
    }
    return 0;
}

/* Refuses a table holding rows (without --vaciar) and a column the database keeps unique that the
 * document does not: both before the first row, so nothing needs rolling back. */
static int comprobar(destino *d, int vaciar) {
    /* single-column UNIQUE or PRIMARY KEY constraints and unique indexes that are not partial */
    static const char *const Q_UNICOS =
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] "
        "WHERE i.indrelid = $1::regclass AND i.indisunique AND i.indnkeyatts = 1 AND i.indpred IS NULL AND i.indexprs IS NULL "
        "ORDER BY a.attnum";
    for (size_t t = 0; t < dt_esquema_tablas(d->e); t++) {
        const char *tabla = dt_esquema_tabla(d->e, t), *nombre = d->nombres[t];
        if (!vaciar) {
            char q[64 + DT__SQL_CITADO_MAX * 2 + 8];
            snprintf(q, sizeof q, "SELECT 1 FROM %s LIMIT 1", nombre);
            PGresult *r = consulta(d, q, 0, NULL, tabla);
            if (r == NULL) return 2;
            int lleno = PQntuples(r) > 0;
            PQclear(r);
            if (lleno) {
                decir(d, "table %s already holds rows; --vaciar empties the document's tables first, in the same %s", tabla,
                      "transaction");
                return 2;
            }
        }
        PGresult *r = consulta(d, Q_UNICOS, 1, &nombre, tabla);
        if (r == NULL) return 2;
        for (int i = 0; i < PQntuples(r); i++)
            for (size_t j = 0; j < dt_esquema_columnas(d->e, t); j++) {
                dt_esquema_columna_info ci;
                dt_esquema_columna(d->e, t, j, &ci);
                /* a ref's uniqueness is its table's shape (a 1:1 fan-out), which the library keeps */
                if (!ci.unico && !ci.ref_tabla && strcmp(ci.nombre, PQgetvalue(r, i, 0)) == 0) {
                    char col[2 * DT__SQL_CITADO_MAX];
                    snprintf(col, sizeof col, "%s.%s", tabla, ci.nombre);
                    decir(d, "column %s is unique in the database and the document does not keep it unique (%s)", col,
                          "unico = true, or serie = true");
                    PQclear(r);
                    return 2;
                }
            }
        PQclear(r);
    }
    return 0;
}

static int vaciar_tablas(destino *d) {
    size_t cap = 32, nt = dt_esquema_tablas(d->e);
    for (size_t t = 0; t < nt; t++) cap += strlen(d->nombres[t]) + 2;
    char *sql = (char *)malloc(cap), *p = sql;
    if (sql == NULL) return 1;
    p += sprintf(p, "TRUNCATE ONLY ");
    for (size_t t = 0; t < nt; t++) p += sprintf(p, "%s%s", t ? ", " : "", d->nombres[t]);
    int rc = orden(d, sql, "--vaciar (TRUNCATE)");
    free(sql);
    return rc;
}

static int enviar(void *ctx, outbuf *o) {
    destino *d = (destino *)ctx;
    size_t n = (size_t)(o->p - o->data);
    return n && PQputCopyData(d->s.con, o->data, (int)n) != 1;
}

/* Table t's columns of modo (M_FUERA left out) by COPY into `nombre`, the table itself or the temporary
 * one of the deferred refs; 0, or 1 (said). */
static int copiar(destino *d, size_t t, const char *nombre, const unsigned char *modo, size_t jobs, dt__progreso *prog) {
    outbuf sql;
    if (dt__cli_ob_init(&sql, 256, NULL)) return 1;
    char q[DT__SQL_CITADO_MAX];
    dt__cli_ob_put(&sql, "COPY ", 5);
    dt__cli_ob_put(&sql, nombre, strlen(nombre));
    dt__cli_ob_put(&sql, " (", 2);
    for (size_t j = 0, n = 0; j < dt_esquema_columnas(d->e, t); j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(d->e, t, j, &ci);
        if (modo[j] == M_FUERA) continue;
        if (n++) dt__cli_ob_put(&sql, ", ", 2);
        dt__cli_ob_put(&sql, q, dt__sql_nombre(ci.nombre, strlen(ci.nombre), q));
    }
    dt__cli_ob_put(&sql, ") FROM STDIN WITH (FORMAT csv)", 31);
    d->tabla = t, d->copiando = 1;
    PGresult *r = PQexec(d->s.con, sql.data);
    dt__cli_ob_free(&sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        fallo(d, "COPY", r);
        PQclear(r);
        return 1;
    }
    PQclear(r);
    int rc = dt__cli_esquema_lotes_modo(d->e, t, jobs, E_CSV, modo, enviar, d, prog);
    int dicho = rc < 0; /* -1: out of memory, said; 1: a PQputCopyData failed, which the result below says */
    /* an end with an error message makes the server abandon the COPY; the transaction is rolled back after */
    PQputCopyEnd(d->s.con, rc ? "datoteca stopped sending rows" : NULL);
    while ((r = PQgetResult(d->s.con)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && !dicho) {
            fallo(d, "COPY", r);
            dicho = 1, rc = 1;
        }
        PQclear(r);
    }
    if (rc && !dicho) fallo(d, "COPY", NULL);
    d->copiando = 0;
    return rc != 0;
}

/* Every sequence behind a column of table t the document wrote, set to that column's largest value.
 * Right after the table's COPY, not at the end: a trigger of a later table may insert into this one by
 * its sequence (an audit table), and must not take a key the document wrote. */
static int secuencias(destino *d, size_t t) {
    static const char *const Q =
        "SELECT a.attname, pg_get_serial_sequence($1, a.attname) FROM pg_attribute a WHERE a.attrelid = $1::regclass "
        "AND a.attnum > 0 AND NOT a.attisdropped AND pg_get_serial_sequence($1, a.attname) IS NOT NULL";
    {
        const char *nombre = d->nombres[t];
        PGresult *r = consulta(d, Q, 1, &nombre, "reading the sequences");
        if (r == NULL) return 1;
        for (int i = 0; i < PQntuples(r); i++) {
            const char *col = PQgetvalue(r, i, 0);
            int escrita = 0;
            for (size_t j = 0; j < dt_esquema_columnas(d->e, t); j++) {
                dt_esquema_columna_info ci;
                dt_esquema_columna(d->e, t, j, &ci);
                escrita |= strcmp(ci.nombre, col) == 0;
            }
            if (!escrita) continue; /* the database filled it: its sequence moved by itself */
            char q[DT__SQL_CITADO_MAX], sql[160 + 3 * DT__SQL_CITADO_MAX];
            dt__sql_nombre(col, strlen(col), q);
            snprintf(sql, sizeof sql, "SELECT setval($1::regclass, m) FROM (SELECT max(%s)::bigint AS m FROM %s) x WHERE m IS NOT NULL",
                     q, nombre);
            const char *seq = PQgetvalue(r, i, 1);
            PGresult *s = consulta(d, sql, 1, &seq, "moving a sequence past the rows written");
            if (s == NULL) {
                PQclear(r);
                return 1;
            }
            PQclear(s);
        }
        PQclear(r);
    }
    return 0;
}

/* Table t's deferred refs set, once every table is written: their values by COPY into a temporary table
 * shaped like t's key and those columns, then one UPDATE ... FROM it. 0, or 1 (said). */
static int fijar_diferidas(destino *d, size_t t, const unsigned char *diferida, size_t jobs) {
    unsigned char modo[1600];
    outbuf sel, set;
    char qc[DT__SQL_CITADO_MAX];
    if (dt__cli_diferidas_listas(d->e, t, diferida, "", modo, &sel, &set, qc)) return 1;
    size_t cap = 200 + strlen(sel.data) + strlen(set.data) + 2 * strlen(d->nombres[t]) + 2 * strlen(qc);
    char *sql = (char *)malloc(cap);
    int rc = sql == NULL;
    if (!rc) {
        snprintf(sql, cap, "CREATE TEMPORARY TABLE datoteca_diferidas ON COMMIT DROP AS SELECT %s FROM %s WITH NO DATA", sel.data,
                 d->nombres[t]);
        rc = orden(d, sql, "a deferred foreign key (CREATE TEMPORARY TABLE)");
    }
    if (!rc) rc = copiar(d, t, "datoteca_diferidas", modo, jobs, NULL);
    if (!rc) {
        snprintf(sql, cap, "UPDATE %s SET %s FROM datoteca_diferidas x WHERE %s.%s = x.%s", d->nombres[t], set.data, d->nombres[t], qc, qc);
        d->tabla = t;
        char que[80 + DT__SQL_CITADO_MAX];
        snprintf(que, sizeof que, "table %s: setting its deferred foreign keys (UPDATE)", dt_esquema_tabla(d->e, t));
        rc = orden(d, sql, que);
    }
    if (!rc) rc = orden(d, "DROP TABLE datoteca_diferidas", "a deferred foreign key (DROP TABLE)");
    free(sql);
    dt__cli_ob_free(&sel);
    dt__cli_ob_free(&set);
    return rc;
}

/* Refuses, before any row, a table with a deferred ref and no key to set it by. 0, or 2 (said). */
static int diferidas_con_clave(destino *d) {
    long t = dt__cli_diferidas_sin_clave(d->e);
    if (t < 0) return 0;
    decir(d, "table %s has a deferred foreign key (diferida = true) and no key column to set it by (%s)", dt_esquema_tabla(d->e, (size_t)t),
          "serie = true, or a unico call column that is never null");
    return 2;
}

int dt__cli_pg_hacia(const dt_esquema *e, const char *url, int vaciar, size_t jobs, dt__progreso *prog) {
    destino d;
    memset(&d, 0, sizeof d);
    d.e = e;
    char why[1024];
    if (dt__pg_abrir(&d.s, url, why, sizeof why)) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: --hacia: %s\n", why);
        return 2;
    }
    size_t nt = dt_esquema_tablas(e);
    d.nombres = (char **)calloc(nt + 1, sizeof *d.nombres);
    int rc = d.nombres == NULL ? 1 : orden(&d, "BEGIN", "BEGIN") ? 2 : 0;
    if (!rc) rc = resolver(&d);
    if (!rc) rc = comprobar(&d, vaciar);
    if (!rc) rc = diferidas_con_clave(&d);
    if (!rc && vaciar) rc = vaciar_tablas(&d) ? 2 : 0;
    for (size_t k = 0; !rc && k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        unsigned char modo[1600];
        dt__cli_diferidas(e, t, modo); /* 1 = M_NULO: a deferred ref goes in as NULL */
        rc = copiar(&d, t, d.nombres[t], modo, jobs, prog);
        if (!rc) rc = secuencias(&d, t);
    }
    for (size_t k = 0; !rc && k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        unsigned char diferida[1600];
        if (dt__cli_diferidas(e, t, diferida)) rc = fijar_diferidas(&d, t, diferida, jobs);
    }
    /* deferred constraints are checked here, and their refusal is a refusal of the rows */
    if (!rc) rc = orden(&d, "COMMIT", "COMMIT");
    if (rc) {
        PGresult *r = PQexec(d.s.con, "ROLLBACK");
        PQclear(r);
        decir(&d, "rolled back, the database is as it was%s%s", "", "");
    }
    for (size_t t = 0; d.nombres && t < nt; t++) free(d.nombres[t]);
    free(d.nombres);
    dt__pg_cerrar(&d.s);
    return rc;
}
