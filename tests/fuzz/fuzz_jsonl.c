/* libFuzzer target: the CLI's streaming JSON Lines reader (cli/cli_jsonl.h) on arbitrary bytes, read in
 * pieces of a size the first byte picks. Every accepted key and string value must be valid UTF-8
 * (checked here, not with the reader's own check), a raw value must be a number, true or false, a null
 * empty; read whole, the same input gives the same outcome; the objects, written again as JSON here
 * (every non-ASCII and control byte of a string as its own escape), must read back as the same members;
 * a refusal must be one sentence "line N, byte B: ..." of printable text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_jsonl.h"
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

typedef struct salida {
    char *o;
    size_t k, cap;
} salida;

static void poner(salida *s, const char *p, size_t n) {
    while (s->k + n + 1 > s->cap) s->o = (char *)realloc(s->o, s->cap = 2 * s->cap + 64);
    memcpy(s->o + s->k, p, n);
    s->k += n;
}

static void cadena(salida *s, const char *v, size_t m) {
    poner(s, "\"", 1);
    for (size_t i = 0; i < m; i++) {
        unsigned char c = (unsigned char)v[i];
        char e[8];
        if (c < 0x20 || c == '"' || c == '\\') {
            snprintf(e, sizeof e, "\\u%04x", c);
            poner(s, e, 6);
        } else {
            poner(s, (const char *)&v[i], 1);
        }
    }
    poner(s, "\"", 1);
}

static int es_crudo(const char *v, size_t m) {
    if ((m == 4 && memcmp(v, "true", 4) == 0) || (m == 5 && memcmp(v, "false", 5) == 0)) return 1;
    size_t i = 0;
    if (i < m && v[i] == '-') i++;
    if (i == m || v[i] < '0' || v[i] > '9') return 0;
    for (; i < m; i++)
        if (!((v[i] >= '0' && v[i] <= '9') || v[i] == '.' || v[i] == 'e' || v[i] == 'E' || v[i] == '+' || v[i] == '-')) return 0;
    return 1;
}

/* Every object of the input written again into out (malloc'd); the count of lines, or -1. */
static long leer_todo(const uint8_t *s, size_t n, size_t paso, char **out, size_t *largo) {
    fuente f = {s, n, 0, paso};
    dt__jsonl j;
    if (dt__jsonl_init(&j, leer, &f)) abort();
    salida o = {NULL, 0, 0};
    poner(&o, "", 0);
    char why[300];
    long lineas = 0;
    int r;
    while ((r = dt__jsonl_objeto(&j, why, sizeof why)) == 1) {
        poner(&o, "{", 1);
        for (size_t i = 0; i < j.nmiembros; i++) {
            const dt__jsonl_miembro *m = &j.m[i];
            const char *k = j.texto + m->kini, *v = j.texto + m->vini;
            if (!utf8_ok((const unsigned char *)k, m->klen)) abort();
            if (i) poner(&o, ",", 1);
            cadena(&o, k, m->klen);
            poner(&o, ":", 1);
            if (m->tipo == DT__JSONL_TEXTO) {
                if (!utf8_ok((const unsigned char *)v, m->vlen)) abort();
                cadena(&o, v, m->vlen);
            } else if (m->tipo == DT__JSONL_CRUDO) {
                if (!es_crudo(v, m->vlen)) abort();
                poner(&o, v, m->vlen);
            } else {
                if (m->tipo != DT__JSONL_NULO || m->vlen != 0) abort();
                poner(&o, "null", 4);
            }
        }
        poner(&o, "}\n", 2);
        lineas++;
    }
    if (r < 0) {
        if (strncmp(why, "line ", 5) != 0 || strstr(why, ", byte ") == NULL) abort();
        for (const char *p = why; *p; p++)
            if ((unsigned char)*p < 0x20) abort();
        lineas = -1;
    }
    dt__jsonl_free(&j);
    *out = o.o;
    *largo = o.k;
    return lineas;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    size_t paso = 1 + data[0] % 7;
    char *a, *b;
    size_t la, lb;
    long ra = leer_todo(data + 1, size - 1, paso, &a, &la);
    long rw = leer_todo(data + 1, size - 1, 1 << 20, &b, &lb);
    if (ra != rw || (ra >= 0 && (la != lb || memcmp(a, b, la) != 0))) abort();
    free(b);
    if (ra >= 0) { /* written again: the same objects */
        long rb = leer_todo((const uint8_t *)a, la, paso, &b, &lb);
        if (rb != ra || la != lb || memcmp(a, b, la) != 0) abort();
        free(b);
    }
    free(a);
    return 0;
}
