/* libFuzzer target: schemas (c/src/esquema/esquema.c) on arbitrary bytes, read as TOML and as JSON.
 * A refusal must be DT_ERR_INVALID_ARG (or DT_ERR_NO_MEMORY) with no schema and one sentence: "fuzz:"
 * first, under DT_SENTENCE_MAX, valid UTF-8, no control characters, the same status and prefix with a
 * small buffer, the same status with none. An accepted schema must describe itself consistently (names,
 * columns, refs to unique columns of tables before it in dependency order) and give its first and last
 * rows and its DDL in both dialects, each row with as many fields as the table has columns.
 * Built with -DDT__ESQUEMA_PADRES_MAX=100000 (tests/hardening/fuzz.sh) so a fan-out stays fast. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8_ok.h"

#include "datoteca.h"


static void check_sentence(const char *why) {
    size_t n = strlen(why);
    if (n == 0 || n >= DT_SENTENCE_MAX) abort();
    if (strncmp(why, "fuzz:", 5) != 0) abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)why[i] < 0x20) abort();
    if (!utf8_ok((const unsigned char *)why, n)) abort();
}

static void check_rows(const dt_esquema *e, size_t t, uint64_t desde, size_t n) {
    size_t cap = 0, len = 0;
    if (dt_esquema_filas(e, t, desde, n, NULL, 0, &cap) != DT_ERR_BUFFER_TOO_SMALL) abort();
    char *buf = (char *)malloc(cap);
    if (buf == NULL) return;
    if (dt_esquema_filas(e, t, desde, n, buf, cap, &len) != DT_OK || strlen(buf) != len) abort();
    size_t campos = 1, filas = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == DT_FIELD_SEP) campos++;
        if (buf[i] == '\n') {
            if (campos != dt_esquema_columnas(e, t)) abort();
            campos = 1;
            filas++;
        }
    }
    if (filas != n || !utf8_ok((const unsigned char *)buf, len)) abort();
    free(buf);
}

static void one(int formato, const uint8_t *data, size_t size) {
    dt_esquema *e = (dt_esquema *)&e;
    char why[DT_SENTENCE_MAX * 2], small[16];
    const char *text = (const char *)data;
    dt_status st = dt_esquema_new(text, size, formato, "fuzz", 7, 0, 0, 0, &e, why, sizeof why);
    if (st != DT_OK) {
        if ((st != DT_ERR_INVALID_ARG && st != DT_ERR_NO_MEMORY) || e != NULL) abort();
        check_sentence(why);
        dt_esquema *e2 = NULL;
        if (dt_esquema_new(text, size, formato, "fuzz", 7, 0, 0, 0, &e2, small, sizeof small) != st || e2 != NULL ||
            strncmp(small, why, sizeof small - 1) != 0)
            abort();
        if (dt_esquema_new(text, size, formato, "fuzz", 7, 0, 0, 0, &e2, NULL, 0) != st || e2 != NULL) abort();
        return;
    }
    size_t nt = dt_esquema_tablas(e);
    if (nt == 0) abort();
    size_t *lugar = (size_t *)calloc(nt, sizeof *lugar); /* each table's place in dependency order */
    for (size_t k = 0; k < nt; k++) {
        size_t t = dt_esquema_orden(e, k);
        if (t >= nt) abort();
        lugar[t] = k;
    }
    for (size_t t = 0; t < nt; t++) {
        const char *nombre = dt_esquema_tabla(e, t);
        size_t again;
        if (nombre == NULL || dt_esquema_buscar(e, nombre, strlen(nombre), &again) != DT_OK || again != t) abort();
        if (dt_esquema_columnas(e, t) == 0) abort();
        for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
            dt_esquema_columna_info ci;
            if (dt_esquema_columna(e, t, j, &ci) != DT_OK || ci.nombre == NULL || ci.tipo_sql == NULL) abort();
            if (ci.ref_tabla) {
                size_t p;
                if (dt_esquema_buscar(e, ci.ref_tabla, strlen(ci.ref_tabla), &p) != DT_OK || lugar[p] >= lugar[t]) abort();
            }
        }
        uint64_t n = dt_esquema_tabla_filas(e, t);
        size_t pocos = n < 3 ? (size_t)n : 3;
        check_rows(e, t, 0, pocos);
        check_rows(e, t, n - pocos, pocos);
        if (dt_esquema_filas(e, t, n, 1, NULL, 0, NULL) != DT_ERR_INVALID_ARG) abort();
    }
    for (int d = 0; d < 2; d++) {
        size_t len = 0;
        if (dt_esquema_ddl(e, (dt_dialecto)d, NULL, 0, &len) != DT_ERR_BUFFER_TOO_SMALL) abort();
        char *ddl = (char *)malloc(len + 1);
        if (ddl && (dt_esquema_ddl(e, (dt_dialecto)d, ddl, len + 1, &len) != DT_OK || strlen(ddl) != len)) abort();
        free(ddl);
    }
    free(lugar);
    dt_esquema_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    one(DT_ESQUEMA_TOML, data, size);
    one(DT_ESQUEMA_JSON, data, size);
    return 0;
}
