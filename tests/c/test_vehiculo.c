/* The new domains in C: the plates' worked examples and spellings, DTE arithmetic, date ranges. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"

static size_t llamada(const char *name) {
    size_t i = 0;
    if (dt_call_find(name, strlen(name), &i) != DT_OK) exit(1);
    return i;
}

static void worked_examples(void) {
    /* patentes_dv.md: PHZF·55 -> K (cl-forge's published example), BR·1234 -> 0871234 -> 4,
     * BBC·12 -> 112012 -> 3 (computed by hand in test_dominios.py) */
    static const struct {
        const char *s;
        int ok;
        char dv;
    } casos[] = {
        {"PHZF55", 1, 'K'},     {"PHZF·55", 1, 'K'},   {"phzf-55-k", 1, 'K'}, {" PHZF55K\n", 1, 'K'},
        {"PHZF55-1", 0, 0},     {"BR1234", 1, '4'},    {"BR-1234-4", 1, '4'}, {"BR12345", 0, 0},
        {"BBC12", 1, '3'},      {"BBC·12-3", 1, '3'},  {"AEIO12", 0, 0},      {"-PHZF55", 0, 0},
        {"PHZF55-", 0, 0},      {"PHZF5", 0, 0},       {"PHZF555-K", 0, 0},   {"", 0, 0},
        {"QQ1234", 0, 0},       {"PHZF\xc2\xb7" "55", 1, 'K'},
        /* as strict as the generator and the RUT reader: current digits 10-99, no space inside, one
         * separator between the parts (docs/patentes.md) */
        {"PHZF05", 0, 0},       {"PHZF00", 0, 0},      {"PH ZF55", 0, 0},     {"PHZF 55", 0, 0},
        {" PHZF 55 K\n", 0, 0}, {"PHZF.-55", 0, 0},    {"P-HZF55", 0, 0},     {"PHZF.55", 1, 'K'},
    };
    for (size_t i = 0; i < sizeof casos / sizeof casos[0]; i++) {
        char dv = 0;
        dt_status st = dt_patente_leer(casos[i].s, strlen(casos[i].s), NULL, &dv);
        CHECK((st == DT_OK) == casos[i].ok && (!casos[i].ok || dv == casos[i].dv), "'%s': status %d dv %c, expected %s %c",
              casos[i].s, (int)st, dv ? dv : '-', casos[i].ok ? "valid" : "invalid", casos[i].dv ? casos[i].dv : '-');
    }
    char buf[32];
    size_t len;
    CHECK(dt_patente_formatear("phzf55", 6, DT_PATENTE_CON_DV, buf, sizeof buf, &len) == DT_OK &&
              strcmp(buf, "PHZF\xc2\xb7" "55-K") == 0, "formatear con_dv: '%s'", buf);
    CHECK(dt_patente_formatear("br.1234", 7, DT_PATENTE_GUION, buf, sizeof buf, &len) == DT_OK && strcmp(buf, "BR-1234") == 0,
          "formatear guion: '%s'", buf);
    CHECK(dt_patente_formatear("AEIO12", 6, DT_PATENTE_LIMPIO, buf, sizeof buf, &len) == DT_ERR_INVALID_PATENTE &&
              /* the sentence, truncated to the buffer, its whole length in len */
              len == 55 && strncmp(buf, "formatear_patente: patente is not a valid Chilean plate", sizeof buf - 1) == 0 &&
              buf[sizeof buf - 1] == '\0',
          "an invalid plate");
    CHECK(dt_patente_leer(NULL, 1, NULL, NULL) == DT_ERR_NULL, "NULL with a length");
}

static void dtes_add_up(void) {
    dt_gen *g;
    dt_new(7, &g);
    char buf[2048];
    size_t len;
    size_t idte = llamada("tributario.dte");
    for (int i = 0; i < 20000; i++) {
        dt_dte d;
        CHECK_OK(dt_tributario_dte(g, &d), "dte %d", i);
        long long neto = atoll(d.monto_neto), exento = atoll(d.monto_exento), iva = atoll(d.iva), total = atoll(d.monto_total);
        CHECK(iva == (neto * 19 + 50) / 100 && total == neto + exento + iva, "dte %d (seed 7): neto %lld exento %lld iva %lld total %lld",
              i, neto, exento, iva, total);
        CHECK(strcmp(d.fecha_emision, "2026-01-01") <= 0 && strcmp(d.fecha_emision, "2025-01-02") >= 0, "dte %d: date %s", i,
              d.fecha_emision);
    }
    CHECK_OK(dt_call(g, idte, NULL, 0, buf, sizeof buf, &len), "dte by the registry");
    int64_t mal[] = {10, 5};
    CHECK(dt_call(g, llamada("fecha.fecha"), mal, 2, buf, sizeof buf, &len) == DT_ERR_INVALID_ARG, "desde > hasta");
    dt_free(g);
}

int main(void) {
    worked_examples();
    dtes_add_up();
    return dt_test_done("test_vehiculo");
}
