/* PCG32 against the reference's own published demo output.
 *
 * Source: pcg32-demo.c of the PCG reference "Minimal C Edition" (imneme/pcg-c-basic),
 * seeded with pcg32_srandom_r(&rng, 42u, 54u); its published output, round 1:
 *   32bit: 0xa15c02b7 0x7b47f409 0xba1d3330 0x83d2f293 0xbfa4784b 0xcbed606e
 *   Coins: HHTTTHTHHHTHTTTHHHHHTTTHHHTHTHTHTTHTTTHHHHHHTTTTHHTTTTTHTTTTTTTHT
 *   Rolls: 3 4 1 1 2 2 3 2 4 3 2 4 3 3 5 2 3 1 3 1 5 1 4 1 5 6 4 6 6 2 6 3 3
 * The coins and rolls use the reference's pcg32_boundedrand_r (threshold = -bound % bound,
 * reject below it, then r % bound), written here from the reference, over dt_next_u32.
 * The state right after seeding (state 1753877967969059832, increment 109) is the same
 * reference's, as dumped by the pcg-c test suite. */
#include "check.h"
#include "datoteca.h"

static uint32_t ref_bounded(dt_gen *g, uint32_t bound, int *draws) {
    uint32_t threshold = (uint32_t)(-bound) % bound;
    for (;;) {
        uint32_t r;
        dt_next_u32(g, &r);
        (*draws)++;
        if (r >= threshold) return r % bound;
    }
}

static uint64_t rd64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

int main(void) {
    dt_gen *g;
    CHECK_OK(dt_new_pcg(42u, 54u, &g), "dt_new_pcg(42, 54)");

    uint8_t st[DT_STATE_SIZE];
    size_t n;
    CHECK_OK(dt_state_save(g, st, sizeof st, &n), "save");
    CHECK(rd64(st + 4) == 1753877967969059832ULL, "state after seeding: expected 1753877967969059832, got %llu",
          (unsigned long long)rd64(st + 4));
    CHECK(rd64(st + 12) == 109u, "increment: expected 109, got %llu", (unsigned long long)rd64(st + 12));

    static const uint32_t expected[6] = {0xa15c02b7u, 0x7b47f409u, 0xba1d3330u, 0x83d2f293u, 0xbfa4784bu, 0xcbed606eu};
    for (int i = 0; i < 6; i++) {
        uint32_t v;
        dt_next_u32(g, &v);
        CHECK(v == expected[i], "seed (42, 54) draw %d: expected 0x%08x, got 0x%08x", i, expected[i], v);
    }
    const char *coins = "HHTTTHTHHHTHTTTHHHHHTTTHHHTHTHTHTTHTTTHHHHHHTTTTHHTTTTTHTTTTTTTHT";
    int draws = 0;
    for (int i = 0; coins[i]; i++) {
        char c = ref_bounded(g, 2, &draws) ? 'H' : 'T';
        CHECK(c == coins[i], "coin %d: expected %c, got %c", i, coins[i], c);
    }
    static const int rolls[33] = {3, 4, 1, 1, 2, 2, 3, 2, 4, 3, 2, 4, 3, 3, 5, 2, 3, 1, 3, 1, 5, 1, 4, 1, 5, 6, 4, 6, 6, 2, 6, 3, 3};
    draws = 0;
    for (int i = 0; i < 33; i++) {
        int r = (int)ref_bounded(g, 6, &draws) + 1;
        CHECK(r == rolls[i], "roll %d: expected %d, got %d", i, rolls[i], r);
    }
    CHECK(draws == 33, "rolling dice used %d random numbers, the reference says 33", draws);
    dt_free(g);

    /* dt_new(seed) is documented as dt_new_pcg(seed, DT_SEED_STREAM). */
    dt_gen *a, *b;
    dt_new(12345, &a);
    dt_new_pcg(12345, DT_SEED_STREAM, &b);
    for (int i = 0; i < 100; i++) {
        uint32_t x, y;
        dt_next_u32(a, &x);
        dt_next_u32(b, &y);
        CHECK(x == y, "seed 12345 draw %d: dt_new gave 0x%08x, dt_new_pcg 0x%08x", i, x, y);
    }
    dt_free(a);
    dt_free(b);
    return dt_test_done("test_pcg");
}
