/* RUT → RUT: a keyed permutation of each body class, the check digit recomputed, the written form
 * kept. docs/enmascarar.md specifies it exactly, so another runtime can reproduce it:
 *
 *   x = body - class.min in [0, n), n = class.max - class.min + 1; t the smallest with 2^t >= n,
 *   u = t div 2, v = t - u; A = x >> v (u bits), B = x & (2^v - 1) (v bits); for round i = 0..9,
 *   m = u for an even i, v for an odd one (A's width):
 *     F = SipHash-2-4(k_class, the 8 little-endian bytes of i | m << 8 | B << 32) mod 2^m,
 *     (A, B) = (B, A xor F);
 *   after the ten rounds A has u bits again: y = A << v | B; while y >= n, apply the ten rounds
 *   again to y (cycle-walking).
 *
 * A Feistel network, balanced or not (FF1's split of an odd width, NIST SP 800-38G), is a bijection
 * of [0, 2^t) whatever its round function, and walking its cycle from a point of [0, n) until it
 * re-enters [0, n) is a bijection of [0, n) (each cycle of the big permutation is cut into runs that
 * start and end inside). 2^t < 2n, so fewer than 2 passes on average (persona 1.16, empresa 1.05).
 * Ten rounds: FF1 (NIST SP 800-38G) uses ten, FF3-1 eight; the known attacks on Feistel
 * format-preserving encryption over small domains (Bellare, Hoang and Tessaro 2016; Durak and
 * Vaudenay 2017; Hoang, Tessaro and Trieu 2018) gain from fewer rounds, and two more cost 25 %. */
#include "internal.h"
#include "mascara/mascara.h"

#define DT__MC_RONDAS 10

/* t is the smallest width with 2^t >= the class size: 20, 25, 26, 21, 24, 24. */
const dt__mc_clase dt__mc_clases[DT__MC_CLASES] = {
    {1, DT_RUT_PERSONA_MIN - 1, 20, "datoteca/rut/menor/v1"},
    {DT_RUT_PERSONA_MIN, DT_RUT_PERSONA_MAX, 25, "datoteca/rut/persona/v1"},
    {DT_RUT_PERSONA_MAX + 1, DT_RUT_EMPRESA_MIN - 1, 26, "datoteca/rut/intermedio/v1"},
    {DT_RUT_EMPRESA_MIN, DT_RUT_EMPRESA_MAX, 21, "datoteca/rut/empresa/v1"},
    {DT_RUT_EMPRESA_MAX + 1, DT_RUT_SA_ANTIGUA_MIN - 1, 24, "datoteca/rut/alto/v1"},
    {DT_RUT_SA_ANTIGUA_MIN, DT_RUT_CUERPO_MAX, 24, "datoteca/rut/sa-antigua/v1"},
};

int dt__mc_clase_de(uint32_t cuerpo) {
    int c = 0;
    while (c < DT__MC_CLASES - 1 && cuerpo > dt__mc_clases[c].max) c++;
    return c;
}

/* Round i's value of B, m bits wide. `tweak` fills the message's bytes 2 and 3, which are 0 for a
 * RUT: the other kinds (mascara_identificadores.c) tell their domains apart with it under one subkey. */
static uint32_t dt__mc_f(const uint64_t k[2], uint32_t tweak, uint32_t i, unsigned m, uint32_t b) {
    uint64_t msg = (uint64_t)i | (uint64_t)m << 8 | (uint64_t)(tweak & 0xFFFFu) << 16 | (uint64_t)b << 32;
    return (uint32_t)dt__siphash24_palabra(k[0], k[1], msg) & ((1u << m) - 1u);
}

static uint32_t dt__mc_feistel(const uint64_t k[2], uint32_t tweak, unsigned t, uint32_t x) {
    unsigned u = t / 2, v = t - u;
    uint32_t a = x >> v, b = x & ((1u << v) - 1u);
    for (uint32_t i = 0; i < DT__MC_RONDAS; i++) {
        uint32_t c = a ^ dt__mc_f(k, tweak, i, i % 2 ? v : u, b);
        a = b;
        b = c;
    }
    return a << v | b; /* ten rounds, an even count: A is u bits wide again */
}

/* The rounds backwards: (A, B) = (B' xor F_i(A'), A') for i = 9..0, F_i of width m_i. */
static uint32_t dt__mc_feistel_inv(const uint64_t k[2], uint32_t tweak, unsigned t, uint32_t y) {
    unsigned u = t / 2, v = t - u;
    uint32_t a = y >> v, b = y & ((1u << v) - 1u);
    for (uint32_t i = DT__MC_RONDAS; i-- > 0;) {
        uint32_t c = b ^ dt__mc_f(k, tweak, i, i % 2 ? v : u, a);
        b = a;
        a = c;
    }
    return a << v | b;
}

static uint32_t dt__mc_caminar(const uint64_t k[2], uint32_t tweak, unsigned t, uint32_t n, uint32_t x, int inversa) {
    do x = inversa ? dt__mc_feistel_inv(k, tweak, t, x) : dt__mc_feistel(k, tweak, t, x);
    while (x >= n);
    return x;
}

uint32_t dt__mc_permutar(const uint64_t k[2], uint32_t tweak, uint32_t n, uint32_t x, int inversa) {
    unsigned t = 1;
    while (t < 31 && (1u << t) < n) t++;
    return n <= 1 ? 0 : dt__mc_caminar(k, tweak, t, n, x, inversa);
}

static uint32_t dt__mc_cuerpo(const dt_mascara_clave *k, uint32_t cuerpo, int inversa) {
    int c = dt__mc_clase_de(cuerpo);
    const dt__mc_clase *cl = &dt__mc_clases[c];
    return cl->min + dt__mc_caminar(k->rut[c], 0, cl->b, cl->max - cl->min + 1, cuerpo - cl->min, inversa);
}

dt_status dt_mascara_rut_clase(uint32_t cuerpo, uint32_t *min, uint32_t *max) {
    if (cuerpo < 1 || cuerpo > DT_RUT_CUERPO_MAX) return DT_ERR_INVALID_ARG;
    const dt__mc_clase *cl = &dt__mc_clases[dt__mc_clase_de(cuerpo)];
    if (min) *min = cl->min;
    if (max) *max = cl->max;
    return DT_OK;
}

static dt_status dt__mc_cuerpo_api(const dt_mascara_clave *k, uint32_t cuerpo, uint32_t *out, int inversa) {
    if (k == NULL || out == NULL) return DT_ERR_NULL;
    if (cuerpo < 1 || cuerpo > DT_RUT_CUERPO_MAX) return DT_ERR_INVALID_ARG;
    *out = dt__mc_cuerpo(k, cuerpo, inversa);
    return DT_OK;
}

dt_status dt_mascara_rut_cuerpo(const dt_mascara_clave *k, uint32_t cuerpo, uint32_t *out) {
    return dt__mc_cuerpo_api(k, cuerpo, out, 0);
}
dt_status dt_mascara_rut_cuerpo_inversa(const dt_mascara_clave *k, uint32_t cuerpo, uint32_t *out) {
    return dt__mc_cuerpo_api(k, cuerpo, out, 1);
}

/* ---- the written form ---- */

static int dt__mc_espacio(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); } /* as dt_rut_leer */
static int dt__mc_digito(char c) { return c >= '0' && c <= '9'; }

/* Where a RUT dt_rut_leer accepted lies in its text: [ini, fin) is the body with its dots,
 * [fin, dv) the dash (0, 1 or 3 bytes), s[dv] the check digit, (dv, len) the trailing whitespace. */
typedef struct dt__mc_forma {
    size_t ini, fin, dv;
    int puntos;
} dt__mc_forma;

static void dt__mc_forma_de(const char *s, size_t len, dt__mc_forma *f) {
    size_t i = 0, n = len;
    while (i < n && dt__mc_espacio(s[i])) i++;
    while (n > i && dt__mc_espacio(s[n - 1])) n--;
    f->ini = i;
    f->dv = n - 1;
    size_t fin = n - 1;
    while (fin > i && !dt__mc_digito(s[fin - 1])) fin--; /* back over the dash: its bytes are not digits */
    f->fin = fin;
    f->puntos = memchr(s + i, '.', fin - i) != NULL;
}

static size_t dt__mc_puntos(const char *s, size_t i, size_t n) {
    size_t p = 0;
    for (size_t j = i; j < n; j++) p += s[j] == '.';
    return p;
}

/* Why dt_rut_leer refused `s`: its checks in its order, each named without the value. */
static const char *dt__mc_diagnostico(const char *s, size_t len) {
    size_t i = 0, n = len;
    if (s == NULL) return "rut: the value is empty";
    while (i < n && dt__mc_espacio(s[i])) i++;
    while (n > i && dt__mc_espacio(s[n - 1])) n--;
    if (n == i) return "rut: the value is empty or only whitespace";
    if (n - i < 2) return "rut: too short for a RUT (a body and a check digit)";
    char dv = s[n - 1];
    if (!dt__mc_digito(dv) && dv != 'k' && dv != 'K') return "rut: it does not end in a check digit (0-9 or K)";
    n--;
    if (n > i && s[n - 1] == '-') n--;
    else if (n - i >= 3) {
        const unsigned char *u = (const unsigned char *)s + n - 3;
        if (u[0] == 0xE2 && ((u[1] == 0x80 && u[2] >= 0x90 && u[2] <= 0x95) || (u[1] == 0x88 && u[2] == 0x92))) n -= 3;
    }
    if (n == i) return "rut: it has no body before the check digit";
    size_t digitos = 0;
    for (size_t j = i; j < n; j++) {
        if (dt__mc_digito(s[j])) digitos++;
        else if (s[j] != '.') return "rut: the body has a character that is not a digit or a dot";
    }
    if (digitos > 8) return "rut: the body has more than 8 digits";
    if (digitos == 0) return "rut: it has no digits before the check digit";
    if (s[i] == '0') return "rut: the body starts with 0";
    if (memchr(s + i, '.', n - i) != NULL) { /* dotted: groups of three from the right, the first of 1..3 */
        size_t grupo = 0;
        for (size_t j = n; j > i; j--) {
            if (s[j - 1] != '.') {
                grupo++;
                continue;
            }
            if (grupo != 3 || j - 1 == i) return "rut: the dots do not separate groups of three digits";
            grupo = 0;
        }
        if (grupo > 3 || dt__mc_puntos(s, i, n) != (digitos - 1) / 3)
            return "rut: the dots do not separate groups of three digits";
    }
    return "rut: the check digit does not match the body";
}

static dt_status dt__mc_rut(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                            size_t *out_len, char *why, size_t whycap, int inversa) {
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (buf != NULL && cap > 0) buf[0] = '\0';
    if (k == NULL || (in == NULL && len > 0) || (buf == NULL && cap > 0)) {
        if (why != NULL)
            dt__sentence_out(k == NULL                 ? "rut: the key is NULL"
                             : in == NULL && len > 0   ? "rut: in is NULL but len is not 0"
                                                       : "rut: buf is NULL but cap is not 0",
                             why, whycap, NULL);
        return DT_ERR_NULL;
    }
    uint32_t cuerpo;
    char dv;
    if (dt_rut_leer(in, len, &cuerpo, &dv) != DT_OK) {
        if (why != NULL) dt__sentence_out(dt__mc_diagnostico(in, len), why, whycap, NULL);
        return DT_ERR_INVALID_RUT;
    }
    dt__mc_forma f;
    dt__mc_forma_de(in, len, &f);
    char cuerpo_txt[16];
    char *e = dt__put_rut(cuerpo_txt, dt__mc_cuerpo(k, cuerpo, inversa), f.puntos ? DT_RUT_PUNTOS : DT_RUT_LIMPIO);
    /* the body, then (dotted: a '-' and) the check digit, which is e[-1] */
    size_t nc = (size_t)(e - cuerpo_txt) - (f.puntos ? 2 : 1);
    char nuevo_dv = e[-1];
    if (nuevo_dv == 'K' && in[f.dv] == 'k') nuevo_dv = 'k';
    size_t total = f.ini + nc + (f.dv - f.fin) + 1 + (len - f.dv - 1);
    if (out_len) *out_len = total;
    if (total + 1 > cap) return DT_ERR_BUFFER_TOO_SMALL;
    char *p = buf;
    p = dt__put(p, in, f.ini);
    p = dt__put(p, cuerpo_txt, nc);
    p = dt__put(p, in + f.fin, f.dv - f.fin);
    *p++ = nuevo_dv;
    p = dt__put(p, in + f.dv + 1, len - f.dv - 1);
    *p = '\0';
    return DT_OK;
}

dt_status dt_mascara_rut(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap, size_t *out_len,
                         char *why, size_t whycap) {
    return dt__mc_rut(k, in, len, buf, cap, out_len, why, whycap, 0);
}
dt_status dt_mascara_rut_inversa(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                 size_t *out_len, char *why, size_t whycap) {
    return dt__mc_rut(k, in, len, buf, cap, out_len, why, whycap, 1);
}
