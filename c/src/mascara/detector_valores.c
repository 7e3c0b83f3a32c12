/* The shapes of a value that no Chilean plan describes (docs/enmascarar.md, "What detectar looks
 * for"), for the detector's proposal (detector.c): a person's name of any origin, a phone of any
 * country, an email with a Unicode local part or domain, an IP address, a coordinate, a plain number,
 * a password's hash. detectar.c's kinds say what Chilean data a value is; these say what shape it has,
 * and the column's name (detector_nombres.c) says which shape matters. Pure; thread-safe. */
#include <string.h>

#include "internal.h"
#include "mascara/detector_valores.h"
#include "mascara/mascara.h"

static int dt__dvv_digito(unsigned char c) { return c >= '0' && c <= '9'; }
static int dt__dvv_may(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static int dt__dvv_min(unsigned char c) { return c >= 'a' && c <= 'z'; }
static int dt__dvv_hex(unsigned char c) { return dt__dvv_digito(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* 1 to 5 words of letters (any script: UTF-8 sequences count as letters), each but a particle starting
 * with a capital or a letter outside ASCII, apostrophes, hyphens and dots inside (O'Brien, Jean-Luc,
 * J.), no digit: how people's names are written, in Chile or anywhere. */
static int dt__dvv_nombre(const char *s, size_t n) {
    size_t palabras = 0, capitales = 0;
    for (size_t i = 0; i < n;) {
        while (i < n && s[i] == ' ') i++;
        if (i >= n) break;
        size_t j = i;
        int letras = 0;
        while (j < n && s[j] != ' ') {
            unsigned char c = (unsigned char)s[j];
            if (dt__dvv_may(c) || dt__dvv_min(c) || c >= 0x80) letras++;
            else if (c != '\'' && c != '-' && c != '.' && c != ',') return 0;
            j++;
        }
        if (letras == 0) return 0;
        unsigned char c0 = (unsigned char)s[i];
        capitales += dt__dvv_may(c0) || c0 >= 0x80;
        palabras++;
        i = j;
    }
    return palabras >= 1 && palabras <= 5 && capitales * 2 >= palabras;
}

/* A phone of any country: an optional '+' (or 00), digits and the separators people write (space - .
 * ( ) /), 7 to 15 digits, an extension after x or ext kept apart. */
static int dt__dvv_telefono(const char *s, size_t n) {
    size_t digitos = 0, i = 0;
    if (i < n && s[i] == '+') i++;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (dt__dvv_digito(c)) digitos++;
        else if (c == 'x' || c == 'X' || (c == 'e' && i + 2 < n && s[i + 1] == 'x' && s[i + 2] == 't')) break;
        else if (c != ' ' && c != '-' && c != '.' && c != '(' && c != ')' && c != '/') return 0;
    }
    return digitos >= 7 && digitos <= 15;
}

/* local@domain.tld, the local part and labels of letters of any script, digits and . _ % + -. */
static int dt__dvv_email(const char *s, size_t n) {
    const char *a = memchr(s, '@', n);
    if (a == NULL || a == s || memchr(a + 1, '@', n - (size_t)(a + 1 - s))) return 0;
    for (const char *p = s; p < s + n; p++)
        if (*p == ' ' || *p == ',' || *p == ';' || *p == '<' || *p == '>' || *p == '"') return 0;
    const char *punto = memchr(a + 1, '.', n - (size_t)(a + 1 - s));
    return punto != NULL && punto > a + 1 && punto < s + n - 2;
}

static int dt__dvv_ipv4(const char *s, size_t n) {
    size_t i = 0;
    for (int parte = 0; parte < 4; parte++) {
        if (parte > 0 && (i >= n || s[i++] != '.')) return 0;
        size_t j = i;
        unsigned v = 0;
        while (j < n && dt__dvv_digito((unsigned char)s[j]) && j - i < 3) v = v * 10 + (unsigned)(s[j++] - '0');
        if (j == i || v > 255) return 0;
        i = j;
    }
    if (i < n && s[i] == '/') i = n; /* a prefix length */
    return i == n;
}

static int dt__dvv_ipv6(const char *s, size_t n) {
    size_t dos = 0, grupos = 0;
    for (size_t i = 0; i < n && s[i] != '/'; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ':') dos++;
        else if (!dt__dvv_hex(c) && c != '.') return 0;
        else if (i == 0 || s[i - 1] == ':') grupos++;
    }
    return dos >= 2 && dos <= 7 && grupos >= 1;
}

/* A plain number: an optional sign, digits, at most one decimal point. *decimales: digits after it;
 * *enteros: before it. */
static int dt__dvv_numero(const char *s, size_t n, size_t *enteros, size_t *decimales) {
    size_t i = 0, e = 0, d = 0;
    int punto = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    for (; i < n; i++) {
        if (dt__dvv_digito((unsigned char)s[i])) {
            if (punto) d++;
            else e++;
        } else if (s[i] == '.' && !punto) punto = 1;
        else return 0;
    }
    *enteros = e;
    *decimales = d;
    return e > 0 && (!punto || d > 0);
}

/* A password's stored form: bcrypt ($2a$, $2b$, $2y$), crypt's $1$ $5$ $6$, argon2, Django's
 * algorithm$iterations$salt$hash, or 32 hexadecimal digits or more. */
static int dt__dvv_hash(const char *s, size_t n) {
    if (n >= 20 && s[0] == '$' && memchr(s + 1, '$', n - 1)) return 1;
    if (n >= 20 && (strncmp(s, "pbkdf2_", 7) == 0 || strncmp(s, "argon2", 6) == 0 || strncmp(s, "bcrypt", 6) == 0 ||
                    strncmp(s, "sha1$", 5) == 0 || strncmp(s, "md5$", 4) == 0))
        return 1;
    if (n < 32) return 0;
    for (size_t i = 0; i < n; i++)
        if (!dt__dvv_hex((unsigned char)s[i])) return 0;
    return 1;
}

/* Whether the digits of an integer of 7 to 9 digits, read as a RUT body and its check digit, pass
 * module 11: a RUT written without dots and dash does; 1 in 11 other numbers do too. */
static int dt__dvv_mod11(const char *s, size_t n) {
    if (n < 7 || n > 9) return 0;
    uint32_t cuerpo = 0;
    for (size_t i = 0; i + 1 < n; i++) cuerpo = cuerpo * 10 + (uint32_t)(s[i] - '0');
    char dv = dt__dv(cuerpo);
    return dv == s[n - 1];
}

unsigned dt__dvv_formas(const char *s, size_t n) {
    while (n && s[0] == ' ') s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
    if (n == 0) return 0;
    if (dt__mi_es_imagen(s, n)) return DT__DVV_IMAGEN | DT__DVV_BINARIO; /* first: a photo may be any length */
    if (n > 4096) return 0;
    unsigned r = 0;
    size_t e = 0, d = 0;
    if (dt__dvv_numero(s, n, &e, &d)) {
        r |= DT__DVV_NUMERO;
        if (d == 0 && s[0] != '-' && s[0] != '+' && e >= 7 && e <= 9) {
            r |= DT__DVV_ENTERO7;
            if (dt__dvv_mod11(s, n)) r |= DT__DVV_MOD11;
        }
        if (d >= 3 && e <= 3) r |= DT__DVV_COORDENADA;
    }
    if (dt__dvv_email(s, n)) r |= DT__DVV_EMAIL;
    if (!(r & DT__DVV_NUMERO) && dt__dvv_telefono(s, n)) r |= DT__DVV_TELEFONO;
    if (r & DT__DVV_NUMERO && e >= 7 && e <= 15 && d == 0) r |= DT__DVV_TELEFONO; /* 28303384290 */
    if (dt__dvv_ipv4(s, n) || dt__dvv_ipv6(s, n)) r |= DT__DVV_IP;
    if (!(r & (DT__DVV_NUMERO | DT__DVV_EMAIL)) && dt__dvv_nombre(s, n)) r |= DT__DVV_NOMBRE;
    if (dt__dvv_hash(s, n)) r |= DT__DVV_HASH;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '\0') {
            r |= DT__DVV_BINARIO;
            break;
        }
    return r;
}
