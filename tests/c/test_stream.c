/* The exposed stream: determinism, save/restore, derive, bounded integers, and the rule
 * that a failed call consumes nothing. */
#include "archivo.h"
#include "check.h"
#include "datoteca.h"

static uint32_t peek(dt_gen *g) {
    /* The next value, without moving g: save, draw, restore. */
    uint8_t st[DT_STATE_SIZE];
    uint32_t v;
    dt_state_save(g, st, sizeof st, NULL);
    dt_next_u32(g, &v);
    dt_state_restore(g, st, sizeof st);
    return v;
}

int main(void) {
    dt_gen *a, *b;
    CHECK_OK(dt_new(42, &a), "dt_new(42)");
    CHECK_OK(dt_new(42, &b), "dt_new(42)");
    for (int i = 0; i < 1000; i++) {
        uint32_t x, y;
        dt_next_u32(a, &x);
        dt_next_u32(b, &y);
        CHECK(x == y, "seed 42, draw %d: %u vs %u", i, x, y);
    }

    /* save / restore: a restored instance continues exactly where the saved one was */
    uint8_t st[DT_STATE_SIZE];
    size_t n = 0;
    CHECK_OK(dt_state_save(a, st, sizeof st, &n), "save");
    CHECK(n == DT_STATE_SIZE, "saved %zu bytes", n);
    uint32_t cont[50];
    for (int i = 0; i < 50; i++) dt_next_u32(a, &cont[i]);
    dt_gen *c;
    dt_new(999, &c);
    CHECK_OK(dt_state_restore(c, st, sizeof st), "restore");
    for (int i = 0; i < 50; i++) {
        uint32_t v;
        dt_next_u32(c, &v);
        CHECK(v == cont[i], "after restore, draw %d: expected %u, got %u", i, cont[i], v);
    }
    /* invalid states are rejected and leave the instance unchanged */
    uint32_t before = peek(c);
    uint8_t bad[DT_STATE_SIZE];
    memcpy(bad, st, sizeof bad);
    bad[12] &= 0xfe; /* even increment */
    CHECK(dt_state_restore(c, bad, sizeof bad) == DT_ERR_INVALID_STATE, "even increment accepted");
    memcpy(bad, st, sizeof bad);
    bad[0] = 'X';
    CHECK(dt_state_restore(c, bad, sizeof bad) == DT_ERR_INVALID_STATE, "bad magic accepted");
    memcpy(bad, st, sizeof bad);
    bad[22] = 2;
    bad[23] = 30; /* 30 February */
    CHECK(dt_state_restore(c, bad, sizeof bad) == DT_ERR_INVALID_STATE, "30 February accepted");
    CHECK(dt_state_restore(c, st, sizeof st - 1) == DT_ERR_INVALID_STATE, "short state accepted");
    CHECK(dt_state_restore(c, NULL, 0) == DT_ERR_INVALID_STATE, "empty state accepted");
    CHECK(dt_state_restore(c, NULL, 5) == DT_ERR_NULL, "NULL state accepted");
    CHECK(peek(c) == before, "a rejected restore moved the stream");
    CHECK(dt_state_save(c, st, 3, &n) == DT_ERR_BUFFER_TOO_SMALL && n == DT_STATE_SIZE, "small save buffer");

    /* derive: exactly two parent draws; labels give different children */
    dt_gen *p1, *p2, *k1, *k2, *k3;
    dt_new(7, &p1);
    dt_new(7, &p2);
    CHECK_OK(dt_derive(p1, "clientes", 8, &k1), "derive clientes");
    uint32_t skip;
    dt_next_u32(p2, &skip);
    dt_next_u32(p2, &skip);
    CHECK(peek(p1) == peek(p2), "derive consumed other than two draws from the parent");
    dt_gen *p3;
    dt_new(7, &p3);
    CHECK_OK(dt_derive(p3, "facturas", 8, &k2), "derive facturas");
    uint32_t x1, x2;
    dt_next_u32(k1, &x1);
    dt_next_u32(k2, &x2);
    CHECK(x1 != x2, "children for different labels start alike (%u)", x1);
    dt_gen *p4;
    dt_new(7, &p4);
    dt_derive(p4, "clientes", 8, &k3);
    uint32_t x3;
    dt_next_u32(k3, &x3);
    CHECK(x3 == x1, "same parent and label gave different children: %u vs %u", x1, x3);
    dt_free(k3);
    CHECK(dt_derive(p4, NULL, 3, &k3) == DT_ERR_NULL && k3 == NULL, "NULL label with a length");
    dt_free(p1); dt_free(p2); dt_free(p3); dt_free(p4); dt_free(k1); dt_free(k2); dt_free(k3);

    /* dt_range: bounds, and the documented draw counts */
    dt_gen *r;
    dt_new(3, &r);
    for (int i = 0; i < 20000; i++) {
        int64_t v;
        CHECK_OK(dt_range(r, -5, 5, &v), "range");
        CHECK(v >= -5 && v <= 5, "iteration %d: %lld outside [-5, 5]", i, (long long)v);
    }
    int64_t v;
    CHECK(dt_range(r, 5, 4, &v) == DT_ERR_INVALID_ARG, "lo > hi accepted");
    /* the full int64 range takes exactly two draws */
    dt_gen *r2;
    CHECK_OK(dt_state_save(r, st, sizeof st, NULL), "save");
    dt_new(0, &r2);
    dt_state_restore(r2, st, sizeof st);
    CHECK_OK(dt_range(r, INT64_MIN, INT64_MAX, &v), "full range");
    dt_next_u32(r2, &x1);
    dt_next_u32(r2, &x1);
    CHECK(peek(r) == peek(r2), "the full range did not take exactly two draws");
    CHECK_OK(dt_range(r, 0, 0, &v), "single value");
    CHECK(v == 0, "range [0,0] gave %lld", (long long)v);
    for (int i = 0; i < 2000; i++) {
        CHECK_OK(dt_range(r, 0, 99999999999LL, &v), "wide range");
        CHECK(v >= 0 && v <= 99999999999LL, "wide range gave %lld", (long long)v);
    }
    dt_free(r); dt_free(r2);

    /* text seeds: FNV-1a 64 of the bytes, then dt_new */
    dt_gen *s1, *s2;
    CHECK_OK(dt_new_str("hola", 4, &s1), "dt_new_str");
    /* FNV-1a 64 of "hola", computed here independently */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *q = "hola"; *q; q++) { h ^= (uint8_t)*q; h *= 0x100000001b3ULL; }
    dt_new(h, &s2);
    CHECK(peek(s1) == peek(s2), "dt_new_str(\"hola\") is not dt_new(fnv1a64(\"hola\"))");
    dt_free(s1); dt_free(s2);

    /* NULL handling */
    CHECK(dt_new(1, NULL) == DT_ERR_NULL, "dt_new(NULL out)");
    CHECK(dt_new_str(NULL, 2, &s1) == DT_ERR_NULL && s1 == NULL, "dt_new_str(NULL, 2)");
    CHECK(dt_next_u32(NULL, &x1) == DT_ERR_NULL, "dt_next_u32(NULL)");
    dt_free(NULL);

    /* hoy */
    CHECK(dt_set_hoy(a, 2023, 2, 29) == DT_ERR_INVALID_ARG, "2023-02-29 accepted");
    CHECK_OK(dt_set_hoy(a, 2024, 2, 29), "2024-02-29");
    int32_t y, m, d;
    dt_get_hoy(a, &y, &m, &d);
    CHECK(y == 2024 && m == 2 && d == 29, "hoy is %d-%d-%d", y, m, d);

    CHECK(strcmp(dt_status_str(DT_ERR_BUFFER_TOO_SMALL), "buffer too small") == 0, "status string");
    CHECK(strcmp(dt_status_str(999), "unknown status") == 0, "unknown status string");
    /* The versions against what they must agree with, not against themselves: the three
     * number macros, and the data version the fixtures record. */
    char semver[32];
    snprintf(semver, sizeof semver, "%d.%d.%d", DT_VERSION_MAJOR, DT_VERSION_MINOR, DT_VERSION_PATCH);
    CHECK(strcmp(dt_version(), semver) == 0, "dt_version() is %s, the MAJOR/MINOR/PATCH macros say %s", dt_version(), semver);
    CHECK(dt_version_number() == (uint32_t)(DT_VERSION_MAJOR * 10000 + DT_VERSION_MINOR * 100 + DT_VERSION_PATCH),
          "dt_version_number() is %u for %s", dt_version_number(), semver);
    char *golden = leer_archivo(DT_FIXTURES_DIR "/golden.json", NULL);
    const char *dv = strstr(golden, "\"data_version\": ");
    CHECK(dv && (uint32_t)atoi(dv + 16) == dt_data_version(), "dt_data_version() is %u, fixtures/golden.json records %d",
          dt_data_version(), dv ? atoi(dv + 16) : -1);
    free(golden);
    dt_free(a); dt_free(b); dt_free(c);
    return dt_test_done("test_stream");
}
