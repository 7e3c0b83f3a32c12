/* The value rules for shapes with no Chilean plan behind them (docs/enmascarar.md, "Values of any
 * origin"): `formato` (a document, a username, a foreign phone: every digit and letter replaced under
 * the key, the rest of the written form kept), `ip` (an address into the ranges reserved for
 * documentation, RFC 5737 and RFC 3849) and `coordenada` (a latitude or longitude cut to two
 * decimals). Each is keyed by the whole value, so the same value masks the same in every column and
 * table, and joins on it hold. Integer and byte operations only; pure, thread-safe. Sentences name
 * what is wrong, never a byte of the value. */
#include <stdio.h>

#include "internal.h"
#include "mascara/mascara.h"

#define DT__MF_ETIQUETA "datoteca/formas/v1"

void dt__mf_claves(dt_mascara_clave *k, const uint8_t maestra[32]) {
    dt__blake2s(k->formas, 32, maestra, 32, (const uint8_t *)DT__MF_ETIQUETA, strlen(DT__MF_ETIQUETA));
}

/* A keyed stream of bytes for one value: BLAKE2s-256 of (kind, counter, value) under the formas key,
 * 32 bytes a block. Drawing below `n` rejects the bytes at or above the largest multiple of n, so
 * the draw is unbiased and its count a function of the bytes only. */
typedef struct dt__mf_flujo {
    const uint8_t *clave;
    const char *valor;
    size_t largo, usado;
    uint8_t clase, contador, bloque[32];
} dt__mf_flujo;

static void dt__mf_bloque(dt__mf_flujo *f) {
    uint8_t msg[2 + 512];
    size_t n = f->largo < 512 ? f->largo : 512; /* a longer value is keyed by its first 512 bytes and its length */
    msg[0] = f->clase;
    msg[1] = f->contador++;
    memcpy(msg + 2, f->valor, n);
    if (f->largo > 512) {
        uint8_t h[32];
        dt__blake2s(h, 32, f->clave, 32, (const uint8_t *)f->valor, f->largo);
        memcpy(msg + 2, h, 32);
        n = 32;
        dt__borrar(h, sizeof h);
    }
    dt__blake2s(f->bloque, 32, f->clave, 32, msg, n + 2);
    dt__borrar(msg, n + 2);
    f->usado = 0;
}

static unsigned dt__mf_bajo(dt__mf_flujo *f, unsigned n) {
    unsigned tope = 256u - 256u % n;
    for (;;) {
        if (f->usado == 32) dt__mf_bloque(f);
        unsigned b = f->bloque[f->usado++];
        if (b < tope) return b % n;
    }
}

static int dt__mf_digito(char c) { return c >= '0' && c <= '9'; }
static int dt__mf_hex(char c) { return dt__mf_digito(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static dt_status dt__mf_no(const char *frase, char *why, size_t whycap) {
    if (why != NULL) dt__sentence_out(frase, why, whycap, NULL);
    return DT_ERR_INVALID_ARG;
}

/* out = in with [a, b) replaced by the `m` bytes at r; the needed length in *out_len. */
static dt_status dt__mf_salida(const char *in, size_t len, size_t a, size_t b, const char *r, size_t m, char *buf,
                               size_t cap, size_t *out_len) {
    size_t total = a + m + (len - b);
    if (out_len) *out_len = total;
    if (total + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    memmove(buf + a + m, in + b, len - b); /* in and buf never overlap; memmove costs nothing more */
    memcpy(buf, in, a);
    memcpy(buf + a, r, m);
    buf[total] = '\0';
    return DT_OK;
}

/* ---- formato ---- */

/* The bytes the value's digits and letters become, written at out (at most len bytes: a letter outside
 * ASCII, two to four bytes, becomes one ASCII letter), `conservar` leading bytes kept as they are.
 * Returns the length written. */
static size_t dt__mf_formas(const uint8_t *clave, uint8_t clase, const char *s, size_t n, size_t conservar, char *out) {
    dt__mf_flujo f = {clave, s, n, 32, clase, 0, {0}};
    int hex = n >= 16; /* a hash or a token written in hexadecimal stays hexadecimal */
    for (size_t i = 0; i < n && hex; i++) hex = dt__mf_hex(s[i]);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (i < conservar) {
            out[o++] = (char)c;
            i++;
        } else if (hex) {
            unsigned x = dt__mf_bajo(&f, 16);
            int mayus = c >= 'A' && c <= 'F';
            out[o++] = (char)(x < 10 ? '0' + x : (mayus ? 'A' : 'a') + x - 10);
            i++;
        } else if (dt__mf_digito((char)c)) {
            /* the first digit of a run that is not 0 stays not 0: a number keeps its number of digits */
            int inicio = i == 0 || !dt__mf_digito(s[i - 1]);
            out[o++] = (char)('0' + (inicio && c != '0' ? 1 + dt__mf_bajo(&f, 9) : c == '0' && inicio ? 0 : dt__mf_bajo(&f, 10)));
            i++;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            out[o++] = (char)((c >= 'a' ? 'a' : 'A') + dt__mf_bajo(&f, 26));
            i++;
        } else if (c >= 0xC2 && c <= 0xF4) { /* a letter of another script: one ASCII letter */
            size_t l = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            out[o++] = (char)('a' + dt__mf_bajo(&f, 26));
            i += l <= n - i ? l : n - i;
        } else {
            out[o++] = (char)c;
            i++;
        }
    }
    dt__borrar(&f, sizeof f);
    return o;
}

dt_status dt__mc_formato(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out_len,
                         char *why, size_t whycap) {
    size_t a, b;
    dt_status st = dt__mc_inicio("formato", k, in, len, buf, cap, why, whycap, &a, &b);
    if (st != DT_OK) return st;
    if (a == b) return dt__mf_no("formato: the value is empty or only whitespace", why, whycap);
    if (b - a > DT_MAX_TEXT) return dt__mf_no("formato: the value is longer than 4,096 bytes", why, whycap);
    char r[DT_MAX_TEXT];
    size_t m = dt__mf_formas(k->formas, 1, in + a, b - a, 0, r);
    st = dt__mf_salida(in, len, a, b, r, m, buf, cap, out_len);
    dt__borrar(r, m);
    return st;
}

/* A phone that is not Chilean (mascara_identificadores.c has tried the plan first): digits and the
 * separators people write (space - . ( ) /), 6 to 15 digits, a '+' only at its start. Its country's
 * calling code (ITU-T E.164: one digit for 1 and 7, two for the codes below, three for the rest) is
 * kept after a '+', every other digit replaced under the key, so the number stays in its country and
 * keeps its form. 0, or -1 when it is no phone at all. */
int dt__mf_telefono_otro(const dt_mascara_clave *k, const char *in, size_t a, size_t b, char *out) {
    static const char dos[] = "20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 "
                              "62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98";
    size_t digitos = 0, primero = b;
    int mas = 0;
    for (size_t i = a; i < b; i++) {
        char c = in[i];
        if (dt__mf_digito(c)) {
            if (primero == b) primero = i;
            digitos++;
        } else if (c == '+') {
            if (mas || digitos > 0) return -1;
            mas = 1;
        } else if (c != ' ' && c != '-' && c != '.' && c != '(' && c != ')' && c != '/') {
            return -1;
        }
    }
    if (digitos < 6 || digitos > 15) return -1;
    size_t conservar = 0; /* bytes from a: the '+' and the country code's digits */
    if (mas) {
        char d0 = in[primero], d1 = primero + 1 < b ? in[primero + 1] : ' ';
        size_t cc = d0 == '1' || d0 == '7' ? 1 : 3;
        for (size_t i = 0; cc == 3 && i + 1 < sizeof dos; i += 3)
            if (dos[i] == d0 && dos[i + 1] == d1) cc = 2;
        size_t vistos = 0, i = a;
        while (i < b && vistos < cc) vistos += dt__mf_digito(in[i++]);
        conservar = i - a;
    }
    size_t m = dt__mf_formas(k->formas, 2, in + a, b - a, conservar, out);
    (void)m; /* digits and separators only: the same length */
    return 0;
}

/* ---- ip ---- */

/* An IPv4 address a.b.c.d (each 0..255, no leading zero but 0 itself), an optional /0..32 after it. */
static int dt__mf_ipv4(const char *s, size_t n, size_t *fin) {
    size_t i = 0;
    for (int parte = 0; parte < 4; parte++) {
        if (parte > 0) {
            if (i >= n || s[i] != '.') return 0;
            i++;
        }
        size_t j = i;
        unsigned v = 0;
        while (j < n && dt__mf_digito(s[j]) && j - i < 3) v = v * 10 + (unsigned)(s[j++] - '0');
        if (j == i || v > 255 || (s[i] == '0' && j - i > 1)) return 0;
        i = j;
    }
    *fin = i;
    if (i < n && s[i] == '/') {
        size_t j = i + 1;
        unsigned v = 0;
        while (j < n && dt__mf_digito(s[j]) && j - i <= 2) v = v * 10 + (unsigned)(s[j++] - '0');
        if (j == i + 1 || v > 32) return 0;
        i = j;
    }
    return i == n;
}

/* An IPv6 address: hex groups of 1..4 digits between colons, at most one '::', an optional /0..128. */
static int dt__mf_ipv6(const char *s, size_t n, size_t *fin) {
    size_t i = 0, grupos = 0;
    int doble = 0;
    if (n >= 2 && s[0] == ':' && s[1] == ':') {
        doble = 1;
        i = 2;
    }
    while (i < n && s[i] != '/') {
        size_t j = i;
        while (j < n && dt__mf_hex(s[j]) && j - i < 4) j++;
        if (j == i) return 0;
        grupos++;
        i = j;
        if (i < n && s[i] == ':') {
            if (i + 1 < n && s[i + 1] == ':') {
                if (doble) return 0;
                doble = 1;
                i += 2;
            } else {
                i++;
                if (i == n || s[i] == '/') return 0;
            }
        } else if (i < n && s[i] != '/') {
            return 0;
        }
    }
    if (grupos > 8 || (!doble && grupos != 8) || (grupos == 0 && !doble)) return 0;
    *fin = i;
    if (i < n) {
        size_t j = i + 1;
        unsigned v = 0;
        while (j < n && dt__mf_digito(s[j]) && j - i <= 3) v = v * 10 + (unsigned)(s[j++] - '0');
        if (j == i + 1 || v > 128 || j != n) return 0;
    }
    return 1;
}

dt_status dt__mc_ip(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out_len,
                    char *why, size_t whycap) {
    size_t a, b, fin;
    dt_status st = dt__mc_inicio("ip", k, in, len, buf, cap, why, whycap, &a, &b);
    if (st != DT_OK) return st;
    if (a == b) return dt__mf_no("ip: the value is empty or only whitespace", why, whycap);
    char r[64];
    size_t m;
    dt__mf_flujo f = {k->formas, in + a, b - a, 32, 3, 0, {0}};
    if (dt__mf_ipv4(in + a, b - a, &fin)) {
        /* 192.0.2.0/24, 198.51.100.0/24 and 203.0.113.0/24 (RFC 5737): 768 addresses nobody routes */
        static const char *const redes[3] = {"192.0.2.", "198.51.100.", "203.0.113."};
        unsigned red = dt__mf_bajo(&f, 3), host = dt__mf_bajo(&f, 256);
        m = (size_t)snprintf(r, sizeof r, "%s%u", redes[red], host);
    } else if (dt__mf_ipv6(in + a, b - a, &fin)) {
        /* 2001:db8::/32 (RFC 3849), the other 96 bits drawn */
        m = (size_t)snprintf(r, sizeof r, "2001:db8");
        for (int g = 0; g < 6; g++) {
            unsigned x = dt__mf_bajo(&f, 256) << 8;
            x |= dt__mf_bajo(&f, 256);
            m += (size_t)snprintf(r + m, sizeof r - m, ":%x", x);
        }
    } else {
        dt__borrar(&f, sizeof f);
        return dt__mf_no("ip: it is not an IPv4 address (a.b.c.d) or an IPv6 address, with or without a /prefix", why, whycap);
    }
    dt__borrar(&f, sizeof f);
    if (a + fin < b) { /* the prefix length as written */
        size_t p = b - (a + fin);
        memcpy(r + m, in + a + fin, p);
        m += p;
    }
    return dt__mf_salida(in, len, a, b, r, m, buf, cap, out_len);
}

/* ---- coordenada ---- */

dt_status dt__mc_coordenada(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                            size_t *out_len, char *why, size_t whycap) {
    size_t a, b;
    dt_status st = dt__mc_inicio("coordenada", k, in, len, buf, cap, why, whycap, &a, &b);
    if (st != DT_OK) return st;
    size_t i = a, punto = b;
    if (i < b && (in[i] == '-' || in[i] == '+')) i++;
    size_t enteros = 0;
    while (i < b && dt__mf_digito(in[i])) i++, enteros++;
    if (i < b && in[i] == '.') punto = i++;
    while (i < b && dt__mf_digito(in[i])) i++;
    if (a == b || enteros == 0 || enteros > 3 || i != b)
        return dt__mf_no("coordenada: it is not a decimal number such as -33.4489 (degrees)", why, whycap);
    /* two decimals kept (about 1.1 km of latitude), the rest written as zeros so the width stays */
    st = dt__mf_salida(in, len, a, b, in + a, b - a, buf, cap, out_len);
    if (st != DT_OK) return st;
    for (size_t j = punto + 3; punto < b && j < b; j++) buf[j] = '0';
    return DT_OK;
}
