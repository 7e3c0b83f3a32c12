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

enum { T_JSONL, T_CSV, T_SQL, T_DDL, T_PLAIN };
enum { BLOQUE = 4096, MAX_JOBS = 64, FILAS_POR_INSERT = 500 };

typedef struct tarea {
    peticion r;
    unsigned long long desde;
    const char *campos, *unico, *nulos, *sucio, *nombre;
    int dialecto;
    unsigned long long jobs;
    dt_tabla *t;
    size_t ncol;
    dt_columna_info col[DT_MAX_FIELDS];
    char claves[DT_MAX_FIELDS][80]; /* `"nombre":` once, JSON-escaped */
} tarea;

static int usage_tabla(FILE *f) {
    fprintf(f,
            "usage: datoteca tabla CALL [-n COUNT] [--desde K] [--campos a,b,…] [--unico a,…] [--nulos a:PERMIL,…]\n"
            "                           [--sucio a:PERMIL,…]\n"
            "                           [--format jsonl|csv|sql|ddl|plain] [--dialecto postgresql|sqlite]\n"
            "                           [--nombre TABLE] [--jobs N] [--seed N | --seed-str TEXT] [--hoy YYYY-MM-DD]\n"
            "                           [--PARAM VALUE ...]\n"
            "Row i depends only on the seed, the call, its options and i (docs/datasets.md).\n");
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
    }
    char ddl[4096];
    if ((r->formato == T_SQL || r->formato == T_DDL) &&
        dt_tabla_ddl(w->t, (dt_dialecto)w->dialecto, w->nombre, ddl, sizeof ddl, NULL) == DT_ERR_INVALID_ARG) {
        fprintf(stderr, "datoteca: --nombre must be letters, digits and '_', not starting with a digit, got '%s'\n", w->nombre);
        return 2;
    }
    return 0;
}

static int es_entero(const dt_columna_info *c) { return dt__cli_tipo_entero(c->tipo_sql); }

/* Bytes of a word equal to c: 0x80 in each such byte (the classic "has zero byte" test of w ^ c·0x01…;
 * exact for the lowest match, which is the only one used). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && (defined(__GNUC__) || defined(__clang__))
#define SWAR 1
#else
#define SWAR 0 /* big-endian (s390x) or unknown: a byte at a time, the same bytes */
#endif
#define UNOS 0x0101010101010101ULL
#define ALTOS 0x8080808080808080ULL
static inline uint64_t iguales(uint64_t w, unsigned char c) {
    uint64_t x = w ^ (UNOS * c);
    return (x - UNOS) & ~x & ALTOS;
}

/* One row of the library's text form (fields split by DT_FIELD_SEP, ended by '\n' at `nl`) as a CSV
 * line, in one pass: each field is copied eight bytes at a time while it is scanned for its end and for
 * the bytes that make a cell quoted (a comma, a quote, a CR; the text form has no '\n' inside a field),
 * and only such a field is written again, quoted. The same bytes as dt__cli_csv_field per cell, with ""
 * for an empty text and nothing for a null. `d` has room for twice the row, three bytes a field and 8
 * more. Returns the end of what was written; the row is [s, nl]. This is most of `datoteca tabla
 * --format csv`'s time, so it is written for it (a byte at a time it took half of every row's cost). */
static char *csv_fila(char *d, const char *s, const char *nl, size_t ncol) {
    const char *p = s;
    for (size_t j = 0; j < ncol; j++) {
        if (j) *d++ = ',';
        const char *c = p;
        char *inicio = d;
        int raro = 0;
        for (;;) {
#if SWAR
            /* A whole word inside the row (no read past it), on a little-endian machine: there the
             * lowest byte of the word is the first in memory, which the zero-byte test finds exactly. */
            if (nl - p >= 8) {
                uint64_t w;
                memcpy(&w, p, 8);
                uint64_t fin = iguales(w, (unsigned char)DT_FIELD_SEP) | iguales(w, '\n');
                uint64_t m = iguales(w, ',') | iguales(w, '"') | iguales(w, '\r');
                if (fin) { /* the field ends in this word: look no further than its end */
                    unsigned k = (unsigned)__builtin_ctzll(fin) / 8;
                    raro |= (m & ((1ULL << (8 * k)) - 1)) != 0;
                    memcpy(d, p, 8);
                    d += k;
                    p += k;
                    break;
                }
                raro |= m != 0;
                memcpy(d, p, 8);
                d += 8;
                p += 8;
                continue;
            }
#endif
            char ch = *p;
            if (ch == DT_FIELD_SEP || ch == '\n') break;
            raro |= ch == ',' || ch == '"' || ch == '\r';
            *d++ = ch;
            p++;
        }
        size_t k = (size_t)(p - c);
        p++;
        if (k == 1 && *c == DT_NULO) {
            d = inicio;
        } else if (k == 0) {
            *d++ = '"';
            *d++ = '"';
        } else if (raro) {
            d = inicio;
            *d++ = '"';
            for (size_t i = 0; i < k; i++) {
                if (c[i] == '"') *d++ = '"';
                *d++ = c[i];
            }
            *d++ = '"';
        }
    }
    *d++ = '\n';
    return d;
}

/* Format rows [desde, desde + n) of the dataset, as `formato`, into o. `primera` is the global
 * index of the first row (a SQL INSERT groups rows by their global index, so blocks agree). */
static void formatear(const tarea *w, unsigned long long desde, size_t n, outbuf *o, char *filas, size_t cap) {
    size_t len;
    dt_status st = dt_tabla_filas(w->t, desde, n, filas, cap, &len);
    if (st != DT_OK) { /* capacity and buffer were checked: this is a bug, say so */
        fprintf(stderr, "datoteca: internal error: dt_tabla_filas: %s\n", dt_status_str(st));
        exit(1);
    }
    const char *s = filas;
    if (w->r.formato == T_CSV) {
        for (size_t i = 0; i < n; i++) {
            const char *nl = memchr(s, '\n', (size_t)(filas + len - s));
            size_t largo = (size_t)(nl - s) + 1;
            char *d = dt__cli_ob_reservar(o, 2 * largo + 3 * w->ncol + 8);
            o->p = csv_fila(d, s, nl, w->ncol);
            s = nl + 1;
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned long long fila = desde + i - w->desde; /* place in this output */
        if (w->r.formato == T_SQL) {
            if (fila % FILAS_POR_INSERT == 0) {
                dt__cli_ob_put(o, "INSERT INTO ", 12);
                dt__cli_ob_put(o, w->nombre, strlen(w->nombre));
                dt__cli_ob_put(o, " VALUES\n(", 9);
            } else {
                dt__cli_ob_put(o, ",\n(", 3);
            }
        } else if (w->r.formato == T_JSONL) {
            dt__cli_ob_putc(o, '{');
        }
        for (size_t j = 0; j < w->ncol; j++) {
            const char *fin = s;
            while (*fin != DT_FIELD_SEP && *fin != '\n') fin++;
            size_t k = (size_t)(fin - s);
            int nulo = k == 1 && *s == DT_NULO;
            switch (w->r.formato) {
            case T_JSONL:
                dt__cli_ob_put(o, w->claves[j], strlen(w->claves[j]));
                if (nulo) dt__cli_ob_put(o, "null", 4);
                else if (es_entero(&w->col[j])) dt__cli_ob_put(o, s, k);
                else dt__cli_json_string(o, s, k);
                break;
            case T_CSV:
                if (j) dt__cli_ob_putc(o, ',');
                if (!nulo) dt__cli_csv_field(o, s, k, 1);
                break;
            case T_SQL:
                if (j) dt__cli_ob_put(o, ", ", 2);
                if (nulo) dt__cli_ob_put(o, "NULL", 4);
                else if (es_entero(&w->col[j])) dt__cli_ob_put(o, s, k);
                else dt__cli_sql_texto(o, s, k);
                break;
            default: /* plain: tab-separated, null as an empty cell */
                if (j) dt__cli_ob_putc(o, '\t');
                if (!nulo) dt__cli_ob_put(o, s, k);
            }
            s = fin + 1;
        }
        if (w->r.formato == T_SQL) {
            dt__cli_ob_putc(o, ')');
            if ((fila + 1) % FILAS_POR_INSERT == 0 || fila + 1 == w->r.count) dt__cli_ob_put(o, ";\n", 2);
        } else {
            if (w->r.formato == T_JSONL) dt__cli_ob_putc(o, '}');
            dt__cli_ob_putc(o, '\n');
        }
    }
}

static void hacer(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *filas) {
    formatear((const tarea *)ctx, desde, n, o, filas, DT_CALL_MANY_BOUND(BLOQUE));
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

    dt__cli_lotes l = {w->desde, r->count, BLOQUE, (size_t)w->jobs, DT_CALL_MANY_BOUND(BLOQUE), hacer, escribir, w, 1, NULL, NULL, NULL};
    if (!error) {
        int rc = dt__cli_lotes_run(&l);
        if (rc < 0) return 1;
        error = rc;
    }
    if (fflush(stdout) != 0) error = 1;
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
