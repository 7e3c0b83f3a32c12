/* Finding a row's own values in its free text (propios.h): plain byte comparisons, no draw, no key.
 * What replaces them is the plan's (reglas.c), which already masked the row's columns. */
#include <string.h>

#include "datoteca.h"
#include "mascara/partido.h"
#include "mascara/propios.h"

static int dt__mpr_dig(unsigned char c) { return c >= '0' && c <= '9'; }
static int dt__mpr_let(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
/* A byte of a word: an ASCII letter or digit, or any byte of a UTF-8 sequence (á, ñ, ü are letters). */
static int dt__mpr_palabra(unsigned char c) { return dt__mpr_dig(c) || dt__mpr_let(c) || c >= 0x80; }
/* c in lower case, `antes` the byte before it: ASCII, and Latin-1's letters in UTF-8 (C3 80..9E but
 * the sign ×, 97), so IBÁÑEZ is Ibáñez; other scripts are compared as written. */
static unsigned char dt__mpr_fold(unsigned char c, unsigned char antes) {
    if (c >= 'A' && c <= 'Z') return (unsigned char)(c | 0x20);
    if (antes == 0xC3 && c >= 0x80 && c <= 0x9E && c != 0x97) return (unsigned char)(c + 0x20);
    return c;
}
static int dt__mpr_tel(unsigned char c) {
    return dt__mpr_dig(c) || c == ' ' || c == '.' || c == '-' || c == '(' || c == ')' || c == '+';
}

size_t dt__mpr_digitos_telefono(const char *s, size_t n, char *out) {
    char d[16];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (dt__mpr_dig(c)) {
            if (k == sizeof d) return 0;
            d[k++] = (char)c;
        } else if (!dt__mpr_tel(c)) {
            return 0;
        }
    }
    size_t a = 0;
    if (k == 11 && d[0] == '5' && d[1] == '6') a = 2;      /* +56 9 8765 4321 */
    else if (k == 10 && d[0] == '0') a = 1;                /* the trunk 0 of before 2016: 09-8765 4321 */
    if (k - a < 8 || k - a > 9) return 0;
    memcpy(out, d + a, k - a);
    return k - a;
}

static int dt__mpr_particula(const char *s, size_t n) {
    static const char *const p[] = {"de", "del", "la", "las", "los", "san", "santa", "van", "von"};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        size_t m = strlen(p[i]);
        if (m != n) continue;
        size_t j = 0;
        while (j < n && dt__mpr_fold((unsigned char)s[j], 0) == (unsigned char)p[i][j]) j++;
        if (j == n) return 1;
    }
    return 0;
}

size_t dt__mpr_unidades(const char *s, size_t n, size_t *ini, size_t *fin, size_t max) {
    size_t k = 0, i = 0;
    int unir = 0; /* the last unit ended with a particle: the next word joins it */
    while (i < n) {
        while (i < n && s[i] == ' ') i++;
        if (i == n) break;
        size_t j = i;
        while (j < n && s[j] != ' ') j++;
        if (unir && k > 0) {
            fin[k - 1] = j;
        } else {
            if (k == max) return k;
            ini[k] = i;
            fin[k] = j;
            k++;
        }
        unir = dt__mpr_particula(s + i, j - i);
        i = j;
    }
    return k;
}

/* Pair q at s[i..): the end of the match, or 0. */
static size_t dt__mpr_en(const dt__mpr_par *q, const char *s, size_t n, size_t i) {
    const unsigned char *u = (const unsigned char *)s;
    if (q->clase == DT__MPR_TELEFONO) {
        if (!(dt__mpr_dig(u[i]) || u[i] == '+' || u[i] == '(')) return 0;
        size_t j = i;
        while (j < n && j - i < 24 && dt__mpr_tel(u[j])) j++;
        while (j > i && !dt__mpr_dig(u[j - 1])) j--; /* a sentence's full stop, a closing dash */
        if (j == i || (j < n && dt__mpr_palabra(u[j]))) return 0;
        char d[16];
        size_t m = dt__mpr_digitos_telefono(s + i, j - i, d);
        return m == q->orig_n && memcmp(d, q->orig, m) == 0 ? j : 0;
    }
    if (q->clase == DT__MPR_CUERPO) { /* the row's RUT body: a CuentaRUT number, `cta 21.597.724` */
        if (!dt__mpr_dig(u[i]) || (i > 0 && u[i - 1] == '$') || (i > 1 && u[i - 1] == ' ' && u[i - 2] == '$')) return 0;
        size_t j = i;
        while (j < n && j - i < 14 && (dt__mpr_dig(u[j]) || (u[j] == '.' && j + 1 < n && dt__mpr_dig(u[j + 1])))) j++;
        if (j - i >= 14 || (j < n && (dt__mpr_palabra(u[j]) || ((u[j] == ',' || u[j] == '.') && j + 1 < n && dt__mpr_dig(u[j + 1])))))
            return 0;
        uint32_t c;
        if (dt__mp_cuerpo_de(s + i, j - i, &c) != 0 || (unsigned long)c != q->cuerpo) return 0;
        size_t g = j;
        while (g < n && g - j < 2 && u[g] == ' ') g++;
        if (g < n && (u[g] == '-' || u[g] == 0xE2)) return 0; /* a dash: a whole RUT, texto's */
        if (g == j + 1 && g < n) { /* a space and the right check digit: a RUT too */
            char dv;
            unsigned char d = u[g];
            if (dt_rut_dv(c, &dv) == DT_OK && (d | (d >= 'A' ? 0x20 : 0)) == (unsigned char)(dv | (dv >= 'A' ? 0x20 : 0)) &&
                !(g + 1 < n && dt__mpr_palabra(u[g + 1])))
                return 0;
        }
        return j;
    }
    if (q->orig_n > n - i) return 0;
    if (q->clase == DT__MPR_NOMBRE && u[i] != (unsigned char)q->orig[0]) return 0; /* "una rosa" is not Rosa */
    const unsigned char *o = (const unsigned char *)q->orig;
    for (size_t j = 0; j < q->orig_n; j++)
        if (dt__mpr_fold(u[i + j], j ? u[i + j - 1] : 0) != dt__mpr_fold(o[j], j ? o[j - 1] : 0)) return 0;
    size_t f = i + q->orig_n;
    if (f < n && (dt__mpr_palabra(u[f]) || (q->clase == DT__MPR_EMAIL && (u[f] == '@' || u[f] == '_')))) return 0;
    return f;
}

int dt__mpr_buscar(const dt__mpr_par *pares, size_t np, const char *s, size_t n, size_t desde, size_t *ini, size_t *fin,
                   size_t *cual) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = desde; i < n; i++) {
        /* a value starts a word: the byte before is no part of one (nor of an email's local part) */
        if (i > 0 && (dt__mpr_palabra(u[i - 1]) || u[i - 1] == '.' || u[i - 1] == '_' || u[i - 1] == '@' || u[i - 1] == '+'))
            continue;
        size_t mejor = 0, q = 0;
        for (size_t k = 0; k < np; k++) {
            size_t f = dt__mpr_en(&pares[k], s, n, i);
            if (f > mejor) {
                mejor = f;
                q = k;
            }
        }
        if (mejor) {
            *ini = i;
            *fin = mejor;
            *cual = q;
            return 1;
        }
    }
    return 0;
}
