/* BLAKE2s as RFC 7693 specifies it (section 3 and appendix D), one-shot, keyed or not.
 * The derivation of masking's subkeys from the master key: subkey = BLAKE2s-256(key = master,
 * message = a purpose label). Checked in tests/c/test_mascara.c against RFC 7693's "abc" example
 * (appendix B), its self-test (appendix E) and the keyed KAT of the BLAKE2 reference repository. */
#include <string.h>

#include "mascara/prf.h"

static const uint32_t dt__b2s_iv[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                                        0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};

static const uint8_t dt__b2s_sigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

static inline uint32_t dt__rotr32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

#define DT__B2S_G(a, b, c, d, x, y)           \
    do {                                      \
        v[a] = v[a] + v[b] + (x);             \
        v[d] = dt__rotr32(v[d] ^ v[a], 16);   \
        v[c] = v[c] + v[d];                   \
        v[b] = dt__rotr32(v[b] ^ v[c], 12);   \
        v[a] = v[a] + v[b] + (y);             \
        v[d] = dt__rotr32(v[d] ^ v[a], 8);    \
        v[c] = v[c] + v[d];                   \
        v[b] = dt__rotr32(v[b] ^ v[c], 7);    \
    } while (0)

/* RFC 7693 section 3.2, function F: one 64-byte block, t the bytes hashed so far including it. */
static void dt__b2s_comprimir(uint32_t h[8], const uint8_t bloque[64], uint64_t t, int ultimo) {
    uint32_t v[16], m[16];
    for (int i = 0; i < 16; i++) m[i] = dt__le32(bloque + 4 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = dt__b2s_iv[i];
    }
    v[12] ^= (uint32_t)t;
    v[13] ^= (uint32_t)(t >> 32);
    if (ultimo) v[14] = ~v[14];
    for (int r = 0; r < 10; r++) {
        const uint8_t *s = dt__b2s_sigma[r];
        DT__B2S_G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        DT__B2S_G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        DT__B2S_G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        DT__B2S_G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        DT__B2S_G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        DT__B2S_G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        DT__B2S_G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        DT__B2S_G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
    dt__borrar(v, sizeof v);
    dt__borrar(m, sizeof m);
}

void dt__blake2s(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen) {
    if (outlen < 1) return;
    if (outlen > 32) outlen = 32;
    if (keylen > 32 || key == NULL) keylen = keylen > 32 ? 32 : 0;
    uint32_t h[8];
    uint8_t bloque[64];
    uint64_t t = 0;
    for (int i = 0; i < 8; i++) h[i] = dt__b2s_iv[i];
    /* the parameter block of sequential hashing: digest length, key length, fanout 1, depth 1 */
    h[0] ^= 0x01010000u ^ ((uint32_t)keylen << 8) ^ (uint32_t)outlen;
    if (keylen > 0) { /* the key, padded with zeros to a block, is the first block */
        memset(bloque, 0, sizeof bloque);
        memcpy(bloque, key, keylen);
        t = 64;
        dt__b2s_comprimir(h, bloque, t, inlen == 0);
    } else if (inlen == 0) { /* the empty message is one block of zeros, final, counter 0 */
        memset(bloque, 0, sizeof bloque);
        dt__b2s_comprimir(h, bloque, 0, 1);
    }
    while (inlen > 64) {
        t += 64;
        dt__b2s_comprimir(h, in, t, 0);
        in += 64;
        inlen -= 64;
    }
    if (inlen > 0) { /* the last 1..64 bytes, padded with zeros, final */
        memset(bloque, 0, sizeof bloque);
        memcpy(bloque, in, inlen);
        t += inlen;
        dt__b2s_comprimir(h, bloque, t, 1);
    }
    for (size_t i = 0; i < outlen; i++) out[i] = (uint8_t)(h[i / 4] >> (8 * (i % 4)));
    dt__borrar(h, sizeof h);
    dt__borrar(bloque, sizeof bloque);
}

void dt__borrar(void *p, size_t n) {
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (n--) *v++ = 0;
}
