/* RUT: generated values checked by a mod-11 written here; the validator's table of
 * cases; formatting; buffer-size edges. */
#include "check.h"
#include "datoteca.h"
#include "rut_ref.h"

int main(void) {
    dt_gen *g;
    dt_new(0x5eed, &g);
    char buf[32];
    size_t len;
    for (int i = 0; i < 100000; i++) {
        int tipo = i % 2, formato = (i / 2) % 3;
        CHECK_OK(dt_rut(g, tipo, formato, buf, sizeof buf, &len), "iteration %d", i);
        unsigned long cuerpo = 0;
        char dv = 0;
        CHECK(leer(buf, formato, &cuerpo, &dv), "seed 0x5eed iteration %d: '%s' is not in format %d", i, buf, formato);
        CHECK(mod11(cuerpo) == dv, "seed 0x5eed iteration %d: rut '%s' check digit, expected %c", i, buf, mod11(cuerpo));
        if (tipo == DT_RUT_PERSONA)
            CHECK(cuerpo >= DT_RUT_PERSONA_MIN && cuerpo <= DT_RUT_PERSONA_MAX, "iteration %d: persona body %lu out of range", i, cuerpo);
        else
            CHECK(cuerpo >= DT_RUT_EMPRESA_MIN && cuerpo <= DT_RUT_EMPRESA_MAX, "iteration %d: empresa body %lu out of range", i, cuerpo);
        CHECK(dt_rut_validar(buf, len) == DT_OK, "iteration %d: generated '%s' does not validate", i, buf);
        CHECK(strlen(buf) == len, "iteration %d: len %zu for '%s'", i, len, buf);
    }
    /* every body's check digit agrees with the independent one over a sweep */
    for (unsigned long c = 1; c <= DT_RUT_CUERPO_MAX; c += 9973) {
        char dv;
        CHECK_OK(dt_rut_dv((uint32_t)c, &dv), "dv %lu", c);
        CHECK(dv == mod11(c), "dv(%lu): expected %c, got %c", c, mod11(c), dv);
    }
    char dv;
    CHECK(dt_rut_dv(0, &dv) == DT_ERR_INVALID_ARG, "dv(0)");
    CHECK(dt_rut_dv(100000000u, &dv) == DT_ERR_INVALID_ARG, "dv(100000000)");
    CHECK(dt_rut_dv(1, NULL) == DT_ERR_NULL, "dv NULL");

    /* the validator */
    static const struct { const char *s; dt_status want; unsigned long cuerpo; } casos[] = {
        {"12.345.678-5", DT_OK, 12345678},
        {"12345678-5", DT_OK, 12345678},
        {"123456785", DT_OK, 12345678},
        {"  12.345.678-5 ", DT_OK, 12345678},
        {"\t12345678-5\t", DT_OK, 12345678},
        {"60.803.000-K", DT_OK, 60803000},
        {"60.803.000-k", DT_OK, 60803000},
        {"60803000k", DT_OK, 60803000},
        {"1-9", DT_OK, 1},
        {"19", DT_OK, 1},
        {"66.666.666-6", DT_OK, 66666666},
        {"97.004.000-5", DT_OK, 97004000},
        {"1.000.005-K", DT_OK, 1000005},
        {"12.345.678-4", DT_ERR_INVALID_RUT, 0},    /* wrong check digit */
        {"12.345.678-K", DT_ERR_INVALID_RUT, 0},
        {"12.345678-5", DT_ERR_INVALID_RUT, 0},     /* dots on some groups only */
        {"1.2345.678-5", DT_ERR_INVALID_RUT, 0},
        {"12.345.6785", DT_OK, 12345678},          /* dots, no dash */
        {"1234.5678-5", DT_ERR_INVALID_RUT, 0},     /* a dot in the wrong place */
        {"12.345.67-85", DT_ERR_INVALID_RUT, 0},
        {".12.345.678-5", DT_ERR_INVALID_RUT, 0},
        {"12..345.678-5", DT_ERR_INVALID_RUT, 0},
        {"12.345.678.-5", DT_ERR_INVALID_RUT, 0},
        {"12.345.678--5", DT_ERR_INVALID_RUT, 0},
        {"12 345 678-5", DT_ERR_INVALID_RUT, 0},
        {"012.345.678-5", DT_ERR_INVALID_RUT, 0},   /* leading zero */
        {"0-0", DT_ERR_INVALID_RUT, 0},             /* body 0 */
        {"123.456.789-2", DT_ERR_INVALID_RUT, 0},   /* nine digits: out of range */
        {"1234567890", DT_ERR_INVALID_RUT, 0},
        {"12345678-", DT_ERR_INVALID_RUT, 0},
        {"-5", DT_ERR_INVALID_RUT, 0},
        {"5", DT_ERR_INVALID_RUT, 0},
        {"", DT_ERR_INVALID_RUT, 0},
        {"   ", DT_ERR_INVALID_RUT, 0},
        {"12.345.678-X", DT_ERR_INVALID_RUT, 0},
        {"12,345,678-5", DT_ERR_INVALID_RUT, 0},
        {"+12345678-5", DT_ERR_INVALID_RUT, 0},
        {"12345678 -5", DT_ERR_INVALID_RUT, 0},
        {"rut 12345678-5", DT_ERR_INVALID_RUT, 0},
        {"12345678-5\n", DT_OK, 12345678},          /* ASCII whitespace at the ends (2.0.0) */
        {"\t\r\n 12.345.678-5 \f\v", DT_OK, 12345678},
        {"12345678\xe2\x80\x90" "5", DT_OK, 12345678}, /* U+2010 hyphen, pasted from a document */
        {"12345678\xe2\x80\x91" "5", DT_OK, 12345678}, /* U+2011 non-breaking hyphen */
        {"12.345.678\xe2\x80\x93" "5", DT_OK, 12345678}, /* U+2013 en dash */
        {"12.345.678\xe2\x80\x94" "5", DT_OK, 12345678}, /* U+2014 em dash */
        {"12345678\xe2\x80\x95" "5", DT_OK, 12345678}, /* U+2015 horizontal bar */
        {"12345678\xe2\x88\x92" "5", DT_OK, 12345678}, /* U+2212 minus sign */
        {"12345678\xe2\x80\x96" "5", DT_ERR_INVALID_RUT, 0}, /* U+2016 double vertical line: not a dash */
        {"12345678\xe2\x80\x93" "-5", DT_ERR_INVALID_RUT, 0}, /* two dashes */
        {"12345678\xc2\xa0" "-5", DT_ERR_INVALID_RUT, 0}, /* no-break space inside */
        {"\xc2\xa0" "12345678-5", DT_ERR_INVALID_RUT, 0}, /* no-break space around: not ASCII whitespace */
        {"１２345678-5", DT_ERR_INVALID_RUT, 0},   /* full-width digits */
    };
    for (size_t i = 0; i < sizeof casos / sizeof casos[0]; i++) {
        uint32_t cuerpo = 0;
        dt_status st = dt_rut_leer(casos[i].s, strlen(casos[i].s), &cuerpo, NULL);
        CHECK(st == casos[i].want, "validator case %zu '%s': expected status %d, got %d", i, casos[i].s, casos[i].want, st);
        if (st == DT_OK) CHECK(cuerpo == casos[i].cuerpo, "case %zu '%s': body %u", i, casos[i].s, cuerpo);
    }
    CHECK(dt_rut_validar(NULL, 0) == DT_ERR_INVALID_RUT, "NULL, 0");
    CHECK(dt_rut_validar(NULL, 5) == DT_ERR_NULL, "NULL, 5");
    CHECK(dt_rut_validar("12345678-5\0garbage", 18) == DT_ERR_INVALID_RUT, "embedded NUL");
    /* huge input: a megabyte of digits and of spaces */
    size_t big = 1u << 20;
    char *huge = malloc(big);
    memset(huge, '1', big);
    CHECK(dt_rut_validar(huge, big) == DT_ERR_INVALID_RUT, "1 MiB of digits");
    memset(huge, ' ', big);
    memcpy(huge + big / 2, "12345678-5", 10);
    CHECK(dt_rut_validar(huge, big) == DT_OK, "a RUT in 1 MiB of spaces");
    free(huge);

    /* formatting and cleaning */
    CHECK_OK(dt_rut_formatear(" 12345678-5", 11, DT_RUT_PUNTOS, buf, sizeof buf, &len), "format");
    CHECK(strcmp(buf, "12.345.678-5") == 0, "format puntos gave '%s'", buf);
    CHECK_OK(dt_rut_formatear("60.803.000-k", 12, DT_RUT_LIMPIO, buf, sizeof buf, &len), "clean");
    CHECK(strcmp(buf, "60803000K") == 0 && len == 9, "clean gave '%s'", buf);
    CHECK(dt_rut_formatear("12.345.678-4", 12, DT_RUT_GUION, buf, sizeof buf, &len) == DT_ERR_INVALID_RUT, "format invalid");
    CHECK(dt_rut_formatear("19", 2, 7, buf, sizeof buf, &len) == DT_ERR_INVALID_ARG, "format 7");
    CHECK_OK(dt_rut_formatear_cuerpo(1, DT_RUT_PUNTOS, buf, sizeof buf, &len), "body 1");
    CHECK(strcmp(buf, "1-9") == 0, "body 1 gave '%s'", buf);
    CHECK_OK(dt_rut_formatear_cuerpo(999, DT_RUT_PUNTOS, buf, sizeof buf, &len), "body 999");
    char esperado[16];
    snprintf(esperado, sizeof esperado, "999-%c", mod11(999));
    CHECK(strcmp(buf, esperado) == 0, "body 999: expected '%s', got '%s'", esperado, buf);
    CHECK_OK(dt_rut_formatear_cuerpo(1000, DT_RUT_PUNTOS, buf, sizeof buf, &len), "body 1000");
    CHECK(strncmp(buf, "1.000-", 6) == 0, "body 1000 gave '%s'", buf);

    /* buffer edges: cap 0, 1, exact - 1, exact; the stream is untouched until it fits */
    dt_gen *a, *b;
    dt_new(77, &a);
    dt_new(77, &b);
    char want[32];
    size_t wl;
    CHECK_OK(dt_rut(b, DT_RUT_PERSONA, DT_RUT_PUNTOS, want, sizeof want, &wl), "reference");
    size_t caps[] = {0, 1, wl - 1, wl};
    for (size_t i = 0; i < 4; i++) {
        char small[32];
        memset(small, '#', sizeof small);
        size_t need = 0;
        dt_status st = dt_rut(a, DT_RUT_PERSONA, DT_RUT_PUNTOS, caps[i] ? small : NULL, caps[i], &need);
        CHECK(st == DT_ERR_BUFFER_TOO_SMALL, "cap %zu: status %d", caps[i], st);
        CHECK(need == wl, "cap %zu: needed %zu, reported %zu", caps[i], wl, need);
        for (size_t j = caps[i] ? 1 : 0; j < sizeof small; j++) CHECK(small[j] == '#', "cap %zu: wrote byte %zu", caps[i], j);
        if (caps[i]) CHECK(small[0] == '\0', "cap %zu: buf[0] not cleared", caps[i]);
    }
    CHECK_OK(dt_rut(a, DT_RUT_PERSONA, DT_RUT_PUNTOS, buf, wl + 1, &len), "exact capacity");
    CHECK(strcmp(buf, want) == 0, "after small buffers: expected '%s', got '%s' (a failed call consumed the stream)", want, buf);
    CHECK(dt_rut(a, 2, 0, buf, sizeof buf, &len) == DT_ERR_INVALID_ARG, "tipo 2");
    CHECK(dt_rut(a, 0, 3, buf, sizeof buf, &len) == DT_ERR_INVALID_ARG, "formato 3");
    CHECK(dt_rut(NULL, 0, 0, buf, sizeof buf, &len) == DT_ERR_NULL, "NULL gen");
    CHECK(dt_rut(a, 0, 0, NULL, 5, &len) == DT_ERR_NULL, "NULL buf with cap");
    dt_free(a);
    dt_free(b);
    dt_free(g);
    return dt_test_done("test_rut");
}
