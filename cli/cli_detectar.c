/* datoteca detectar FILE [--filas N]: reads a CSV sample (a header, then up to N records; 1,000 by
 * default) and proposes masking rules, one per column, from what its values look like (the
 * `detectar` utility, c/src/ns/detectar.c), so a user finds the columns they forgot (docs/enmascarar.md).
 * The proposal is TOML on stdout; every count is an integer. Nothing of the input is printed but
 * its column names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_csv.h"
#include "cli_interno.h"

static int usage_detectar(FILE *f) {
    fprintf(f, "usage: datoteca detectar FILE [--filas N]\n"
               "Reads FILE (CSV with a header; '-' for stdin) and proposes masking rules for each column, as TOML\n"
               "on stdout, from its first N records (default 1000). Review them before `datoteca enmascarar`.\n");
    return f == stdout ? 0 : 2;
}

static size_t dt__leer_archivo(void *ctx, char *buf, size_t cap) {
    FILE *f = (FILE *)ctx;
    size_t n = fread(buf, 1, cap, f);
    if (n == 0 && ferror(f)) return (size_t)-1;
    return n;
}

int dt__cli_detectar_main(int argc, char **argv) {
    if (argc < 3) return usage_detectar(stderr);
    if (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0) return usage_detectar(stdout);
    const char *archivo = argv[2];
    unsigned long long filas = 1000;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--filas") == 0 && i + 1 < argc) {
            if (!dt__cli_parse_u64(argv[++i], 100000000ULL, &filas) || filas == 0) {
                fprintf(stderr, "datoteca: --filas must be a whole number from 1 to 100000000\n");
                return 2;
            }
        } else {
            fprintf(stderr, "datoteca: detectar: unknown option '%s'\n", argv[i]);
            return usage_detectar(stderr);
        }
    }
    size_t la = strlen(archivo);
    if (la > 8 && strcmp(archivo + la - 8, ".parquet") == 0) {
        fprintf(stderr, "datoteca: detectar: %s is Parquet, which this build reads through the Python package: "
                        "python -m datoteca detectar %s (needs pyarrow), or datoteca.proponer_reglas\n", archivo, archivo);
        return 2;
    }
    FILE *f = strcmp(archivo, "-") == 0 ? stdin : fopen(archivo, "rb");
    if (f == NULL) {
        fprintf(stderr, "datoteca: cannot read %s: %s\n", archivo, strerror(errno));
        return 2;
    }
    dt__csv c;
    char why[DT_SENTENCE_MAX];
    int rc = 0;
    dt_detector *d = NULL;
    const char **valores = NULL;
    size_t *largos = NULL, ncols = 0;
    char *texto = NULL;
    if (dt__csv_init(&c, dt__leer_archivo, f)) {
        fprintf(stderr, "datoteca: out of memory\n");
        rc = 1;
        goto fin;
    }
    int r = dt__csv_registro(&c, why, sizeof why);
    if (r <= 0) {
        fprintf(stderr, "datoteca: %s: %s\n", archivo, r == 0 ? "no header: the file is empty" : why);
        rc = 2;
        goto fin;
    }
    ncols = c.ncampos;
    valores = (const char **)calloc(ncols ? ncols : 1, sizeof *valores);
    largos = (size_t *)calloc(ncols ? ncols : 1, sizeof *largos);
    if (valores == NULL || largos == NULL) goto sin_memoria;
    for (size_t j = 0; j < ncols; j++) valores[j] = dt__csv_campo(&c, j, &largos[j]);
    if (dt_detector_new(ncols, valores, largos, &d) != DT_OK) goto sin_memoria;
    while (dt_detector_filas(d) < filas && (r = dt__csv_registro(&c, why, sizeof why)) == 1) {
        if (c.ncampos != ncols) {
            fprintf(stderr, "datoteca: %s: record %llu has %zu fields, the header %zu\n", archivo, (unsigned long long)c.registros,
                    c.ncampos, ncols);
            rc = 2;
            goto fin;
        }
        for (size_t j = 0; j < ncols; j++) valores[j] = dt__csv_campo(&c, j, &largos[j]);
        dt_detector_fila(d, ncols, valores, largos);
    }
    if (r < 0) {
        fprintf(stderr, "datoteca: %s: %s\n", archivo, why);
        rc = 2;
        goto fin;
    }
    size_t n = 0;
    dt_detector_reglas(d, archivo, NULL, 0, &n);
    texto = (char *)malloc(n + 1);
    if (texto == NULL || dt_detector_reglas(d, archivo, texto, n + 1, &n) != DT_OK) goto sin_memoria;
    if (fwrite(texto, 1, n, stdout) != n || fflush(stdout) != 0) {
        fprintf(stderr, "datoteca: cannot write the output: %s\n", strerror(errno));
        rc = 1;
    }
    goto fin;
sin_memoria:
    fprintf(stderr, "datoteca: out of memory\n");
    rc = 1;
fin:
    free(texto);
    free(valores);
    free(largos);
    dt_detector_free(d);
    dt__csv_free(&c);
    if (f != stdin) fclose(f);
    return rc;
}
