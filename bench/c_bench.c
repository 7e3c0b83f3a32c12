/* ns per call for every generating call, next to the cost of one PCG32 draw (the floor).
 * Median of 9 repetitions of a timed loop each. Not a test: nothing here asserts a time. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_c.h"
#include "datoteca.h"

static volatile size_t sink;

int main(void) {
    dt_gen *g;
    dt_new(42, &g);
    char buf[DT_MAX_TEXT];
    size_t len;
    long n = 200000;
    printf("| call | ns per call | × one PCG32 draw |\n|---|---|---|\n");
    uint32_t u;
    double floor_ns = MEDIAN((dt_next_u32(g, &u), sink += u), 2000000);
    printf("| one PCG32 draw (`dt_next_u32`) | %.1f | 1.0 |\n", floor_ns);
#define ROW(label, expr, count)                                                      \
    do {                                                                             \
        double ns = MEDIAN((expr, sink += len), count);                              \
        printf("| %s | %.1f | %.1f |\n", label, ns, ns / floor_ns);                  \
    } while (0)
    ROW("`dt_rut`", dt_rut(g, 0, 0, buf, sizeof buf, &len), n);
    ROW("`dt_persona_nombre`", dt_persona_nombre(g, 0, buf, sizeof buf, &len), n);
    ROW("`dt_persona_nombre_completo`", dt_persona_nombre_completo(g, 0, buf, sizeof buf, &len), n);
    ROW("`dt_persona_email`", dt_persona_email(g, buf, sizeof buf, &len), n);
    ROW("`dt_persona_fecha_nacimiento`", dt_persona_fecha_nacimiento(g, 18, 80, buf, sizeof buf, &len), n);
    ROW("`dt_direccion_comuna`", dt_direccion_comuna(g, 0, buf, sizeof buf, &len), n);
    ROW("`dt_telefono_movil`", dt_telefono_movil(g, 0, buf, sizeof buf, &len), n);
    ROW("`dt_telefono_fijo`", dt_telefono_fijo(g, 0, 0, buf, sizeof buf, &len), n);
    ROW("`dt_dinero_clp`", dt_dinero_clp(g, 0, 1000000, buf, sizeof buf, &len), n);
    ROW("`dt_empresa_razon_social`", dt_empresa_razon_social(g, buf, sizeof buf, &len), n);
    dt_persona p;
    dt_direccion d;
    dt_empresa e;
    dt_cuenta c;
    ROW("`dt_persona_persona` (record)", (dt_persona_persona(g, 0, 18, 80, &p), len = 1), n);
    ROW("`dt_direccion_direccion` (record)", (dt_direccion_direccion(g, 0, &d), len = 1), n);
    ROW("`dt_banco_cuenta` (record)", (dt_banco_cuenta(g, &c), len = 1), n);
    ROW("`dt_empresa_empresa` (record)", (dt_empresa_empresa(g, &e), len = 1), n);
    printf("\nEvery registered call through `dt_call` (text out, records serialised):\n\n| call | ns per call |\n|---|---|\n");
    for (size_t i = 0; i < dt_call_count(); i++) {
        double ns = MEDIAN((dt_call(g, i, NULL, 0, buf, sizeof buf, &len), sink += len), n / 2);
        printf("| `%s` | %.1f |\n", dt_call_at(i)->name, ns);
    }
    static char many[1000 * DT_MAX_TEXT + 1];
    size_t ip;
    dt_call_find("persona.persona", 15, &ip);
    double bulk = MEDIAN((dt_call_many(g, ip, NULL, 0, 1000, many, sizeof many, &len), sink += len), 200) / 1000.0;
    printf("| `persona.persona` via `dt_call_many` (per record) | %.1f |\n", bulk);
    dt_free(g);
    return 0;
}
