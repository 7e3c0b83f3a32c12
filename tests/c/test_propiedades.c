/* The registered property suites that run in C (rows of tests/properties.json whose
 * languages include "c"): rut, money, streams. Inputs from xorshift32; every failure names
 * the property, the seed in hex, the iteration and the assertion. */
#include <ctype.h>
#include <inttypes.h>

#include "check.h"
#include "datoteca.h"
#include "json.h"

#ifndef DT_TESTS_DIR
#error "DT_TESTS_DIR must point at tests/"
#endif

static uint32_t xs_state;
static uint32_t xs(void) {
    uint32_t x = xs_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return xs_state = x;
}
static uint32_t xs_below(uint32_t n) { return xs() % n; }
static uint64_t xs_u64(void) { uint64_t hi = xs(); return (hi << 32) | xs(); }

static const char *suite_name;
static uint32_t suite_seed;
static int iter;
#define PROP(cond, ...)                                                                  \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            char _m[2600];                                                                \
            snprintf(_m, sizeof _m, __VA_ARGS__);                                        \
            CHECK(0, "property %s, seed 0x%08" PRIx32 ", iteration %d: %s", suite_name, suite_seed, iter, _m); \
            return;                                                                      \
        }                                                                                \
    } while (0)

/* ---- rut: a reference written independently of c/src/rut.c ---- */
static char mod11(uint64_t body) {
    uint64_t s = 0, w = 2;
    for (; body; body /= 10, w = w == 7 ? 2 : w + 1) s += (body % 10) * w;
    uint64_t r = 11 - s % 11;
    return r == 11 ? '0' : r == 10 ? 'K' : (char)('0' + r);
}

static int ref_valid(const char *s, size_t n) {
    size_t a = 0, b = n;
    while (a < b && (s[a] == ' ' || s[a] == '\t')) a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) b--;
    if (b - a < 2) return 0;
    char dv = (char)toupper((unsigned char)s[b - 1]);
    if (!(isdigit((unsigned char)dv) || dv == 'K')) return 0;
    b--;
    if (b > a && s[b - 1] == '-') b--;
    /* the body: digits, or dot-separated parts where the first has 1-3 digits, the rest 3 */
    char digits[64];
    size_t nd = 0, part = 0, parts = 1, first_len = 0;
    for (size_t i = a; i < b; i++) {
        if (s[i] == '.') {
            if (parts == 1) first_len = part;
            else if (part != 3) return 0;
            if (part == 0) return 0;
            parts++;
            part = 0;
        } else if (isdigit((unsigned char)s[i]) && nd < sizeof digits) {
            digits[nd++] = s[i];
            part++;
        } else {
            return 0;
        }
    }
    if (parts > 1 && (part != 3 || first_len < 1 || first_len > 3)) return 0;
    if (nd == 0 || nd > 8 || digits[0] == '0') return 0;
    uint64_t body = 0;
    for (size_t i = 0; i < nd; i++) body = body * 10 + (uint64_t)(digits[i] - '0');
    return mod11(body) == dv;
}

static void prop_rut(dt_gen *unused) {
    (void)unused;
    dt_gen *g;
    dt_new(xs_u64(), &g);
    char buf[64], s[64];
    size_t len;
    int tipo = (int)xs_below(2), formato = (int)xs_below(3);
    dt_rut(g, tipo, formato, buf, sizeof buf, &len);
    uint64_t body = 0;
    for (size_t i = 0; i + 1 < len; i++) if (isdigit((unsigned char)buf[i])) body = body * 10 + (uint64_t)(buf[i] - '0');
    dt_free(g);
    PROP(mod11(body) == buf[len - 1], "generated %s fails mod-11", buf);
    /* a generated spelling */
    uint32_t choice = xs_below(4);
    uint64_t b = choice == 0 ? 1 + xs_below(99999999) : choice == 1 ? 1 + xs_below(999) : choice == 2 ? 0 : 100000000 + xs_below(100000000);
    char d[16];
    int nd = snprintf(d, sizeof d, "%" PRIu64, b);
    size_t k = 0;
    if (xs_below(2) && nd > 3) {
        for (int i = 0; i < nd; i++) {
            if (i > 0 && (nd - i) % 3 == 0) s[k++] = '.';
            s[k++] = d[i];
        }
    } else {
        memcpy(s, d, (size_t)nd);
        k = (size_t)nd;
    }
    if (xs_below(3)) s[k++] = '-';
    char dv = xs_below(4) ? mod11(b) : "0123456789K"[xs_below(11)];
    if (dv == 'K' && xs_below(2)) dv = 'k';
    s[k++] = dv;
    if (xs_below(4) == 0) { memmove(s + 1, s, k); s[0] = xs_below(2) ? ' ' : '\t'; k++; s[k++] = ' '; }
    if (xs_below(6) == 0) {
        static const char junk[] = "x.- 0K";
        size_t pos = xs_below((uint32_t)k + 1);
        memmove(s + pos + 1, s + pos, k - pos);
        s[pos] = junk[xs_below(6)];
        k++;
    }
    s[k] = 0;
    int want = ref_valid(s, k), got = dt_rut_validar(s, k) == DT_OK;
    PROP(want == got, "validator says %d for '%s', reference %d", got, s, want);
    if (want) {
        char clean[32], f1[32], f2[32];
        dt_rut_formatear(s, k, DT_RUT_LIMPIO, clean, sizeof clean, NULL);
        for (int f = 0; f < 3; f++) {
            dt_rut_formatear(clean, strlen(clean), f, f1, sizeof f1, NULL);
            dt_rut_formatear(s, k, f, f2, sizeof f2, NULL);
            PROP(strcmp(f1, f2) == 0, "format %d of clean '%s' is '%s', of '%s' is '%s'", f, clean, f1, s, f2);
        }
    }
}

/* ---- money: an independent formatter ---- */
static void miles(char *out, uint64_t v) {
    char d[32];
    int n = snprintf(d, sizeof d, "%" PRIu64, v), k = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) out[k++] = '.';
        out[k++] = d[i];
    }
    out[k] = 0;
}

static void prop_money(dt_gen *unused) {
    (void)unused;
    static const int64_t edges[] = {0, 1, 999, 1000, 1001, 999999, 1000000, DT_DINERO_MAX - 1, DT_DINERO_MAX};
    int64_t amount = iter < 9 ? edges[iter] : (int64_t)(xs_u64() % (uint64_t)(DT_DINERO_MAX + 1));
    if (iter >= 9 && xs_below(2)) amount %= 100000;
    char want[64], m[40], got[64];
    miles(m, (uint64_t)amount);
    snprintf(want, sizeof want, "$%s", m);
    dt_formatear_clp(amount, got, sizeof got, NULL);
    PROP(strcmp(want, got) == 0, "clp %" PRId64 ": expected '%s', got '%s'", amount, want, got);
    miles(m, (uint64_t)(amount / 100));
    snprintf(want, sizeof want, "UF %s,%02d", m, (int)(amount % 100));
    dt_formatear_uf(amount, got, sizeof got, NULL);
    PROP(strcmp(want, got) == 0, "uf %" PRId64 ": expected '%s', got '%s'", amount, want, got);
    dt_gen *g;
    dt_new(xs_u64(), &g);
    int64_t lo = amount / 2, hi = lo + (int64_t)xs_below(1000), v;
    dt_dinero_monto(g, lo, hi, &v);
    dt_free(g);
    PROP(v >= lo && v <= hi, "monto(%" PRId64 ", %" PRId64 ") gave %" PRId64, lo, hi, v);
}

/* ---- streams ---- */
static void prop_streams(dt_gen *unused) {
    (void)unused;
    uint64_t seed = xs_u64();
    size_t call = xs_below((uint32_t)dt_call_count());
    const char *name = dt_call_at(call)->name;
    dt_gen *a, *b, *c;
    dt_new(seed, &a);
    dt_new(seed, &b);
    dt_new(xs_u64(), &c);
    char x[DT_MAX_TEXT], y[DT_MAX_TEXT];
    dt_call(a, call, NULL, 0, x, sizeof x, NULL);
    dt_call(b, call, NULL, 0, y, sizeof y, NULL);
    PROP(strcmp(x, y) == 0, "same seed, %s: '%s' vs '%s'", name, x, y);
    uint8_t st[DT_STATE_SIZE];
    dt_state_save(a, st, sizeof st, NULL);
    dt_call(a, call, NULL, 0, x, sizeof x, NULL);
    dt_state_restore(c, st, sizeof st);
    dt_call(c, call, NULL, 0, y, sizeof y, NULL);
    PROP(strcmp(x, y) == 0, "after restore, %s: '%s' vs '%s'", name, x, y);
    /* a failed call (a bad argument or a small buffer) consumes nothing */
    int64_t bad[3] = {10, 5, 0};
    size_t monto;
    dt_call_find("dinero.monto", 12, &monto);
    dt_call(b, monto, bad, 2, y, sizeof y, NULL);
    dt_call(b, call, NULL, 0, y, 1, NULL);
    dt_call(b, call, NULL, 0, y, sizeof y, NULL);
    PROP(strcmp(x, y) == 0, "after failed calls, %s: '%s' vs '%s'", name, x, y);
    /* derive: children differ, two draws each from the parent */
    dt_gen *p, *q, *k1, *k2;
    dt_new(seed, &p);
    dt_new(seed, &q);
    char label[32];
    int n = snprintf(label, sizeof label, "l%u", (unsigned)xs());
    dt_derive(p, label, (size_t)n, &k1);
    dt_derive(p, label, (size_t)n - 1, &k2);
    uint32_t u1, u2, pu, qu;
    dt_next_u32(k1, &u1);
    dt_next_u32(k2, &u2);
    for (int i = 0; i < 4; i++) dt_next_u32(q, &qu);
    dt_next_u32(p, &pu);
    dt_next_u32(q, &qu);
    dt_free(a); dt_free(b); dt_free(c); dt_free(p); dt_free(q); dt_free(k1); dt_free(k2);
    PROP(u1 != u2, "children '%s' and '%.*s' start alike", label, n - 1, label);
    PROP(pu == qu, "two derives did not take exactly four parent draws");
}

int main(void) {
    char *reg_text = jread_file(DT_TESTS_DIR "/properties.json");
    jval *reg = jparse(reg_text);
    const jval *suites = jget(reg, "suites");
    static const struct { const char *name; void (*fn)(dt_gen *); } impl[] = {
        {"rut", prop_rut}, {"money", prop_money}, {"streams", prop_streams}};
    long total = 0, registered = 0;
    int nsuites = 0;
    for (size_t s = 0; s < suites->n; s++) {
        const jval *row = suites->items[s];
        const jval *langs = jget(row, "languages");
        int in_c = 0;
        for (size_t l = 0; l < langs->n; l++) in_c |= strcmp(langs->items[l]->str, "c") == 0;
        if (!in_c) continue;
        registered += jget(row, "iterations")->num;
        for (size_t k = 0; k < sizeof impl / sizeof impl[0]; k++) {
            if (strcmp(impl[k].name, jget(row, "name")->str) != 0) continue;
            suite_name = impl[k].name;
            suite_seed = (uint32_t)strtoul(jget(row, "seed")->str, NULL, 16);
            xs_state = suite_seed ? suite_seed : 0x9E3779B9u;
            long n = (long)jget(row, "iterations")->num;
            int before = dt_test_failures;
            for (iter = 0; iter < n && dt_test_failures == before; iter++) impl[k].fn(NULL);
            total += n;
            nsuites++;
        }
    }
    CHECK(total == registered, "registered %ld C iterations, ran %ld (a C row has no implementation)", registered, total);
    printf("property suites: %d registered C suites ran %ld of %ld registered iterations\n", nsuites, total, registered);
    jfree(reg);
    free(reg_text);
    return dt_test_done("test_propiedades");
}
