/* datoteca esquema — a whole test database from a schema (docs/esquemas.md):
 *
 *   datoteca esquema banco.toml --formato ddl --dialecto sqlite
 *   datoteca esquema banco.toml --seed 42 --formato csv --salida banco/   (then: cd banco && psql -f cargar.sql)
 *   datoteca esquema banco.toml --seed 42 --formato sql | psql -v ON_ERROR_STOP=1
 *   datoteca esquema banco.toml --seed 42 --formato sqlite --salida banco.db --jobs 2
 *   datoteca esquema app.toml --seed 42 --hacia postgresql://yo@localhost/app_dev [--vaciar]
 *
 * Rows are made in blocks of 4,096 by dt__cli_lotes_run (--jobs threads, shared with datoteca tabla) and
 * written in row order, so every output is byte for byte the same for any --jobs.
 * The schema is read and checked by the library (dt_esquema_new): a refusal is its sentence on stderr
 * and exit status 2, before any file is written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <direct.h>
#define dt__cli_mkdir(d) _mkdir(d)
#include <sys/stat.h>
#else
#include <sys/stat.h>
#define dt__cli_mkdir(d) mkdir((d), 0777)
#endif

#include "cli_interno.h"
#include "internal.h" /* dt__sql_nombre: names as SQL spells them */

#define LOTE 4096 /* rows per dt_esquema_filas */
#define ESCRATCH_MAX ((size_t)64 << 20) /* bytes of dt_esquema_filas buffer per block, at most */
#define FILAS_POR_INSERT 500

static int usage_esquema(FILE *f) {
    fprintf(f, "usage: datoteca esquema FILE [--seed N] [--hoy YYYY-MM-DD] --formato ddl|csv|sql|sqlite\n"
               "                            [--dialecto postgresql|sqlite] [--salida DIR|FILE] [--jobs N]\n"
               "                            [--progreso | --silencio]\n"
               "       datoteca esquema FILE [--seed N] [--hoy YYYY-MM-DD] --hacia URL [--vaciar] [--jobs N]\n"
               "                            [--progreso | --silencio]\n"
               "FILE is TOML, or JSON when its name ends in .json (docs/esquemas.md).\n"
               "  --formato ddl     the CREATE TABLE statements, in dependency order, on stdout\n"
               "  --formato csv     one CSV per table (a header row; an empty unquoted cell is NULL) into DIR\n"
               "                    (default .), and DIR/cargar.sql: \\copy in dependency order (cd DIR; psql -f cargar.sql)\n"
               "  --formato sql     one script, on stdout or into FILE: BEGIN, the DDL of --dialecto (default\n"
               "                    postgresql), every row as INSERTs in dependency order, COMMIT (psql -f, sqlite3)\n"
               "  --formato sqlite  a new SQLite database FILE (--salida; an existing file is refused): the DDL with\n"
               "                    its foreign keys, then every row, in one transaction\n"
               "  --hacia URL       every row into the existing database at URL, whose tables the application made:\n"
               "                    postgresql://... (libpq: COPY; PGPASSWORD, ~/.pgpass, PGSERVICE work),\n"
               "                    mariadb://[user@]host/db or mysql://... (multi-row INSERTs; ~/.my.cnf works), sqlite:PATH;\n"
               "                    one transaction, parents first, constraints and triggers on, sequences moved past\n"
               "                    the rows; a table that holds rows stops it before anything is written; any refusal\n"
               "                    rolls back (docs/hacia.md)\n"
               "  --vaciar          with --hacia: empty the document's tables first, in the same transaction\n"
               "  --jobs N          1 to 64 threads make the rows (csv, sql, sqlite); the output is the same for any N\n"
               "  --progreso        a progress line on stderr (table, rows done of the total, rows/s, time elapsed and\n"
               "                    left) even when stderr is not a terminal; by default it is drawn on a terminal only,\n"
               "                    and not over rows written to that terminal\n"
               "  --silencio        no progress line; the output is the same bytes with it or without\n");
    return f == stdout ? 0 : 2;
}

/* --seed: decimal, or 0x-hexadecimal, as the other commands take it. */
static int seed_de(const char *s, unsigned long long *out) {
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
        unsigned long long v = 0;
        for (const char *p = s + 2; *p; p++) {
            int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
            if (d < 0 || p - s > 17) return 0;
            v = v * 16 + (unsigned)d;
        }
        *out = v;
        return 1;
    }
    return dt__cli_parse_u64(s, 18446744073709551615ULL, out);
}

/* "YYYY-MM-DD" as digits; the library checks that the day exists. */
static int fecha_de(const char *s, int32_t hoy[3]) {
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-') return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9')) return 0;
    hoy[0] = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    hoy[1] = (s[5] - '0') * 10 + (s[6] - '0');
    hoy[2] = (s[8] - '0') * 10 + (s[9] - '0');
    return 1;
}

/* The whole file, or NULL with the reason printed. One byte past the document limit is enough for the
 * library to refuse a longer one by its own sentence. */
static char *leer(const char *ruta, size_t *len) {
    FILE *f = fopen(ruta, "rb");
    if (f == NULL) {
        fprintf(stderr, "datoteca: cannot open %s: %s\n", ruta, strerror(errno));
        return NULL;
    }
    size_t cap = 1048576 + 2, n = 0;
    char *buf = (char *)malloc(cap);
    if (buf) n = fread(buf, 1, cap, f);
    int malo = buf == NULL || ferror(f);
    fclose(f);
    if (malo) {
        fprintf(stderr, "datoteca: cannot read %s\n", ruta);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int (*dt__cli_esquema_sqlite)(const dt_esquema *e, const char *ruta, size_t jobs, dt__progreso *prog) = NULL;
dt__cli_hacia dt__cli_hacia_sqlite = NULL;
dt__cli_hacia dt__cli_hacia_pg = NULL;
dt__cli_hacia dt__cli_hacia_mariadb = NULL;

/* --hacia's writer for url, or NULL with the reason said (the URL is never printed: it may hold a password). */
static dt__cli_hacia hacia_de(const char *url) {
    const char *falta;
    dt__cli_hacia h;
    if (strncmp(url, "sqlite:", 7) == 0) {
        h = dt__cli_hacia_sqlite;
        falta = "SQLite: the datoteca program links it when built with libsqlite3 (Debian: libsqlite3-dev)";
    } else if (strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0) {
        h = dt__cli_hacia_pg;
        falta = "PostgreSQL: the datoteca program links it when built with libpq (Debian: libpq-dev)";
    } else if (strncmp(url, "mysql://", 8) == 0 || strncmp(url, "mariadb://", 10) == 0) {
        h = dt__cli_hacia_mariadb;
        falta = "MariaDB/MySQL: the datoteca program links it when built with MariaDB Connector/C (Debian: libmariadb-dev)";
    } else {
        fprintf(stderr, "datoteca: --hacia must start with sqlite:, postgresql:// or mariadb:// (the URL is not printed)\n");
        return NULL;
    }
    if (h == NULL)
        fprintf(stderr, "datoteca: --hacia: this program has no writer for %s; the library's CLI (npx datoteca, and python "
                        "-m datoteca where no wheel's program is installed) links no database client\n", falta);
    return h;
}

/* One table's blocks, read by every worker at once and never written while they run. */
typedef struct lotes_tabla {
    const dt_esquema *e;
    size_t t, ncol, cap; /* cap: dt_esquema_filas' size for one block */
    char *cabecera;      /* E_SQL: "INSERT INTO t (a, b) VALUES\n(" */
    size_t ncab;
    int formato;
    const char *nombre;
    uint64_t total;
    unsigned char entero[1600]; /* a table's columns are at most 1,600 (the schema layer's limit) */
    const unsigned char *modo;  /* M_* per column, or NULL: every value */
    int (*usar)(void *ctx, outbuf *o);
    void *ctx;
} lotes_tabla;

/* What a byte of dt_esquema_filas' text is to the formatters: the end of a cell, a byte a CSV cell must
 * quote for, a quote SQL must double, or anything else. */
enum { OTRO, FIN, CSV_RARO, SQL_RARO };
static const unsigned char CLASE[256] = {[(unsigned char)DT_FIELD_SEP] = FIN, ['\n'] = FIN, [','] = CSV_RARO,
                                         ['"'] = CSV_RARO, ['\r'] = CSV_RARO, ['\''] = SQL_RARO};

static void hacer(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *filas) {
    const lotes_tabla *lt = (const lotes_tabla *)ctx;
    size_t len;
    dt_status st = dt_esquema_filas(lt->e, lt->t, desde, n, filas, lt->cap, &len);
    if (st != DT_OK) dt__cli_progreso_cortar(); /* a worker: the message on a line of its own */
    if (st == DT_ERR_INVALID_ARG) { /* a row whose arguments from other columns its call refuses */
        fprintf(stderr, "datoteca: %s\n", filas);
        exit(2);
    }
    if (st != DT_OK) { /* rows and buffer were sized before: a bug, say so */
        fprintf(stderr, "datoteca: internal error: dt_esquema_filas: %s\n", dt_status_str(st));
        exit(1);
    }
    if (lt->formato == E_FILAS) {
        dt__cli_ob_put(o, filas, len);
        return;
    }
    const int csv = lt->formato == E_CSV;
    const unsigned char raro_si = csv ? CSV_RARO : SQL_RARO;
    const char *s = filas, *fin_bloque = filas + len;
    for (unsigned long long fila = desde; s < fin_bloque; fila++) {
        /* Room for the row's worst case at once (every byte quoted and doubled, every cell quoted or
         * NULL, an INSERT's head), then plain stores. */
        const char *fin_fila = (const char *)memchr(s, '\n', (size_t)(fin_bloque - s));
        char *q = dt__cli_ob_reservar(o, 4 * (size_t)(fin_fila + 1 - s) + lt->ncab + 16);
        if (!csv) {
            if (fila % FILAS_POR_INSERT == 0) { /* by the row's index, so blocks of any size agree */
                memcpy(q, lt->cabecera, lt->ncab);
                q += lt->ncab;
            } else {
                memcpy(q, ",\n(", 3);
                q += 3;
            }
        }
        for (size_t j = 0, escritas = 0; j < lt->ncol; j++) {
            /* One pass finds the cell's end and whether it needs quoting: most cells are copied as they are. */
            const char *fin = s;
            unsigned char clase;
            int raro = 0;
            while ((clase = CLASE[(unsigned char)*fin]) != FIN) {
                raro |= clase == raro_si;
                fin++;
            }
            size_t k = (size_t)(fin - s);
            int nulo = k == 1 && *s == DT_NULO;
            if (lt->modo && lt->modo[j] != M_VALOR) {
                if (lt->modo[j] == M_FUERA) {
                    s = fin + 1;
                    continue;
                }
                nulo = 1;
            }
            if (csv) {
                if (escritas++) *q++ = ',';
                if (nulo) {
                } else if (raro || k == 0) { /* as dt__cli_csv_field: quoted, a quote doubled, "" for empty */
                    *q++ = '"';
                    for (size_t i = 0; i < k; i++) {
                        if (s[i] == '"') *q++ = '"';
                        *q++ = s[i];
                    }
                    *q++ = '"';
                } else {
                    memcpy(q, s, k);
                    q += k;
                }
            } else {
                if (escritas++) {
                    memcpy(q, ", ", 2);
                    q += 2;
                }
                if (nulo) {
                    memcpy(q, "NULL", 4);
                    q += 4;
                } else if (lt->entero[j]) {
                    memcpy(q, s, k);
                    q += k;
                } else { /* as dt__cli_sql_texto */
                    *q++ = '\'';
                    if (raro) {
                        for (size_t i = 0; i < k; i++) {
                            if (s[i] == '\'') *q++ = '\'';
                            *q++ = s[i];
                        }
                    } else {
                        memcpy(q, s, k);
                        q += k;
                    }
                    *q++ = '\'';
                }
            }
            s = fin + 1;
        }
        if (csv) {
            *q++ = '\n';
        } else if ((fila + 1) % FILAS_POR_INSERT == 0 || fila + 1 == lt->total) {
            memcpy(q, ");\n", 3);
            q += 3;
        } else {
            *q++ = ')';
        }
        o->p = q;
    }
}

static int usar_lote(void *ctx, outbuf *o) {
    const lotes_tabla *lt = (const lotes_tabla *)ctx;
    return lt->usar(lt->ctx, o);
}

static int escribir(void *ctx, outbuf *o) {
    size_t n = (size_t)(o->p - o->data);
    return n && fwrite(o->data, 1, n, (FILE *)ctx) != n;
}

int dt__cli_esquema_lotes(const dt_esquema *e, size_t t, size_t jobs, int formato, int (*usar)(void *ctx, outbuf *o), void *ctx,
                          dt__progreso *prog) {
    return dt__cli_esquema_lotes_modo(e, t, jobs, formato, NULL, usar, ctx, prog);
}

size_t dt__cli_diferidas(const dt_esquema *e, size_t t, unsigned char *diferida) {
    size_t nt = dt_esquema_tablas(e), n = 0, propia = 0;
    while (propia < nt && dt_esquema_orden(e, propia) != t) propia++;
    for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        diferida[j] = 0;
        if (ci.ref_tabla == NULL) continue;
        size_t k = 0; /* the parent's place in the order */
        while (k < nt && strcmp(dt_esquema_tabla(e, dt_esquema_orden(e, k)), ci.ref_tabla) != 0) k++;
        if (k >= propia) diferida[j] = 1, n++;
    }
    return n;
}

int dt__cli_diferidas_listas(const dt_esquema *e, size_t t, const unsigned char *diferida, const char *prefijo,
                             unsigned char *modo, outbuf *sel, outbuf *set, char *clave) {
    if (dt__cli_ob_init(sel, 256, NULL)) return 1;
    if (dt__cli_ob_init(set, 256, NULL)) {
        dt__cli_ob_free(sel);
        return 1;
    }
    long k = dt__cli_clave_diferidas(e, t, diferida);
    char q[DT__SQL_CITADO_MAX];
    dt_esquema_columna_info ck;
    dt_esquema_columna(e, t, (size_t)k, &ck);
    dt__sql_nombre(ck.nombre, strlen(ck.nombre), clave);
    dt__cli_ob_put(sel, clave, strlen(clave));
    for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
        modo[j] = (long)j == k || diferida[j] ? M_VALOR : M_FUERA;
        if (!diferida[j]) continue;
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        dt__sql_nombre(ci.nombre, strlen(ci.nombre), q);
        dt__cli_ob_put(sel, ", ", 2);
        dt__cli_ob_put(sel, q, strlen(q));
        if (set->p != set->data) dt__cli_ob_put(set, ", ", 2);
        dt__cli_ob_put(set, prefijo, strlen(prefijo));
        dt__cli_ob_put(set, q, strlen(q));
        dt__cli_ob_put(set, " = x.", 5);
        dt__cli_ob_put(set, q, strlen(q));
    }
    dt__cli_ob_put(sel, "", 1);
    dt__cli_ob_put(set, "", 1);
    return 0;
}

long dt__cli_clave_diferidas(const dt_esquema *e, size_t t, const unsigned char *diferida) {
    for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        if (ci.clave_primaria && !diferida[j]) return (long)j;
    }
    return -1;
}

long dt__cli_diferidas_sin_clave(const dt_esquema *e) {
    for (size_t t = 0; t < dt_esquema_tablas(e); t++) {
        unsigned char diferida[1600];
        if (dt__cli_diferidas(e, t, diferida) && dt__cli_clave_diferidas(e, t, diferida) < 0) return (long)t;
    }
    return -1;
}

int dt__cli_esquema_lotes_modo(const dt_esquema *e, size_t t, size_t jobs, int formato, const unsigned char *modo,
                               int (*usar)(void *ctx, outbuf *o), void *ctx, dt__progreso *prog) {
    lotes_tabla lt;
    memset(&lt, 0, sizeof lt);
    lt.modo = modo;
    lt.e = e;
    lt.t = t;
    lt.ncol = dt_esquema_columnas(e, t);
    lt.formato = formato;
    lt.nombre = dt_esquema_tabla(e, t);
    lt.total = dt_esquema_tabla_filas(e, t);
    lt.usar = usar;
    lt.ctx = ctx;
    outbuf cab;
    if (dt__cli_ob_init(&cab, 256, NULL)) {
        fprintf(stderr, "datoteca: out of memory\n");
        return -1;
    }
    char q[DT__SQL_CITADO_MAX];
    if (formato == E_SQL) {
        dt__cli_ob_put(&cab, "INSERT INTO ", 12);
        dt__cli_ob_put(&cab, q, dt__sql_nombre(lt.nombre, strlen(lt.nombre), q));
        dt__cli_ob_put(&cab, " (", 2);
    }
    for (size_t j = 0; j < lt.ncol && j < sizeof lt.entero; j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        lt.entero[j] = (unsigned char)dt__cli_tipo_entero(ci.tipo_sql);
        if (formato != E_SQL || (modo && modo[j] == M_FUERA)) continue;
        if (cab.p[-1] != '(') dt__cli_ob_put(&cab, ", ", 2);
        dt__cli_ob_put(&cab, q, dt__sql_nombre(ci.nombre, strlen(ci.nombre), q));
    }
    if (formato == E_SQL) dt__cli_ob_put(&cab, ") VALUES\n(", 10);
    lt.cabecera = cab.data;
    lt.ncab = (size_t)(cab.p - cab.data);
    /* Blocks of LOTE rows, or fewer when the size query's bound for a wide table (up to 1,600 columns of
     * up to DT_MAX_TEXT bytes each) would make each worker's scratch larger than ESCRATCH_MAX; the bytes
     * written do not depend on the block size. */
    size_t uno = 0, bloque = LOTE;
    dt_esquema_filas(e, t, 0, lt.total ? 1 : 0, NULL, 0, &uno);
    while (bloque > 1 && (uno > ESCRATCH_MAX / bloque)) bloque /= 2;
    dt_esquema_filas(e, t, 0, bloque < lt.total ? bloque : (size_t)lt.total, NULL, 0, &lt.cap); /* the size query */
    if (prog) prog->tabla++;
    dt__cli_lotes l = {0, lt.total, bloque, jobs, lt.cap, hacer, usar_lote, &lt, prog, NULL, NULL, NULL};
    int rc = dt__cli_lotes_run(&l);
    dt__cli_ob_free(&cab);
    return rc;
}

/* The header row and every row of table t as CSV into `ruta`: 0, or 1 with the reason printed. */
static int csv_tabla(const dt_esquema *e, size_t t, const char *ruta, size_t jobs, dt__progreso *prog) {
    FILE *f = fopen(ruta, "wb");
    if (f == NULL) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: cannot write %s: %s\n", ruta, strerror(errno));
        return 1;
    }
    for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        fprintf(f, "%s%s", j ? "," : "", ci.nombre);
    }
    putc('\n', f);
    int rc = dt__cli_esquema_lotes(e, t, jobs, E_CSV, escribir, f, prog);
    if (fclose(f) != 0 && rc == 0) rc = 1;
    if (rc > 0) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: cannot write %s\n", ruta);
    }
    return rc != 0;
}

static int csv(const dt_esquema *e, const char *dir, size_t jobs, dt__progreso *prog) {
    if (dt__cli_mkdir(dir) != 0 && errno != EEXIST) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    size_t nt = dt_esquema_tablas(e), dl = strlen(dir);
    char *ruta = (char *)malloc(dl + 80);
    if (ruta == NULL) return 1;
    snprintf(ruta, dl + 80, "%s/cargar.sql", dir);
    FILE *f = fopen(ruta, "wb");
    if (f == NULL) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: cannot write %s: %s\n", ruta, strerror(errno));
        free(ruta);
        return 1;
    }
    /* psql runs it from DIR; the DDL is separate (--formato ddl), so constraints can be made first. A
     * table with a deferred ref (a cycle, a row pointing at its own table) is read into a temporary
     * table shaped like it, inserted with those columns NULL, and they are set from it once every table
     * is in, by the table's key: as --hacia does, so no constraint of the application's DDL need be
     * deferrable. */
    fprintf(f, "\\set ON_ERROR_STOP on\nBEGIN;\n");
    for (int paso = 0; paso < 2; paso++)
        for (size_t k = 0; k < nt; k++) {
            size_t t = dt_esquema_orden(e, k), nc = dt_esquema_columnas(e, t);
            unsigned char diferida[1600];
            size_t nd = dt__cli_diferidas(e, t, diferida);
            if (paso == 1 && nd == 0) continue;
            char q[DT__SQL_CITADO_MAX], qt[DT__SQL_CITADO_MAX], temporal[40];
            const char *tabla = dt_esquema_tabla(e, t);
            dt__sql_nombre(tabla, strlen(tabla), qt);
            snprintf(temporal, sizeof temporal, "datoteca_diferidas_%zu", t);
            if (paso == 1) { /* UPDATE t SET a = x.a FROM temporal x WHERE t.key = x.key */
                long clave = dt__cli_clave_diferidas(e, t, diferida);
                if (clave < 0) continue; /* refused before anything was written (below) */
                fprintf(f, "UPDATE %s SET ", qt);
                for (size_t j = 0, n = 0; j < nc; j++) {
                    if (!diferida[j]) continue;
                    dt_esquema_columna_info ci;
                    dt_esquema_columna(e, t, j, &ci);
                    dt__sql_nombre(ci.nombre, strlen(ci.nombre), q);
                    fprintf(f, "%s%s = x.%s", n++ ? ", " : "", q, q);
                }
                dt_esquema_columna_info ck;
                dt_esquema_columna(e, t, (size_t)clave, &ck);
                dt__sql_nombre(ck.nombre, strlen(ck.nombre), q);
                fprintf(f, " FROM %s x WHERE %s.%s = x.%s;\n", temporal, qt, q, q);
                continue;
            }
            if (nd) fprintf(f, "CREATE TEMPORARY TABLE %s ON COMMIT DROP AS SELECT * FROM %s WITH NO DATA;\n", temporal, qt);
            fprintf(f, "\\copy %s (", nd ? temporal : qt);
            for (size_t j = 0; j < nc; j++) {
                dt_esquema_columna_info ci;
                dt_esquema_columna(e, t, j, &ci);
                dt__sql_nombre(ci.nombre, strlen(ci.nombre), q);
                fprintf(f, "%s%s", j ? ", " : "", q);
            }
            fprintf(f, ") FROM '%s.csv' WITH (FORMAT csv, HEADER true)\n", tabla);
            if (nd == 0) continue;
            fprintf(f, "INSERT INTO %s (", qt);
            for (size_t j = 0; j < nc; j++) {
                dt_esquema_columna_info ci;
                dt_esquema_columna(e, t, j, &ci);
                dt__sql_nombre(ci.nombre, strlen(ci.nombre), q);
                fprintf(f, "%s%s", j ? ", " : "", q);
            }
            fprintf(f, ") OVERRIDING SYSTEM VALUE SELECT "); /* as COPY writes a GENERATED ALWAYS identity */
            for (size_t j = 0; j < nc; j++) {
                dt_esquema_columna_info ci;
                dt_esquema_columna(e, t, j, &ci);
                dt__sql_nombre(ci.nombre, strlen(ci.nombre), q);
                if (diferida[j]) fprintf(f, "%sNULL", j ? ", " : "");
                else fprintf(f, "%s%s", j ? ", " : "", q);
            }
            fprintf(f, " FROM %s;\n", temporal);
        }
    fprintf(f, "COMMIT;\n");
    int rc = fclose(f) != 0;
    for (size_t t = 0; rc == 0 && t < nt; t++) {
        snprintf(ruta, dl + 80, "%s/%s.csv", dir, dt_esquema_tabla(e, t));
        rc = csv_tabla(e, t, ruta, jobs, prog);
    }
    free(ruta);
    return rc;
}

/* One SQL script: BEGIN, the DDL, every table's INSERTs in dependency order, COMMIT; to stdout when
 * `ruta` is NULL. psql -f and sqlite3 both read it, so it holds nothing but SQL (no psql meta-command). */
static int sql(const dt_esquema *e, dt_dialecto dialecto, const char *ruta, size_t jobs, dt__progreso *prog) {
    FILE *f = ruta ? fopen(ruta, "wb") : stdout;
    if (f == NULL) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: cannot write %s: %s\n", ruta, strerror(errno));
        return 1;
    }
    size_t n = 0;
    dt_esquema_ddl(e, dialecto, NULL, 0, &n);
    char *ddl = (char *)malloc(n + 1);
    int rc = 0;
    if (ddl == NULL || dt_esquema_ddl(e, dialecto, ddl, n + 1, &n) != DT_OK) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: out of memory\n");
        rc = -1;
    }
    if (rc == 0) {
        fputs("BEGIN;\n", f);
        rc = fwrite(ddl, 1, n, f) != n;
    }
    free(ddl);
    for (size_t k = 0; rc == 0 && k < dt_esquema_tablas(e); k++)
        rc = dt__cli_esquema_lotes(e, dt_esquema_orden(e, k), jobs, E_SQL, escribir, f, prog);
    if (rc == 0 && fputs("COMMIT;\n", f) < 0) rc = 1;
    if ((ruta ? fclose(f) : fflush(f)) != 0 && rc == 0) rc = 1;
    if (rc > 0) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: cannot write %s: %s\n", ruta ? ruta : "the output", strerror(errno));
    }
    return rc != 0;
}
int dt__cli_esquema_main(int argc, char **argv) {
    if (argc < 3) return usage_esquema(stderr);
    if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) return usage_esquema(stdout);
    const char *archivo = argv[2], *salida = NULL, *hacia = NULL;
    int formato = -1, vaciar = 0;
    unsigned long long seed = 0, jobs = 1;
    int32_t hoy[3] = {0, 0, 0};
    dt_dialecto dialecto = DT_SQL_POSTGRESQL;
    int progreso = 0;
    for (int i = 3; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) return usage_esquema(stdout);
        if (dt__cli_progreso_opcion(opt, &progreso)) continue;
        if (strcmp(opt, "--vaciar") == 0) {
            vaciar = 1;
            continue;
        }
        const char *val = ++i < argc ? argv[i] : NULL;
        if (val == NULL) {
            fprintf(stderr, "datoteca: %s needs a value\n", opt);
            return 2;
        }
        if (strcmp(opt, "--seed") == 0) {
            if (!seed_de(val, &seed)) {
                fprintf(stderr, "datoteca: --seed must be an unsigned 64-bit integer (decimal or 0x-hex), got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--hoy") == 0) {
            if (!fecha_de(val, hoy)) {
                fprintf(stderr, "datoteca: --hoy must be YYYY-MM-DD, got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--formato") == 0) {
            static const char *const nombres[] = {"ddl", "csv", "sql", "sqlite"}; /* E_DDL .. E_SQLITE */
            formato = -1;
            for (int k = 0; k < 4; k++)
                if (strcmp(val, nombres[k]) == 0) formato = k;
            if (formato < 0) {
                fprintf(stderr, "datoteca: --formato must be ddl, csv, sql or sqlite, got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--jobs") == 0) {
            if (!dt__cli_parse_u64(val, 64, &jobs) || jobs == 0) {
                fprintf(stderr, "datoteca: --jobs must be an integer from 1 to 64, got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--dialecto") == 0) {
            if (strcmp(val, "postgresql") == 0) dialecto = DT_SQL_POSTGRESQL;
            else if (strcmp(val, "sqlite") == 0) dialecto = DT_SQL_SQLITE;
            else {
                fprintf(stderr, "datoteca: --dialecto must be postgresql or sqlite, got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--salida") == 0) {
            salida = val;
        } else if (strcmp(opt, "--hacia") == 0) {
            hacia = val;
        } else {
            fprintf(stderr, "datoteca: unexpected argument '%s' ('datoteca esquema --help')\n", opt);
            return 2;
        }
    }
    dt__cli_hacia escritor = NULL;
    if (hacia) {
        if (formato >= 0 || salida) {
            fprintf(stderr, "datoteca: --hacia writes into a database; --formato and --salida write files: give one or the other\n");
            return 2;
        }
        if ((escritor = hacia_de(hacia)) == NULL) return 2;
        formato = E_FILAS; /* what the writers read; only the dispatch below looks at it */
    } else if (vaciar) {
        fprintf(stderr, "datoteca: --vaciar goes with --hacia URL (it empties the database's tables)\n");
        return 2;
    }
    if (formato < 0) {
        fprintf(stderr, "datoteca: esquema needs --formato ddl, csv, sql or sqlite, or --hacia URL\n");
        return 2;
    }
    if (dt__cli_progreso_pedido(progreso, "")) return 2;
    if (formato == E_SQLITE) {
        if (salida == NULL) {
            fprintf(stderr, "datoteca: --formato sqlite needs --salida FILE.db, a file that does not exist yet\n");
            return 2;
        }
        if (dt__cli_esquema_sqlite == NULL) {
            fprintf(stderr, "datoteca: --formato sqlite is written only by the datoteca program built with SQLite, not this one "
                            "(--formato sql --dialecto sqlite | sqlite3 FILE.db does the same)\n");
            return 2;
        }
        struct stat st_salida;
        if (stat(salida, &st_salida) == 0) { /* checked again when the file is created, without a race */
            fprintf(stderr, "datoteca: --salida %s already exists; --formato sqlite writes only a new file\n", salida);
            return 2;
        }
    }
    size_t len = 0;
    char *texto = leer(archivo, &len);
    if (texto == NULL) return 2;
    size_t an = strlen(archivo);
    int json = an >= 5 && strcmp(archivo + an - 5, ".json") == 0;
    const char *nombre = strrchr(archivo, '/'); /* sentences name the file as given, without its directory */
    nombre = nombre ? nombre + 1 : archivo;
    dt_esquema *e = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_esquema_new(texto, len, json ? DT_ESQUEMA_JSON : DT_ESQUEMA_TOML, nombre, seed, hoy[0], hoy[1], hoy[2], &e, why,
                                  sizeof why);
    free(texto);
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: %s\n", why);
        return st == DT_ERR_INVALID_ARG ? 2 : 1;
    }
    int rc = 0;
    if (formato == E_DDL) {
        size_t n = 0;
        dt_esquema_ddl(e, dialecto, NULL, 0, &n);
        char *ddl = (char *)malloc(n + 1);
        if (ddl == NULL || dt_esquema_ddl(e, dialecto, ddl, n + 1, &n) != DT_OK) {
            fprintf(stderr, "datoteca: out of memory\n");
            rc = 1;
        } else if (fwrite(ddl, 1, n, stdout) != n) {
            rc = 1;
        }
        free(ddl);
    } else {
        /* Every table's rows, for the progress line: the schema layer bounds each table, the sum is kept
         * from wrapping (the line only shows it). */
        uint64_t total = 0;
        size_t nt = dt_esquema_tablas(e);
        for (size_t t = 0; t < nt; t++) {
            uint64_t f = dt_esquema_tabla_filas(e, t);
            total = f > UINT64_MAX - total ? UINT64_MAX : total + f;
        }
        dt__progreso prog; /* on stderr, for a terminal: nothing written depends on it */
        dt__cli_progreso_empezar(&prog, "esquema", progreso, formato == E_SQL && salida == NULL, total, (uint32_t)nt, 0);
        if (formato == E_CSV) rc = csv(e, salida ? salida : ".", (size_t)jobs, &prog);
        else if (formato == E_SQL) rc = sql(e, dialecto, salida, (size_t)jobs, &prog);
        else if (escritor) rc = escritor(e, hacia, vaciar, (size_t)jobs, &prog);
        else rc = dt__cli_esquema_sqlite(e, salida, (size_t)jobs, &prog);
        dt__cli_progreso_terminar(&prog, rc == 0);
    }
    dt_esquema_free(e);
    return rc;
}
