/* What the schema tests share: opening a document, finding tables and columns, reading rows and cells
 * with the test's own split of the library's row text (not the library's). Header-only (static inline:
 * a program need not use them all): each test program is one file. */
#ifndef DT_ESQUEMA_PRUEBA_H
#define DT_ESQUEMA_PRUEBA_H

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datoteca.h"

static inline dt_esquema *abrir(const char *texto, int formato, uint64_t seed) {
    dt_esquema *e = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_esquema_new(texto, strlen(texto), formato, "banco.toml", seed, 0, 0, 0, &e, why, sizeof why);
    CHECK(st == DT_OK, "dt_esquema_new: %s: %s", dt_status_str(st), why);
    if (e == NULL) exit(1);
    return e;
}

static inline size_t tabla(const dt_esquema *e, const char *nombre) {
    size_t t = 0;
    dt_status st = dt_esquema_buscar(e, nombre, strlen(nombre), &t);
    CHECK(st == DT_OK, "no table %s", nombre);
    return t;
}

/* A table's rows [desde, desde + n) as one malloc'd text. */
static inline char *filas(const dt_esquema *e, size_t t, uint64_t desde, size_t n) {
    size_t cap = 0;
    dt_status st = dt_esquema_filas(e, t, desde, n, NULL, 0, &cap);
    CHECK(st == DT_ERR_BUFFER_TOO_SMALL, "size query: %s", dt_status_str(st));
    char *buf = (char *)malloc(cap);
    size_t len = 0;
    st = dt_esquema_filas(e, t, desde, n, buf, cap, &len);
    CHECK(st == DT_OK && strlen(buf) == len, "rows %llu+%zu: %s: %s", (unsigned long long)desde, n, dt_status_str(st), buf);
    return buf;
}

/* Cell (r, j) of a block of rows: its start and length. */
static inline const char *celda(const char *bloque, size_t r, size_t j, size_t *n) {
    const char *p = bloque;
    for (size_t i = 0; i < r; i++) p = strchr(p, '\n') + 1;
    for (size_t i = 0; i < j; i++) {
        while (*p != DT_FIELD_SEP && *p != '\n') p++;
        p++;
    }
    const char *q = p;
    while (*q != DT_FIELD_SEP && *q != '\n') q++;
    *n = (size_t)(q - p);
    return p;
}

static inline size_t columna(const dt_esquema *e, size_t t, const char *nombre) {
    for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        if (strcmp(ci.nombre, nombre) == 0) return j;
    }
    CHECK(0, "no column %s", nombre);
    return 0;
}

/* Every row's start in a block of n rows (the block is read once, not per cell). */
static inline const char **renglones(const char *bloque, size_t n) {
    const char **r = (const char **)malloc((n + 1) * sizeof *r);
    const char *p = bloque;
    for (size_t i = 0; i < n; i++) {
        r[i] = p;
        p = strchr(p, '\n') + 1;
    }
    r[n] = p;
    return r;
}

#endif
