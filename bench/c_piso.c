/* The C floor of a persona row: ns per `dt_persona_persona` (the record the CLI writes), median of 9
 * loops of 200,000, printed as one number. bench/cli_bench.sh runs it before and after the CLI runs, so
 * every CLI figure sits beside the record's cost on the machine at that moment. Not a test. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>

#include "bench_c.h"
#include "datoteca.h"

static volatile size_t sink;

int main(void) {
    dt_gen *g;
    if (dt_new(42, &g) != DT_OK) return 1;
    dt_persona p;
    double ns = MEDIAN((dt_persona_persona(g, 0, 18, 80, &p), sink += p.rut[0]), 200000);
    printf("%.1f\n", ns);
    dt_free(g);
    return 0;
}
