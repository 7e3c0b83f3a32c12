/* libFuzzer target: masking rules (c/src/mascara/reglas.c) and one row masked under them.
 * The input is: one byte (even: TOML, odd: JSON), the rules text up to the first NUL byte, then the
 * values of one row separated by 0x1f, for the fixed header rut, email, id, x. A refused document, header
 * or row must be DT_ERR_INVALID_ARG (or DT_ERR_NO_MEMORY) with one sentence under DT_SENTENCE_MAX and
 * no control characters; a refused row's sentence starts "row 1, column " and never holds a value (any
 * value of 6 bytes or more with three digits or more, which no sentence template has). An accepted row
 * gives every output value of the output header (at most the input's 4) and nothing past it. The bytes
 * after the rules also go through dt_mascara_texto whole: always DT_OK, at most 7 bytes out per byte in. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datoteca.h"

static const char CLAVE[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

static void check_sentence(const char *why) {
    size_t n = strlen(why);
    if (n == 0 || n >= DT_SENTENCE_MAX) abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)why[i] < 0x20) abort();
}

static int contiene(const char *h, size_t hn, const char *a, size_t an) {
    for (size_t i = 0; i + an <= hn; i++)
        if (memcmp(h + i, a, an) == 0) return 1;
    return 0;
}

static int digitos(const char *s, size_t n) {
    int d = 0;
    for (size_t i = 0; i < n; i++) d += s[i] >= '0' && s[i] <= '9';
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int formato = data[0] & 1 ? DT_MASCARA_JSON : DT_MASCARA_TOML;
    const char *texto = (const char *)data + 1;
    size_t resto = size - 1;
    const char *fin = memchr(texto, '\0', resto);
    size_t tl = fin ? (size_t)(fin - texto) : resto;
    char why[DT_SENTENCE_MAX];
    dt_mascara_reglas *r = NULL;
    dt_status st = dt_mascara_reglas_new(texto, tl, formato, "fuzz", &r, why, sizeof why);
    if (st != DT_OK) {
        if ((st != DT_ERR_INVALID_ARG && st != DT_ERR_NO_MEMORY) || r != NULL) abort();
        check_sentence(why);
        return 0;
    }
    dt_mascara_clave *k = NULL;
    if (dt_mascara_clave_new(CLAVE, 64, &k, NULL, 0) != DT_OK) abort();
    const char *cols[] = {"rut", "email", "id", "x"};
    size_t largos[] = {3, 5, 2, 1};
    dt_mascara_plan *p = NULL;
    st = dt_mascara_plan_new(r, k, 4, cols, largos, &p, why, sizeof why);
    if (st != DT_OK) {
        if ((st != DT_ERR_INVALID_ARG && st != DT_ERR_NO_MEMORY) || p != NULL) abort();
        check_sentence(why);
    } else {
        const char *v[4] = {"", "", "", ""};
        size_t vl[4] = {0, 0, 0, 0};
        if (fin) {
            const char *s = fin + 1, *e = texto + resto;
            for (int i = 0; i < 4 && s <= e; i++) {
                const char *sep = memchr(s, 0x1f, (size_t)(e - s));
                const char *t = sep ? sep : e;
                v[i] = s;
                vl[i] = (size_t)(t - s);
                s = t + 1;
                if (!sep) break;
            }
        }
        st = dt_mascara_plan_fila(p, 1, 4, v, vl, why, sizeof why);
        if (st == DT_OK) {
            size_t n = dt_mascara_plan_ncolumnas(p);
            if (n > 4) abort();
            for (size_t i = 0; i < n; i++) {
                size_t l;
                if (dt_mascara_plan_valor(p, i, &l) == NULL) abort();
            }
            size_t l;
            if (dt_mascara_plan_valor(p, n, &l) != NULL || l != 0) abort();
        } else {
            if (st != DT_ERR_INVALID_ARG && st != DT_ERR_NO_MEMORY) abort();
            check_sentence(why);
            if (st == DT_ERR_INVALID_ARG && strncmp(why, "row 1, column ", 14) != 0) abort();
            for (int i = 0; i < 4; i++)
                if (vl[i] >= 6 && digitos(v[i], vl[i]) >= 3 && contiene(why, strlen(why), v[i], vl[i])) abort();
        }
        dt_mascara_plan_free(p);
    }
    /* the free-text scanner on the raw bytes after the rules: never refuses, linear, exact lengths */
    if (fin) {
        const char *s = fin + 1;
        size_t sl = (size_t)(texto + resto - s), l = 0, l2 = 0;
        char *o = malloc(7 * sl + 2);
        if (o == NULL) abort();
        if (dt_mascara_texto(k, DT_MASCARA_BUSCAR_TODO, s, sl, o, 7 * sl + 2, &l, NULL, 0) != DT_OK || l > 7 * sl + 1 ||
            strlen(o) > l)
            abort();
        if (dt_mascara_texto(k, DT_MASCARA_BUSCAR_TODO, s, sl, o, l, &l2, NULL, 0) != DT_ERR_BUFFER_TOO_SMALL || l2 != l)
            abort();
        free(o);
    }
    dt_mascara_clave_free(k);
    dt_mascara_reglas_free(r);
    return 0;
}
