/* SipHash-2-4, 64-bit output, as in Aumasson and Bernstein's paper ("SipHash: a fast short-input
 * PRF", 2012) and their reference implementation (github.com/veorq/SipHash, siphash.c): 2
 * compression rounds per 8-byte word, 4 finalization rounds. The round function of the RUT
 * permutation: a standard keyed PRF with published vectors (tests/c/test_mascara.c checks all 64
 * of the reference's vectors.h) and fast on the 8-byte messages a Feistel round hashes. */
#include "mascara/prf.h"

#define DT__ROTL64(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define DT__SIPROUND                 \
    do {                             \
        v0 += v1;                    \
        v1 = DT__ROTL64(v1, 13);     \
        v1 ^= v0;                    \
        v0 = DT__ROTL64(v0, 32);     \
        v2 += v3;                    \
        v3 = DT__ROTL64(v3, 16);     \
        v3 ^= v2;                    \
        v0 += v3;                    \
        v3 = DT__ROTL64(v3, 21);     \
        v3 ^= v0;                    \
        v2 += v1;                    \
        v1 = DT__ROTL64(v1, 17);     \
        v1 ^= v2;                    \
        v2 = DT__ROTL64(v2, 32);     \
    } while (0)

/* "somepseudorandomlygeneratedbytes", the initial state constants of the paper. */
#define DT__SIP_INIT(k0, k1)                               \
    uint64_t v0 = 0x736f6d6570736575ULL ^ (k0);            \
    uint64_t v1 = 0x646f72616e646f6dULL ^ (k1);            \
    uint64_t v2 = 0x6c7967656e657261ULL ^ (k0);            \
    uint64_t v3 = 0x7465646279746573ULL ^ (k1)

uint64_t dt__siphash24(const uint8_t key[16], const uint8_t *in, size_t inlen) {
    uint64_t k0 = dt__le64(key), k1 = dt__le64(key + 8);
    DT__SIP_INIT(k0, k1);
    uint64_t b = (uint64_t)inlen << 56;
    size_t resto = inlen & 7, enteras = inlen - resto;
    for (size_t i = 0; i < enteras; i += 8) {
        uint64_t m = dt__le64(in + i);
        v3 ^= m;
        DT__SIPROUND;
        DT__SIPROUND;
        v0 ^= m;
    }
    /* the last 0..7 bytes in the low bytes of the length word */
    for (size_t j = 0; j < resto; j++) b |= (uint64_t)in[enteras + j] << (8 * j);
    v3 ^= b;
    DT__SIPROUND;
    DT__SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    DT__SIPROUND;
    DT__SIPROUND;
    DT__SIPROUND;
    DT__SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t dt__siphash24_palabra(uint64_t k0, uint64_t k1, uint64_t m) {
    DT__SIP_INIT(k0, k1);
    const uint64_t b = (uint64_t)8 << 56; /* the length word of an 8-byte message: no bytes left */
    v3 ^= m;
    DT__SIPROUND;
    DT__SIPROUND;
    v0 ^= m;
    v3 ^= b;
    DT__SIPROUND;
    DT__SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    DT__SIPROUND;
    DT__SIPROUND;
    DT__SIPROUND;
    DT__SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}
