/* Masking a RUT split in a body and a check digit column (rut with dv) and identifiers made from a RUT
 * body (derivado), through the plan as every runtime uses it (docs/enmascarar.md, issue 39): the split
 * body masks to the body of the same person's formatted RUT, its check digit is recomputed (checked with
 * rut_ref.h's own mod 11), both columns agree; a derived value keeps its form with the masked body in
 * place; what a rule cannot read is refused naming row and column and never the value; a header line
 * that is data is refused without printing it. */
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"
#include "rut_ref.h"

static const char CLAVE[] = "3f0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

static dt_mascara_reglas *reglas(const char *texto) {
    dt_mascara_reglas *r = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_reglas_new(texto, strlen(texto), DT_MASCARA_TOML, "reglas.toml", &r, why, sizeof why), "rules:\n%s\n    refused: %s", texto, why);
    return r;
}

static void rechaza(const char *texto, const char *esperada) {
    dt_mascara_reglas *r = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_mascara_reglas_new(texto, strlen(texto), DT_MASCARA_TOML, "reglas.toml", &r, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "rules:\n%s\n    expected a refusal, got %d", texto, (int)st);
    CHECK(strcmp(why, esperada) == 0, "rules:\n%s\n    expected: %s\n    got:      %s", texto, esperada, why);
    dt_mascara_reglas_free(r);
}

typedef struct {
    dt_mascara_plan *p;
    size_t n;
} plan_t;

static plan_t plan(const dt_mascara_reglas *r, const dt_mascara_clave *k, size_t n, const char *const *cols) {
    size_t largos[8];
    for (size_t i = 0; i < n; i++) largos[i] = strlen(cols[i]);
    plan_t p = {NULL, n};
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_plan_new(r, k, n, cols, largos, &p.p, why, sizeof why), "plan: %s", why);
    return p;
}

static dt_status fila(plan_t *p, uint64_t numero, const char *const *v, char *why) {
    size_t largos[8];
    for (size_t i = 0; i < p->n; i++) largos[i] = strlen(v[i]);
    return dt_mascara_plan_fila(p->p, numero, p->n, v, largos, why, DT_SENTENCE_MAX);
}

static void salida(const plan_t *p, size_t i, char *out, size_t cap) {
    size_t m;
    const char *s = dt_mascara_plan_valor(p->p, i, &m);
    snprintf(out, cap, "%.*s", (int)m, s);
}

/* 2,000 bodies of every class: the split pair masks as the formatted RUT of the same body does. */
static void partido_como_rut(const dt_mascara_clave *k) {
    dt_mascara_reglas *r = reglas("version = 1\n[columnas]\nrut = { regla = \"rut\" }\ncuerpo = { regla = \"rut\", dv = \"dv\" }\n");
    const char *cols[] = {"rut", "cuerpo", "dv"};
    plan_t p = plan(r, k, 3, cols);
    uint32_t cuerpo = 1;
    int iguales = 0;
    for (int i = 0; i < 2000; i++) {
        cuerpo = (uint32_t)((cuerpo * 2654435761u) % 99999999u) + 1u;
        char rut[32], c[16], dv[2] = {mod11(cuerpo), 0}, why[DT_SENTENCE_MAX];
        snprintf(rut, sizeof rut, "%u-%c", cuerpo, mod11(cuerpo));
        snprintf(c, sizeof c, "%u", cuerpo);
        const char *v[] = {rut, c, dv};
        CHECK_OK(fila(&p, (uint64_t)i + 1, v, why), "row %d (body %u): %s", i + 1, cuerpo, why);
        char a[32], b[16], d[4];
        salida(&p, 0, a, sizeof a);
        salida(&p, 1, b, sizeof b);
        salida(&p, 2, d, sizeof d);
        char junto[40];
        snprintf(junto, sizeof junto, "%s-%s", b, d);
        CHECK(strcmp(junto, a) == 0, "row %d (body %u): split %s, formatted %s", i + 1, cuerpo, junto, a);
        unsigned long m = strtoul(b, NULL, 10);
        CHECK(d[0] == mod11(m) && d[1] == 0, "row %d: masked body %s with check digit %s, mod 11 says %c", i + 1, b, d, mod11(m));
        iguales += m == cuerpo;
    }
    CHECK(iguales <= 1, "%d of 2000 bodies masked to themselves", iguales);
    dt_mascara_plan_free(p.p);
    dt_mascara_reglas_free(r);
}

/* The forms kept: dots, zero padding, whitespace, a lower-case k; a wrong check digit per policy. */
static void partido_formas(const dt_mascara_clave *k) {
    static const char *const politicas[] = {"error", "nulo", "invalido"};
    uint32_t m;
    CHECK_OK(dt_mascara_rut_cuerpo(k, 7796476, &m), "body");
    char puntos[16], ceros[16];
    snprintf(puntos, sizeof puntos, "%u.%03u.%03u", m / 1000000, m / 1000 % 1000, m % 1000);
    snprintf(ceros, sizeof ceros, "%09u", m);
    for (int q = 0; q < 3; q++) {
        char texto[256];
        snprintf(texto, sizeof texto, "version = 1\n[politica]\ninvalido = \"%s\"\n[columnas]\nc = { regla = \"rut\", dv = \"d\" }\n", politicas[q]);
        dt_mascara_reglas *r = reglas(texto);
        const char *cols[] = {"d", "c"}; /* the check digit column first: written with its body all the same */
        plan_t p = plan(r, k, 2, cols);
        char why[DT_SENTENCE_MAX], a[32], b[32];
        const char *v1[] = {" 2 ", "7.796.476"};
        CHECK_OK(fila(&p, 1, v1, why), "%s", why);
        salida(&p, 0, a, sizeof a);
        salida(&p, 1, b, sizeof b);
        CHECK(strcmp(b, puntos) == 0 && a[0] == ' ' && a[1] == mod11(m) && a[2] == ' ', "dotted: got '%s' '%s', want '%s' ' %c '", b, a, puntos, mod11(m));
        const char *v2[] = {"2", "007796476"};
        CHECK_OK(fila(&p, 2, v2, why), "%s", why);
        salida(&p, 1, b, sizeof b);
        CHECK(strcmp(b, ceros) == 0, "zero-padded: got '%s', want '%s'", b, ceros);
        const char *v3[] = {"", ""};
        CHECK_OK(fila(&p, 3, v3, why), "%s", why);
        salida(&p, 0, a, sizeof a);
        salida(&p, 1, b, sizeof b);
        CHECK(a[0] == 0 && b[0] == 0, "empty pair: got '%s' '%s'", a, b);
        const char *v4[] = {"5", "7796476"}; /* 7796476's check digit is 2 */
        dt_status st = fila(&p, 4, v4, why);
        if (q == 0) {
            CHECK(st == DT_ERR_INVALID_ARG && strcmp(why, "row 4, column c: not a valid RUT with its check digit column d (its check "
                                                         "digit does not match the body); politica.invalido is \"error\"") == 0,
                  "error: %d %s", (int)st, why);
            CHECK(strstr(why, "7796476") == NULL && strstr(why, "5 ") == NULL, "the value is in the sentence: %s", why);
        } else {
            CHECK_OK(st, "%s: %s", politicas[q], why);
            salida(&p, 0, a, sizeof a);
            salida(&p, 1, b, sizeof b);
            if (q == 1) CHECK(a[0] == 0 && b[0] == 0, "nulo: got '%s' '%s'", a, b);
            else {
                int esperado = (mod11(m) == 'K' ? 10 : mod11(m) - '0') + 3; /* given 5, correct 2: three ahead */
                esperado %= 11;
                CHECK(strtoul(b, NULL, 10) == m && a[0] == (esperado == 10 ? 'K' : '0' + esperado),
                      "invalido: got '%s' '%s', want body %u with check digit %d", b, a, m, esperado);
            }
        }
        const char *v5[] = {"2", "77x6476"};
        st = fila(&p, 5, v5, why);
        if (q == 0)
            CHECK(st == DT_ERR_INVALID_ARG && strstr(why, "row 5, column c: not a valid RUT with its check digit column d (the body is not a RUT body") == why,
                  "not a body: %d %s", (int)st, why);
        dt_mascara_plan_free(p.p);
        dt_mascara_reglas_free(r);
    }
}

/* derivado: the forms, with and without de, and refusals. */
static void derivado(const dt_mascara_clave *k) {
    uint32_t m;
    CHECK_OK(dt_mascara_rut_cuerpo(k, 12345678, &m), "body");
    dt_mascara_reglas *r = reglas("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nn = { regla = \"derivado\", de = \"rut\" }\n"
                                  "libre = { regla = \"derivado\" }\notro = { regla = \"derivado\", de = \"rut\", otros = \"mantener\" }\n");
    const char *cols[] = {"rut", "n", "libre", "otro"};
    plan_t p = plan(r, k, 4, cols);
    char why[DT_SENTENCE_MAX], got[64], want[64];
    struct {
        const char *in, *fmt;
    } casos[] = {
        {"12345678", "%u"}, {"0012345678", "00%u"}, {"CL-12345678", "CL-%u"}, {"12345678-001", "%u-001"},
        {"cta 12.345.678 (rut)", "cta %u.%03u.%03u (rut)"}, {"CL-12345678-5", "CL-%u-%c"},
    };
    for (size_t i = 0; i < sizeof casos / sizeof casos[0]; i++) {
        const char *v[] = {"12.345.678-5", casos[i].in, i == 3 ? "12345678" : casos[i].in, "x"};
        CHECK_OK(fila(&p, i + 1, v, why), "case %zu: %s", i, why);
        if (strstr(casos[i].fmt, ".%03u")) snprintf(want, sizeof want, casos[i].fmt, m / 1000000, m / 1000 % 1000, m % 1000);
        else if (strstr(casos[i].fmt, "%c")) snprintf(want, sizeof want, casos[i].fmt, m, mod11(m));
        else if (strncmp(casos[i].fmt, "00", 2) == 0) snprintf(want, sizeof want, "%010u", m);
        else snprintf(want, sizeof want, casos[i].fmt, m);
        salida(&p, 1, got, sizeof got);
        CHECK(strcmp(got, want) == 0, "de, case %s: got '%s', want '%s'", casos[i].in, got, want);
        salida(&p, 3, got, sizeof got);
        CHECK(strcmp(got, "x") == 0, "otros = mantener: 'x' became '%s'", got);
        if (i != 3) { /* 12345678-001 holds two runs: without de it is refused (below) */
            salida(&p, 2, got, sizeof got);
            CHECK(strcmp(got, want) == 0, "without de, case %s: got '%s', want '%s'", casos[i].in, got, want);
        }
    }
    const char *v[] = {"12.345.678-5", "11111111", "1", "x"};
    dt_status st = fila(&p, 9, v, why);
    CHECK(st == DT_ERR_INVALID_ARG && strcmp(why, "row 9, column n: it does not hold the RUT body of its row's RUT column (as a "
                                                  "whole run of digits); politica.invalido is \"error\"") == 0,
          "no body: %d %s", (int)st, why);
    const char *w[] = {"12.345.678-5", "12345678", "12345678-001", "x"};
    st = fila(&p, 10, w, why);
    CHECK(st == DT_ERR_INVALID_ARG && strstr(why, "row 10, column libre: it holds more than one run of digits") == why, "two runs: %d %s", (int)st, why);
    CHECK(strstr(why, "12345678") == NULL, "the value is in the sentence: %s", why);
    dt_mascara_plan_free(p.p);
    dt_mascara_reglas_free(r);
    /* a row whose RUT column gives no body: even otros = "mantener" does not keep a value that may be one */
    r = reglas("version = 1\n[politica]\ninvalido = \"nulo\"\n[columnas]\nrut = { regla = \"rut\" }\n"
               "codigo = { regla = \"derivado\", de = \"rut\", otros = \"mantener\" }\n");
    const char *cols2[] = {"rut", "codigo"};
    p = plan(r, k, 2, cols2);
    const char *filas2[][2] = {{"no es rut", "12345678"}, {"", "12345678"}, {"12.345.678-5", "sin cuerpo"}};
    for (int i = 0; i < 3; i++) {
        CHECK_OK(fila(&p, (uint64_t)i + 1, filas2[i], why), "otros row %d: %s", i + 1, why);
        salida(&p, 1, got, sizeof got);
        CHECK(strcmp(got, i < 2 ? "" : "sin cuerpo") == 0, "otros row %d: got '%s'", i + 1, got);
    }
    dt_mascara_plan_free(p.p);
    dt_mascara_reglas_free(r);
}

static void refusals(const dt_mascara_clave *k) {
    rechaza("version = 1\n[columnas]\nc = { regla = \"rut\", dv = \"d\" }\nd = { regla = \"mantener\" }\n",
            "reglas.toml:3: columnas.c.dv names 'd', which has a rule of its own: the check digit column is written by its "
            "body's rule; remove columnas.d");
    rechaza("version = 1\n[columnas]\nc = { regla = \"rut\", dv = 1 }\n",
            "reglas.toml:3: columnas.c.dv must be a column's name (the column holding the check digit of this column's RUT body)");
    rechaza("version = 1\n[columnas]\nid = { regla = \"mantener\" }\nn = { regla = \"derivado\", de = \"id\" }\n",
            "reglas.toml:4: columnas.n.de names 'id', whose rule is not rut: an entity is a column of RUTs masked with the rule rut");
    rechaza("version = 1\n[columnas]\nn = { regla = \"derivado\", otros = \"borrar\" }\n",
            "reglas.toml:3: columnas.n.otros must be \"politica\" (a value without the RUT body is handled by politica.invalido) "
            "or \"mantener\" (kept as it is)");
    rechaza("version = 1\n[columnas]\nn = { regla = \"derivado\", dv = \"d\" }\n",
            "reglas.toml:3: columnas.n: unknown key 'dv' (the rule derivado takes regla, de and otros)");
    /* a header line that is data: refused, its fields never printed */
    dt_mascara_reglas *r = reglas("version = 1\n[columnas]\nrut = { regla = \"rut\" }\n");
    const char *cols[][2] = {{"12.345.678-5", "ana@correo.cl"}, {"rut", "1957/08/09"}, {"rut", "Guillermo Alarc\xc3\xb3n"}, {"rut", "7796476"}};
    for (int i = 0; i < 4; i++) {
        size_t largos[2] = {strlen(cols[i][0]), strlen(cols[i][1])};
        dt_mascara_plan *p = NULL;
        char why[DT_SENTENCE_MAX];
        dt_status st = dt_mascara_plan_new(r, k, 2, cols[i], largos, &p, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && strstr(why, "looks like a value") != NULL, "header %d: %d %s", i, (int)st, why);
        CHECK(strstr(why, cols[i][1]) == NULL && (i > 0 || strstr(why, cols[i][0]) == NULL), "header %d: a field is in the sentence: %s", i, why);
        dt_mascara_plan_free(p);
    }
    dt_mascara_reglas_free(r);
}

/* A split body column as the entity of persona: the persona of the masked body, as for its formatted RUT. */
static void entidad_partida(const dt_mascara_clave *k) {
    dt_mascara_reglas *r = reglas("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nc = { regla = \"rut\", dv = \"d\" }\n"
                                  "a = { regla = \"persona\", campo = \"email\", entidad = \"rut\" }\n"
                                  "b = { regla = \"persona\", campo = \"email\", entidad = \"c\" }\n");
    const char *cols[] = {"rut", "c", "d", "a", "b"};
    plan_t p = plan(r, k, 5, cols);
    const char *v[] = {"7.796.476-2", "7796476", "2", "x@y.cl", "x@y.cl"};
    char why[DT_SENTENCE_MAX], a[128], b[128];
    CHECK_OK(fila(&p, 1, v, why), "%s", why);
    salida(&p, 3, a, sizeof a);
    salida(&p, 4, b, sizeof b);
    CHECK(strcmp(a, b) == 0 && strchr(a, '@') != NULL, "persona of the split entity '%s', of the formatted one '%s'", b, a);
    dt_mascara_plan_free(p.p);
    dt_mascara_reglas_free(r);
}

/* The detector: a data header refused; a split pair and a derived column proposed, no value in the text. */
static void detector(void) {
    const char *datos[] = {"12.345.678-5", "ana@correo.cl", "1957/08/09", "Guillermo Alarc\xc3\xb3n (esposa)", "7796476", "+56 9 8765 4321"};
    for (int i = 0; i < 6; i++) {
        size_t l = strlen(datos[i]);
        dt_detector *d = (dt_detector *)1;
        CHECK(dt_detector_new(1, &datos[i], &l, &d) == DT_ERR_INVALID_ARG && d == NULL, "header field %d accepted", i);
    }
    const char *cols[] = {"Nacimiento", "cuerpo", "dv", "rut", "cuenta"};
    size_t largos[] = {10, 6, 2, 3, 6};
    dt_detector *d = NULL;
    CHECK_OK(dt_detector_new(5, cols, largos, &d), "a comuna's name as a header");
    for (uint32_t i = 0; i < 40; i++) {
        uint32_t c = 7000000u + i * 104729u;
        char cu[16], dv[2] = {mod11(c), 0}, rut[24], cta[24];
        snprintf(cu, sizeof cu, "%u", c);
        snprintf(rut, sizeof rut, "%u-%c", c, mod11(c));
        snprintf(cta, sizeof cta, "CL-%010u", c);
        const char *v[] = {"x", cu, dv, rut, cta};
        size_t l[] = {1, strlen(cu), 1, strlen(rut), strlen(cta)};
        CHECK_OK(dt_detector_fila(d, 5, v, l), "row %u", i);
    }
    char buf[4096];
    size_t n;
    CHECK_OK(dt_detector_reglas(d, "t", buf, sizeof buf, &n), "reglas");
    CHECK(strstr(buf, "cuerpo = { regla = \"rut\", dv = \"dv\" }") != NULL, "no split rule:\n%s", buf);
    CHECK(strstr(buf, "# dv: the check digit of cuerpo") != NULL && strstr(buf, "\ndv =") == NULL, "dv has a rule:\n%s", buf);
    CHECK(strstr(buf, "cuenta = { regla = \"derivado\", de = \"rut\" }") != NULL, "no derived rule:\n%s", buf);
    CHECK(strstr(buf, "7000000") == NULL && strstr(buf, "CL-") == NULL, "a value in the rules:\n%s", buf);
    dt_detector_free(d);
}

int main(void) {
    dt_mascara_clave *k = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_clave_new(CLAVE, strlen(CLAVE), &k, why, sizeof why), "key: %s", why);
    partido_como_rut(k);
    partido_formas(k);
    derivado(k);
    refusals(k);
    entidad_partida(k);
    detector();
    dt_mascara_clave_free(k);
    return dt_test_done("test_mascara_partido");
}
