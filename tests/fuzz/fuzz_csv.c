/* libFuzzer target: the CLI's streaming CSV reader (cli/cli_csv.h) on arbitrary bytes, read in pieces
 * of a size the first byte picks. Every accepted field must be valid UTF-8 without NUL (checked here,
 * not with the reader's own check); the records, written again with every field quoted, must read
 * back as the same records; a refusal must be one sentence "record N (line L), field J: ..." of
 * printable text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_csv.h"
#include "utf8_ok.h"

typedef struct fuente {
    const uint8_t *s;
    size_t n, pos, paso;
} fuente;

static size_t leer(void *ctx, char *buf, size_t cap) {
    fuente *f = (fuente *)ctx;
    size_t k = f->n - f->pos;
    if (k > cap) k = cap;
    if (k > f->paso) k = f->paso;
    memcpy(buf, f->s + f->pos, k);
    f->pos += k;
    return k;
}

/* Every record of the input, each field quoted, into out (malloc'd); the count of records, or -1. */
static long leer_todo(const uint8_t *s, size_t n, size_t paso, char **out, size_t *largo) {
    fuente f = {s, n, 0, paso};
    dt__csv c;
    if (dt__csv_init(&c, leer, &f)) abort();
    size_t cap = 2 * n + 64, k = 0;
    char *o = (char *)malloc(cap);
    char why[300];
    long registros = 0;
    int r;
    while ((r = dt__csv_registro(&c, why, sizeof why)) == 1) {
        for (size_t j = 0; j < c.ncampos; j++) {
            size_t m;
            const char *v = dt__csv_campo(&c, j, &m);
            if (!utf8_ok((const unsigned char *)v, m) || memchr(v, 0, m)) abort();
            while (k + 2 * m + 4 > cap) o = (char *)realloc(o, cap *= 2);
            if (j) o[k++] = ',';
            o[k++] = '"';
            for (size_t i = 0; i < m; i++) {
                if (v[i] == '"') o[k++] = '"';
                o[k++] = v[i];
            }
            o[k++] = '"';
        }
        if (k + 2 > cap) o = (char *)realloc(o, cap *= 2);
        o[k++] = '\n';
        registros++;
    }
    if (r < 0) {
        if (strncmp(why, "record ", 7) != 0 || strstr(why, "), field ") == NULL) abort();
        for (const char *p = why; *p; p++)
            if ((unsigned char)*p < 0x20) abort();
        registros = -1;
    }
    dt__csv_free(&c);
    *out = o;
    *largo = k;
    return registros;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    size_t paso = 1 + data[0] % 7;
    char *a, *b;
    size_t la, lb;
    long ra = leer_todo(data + 1, size - 1, paso, &a, &la);
    /* the same input read whole gives the same outcome */
    long rw = leer_todo(data + 1, size - 1, 1 << 20, &b, &lb);
    if (ra != rw || (ra >= 0 && (la != lb || memcmp(a, b, la) != 0))) abort();
    free(b);
    if (ra >= 0) { /* written again, quoted: the same records */
        long rb = leer_todo((const uint8_t *)a, la, paso, &b, &lb);
        if (rb != ra || la != lb || memcmp(a, b, la) != 0) abort();
        free(b);
    }
    free(a);
    return 0;
}
