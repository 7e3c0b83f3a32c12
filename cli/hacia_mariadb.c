/* datoteca esquema --hacia mariadb://... (or mysql://...): every row of a schema document into an
 * existing MariaDB/MySQL database whose tables the application made, through MariaDB Connector/C, in
 * one transaction, as cli/hacia_pg.c does for PostgreSQL:
 *
 *   1. each document table found in the URL's database, on a transactional engine (InnoDB: a MyISAM
 *      table cannot be rolled back, so it is refused rather than half-written), empty unless --vaciar
 *      (then DELETE, children first: TRUNCATE would commit the transaction);
 *   2. each column the database keeps unique is one the document keeps unique, before any row;
 *   3. each table, parents first, by multi-row INSERTs (up to FILAS rows or BYTES bytes each), with
 *      foreign_key_checks and unique_checks on and the table's triggers firing;
 *   4. each deferred ref (a foreign key closing a cycle, or pointing at its own table: dt__cli_diferidas)
 *      inserted as NULL, then, once every table is written, its values into a temporary table and one
 *      UPDATE ... JOIN per table by the table's key;
 *   5. COMMIT (AUTO_INCREMENT counters follow the largest value written by themselves). Any refusal is
 *      a ROLLBACK: the database is as it was.
 *
 * The session (cli/conectar_mariadb_sesion.c) sets ANSI_QUOTES and NO_BACKSLASH_ESCAPES, so a name is
 * written "name" as for PostgreSQL and SQLite, and a text needs only its quotes doubled.
 *
 * A refusal names the table, the row (from 0, as the document counts rows) where the server says it
 * ("at row N" of a statement whose first row is known) or else the statement's rows, and the column;
 * the server's sentence is quoted only for the errors whose sentence holds no value (NOT NULL, too long,
 * out of range, foreign key, CHECK, privileges, names); a duplicate is told by its key's name only.
 *
 * This file links libmariadb, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "conectar_mariadb.h"
#include "internal.h" /* dt__sql_nombre: names as SQL spells them */

#define FILAS 1000          /* rows per INSERT */
#define BYTES (4u << 20)    /* bytes per INSERT, well under max_allowed_packet's 16 MiB default */

typedef struct destino {
    dt__mdb s;
    const dt_esquema *e;
    size_t tabla, ncol;
    unsigned char entero[1600];      /* a table's columns are at most 1,600 */
    unsigned char modo[1600];        /* M_* per column: written, NULL (a deferred ref), left out */
    outbuf sql;                      /* the INSERT being built */
    size_t ncab;                     /* bytes of its head, "INSERT INTO "t" ("a", "b") VALUES " */
    unsigned long long fila, primera; /* the next row's index; the statement's first row */
    size_t en_sentencia;             /* rows in the statement */
    size_t inicio[FILAS + 1];        /* where each of its rows starts in sql, and where the last ends */
} destino;

static void decir(const destino *d, const char *fmt, const char *a, const char *b) {
    dt__cli_progreso_cortar();
    fprintf(stderr, "datoteca: --hacia: MariaDB at %s: ", d->s.donde);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

/* The document column of the current table that msg names in quotes (`c`, 'c', "c"), or NULL. */
static const char *columna_en(const destino *d, const char *msg) {
    const char *mejor = NULL;
    size_t lm = 0;
    for (size_t j = 0; d->ncol && j < d->ncol; j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(d->e, d->tabla, j, &ci);
        size_t k = strlen(ci.nombre);
        for (const char *p = strstr(msg, ci.nombre); p; p = strstr(p + 1, ci.nombre)) {
            char a = p > msg ? p[-1] : 0, b = p[k];
            if ((a == '`' || a == '\'' || a == '"') && b == a && k > lm) mejor = ci.nombre, lm = k;
        }
    }
    return mejor;
}

/* One sentence for the server's last error: what was being done, where, and the server's sentence
 * when it holds no value. */
static void fallo(const destino *d, const char *que, int en_filas) {
    unsigned int n = mysql_errno(d->s.con);
    const char *msg = mysql_error(d->s.con);
    char m[700], lugar[400] = "";
    dt__mdb_frase(&d->s, en_filas, m, sizeof m);
    if (en_filas) {
        const char *tabla = dt_esquema_tabla(d->e, d->tabla), *col = columna_en(d, msg);
        const char *at = strstr(msg, " at row ");
        unsigned long long r = 0;
        if (at)
            for (const char *p = at + 8; *p >= '0' && *p <= '9'; p++) r = r * 10 + (unsigned)(*p - '0');
        if (d->en_sentencia == 1) r = 1;
        if (r >= 1 && r <= d->en_sentencia)
            snprintf(lugar, sizeof lugar, "table %s, row %llu%s%s: ", tabla, d->primera + r - 1, col ? ", column " : "", col ? col : "");
        else
            snprintf(lugar, sizeof lugar, "table %s, one of rows %llu to %llu%s%s: ", tabla, d->primera,
                     d->primera + d->en_sentencia - 1, col ? ", column " : "", col ? col : "");
    }
    dt__cli_progreso_cortar();
    fprintf(stderr, "datoteca: --hacia: MariaDB at %s: %s: %s%s [error %u, SQLSTATE %s]\n", d->s.donde, que, lugar, m, n,
            mysql_sqlstate(d->s.con));
}

static int orden(destino *d, const char *sql, const char *que) {
    if (mysql_query(d->s.con, sql) == 0) {
        MYSQL_RES *r = mysql_store_result(d->s.con);
        if (r) mysql_free_result(r);
        return 0;
    }
    fallo(d, que, 0);
    return 1;
}

/* A question's result, or NULL (said). */
static MYSQL_RES *consulta(destino *d, const char *sql, const char *que) {
    if (mysql_query(d->s.con, sql) != 0) {
        fallo(d, que, 0);
        return NULL;
    }
    MYSQL_RES *r = mysql_store_result(d->s.con);
    if (r == NULL) fallo(d, que, 0);
    return r;
}

/* s as a SQL text ('...', a quote doubled; no backslash escapes in this session) into o. */
static void literal(outbuf *o, const char *s, size_t n) {
    char *q = dt__cli_ob_reservar(o, 2 * n + 2);
    *q++ = '\'';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'') *q++ = '\'';
        *q++ = s[i];
    }
    *q++ = '\'';
    o->p = q;
}

/* Finds and checks each table; 0, or 2 (said). */
static int comprobar(destino *d, int vaciar) {
    for (size_t t = 0; t < dt_esquema_tablas(d->e); t++) {
        const char *tabla = dt_esquema_tabla(d->e, t);
        outbuf q;
        if (dt__cli_ob_init(&q, 512, NULL)) return 2;
        const char *a = "SELECT t.ENGINE, coalesce(e.TRANSACTIONS, 'NO') FROM information_schema.TABLES t LEFT JOIN "
                        "information_schema.ENGINES e ON e.ENGINE = t.ENGINE WHERE t.TABLE_SCHEMA = DATABASE() AND "
                        "t.TABLE_TYPE = 'BASE TABLE' AND t.TABLE_NAME = ";
        dt__cli_ob_put(&q, a, strlen(a));
        literal(&q, tabla, strlen(tabla));
        dt__cli_ob_put(&q, "", 1);
        MYSQL_RES *r = consulta(d, q.data, "reading information_schema.TABLES");
        int rc = r == NULL ? 2 : 0;
        MYSQL_ROW f = r ? mysql_fetch_row(r) : NULL;
        if (r && f == NULL) {
            decir(d, "table %s is not in the database%s", tabla, " (create the tables with the application's DDL first)");
            rc = 2;
        } else if (f && strcmp(f[1] ? f[1] : "NO", "YES") != 0) {
            char motor[200];
            snprintf(motor, sizeof motor, "%s, which cannot roll back a failed load; --hacia writes transactional tables (InnoDB)",
                     f[0] ? f[0] : "?");
            decir(d, "table %s uses the engine %s", tabla, motor);
            rc = 2;
        }
        if (r) mysql_free_result(r);
        /* single-column unique indexes (PRIMARY KEY, UNIQUE) */
        if (!rc) {
            q.p = q.data;
            a = "SELECT min(COLUMN_NAME) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0 "
                "AND TABLE_NAME = ";
            dt__cli_ob_put(&q, a, strlen(a));
            literal(&q, tabla, strlen(tabla));
            a = " GROUP BY INDEX_NAME HAVING count(*) = 1 ORDER BY INDEX_NAME";
            dt__cli_ob_put(&q, a, strlen(a) + 1);
            r = consulta(d, q.data, "reading information_schema.STATISTICS");
            if (r == NULL) rc = 2;
            while (!rc && (f = mysql_fetch_row(r)) != NULL)
                for (size_t j = 0; !rc && j < dt_esquema_columnas(d->e, t); j++) {
                    dt_esquema_columna_info ci;
                    dt_esquema_columna(d->e, t, j, &ci);
                    /* a ref's uniqueness is its table's shape (a 1:1 fan-out), which the library keeps */
                    if (f[0] && !ci.unico && !ci.ref_tabla && strcmp(ci.nombre, f[0]) == 0) {
                        char col[2 * DT__SQL_CITADO_MAX];
                        snprintf(col, sizeof col, "%s.%s", tabla, ci.nombre);
                        decir(d, "column %s is unique in the database and the document does not keep it unique (%s)", col,
                              "unico = true, or serie = true");
                        rc = 2;
                    }
                }
            if (r) mysql_free_result(r);
        }
        if (!rc && !vaciar) {
            char n[DT__SQL_CITADO_MAX], sql[64 + DT__SQL_CITADO_MAX];
            dt__sql_nombre(tabla, strlen(tabla), n);
            snprintf(sql, sizeof sql, "SELECT 1 FROM %s LIMIT 1", n);
            r = consulta(d, sql, tabla);
            if (r == NULL) rc = 2;
            else if (mysql_num_rows(r) > 0) {
                decir(d, "table %s already holds rows; --vaciar empties the document's tables first, in the same %s", tabla,
                      "transaction");
                rc = 2;
            }
            if (r) mysql_free_result(r);
        }
        dt__cli_ob_free(&q);
        if (rc) return rc;
    }
    return 0;
}

/* After a refused statement (which InnoDB has undone, the transaction going on): its rows again one
 * at a time, until the one the server refuses, whose error is then the one said. Only on the way to a
 * rollback, so its cost does not matter; a CHECK or foreign key error names no row otherwise. */
static void buscar_fila(destino *d) {
    size_t n = d->en_sentencia;
    outbuf uno;
    if (dt__cli_ob_init(&uno, 4096, NULL) == 0) {
        for (size_t i = 0; i < n; i++) {
            uno.p = uno.data;
            dt__cli_ob_put(&uno, d->sql.data, d->ncab);
            size_t a = d->inicio[i] + (i ? 1 : 0), b = d->inicio[i + 1]; /* past the ',' between rows */
            dt__cli_ob_put(&uno, d->sql.data + a, b - a);
            if (mysql_real_query(d->s.con, uno.data, (unsigned long)(uno.p - uno.data)) != 0) {
                d->primera += i, d->en_sentencia = 1;
                fallo(d, "INSERT", 1);
                dt__cli_ob_free(&uno);
                return;
            }
        }
        dt__cli_ob_free(&uno);
    }
    /* no single row refused (or no memory to try): the statement's error, with its rows */
    if (mysql_real_query(d->s.con, d->sql.data, (unsigned long)(d->sql.p - d->sql.data)) != 0) fallo(d, "INSERT", 1);
    else fallo(d, "INSERT (refused once, then accepted)", 1);
}

/* The statement built so far, sent; 0, or 1 (said). */
static int enviar_sentencia(destino *d) {
    if (d->en_sentencia == 0) return 0;
    d->inicio[d->en_sentencia] = (size_t)(d->sql.p - d->sql.data);
    int rc = mysql_real_query(d->s.con, d->sql.data, (unsigned long)(d->sql.p - d->sql.data)) != 0;
    if (rc) {
        /* a sentence that already names the row, or holds a value, is said as it is */
        if (strstr(mysql_error(d->s.con), " at row ") || d->en_sentencia == 1) fallo(d, "INSERT", 1);
        else buscar_fila(d);
    }
    d->sql.p = d->sql.data + d->ncab;
    d->en_sentencia = 0;
    return rc;
}

/* One block of dt_esquema_filas' text, row by row into the statement. */
static int cargar_lote(void *ctx, outbuf *o) {
    destino *d = (destino *)ctx;
    const char *s = o->data, *end = o->p;
    while (s < end) {
        if (d->en_sentencia == 0) d->primera = d->fila;
        d->inicio[d->en_sentencia] = (size_t)(d->sql.p - d->sql.data);
        if (d->en_sentencia) dt__cli_ob_put(&d->sql, ",", 1);
        dt__cli_ob_put(&d->sql, "(", 1);
        for (size_t j = 0, n = 0; j < d->ncol; j++) {
            const char *fin = s;
            while (*fin != DT_FIELD_SEP && *fin != '\n') fin++;
            size_t k = (size_t)(fin - s);
            if (d->modo[j] == M_FUERA) {
                s = fin + 1;
                continue;
            }
            if (n++) dt__cli_ob_put(&d->sql, ", ", 2);
            if ((k == 1 && *s == DT_NULO) || d->modo[j] == M_NULO) dt__cli_ob_put(&d->sql, "NULL", 4);
            else if (d->entero[j]) dt__cli_ob_put(&d->sql, s, k); /* the library writes an integer column's digits */
            else literal(&d->sql, s, k);
            s = fin + 1;
        }
        dt__cli_ob_put(&d->sql, ")", 1);
        d->fila++;
        if (++d->en_sentencia == FILAS || (size_t)(d->sql.p - d->sql.data) >= BYTES) {
            if (enviar_sentencia(d)) return 1;
        }
    }
    return 0;
}

/* Table t's columns of d->modo, in statements, into the table `nombre` (quoted: t itself, or the
 * temporary table of its deferred refs); 0, or 1 (said). */
static int cargar_tabla(destino *d, size_t t, const char *nombre, size_t jobs, dt__progreso *prog) {
    d->tabla = t, d->ncol = dt_esquema_columnas(d->e, t), d->fila = 0, d->en_sentencia = 0;
    d->sql.p = d->sql.data;
    char q[DT__SQL_CITADO_MAX];
    dt__cli_ob_put(&d->sql, "INSERT INTO ", 12);
    dt__cli_ob_put(&d->sql, nombre, strlen(nombre));
    dt__cli_ob_put(&d->sql, " (", 2);
    for (size_t j = 0, n = 0; j < d->ncol; j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(d->e, t, j, &ci);
        d->entero[j] = (unsigned char)dt__cli_tipo_entero(ci.tipo_sql);
        if (d->modo[j] == M_FUERA) continue;
        if (n++) dt__cli_ob_put(&d->sql, ", ", 2);
        dt__cli_ob_put(&d->sql, q, dt__sql_nombre(ci.nombre, strlen(ci.nombre), q));
    }
    dt__cli_ob_put(&d->sql, ") VALUES ", 9);
    d->ncab = (size_t)(d->sql.p - d->sql.data);
    int rc = dt__cli_esquema_lotes(d->e, t, jobs, E_FILAS, cargar_lote, d, prog);
    if (!rc) rc = enviar_sentencia(d);
    return rc != 0;
}

/* Table t's deferred refs set once every table is written: a temporary table of its key and those
 * columns, filled by INSERTs, then one UPDATE ... JOIN. 0, or 1 (said). */
static int fijar_diferidas(destino *d, size_t t, const unsigned char *diferida, size_t jobs) {
    outbuf sel, set;
    char qc[DT__SQL_CITADO_MAX], qt[DT__SQL_CITADO_MAX];
    if (dt__cli_diferidas_listas(d->e, t, diferida, "t.", d->modo, &sel, &set, qc)) return 1; /* "t.a = x.a, ..." */
    const char *tabla = dt_esquema_tabla(d->e, t);
    dt__sql_nombre(tabla, strlen(tabla), qt);
    size_t cap = 200 + strlen(sel.data) + strlen(set.data) + strlen(qt) + 2 * strlen(qc);
    char *sql = (char *)malloc(cap);
    int rc = sql == NULL;
    if (!rc) {
        snprintf(sql, cap, "CREATE TEMPORARY TABLE datoteca_diferidas AS SELECT %s FROM %s LIMIT 0", sel.data, qt);
        rc = orden(d, sql, "a deferred foreign key (CREATE TEMPORARY TABLE)");
    }
    if (!rc) rc = cargar_tabla(d, t, "datoteca_diferidas", jobs, NULL);
    if (!rc) {
        snprintf(sql, cap, "UPDATE %s t JOIN datoteca_diferidas x ON t.%s = x.%s SET %s", qt, qc, qc, set.data);
        char que[80 + DT__SQL_CITADO_MAX];
        snprintf(que, sizeof que, "table %s: setting its deferred foreign keys (UPDATE)", tabla);
        rc = orden(d, sql, que);
    }
    if (!rc) rc = orden(d, "DROP TEMPORARY TABLE datoteca_diferidas", "a deferred foreign key (DROP TEMPORARY TABLE)");
    free(sql);
    dt__cli_ob_free(&sel);
    dt__cli_ob_free(&set);
    return rc;
}

int dt__cli_mariadb_hacia(const dt_esquema *e, const char *url, int vaciar, size_t jobs, dt__progreso *prog) {
    destino *d = (destino *)calloc(1, sizeof *d);
    if (d == NULL || dt__cli_ob_init(&d->sql, 1 << 16, NULL)) {
        fprintf(stderr, "datoteca: out of memory\n");
        free(d);
        return 1;
    }
    d->e = e;
    char why[1024];
    if (dt__mdb_abrir(&d->s, url, why, sizeof why)) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: --hacia: %s\n", why);
        dt__cli_ob_free(&d->sql);
        free(d);
        return 2;
    }
    size_t nt = dt_esquema_tablas(e);
    /* the checks an option file or a global setting may have turned off, on for this session */
    int rc = orden(d, "SET SESSION foreign_key_checks = 1, unique_checks = 1", "SET foreign_key_checks") ? 2 : 0;
    if (!rc) rc = orden(d, "START TRANSACTION", "START TRANSACTION") ? 2 : 0;
    if (!rc) rc = comprobar(d, vaciar);
    long sin_clave = rc ? -1 : dt__cli_diferidas_sin_clave(e);
    if (sin_clave >= 0) {
        decir(d, "table %s has a deferred foreign key (diferida = true) and no key column to set it by (%s)",
              dt_esquema_tabla(e, (size_t)sin_clave), "serie = true, or a unico call column that is never null");
        rc = 2;
    }
    /* a deferred ref points from a parent to a later table: emptied first, so the DELETEs below pass */
    for (size_t k = 0; !rc && vaciar && k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        unsigned char diferida[1600];
        dt__cli_diferidas(e, t, diferida);
        for (size_t j = 0; !rc && j < dt_esquema_columnas(e, t); j++) {
            if (!diferida[j]) continue;
            dt_esquema_columna_info ci;
            dt_esquema_columna(e, t, j, &ci);
            const char *tabla = dt_esquema_tabla(e, t);
            char qt[DT__SQL_CITADO_MAX], qc[DT__SQL_CITADO_MAX], sql[64 + 2 * DT__SQL_CITADO_MAX];
            dt__sql_nombre(tabla, strlen(tabla), qt);
            dt__sql_nombre(ci.nombre, strlen(ci.nombre), qc);
            snprintf(sql, sizeof sql, "UPDATE %s SET %s = NULL", qt, qc);
            rc = orden(d, sql, "--vaciar (UPDATE)") ? 2 : 0;
        }
    }
    /* children first, so each DELETE finds no row of the document pointing at it */
    for (size_t k = nt; !rc && vaciar && k-- > 0;) {
        const char *tabla = dt_esquema_tabla(e, dt_esquema_orden(e, k));
        char q[DT__SQL_CITADO_MAX], sql[32 + DT__SQL_CITADO_MAX];
        dt__sql_nombre(tabla, strlen(tabla), q);
        snprintf(sql, sizeof sql, "DELETE FROM %s", q);
        rc = orden(d, sql, "--vaciar (DELETE)") ? 2 : 0;
    }
    for (size_t k = 0; !rc && k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        const char *tabla = dt_esquema_tabla(e, t);
        char q[DT__SQL_CITADO_MAX];
        dt__sql_nombre(tabla, strlen(tabla), q);
        dt__cli_diferidas(e, t, d->modo); /* 1 = M_NULO: a deferred ref goes in as NULL */
        rc = cargar_tabla(d, t, q, jobs, prog);
    }
    for (size_t k = 0; !rc && k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        unsigned char diferida[1600];
        if (dt__cli_diferidas(e, t, diferida)) rc = fijar_diferidas(d, t, diferida, jobs);
    }
    if (!rc) rc = orden(d, "COMMIT", "COMMIT");
    if (rc) {
        mysql_query(d->s.con, "ROLLBACK");
        decir(d, "rolled back, the database is as it was%s%s", "", "");
    }
    dt__mdb_cerrar(&d->s);
    dt__cli_ob_free(&d->sql);
    free(d);
    return rc;
}
