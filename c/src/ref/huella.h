/* Digests of data: FNV-1a 64 fed a canonical byte encoding, the same on every platform.
 * The generated tables are walked through these to make their fingerprints (dt_referencia_at),
 * and text seeds and derive labels are hashed with the same function. Not installed. */
#ifndef DT_HUELLA_H
#define DT_HUELLA_H

#include <stddef.h>
#include <stdint.h>

#define DT_FNV_BASIS 0xcbf29ce484222325ULL
#define DT_FNV_PRIME 0x100000001b3ULL

static inline uint64_t dt__fnv_bytes(uint64_t h, const void *p, size_t n) {
    const uint8_t *b = (const uint8_t *)p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= DT_FNV_PRIME;
    }
    return h;
}

/* An integer of any width as its 8 little-endian bytes: the digest does not depend on
 * the type a table happens to store it in, nor on the machine's byte order. */
static inline uint64_t dt__huella_u(uint64_t h, uint64_t v) {
    for (int i = 0; i < 8; i++) {
        h ^= (uint8_t)(v >> (8 * i));
        h *= DT_FNV_PRIME;
    }
    return h;
}

/* Text as its byte length (as above) followed by its bytes. */
static inline uint64_t dt__huella_s(uint64_t h, const char *s, size_t n) {
    return dt__fnv_bytes(dt__huella_u(h, n), s, n);
}

/* Text in a NUL-terminated (or NUL-padded) array. */
static inline uint64_t dt__huella_z(uint64_t h, const char *s, size_t cap) {
    size_t n = 0;
    while (n < cap && s[n]) n++;
    return dt__huella_s(h, s, n);
}

#endif
