/* Minimal test harness: every failure prints where it broke and the values involved. */
#ifndef DT_CHECK_H
#define DT_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dt_test_failures = 0;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n    ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n");                                            \
            if (++dt_test_failures > 20) {                                    \
                fprintf(stderr, "too many failures, stopping\n");             \
                exit(1);                                                      \
            }                                                                 \
        }                                                                     \
    } while (0)

#define CHECK_OK(expr, ...)                                                   \
    do {                                                                      \
        dt_status _st = (expr);                                               \
        CHECK(_st == DT_OK, "status %d (%s); ", (int)_st, dt_status_str(_st)); \
        if (_st != DT_OK) { fprintf(stderr, "    "); fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } \
    } while (0)

static int dt_test_done(const char *name) {
    if (dt_test_failures) {
        fprintf(stderr, "%s: %d failure(s)\n", name, dt_test_failures);
        return 1;
    }
    printf("%s: ok\n", name);
    return 0;
}

#endif
