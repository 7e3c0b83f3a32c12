/* datoteca tabla — datasets from the command line: addressable rows, unique columns, nulls,
 * column choice, SQL for PostgreSQL and SQLite, and --jobs threads with output identical to one.
 *
 *   datoteca tabla persona -n 1000000 --unico rut,email --format csv > personas.csv
 *   datoteca tabla persona -n 10 --desde 500 --campos rut,nombre_completo,codigo_comuna
 *   datoteca tabla persona -n 0 --unico rut --format ddl --dialecto sqlite
 *
 * Rows are formatted in blocks; with --jobs N, N threads format consecutive blocks at once and
 * the main thread writes them in order (dt__cli_lotes_run, shared with datoteca esquema). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "datos/tabla_interno.h" /* dt__tabla_valores: a row's values in place */
#include "internal.h"            /* dt__sql_nombre: --nombre as SQL spells it */

enum { T_JSONL, T_CSV, T_SQL, T_DDL, T_PLAIN };
enum { BLOQUE = 4096, MAX_JOBS = 64, FILAS_POR_INSERT = 500 };

typedef struct tarea {
    peticion r;
    unsigned long long desde;
    const char *campos, *unico, *nulos, *sucio, *nombre;
    char nombre_sql[DT__SQL_CITADO_MAX]; /* `"user"` for --nombre user: a keyword is quoted */
    int dialecto;
    unsigned long long jobs;
    dt_tabla *t;
    size_t ncol;
    dt_columna_info col[DT_MAX_FIELDS];
    char claves[DT_MAX_FIELDS][80]; /* `"nombre":` once, JSON-escaped */
    size_t largo_clave[DT_MAX_FIELDS];
    uint8_t entero[DT_MAX_FIELDS];  /* written bare in JSON and SQL (dt__cli_tipo_entero), once per column */
} tarea;

static int usage_tabla(FILE *f) {
    fprintf(f,
            "usage: datoteca tabla CALL [-n COUNT] [--desde K] [--campos a,b,…] [--unico a,…] [--nulos a:PERMIL,…]\n"
            "                           [--sucio a:PERMIL,…]\n"
            "                           [--format jsonl|csv|sql|ddl|plain] [--dialecto postgresql|sqlite]\n"
            "                           [--nombre TABLE] [--jobs N] [--seed N | --seed-str TEXT] [--hoy YYYY-MM-DD]\n"
            "                           [--progreso | --silencio] [--PARAM VALUE ...]\n"
            "Row i depends only on the seed, the call, its options and i (docs/datasets.md).\n"
            "A progress line (rows done of the total, rows/s, time elapsed and left) is drawn on stderr when it is a\n"
            "terminal and the rows do not go to that terminal; --progreso draws it anyway, --silencio never. The\n"
            "rows are the same bytes either way.\n");
    return f == stdout ? -1 : 2;
}

static int parse_tabla(int argc, char **argv, tarea *w) {
    if (argc < 3) return usage_tabla(stderr);
    if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) return usage_tabla(stdout);
    peticion *r = &w->r;
    int rc = dt__cli_parse_call(argv[2], r);
    if (rc) return rc;
    r->formato = T_JSONL;
    r->count = 1;
    w->jobs = 1;
    r->nargs = r->info->nparams;
    for (size_t j = 0; j < r->nargs; j++) r->args[j] = DT_ARG_DEFAULT;
    const char *punto = strrchr(r->info->name, '.');
    w->nombre = punto ? punto + 1 : r->info->name;
    for (int i = 3; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            dt__cli_call_help(stdout, r->info, "tabla ");
            return -1;
        }
        if (dt__cli_progreso_opcion(opt, &r->progreso)) continue;
        static const char *const propias[] = {"--seed", "--seed-str", "-n", "--desde", "--jobs", "--campos", "--unico",
                                              "--nulos", "--sucio", "--nombre", "--dialecto", "--format", "--hoy"};
        rc = dt__cli_check_opcion(r, argc, argv, i, propias, sizeof propias / sizeof propias[0], "tabla ");
        if (rc) return rc;
        const char *val = argv[++i];
        unsigned long long u;
        if (strcmp(opt, "-n") == 0 || strcmp(opt, "--desde") == 0) {
            if (!dt__cli_parse_u64(val, 1ULL << 62, &u)) {
                fprintf(stderr, "datoteca: %s must be an integer from 0 to %llu, got '%s'\n", opt, 1ULL << 62, val);
                return 2;
            }
            if (opt[1] == 'n') r->count = u;
            else w->desde = u;
        } else if (strcmp(opt, "--jobs") == 0) {
            if (!dt__cli_parse_u64(val, MAX_JOBS, &w->jobs) || w->jobs == 0) {
                fprintf(stderr, "datoteca: --jobs must be an integer from 1 to %d, got '%s'\n", MAX_JOBS, val);
                return 2;
            }
        } else if (strcmp(opt, "--campos") == 0) {
            w->campos = val;
        } else if (strcmp(opt, "--unico") == 0) {
            w->unico = val;
        } else if (strcmp(opt, "--nulos") == 0) {
            w->nulos = val;
        } else if (strcmp(opt, "--sucio") == 0) {
            w->sucio = val;
        } else if (strcmp(opt, "--nombre") == 0) {
            w->nombre = val;
        } else if (strcmp(opt, "--dialecto") == 0) {
            if (strcmp(val, "postgresql") == 0) w->dialecto = DT_SQL_POSTGRESQL;
            else if (strcmp(val, "sqlite") == 0) w->dialecto = DT_SQL_SQLITE;
            else {
                fprintf(stderr, "datoteca: --dialecto must be postgresql or sqlite, got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--format") == 0) {
            static const char *const nombres[] = {"jsonl", "csv", "sql", "ddl", "plain"};
            int f = -1;
            for (int k = 0; k < 5; k++)
                if (strcmp(val, nombres[k]) == 0) f = k;
            if (f < 0) {
                fprintf(stderr, "datoteca: --format must be jsonl, csv, sql, ddl or plain, got '%s'\n", val);
                return 2;
            }
            r->formato = f;
        } else {
            rc = dt__cli_parse_comun(r, opt, val);
            if (rc) return rc;
        }
    }
    rc = dt__cli_check_seeds(r);
    if (rc == 0) rc = dt__cli_progreso_pedido(r->progreso, "");
    if (rc) return rc;
    dt_tabla_opciones o = {sizeof o, r->index, r->args, r->nargs, r->seed, r->seed_str,
                           r->seed_str ? strlen(r->seed_str) : 0, 0, 0, 0, w->campos, w->unico, w->nulos, w->sucio};
    if (r->hoy_given) {
        o.hoy_anio = r->hoy[0];
        o.hoy_mes = r->hoy[1];
        o.hoy_dia = r->hoy[2];
    }
    char why[512];
    dt_status st = dt_tabla_new(&o, &w->t, why, sizeof why);
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: %s\n", st == DT_ERR_INVALID_ARG ? why : dt_status_str(st));
        return 2;
    }
    uint64_t cap = dt_tabla_capacidad(w->t);
    if (w->desde > cap || r->count > cap - w->desde) {
        char desde[24], hasta[24], hay[24]; /* the library's sentence takes its numbers as text */
        snprintf(desde, sizeof desde, "%llu", w->desde);
        snprintf(hasta, sizeof hasta, "%llu", w->desde + r->count);
        snprintf(hay, sizeof hay, "%llu", (unsigned long long)cap);
        fprintf(stderr, "datoteca: " DT_FRASE_CAPACIDAD "\n", r->info->name, desde, hasta, hay);
        return 2;
    }
    w->ncol = dt_tabla_columnas(w->t);
    for (size_t j = 0; j < w->ncol; j++) {
        dt_tabla_columna(w->t, j, &w->col[j]);
        snprintf(w->claves[j], sizeof w->claves[j], "%s\"%s\":", j ? "," : "", w->col[j].nombre);
        w->largo_clave[j] = strlen(w->claves[j]);
        w->entero[j] = (uint8_t)dt__cli_tipo_entero(w->col[j].tipo_sql);
    }
    char ddl[4096];
    if ((r->formato == T_SQL || r->formato == T_DDL) &&
        dt_tabla_ddl(w->t, (dt_dialecto)w->dialecto, w->nombre, ddl, sizeof ddl, NULL) == DT_ERR_INVALID_ARG) {
        fprintf(stderr, "datoteca: --nombre must be letters of any alphabet, digits and '_', not starting with a digit, at most 63 bytes\n");
        return 2;
    }
    dt__sql_nombre(w->nombre, strlen(w->nombre) <= DT__SQL_NOMBRE_MAX ? strlen(w->nombre) : DT__SQL_NOMBRE_MAX, w->nombre_sql);
    return 0;
}

/* Rows [desde, desde + n) of the dataset, as `formato`, into o, each written straight from the values
 * the registry generated (dt__tabla_valores: the record's fields in place, their lengths, nulls and
 * dirt) with no text form in between; `v` is the block's scratch. The bytes are those of dt_tabla_filas'
 * text form formatted cell by cell, which is what the CLI wrote before. A SQL INSERT groups rows by
 * their place in this output, so blocks agree whatever the number of jobs. */
static void formatear(const tarea *w, unsigned long long desde, size_t n, outbuf *o, dt__valores *v) {
    size_t ncol = w->ncol;
    const char *claves[DT_MAX_FIELDS];
    for (size_t j = 0; j < ncol; j++) claves[j] = w->claves[j];
    for (size_t i = 0; i < n; i++) {
        dt__tabla_valores(w->t, desde + i, v);
        size_t textos = 0;
        for (size_t j = 0; j < ncol; j++) textos += v->largo[j];
        if (w->r.formato == T_CSV) { /* the hot path: one reservation a row */
            char *d = dt__cli_ob_reservar(o, 2 * textos + 3 * ncol + 1);
            o->p = dt__cli_csv_fila(d, v->ini, v->largo, v->nulo, ncol, 1);
            continue;
        }
        if (w->r.formato == T_JSONL) {
            char *d = dt__cli_ob_reservar(o, 6 * textos + (sizeof w->claves[0] + 6) * ncol + 3);
            o->p = dt__cli_json_fila(d, claves, w->largo_clave, v->ini, v->largo, v->nulo, w->entero, ncol);
            continue;
        }
        unsigned long long fila = desde + i - w->desde; /* place in this output */
        if (w->r.formato == T_SQL) {
            if (fila % FILAS_POR_INSERT == 0) {
                dt__cli_ob_put(o, "INSERT INTO ", 12);
                dt__cli_ob_put(o, w->nombre_sql, strlen(w->nombre_sql));
                dt__cli_ob_put(o, " VALUES\n(", 9);
            } else {
                dt__cli_ob_put(o, ",\n(", 3);
            }
        }
        for (size_t j = 0; j < ncol; j++) {
            const char *c = v->ini[j];
            size_t k = v->largo[j];
            if (w->r.formato == T_SQL) {
                if (j) dt__cli_ob_put(o, ", ", 2);
                if (v->nulo[j]) dt__cli_ob_put(o, "NULL", 4);
                else if (w->entero[j]) dt__cli_ob_put(o, c, k);
                else dt__cli_sql_texto(o, c, k);
            } else { /* plain: tab-separated, null as an empty cell */
                if (j) dt__cli_ob_putc(o, '\t');
                if (!v->nulo[j]) dt__cli_ob_put(o, c, k);
            }
        }
        if (w->r.formato == T_SQL) {
            dt__cli_ob_putc(o, ')');
            if ((fila + 1) % FILAS_POR_INSERT == 0 || fila + 1 == w->r.count) dt__cli_ob_put(o, ";\n", 2);
        } else {
            dt__cli_ob_putc(o, '\n');
        }
    }
}

static void hacer(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *scratch) {
    formatear((const tarea *)ctx, desde, n, o, (dt__valores *)(void *)scratch); /* calloc'd: aligned for it */
}

static int escribir(void *ctx, outbuf *o) {
    (void)ctx;
    size_t n = (size_t)(o->p - o->data);
    return n && fwrite(o->data, 1, n, stdout) != n;
}

static int run_tabla(tarea *w) {
    peticion *r = &w->r;
    outbuf cab;
    dt__cli_ob_init(&cab, 8192, stdout);
    if (r->formato == T_SQL || r->formato == T_DDL) {
        char ddl[4096];
        size_t len;
        dt_tabla_ddl(w->t, (dt_dialecto)w->dialecto, w->nombre, ddl, sizeof ddl, &len);
        dt__cli_ob_put(&cab, ddl, len);
    } else if (r->formato == T_CSV) {
        for (size_t j = 0; j < w->ncol; j++) {
            if (j) dt__cli_ob_putc(&cab, ',');
            dt__cli_ob_put(&cab, w->col[j].nombre, strlen(w->col[j].nombre));
        }
        dt__cli_ob_putc(&cab, '\n');
    }
    dt__cli_ob_flush(&cab);
    int error = cab.error;
    dt__cli_ob_free(&cab);
    if (r->formato == T_DDL) r->count = 0;

    dt__progreso prog; /* on stderr, for a terminal: nothing written depends on it */
    dt__cli_progreso_empezar(&prog, "tabla", r->formato == T_DDL ? DT__PROGRESO_NO : r->progreso, 1, r->count, 0, 0);
    dt__cli_lotes l = {w->desde, r->count, BLOQUE, (size_t)w->jobs, sizeof(dt__valores), hacer, escribir, w, &prog, NULL, NULL, NULL};
    if (!error) {
        int rc = dt__cli_lotes_run(&l);
        if (rc < 0) {
            dt__cli_progreso_terminar(&prog, 0);
            return 1;
        }
        error = rc;
    }
    if (fflush(stdout) != 0) error = 1;
    dt__cli_progreso_terminar(&prog, !error);
    if (error) {
        fprintf(stderr, "datoteca: cannot write the output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int dt__cli_tabla_main(int argc, char **argv) {
    static tarea w; /* zeroed */
    int rc = parse_tabla(argc, argv, &w);
    if (rc == -1) return 0; /* --help */
    if (rc == 0) rc = run_tabla(&w);
    dt_tabla_free(w.t);
    return rc;
}
