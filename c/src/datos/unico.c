/* unico: the keyed permutation behind a dataset's unique columns, and the mixing function of
 * row streams and null decisions (docs/stream.md gives both exactly). */
#include "internal.h"

uint64_t dt__mezcla(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Four Feistel rounds over 2h bits; round r's function is the low h bits of
 * mezcla(clave + r * 2^32 + right half). A Feistel network is a bijection whatever its round
 * function, and repeating it from a value outside [0, n) until it falls inside ("cycle walking")
 * keeps it one on [0, n): 2^(2h) < 4n, so fewer than four steps on average. */
static uint64_t dt__feistel(uint64_t clave, unsigned h, uint64_t x) {
    uint64_t mask = (1ULL << h) - 1, l = x >> h, r = x & mask;
    for (uint64_t ronda = 0; ronda < 4; ronda++) {
        uint64_t f = dt__mezcla(clave + (ronda << 32) + r) & mask;
        uint64_t t = l ^ f;
        l = r;
        r = t;
    }
    return (l << h) | r;
}

uint64_t dt__permutar(uint64_t clave, uint64_t n, uint64_t i) {
    unsigned h = 1;
    while (h < 31 && (1ULL << (2 * h)) < n) h++;
    uint64_t x = dt__feistel(clave, h, i);
    while (x >= n) x = dt__feistel(clave, h, x);
    return x;
}
