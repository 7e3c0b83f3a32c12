/* datoteca esquema — a whole test database from a schema (docs/esquemas.md):
 *
 *   datoteca esquema banco.toml --formato ddl --dialecto sqlite
 *   datoteca esquema banco.toml --seed 42 --formato csv --salida banco/   (then: cd banco && psql -f cargar.sql)
 *
 * The schema is read and checked by the library (dt_esquema_new): a refusal is its sentence on stderr
 * and exit status 2, before any file is written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <direct.h>
#define dt__cli_mkdir(d) _mkdir(d)
#else
#include <sys/stat.h>
#define dt__cli_mkdir(d) mkdir((d), 0777)
#endif

#include "cli_interno.h"

#define LOTE 4096 /* rows per dt_esquema_filas */

static int usage_esquema(FILE *f) {
    fprintf(f, "usage: datoteca esquema FILE [--seed N] [--hoy YYYY-MM-DD] --formato ddl|csv [--dialecto postgresql|sqlite]\n"
               "                            [--salida DIR]\n"
               "FILE is TOML, or JSON when its name ends in .json (docs/esquemas.md).\n"
               "  --formato ddl   the CREATE TABLE statements, in dependency order, on stdout\n"
               "  --formato csv   one CSV per table (a header row; an empty unquoted cell is NULL) into DIR\n"
               "                  (default .), and DIR/cargar.sql: \\copy in dependency order (cd DIR; psql -f cargar.sql)\n");
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

/* One table as CSV into `ruta`: 0, or 1 with the reason printed. */
static int csv_tabla(const dt_esquema *e, size_t t, const char *ruta) {
    FILE *f = fopen(ruta, "wb");
    if (f == NULL) {
        fprintf(stderr, "datoteca: cannot write %s: %s\n", ruta, strerror(errno));
        return 1;
    }
    outbuf o;
    size_t ncol = dt_esquema_columnas(e, t), cap = 0;
    uint64_t total = dt_esquema_tabla_filas(e, t);
    dt_esquema_filas(e, t, 0, LOTE < total ? LOTE : (size_t)total, NULL, 0, &cap); /* the size query */
    char *filas = (char *)malloc(cap ? cap : 1);
    if (filas == NULL || dt__cli_ob_init(&o, 1 << 20, f)) {
        fprintf(stderr, "datoteca: out of memory\n");
        free(filas);
        fclose(f);
        return 1;
    }
    for (size_t j = 0; j < ncol; j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        if (j) dt__cli_ob_putc(&o, ',');
        dt__cli_ob_put(&o, ci.nombre, strlen(ci.nombre));
    }
    dt__cli_ob_putc(&o, '\n');
    for (uint64_t desde = 0; desde < total && !o.error; desde += LOTE) {
        size_t n = total - desde < LOTE ? (size_t)(total - desde) : LOTE, len;
        dt_status st = dt_esquema_filas(e, t, desde, n, filas, cap, &len);
        if (st == DT_ERR_INVALID_ARG) { /* a row whose arguments from other columns its call refuses */
            fprintf(stderr, "datoteca: %s\n", filas);
            exit(2);
        }
        if (st != DT_OK) { /* rows and buffer were sized above: a bug, say so */
            fprintf(stderr, "datoteca: internal error: dt_esquema_filas: %s\n", dt_status_str(st));
            exit(1);
        }
        for (const char *s = filas; *s;) {
            for (size_t j = 0; j < ncol; j++) {
                const char *fin = s;
                while (*fin != DT_FIELD_SEP && *fin != '\n') fin++;
                size_t k = (size_t)(fin - s);
                if (j) dt__cli_ob_putc(&o, ',');
                if (!(k == 1 && *s == DT_NULO)) dt__cli_csv_field(&o, s, k, 1);
                s = fin + 1;
            }
            dt__cli_ob_putc(&o, '\n');
        }
    }
    dt__cli_ob_flush(&o);
    int rc = o.error;
    dt__cli_ob_free(&o);
    free(filas);
    if (fclose(f) != 0) rc = 1;
    if (rc) fprintf(stderr, "datoteca: cannot write %s\n", ruta);
    return rc;
}

static int csv(const dt_esquema *e, const char *dir) {
    if (dt__cli_mkdir(dir) != 0 && errno != EEXIST) {
        fprintf(stderr, "datoteca: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    size_t nt = dt_esquema_tablas(e), dl = strlen(dir);
    char *ruta = (char *)malloc(dl + 80);
    if (ruta == NULL) return 1;
    snprintf(ruta, dl + 80, "%s/cargar.sql", dir);
    FILE *f = fopen(ruta, "wb");
    if (f == NULL) {
        fprintf(stderr, "datoteca: cannot write %s: %s\n", ruta, strerror(errno));
        free(ruta);
        return 1;
    }
    /* psql runs it from DIR; the DDL is separate (--formato ddl), so constraints can be made first. */
    fprintf(f, "\\set ON_ERROR_STOP on\nBEGIN;\n");
    for (size_t k = 0; k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        fprintf(f, "\\copy %s (", dt_esquema_tabla(e, t));
        for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
            dt_esquema_columna_info ci;
            dt_esquema_columna(e, t, j, &ci);
            fprintf(f, "%s%s", j ? ", " : "", ci.nombre);
        }
        fprintf(f, ") FROM '%s.csv' WITH (FORMAT csv, HEADER true)\n", dt_esquema_tabla(e, t));
    }
    fprintf(f, "COMMIT;\n");
    int rc = fclose(f) != 0;
    for (size_t t = 0; rc == 0 && t < nt; t++) {
        snprintf(ruta, dl + 80, "%s/%s.csv", dir, dt_esquema_tabla(e, t));
        rc = csv_tabla(e, t, ruta);
    }
    free(ruta);
    return rc;
}

int dt__cli_esquema_main(int argc, char **argv) {
    if (argc < 3) return usage_esquema(stderr);
    if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) return usage_esquema(stdout);
    const char *archivo = argv[2], *formato = NULL, *salida = ".";
    unsigned long long seed = 0;
    int32_t hoy[3] = {0, 0, 0};
    dt_dialecto dialecto = DT_SQL_POSTGRESQL;
    for (int i = 3; i < argc; i += 2) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) return usage_esquema(stdout);
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
            if (strcmp(val, "ddl") != 0 && strcmp(val, "csv") != 0) {
                fprintf(stderr, "datoteca: --formato must be ddl or csv, got '%s'\n", val);
                return 2;
            }
            formato = val;
        } else if (strcmp(opt, "--dialecto") == 0) {
            if (strcmp(val, "postgresql") == 0) dialecto = DT_SQL_POSTGRESQL;
            else if (strcmp(val, "sqlite") == 0) dialecto = DT_SQL_SQLITE;
            else {
                fprintf(stderr, "datoteca: --dialecto must be postgresql or sqlite, got '%s'\n", val);
                return 2;
            }
        } else if (strcmp(opt, "--salida") == 0) {
            salida = val;
        } else {
            fprintf(stderr, "datoteca: unexpected argument '%s' ('datoteca esquema --help')\n", opt);
            return 2;
        }
    }
    if (formato == NULL) {
        fprintf(stderr, "datoteca: esquema needs --formato ddl or --formato csv\n");
        return 2;
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
    if (strcmp(formato, "ddl") == 0) {
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
        rc = csv(e, salida);
    }
    dt_esquema_free(e);
    return rc;
}
