/* Masking in C (docs/enmascarar.md): RUTs masked per second, as bodies and as text in the three
 * written forms, next to one SipHash-2-4 of 8 bytes (a Feistel round's cost) and dt_rut (making a
 * RUT). Median of 9 repetitions of a timed loop each. Not a test: nothing here asserts a time.
 * Build and run (from the repository root, after the CMake build in build-c):
 *   cc -std=gnu11 -O2 -Ic/include -Ic/src bench/mascara_bench.c build-c/libdatoteca.a -o build-c/mascara_bench
 *   build-c/mascara_bench */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datoteca.h"
#include "mascara/prf.h"

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static volatile uint64_t sink;

#define REPS 9
#define MEDIAN(body, n)                                                    \
    ({                                                                     \
        double r[REPS];                                                    \
        for (int k = 0; k < REPS; k++) {                                   \
            double t0 = now_ns();                                          \
            for (long it_ = 0; it_ < (n); it_++) { body; }                 \
            r[k] = (now_ns() - t0) / (double)(n);                          \
        }                                                                  \
        qsort(r, REPS, sizeof r[0], cmp);                                  \
        r[REPS / 2];                                                       \
    })

int main(void) {
    static const char clave_hex[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    dt_mascara_clave *mk;
    char why[DT_SENTENCE_MAX];
    if (dt_mascara_clave_new(clave_hex, 64, &mk, why, sizeof why) != DT_OK) return 1;
    /* 4,096 persona and empresa RUTs in each form, made once by dt_rut */
    enum { N = 4096 };
    static char ruts[3][N][16];
    static size_t lens[3][N];
    static uint32_t cuerpos[N];
    dt_gen *g;
    dt_new(42, &g);
    for (int f = 0; f < 3; f++)
        for (int i = 0; i < N; i++) dt_rut(g, i % 4 == 3, f, ruts[f][i], sizeof ruts[f][i], &lens[f][i]);
    for (int i = 0; i < N; i++) dt_rut_leer(ruts[2][i], lens[2][i], &cuerpos[i], NULL);
    char buf[32];
    size_t len;
    uint32_t y;
    long n = 400000;
    printf("| operation | ns per value | values per second |\n|---|---|---|\n");
#define ROW(label, expr)                                                                 \
    do {                                                                                 \
        double ns = MEDIAN(expr, n);                                                     \
        printf("| %s | %.1f | %.2f M |\n", label, ns, 1e3 / ns);                         \
    } while (0)
    ROW("SipHash-2-4 of 8 bytes (one Feistel round)", sink += dt__siphash24_palabra(sink, 7, (uint64_t)it_));
    ROW("`dt_rut` (make a RUT, for scale)", (dt_rut(g, 0, 0, buf, sizeof buf, &len), sink += len));
    ROW("`dt_mascara_rut_cuerpo` (3/4 persona, 1/4 empresa)", (dt_mascara_rut_cuerpo(mk, cuerpos[it_ & (N - 1)], &y), sink += y));
    ROW("`dt_mascara_rut` `12.345.678-5`", (dt_mascara_rut(mk, ruts[0][it_ & (N - 1)], lens[0][it_ & (N - 1)], buf, sizeof buf, &len, NULL, 0), sink += len));
    ROW("`dt_mascara_rut` `12345678-5`", (dt_mascara_rut(mk, ruts[1][it_ & (N - 1)], lens[1][it_ & (N - 1)], buf, sizeof buf, &len, NULL, 0), sink += len));
    ROW("`dt_mascara_rut` `123456785`", (dt_mascara_rut(mk, ruts[2][it_ & (N - 1)], lens[2][it_ & (N - 1)], buf, sizeof buf, &len, NULL, 0), sink += len));
    ROW("`dt_mascara_rut_inversa` `12.345.678-5`", (dt_mascara_rut_inversa(mk, ruts[0][it_ & (N - 1)], lens[0][it_ & (N - 1)], buf, sizeof buf, &len, NULL, 0), sink += len));
    ROW("`dt_mascara_clave_new` (hex, 6 BLAKE2s subkeys)", (dt_mascara_clave_new(clave_hex, 64, &mk, NULL, 0), dt_mascara_clave_free(mk)));
    dt_mascara_clave_new(clave_hex, 64, &mk, NULL, 0);
    dt_mascara_clave_free(mk);
    dt_free(g);
    return 0;
}
