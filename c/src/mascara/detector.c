/* Proposing masking rules from a sample (docs/enmascarar.md, "Finding the personal data"): every
 * non-empty value of a column is judged by the `detectar` utility (c/src/ns/detectar.c), the counts are
 * kept per column, and the proposal picks one rule per column from them, as TOML. The CLI's
 * `detectar` (CSV, JSONL) and Python's `proponer_reglas` (Arrow, Parquet) feed the same detector, so
 * they propose the same rules for the same values. Nothing of the values is kept or written: only the
 * column names (the user's) and integer counts. */
#include <stdlib.h>

#include "internal.h"

/* The kinds dt__detectar gives, in the order a column's counts are kept. */
static const char *const dt__clases[] = {"rut", "email", "telefono", "patente", "fecha", "comuna",
                                         "nombre_completo", "nombre", "apellido", "texto"};
#define DT__NCLASES (sizeof dt__clases / sizeof dt__clases[0])
#define DT__CLASE_TEXTO ((int)DT__NCLASES - 1)

typedef struct dt__dcol {
    char *nombre;
    uint64_t llenos;              /* non-empty values */
    uint64_t cuenta[DT__NCLASES]; /* values of each kind */
} dt__dcol;

struct dt_detector {
    dt__dcol *col;
    size_t n;
    uint64_t filas;
};

void dt_detector_free(dt_detector *d) {
    if (d == NULL) return;
    for (size_t j = 0; j < d->n; j++) free(d->col[j].nombre);
    free(d->col);
    free(d);
}

dt_status dt_detector_new(size_t n, const char *const *columnas, const size_t *largos, dt_detector **out) {
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    if (n > 0 && (columnas == NULL || largos == NULL)) return DT_ERR_NULL;
    for (size_t j = 0; j < n; j++)
        if (columnas[j] == NULL && largos[j] > 0) return DT_ERR_NULL;
    dt_detector *d = (dt_detector *)calloc(1, sizeof *d);
    if (d == NULL) return DT_ERR_NO_MEMORY;
    d->col = (dt__dcol *)calloc(n ? n : 1, sizeof *d->col);
    if (d->col == NULL) {
        free(d);
        return DT_ERR_NO_MEMORY;
    }
    d->n = n;
    for (size_t j = 0; j < n; j++) {
        d->col[j].nombre = (char *)malloc(largos[j] + 1);
        if (d->col[j].nombre == NULL) {
            dt_detector_free(d);
            return DT_ERR_NO_MEMORY;
        }
        if (largos[j]) memcpy(d->col[j].nombre, columnas[j], largos[j]);
        d->col[j].nombre[largos[j]] = '\0';
    }
    *out = d;
    return DT_OK;
}

dt_status dt_detector_fila(dt_detector *d, size_t n, const char *const *valores, const size_t *largos) {
    if (d == NULL || (n > 0 && (valores == NULL || largos == NULL))) return DT_ERR_NULL;
    if (n != d->n) return DT_ERR_INVALID_ARG;
    for (size_t j = 0; j < n; j++) {
        if (valores[j] == NULL || largos[j] == 0) continue;
        d->col[j].llenos++;
        const char *k = dt__detectar(valores[j], largos[j]);
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (strcmp(k, dt__clases[q]) == 0) d->col[j].cuenta[q]++;
    }
    d->filas++;
    return DT_OK;
}

uint64_t dt_detector_filas(const dt_detector *d) { return d ? d->filas : 0; }

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

/* A TOML basic string. */
static void dt__toml_texto(dt__creciente *x, const char *s) {
    dt__tx(x, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\') dt__tx(x, "\\%c", *p);
        else if ((unsigned char)*p < 0x20 || *p == 0x7f) dt__tx(x, "\\u%04x", (unsigned)(unsigned char)*p);
        else dt__tx(x, "%c", *p);
    }
    dt__tx(x, "\"");
}

/* A TOML key for a column name: bare when it is letters, digits, '_' and '-', else quoted. */
static void dt__toml_clave(dt__creciente *x, const char *s) {
    int desnuda = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')) desnuda = 0;
    if (desnuda) dt__tx(x, "%s", s);
    else dt__toml_texto(x, s);
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

static void dt__persona(dt__creciente *x, const char *campo, const char *entidad) {
    dt__tx(x, "{ regla = \"persona\", campo = \"%s\", entidad = ", campo);
    dt__toml_texto(x, entidad);
    dt__tx(x, " }");
}

/* The rule for a column whose values are mostly of kind `clase` (-1 for none), with the entity column
 * (the first mostly-RUT one) when there is one. Returns 1 when the column's name chose it. */
static int dt__regla(dt__creciente *x, const dt__dcol *c, int clase, const char *entidad) {
    const char *k = clase >= 0 ? dt__clases[clase] : "";
    const char *por_nombre = clase < 0 && entidad ? dt__campo_por_nombre(c->nombre) : NULL;
    if (por_nombre) {
        dt__persona(x, por_nombre, entidad);
        return 1;
    }
    const char *campo = NULL;    /* the persona field, with an entity */
    const char *llamada = NULL;  /* the call a value-keyed substitution draws from, without one */
    if (strcmp(k, "email") == 0) campo = "email";
    else if (strcmp(k, "telefono") == 0) campo = "telefono";
    else if (strcmp(k, "nombre_completo") == 0) campo = "nombre_completo", llamada = "persona.nombre_completo";
    else if (strcmp(k, "nombre") == 0) campo = "nombres", llamada = "persona.nombres";
    else if (strcmp(k, "apellido") == 0)
        campo = dt__contiene(c->nombre, "materno") ? "apellido_materno" : "apellido_paterno", llamada = "persona.apellido";
    else if (strcmp(k, "comuna") == 0) campo = "comuna", llamada = "direccion.comuna";
    else if (strcmp(k, "fecha") == 0 && dt__contiene(c->nombre, "nac")) campo = "fecha_nacimiento";
    if (strcmp(k, "rut") == 0) dt__tx(x, "{ regla = \"rut\" }");
    else if (campo && entidad) dt__persona(x, campo, entidad);
    else if (strcmp(k, "email") == 0 || strcmp(k, "telefono") == 0 || strcmp(k, "patente") == 0 || strcmp(k, "texto") == 0)
        dt__tx(x, "{ regla = \"%s\" }", k);
    else if (llamada) dt__tx(x, "{ regla = \"sustituir\", llamada = \"%s\" }", llamada);
    else if (strcmp(k, "fecha") == 0 && entidad) {
        dt__tx(x, "{ regla = \"fecha\", dias = 30, entidad = ");
        dt__toml_texto(x, entidad);
        dt__tx(x, " }");
    } else if (strcmp(k, "fecha") == 0) dt__tx(x, "{ regla = \"fecha\", dias = 30 }");
    else dt__tx(x, "{ regla = \"mantener\" }");
    return 0;
}

dt_status dt_detector_reglas(const dt_detector *d, const char *origen, char *buf, size_t cap, size_t *len) {
    if (d == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    int *clase = (int *)malloc((d->n ? d->n : 1) * sizeof *clase);
    if (clase == NULL) return DT_ERR_NO_MEMORY;
    const char *entidad = NULL;
    for (size_t j = 0; j < d->n; j++) {
        /* the kind of most non-empty values; else free text when 1 % of them or more are words holding
         * a RUT, an email or a phone (a number alone that happens to pass a RUT's check, as 1 in 11
         * do, is not) */
        const dt__dcol *c = &d->col[j];
        int mejor = -1;
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (c->cuenta[q] * 2 > c->llenos && (mejor < 0 || c->cuenta[q] > c->cuenta[mejor])) mejor = (int)q;
        uint64_t textos = c->cuenta[DT__CLASE_TEXTO];
        if (mejor < 0 && textos > 0 && textos * 100 >= c->llenos) mejor = DT__CLASE_TEXTO;
        clase[j] = mejor;
        if (mejor == 0 && entidad == NULL) entidad = c->nombre;
    }
    dt__creciente x = {NULL, 0, 0, 0};
    dt__tx(&x, "# datoteca detectar %s: %llu records read, %zu columns.\n", origen ? origen : "<sample>",
           (unsigned long long)d->filas, d->n);
    dt__tx(&x, "# Proposed masking rules (docs/enmascarar.md): review each before use. After each rule, the kinds\n"
               "# its non-empty values look like, as counts.\n");
    dt__tx(&x, "version = 1\n\n[columnas]\n");
    for (size_t j = 0; j < d->n; j++) {
        const dt__dcol *c = &d->col[j];
        dt__toml_clave(&x, c->nombre);
        dt__tx(&x, " = ");
        int por_nombre = dt__regla(&x, c, clase[j], entidad);
        dt__tx(&x, "  # %llu non-empty", (unsigned long long)c->llenos);
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (c->cuenta[q]) dt__tx(&x, ", %s %llu", dt__clases[q], (unsigned long long)c->cuenta[q]);
        if (por_nombre) dt__tx(&x, ": by the column's name");
        else if (clase[j] < 0) dt__tx(&x, ": nothing personal found");
        dt__tx(&x, "\n");
    }
    free(clase);
    if (x.sin_memoria) {
        free(x.p);
        return DT_ERR_NO_MEMORY;
    }
    dt_status st = dt__copy_out(x.p ? x.p : "", x.n, buf, cap, len);
    free(x.p);
    return st;
}
