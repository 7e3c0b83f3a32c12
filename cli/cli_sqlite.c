/* datoteca esquema --formato sqlite --salida FILE.db: the schema's tables (the DDL with its FOREIGN KEY
 * constraints) and every row, parents first, in one transaction, each cell bound to a prepared
 * statement: a null as NULL, integer and bigint columns as integers, the rest as text.
 * datoteca esquema --hacia sqlite:FILE.db: the same rows into an existing file whose tables the
 * application made (dt__cli_sqlite_hacia, below).
 *
 * This file links libsqlite3, so it is compiled into the datoteca program only (CMakeLists.txt), not
 * into libdatoteca: main.c hands dt__cli_sqlite_escribir to the library's CLI, and the CLI inside the
 * Python and Node packages refuses the format with a sentence that names the SQL script instead. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include <sqlite3.h>

#include "cli_interno.h"
#include "conectar.h" /* dt__conectar_sqlite_ruta */
#include "internal.h" /* dt__sql_nombre: names as SQL spells them */

typedef struct carga {
    sqlite3 *db;
    sqlite3_stmt *st;
    size_t ncol;
    const char *tabla;
    unsigned long long fila; /* the next row's index, for a sentence */
    unsigned char entero[1600]; /* a table's columns are at most 1,600 */
    unsigned char nulo[1600];   /* bound NULL whatever its value: a deferred ref, set after (--hacia) */
    int param[1600];            /* the statement's parameter for each column, 0 for none */
} carga;

int dt__cli_sqlite_entero(const char *s, size_t n, long long *out) {
    size_t i = n && s[0] == '-';
    if (i == n || n - i > 19) return 0;
    unsigned long long v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v > (s[0] == '-' ? 9223372036854775808ULL : 9223372036854775807ULL)) return 0;
    *out = s[0] == '-' ? (long long)(0 - v) : (long long)v;
    return 1;
}

/* One block of dt_esquema_filas' text: each row bound and stepped. The cells stay in the block's
 * buffer until the step, so they are bound without a copy (SQLITE_STATIC). */
static int cargar_lote(void *ctx, outbuf *o) {
    carga *c = (carga *)ctx;
    const char *s = o->data, *end = o->p;
    while (s < end) {
        int rc = SQLITE_OK;
        for (size_t j = 0; j < c->ncol; j++) {
            const char *fin = s;
            while (*fin != DT_FIELD_SEP && *fin != '\n') fin++;
            size_t k = (size_t)(fin - s);
            sqlite3_int64 v;
            int i = c->param[j];
            if (rc != SQLITE_OK || i == 0) {
            } else if ((k == 1 && *s == DT_NULO) || c->nulo[j]) {
                rc = sqlite3_bind_null(c->st, i);
            } else if (c->entero[j] && dt__cli_sqlite_entero(s, k, &v)) {
                rc = sqlite3_bind_int64(c->st, i, v);
            } else {
                rc = sqlite3_bind_text(c->st, i, s, (int)k, SQLITE_STATIC);
            }
            s = fin + 1;
        }
        if (rc == SQLITE_OK) rc = sqlite3_step(c->st);
        if (rc != SQLITE_DONE) {
            dt__cli_progreso_cortar();
            /* SQLite's sentences name the constraint or table.column, never the value */
            fprintf(stderr, "datoteca: SQLite refused row %llu of %s: %s\n", c->fila, c->tabla, sqlite3_errmsg(c->db));
            return 1;
        }
        sqlite3_reset(c->st);
        c->fila++;
    }
    return 0;
}

static int exec(sqlite3 *db, const char *sql) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
    dt__cli_progreso_cortar();
    fprintf(stderr, "datoteca: SQLite: %s\n", msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return 1;
}

static int preparar_y_cargar(sqlite3 *db, const dt_esquema *e, size_t t, size_t jobs, carga *c, const char *sql, dt__progreso *prog);

/* One table's rows through one prepared INSERT: 0, 1 (said), -1 out of memory (said). `diferir`: its
 * deferred refs go in NULL (--hacia sets them after; a file of its own takes them at COMMIT). */
static int cargar_tabla(sqlite3 *db, const dt_esquema *e, size_t t, size_t jobs, carga *c, int diferir, dt__progreso *prog) {
    memset(c, 0, sizeof *c);
    c->db = db;
    c->tabla = dt_esquema_tabla(e, t);
    c->ncol = dt_esquema_columnas(e, t);
    size_t cap = 64 + DT__SQL_CITADO_MAX + c->ncol * (DT__SQL_CITADO_MAX + 5); /* quoted names: at most 129 bytes */
    char q[DT__SQL_CITADO_MAX];
    char *sql = (char *)malloc(cap), *p = sql;
    if (sql == NULL) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: out of memory\n");
        return -1;
    }
    dt__sql_nombre(c->tabla, strlen(c->tabla), q);
    p += snprintf(p, cap, "INSERT INTO %s (", q);
    for (size_t j = 0; j < c->ncol; j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        c->entero[j] = (unsigned char)dt__cli_tipo_entero(ci.tipo_sql);
        dt__sql_nombre(ci.nombre, strlen(ci.nombre), q);
        p += snprintf(p, cap - (size_t)(p - sql), "%s%s", j ? ", " : "", q);
    }
    p += snprintf(p, cap - (size_t)(p - sql), ") VALUES (");
    for (size_t j = 0; j < c->ncol; j++) p += snprintf(p, cap - (size_t)(p - sql), "%s?", j ? ", " : "");
    snprintf(p, cap - (size_t)(p - sql), ")");
    for (size_t j = 0; j < c->ncol; j++) c->param[j] = (int)j + 1;
    if (diferir) dt__cli_diferidas(e, t, c->nulo);
    int rc = preparar_y_cargar(db, e, t, jobs, c, sql, prog);
    free(sql);
    return rc;
}

/* The statement sql prepared, and every row of table t through it (c's param and nulo say how). */
static int preparar_y_cargar(sqlite3 *db, const dt_esquema *e, size_t t, size_t jobs, carga *c, const char *sql, dt__progreso *prog) {
    int rc = sqlite3_prepare_v2(db, sql, -1, &c->st, NULL);
    if (rc != SQLITE_OK) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: SQLite: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    rc = dt__cli_esquema_lotes(e, t, jobs, E_FILAS, cargar_lote, c, prog);
    sqlite3_finalize(c->st);
    return rc;
}

/* --hacia: table t's deferred refs (written NULL with their rows) set, once every table is written, by
 * `UPDATE t SET a = ?, b = ? WHERE key = ?` row by row, the key being the document's primary key. 0, 1
 * (said), -1 out of memory (said). */
static int fijar_diferidas(sqlite3 *db, const dt_esquema *e, size_t t, size_t jobs, carga *c) {
    memset(c, 0, sizeof *c);
    c->db = db;
    c->tabla = dt_esquema_tabla(e, t);
    c->ncol = dt_esquema_columnas(e, t);
    unsigned char diferida[1600];
    if (dt__cli_diferidas(e, t, diferida) == 0) return 0;
    long clave = dt__cli_clave_diferidas(e, t, diferida); /* found: dt__cli_sqlite_hacia refused a table without one */
    size_t cap = 64 + 2 * DT__SQL_CITADO_MAX + c->ncol * (DT__SQL_CITADO_MAX + 8);
    char q[DT__SQL_CITADO_MAX];
    char *sql = (char *)malloc(cap), *p = sql;
    if (sql == NULL) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: out of memory\n");
        return -1;
    }
    dt__sql_nombre(c->tabla, strlen(c->tabla), q);
    p += snprintf(p, cap, "UPDATE %s SET ", q);
    int n = 0;
    for (size_t j = 0; j < c->ncol; j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        c->entero[j] = (unsigned char)dt__cli_tipo_entero(ci.tipo_sql);
        if (!diferida[j]) continue;
        c->param[j] = ++n;
        dt__sql_nombre(ci.nombre, strlen(ci.nombre), q);
        p += snprintf(p, cap - (size_t)(p - sql), "%s%s = ?%d", n > 1 ? ", " : "", q, n);
    }
    dt_esquema_columna_info ck;
    dt_esquema_columna(e, t, (size_t)clave, &ck);
    dt__sql_nombre(ck.nombre, strlen(ck.nombre), q);
    c->param[clave] = n + 1;
    snprintf(p, cap - (size_t)(p - sql), " WHERE %s = ?%d", q, n + 1);
    int rc = preparar_y_cargar(db, e, t, jobs, c, sql, NULL);
    free(sql);
    return rc;
}

int dt__cli_sqlite_escribir(const dt_esquema *e, const char *ruta, size_t jobs, dt__progreso *prog) {
    /* Created here, exclusively: an existing file (even one made since the arguments were checked) is
     * never mixed into. */
    int fd = open(ruta, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        if (errno == EEXIST) {
            fprintf(stderr, "datoteca: --salida %s already exists; --formato sqlite writes only a new file\n", ruta);
            return 2;
        }
        fprintf(stderr, "datoteca: cannot create %s: %s\n", ruta, strerror(errno));
        return 1;
    }
    close(fd);
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(ruta, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK;
    if (rc) fprintf(stderr, "datoteca: cannot open %s with SQLite: %s\n", ruta, db ? sqlite3_errmsg(db) : "out of memory");
    /* A failed load deletes the file, so nothing needs to survive a crash half-way: no fsync. The keys
     * are checked as the rows go in (parents first), so the file never holds an orphan. */
    if (!rc) rc = exec(db, "PRAGMA synchronous = OFF; PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536; BEGIN");
    if (!rc) {
        size_t n = 0;
        dt_esquema_ddl(e, DT_SQL_SQLITE, NULL, 0, &n);
        char *ddl = (char *)malloc(n + 1);
        if (ddl == NULL || dt_esquema_ddl(e, DT_SQL_SQLITE, ddl, n + 1, &n) != DT_OK) {
            fprintf(stderr, "datoteca: out of memory\n");
            rc = 1;
        } else {
            rc = exec(db, ddl);
        }
        free(ddl);
    }
    carga *c = (carga *)malloc(sizeof *c);
    if (c == NULL && !rc) {
        fprintf(stderr, "datoteca: out of memory\n");
        rc = 1;
    }
    /* a deferred ref's value goes in with its row: its FOREIGN KEY is DEFERRABLE INITIALLY DEFERRED here */
    for (size_t k = 0; !rc && k < dt_esquema_tablas(e); k++) rc = cargar_tabla(db, e, dt_esquema_orden(e, k), jobs, c, 0, prog) != 0;
    free(c);
    if (!rc) rc = exec(db, "COMMIT");
    if (sqlite3_close(db) != SQLITE_OK && !rc) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: cannot close %s\n", ruta);
        rc = 1;
    }
    if (rc) remove(ruta); /* half a database is worse than none */
    return rc;
}

/* --hacia: a question about table t of the target (sql holds one %s for its quoted name): 1 when it
 * returns a row, 0 when not, -1 when SQLite refuses it (said, naming the table). */
static int pregunta(sqlite3 *db, const char *ruta, const char *sql, const char *tabla) {
    char q[DT__SQL_CITADO_MAX], texto[256 + DT__SQL_CITADO_MAX];
    dt__sql_nombre(tabla, strlen(tabla), q);
    snprintf(texto, sizeof texto, sql, q);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, texto, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    int r = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    if (r < 0)
        fprintf(stderr, "datoteca: --hacia: SQLite file %s: table %s: %s%s\n", ruta, tabla, sqlite3_errmsg(db),
                strncmp(sqlite3_errmsg(db), "no such table", 13) == 0 ? " (create the tables with the application's DDL first)" : "");
    sqlite3_finalize(st);
    return r;
}

/* Column j of table t is the table's INTEGER PRIMARY KEY, or alone in a UNIQUE index or constraint
 * that is not partial: then the document must keep it unique. 1, 0, or -1 (said). */
static int unico_en_destino(sqlite3 *db, const char *ruta, const char *tabla, const char *columna) {
    /* the rowid alias (an INTEGER PRIMARY KEY of one column), or a unique index of one key column */
    static const char *const texto =
        "SELECT (SELECT count(*) FROM pragma_table_info(?1) WHERE pk > 0) = 1 AND EXISTS (SELECT 1 FROM "
        "pragma_table_info(?1) WHERE pk = 1 AND name = ?2 AND upper(type) = 'INTEGER') OR EXISTS (SELECT 1 FROM "
        "pragma_index_list(?1) i WHERE i.\"unique\" AND NOT i.partial AND (SELECT count(*) FROM pragma_index_xinfo(i.name) "
        "x WHERE x.key) = 1 AND EXISTS (SELECT 1 FROM pragma_index_info(i.name) x WHERE x.name = ?2))";
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, texto, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, tabla, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, columna, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    int r = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) != 0 : -1;
    if (r < 0) fprintf(stderr, "datoteca: --hacia: SQLite file %s: table %s: %s\n", ruta, tabla, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return r;
}

int dt__cli_sqlite_hacia(const dt_esquema *e, const char *url, int vaciar, size_t jobs, dt__progreso *prog) {
    const char *ruta = dt__conectar_sqlite_ruta(url);
    sqlite3 *db = NULL;
    /* READWRITE without CREATE: a mistyped path is refused, not a new empty file */
    if (sqlite3_open_v2(ruta, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        fprintf(stderr, "datoteca: --hacia: SQLite file %s: %s\n", ruta, db ? sqlite3_errmsg(db) : "cannot open it");
        sqlite3_close(db);
        return 2;
    }
    sqlite3_busy_timeout(db, 5000);
    size_t nt = dt_esquema_tablas(e);
    /* foreign_keys is a no-op inside a transaction: set first. IMMEDIATE: no other writer from here on. */
    int rc = exec(db, "PRAGMA foreign_keys = ON; BEGIN IMMEDIATE") ? 2 : 0;
    for (size_t k = 0; !rc && k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        const char *tabla = dt_esquema_tabla(e, t);
        int lleno = pregunta(db, ruta, "SELECT 1 FROM %s LIMIT 1", tabla);
        if (lleno < 0) rc = 2;
        else if (lleno && !vaciar) {
            fprintf(stderr, "datoteca: --hacia: SQLite file %s: table %s already holds rows; --vaciar empties the document's "
                            "tables first, in the same transaction\n", ruta, tabla);
            rc = 2;
        }
        for (size_t j = 0; !rc && j < dt_esquema_columnas(e, t); j++) {
            dt_esquema_columna_info ci;
            dt_esquema_columna(e, t, j, &ci);
            /* a ref's uniqueness is its table's shape (a 1:1 fan-out), which the library keeps */
            int u = ci.unico || ci.ref_tabla ? 0 : unico_en_destino(db, ruta, tabla, ci.nombre);
            if (u < 0) rc = 2;
            else if (u) {
                fprintf(stderr, "datoteca: --hacia: SQLite file %s: column %s.%s is unique in the database and the document "
                                "does not keep it unique (unico = true, or serie = true)\n", ruta, tabla, ci.nombre);
                rc = 2;
            }
        }
    }
    long sin_clave = rc ? -1 : dt__cli_diferidas_sin_clave(e);
    if (sin_clave >= 0) {
        fprintf(stderr, "datoteca: --hacia: SQLite file %s: table %s has a deferred foreign key (diferida = true) and no key "
                        "column to set it by (serie = true, or a unico call column that is never null)\n", ruta,
                dt_esquema_tabla(e, (size_t)sin_clave));
        rc = 2;
    }
    /* children first, so each DELETE finds no row of the document pointing at it; a deferred ref points
     * the other way, so those columns are emptied before */
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
            if (exec(db, sql)) rc = 2;
        }
    }
    for (size_t k = nt; !rc && vaciar && k-- > 0;)
        if (pregunta(db, ruta, "DELETE FROM %s", dt_esquema_tabla(e, dt_esquema_orden(e, k))) < 0) rc = 2;
    carga *c = rc ? NULL : (carga *)malloc(sizeof *c);
    if (c == NULL && !rc) {
        fprintf(stderr, "datoteca: out of memory\n");
        rc = 1;
    }
    for (size_t k = 0; !rc && k < nt; k++) rc = cargar_tabla(db, e, dt_esquema_orden(e, k), jobs, c, 1, prog) != 0;
    for (size_t k = 0; !rc && k < nt; k++) rc = fijar_diferidas(db, e, dt_esquema_orden(e, k), jobs, c) != 0;
    free(c);
    if (!rc && exec(db, "COMMIT")) rc = 1;
    if (rc) {
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: --hacia: SQLite file %s: rolled back, the database is as it was\n", ruta);
    }
    sqlite3_close(db);
    return rc;
}
