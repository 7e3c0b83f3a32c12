/* RUTs checked without the library: the mod-11 check digit, a reader of the three output
 * formats and a validator of what people type, all written from the SII's description
 * independently of c/src/rut.c. Every test that checks a RUT uses these. Test code only. */
#ifndef DT_TEST_RUT_REF_H
#define DT_TEST_RUT_REF_H

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "datoteca.h"

/* The check digit: weights 2..7 cycling from the rightmost digit, 11 - sum mod 11. */
static inline char mod11(uint64_t body) {
    uint64_t s = 0, w = 2;
    for (; body; body /= 10, w = w == 7 ? 2 : w + 1) s += (body % 10) * w;
    uint64_t r = 11 - s % 11;
    return r == 11 ? '0' : r == 10 ? 'K' : (char)('0' + r);
}

/* Independent reading of the three output formats. */
static inline int leer(const char *s, int formato, unsigned long *cuerpo, char *dv) {
    unsigned long v = 0;
    size_t n = strlen(s), i = 0, digitos = 0;
    if (n < 3) return 0;
    size_t fin = formato == DT_RUT_LIMPIO ? n - 1 : n - 2;
    if (formato != DT_RUT_LIMPIO && s[n - 2] != '-') return 0;
    for (; i < fin; i++) {
        if (s[i] == '.') {
            if (formato != DT_RUT_PUNTOS || (fin - i - 1) % 4 != 3) return 0;
            continue;
        }
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (unsigned long)(s[i] - '0');
        digitos++;
    }
    *cuerpo = v;
    *dv = s[n - 1];
    return digitos >= 1 && digitos <= 8;
}

/* A RUT in `formato` whose check digit is right; its body goes to *cuerpo. */
static inline int rut_ref_ok(const char *s, int formato, uint32_t *cuerpo) {
    unsigned long c = 0;
    char dv = 0;
    if (!leer(s, formato, &c, &dv) || mod11(c) != dv) return 0;
    *cuerpo = (uint32_t)c;
    return 1;
}

/* What people type, as datoteca.h documents dt_rut_leer: the reference of the property suite. */
static inline int ref_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

static inline int ref_valid(const char *s, size_t n) {
    size_t a = 0, b = n;
    while (a < b && ref_space(s[a])) a++;
    while (b > a && ref_space(s[b - 1])) b--;
    if (b - a < 2) return 0;
    char dv = (char)toupper((unsigned char)s[b - 1]);
    if (!(isdigit((unsigned char)dv) || dv == 'K')) return 0;
    b--;
    /* '-', or a pasted dash: U+2010..U+2015 (E2 80 90..95) or U+2212 (E2 88 92) */
    if (b > a && s[b - 1] == '-') b--;
    else if (b - a >= 3 && (unsigned char)s[b - 3] == 0xE2 &&
             (((unsigned char)s[b - 2] == 0x80 && (unsigned char)s[b - 1] >= 0x90 && (unsigned char)s[b - 1] <= 0x95) ||
              ((unsigned char)s[b - 2] == 0x88 && (unsigned char)s[b - 1] == 0x92)))
        b -= 3;
    /* the body: digits, or dot-separated parts where the first has 1-3 digits, the rest 3 */
    char digits[64];
    size_t nd = 0, part = 0, parts = 1, first_len = 0;
    for (size_t i = a; i < b; i++) {
        if (s[i] == '.') {
            if (parts == 1) first_len = part;
            else if (part != 3) return 0;
            if (part == 0) return 0;
            parts++;
            part = 0;
        } else if (isdigit((unsigned char)s[i]) && nd < sizeof digits) {
            digits[nd++] = s[i];
            part++;
        } else {
            return 0;
        }
    }
    if (parts > 1 && (part != 3 || first_len < 1 || first_len > 3)) return 0;
    if (nd == 0 || nd > 8 || digits[0] == '0') return 0;
    uint64_t body = 0;
    for (size_t i = 0; i < nd; i++) body = body * 10 + (uint64_t)(digits[i] - '0');
    return mod11(body) == dv;
}

#endif
