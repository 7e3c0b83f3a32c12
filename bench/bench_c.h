/* The C benches' harness (bench/c_bench.c, bench/mascara_bench.c): a monotonic clock and the median
 * of REPS repetitions of a timed loop. A statement expression (GNU C: build with -std=gnu11). The
 * loop's counter is `it_`, which the body may use. Not a test: nothing here asserts a time. */
#ifndef DT_BENCH_C_H
#define DT_BENCH_C_H

#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define REPS 9
#define MEDIAN(body, n)                                                    \
    ({                                                                     \
        double r_[REPS];                                                   \
        for (int k_ = 0; k_ < REPS; k_++) {                                \
            double t0_ = now_ns();                                         \
            for (long it_ = 0; it_ < (n); it_++) { body; }                 \
            r_[k_] = (now_ns() - t0_) / (double)(n);                       \
        }                                                                  \
        qsort(r_, REPS, sizeof r_[0], cmp_double);                         \
        r_[REPS / 2];                                                      \
    })

#endif
