/* Masking in C (docs/enmascarar.md): RUTs masked per second, as bodies and as text in the three
 * written forms, next to one SipHash-2-4 of 8 bytes (a Feistel round's cost) and dt_rut (making a
 * RUT); then a row of the CLI bench's shape (rut and six persona columns) through a dt_mascara_plan,
 * with no reading or writing. Median of 9 repetitions of a timed loop each (bench/bench_c.h). Not a
 * test: nothing here asserts a time. `make bench-mascara` builds and runs it with the CLI and the
 * peers (bench/mascara_bench.py); alone, from the repository root after the CMake build in build-c:
 *   cc -std=gnu11 -O2 -Ic/include -Ic/src bench/mascara_bench.c build-c/libdatoteca.a -o build-c/mascara_bench
 *   build-c/mascara_bench */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_c.h"
#include "datoteca.h"
#include "mascara/prf.h"

static volatile uint64_t sink;

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
    /* a persona row as the CLI bench masks it: rut + nombres, apellidos, email, telefono, direccion */
    static const char reglas_txt[] =
        "version = 1\n[columnas]\nrut = { regla = \"rut\" }\n"
        "nombres = { regla = \"persona\", campo = \"nombres\", entidad = \"rut\" }\n"
        "apellido_paterno = { regla = \"persona\", campo = \"apellido_paterno\", entidad = \"rut\" }\n"
        "apellido_materno = { regla = \"persona\", campo = \"apellido_materno\", entidad = \"rut\" }\n"
        "email = { regla = \"persona\", campo = \"email\", entidad = \"rut\" }\n"
        "telefono = { regla = \"persona\", campo = \"telefono\", entidad = \"rut\" }\n"
        "direccion = { regla = \"persona\", campo = \"direccion\", entidad = \"rut\" }\n";
    static const char *const cols[7] = {"rut", "nombres", "apellido_paterno", "apellido_materno", "email", "telefono", "direccion"};
    size_t clen[7];
    for (int j = 0; j < 7; j++) clen[j] = strlen(cols[j]);
    enum { NP = 1024 };
    static dt_persona ps[NP];
    static const char *vals[NP][7];
    static size_t vlens[NP][7];
    for (int i = 0; i < NP; i++) {
        dt_persona_persona(g, DT_SEXO_CUALQUIERA, 18, 80, &ps[i]);
        const char *v[7] = {ps[i].rut, ps[i].nombres, ps[i].apellido_paterno, ps[i].apellido_materno, ps[i].email,
                            ps[i].telefono, ps[i].direccion};
        for (int j = 0; j < 7; j++) vals[i][j] = v[j], vlens[i][j] = strlen(v[j]);
    }
    dt_mascara_reglas *rs;
    dt_mascara_plan *plan;
    if (dt_mascara_reglas_new(reglas_txt, sizeof reglas_txt - 1, DT_MASCARA_TOML, "bench", &rs, why, sizeof why) != DT_OK ||
        dt_mascara_plan_new(rs, mk, 7, cols, clen, &plan, why, sizeof why) != DT_OK) {
        fprintf(stderr, "mascara_bench: %s\n", why);
        return 1;
    }
    n = 100000;
    double fila = MEDIAN((dt_mascara_plan_fila(plan, (uint64_t)it_ + 1, 7, vals[it_ & (NP - 1)], vlens[it_ & (NP - 1)], NULL, 0),
                          sink += (uintptr_t)dt_mascara_plan_valor(plan, 0, &len)),
                         n);
    printf("| `dt_mascara_plan_fila`, a row of rut + 6 persona columns (per row) | %.1f | %.2f M rows, %.2f M values |\n", fila,
           1e3 / fila, 7e3 / fila);
    dt_mascara_plan_free(plan);
    dt_mascara_reglas_free(rs);
    n = 400000;
    dt_mascara_clave_free(mk);
    ROW("`dt_mascara_clave_new` (hex, 6 BLAKE2s subkeys)", (dt_mascara_clave_new(clave_hex, 64, &mk, NULL, 0), dt_mascara_clave_free(mk)));
    dt_free(g);
    return 0;
}
