/* datoteca detectar URL [--filas N] [--esquema NAME]: one masking rules document for every table of a
 * live database (docs/copia.md). Each table's sample (its first N rows, 1,000 by default, read by the
 * connector of `datoteca inferir`) goes through the library's detector, which writes that table's
 * `[tablas.<name>.columnas]`; this file only reads, feeds and joins them under one head. Nothing of the
 * database is printed but its tables' and columns' names, the origin without its password, and counts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "conectar.h"

static int usage_detectar_url(FILE *f) {
    fprintf(f, "usage: datoteca detectar URL [--filas N] [--esquema NAME]\n"
               "Reads every table of the database at URL (sqlite:PATH, postgresql://..., mariadb://...), its first N\n"
               "rows (default 1000), and proposes masking rules for every table.column, as one TOML document on\n"
               "stdout (docs/copia.md). Review them before masking.\n");
    return f == stdout ? 0 : 2;
}

/* A table's name in the document: "esquema.tabla" outside PostgreSQL's public schema (the extension's
 * regclass text), else the bare name. */
static void nombre_tabla(const dt__ic_modelo *m, const dt__ic_tabla *t, char *out, size_t cap) {
    if (m->dialecto == DT__IC_PG && t->esquema && strcmp(t->esquema, "public") != 0)
        snprintf(out, cap, "%s.%s", t->esquema, t->nombre);
    else snprintf(out, cap, "%s", t->nombre);
}

/* Whether the database says a column holds times: a timestamp type, or (SQLite, whose types are names) a
 * DEFAULT of the current time. */
static int es_timestamp(const dt__ic_col *c) {
    if (c->clase == DT__IC_TIMESTAMP || c->clase == DT__IC_TIMESTAMPTZ) return 1;
    if (c->defecto == NULL) return 0;
    char d[64];
    size_t n = 0;
    for (const char *p = c->defecto; *p && n + 1 < sizeof d; p++) d[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    d[n] = '\0';
    return strstr(d, "current_timestamp") != NULL || strstr(d, "now()") != NULL;
}

/* What the detector is told of a column's type (dt_detector_tipo). */
static int tipo_detector(const dt__ic_col *c) {
    if (es_timestamp(c)) return DT_DETECTOR_TIMESTAMP;
    if (c->tipo && strcmp(c->tipo, "uuid") == 0) return DT_DETECTOR_UUID;
    if (c->nvalores > 0 || c->tipo_propio) return 0; /* an enum or a domain: its labels are the database's */
    switch (c->clase) {
    case DT__IC_ENTERO:
    case DT__IC_NUMERICO: return DT_DETECTOR_NUMERO;
    case DT__IC_FECHA: return DT_DETECTOR_FECHA;
    case DT__IC_BOOL: return DT_DETECTOR_BOOLEANO;
    case DT__IC_TEXTO: return DT_DETECTOR_TEXTO;
    default: break;
    }
    if (c->tipo) { /* bytes: SQLite's BLOB, PostgreSQL's bytea, MariaDB's *BLOB and (VAR)BINARY */
        char t[32];
        size_t n = 0;
        for (const char *p = c->tipo; *p && n + 1 < sizeof t; p++) t[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        t[n] = '\0';
        if (strstr(t, "blob") || strstr(t, "bytea") || strstr(t, "binary") || strcmp(t, "image") == 0) return DT_DETECTOR_BINARIO;
    }
    return 0;
}

/* Whether column j is in the list l (a key's columns). */
static int en_lista(const dt__ic_lista *l, size_t j) {
    for (size_t i = 0; i < l->n; i++)
        if (l->cols[i] == j) return 1;
    return 0;
}

/* Table t's sample through a new detector (*d): 0, 1 out of memory, 2 refused (said on stderr). */
static int detectar_tabla(const dt__ic_modelo *m, const dt__ic_tabla *t, dt_detector **d) {
    char nombre[512];
    nombre_tabla(m, t, nombre, sizeof nombre);
    const char **cols = (const char **)calloc(t->ncols ? t->ncols : 1, sizeof *cols);
    const char **vals = (const char **)calloc(t->ncols ? t->ncols : 1, sizeof *vals);
    size_t *largos = (size_t *)calloc(t->ncols ? t->ncols : 1, sizeof *largos);
    int rc = 1;
    if (cols == NULL || vals == NULL || largos == NULL) goto fin;
    for (size_t j = 0; j < t->ncols; j++) cols[j] = t->cols[j].nombre, largos[j] = strlen(t->cols[j].nombre);
    dt_status st = dt_detector_new(t->ncols, cols, largos, d);
    if (st == DT_ERR_INVALID_ARG) {
        /* a column named like a value: the detector keeps no value, but it refuses such a name */
        fprintf(stderr, "datoteca detectar: table %s: a column's name looks like a value (a number, a RUT, an email, "
                        "a phone, a date or a name); give it a name first\n", nombre);
        rc = 2;
        goto fin;
    }
    if (st != DT_OK) goto fin;
    for (size_t j = 0; j < t->ncols; j++) {
        dt_detector_tipo(*d, j, tipo_detector(&t->cols[j]));
        unsigned r = t->cols[j].nulable ? 0u : DT_DETECTOR_NO_NULO;
        if (en_lista(&t->pk, j)) r |= DT_DETECTOR_UNICO;
        for (size_t u = 0; u < t->nunicos; u++)
            if (en_lista(&t->unicos[u], j)) r |= DT_DETECTOR_UNICO;
        for (size_t k = 0; k < t->nchecks; k++) /* a domain's CHECK: VALUE is this column */
            if (t->checks[k].columna == (long)j) r |= DT_DETECTOR_CHECK;
        dt_detector_restricciones(*d, j, r);
    }
    for (size_t k = 0; k < t->nchecks; k++) /* a table's CHECK: the library reads which columns it binds */
        if (t->checks[k].columna < 0 && t->checks[k].texto && dt_detector_check(*d, t->checks[k].texto) == DT_ERR_NO_MEMORY) goto fin;
    for (size_t r = 0; r < t->nmuestra; r++) {
        for (size_t j = 0; j < t->ncols; j++) {
            vals[j] = t->muestra[r * t->ncols + j];
            largos[j] = vals[j] ? strlen(vals[j]) : 0;
        }
        if (dt_detector_fila(*d, t->ncols, vals, largos) != DT_OK) goto fin;
    }
    rc = 0;
fin:
    free(cols);
    free(vals);
    free(largos);
    return rc;
}

/* Each foreign key's columns told the column they reference (dt_detector_seguir): 0, or 1 out of memory. */
static int seguir_claves(const dt__ic_modelo *m, dt_detector **d) {
    for (size_t i = 0; i < m->ntablas; i++) {
        const dt__ic_tabla *t = &m->tablas[i];
        for (size_t f = 0; f < t->nfks; f++) {
            const dt__ic_fk *fk = &t->fks[f];
            size_t p = 0;
            while (p < m->ntablas && !(strcmp(m->tablas[p].nombre, fk->ref_tabla) == 0 &&
                                       (fk->ref_esquema == NULL || strcmp(m->tablas[p].esquema, fk->ref_esquema) == 0)))
                p++;
            if (p == m->ntablas) continue; /* a table not read (another schema than --esquema) */
            for (size_t c = 0; c < fk->cols.n; c++) {
                long k = dt__ic_col_indice(&m->tablas[p], fk->ref_cols[c]);
                if (k < 0) continue;
                char ref[600], nombre[512];
                nombre_tabla(m, &m->tablas[p], nombre, sizeof nombre);
                snprintf(ref, sizeof ref, "%s.%s", nombre, fk->ref_cols[c]);
                if (dt_detector_seguir(d[i], fk->cols.cols[c], d[p], (size_t)k, ref) == DT_ERR_NO_MEMORY) return 1;
            }
        }
    }
    return 0;
}

/* Table t's section (its detector d) appended to *doc: 0, or 1 out of memory. */
static int seccion(const dt__ic_modelo *m, const dt__ic_tabla *t, const dt_detector *d, char **doc, size_t *n) {
    char nombre[512];
    nombre_tabla(m, t, nombre, sizeof nombre);
    size_t len = 0;
    if (dt_detector_reglas_tabla(d, nombre, NULL, 0, &len) != DT_ERR_BUFFER_TOO_SMALL && len == 0) return 1;
    char *nuevo = (char *)realloc(*doc, *n + len + 2);
    if (nuevo == NULL) return 1;
    *doc = nuevo;
    nuevo[(*n)++] = '\n';
    if (dt_detector_reglas_tabla(d, nombre, nuevo + *n, len + 1, &len) != DT_OK) return 1;
    *n += len;
    return 0;
}

/* The document's head into *doc: 0, or 1 out of memory. */
static int cabeza(char **doc, size_t *n, const char *origen, size_t ntablas, unsigned long long filas) {
    static const char formato[] =
        "# datoteca detectar %s: %zu tables, up to %llu rows sampled from each.\n"
        "# Proposed masking rules for every table (docs/copia.md): review each before use. After each\n"
        "# rule, the kinds its sampled non-empty values look like, as counts.\n"
        "version = 1\n";
    int w = snprintf(NULL, 0, formato, origen, ntablas, filas);
    if (w < 0 || (*doc = (char *)malloc((size_t)w + 1)) == NULL) return 1;
    snprintf(*doc, (size_t)w + 1, formato, origen, ntablas, filas);
    *n = (size_t)w;
    return 0;
}

int dt__cli_detectar_url_main(int argc, char **argv) {
    const char *url = argv[2], *esquema = NULL;
    unsigned long long filas = 1000;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--filas") == 0 && i + 1 < argc) {
            if (!dt__cli_parse_u64(argv[++i], 100000000ULL, &filas) || filas == 0) {
                fprintf(stderr, "datoteca detectar: --filas must be a whole number from 1 to 100000000\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--esquema") == 0 && i + 1 < argc) {
            esquema = argv[++i];
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return usage_detectar_url(stdout);
        } else {
            /* not printed: a second URL, or a password pasted apart, would be echoed */
            fprintf(stderr, "datoteca detectar: unknown option or a second argument (not printed)\n");
            return usage_detectar_url(stderr);
        }
    }
    /* a key where the database's path or a schema's name goes is neither used nor printed (issue 48) */
    if (dt__cli_parece_clave(url) || dt__cli_valor_con_clave("detectar", "--esquema", esquema)) {
        if (dt__cli_parece_clave(url))
            fprintf(stderr, "datoteca detectar: the database given holds 64 hexadecimal digits in a row in its last "
                            "component: it looks like a masking key, and is not used\n");
        return 2;
    }
    dt__ic_modelo m;
    int rc = dt__cli_leer_modelo(url, "detectar", esquema, (size_t)filas, &m);
    if (rc != 0) return rc;
    char *doc = NULL;
    size_t n = 0;
    rc = cabeza(&doc, &n, m.origen ? m.origen : "<database>", m.ntablas, filas);
    /* every table's detector first: a foreign key's column is proposed from the column it references */
    dt_detector **d = (dt_detector **)calloc(m.ntablas ? m.ntablas : 1, sizeof *d);
    if (d == NULL && rc == 0) rc = 1;
    for (size_t i = 0; i < m.ntablas && rc == 0; i++) rc = detectar_tabla(&m, &m.tablas[i], &d[i]);
    if (rc == 0) rc = seguir_claves(&m, d);
    for (size_t i = 0; i < m.ntablas && rc == 0; i++) rc = seccion(&m, &m.tablas[i], d[i], &doc, &n);
    for (size_t i = 0; d && i < m.ntablas; i++) dt_detector_free(d[i]);
    free(d);
    if (rc == 1) fprintf(stderr, "datoteca detectar: out of memory\n");
    if (rc == 0 && dt__cli_tiene_clave(doc, n)) {
        /* a table or a column named by 64 hexadecimal digits in a row, as a key is written: not printed */
        fprintf(stderr, "datoteca detectar: a table or column name of the database holds 64 hexadecimal digits in a row, "
                        "as a masking key does; the proposal is not printed\n");
        rc = 2;
    }
    if (rc == 0 && (fwrite(doc, 1, n, stdout) != n || fflush(stdout) != 0)) {
        fprintf(stderr, "datoteca detectar: cannot write the output: %s\n", strerror(errno));
        rc = 1;
    }
    free(doc);
    dt__ic_modelo_free(&m);
    return rc;
}
