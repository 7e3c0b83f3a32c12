/* The registered property suites that run in C (rows of tests/properties.json whose
 * languages include "c"): rut, money, streams. Inputs from xorshift32; every failure names
 * the property, the seed in hex, the iteration and the assertion. */
#include <ctype.h>
#include <inttypes.h>

#include "check.h"
#include "datoteca.h"
#include "json.h"
#include "rut_ref.h"

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
    if (xs_below(3)) { /* '-' or a pasted dash (U+2010..U+2015, U+2212 in UTF-8) */
        static const char *const guiones[] = {"-", "-", "-", "\xe2\x80\x90", "\xe2\x80\x93", "\xe2\x80\x94", "\xe2\x88\x92"};
        const char *gu = guiones[xs_below(7)];
        memcpy(s + k, gu, strlen(gu));
        k += strlen(gu);
    }
    char dv = xs_below(4) ? mod11(b) : "0123456789K"[xs_below(11)];
    if (dv == 'K' && xs_below(2)) dv = 'k';
    s[k++] = dv;
    if (xs_below(4) == 0) { /* ASCII whitespace around it */
        static const char espacios[] = " \t\n\r\v\f";
        memmove(s + 1, s, k);
        s[0] = espacios[xs_below(6)];
        k++;
        s[k++] = espacios[xs_below(6)];
    }
    if (xs_below(6) == 0) {
        /* one piece of junk: a letter, punctuation, a space, a NUL byte, or the two bytes of ñ */
        static const char *const junk[] = {"x", ".", "-", " ", "0", "K", "\0", "\xc3\xb1"};
        uint32_t j = xs_below(8);
        size_t jn = j == 6 ? 1 : strlen(junk[j]);
        size_t pos = xs_below((uint32_t)k + 1);
        memmove(s + pos + jn, s + pos, k - pos);
        memcpy(s + pos, junk[j], jn);
        k += jn;
    }
    s[k] = 0;
    int want = ref_valid(s, k), got = dt_rut_validar(s, k) == DT_OK;
    char shown[160];
    size_t w = 0;
    for (size_t i = 0; i < k && w + 5 < sizeof shown; i++)  /* a NUL would end the message early */
        w += (size_t)(s[i] ? snprintf(shown + w, sizeof shown - w, "%c", s[i]) : snprintf(shown + w, sizeof shown - w, "\\0"));
    PROP(want == got, "validator says %d for '%s' (%zu bytes), reference %d", got, shown, k, want);
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
    dt_dinero_formatear_clp(amount, got, sizeof got, NULL);
    PROP(strcmp(want, got) == 0, "clp %" PRId64 ": expected '%s', got '%s'", amount, want, got);
    miles(m, (uint64_t)(amount / 100));
    snprintf(want, sizeof want, "UF %s,%02d", m, (int)(amount % 100));
    dt_dinero_formatear_uf(amount, got, sizeof got, NULL);
    PROP(strcmp(want, got) == 0, "uf %" PRId64 ": expected '%s', got '%s'", amount, want, got);
    /* generated amounts, integer and written: in [lo, hi] and written as the formatter above */
    dt_gen *g;
    dt_new(xs_u64(), &g);
    int64_t lo = amount / 2, hi = lo + (int64_t)xs_below(1000), v;
    dt_dinero_monto(g, lo, hi, &v);
    PROP(v >= lo && v <= hi, "monto(%" PRId64 ", %" PRId64 ") gave %" PRId64, lo, hi, v);
    dt_dinero_clp(g, lo, hi, got, sizeof got, NULL);
    int64_t back = 0;
    for (const char *c = got + 1; *c; c++) if (*c != '.') back = back * 10 + (*c - '0');
    miles(m, (uint64_t)back);
    snprintf(want, sizeof want, "$%s", m);
    PROP(back >= lo && back <= hi && strcmp(want, got) == 0, "clp(%" PRId64 ", %" PRId64 ") gave '%s'", lo, hi, got);
    dt_dinero_uf(g, lo, hi, got, sizeof got, NULL);
    back = 0;
    for (const char *c = got + 3; *c; c++) if (*c != '.' && *c != ',') back = back * 10 + (*c - '0');
    miles(m, (uint64_t)(back / 100));
    snprintf(want, sizeof want, "UF %s,%02d", m, (int)(back % 100));
    PROP(back >= lo && back <= hi && strcmp(want, got) == 0, "uf(%" PRId64 ", %" PRId64 ") gave '%s'", lo, hi, got);
    dt_free(g);
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
            total += iter; /* counted as run: a suite that stopped early shows in the total */
            nsuites++;
        }
    }
    CHECK(total == registered, "registered %ld C iterations, ran %ld (a C row has no implementation)", registered, total);
    printf("property suites: %d registered C suites ran %ld of %ld registered iterations\n", nsuites, total, registered);
    jfree(reg);
    free(reg_text);
    return dt_test_done("test_propiedades");
}
