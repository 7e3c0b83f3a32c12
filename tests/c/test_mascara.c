/* Masking, part 1 (docs/enmascarar.md): the PRFs against their published vectors, the key and its
 * refusals (no sentence carries any 8 characters of the key given), the RUT permutation (no
 * collision over 10,000,000 persona bodies and whole classes, images in their class, the inverse
 * undoing it, another key agreeing on almost nothing), the written form kept, refusals that never
 * repeat the value. Check digits are checked with the mod 11 of rut_ref.h, not the library's. */
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"
#include "mascara/mascara.h"
#include "mascara_vectores.h"
#include "rut_ref.h"

/* Two test keys: the first is the bytes 00..1f, the second differs from it in one bit. */
static const char CLAVE_A[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char CLAVE_B[] = "010102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

static void a_hex(const uint8_t *b, size_t n, char *out) {
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = d[b[i] >> 4];
        out[2 * i + 1] = d[b[i] & 15];
    }
    out[2 * n] = '\0';
}

static void prf_vectores(void) {
    uint8_t in[1024], key[32], out[32];
    char hex[65];
    for (int i = 0; i < 256; i++) in[i] = (uint8_t)i;
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)i;

    /* SipHash-2-4: the reference's 64 vectors, and the 8-byte word path against the byte path */
    for (size_t i = 0; i < 64; i++) {
        uint64_t h = dt__siphash24(key, in, i);
        uint8_t b[8];
        for (int j = 0; j < 8; j++) b[j] = (uint8_t)(h >> (8 * j));
        a_hex(b, 8, hex);
        CHECK(strcmp(hex, vec_sip64[i]) == 0, "SipHash-2-4 vector %zu (key 00..0f, message 00..%zu): expected %s, got %s",
              i, i ? i - 1 : 0, vec_sip64[i], hex);
    }
    uint64_t k0 = dt__le64(key), k1 = dt__le64(key + 8);
    CHECK(dt__siphash24_palabra(k0, k1, dt__le64(in)) == dt__siphash24(key, in, 8), "SipHash word path, vector 8");
    uint32_t x = 0x9e3779b9u; /* xorshift32 for test inputs */
    for (int i = 0; i < 10000; i++) {
        uint8_t m[8], k[16];
        for (int j = 0; j < 8; j++) x ^= x << 13, x ^= x >> 17, x ^= x << 5, m[j] = (uint8_t)x;
        for (int j = 0; j < 16; j++) x ^= x << 13, x ^= x >> 17, x ^= x << 5, k[j] = (uint8_t)x;
        CHECK(dt__siphash24_palabra(dt__le64(k), dt__le64(k + 8), dt__le64(m)) == dt__siphash24(k, m, 8),
              "SipHash word path differs from the byte path, xorshift32 iteration %d", i);
    }

    /* BLAKE2s: RFC 7693 appendix B, the keyed and unkeyed KAT */
    dt__blake2s(out, 32, NULL, 0, (const uint8_t *)"abc", 3);
    a_hex(out, 32, hex);
    CHECK(strcmp(hex, vec_b2s_abc) == 0, "BLAKE2s-256(\"abc\") (RFC 7693 B): expected %s, got %s", vec_b2s_abc, hex);
    for (size_t i = 0; i < sizeof vec_b2s_keyed / sizeof vec_b2s_keyed[0]; i++) {
        dt__blake2s(out, 32, key, 32, in, vec_b2s_keyed[i].len);
        a_hex(out, 32, hex);
        CHECK(strcmp(hex, vec_b2s_keyed[i].hash) == 0, "keyed BLAKE2s KAT, message length %zu: expected %s, got %s",
              vec_b2s_keyed[i].len, vec_b2s_keyed[i].hash, hex);
    }
    for (size_t i = 0; i < sizeof vec_b2s_unkeyed / sizeof vec_b2s_unkeyed[0]; i++) {
        dt__blake2s(out, 32, NULL, 0, in, vec_b2s_unkeyed[i].len);
        a_hex(out, 32, hex);
        CHECK(strcmp(hex, vec_b2s_unkeyed[i].hash) == 0, "BLAKE2s KAT, message length %zu: expected %s, got %s",
              vec_b2s_unkeyed[i].len, vec_b2s_unkeyed[i].hash, hex);
    }
    /* RFC 7693 appendix E: digests of 16..32 bytes, keys of as many bytes, messages up to 1024 */
    static const size_t md_len[4] = {16, 20, 28, 32}, in_len[6] = {0, 3, 64, 65, 255, 1024};
    uint8_t todos[2 * 6 * (16 + 20 + 28 + 32)], md[32];
    size_t n = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++) {
            size_t outlen = md_len[i], inlen = in_len[j];
            uint32_t a = (uint32_t)(0xDEAD4BADu * inlen), b = 1, t; /* selftest_seq(in, inlen, inlen) */
            for (size_t q = 0; q < inlen; q++) t = a + b, a = b, b = t, in[q] = (uint8_t)(t >> 24);
            dt__blake2s(md, outlen, NULL, 0, in, inlen);
            memcpy(todos + n, md, outlen), n += outlen;
            a = (uint32_t)(0xDEAD4BADu * outlen), b = 1; /* selftest_seq(key, outlen, outlen) */
            for (size_t q = 0; q < outlen; q++) t = a + b, a = b, b = t, key[q] = (uint8_t)(t >> 24);
            dt__blake2s(md, outlen, key, outlen, in, inlen);
            memcpy(todos + n, md, outlen), n += outlen;
        }
    dt__blake2s(out, 32, NULL, 0, todos, n);
    a_hex(out, 32, hex);
    CHECK(strcmp(hex, vec_b2s_selftest) == 0, "BLAKE2s self-test (RFC 7693 E): expected %s, got %s", vec_b2s_selftest, hex);

    uint8_t secreto[40];
    memset(secreto, 0xA5, sizeof secreto);
    dt__borrar(secreto + 4, 32);
    int ceros = 1;
    for (int i = 4; i < 36; i++) ceros &= secreto[i] == 0;
    CHECK(ceros && secreto[3] == 0xA5 && secreto[36] == 0xA5, "dt__borrar must zero exactly its range");
}

/* Fails when any 8 consecutive characters of `dado` appear in `why`. */
static void sin_clave(const char *caso, const char *dado, size_t n, const char *why) {
    for (size_t i = 0; i + 8 <= n; i++) {
        char v[9];
        memcpy(v, dado + i, 8);
        v[8] = '\0';
        CHECK(strstr(why, v) == NULL, "key case '%s': the sentence repeats characters %zu..%zu of the key: %s", caso, i + 1,
              i + 8, why);
    }
}

static dt_mascara_clave *clave(const char *hex) {
    dt_mascara_clave *k = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_mascara_clave_new(hex, strlen(hex), &k, why, sizeof why);
    if (st != DT_OK) {
        fprintf(stderr, "test key refused (%d): %s\n", (int)st, why);
        exit(1);
    }
    return k;
}

static void claves(void) {
    char why[DT_SENTENCE_MAX], t[200];
    dt_mascara_clave *k = (dt_mascara_clave *)1;
    /* accepted: upper or lower case, one final newline; all three give the same mapping */
    dt_mascara_clave *a = clave(CLAVE_A), *b;
    for (int i = 0; i < 64; i++) t[i] = (char)toupper((unsigned char)CLAVE_A[i]);
    t[64] = '\n';
    CHECK_OK(dt_mascara_clave_new(t, 65, &b, why, sizeof why), "upper-case key with a newline: %s", why);
    CHECK(why[0] == '\0', "a key accepted leaves an empty sentence, got '%s'", why);
    if (b) {
        CHECK(memcmp(a, b, sizeof *a) == 0, "upper-case key + newline derives other subkeys than the lower-case key");
        dt_mascara_clave_free(b);
    }
    /* the subkeys are BLAKE2s-256(master, label), first 16 bytes: recomputed here from the vectors-checked PRF */
    uint8_t m[32], sub[32];
    for (int i = 0; i < 32; i++) m[i] = (uint8_t)i;
    for (int c = 0; c < DT__MC_CLASES; c++) {
        dt__blake2s(sub, 32, m, 32, (const uint8_t *)dt__mc_clases[c].etiqueta, strlen(dt__mc_clases[c].etiqueta));
        CHECK(a->rut[c][0] == dt__le64(sub) && a->rut[c][1] == dt__le64(sub + 8), "class %d (%s): subkey", c,
              dt__mc_clases[c].etiqueta);
    }
    dt_mascara_clave_free(a);
    dt_mascara_clave_free(NULL);

    /* refused, each with the words that say why */
    static const struct { const char *caso; const char *sufijo; int corte; const char *frase; } malas[] = {
        {"empty", "", -64, "is empty"},
        {"63 digits", "", 1, "63 hexadecimal digits, 1 too few"},
        {"32 digits", "", 32, "32 hexadecimal digits, 32 too few"},
        {"65 digits", "a", 0, "65 hexadecimal digits, 1 too many"},
        {"64 digits and a letter", "x", 0, "character 65 is not a hexadecimal digit"},
        {"two newlines", "\n\n", 0, "character 65 is a newline"},
        {"CRLF", "\r\n", 0, "character 65 is a carriage return"},
        {"trailing space", " ", 0, "character 65 is a space"},
        {"128 digits", CLAVE_B, 0, "128 hexadecimal digits, 64 too many"},
        {"two newlines only", "\n", -63, "character 1 of the key is a newline"},
        {"a newline only", "", -63, "is empty"},
    };
    for (size_t i = 0; i < sizeof malas / sizeof malas[0]; i++) {
        size_t n = 64;
        memcpy(t, CLAVE_B, 64);
        if (malas[i].corte > 0) n -= (size_t)malas[i].corte;
        if (malas[i].corte < 0) n = 0;
        if (malas[i].corte == -63) t[n++] = '\n';
        memcpy(t + n, malas[i].sufijo, strlen(malas[i].sufijo));
        n += strlen(malas[i].sufijo);
        k = (dt_mascara_clave *)1;
        dt_status st = dt_mascara_clave_new(t, n, &k, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && k == NULL, "key case '%s': status %d, key %p", malas[i].caso, (int)st, (void *)k);
        CHECK(strncmp(why, "clave: ", 7) == 0 && strstr(why, malas[i].frase) != NULL,
              "key case '%s': expected a sentence with '%s', got '%s'", malas[i].caso, malas[i].frase, why);
        sin_clave(malas[i].caso, t, n, why);
    }
    /* a character that is not hex, at every position: the sentence says where, never what */
    static const char raros[] = "gGzZ-+/=: \t\x01\xc3";
    for (size_t p = 0; p < 64; p++) {
        memcpy(t, CLAVE_B, 64);
        t[p] = raros[p % (sizeof raros - 1)];
        k = (dt_mascara_clave *)1;
        dt_status st = dt_mascara_clave_new(t, 64, &k, why, sizeof why);
        char donde[40];
        snprintf(donde, sizeof donde, "character %zu of the key", p + 1);
        CHECK(st == DT_ERR_INVALID_ARG && k == NULL && strstr(why, donde) != NULL,
              "key with a non-hex character at %zu: status %d, sentence '%s'", p + 1, (int)st, why);
        sin_clave("non-hex character", t, 64, why);
    }
    /* NULLs, a tiny sentence buffer, no sentence buffer */
    CHECK(dt_mascara_clave_new(CLAVE_A, 64, NULL, why, sizeof why) == DT_ERR_NULL && strstr(why, "out is NULL"), "NULL out: '%s'", why);
    sin_clave("NULL out", CLAVE_A, 64, why);
    CHECK(dt_mascara_clave_new(NULL, 64, &k, why, sizeof why) == DT_ERR_NULL && k == NULL, "NULL text, len 64");
    CHECK(dt_mascara_clave_new(NULL, 0, &k, why, sizeof why) == DT_ERR_INVALID_ARG && k == NULL, "NULL text, len 0");
    CHECK(dt_mascara_clave_new(CLAVE_A, 10, &k, NULL, 0) == DT_ERR_INVALID_ARG && k == NULL, "no sentence buffer");
    char corto[8];
    CHECK(dt_mascara_clave_new(CLAVE_A, 10, &k, corto, sizeof corto) == DT_ERR_INVALID_ARG && strlen(corto) == 7,
          "sentence truncated to its buffer: '%s'", corto);
}

static void clases(void) {
    uint32_t lo, hi, siguiente = 1;
    for (int c = 0; c < DT__MC_CLASES; c++) {
        const dt__mc_clase *cl = &dt__mc_clases[c];
        CHECK(cl->min == siguiente, "class %d starts at %u, expected %u (classes must be contiguous)", c, cl->min, siguiente);
        uint64_t n = (uint64_t)cl->max - cl->min + 1;
        CHECK((1ULL << cl->b) >= n && (1ULL << (cl->b - 1)) < n, "class %d: t = %u is not the smallest with 2^t >= %llu", c, cl->b,
              (unsigned long long)n);
        CHECK_OK(dt_mascara_rut_clase(cl->min, &lo, &hi), "class of %u", cl->min);
        CHECK(lo == cl->min && hi == cl->max, "dt_mascara_rut_clase(%u) = %u..%u", cl->min, lo, hi);
        CHECK_OK(dt_mascara_rut_clase(cl->max, &lo, &hi), "class of %u", cl->max);
        CHECK(lo == cl->min && hi == cl->max, "dt_mascara_rut_clase(%u) = %u..%u", cl->max, lo, hi);
        siguiente = cl->max + 1;
    }
    CHECK(siguiente == DT_RUT_CUERPO_MAX + 1u, "classes end at %u, expected %u", siguiente - 1, DT_RUT_CUERPO_MAX);
    CHECK(dt__mc_clases[1].min == DT_RUT_PERSONA_MIN && dt__mc_clases[1].max == DT_RUT_PERSONA_MAX, "persona class");
    CHECK(dt__mc_clases[3].min == DT_RUT_EMPRESA_MIN && dt__mc_clases[3].max == DT_RUT_EMPRESA_MAX, "empresa class");
    CHECK(dt_mascara_rut_clase(0, &lo, &hi) == DT_ERR_INVALID_ARG, "class of 0");
    CHECK(dt_mascara_rut_clase(DT_RUT_CUERPO_MAX + 1u, NULL, NULL) == DT_ERR_INVALID_ARG, "class of 100,000,000");
    CHECK_OK(dt_mascara_rut_clase(12345678, NULL, NULL), "NULL bounds");
}

/* `cuantos` distinct bodies of class c (the whole class when cuantos covers it): min + (i * paso) mod n,
 * paso prime to n, so they spread over the class. Each image in the class, no two alike (a bitmap),
 * the inverse of each image its body. */
/* --corto (for emulated cross-architecture runs): a twentieth of the bodies. --completo: every body
 * of every class, 99,999,999 in all (a few minutes; by hand, not in CTest). */
static uint32_t divisor = 1;
static int completo = 0;

static void biyeccion(const dt_mascara_clave *k, int c, uint32_t cuantos, uint32_t paso) {
    const dt__mc_clase *cl = &dt__mc_clases[c];
    uint32_t n = cl->max - cl->min + 1;
    cuantos /= divisor;
    if (cuantos > n) cuantos = n;
    uint8_t *visto = calloc(n / 8 + 1, 1);
    if (!visto) exit(1);
    uint64_t colisiones = 0, fuera = 0, inversas = 0, fijos = 0;
    uint64_t x = 0;
    for (uint32_t i = 0; i < cuantos; i++) {
        uint32_t cuerpo = cl->min + (uint32_t)x, y = 0, z = 0;
        x += paso;
        if (x >= n) x %= n;
        dt_mascara_rut_cuerpo(k, cuerpo, &y);
        if (y < cl->min || y > cl->max) {
            if (fuera++ < 3) CHECK(0, "class %d: body %u masks to %u, outside %u..%u", c, cuerpo, y, cl->min, cl->max);
            continue;
        }
        uint32_t j = y - cl->min;
        if (visto[j >> 3] & (1u << (j & 7))) {
            if (colisiones++ < 3) CHECK(0, "class %d: body %u masks to %u, already the image of another body", c, cuerpo, y);
        }
        visto[j >> 3] |= (uint8_t)(1u << (j & 7));
        dt_mascara_rut_cuerpo_inversa(k, y, &z);
        if (z != cuerpo && inversas++ < 3) CHECK(0, "class %d: body %u masks to %u, whose inverse is %u", c, cuerpo, y, z);
        fijos += y == cuerpo;
    }
    free(visto);
    CHECK(colisiones == 0 && fuera == 0 && inversas == 0, "class %d: %llu collisions, %llu outside, %llu bad inverses", c,
          (unsigned long long)colisiones, (unsigned long long)fuera, (unsigned long long)inversas);
    /* a random permutation has one fixed point on average; many would mean a weak round function */
    CHECK(fijos < 20, "class %d: %llu of %u bodies mask to themselves", c, (unsigned long long)fijos, cuantos);
    printf("  class %u..%u: %u bodies, no collision, inverse exact, %llu fixed points\n", cl->min, cl->max, cuantos,
           (unsigned long long)fijos);
}

/* Known answers under CLAVE_A, computed by tests/c/mascara_ref.py (Python, written from
 * docs/enmascarar.md with hashlib's BLAKE2s) and checked against it by the mascara_ref CTest:
 * the bounds of every class and a few inside. A change here is a change of the mapping contract. */
static const struct { uint32_t cuerpo, enmascarado; } conocidos[] = {
        {1u, 534116u},
        {2u, 417469u},
        {999999u, 566428u},
        {1000000u, 3635239u},
        {12345678u, 1192169u},
        {29999999u, 28338202u},
        {30000000u, 56645222u},
        {75999999u, 55498443u},
        {76000000u, 77719733u},
        {77999999u, 77820161u},
        {78000000u, 78302018u},
        {89999999u, 85101812u},
        {90000000u, 94472028u},
        {97004000u, 97791052u},
        {99999999u, 93542900u},
};

static void permutacion(void) {
    dt_mascara_clave *a = clave(CLAVE_A), *b = clave(CLAVE_B);
    for (size_t i = 0; i < sizeof conocidos / sizeof conocidos[0]; i++) {
        uint32_t y = 0, z = 0;
        CHECK_OK(dt_mascara_rut_cuerpo(a, conocidos[i].cuerpo, &y), "known answer %zu", i);
        CHECK(y == conocidos[i].enmascarado, "key A, body %u: expected %u (tests/c/mascara_ref.py), got %u",
              conocidos[i].cuerpo, conocidos[i].enmascarado, y);
        CHECK_OK(dt_mascara_rut_cuerpo_inversa(a, conocidos[i].enmascarado, &z), "known answer %zu", i);
        CHECK(z == conocidos[i].cuerpo, "key A, inverse of %u: expected %u, got %u", conocidos[i].enmascarado,
              conocidos[i].cuerpo, z);
    }
    if (completo)
        for (int c = 0; c < DT__MC_CLASES; c++) biyeccion(a, c, DT_RUT_CUERPO_MAX, 1);
    biyeccion(a, 1, 10000000, 7919);    /* persona: 10,000,000 of 29,000,000 */
    biyeccion(a, 3, 2000000, 1);        /* empresa: the whole class */
    biyeccion(a, 0, 999999, 1);         /* below persona: the whole class */
    biyeccion(a, 2, 500000, 104729);    /* the others: 500,000 each */
    biyeccion(a, 4, 500000, 104729);
    biyeccion(a, 5, 500000, 104729);
    biyeccion(b, 1, 500000, 15485863);  /* the other key is a permutation too */
    /* a key one bit away agrees on fewer than 0.1 % of 1,000,000 persona bodies (and 200,000 empresa) */
    for (int c = 1; c <= 3; c += 2) {
        const dt__mc_clase *cl = &dt__mc_clases[c];
        uint32_t n = cl->max - cl->min + 1, iguales = 0, total = c == 1 ? 1000000 : 200000;
        uint32_t x = 0x2545f491u;
        for (uint32_t i = 0; i < total; i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            uint32_t cuerpo = cl->min + x % n, ya, yb;
            dt_mascara_rut_cuerpo(a, cuerpo, &ya);
            dt_mascara_rut_cuerpo(b, cuerpo, &yb);
            iguales += ya == yb;
        }
        CHECK(iguales < total / 1000, "class %d: keys A and B (one bit apart) agree on %u of %u bodies (xorshift32 0x2545f491)",
              c, iguales, total);
        printf("  class %u..%u: keys one bit apart agree on %u of %u bodies\n", cl->min, cl->max, iguales, total);
    }
    uint32_t y;
    CHECK(dt_mascara_rut_cuerpo(a, 0, &y) == DT_ERR_INVALID_ARG, "body 0");
    CHECK(dt_mascara_rut_cuerpo(a, 100000000u, &y) == DT_ERR_INVALID_ARG, "body 100,000,000");
    CHECK(dt_mascara_rut_cuerpo_inversa(a, 100000000u, &y) == DT_ERR_INVALID_ARG, "inverse of body 100,000,000");
    CHECK(dt_mascara_rut_cuerpo(NULL, 1, &y) == DT_ERR_NULL, "NULL key");
    CHECK(dt_mascara_rut_cuerpo(a, 1, NULL) == DT_ERR_NULL, "NULL out");
    CHECK_OK(dt_mascara_rut_cuerpo(a, 1, &y), "body 1");
    CHECK_OK(dt_mascara_rut_cuerpo(a, DT_RUT_CUERPO_MAX, &y), "body 99,999,999");
    dt_mascara_clave_free(a);
    dt_mascara_clave_free(b);
}

/* A body written with or without dots, here, not by the library. */
static void escribir_cuerpo(uint32_t v, int puntos, char *out) {
    char d[16];
    int n = snprintf(d, sizeof d, "%u", v), o = 0;
    for (int i = 0; i < n; i++) {
        if (puntos && i > 0 && (n - i) % 3 == 0) out[o++] = '.';
        out[o++] = d[i];
    }
    out[o] = '\0';
}

static void formas(void) {
    dt_mascara_clave *k = clave(CLAVE_A);
    char buf[64], why[DT_SENTENCE_MAX], esperado[64], cuerpo_txt[16];
    size_t len;
    /* written by hand: what surrounds the body, whether it is dotted, the dash between */
    static const struct { const char *antes; const char *cuerpo; const char *guion; const char *despues; int puntos; } casos[] = {
        {"", "12.345.678", "-", "", 1},
        {"", "12345678", "-", "", 0},
        {"", "12345678", "", "", 0},
        {"  ", "12.345.678", "-", "\t\n", 1},
        {"\r\n", "9.876.543", "-", " ", 1},
        {"", "9876543", "\xe2\x80\x90", "", 0},          /* U+2010 */
        {" ", "76.123.456", "\xe2\x88\x92", " ", 1},     /* U+2212 */
        {"", "76123456", "\xe2\x80\x93", "", 0},          /* U+2013 */
        {"", "1", "-", "", 0},                            /* a body of one digit may gain five */
        {"", "999.999", "-", "", 1},
        {"", "5", "", "", 0},
        {"\v\f", "99.999.999", "-", "\v", 1},
        {"", "1.000.000", "-", "", 1},
        {"", "29999999", "-", "", 0},
    };
    for (size_t i = 0; i < sizeof casos / sizeof casos[0]; i++) {
        char in[64];
        uint32_t v = 0;
        for (const char *p = casos[i].cuerpo; *p; p++)
            if (*p != '.') v = v * 10 + (uint32_t)(*p - '0');
        snprintf(in, sizeof in, "%s%s%s%c%s", casos[i].antes, casos[i].cuerpo, casos[i].guion, mod11(v), casos[i].despues);
        dt_status st = dt_mascara_rut(k, in, strlen(in), buf, sizeof buf, &len, why, sizeof why);
        CHECK_OK(st, "form case %zu: %s", i, why);
        uint32_t y = 0, lo, hi;
        dt_mascara_rut_cuerpo(k, v, &y);
        dt_mascara_rut_clase(v, &lo, &hi);
        CHECK(y >= lo && y <= hi, "form case %zu: masked body %u outside its class %u..%u", i, y, lo, hi);
        escribir_cuerpo(y, casos[i].puntos, cuerpo_txt);
        snprintf(esperado, sizeof esperado, "%s%s%s%c%s", casos[i].antes, cuerpo_txt, casos[i].guion, mod11(y), casos[i].despues);
        CHECK(st == DT_OK && strcmp(buf, esperado) == 0 && len == strlen(esperado), "form case %zu: expected '%s', got '%s' (len %zu)",
              i, esperado, buf, len);
        CHECK(len <= strlen(in) + 6, "form case %zu: %zu bytes from %zu", i, len, strlen(in));
        char back[64];
        st = dt_mascara_rut_inversa(k, buf, len, back, sizeof back, &len, why, sizeof why);
        CHECK(st == DT_OK && strcmp(back, in) == 0, "form case %zu: inverse of '%s' is '%s', expected '%s'", i, buf, back, in);
    }
    /* k/K: a lower-case k stays lower-case when the masked check digit is K; an upper-case K stays upper */
    int k_k = 0, k_digito = 0, digito_k = 0;
    for (uint32_t v = 1000000; v < 1300000 && (k_k < 3 || k_digito < 3 || digito_k < 3); v++) {
        uint32_t y;
        dt_mascara_rut_cuerpo(k, v, &y);
        char dv = mod11(v), dvy = mod11(y), in[32];
        if (dv != 'K' && dvy != 'K') continue;
        for (int minus = 0; minus < 2; minus++) {
            snprintf(in, sizeof in, "%u-%c", v, dv == 'K' && minus ? 'k' : dv);
            CHECK_OK(dt_mascara_rut(k, in, strlen(in), buf, sizeof buf, &len, why, sizeof why), "'%s': %s", in, why);
            char want = dvy == 'K' && dv == 'K' && minus ? 'k' : dvy;
            snprintf(esperado, sizeof esperado, "%u-%c", y, want);
            CHECK(strcmp(buf, esperado) == 0, "'%s': expected '%s', got '%s'", in, esperado, buf);
        }
        if (dv == 'K' && dvy == 'K') k_k++;
        else if (dv == 'K') k_digito++;
        else digito_k++;
    }
    CHECK(k_k >= 3 && k_digito >= 3 && digito_k >= 3, "k/K cases found: %d, %d, %d", k_k, k_digito, digito_k);

    /* generated RUTs of every format and both kinds: text path equals the body path, outputs validate */
    dt_gen *g;
    dt_new(0x6d61736b, &g);
    for (int i = 0; i < 100000; i++) {
        int tipo = i % 2, formato = (i / 2) % 3;
        char in[32];
        size_t n;
        dt_rut(g, tipo, formato, in, sizeof in, &n);
        dt_status st = dt_mascara_rut(k, in, n, buf, sizeof buf, &len, why, sizeof why);
        uint32_t cuerpo = 0, esperado_cuerpo, salida = 0;
        rut_ref_ok(in, formato, &cuerpo);
        dt_mascara_rut_cuerpo(k, cuerpo, &esperado_cuerpo);
        CHECK(st == DT_OK && rut_ref_ok(buf, formato, &salida) && salida == esperado_cuerpo,
              "seed 0x6d61736b iteration %d: '%s' masked to '%s' (status %d), expected body %u in format %d", i, in, buf,
              (int)st, esperado_cuerpo, formato);
        uint32_t lo, hi;
        dt_mascara_rut_clase(cuerpo, &lo, &hi);
        CHECK(salida >= lo && salida <= hi, "iteration %d: '%s' -> '%s' leaves its class", i, in, buf);
    }
    dt_free(g);

    /* buffers: a size query, one byte short, exactly enough */
    const char *in = "12.345.678-5";
    size_t necesario = 0;
    CHECK_OK(dt_mascara_rut(k, in, strlen(in), buf, sizeof buf, &necesario, why, sizeof why), "%s", why);
    CHECK(dt_mascara_rut(k, in, strlen(in), NULL, 0, &len, why, sizeof why) == DT_ERR_BUFFER_TOO_SMALL && len == necesario,
          "size query: len %zu, expected %zu", len, necesario);
    CHECK(dt_mascara_rut(k, in, strlen(in), buf, necesario, &len, why, sizeof why) == DT_ERR_BUFFER_TOO_SMALL &&
              buf[0] == '\0' && len == necesario,
          "cap %zu for %zu bytes", necesario, necesario);
    CHECK_OK(dt_mascara_rut(k, in, strlen(in), buf, necesario + 1, &len, NULL, 0), "cap %zu for %zu bytes", necesario + 1,
             necesario);
    CHECK(dt_mascara_rut(NULL, in, strlen(in), buf, sizeof buf, &len, why, sizeof why) == DT_ERR_NULL &&
              strcmp(why, "rut: the key is NULL") == 0,
          "NULL key: '%s'", why);
    CHECK(dt_mascara_rut(k, NULL, 3, buf, sizeof buf, &len, why, sizeof why) == DT_ERR_NULL, "NULL text");
    CHECK(dt_mascara_rut(k, in, strlen(in), NULL, 5, &len, why, sizeof why) == DT_ERR_NULL, "NULL buf, cap 5");
    dt_mascara_clave_free(k);
}

static void rechazos(void) {
    dt_mascara_clave *k = clave(CLAVE_A);
    char buf[64], why[DT_SENTENCE_MAX];
    size_t len;
    static const struct { const char *in; const char *frase; } malos[] = {
        {"12.345.678-4", "the check digit does not match the body"},
        {"12345678-K", "the check digit does not match the body"},
        {"  76543210-1 ", "the check digit does not match the body"},
        {"", "empty"},
        {"   \t", "empty or only whitespace"},
        {"5", "too short"},
        {"12345678-X", "does not end in a check digit"},
        {"-5", "no body"},
        {"1234 5678-5", "not a digit or a dot"},
        {"12,345,678-5", "not a digit or a dot"},
        {"123456789-2", "more than 8 digits"},
        {"012345678-5", "more than 8 digits"},
        {"01234567-2", "starts with 0"},
        {"12.345678-5", "dots do not separate"},
        {"1.2345.678-5", "dots do not separate"},
        {"12.345.678--5", "not a digit or a dot"},
        {"\xc3\xb1" "2345678-5", "not a digit or a dot"},
    };
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        const char *in = malos[i].in;
        size_t n = strlen(in);
        CHECK(dt_rut_validar(in, n) != DT_OK, "case %zu is a valid RUT: fix the test", i);
        for (int inv = 0; inv < 2; inv++) {
            strcpy(buf, "sentinel");
            dt_status st = (inv ? dt_mascara_rut_inversa : dt_mascara_rut)(k, in, n, buf, sizeof buf, &len, why, sizeof why);
            CHECK(st == DT_ERR_INVALID_RUT && buf[0] == '\0', "refusal case %zu: status %d, buf '%s'", i, (int)st, buf);
            CHECK(strncmp(why, "rut: ", 5) == 0 && strstr(why, malos[i].frase) != NULL,
                  "refusal case %zu: expected a sentence with '%s', got '%s'", i, malos[i].frase, why);
            /* the value is never repeated: no 4 characters of it with a digit among them */
            for (size_t j = 0; j + 4 <= n; j++) {
                char v[5];
                memcpy(v, in + j, 4);
                v[4] = '\0';
                if (strpbrk(v, "0123456789") && strcmp(v, "0-9 ") != 0)
                    CHECK(strstr(why, v) == NULL, "refusal case %zu: the sentence repeats '%s' of the value: %s", i, v, why);
            }
        }
    }
    dt_mascara_clave_free(k);
}

int main(int argc, char **argv) {
    if ((argc == 2 && strcmp(argv[1], "--corto") == 0) || getenv("DT_TEST_CORTO")) divisor = 20; /* sanitizers.sh sets it */
    if (argc == 2 && strcmp(argv[1], "--completo") == 0) completo = 1;
    prf_vectores();
    claves();
    clases();
    permutacion();
    formas();
    rechazos();
    return dt_test_done("test_mascara");
}
