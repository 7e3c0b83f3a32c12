/* datoteca detectar FILE [--filas N] [--formato csv|jsonl] [--separador C]: reads a sample (CSV with a
 * header, or JSON Lines whose first object's keys name the columns; up to N records, 1,000 by default; the
 * CSV's separator ',' or, from its header line, ';', unless --separador says, cli_csv.h) and prints the
 * library's proposal of masking rules (dt_detector_*, c/src/mascara/detector.c), so a user finds the
 * columns they forgot (docs/enmascarar.md). Both readers are the strict streaming ones of `enmascarar`.
 * Nothing of the input is printed but its column names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_csv.h"
#include "cli_interno.h"
#include "cli_jsonl.h"
#include "conectar.h"

/* dt_detector_new refuses column names that look like values: a CSV without its header line. The
 * sentence names no field, since each is a value. */
#define DT__SIN_CABECERA                                                                                     \
    "the first line has a field that looks like a value (a number, a RUT, an email, a phone, a date or a "   \
    "name), not a column's name: detectar needs a header line naming the columns (nothing of the line is " \
    "printed)"

static int usage_detectar(FILE *f) {
    fprintf(f, "usage: datoteca detectar FILE [--filas N] [--formato csv|jsonl] [--separador , | ';' | tab | '|']\n"
               "       datoteca detectar URL [--filas N] [--esquema NAME]   (every table of a database: docs/copia.md)\n"
               "Reads FILE (CSV with a header, or JSON Lines: by --formato, else by the extension .jsonl/.ndjson;\n"
               "'-' for stdin) and proposes masking rules for each column, as TOML on stdout, from its first N\n"
               "records (default 1000). Review them before `datoteca enmascarar`.\n"
               "CSV: a UTF-8 byte-order mark at the start is skipped (never part of the first column's name); records\n"
               "end in LF or CRLF, the last one may lack it. --separador C: the field separator, one of , ; tab |\n"
               "(RFC 4180 quoting with it). Without it: ';' when the header line holds a ';' and no ',' outside double\n"
               "quotes, else ',' (data rows are never looked at); a ';' so chosen is said on stderr, and a separator\n"
               "other than ',' is named in a comment after the proposal's first line.\n");
    return f == stdout ? 0 : 2;
}

static size_t dt__leer_archivo(void *ctx, char *buf, size_t cap) {
    FILE *f = (FILE *)ctx;
    size_t n = fread(buf, 1, cap, f);
    if (n == 0 && ferror(f)) return (size_t)-1;
    return n;
}

static int dt__termina_en(const char *s, const char *t) {
    size_t a = strlen(s), b = strlen(t);
    return a > b && strcmp(s + a - b, t) == 0;
}

/* One row's values, as the detector takes them: the reader's pointers, NULL for a JSON null. */
typedef struct dt__fila_muestra {
    const char **valores;
    size_t *largos;
} dt__fila_muestra;

static int dt__fila_nueva(dt__fila_muestra *f, size_t n) {
    f->valores = (const char **)calloc(n ? n : 1, sizeof *f->valores);
    f->largos = (size_t *)calloc(n ? n : 1, sizeof *f->largos);
    return f->valores && f->largos ? 0 : -1;
}

/* Feed the CSV sample to a new detector (*d): 0, 1 (out of memory), 2 (refused, said on stderr).
 * *separador: the byte given, or DT__CSV_SEPARADOR_AUTO; on return the byte used. */
static int dt__muestra_csv(FILE *in, const char *archivo, unsigned long long filas, dt_detector **d, int *separador) {
    dt__csv c;
    dt__fila_muestra f = {NULL, NULL};
    char why[DT_SENTENCE_MAX];
    int rc = 1, r;
    if (dt__csv_init(&c, dt__leer_archivo, in)) goto fin;
    int elegir = *separador == DT__CSV_SEPARADOR_AUTO;
    c.separador = *separador;
    if ((r = dt__csv_registro(&c, why, sizeof why)) <= 0) {
        fprintf(stderr, "datoteca: %s: %s\n", archivo, r == 0 ? "no header: the file is empty" : why);
        rc = 2;
        goto fin;
    }
    *separador = c.separador;
    if (elegir && c.separador != ',')
        fprintf(stderr, "datoteca: detectar: the header line holds ';' and no ',' outside quotes: ';' separates the fields "
                        "(--separador to choose)\n");
    size_t n = c.ncampos;
    if (dt__fila_nueva(&f, n)) goto fin;
    for (size_t j = 0; j < n; j++) f.valores[j] = dt__csv_campo(&c, j, &f.largos[j]);
    dt_status st = dt_detector_new(n, f.valores, f.largos, d);
    if (st == DT_ERR_INVALID_ARG) {
        fprintf(stderr, "datoteca: %s: %s\n", archivo, DT__SIN_CABECERA);
        rc = 2;
        goto fin;
    }
    if (st != DT_OK) goto fin;
    while (dt_detector_filas(*d) < filas && (r = dt__csv_registro(&c, why, sizeof why)) == 1) {
        if (c.ncampos != n) {
            fprintf(stderr, "datoteca: %s: record %llu has %zu fields, the header %zu\n", archivo,
                    (unsigned long long)c.registros, c.ncampos, n);
            rc = 2;
            goto fin;
        }
        for (size_t j = 0; j < n; j++) f.valores[j] = dt__csv_campo(&c, j, &f.largos[j]);
        dt_detector_fila(*d, n, f.valores, f.largos);
    }
    if (r < 0) {
        fprintf(stderr, "datoteca: %s: %s\n", archivo, why);
        rc = 2;
        goto fin;
    }
    rc = 0;
fin:
    free(f.valores);
    free(f.largos);
    dt__csv_free(&c);
    return rc;
}

/* The JSON Lines sample: the first object's keys are the columns, in its order; every later object
 * must have exactly those keys, in any order (as `enmascarar` requires). Returns as dt__muestra_csv. */
static int dt__muestra_jsonl(FILE *in, const char *archivo, unsigned long long filas, dt_detector **d) {
    dt__jsonl j;
    dt__fila_muestra f = {NULL, NULL};
    char **claves = NULL;
    size_t *largos_claves = NULL, n = 0;
    char why[DT_SENTENCE_MAX];
    int rc = 1, r;
    if (dt__jsonl_init(&j, dt__leer_archivo, in)) goto fin;
    while (dt_detector_filas(*d) < filas && (r = dt__jsonl_objeto(&j, why, sizeof why)) == 1) {
        if (*d == NULL) { /* the first line names the columns */
            n = j.nmiembros;
            claves = (char **)calloc(n ? n : 1, sizeof *claves);
            largos_claves = (size_t *)calloc(n ? n : 1, sizeof *largos_claves);
            if (claves == NULL || largos_claves == NULL || dt__fila_nueva(&f, n)) goto fin;
            for (size_t k = 0; k < n; k++) {
                largos_claves[k] = j.m[k].klen;
                if ((claves[k] = (char *)malloc(j.m[k].klen + 1)) == NULL) goto fin;
                memcpy(claves[k], j.texto + j.m[k].kini, j.m[k].klen);
                claves[k][j.m[k].klen] = '\0';
            }
            dt_status st = dt_detector_new(n, (const char *const *)claves, largos_claves, d);
            if (st == DT_ERR_INVALID_ARG) {
                fprintf(stderr, "datoteca: %s: %s\n", archivo, DT__SIN_CABECERA);
                rc = 2;
                goto fin;
            }
            if (st != DT_OK) goto fin;
        }
        if (j.nmiembros != n) {
            fprintf(stderr, "datoteca: %s: line %llu has %zu keys, the first line %zu\n", archivo,
                    (unsigned long long)j.linea_num, j.nmiembros, n);
            rc = 2;
            goto fin;
        }
        for (size_t k = 0; k < n; k++) {
            size_t m = 0;
            while (m < n && !(j.m[m].klen == largos_claves[k] && memcmp(j.texto + j.m[m].kini, claves[k], j.m[m].klen) == 0)) m++;
            if (m == n) {
                fprintf(stderr, "datoteca: %s: line %llu has no key %s (the first line's key %zu)\n", archivo,
                        (unsigned long long)j.linea_num, claves[k], k + 1);
                rc = 2;
                goto fin;
            }
            f.valores[k] = j.m[m].tipo == DT__JSONL_NULO ? NULL : j.texto + j.m[m].vini;
            f.largos[k] = j.m[m].vlen;
        }
        dt_detector_fila(*d, n, f.valores, f.largos);
    }
    if (dt_detector_filas(*d) < filas && r < 0) {
        fprintf(stderr, "datoteca: %s: %s\n", archivo, why);
        rc = 2;
        goto fin;
    }
    if (*d == NULL) {
        fprintf(stderr, "datoteca: %s: no object: the file is empty\n", archivo);
        rc = 2;
        goto fin;
    }
    rc = 0;
fin:
    for (size_t k = 0; claves && k < n; k++) free(claves[k]);
    free(claves);
    free(largos_claves);
    free(f.valores);
    free(f.largos);
    dt__jsonl_free(&j);
    return rc;
}

int dt__cli_detectar_main(int argc, char **argv) {
    if (argc < 3) return usage_detectar(stderr);
    if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) return usage_detectar(stdout);
    const char *archivo = argv[2];
    if (strncmp(archivo, "sqlite:", 7) == 0 || strstr(archivo, "://") != NULL) return dt__cli_detectar_url_main(argc, argv);
    unsigned long long filas = 1000;
    int jsonl = dt__termina_en(archivo, ".jsonl") || dt__termina_en(archivo, ".ndjson");
    int separador = DT__CSV_SEPARADOR_AUTO, separador_dado = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--filas") == 0 && i + 1 < argc) {
            if (!dt__cli_parse_u64(argv[++i], 100000000ULL, &filas) || filas == 0) {
                fprintf(stderr, "datoteca: --filas must be a whole number from 1 to 100000000\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--formato") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(v, "csv") != 0 && strcmp(v, "jsonl") != 0) {
                fprintf(stderr, "datoteca: detectar: --formato must be csv or jsonl\n");
                return 2;
            }
            jsonl = strcmp(v, "jsonl") == 0;
        } else if (strcmp(argv[i], "--separador") == 0 && i + 1 < argc) {
            if (dt__cli_separador(argv[++i], "detectar", &separador)) return 2;
            separador_dado = 1;
        } else {
            /* by position: an argument pasted by mistake may be a key (issue 48) */
            fprintf(stderr, "datoteca: detectar: argument %d is not an option of detectar (or lacks its value)\n", i);
            return usage_detectar(stderr);
        }
    }
    /* The file's name goes into the proposal's first line and its text into the rules' names: a key there
     * (the name, or the text of a key file given by mistake) is refused, never printed (issue 48). */
    if (separador_dado && jsonl) {
        fprintf(stderr, "datoteca: detectar: --separador is for CSV (JSON Lines has no separator to choose)\n");
        return 2;
    }
    if (dt__cli_parece_clave(archivo)) {
        fprintf(stderr, "datoteca: detectar: cannot read the file given: its name holds 64 hexadecimal digits in a row, "
                        "as a masking key does, and is not used\n");
        return 2;
    }
    if (dt__cli_archivo_es_clave(strcmp(archivo, "-") == 0 ? NULL : archivo))
        return dt__cli_rehusar_clave("detectar", strcmp(archivo, "-") == 0 ? "stdin" : "the input", "a table to detect");
    if (dt__termina_en(archivo, ".parquet")) {
        fprintf(stderr, "datoteca: detectar: %s is Parquet, which this build reads through the Python package: "
                        "python -m datoteca detectar %s (needs pyarrow), or datoteca.proponer_reglas\n", archivo, archivo);
        return 2;
    }
    FILE *f = strcmp(archivo, "-") == 0 ? stdin : fopen(archivo, "rb");
    if (f == NULL) {
        /* not the path: a key pasted where the file name goes would be printed back (issue 39) */
        fprintf(stderr, "datoteca: detectar: cannot read the file given: %s\n", strerror(errno));
        return 2;
    }
    dt_detector *d = NULL;
    char *texto = NULL;
    int rc = jsonl ? dt__muestra_jsonl(f, archivo, filas, &d) : dt__muestra_csv(f, archivo, filas, &d, &separador);
    size_t n = 0;
    char nota[256] = "";
    if (rc == 0 && !jsonl && separador != ',') { /* after the proposal's first line: how the CSV was read */
        const char *nombre = separador == ';' ? "';'" : separador == '\t' ? "tab" : "'|'";
        if (separador_dado)
            snprintf(nota, sizeof nota, "# The CSV's fields are separated by %s (--separador): give enmascarar the same --separador.\n",
                     nombre);
        else
            snprintf(nota, sizeof nota, "# The CSV's fields are separated by ';': its header line holds ';' and no ',' outside "
                                        "quotes (enmascarar reads it so too).\n");
    }
    if (rc == 0) {
        size_t k = strlen(nota);
        dt_detector_reglas(d, archivo, NULL, 0, &n);
        texto = (char *)malloc(n + k + 1);
        if (texto == NULL || dt_detector_reglas(d, archivo, texto, n + 1, &n) != DT_OK) rc = 1;
        else if (k) {
            char *fin1 = memchr(texto, '\n', n);
            size_t en = fin1 ? (size_t)(fin1 - texto) + 1 : 0;
            memmove(texto + en + k, texto + en, n - en + 1);
            memcpy(texto + en, nota, k);
            n += k;
        }
    }
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    if (rc == 0 && dt__cli_tiene_clave(texto, n)) {
        /* a column named by 64 hexadecimal digits in a row (a key's text read through a pipe, or pasted into
         * a header): the proposal would print it */
        fprintf(stderr, "datoteca: detectar: a column name of the input holds 64 hexadecimal digits in a row, as a masking "
                        "key does; the proposal is not printed (is the input a key file?)\n");
        rc = 2;
    }
    if (rc == 0 && (fwrite(texto, 1, n, stdout) != n || fflush(stdout) != 0)) {
        fprintf(stderr, "datoteca: cannot write the output: %s\n", strerror(errno));
        rc = 1;
    }
    free(texto);
    dt_detector_free(d);
    if (f != stdin) fclose(f);
    return rc;
}
