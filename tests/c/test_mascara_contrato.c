/* The masking contract (docs/enmascarar.md, "The masking contract"): every case of
 * fixtures/mascara.json, its rules bound to its header under the published test key, masked row by
 * row through the public plan API, must give the recorded output value for value; the fixture's
 * mapping version must be DT_MASCARA_VERSION. Python, Node and the CLI check the same file
 * (tests/python/test_mascara_contrato.py, tests/node/mascara_contrato.test.mjs). */
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"
#include "json.h"

#ifndef DT_FIXTURES_DIR
#error "DT_FIXTURES_DIR must point at fixtures/"
#endif

static const char **textos(const jval *a, size_t **largos) {
    const char **v = calloc(a->n + 1, sizeof *v);
    *largos = calloc(a->n + 1, sizeof **largos);
    for (size_t i = 0; i < a->n; i++) {
        CHECK(a->items[i]->tipo == J_STR, "fixture: item %zu is not a string", i);
        v[i] = a->items[i]->str;
        (*largos)[i] = strlen(a->items[i]->str);
    }
    return v;
}

static size_t caso(const jval *c, const dt_mascara_clave *k) {
    const char *nombre = jget(c, "nombre")->str;
    const char *texto = jget(c, "reglas")->str;
    char why[DT_SENTENCE_MAX];
    dt_mascara_reglas *r = NULL;
    CHECK_OK(dt_mascara_reglas_new(texto, strlen(texto), DT_MASCARA_TOML, nombre, &r, why, sizeof why),
             "case %s: rules refused: %s", nombre, why);
    if (r == NULL) exit(1);
    const jval *cols = jget(c, "columnas"), *filas = jget(c, "filas"), *salida = jget(c, "salida");
    const jval *ocols = jget(salida, "columnas"), *ofilas = jget(salida, "filas");
    size_t *lc;
    const char **vc = textos(cols, &lc);
    dt_mascara_plan *p = NULL;
    CHECK_OK(dt_mascara_plan_new(r, k, cols->n, vc, lc, &p, why, sizeof why), "case %s: header refused: %s", nombre, why);
    if (p == NULL) exit(1);
    CHECK(dt_mascara_plan_ncolumnas(p) == ocols->n, "case %s: %zu output columns, the fixture records %zu", nombre,
          dt_mascara_plan_ncolumnas(p), ocols->n);
    for (size_t i = 0; i < ocols->n; i++) {
        size_t n;
        const char *s = dt_mascara_plan_columna(p, i, &n);
        CHECK(s && n == strlen(ocols->items[i]->str) && memcmp(s, ocols->items[i]->str, n) == 0,
              "case %s: output column %zu: expected %s, got %.*s", nombre, i, ocols->items[i]->str, (int)n, s ? s : "");
    }
    CHECK(filas->n == ofilas->n, "case %s: %zu rows in, %zu recorded out", nombre, filas->n, ofilas->n);
    size_t valores = 0;
    for (size_t f = 0; f < filas->n; f++) {
        size_t *lv;
        const char **vv = textos(filas->items[f], &lv);
        dt_status st = dt_mascara_plan_fila(p, f + 1, filas->items[f]->n, vv, lv, why, sizeof why);
        CHECK_OK(st, "case %s, row %zu: refused: %s", nombre, f + 1, why);
        CHECK(ofilas->items[f]->n == dt_mascara_plan_ncolumnas(p), "case %s, row %zu: %zu values recorded",
              nombre, f + 1, ofilas->items[f]->n);
        const jval *esperada = ofilas->items[f];
        for (size_t i = 0; i < esperada->n; i++) {
            size_t n;
            const char *s = dt_mascara_plan_valor(p, i, &n);
            const char *e = esperada->items[i]->str;
            CHECK(s && n == strlen(e) && memcmp(s, e, n) == 0,
                  "case %s, row %zu, column %s: expected \"%s\", got \"%.*s\"", nombre, f + 1, ocols->items[i]->str, e,
                  (int)n, s ? s : "");
            valores++;
        }
        free(vv);
        free(lv);
    }
    free(vc);
    free(lc);
    dt_mascara_plan_free(p);
    dt_mascara_reglas_free(r);
    return valores;
}

int main(void) {
    char *texto = jread_file(DT_FIXTURES_DIR "/mascara.json");
    CHECK(texto != NULL, "cannot read %s", DT_FIXTURES_DIR "/mascara.json");
    jval *fx = jparse(texto);
    CHECK(jget(fx, "mascara_version")->num == DT_MASCARA_VERSION,
          "fixtures/mascara.json records mapping version %lld, the library is DT_MASCARA_VERSION %d",
          jget(fx, "mascara_version")->num, DT_MASCARA_VERSION);
    const char *hex = jget(fx, "clave_de_prueba")->str;
    dt_mascara_clave *k = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_clave_new(hex, strlen(hex), &k, why, sizeof why), "test key: %s", why);
    const jval *casos = jget(fx, "casos");
    CHECK(casos->n > 0, "fixtures/mascara.json has no case");
    size_t valores = 0, ncasos = casos->n;
    for (size_t i = 0; i < ncasos; i++) valores += caso(casos->items[i], k);
    dt_mascara_clave_free(k);
    jfree(fx);
    free(texto);
    printf("masking contract: %zu cases, %zu values compared\n", ncasos, valores);
    return dt_test_done("test_mascara_contrato");
}
