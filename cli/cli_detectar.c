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
#include "internal.h"

/* The kinds dt__detectar gives, in the order a column's counts are kept. */
static const char *const dt__clases[] = {"rut", "email", "telefono", "patente", "fecha", "comuna",
                                         "nombre_completo", "nombre", "apellido", "texto"};
#define DT__NCLASES (sizeof dt__clases / sizeof dt__clases[0])

typedef struct dt__columna_muestra {
    char *nombre;
    unsigned long long llenos;              /* non-empty values */
    unsigned long long cuenta[DT__NCLASES]; /* values of each kind */
} dt__columna_muestra;

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

/* A TOML basic string. */
static void dt__texto_toml(const char *s) {
    putchar('"');
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if ((unsigned char)*p < 0x20) printf("\\u%04x", (unsigned char)*p);
        else putchar(*p);
    }
    putchar('"');
}

/* A TOML key for a column name: bare when it is letters, digits, '_' and '-', else quoted. */
static void dt__clave_toml(const char *s) {
    int desnuda = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')) desnuda = 0;
    if (desnuda) fputs(s, stdout);
    else dt__texto_toml(s);
}

static int dt__contiene(const char *s, const char *t) { return strstr(s, t) != NULL; }

/* `s` holds `t` (ASCII letters compared without case). */
static int dt__contiene_sin_caso(const char *s, const char *t) {
    size_t n = strlen(t);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && ((s[i] | 0x20) == (t[i] | 0x20))) i++;
        if (i == n) return 1;
    }
    return 0;
}

/* The persona field a column's name says it holds, for the columns whose values the detectar utility
 * cannot tell from other text (an address, a region, a sex, the CUT codes): NULL for none. */
static const char *dt__campo_por_nombre(const char *nombre) {
    if (dt__contiene_sin_caso(nombre, "cod")) { /* codigo_comuna, cod_region: the CUT codes of the persona's address */
        if (dt__contiene_sin_caso(nombre, "comuna")) return "codigo_comuna";
        if (dt__contiene_sin_caso(nombre, "region") || dt__contiene_sin_caso(nombre, "regi\xc3\xb3n")) return "codigo_region";
        return NULL;
    }
    if (dt__contiene_sin_caso(nombre, "direcc") || dt__contiene_sin_caso(nombre, "domicilio")) return "direccion";
    if (dt__contiene_sin_caso(nombre, "region") || dt__contiene_sin_caso(nombre, "regi\xc3\xb3n")) return "region";
    if (dt__contiene_sin_caso(nombre, "sexo") || dt__contiene_sin_caso(nombre, "genero") ||
        dt__contiene_sin_caso(nombre, "g\xc3\xa9nero"))
        return "sexo";
    return NULL;
}

/* The rule for a column whose values are mostly of kind `clase` (-1 for none), with the entity
 * column (the first mostly-RUT one) when there is one. Returns 1 when the column's name chose it. */
static int dt__regla(const dt__columna_muestra *c, int clase, const char *entidad) {
    const char *k = clase >= 0 ? dt__clases[clase] : "";
    const char *campo = NULL;
    const char *por_nombre = clase < 0 && entidad ? dt__campo_por_nombre(c->nombre) : NULL;
    if (por_nombre) {
        printf("{ regla = \"persona\", campo = \"%s\", entidad = ", por_nombre);
        dt__texto_toml(entidad);
        printf(" }");
        return 1;
    }
    if (strcmp(k, "rut") == 0) {
        printf("{ regla = \"rut\" }");
        return 0;
    }
    if (strcmp(k, "email") == 0) campo = "email";
    else if (strcmp(k, "telefono") == 0) campo = "telefono";
    else if (strcmp(k, "nombre_completo") == 0) campo = "nombre_completo";
    else if (strcmp(k, "nombre") == 0) campo = "nombres";
    else if (strcmp(k, "apellido") == 0) campo = dt__contiene(c->nombre, "materno") ? "apellido_materno" : "apellido_paterno";
    else if (strcmp(k, "comuna") == 0) campo = "comuna";
    else if (strcmp(k, "fecha") == 0 && dt__contiene(c->nombre, "nac")) campo = "fecha_nacimiento";
    if (campo && entidad) {
        printf("{ regla = \"persona\", campo = \"%s\", entidad = ", campo);
        dt__texto_toml(entidad);
        printf(" }");
    } else if (campo && strcmp(campo, "fecha_nacimiento") != 0) {
        printf("{ regla = \"sustituir\", tipo = \"%s\" }", k);
    } else if (strcmp(k, "fecha") == 0) {
        printf("{ regla = \"fecha\", dias = 30 }");
    } else if (strcmp(k, "patente") == 0) {
        printf("{ regla = \"patente\" }");
    } else if (strcmp(k, "texto") == 0) {
        printf("{ regla = \"texto\" }");
    } else {
        printf("{ regla = \"mantener\" }");
    }
    return 0;
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
    FILE *f = strcmp(archivo, "-") == 0 ? stdin : fopen(archivo, "rb");
    if (f == NULL) {
        fprintf(stderr, "datoteca: cannot read %s: %s\n", archivo, strerror(errno));
        return 2;
    }
    dt__csv c;
    char why[DT_SENTENCE_MAX];
    int rc = 0;
    dt__columna_muestra *cols = NULL;
    size_t ncols = 0;
    unsigned long long leidos = 0;
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
    cols = (dt__columna_muestra *)calloc(ncols, sizeof *cols);
    if (cols == NULL) {
        fprintf(stderr, "datoteca: out of memory\n");
        rc = 1;
        goto fin;
    }
    for (size_t j = 0; j < ncols; j++) {
        size_t n;
        const char *s = dt__csv_campo(&c, j, &n);
        cols[j].nombre = (char *)malloc(n + 1);
        if (cols[j].nombre == NULL) {
            fprintf(stderr, "datoteca: out of memory\n");
            rc = 1;
            goto fin;
        }
        memcpy(cols[j].nombre, s, n);
        cols[j].nombre[n] = '\0';
    }
    while (leidos < filas && (r = dt__csv_registro(&c, why, sizeof why)) == 1) {
        if (c.ncampos != ncols) {
            fprintf(stderr, "datoteca: %s: record %llu has %zu fields, the header %zu\n", archivo, (unsigned long long)c.registros,
                    c.ncampos, ncols);
            rc = 2;
            goto fin;
        }
        for (size_t j = 0; j < ncols; j++) {
            size_t n;
            const char *s = dt__csv_campo(&c, j, &n);
            if (n == 0) continue;
            cols[j].llenos++;
            const char *k = dt__detectar(s, n);
            for (size_t q = 0; q < DT__NCLASES; q++)
                if (strcmp(k, dt__clases[q]) == 0) cols[j].cuenta[q]++;
        }
        leidos++;
    }
    if (r < 0) {
        fprintf(stderr, "datoteca: %s: %s\n", archivo, why);
        rc = 2;
        goto fin;
    }
    const char *entidad = NULL;
    int *clase = (int *)malloc((ncols ? ncols : 1) * sizeof *clase);
    if (clase == NULL) {
        rc = 1;
        goto fin;
    }
    for (size_t j = 0; j < ncols; j++) {
        /* the kind of most non-empty values; else free text when 1 % of them or more are words holding
         * a RUT, an email or a phone (a number alone that happens to pass a RUT's check, as 1 in 11
         * do, is not) */
        int mejor = -1;
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (cols[j].cuenta[q] * 2 > cols[j].llenos && (mejor < 0 || cols[j].cuenta[q] > cols[j].cuenta[mejor])) mejor = (int)q;
        unsigned long long textos = cols[j].cuenta[DT__NCLASES - 1];
        if (mejor < 0 && textos > 0 && textos * 100 >= cols[j].llenos) mejor = (int)(DT__NCLASES - 1);
        clase[j] = mejor;
        if (mejor == 0 && entidad == NULL) entidad = cols[j].nombre;
    }
    printf("# datoteca detectar %s: %llu records read, %zu columns.\n", archivo, leidos, ncols);
    printf("# Proposed masking rules (docs/enmascarar.md): review each before use. After each rule, the kinds\n"
           "# its non-empty values look like, as counts.\n");
    printf("version = 1\n\n[columnas]\n");
    for (size_t j = 0; j < ncols; j++) {
        dt__clave_toml(cols[j].nombre);
        printf(" = ");
        int por_nombre = dt__regla(&cols[j], clase[j], entidad);
        printf("  # %llu non-empty", cols[j].llenos);
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (cols[j].cuenta[q]) printf(", %s %llu", dt__clases[q], cols[j].cuenta[q]);
        if (por_nombre) printf(": by the column's name");
        else if (clase[j] < 0) printf(": nothing personal found");
        printf("\n");
    }
    free(clase);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "datoteca: cannot write the output: %s\n", strerror(errno));
        rc = 1;
    }
fin:
    for (size_t j = 0; j < ncols && cols; j++) free(cols[j].nombre);
    free(cols);
    dt__csv_free(&c);
    if (f != stdin) fclose(f);
    return rc;
}
