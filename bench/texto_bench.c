/* Free text through `texto` (docs/enmascarar.md, "Free text"): notes per second of dt_mascara_texto over
 * the notes corpus (tests/mascara/notas/notas.jsonl's texts, one per line in the file given), for the
 * kinds of 2.x (RUT, email, phone, plate: buscar 15) and for all of them (names and addresses too:
 * DT_MASCARA_BUSCAR_TODO when the library has them). Median of 9 passes over every note
 * (bench/bench_c.h). Built against two libraries in one run it gives before and after:
 *   cc -std=gnu11 -O2 -Ic/include bench/texto_bench.c build-c/libdatoteca.a -o build-c/texto_bench
 *   python3 -c "import json;[print(json.loads(l)['texto']) for l in open('tests/mascara/notas/notas.jsonl')]" > build-c/notas.txt
 *   build-c/texto_bench build-c/notas.txt
 * Not a test: nothing here asserts a time. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_c.h"
#include "datoteca.h"

static volatile size_t sink;

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: texto_bench NOTES.txt [BUSCAR] (one note a line; BUSCAR: only that kind set)\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (f == NULL) {
        fprintf(stderr, "texto_bench: cannot open the notes file\n");
        return 1;
    }
    enum { MAXN = 8192 };
    static char *notas[MAXN];
    static size_t largos[MAXN];
    size_t nn = 0, bytes = 0;
    char linea[8192];
    while (nn < MAXN && fgets(linea, sizeof linea, f)) {
        size_t l = strlen(linea);
        if (l && linea[l - 1] == '\n') linea[--l] = '\0';
        notas[nn] = malloc(l + 1);
        memcpy(notas[nn], linea, l + 1);
        largos[nn++] = l;
        bytes += l;
    }
    fclose(f);
    static const char clave_hex[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    dt_mascara_clave *k;
    if (nn == 0 || dt_mascara_clave_new(clave_hex, 64, &k, NULL, 0) != DT_OK) return 1;
    static char out[65536];
    printf("%zu notes, %zu bytes (%.0f bytes a note)\n\n| buscar | ns per note | notes per second | MB/s |\n|---|---|---|---|\n", nn,
           bytes, (double)bytes / (double)nn);
    unsigned kinds[4] = {15u, 15u | 16u, 15u | 32u, DT_MASCARA_BUSCAR_TODO};
    int nk = DT_MASCARA_BUSCAR_TODO == 15u ? 1 : 4;
    /* passes over the notes per repetition (TEXTO_BENCH_VUELTAS, 20 by default; 1 under valgrind,
     * whose instruction counts are the measure that a shared machine's load does not move) */
    long vueltas = getenv("TEXTO_BENCH_VUELTAS") ? atol(getenv("TEXTO_BENCH_VUELTAS")) : 20;
    if (vueltas < 1) vueltas = 1;
    if (argc == 3) kinds[0] = (unsigned)atoi(argv[2]), nk = 1;
    for (int q = 0; q < nk; q++) {
        size_t m;
        double ns = MEDIAN((dt_mascara_texto(k, kinds[q], notas[it_ % (long)nn], largos[it_ % (long)nn], out, sizeof out, &m,
                                             NULL, 0),
                            sink += m),
                           (long)nn * vueltas);
        printf("| %u%s | %.0f | %.0f k | %.1f |\n", kinds[q], kinds[q] == 15u ? " (rut, email, telefono, patente)" : kinds[q] == 31u ? " (and nombre)" : kinds[q] == 47u ? " (and direccion)" : " (all)", ns,
               1e6 / ns, (double)bytes / (double)nn / ns * 1e3);
    }
    dt_mascara_clave_free(k);
    return 0;
}
