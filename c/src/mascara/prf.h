/* The keyed pseudorandom functions of masking (docs/enmascarar.md), written once from their
 * standards, integer-only and independent of the machine's byte order: every multi-byte word is
 * loaded and stored byte by byte, little-endian as both standards say. Internal: not installed,
 * not exported from the shared library (dt__ names are hidden); tests/c/test_mascara.c checks
 * them against the published vectors. Pure functions of their arguments: thread-safe. */
#ifndef DT_MASCARA_PRF_H
#define DT_MASCARA_PRF_H

#include <stddef.h>
#include <stdint.h>

/* BLAKE2s (RFC 7693): the digest of `inlen` bytes at `in` into `outlen` bytes at `out` (1..32;
 * BLAKE2s-256 is outlen 32), keyed with `keylen` bytes at `key` (0..32; 0 = unkeyed, and `key`
 * may then be NULL). `in` may be NULL only when inlen == 0. The caller checks the lengths: out of
 * range they are clamped, never read or written past. Wipes its own state before returning. */
void dt__blake2s(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen, const uint8_t *in, size_t inlen);

/* SipHash-2-4 with a 64-bit output (Aumasson and Bernstein, 2012; the reference implementation at
 * github.com/veorq/SipHash): `key` is 16 bytes, k0 = its first 8 read little-endian, k1 the next 8.
 * Returns the hash as an integer; its 8 bytes little-endian are the reference's output bytes.
 * `in` may be NULL only when inlen == 0. */
uint64_t dt__siphash24(const uint8_t key[16], const uint8_t *in, size_t inlen);

/* The same function on a message of exactly 8 bytes given as the little-endian word `m`, with the
 * key as its two words (k0, k1): dt__siphash24(key, LE64(m), 8) without the byte loop. The round
 * function of the RUT permutation. */
uint64_t dt__siphash24_palabra(uint64_t k0, uint64_t k1, uint64_t m);

/* Overwrite n bytes with zeros through a volatile pointer, so the compiler cannot drop the stores
 * as dead (memset before free may be removed). For secrets: keys, subkeys, hash states. */
void dt__borrar(void *p, size_t n);

/* Little-endian loads and stores, byte by byte. */
static inline uint64_t dt__le64(const uint8_t *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}
static inline uint32_t dt__le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
