/* Emails, phones and plates, value-keyed (docs/enmascarar.md, "Emails, phones and plates"): the same
 * value gives the same masked value, whatever column or text it is in. A phone and a plate are
 * permuted within their kind by mascara_rut.c's Feistel network (dt__mc_permutar), so distinct
 * values never collide and their written form is kept byte for byte but the digits and letters
 * replaced; an email is replaced by a keyed address under example.com (RFC 2606: nobody's mailbox).
 * Sentences name what is wrong, never a byte of the value. */
#include <stdio.h>

#include "internal.h"
#include "mascara/mascara.h"
#include "ref/tablas.gen.h"

#define DT__MC_ETIQUETA_EMAIL "datoteca/email/v1"
#define DT__MC_ETIQUETA_TELEFONO "datoteca/telefono/v1"
#define DT__MC_ETIQUETA_PATENTE "datoteca/patente/v1"

void dt__mc_claves_valores(dt_mascara_clave *k, const uint8_t maestra[32]) {
    uint8_t sub[32];
    dt__blake2s(k->email, 32, maestra, 32, (const uint8_t *)DT__MC_ETIQUETA_EMAIL, strlen(DT__MC_ETIQUETA_EMAIL));
    dt__blake2s(sub, 32, maestra, 32, (const uint8_t *)DT__MC_ETIQUETA_TELEFONO, strlen(DT__MC_ETIQUETA_TELEFONO));
    k->telefono[0] = dt__le64(sub);
    k->telefono[1] = dt__le64(sub + 8);
    dt__blake2s(sub, 32, maestra, 32, (const uint8_t *)DT__MC_ETIQUETA_PATENTE, strlen(DT__MC_ETIQUETA_PATENTE));
    k->patente[0] = dt__le64(sub);
    k->patente[1] = dt__le64(sub + 8);
    dt__borrar(sub, sizeof sub);
    dt__mf_claves(k, maestra);
}

static int dt__mv_espacio(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int dt__mv_digito(char c) { return c >= '0' && c <= '9'; }
static int dt__mv_letra(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* The common prologue: NULL checks, why and buf emptied, the value trimmed to [*a, *b). */
dt_status dt__mc_inicio(const char *tipo, const dt_mascara_clave *k, const char *in, size_t len, char *buf,
                               size_t cap, char *why, size_t whycap, size_t *a, size_t *b) {
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (buf != NULL && cap > 0) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0)) {
        if (why != NULL && whycap > 0)
            snprintf(why, whycap, "%s: %s", tipo,
                     k == NULL ? "the key is NULL" : in == NULL && len > 0 ? "in is NULL but len is not 0" : "buf is NULL but cap is not 0");
        return DT_ERR_NULL;
    }
    size_t i = 0, n = len;
    while (i < n && dt__mv_espacio(in[i])) i++;
    while (n > i && dt__mv_espacio(in[n - 1])) n--;
    *a = i;
    *b = n;
    return DT_OK;
}

static dt_status dt__mv_no(const char *frase, char *why, size_t whycap, dt_status st) {
    if (why != NULL) dt__sentence_out(frase, why, whycap, NULL);
    return st;
}

/* ---- email ---- */

/* A byte of a UTF-8 sequence (RFC 6531 local parts, RFC 5890 domain labels): accepted as a letter. */
static int dt__mv_utf8(char c) { return (unsigned char)c >= 0x80; }

static int dt__mv_local(char c) {
    return dt__mv_letra(c) || dt__mv_digito(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

/* Why [a, b) is not an address, or NULL when it is one. The grammar: docs/enmascarar.md. `utf8`: bytes
 * of UTF-8 sequences count as letters (the rule email's reading; dt_mascara_email and texto keep ASCII). */
static const char *dt__mv_email_falla(const char *s, size_t a, size_t b, int utf8) {
    if (a == b) return "email: the value is empty or only whitespace";
    const char *at = memchr(s + a, '@', b - a);
    if (at == NULL) return "email: it has no '@'";
    size_t p = (size_t)(at - s);
    if (memchr(s + p + 1, '@', b - p - 1) != NULL) return "email: it has more than one '@'";
    if (p == a || p - a > 64) return "email: the part before the '@' is empty or longer than 64 bytes";
    for (size_t i = a; i < p; i++)
        if (!dt__mv_local(s[i]) && !(utf8 && dt__mv_utf8(s[i]))) return "email: the part before the '@' has a character other than letters, digits and . _ % + -";
    size_t d = p + 1;
    if (b - d > 253) return "email: the domain is longer than 253 bytes";
    size_t etiquetas = 0, ultima = d;
    for (size_t i = d; i <= b; i++) {
        if (i < b && s[i] != '.') {
            if (!dt__mv_letra(s[i]) && !(utf8 && dt__mv_utf8(s[i])) && !dt__mv_digito(s[i]) && s[i] != '-')
                return "email: the domain has a character other than letters, digits, hyphens and dots";
            continue;
        }
        if (i == ultima || i - ultima > 63) return "email: the domain has an empty label or one longer than 63 bytes";
        etiquetas++;
        if (i < b) ultima = i + 1;
    }
    if (etiquetas < 2) return "email: the domain has no dot";
    if (b - ultima < 2) return "email: the domain's last label is shorter than 2 letters";
    for (size_t i = ultima; i < b; i++)
        if (!dt__mv_letra(s[i]) && !(utf8 && dt__mv_utf8(s[i]))) return "email: the domain's last label is not letters only";
    return NULL;
}

const char *dt__mc_email_falla(const char *s, size_t a, size_t b);
const char *dt__mc_email_falla(const char *s, size_t a, size_t b) { return dt__mv_email_falla(s, a, b, 0); }

/* RFC 4648 base32, lower case, no padding: 5 bits a character, the bytes' bits from the most
 * significant; `n` characters from `h`. */
static char *dt__mv_base32(char *p, const uint8_t *h, size_t n) {
    static const char abc[] = "abcdefghijklmnopqrstuvwxyz234567";
    for (size_t i = 0; i < n; i++) {
        size_t bit = i * 5, byte = bit / 8, off = bit % 8;
        unsigned w = (unsigned)h[byte] << 8 | (unsigned)h[byte + 1];
        *p++ = abc[(w >> (11 - off)) & 31u];
    }
    return p;
}

#define DT__MV_EMAIL_LARGO 37 /* 16 + '@' + 8 + ".example.com" */

static dt_status dt__mv_email(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                              size_t *out_len, char *why, size_t whycap, int utf8) {
    size_t a, b;
    dt_status st = dt__mc_inicio("email", k, in, len, buf, cap, why, whycap, &a, &b);
    if (st != DT_OK) return st;
    const char *falla = dt__mv_email_falla(in, a, b, utf8);
    if (falla) return dt__mv_no(falla, why, whycap, DT_ERR_INVALID_ARG);
    char norm[320];
    size_t n = b - a, at = 0;
    for (size_t i = 0; i < n; i++) {
        char c = in[a + i];
        norm[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
        if (c == '@') at = i;
    }
    uint8_t h[32];
    char sal[DT__MV_EMAIL_LARGO + 1], *p = sal;
    dt__blake2s(h, 32, k->email, 32, (const uint8_t *)norm, n); /* the address: it holds an '@' */
    p = dt__mv_base32(p, h, 16);
    *p++ = '@';
    dt__blake2s(h, 32, k->email, 32, (const uint8_t *)norm + at + 1, n - at - 1); /* the domain: no '@' */
    p = dt__mv_base32(p, h, 8);
    p = dt__put(p, ".example.com", 12);
    dt__borrar(norm, sizeof norm);
    dt__borrar(h, sizeof h);
    size_t total = a + DT__MV_EMAIL_LARGO + (len - b);
    if (out_len) *out_len = total;
    if (total + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    char *q = dt__put(buf, in, a);
    q = dt__put(q, sal, DT__MV_EMAIL_LARGO);
    q = dt__put(q, in + b, len - b);
    *q = '\0';
    return DT_OK;
}

dt_status dt_mascara_email(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                           size_t *out_len, char *why, size_t whycap) {
    return dt__mv_email(k, in, len, buf, cap, out_len, why, whycap, 0);
}

/* ---- telefono ---- */

/* The kinds, the two-digit area codes of comunas (2 for Santiago, 9 for mobiles). */
static int dt__mv_area_valida(unsigned area) {
    for (size_t c = 0; c < DT_T_N_COMUNAS; c++)
        if (dt_t_comunas[c].area == area) return 1;
    return 0;
}

/* The mobile plan: the blocks of dt_t_moviles (sorted, disjoint; block j holds
 * antes[j+1] - antes[j] numbers). x is the number - 900,000,000. */
static uint32_t dt__mv_bloque_largo(size_t j) {
    return (j + 1 < DT_T_N_MOVILES ? dt_t_moviles[j + 1].antes : DT_T_MOVILES_TOTAL) - dt_t_moviles[j].antes;
}
/* The last block starting at or before x (-1 if none). */
static long dt__mv_bloque_de(uint32_t x) {
    long lo = 0, hi = (long)DT_T_N_MOVILES - 1, r = -1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (dt_t_moviles[mid].desde - 900000000u <= x) {
            r = mid;
            lo = mid + 1;
        } else hi = mid - 1;
    }
    return r;
}
/* Numbers of the plan below x. */
static uint32_t dt__mv_plan_antes(uint32_t x) {
    long j = dt__mv_bloque_de(x);
    if (j < 0) return 0;
    uint32_t dentro = x - (dt_t_moviles[j].desde - 900000000u), largo = dt__mv_bloque_largo((size_t)j);
    return dt_t_moviles[j].antes + (dentro < largo ? dentro : largo);
}
static int dt__mv_en_plan(uint32_t x) {
    long j = dt__mv_bloque_de(x);
    return j >= 0 && x - (dt_t_moviles[j].desde - 900000000u) < dt__mv_bloque_largo((size_t)j);
}
/* The x of plan rank r, and of rank r among the numbers outside the plan. */
static uint32_t dt__mv_plan_x(uint32_t r) {
    size_t lo = 0, hi = DT_T_N_MOVILES - 1;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (dt_t_moviles[mid].antes <= r) lo = mid;
        else hi = mid - 1;
    }
    return dt_t_moviles[lo].desde - 900000000u + (r - dt_t_moviles[lo].antes);
}
static uint32_t dt__mv_fuera_x(uint32_t r) {
    /* G_j = the outside numbers before block j; the last block j with G_j <= r has all of blocks 0..j
     * before the answer */
    long lo = 0, hi = (long)DT_T_N_MOVILES - 1, j = -1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (dt_t_moviles[mid].desde - 900000000u - dt_t_moviles[mid].antes <= r) {
            j = mid;
            lo = mid + 1;
        } else hi = mid - 1;
    }
    return j < 0 ? r : r + dt_t_moviles[j].antes + dt__mv_bloque_largo((size_t)j);
}

/* The subscriber part x of a number of kind `area` (9, 2 or AA), masked: the plan's numbers (what
 * the library generates) permuted among themselves, the others among themselves. */
static uint32_t dt__mv_tel(const dt_mascara_clave *k, unsigned area, uint32_t x, int inversa) {
    if (area == 9) {
        if (dt__mv_en_plan(x))
            return dt__mv_plan_x(dt__mc_permutar(k->telefono, 18, DT_T_MOVILES_TOTAL, dt__mv_plan_antes(x), inversa));
        uint32_t fuera = 100000000u - DT_T_MOVILES_TOTAL;
        return dt__mv_fuera_x(dt__mc_permutar(k->telefono, 19, fuera, x - dt__mv_plan_antes(x), inversa));
    }
    /* Santiago 2 + 8 digits, its plan 2XXXXXXX; an area AA + 7 digits, its plan 2XXXXXX */
    uint32_t total = area == 2 ? 100000000u : 10000000u, lo = total / 5, hi = lo + total / 10;
    if (x >= lo && x < hi) return lo + dt__mc_permutar(k->telefono, area * 2, hi - lo, x - lo, inversa);
    uint32_t r = x < lo ? x : x - (hi - lo);
    r = dt__mc_permutar(k->telefono, area * 2 + 1, total - (hi - lo), r, inversa);
    return r < lo ? r : r + (hi - lo);
}

/* Read the phone [a, b) of s: where its digits are (pos, nd), where its national 9 digits start (o).
 * NULL, or why it is not a Chilean phone. */
const char *dt__mc_telefono_falla(const char *s, size_t a, size_t b, size_t pos[11], size_t *nd, size_t *o,
                                  unsigned *area);
const char *dt__mc_telefono_falla(const char *s, size_t a, size_t b, size_t pos[11], size_t *nd, size_t *o,
                                  unsigned *area) {
    if (a == b) return "telefono: the value is empty or only whitespace";
    size_t n = 0;
    int mas = 0;
    for (size_t i = a; i < b; i++) {
        char c = s[i];
        if (dt__mv_digito(c)) {
            if (n == 11) return "telefono: it has more than 11 digits";
            pos[n++] = i;
        } else if (c == '+') {
            if (mas || n > 0) return "telefono: a '+' is not at its start";
            mas = 1;
        } else if (c != ' ' && c != '-' && c != '.' && c != '(' && c != ')') {
            return "telefono: it has a character other than digits, spaces, + - . ( and )";
        }
    }
    if (n == 11 && s[pos[0]] == '5' && s[pos[1]] == '6') *o = 2;
    else if (mas) return "telefono: a number with '+' must be +56 and 9 digits";
    else if (n == 10 && s[pos[0]] == '0') *o = 1; /* the trunk 0 of before 2016 */
    else if (n == 9) *o = 0;
    else return "telefono: it is not 9 digits, +56 and 9 digits, or 0 and 9 digits";
    *nd = n;
    char d0 = s[pos[*o]], d1 = s[pos[*o + 1]];
    if (d0 == '9' || d0 == '2') *area = (unsigned)(d0 - '0');
    else {
        *area = (unsigned)(d0 - '0') * 10 + (unsigned)(d1 - '0');
        if (!dt__mv_area_valida(*area)) return "telefono: it is not a mobile (9), Santiago (2) or an area code of a comuna";
    }
    return NULL;
}

static dt_status dt__mv_telefono(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                 size_t *out_len, char *why, size_t whycap, int inversa) {
    size_t a, b, pos[11], nd, o;
    unsigned area;
    /* the rule telefono: forward, a foreign number masked too (2, 3), and a Chilean one written where
     * nobody answers (2; 3 is realista = true, the valid number the permutation gives); texto (4): a
     * Chilean phone only, written where nobody answers, as the rule writes the same number */
    int otros_paises = inversa == 2 || inversa == 3, nadie = inversa == 2 || inversa == 4; /* 4: texto's phones */
    inversa = inversa == 1;
    dt_status st = dt__mc_inicio("telefono", k, in, len, buf, cap, why, whycap, &a, &b);
    if (st != DT_OK) return st;
    const char *falla = dt__mc_telefono_falla(in, a, b, pos, &nd, &o, &area);
    if (falla && otros_paises && b - a <= 64) {
        /* not Chile's plan: a number of another country (or an extension, an old form) keeps its
         * calling code and form, its other digits replaced (mascara_formas.c); not reversible */
        char otro[64];
        if (dt__mf_telefono_otro(k, in, a, b, otro) == 0) {
            if (out_len) *out_len = len;
            if (len + 1 > cap) {
                if (cap > 0) buf[0] = '\0';
                dt__borrar(otro, sizeof otro);
                return DT_ERR_BUFFER_TOO_SMALL;
            }
            memcpy(buf, in, len);
            memcpy(buf + a, otro, b - a);
            buf[len] = '\0';
            dt__borrar(otro, sizeof otro);
            return DT_OK;
        }
    }
    if (falla) return dt__mv_no(falla, why, whycap, DT_ERR_INVALID_ARG);
    size_t primero = o + (area < 10 ? 1 : 2), cifras = nd - primero; /* the subscriber's digits: 8 or 7 */
    uint32_t x = 0;
    for (size_t i = primero; i < nd; i++) x = x * 10 + (uint32_t)(in[pos[i]] - '0');
    x = dt__mv_tel(k, area, x, inversa);
    /* a number Chile's plan never assigns, so a masked phone reaches nobody (libphonenumber reads it as
     * Chilean and not valid): a mobile or Santiago's with its subscriber part starting with 0 (9 0XXX XXXX,
     * 2 0XXX XXXX); a regional one (AA + 7 digits, any of which libphonenumber accepts) written in
     * Santiago's unassigned 2 0 block, its 7 digits permuted within its area. Santiago's numbers of the
     * plan stay distinct (they all start with 2); mobiles, and regional numbers of two areas, may share one */
    if (nadie && cifras == 8) x %= 10000000u;
    if (out_len) *out_len = len;
    if (len + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(buf, in, len);
    buf[len] = '\0';
    for (size_t i = 0; i < cifras; i++, x /= 10) buf[pos[nd - 1 - i]] = (char)('0' + x % 10);
    if (nadie && area >= 10) { /* libphonenumber takes any 7 digits after a regional area: written 2 0, Santiago's unassigned */
        buf[pos[o]] = '2';
        buf[pos[o + 1]] = '0';
    }
    return DT_OK;
}

dt_status dt_mascara_telefono(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                              size_t *out_len, char *why, size_t whycap) {
    return dt__mv_telefono(k, in, len, buf, cap, out_len, why, whycap, 0);
}
dt_status dt__mc_telefono_texto(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                size_t *out_len, char *why, size_t whycap) {
    return dt__mv_telefono(k, in, len, buf, cap, out_len, why, whycap, 4);
}
dt_status dt_mascara_telefono_inversa(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                      size_t *out_len, char *why, size_t whycap) {
    return dt__mv_telefono(k, in, len, buf, cap, out_len, why, whycap, 1);
}

/* ---- patente ---- */

static int dt__mv_letra_idx(char c) {
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    const char *p = memchr(dt_t_letras_patente, c, DT_T_N_LETRAS_PATENTE);
    return p ? (int)(p - dt_t_letras_patente) : -1;
}
static int dt__mv_serie_idx(char c0, char c1) {
    if (c0 >= 'a') c0 = (char)(c0 - 'a' + 'A');
    if (c1 >= 'a') c1 = (char)(c1 - 'a' + 'A');
    for (int i = 0; i < DT_T_N_SERIES_PATENTE; i++)
        if (dt_t_series_patente[i][0] == c0 && dt_t_series_patente[i][1] == c1) return i;
    return -1;
}

static dt_status dt__mv_patente(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                size_t *out_len, char *why, size_t whycap, int inversa) {
    size_t a, b;
    dt_status st = dt__mc_inicio("patente", k, in, len, buf, cap, why, whycap, &a, &b);
    if (st != DT_OK) return st;
    dt_patente_tipo tipo;
    if (a == b) return dt__mv_no("patente: the value is empty or only whitespace", why, whycap, DT_ERR_INVALID_PATENTE);
    if (dt_patente_leer(in + a, b - a, &tipo, NULL) != DT_OK)
        return dt__mv_no("patente: not a Chilean plate (LLLL·NN, LLL·NN or LL·NNNN with the Registro Civil's letters, "
                         "its check digit right if given)",
                         why, whycap, DT_ERR_INVALID_PATENTE);
    size_t pos[12], n = 0;
    for (size_t i = a; i < b && n < 12; i++)
        if (dt__mv_letra(in[i]) || dt__mv_digito(in[i])) pos[n++] = i;
    dt__ppu v;
    v.tipo = (int)tipo;
    v.nletras = tipo == DT_PATENTE_ANTIGUA ? 2 : tipo == DT_PATENTE_MOTO ? 3 : 4;
    size_t nd = tipo == DT_PATENTE_ANTIGUA ? 4 : 2, nl = v.nletras;
    uint32_t num = 0, r, total;
    for (size_t i = 0; i < nd; i++) num = num * 10 + (uint32_t)(in[pos[nl + i]] - '0');
    const uint32_t L = DT_T_N_LETRAS_PATENTE;
    if (tipo == DT_PATENTE_ANTIGUA) {
        int si = dt__mv_serie_idx(in[pos[0]], in[pos[1]]);
        if (si < 0) return dt__mv_no("patente: not a series of the old plates", why, whycap, DT_ERR_INVALID_PATENTE);
        total = DT_T_N_SERIES_PATENTE * 10000u;
        r = dt__mc_permutar(k->patente, 3, total, (uint32_t)si * 10000u + num, inversa);
        memcpy(v.letras, dt_t_series_patente[r / 10000u], 2);
        v.numero = (uint16_t)(r % 10000u);
    } else {
        uint32_t base = tipo == DT_PATENTE_MOTO ? 100u : 90u, desde = tipo == DT_PATENTE_MOTO ? 0u : 10u;
        uint32_t l = 0;
        total = base;
        for (size_t i = 0; i < nl; i++) {
            l = l * L + (uint32_t)dt__mv_letra_idx(in[pos[i]]);
            total *= L;
        }
        r = dt__mc_permutar(k->patente, tipo == DT_PATENTE_MOTO ? 2u : 1u, total, l * base + (num - desde), inversa);
        v.numero = (uint16_t)(desde + r % base);
        r /= base;
        for (size_t i = nl; i-- > 0; r /= L) v.letras[i] = dt_t_letras_patente[r % L];
    }
    if (out_len) *out_len = len;
    if (len + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(buf, in, len);
    buf[len] = '\0';
    for (size_t i = 0; i < nl; i++) {
        char c = v.letras[i];
        buf[pos[i]] = in[pos[i]] >= 'a' ? (char)(c - 'A' + 'a') : c;
    }
    uint32_t m = v.numero;
    for (size_t i = nd; i-- > 0; m /= 10) buf[pos[nl + i]] = (char)('0' + m % 10);
    if (n > nl + nd) { /* a check digit was given: the new one, a lower-case k kept */
        char dv = dt__ppu_dv(&v);
        buf[pos[n - 1]] = dv == 'K' && in[pos[n - 1]] == 'k' ? 'k' : dv;
    }
    return DT_OK;
}

dt_status dt_mascara_patente(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                             size_t *out_len, char *why, size_t whycap) {
    return dt__mv_patente(k, in, len, buf, cap, out_len, why, whycap, 0);
}
dt_status dt_mascara_patente_inversa(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                     size_t *out_len, char *why, size_t whycap) {
    return dt__mv_patente(k, in, len, buf, cap, out_len, why, whycap, 1);
}

dt_status dt_mascara_regla(const dt_mascara_clave *k, const char *regla, const char *in, size_t len, char *buf,
                           size_t cap, size_t *out_len, char *why, size_t whycap) {
    static const char *const nombres[] = {"email", "telefono", "patente", "texto", "formato", "ip", "coordenada", "imagen"};
    static const int tipos[] = {DT__MC_EMAIL, DT__MC_TELEFONO, DT__MC_PATENTE, DT__MC_TEXTO, DT__MC_FORMATO, DT__MC_IP,
                                DT__MC_COORDENADA, DT__MC_IMAGEN};
    if (regla == NULL) {
        if (why != NULL) dt__sentence_out("regla: the rule's name is NULL", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    for (size_t i = 0; i < sizeof tipos / sizeof tipos[0]; i++)
        if (strcmp(regla, nombres[i]) == 0)
            return dt__mc_valor(k, tipos[i], tipos[i] == DT__MC_TEXTO ? DT_MASCARA_BUSCAR_TODO : 0u, in, len, buf, cap,
                                out_len, why, whycap);
    if (why != NULL)
        dt__sentence_out("regla: not a value rule (email, telefono, patente, texto, formato, ip, coordenada, imagen)", why,
                         whycap, NULL);
    return DT_ERR_INVALID_ARG;
}

dt_status dt__mc_valor(const dt_mascara_clave *k, int tipo, unsigned buscar, const char *in, size_t len, char *buf,
                       size_t cap, size_t *out_len, char *why, size_t whycap) {
    switch (tipo) {
    /* the rules email and telefono read more than dt_mascara_email and dt_mascara_telefono (and texto,
     * which finds candidates by them): a Unicode address; a phone of another country */
    case DT__MC_EMAIL: return dt__mv_email(k, in, len, buf, cap, out_len, why, whycap, 1);
    case DT__MC_TELEFONO: return dt__mv_telefono(k, in, len, buf, cap, out_len, why, whycap, buscar ? 3 : 2); /* buscar: realista */
    case DT__MC_PATENTE: return dt_mascara_patente(k, in, len, buf, cap, out_len, why, whycap);
    case DT__MC_FORMATO: return dt__mc_formato(k, in, len, buf, cap, out_len, why, whycap);
    case DT__MC_IP: return dt__mc_ip(k, in, len, buf, cap, out_len, why, whycap);
    case DT__MC_COORDENADA: return dt__mc_coordenada(k, in, len, buf, cap, out_len, why, whycap);
    case DT__MC_IMAGEN: return dt__mc_imagen(k, in, len, buf, cap, out_len, why, whycap);
    default: return dt_mascara_texto(k, buscar, in, len, buf, cap, out_len, why, whycap);
    }
}
