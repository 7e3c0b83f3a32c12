/* datoteca enmascarar --reglas REGLAS (--clave-archivo FILE | DATOTECA_CLAVE) [--salida FILE]:
 * masks a CSV from stdin, one record at a time (constant memory), under the rules and the key
 * (docs/enmascarar.md). The rules and the masking are the library's (dt_mascara_plan); this file
 * reads and writes. Three things it never does: take the key from argv, print any part of the key,
 * or print a value of the input (refusals name the row, the line and the column). With --salida the
 * output goes to a temporary file in the same directory, renamed at the end, so a refused record, a
 * write error or a truncated input leaves no file that looks complete. Exit: 0, 2 for a refused
 * input (rules, key, CSV, a value), 1 for an I/O error. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include "cli_csv.h"
#include "cli_interno.h"
#include "internal.h"
#include "mascara/prf.h"

#define DT__ENM_ARCHIVO_MAX (1u << 20) /* the rules document's bound (the parser's own) */

static int usage_enmascarar(FILE *f) {
    fprintf(f,
            "usage: datoteca enmascarar --reglas REGLAS.toml (--clave-archivo CLAVE.hex | env DATOTECA_CLAVE)\n"
            "                           [--salida FILE] < in.csv > out.csv\n"
            "Masks a CSV (a header, then records) from stdin under the masking rules REGLAS (TOML, or JSON when\n"
            "the name ends in .json; `datoteca detectar` proposes them) and a secret key, one record at a time.\n"
            "The key is 64 hexadecimal digits (32 bytes): read from the file given to --clave-archivo, or else from\n"
            "the environment variable DATOTECA_CLAVE; never from the command line, and never printed.\n"
            "Make one with: openssl rand -hex 32 > clave.hex\n"
            "--salida FILE writes FILE through a temporary file renamed at the end (nothing is left on an error).\n"
            "Exit status: 0; 2 for refused rules, key or input (naming row and column, never a value); 1 for I/O.\n"
            "See docs/enmascarar.md.\n");
    return f == stdout ? 0 : 2;
}

static size_t dt__enm_leer(void *ctx, char *buf, size_t cap) {
    FILE *f = (FILE *)ctx;
    size_t n = fread(buf, 1, cap, f);
    if (n == 0 && ferror(f)) return (size_t)-1;
    return n;
}

/* A whole small file into a new buffer (NUL-terminated), or NULL with errno set (EFBIG when longer
 * than `max`). */
static char *dt__enm_archivo(const char *ruta, size_t max, size_t *len) {
    FILE *f = fopen(ruta, "rb");
    if (f == NULL) return NULL;
    char *b = malloc(max + 2);
    if (b == NULL) {
        fclose(f);
        errno = ENOMEM;
        return NULL;
    }
    size_t n = fread(b, 1, max + 1, f);
    int err = ferror(f);
    fclose(f);
    if (err || n > max) {
        dt__borrar(b, max + 2);
        free(b);
        errno = err ? EIO : EFBIG;
        return NULL;
    }
    b[n] = '\0';
    *len = n;
    return b;
}

static int dt__enm_termina(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

int dt__cli_enmascarar_main(int argc, char **argv) {
    const char *reglas_ruta = NULL, *clave_ruta = NULL, *salida = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return usage_enmascarar(stdout);
        if (strncmp(a, "--clave", 7) == 0 && strncmp(a, "--clave-archivo", 15) != 0) {
            /* never echo it, nor what follows it: that is a key */
            fprintf(stderr, "datoteca: enmascarar: the key is never taken from the command line (it would be in the "
                            "shell's history and the process list): give it with --clave-archivo FILE or the "
                            "environment variable DATOTECA_CLAVE\n");
            return 2;
        }
        if ((strcmp(a, "--reglas") == 0 || strcmp(a, "--clave-archivo") == 0 || strcmp(a, "--salida") == 0) && i + 1 < argc) {
            const char **d = a[2] == 'r' ? &reglas_ruta : a[2] == 'c' ? &clave_ruta : &salida;
            *d = argv[++i];
        } else {
            /* by position only: a key pasted by mistake must not be printed */
            fprintf(stderr, "datoteca: enmascarar: argument %d is not an option of enmascarar (or lacks its value)\n", i);
            return usage_enmascarar(stderr);
        }
    }
    if (reglas_ruta == NULL) {
        fprintf(stderr, "datoteca: enmascarar: --reglas FILE is required (`datoteca detectar` proposes the rules)\n");
        return 2;
    }
    const char *env = getenv("DATOTECA_CLAVE");
    if (clave_ruta == NULL && (env == NULL || env[0] == '\0')) {
        fprintf(stderr, "datoteca: enmascarar: no key: give --clave-archivo FILE or set the environment variable "
                        "DATOTECA_CLAVE (64 hexadecimal digits)\n");
        return 2;
    }

    int rc = 0;
    char why[DT_SENTENCE_MAX];
    dt_mascara_reglas *reglas = NULL;
    dt_mascara_clave *clave = NULL;
    dt_mascara_plan *plan = NULL;
    dt__csv c;
    int csv_listo = 0;
    outbuf o;
    int ob_listo = 0;
    FILE *out = stdout;
    char *tmp = NULL;
    const char **vals = NULL;
    size_t *lens = NULL;

    size_t n;
    char *texto = dt__enm_archivo(reglas_ruta, DT__ENM_ARCHIVO_MAX, &n);
    if (texto == NULL) {
        fprintf(stderr, "datoteca: enmascarar: cannot read the rules %s: %s\n", reglas_ruta,
                errno == EFBIG ? "longer than 1 MiB" : strerror(errno));
        return 2;
    }
    dt_status st = dt_mascara_reglas_new(texto, n, dt__enm_termina(reglas_ruta, ".json") ? DT_MASCARA_JSON : DT_MASCARA_TOML,
                                         reglas_ruta, &reglas, why, sizeof why);
    free(texto);
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: enmascarar: %s\n", why);
        return st == DT_ERR_NO_MEMORY ? 1 : 2;
    }

    if (clave_ruta != NULL) {
        char *k = dt__enm_archivo(clave_ruta, 4096, &n);
        if (k == NULL) {
            fprintf(stderr, "datoteca: enmascarar: cannot read the key file %s: %s\n", clave_ruta,
                    errno == EFBIG ? "too long for a key" : strerror(errno));
            rc = 2;
            goto fin;
        }
        st = dt_mascara_clave_new(k, n, &clave, why, sizeof why);
        dt__borrar(k, n);
        free(k);
    } else {
        st = dt_mascara_clave_new(env, strlen(env), &clave, why, sizeof why);
    }
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: enmascarar: %s (from %s)\n", why, clave_ruta ? "--clave-archivo" : "DATOTECA_CLAVE");
        rc = 2;
        goto fin;
    }

    if (dt__csv_init(&c, dt__enm_leer, stdin)) {
        fprintf(stderr, "datoteca: out of memory\n");
        rc = 1;
        goto fin;
    }
    csv_listo = 1;
    int r = dt__csv_registro(&c, why, sizeof why);
    if (r <= 0) {
        fprintf(stderr, "datoteca: enmascarar: the input: %s\n", r == 0 ? "no header: the input is empty" : why);
        rc = 2;
        goto fin;
    }
    size_t ncols = c.ncampos;
    vals = malloc(ncols * sizeof *vals);
    lens = malloc(ncols * sizeof *lens);
    if (vals == NULL || lens == NULL) {
        fprintf(stderr, "datoteca: out of memory\n");
        rc = 1;
        goto fin;
    }
    for (size_t j = 0; j < ncols; j++) vals[j] = dt__csv_campo(&c, j, &lens[j]);
    st = dt_mascara_plan_new(reglas, clave, ncols, vals, lens, &plan, why, sizeof why);
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: enmascarar: %s\n", why);
        rc = st == DT_ERR_NO_MEMORY ? 1 : 2;
        goto fin;
    }

    if (salida != NULL) {
        size_t sl = strlen(salida);
        tmp = malloc(sl + 16);
        if (tmp == NULL) {
            fprintf(stderr, "datoteca: out of memory\n");
            rc = 1;
            goto fin;
        }
        memcpy(tmp, salida, sl);
        memcpy(tmp + sl, ".tmp-XXXXXX", 12);
#ifdef _WIN32
        out = _mktemp_s(tmp, sl + 12) == 0 ? fopen(tmp, "wb") : NULL;
#else
        int fd = mkstemp(tmp);
        out = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (fd >= 0 && out == NULL) close(fd);
#endif
        if (out == NULL) {
            fprintf(stderr, "datoteca: enmascarar: cannot create a temporary file next to %s: %s\n", salida, strerror(errno));
            free(tmp);
            tmp = NULL;
            out = stdout;
            rc = 1;
            goto fin;
        }
    }
    if (dt__cli_ob_init(&o, 1 << 16, out)) {
        fprintf(stderr, "datoteca: out of memory\n");
        rc = 1;
        goto fin;
    }
    ob_listo = 1;
    size_t nsal = dt_mascara_plan_ncolumnas(plan);
    for (size_t j = 0; j < nsal; j++) {
        size_t m;
        const char *s = dt_mascara_plan_columna(plan, j, &m);
        if (j) dt__cli_ob_putc(&o, ',');
        dt__cli_csv_field(&o, s, m, 0);
    }
    dt__cli_ob_putc(&o, '\n');
    for (;;) {
        unsigned long long linea = (unsigned long long)c.linea;
        r = dt__csv_registro(&c, why, sizeof why);
        if (r == 0) break;
        if (r < 0) {
            fprintf(stderr, "datoteca: enmascarar: the input: %s\n", why);
            rc = 2;
            goto fin;
        }
        unsigned long long fila = (unsigned long long)c.registros - 1;
        if (c.ncampos != ncols) {
            fprintf(stderr, "datoteca: enmascarar: line %llu: row %llu has %zu fields, the header %zu\n", linea, fila,
                    c.ncampos, ncols);
            rc = 2;
            goto fin;
        }
        for (size_t j = 0; j < ncols; j++) vals[j] = dt__csv_campo(&c, j, &lens[j]);
        st = dt_mascara_plan_fila(plan, fila, ncols, vals, lens, why, sizeof why);
        if (st != DT_OK) {
            fprintf(stderr, "datoteca: enmascarar: line %llu: %s\n", linea, why);
            rc = st == DT_ERR_NO_MEMORY ? 1 : 2;
            goto fin;
        }
        for (size_t j = 0; j < nsal; j++) {
            size_t m;
            const char *s = dt_mascara_plan_valor(plan, j, &m);
            if (j) dt__cli_ob_putc(&o, ',');
            dt__cli_csv_field(&o, s, m, 0);
        }
        dt__cli_ob_putc(&o, '\n');
        if (o.error) break;
    }
    dt__cli_ob_flush(&o);
    if (o.error || fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "datoteca: enmascarar: cannot write the output: %s\n", strerror(errno));
        rc = 1;
        goto fin;
    }
    if (tmp != NULL) {
        int e = fclose(out);
        out = NULL;
        if (e != 0) {
            fprintf(stderr, "datoteca: enmascarar: cannot write the output: %s\n", strerror(errno));
            rc = 1;
            goto fin;
        }
#ifdef _WIN32
        remove(salida); /* rename does not replace on Windows */
#endif
        if (rename(tmp, salida) != 0) {
            fprintf(stderr, "datoteca: enmascarar: cannot rename the temporary file to %s: %s\n", salida, strerror(errno));
            rc = 1;
            goto fin;
        }
        free(tmp);
        tmp = NULL;
    }
fin:
    if (ob_listo) dt__cli_ob_free(&o); /* not flushed: on an error the rest is dropped */
    if (tmp != NULL) {
        if (out != NULL) fclose(out);
        remove(tmp);
        free(tmp);
    }
    free(vals);
    free(lens);
    if (csv_listo) dt__csv_free(&c);
    dt_mascara_plan_free(plan);
    dt_mascara_clave_free(clave);
    dt_mascara_reglas_free(reglas);
    return rc;
}
