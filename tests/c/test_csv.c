/* The streaming CSV reader (cli/cli_csv.h): records and fields as RFC 4180 reads them, written here
 * by hand; every refusal's sentence, which names the record, line and field and holds no input byte;
 * inputs fed one byte at a time give what whole buffers give; a 3 MiB field and 100,000 records; the
 * separators ';', tab and '|', and the choice of ',' or ';' from the header line alone. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli_csv.h"

typedef struct fuente {
    const char *s;
    size_t n, pos, paso; /* paso: the most bytes one read gives */
    int falla;           /* a read error once the bytes are given */
} fuente;

static size_t leer(void *ctx, char *buf, size_t cap) {
    fuente *f = (fuente *)ctx;
    if (f->pos == f->n) return f->falla ? (size_t)-1 : 0;
    size_t k = f->n - f->pos;
    if (k > cap) k = cap;
    if (f->paso && k > f->paso) k = f->paso;
    memcpy(buf, f->s + f->pos, k);
    f->pos += k;
    return k;
}

/* All records of s as "f1|f2|...\n" per record, quoted fields marked with a leading '^'; or the
 * refusal's sentence after "!". */
static char *todo_sep(const char *s, size_t n, size_t paso, int separador, int *usado) {
    fuente f = {s, n, 0, paso, 0};
    dt__csv c;
    CHECK(dt__csv_init(&c, leer, &f) == 0, "init");
    CHECK(c.separador == ',', "',' unless told");
    c.separador = separador;
    size_t cap = 4 * n + 600;
    char *out = (char *)malloc(cap), *p = out;
    char why[300];
    int r;
    while ((r = dt__csv_registro(&c, why, sizeof why)) == 1) {
        for (size_t j = 0; j < c.ncampos; j++) {
            size_t k;
            const char *v = dt__csv_campo(&c, j, &k);
            if (j) *p++ = '|';
            if (c.citado[j]) *p++ = '^';
            memcpy(p, v, k);
            p += k;
        }
        *p++ = '\n';
    }
    if (r < 0) p += sprintf(p, "!%s", why);
    *p = '\0';
    if (usado) *usado = c.separador;
    dt__csv_free(&c);
    return out;
}

static char *todo(const char *s, size_t n, size_t paso) { return todo_sep(s, n, paso, ',', NULL); }

typedef struct caso {
    const char *entrada, *esperado;
} caso;

static const caso casos[] = {
    {"a,b\n1,2\n", "a|b\n1|2\n"},
    {"a,b\r\n1,2\r\n", "a|b\n1|2\n"},
    {"a,b\n1,2", "a|b\n1|2\n"},                                   /* no newline at the end */
    {"\xEF\xBB\xBFrut,nombre\n", "rut|nombre\n"},                  /* the byte-order mark is not data */
    {"x\n\xEF\xBB\xBF\n", "x\n\xEF\xBB\xBF\n"},                    /* ... only at the very start */
    {"\"a,b\",\"c\"\"d\"\n", "^a,b|^c\"d\n"},
    {"\"dos\nlíneas\",x\n", "^dos\nlíneas|x\n"},
    {"\"cr\r\nlf\"\n", "^cr\r\nlf\n"},
    {",\n", "|\n"},
    {"\"\",\n", "^|\n"},                                           /* an empty text, quoted, then an empty field */
    {"\n\n", "\n\n"},                                              /* two records of one empty field */
    {"a,\n", "a|\n"},
    {"\"a\"", "^a\n"},
    {"ñandú,Ñuñoa\n", "ñandú|Ñuñoa\n"},
    {"", ""},
    {"a\"b\n", "!record 1 (line 1), field 1: a quote inside a field that does not start with one"},
    {"x,y\n\"a\"b\n", "x|y\n!record 2 (line 2), field 1: text after a field's closing quote"},
    {"x\n\"abc\n", "x\n!record 2 (line 2), field 1: a quoted field is not closed at the end of the input (a truncated file?)"},
    {"a\rb\n", "!record 1 (line 1), field 1: a carriage return outside quotes, not followed by a line feed"},
    {"a,b\0c\n", "!record 1 (line 1), field 2: a NUL byte"},
    {"ok\n\"l1\nl2\",\xC3\n", "ok\n!record 2 (line 2), field 2: not valid UTF-8"},
    {"\xC0\xAF\n", "!record 1 (line 1), field 1: not valid UTF-8"},          /* an overlong '/' */
    {"\xED\xA0\x80\n", "!record 1 (line 1), field 1: not valid UTF-8"},      /* a surrogate */
    {"\xF4\x90\x80\x80\n", "!record 1 (line 1), field 1: not valid UTF-8"},  /* above U+10FFFF */
    {"\xF0\x9F\x87\xA8\xF0\x9F\x87\xB1\n", "\xF0\x9F\x87\xA8\xF0\x9F\x87\xB1\n"},
};

static void uno_a_uno(void) {
    for (size_t i = 0; i < sizeof casos / sizeof casos[0]; i++) {
        size_t n = strlen(casos[i].entrada);
        if (i == 19) n = 7; /* the case with a NUL inside */
        for (size_t paso = 0; paso < 3; paso++) { /* whole, one byte per read, two bytes per read */
            char *r = todo(casos[i].entrada, n, paso);
            CHECK(strcmp(r, casos[i].esperado) == 0, "case %zu (reads of %zu bytes)\n    got:      %s\n    expected: %s", i, paso, r,
                  casos[i].esperado);
            free(r);
        }
    }
}

/* A refusal's sentence never holds the input's bytes: a canary in the bad field is not in it. */
static void sin_valores(void) {
    const char *malos[] = {"CANARIO12\"x\n", "\"CANARIO12\"x\n", "\"CANARIO12", "CANARIO12\r", "CANARIO12\xFF\n"};
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        char *r = todo(malos[i], strlen(malos[i]), 0);
        CHECK(r[0] == '!' && strstr(r, "CANARIO") == NULL && strstr(r, "12") == NULL, "case %zu: %s", i, r);
        free(r);
    }
    fuente f = {"a,b\n", 4, 0, 0, 1};
    dt__csv c;
    dt__csv_init(&c, leer, &f);
    char why[300];
    CHECK(dt__csv_registro(&c, why, sizeof why) == 1, "a record before the read error");
    CHECK(dt__csv_registro(&c, why, sizeof why) == -1 && strcmp(why, "record 2 (line 2), field 1: cannot read the input") == 0, "%s", why);
    dt__csv_free(&c);
}

static void grandes(void) {
    /* a 3 MiB quoted field with quotes and newlines inside, then a plain one */
    size_t n = 3u << 20;
    char *s = (char *)malloc(n + 16), *p = s;
    *p++ = '"';
    for (size_t i = 0; i < n; i++) *p++ = i % 1000 == 999 ? '\n' : 'a' + (char)(i % 26);
    p += sprintf(p, "\",fin\n");
    fuente f = {s, (size_t)(p - s), 0, 0, 0};
    dt__csv c;
    dt__csv_init(&c, leer, &f);
    char why[300];
    CHECK(dt__csv_registro(&c, why, sizeof why) == 1 && c.ncampos == 2, "3 MiB field: %s", why);
    size_t k;
    const char *v = dt__csv_campo(&c, 0, &k);
    CHECK(k == n && v[998] == 'a' + (998 % 26) && v[999] == '\n' && c.linea == 1 + n / 1000 + 1, "3 MiB field: %zu bytes, line %llu", k,
          (unsigned long long)c.linea);
    dt__csv_free(&c);
    free(s);
    /* 100,000 records of 3 fields: counted, and the last one's values */
    size_t filas = 100000;
    s = (char *)malloc(filas * 32);
    p = s;
    for (size_t i = 0; i < filas; i++) p += sprintf(p, "%zu,\"v,%zu\",x\r\n", i, i * 7);
    fuente g = {s, (size_t)(p - s), 0, 0, 0};
    dt__csv_init(&c, leer, &g);
    size_t cuenta = 0;
    int r;
    while ((r = dt__csv_registro(&c, why, sizeof why)) == 1) {
        v = dt__csv_campo(&c, 1, &k);
        char esperado[32];
        int m = snprintf(esperado, sizeof esperado, "v,%zu", cuenta * 7);
        CHECK(c.ncampos == 3 && k == (size_t)m && memcmp(v, esperado, k) == 0, "record %zu", cuenta + 1);
        cuenta++;
    }
    CHECK(r == 0 && cuenta == filas && c.registros == filas, "%zu records, %d", cuenta, r);
    dt__csv_free(&c);
    free(s);
}

/* A separator given, or chosen (DT__CSV_SEPARADOR_AUTO): the records, and the byte the reader used. */
typedef struct caso_sep {
    int separador;
    const char *entrada, *esperado;
    int usado;
} caso_sep;

static const caso_sep casos_sep[] = {
    {';', "a;b\n1;2\n", "a|b\n1|2\n", ';'},
    {';', "a;b\n\"x;\"\"y\";1,64\n", "a|b\n^x;\"y|1,64\n", ';'},     /* quoting as RFC 4180, with ';' */
    {';', "a,b;c\n", "a,b|c\n", ';'},                                  /* given: a ',' is text */
    {'\t', "a\tb\n\"x\ty\"\tz\r\n", "a|b\n^x\ty|z\n", '\t'},
    {'|', "a|b\n1|", "a|b\n1|\n", '|'},
    {';', "a;b\"c\n", "!record 1 (line 1), field 2: a quote inside a field that does not start with one", ';'},
    /* chosen from the header line */
    {DT__CSV_SEPARADOR_AUTO, "\xEF\xBB\xBFnome;idade\r\n\"x;y\";1,64\r\nz;2", "nome|idade\n^x;y|1,64\nz|2\n", ';'},
    {DT__CSV_SEPARADOR_AUTO, "a;b\n1,5;2\n", "a|b\n1,5|2\n", ';'},
    {DT__CSV_SEPARADOR_AUTO, "a,b;c\n1;2\n", "a|b;c\n1;2\n", ','},       /* a ',' in the header: ',' */
    {DT__CSV_SEPARADOR_AUTO, "\"a,b\";c\n", "^a,b|c\n", ';'},              /* a ',' in quotes does not count */
    {DT__CSV_SEPARADOR_AUTO, "\"a;b\",c\n", "^a;b|c\n", ','},
    {DT__CSV_SEPARADOR_AUTO, "\"a;b\"\n1;2\n", "^a;b\n1;2\n", ','},      /* no ';' outside quotes */
    {DT__CSV_SEPARADOR_AUTO, "\"a\"\"b;\"\"c\"\n", "^a\"b;\"c\n", ','}, /* "" inside quotes */
    {DT__CSV_SEPARADOR_AUTO, "a\n1;2\n", "a\n1;2\n", ','},                 /* data rows are never looked at */
    {DT__CSV_SEPARADOR_AUTO, "\"a\nb;c\"\nx;y\n", "^a\nb;c\nx;y\n", ','}, /* the header's line break in quotes */
    {DT__CSV_SEPARADOR_AUTO, "a\tb\n", "a\tb\n", ','},                      /* tab and '|' are only given */
    {DT__CSV_SEPARADOR_AUTO, "\xEF\xBB\xBF", "", ','},
    {DT__CSV_SEPARADOR_AUTO, "", "", ','},
};

static void separadores(void) {
    for (size_t i = 0; i < sizeof casos_sep / sizeof casos_sep[0]; i++) {
        const caso_sep *k = &casos_sep[i];
        for (size_t paso = 0; paso < 3; paso++) {
            int usado = -1;
            char *r = todo_sep(k->entrada, strlen(k->entrada), paso, k->separador, &usado);
            CHECK(strcmp(r, k->esperado) == 0 && usado == k->usado,
                  "separator case %zu (reads of %zu bytes)\n    got:      %s (%d)\n    expected: %s (%d)", i, paso, r, usado,
                  k->esperado, k->usado);
            free(r);
        }
    }
    /* a header line longer than the 64 KiB read-ahead: read ahead further, then parsed as it was */
    size_t ncol = 30000;
    char *s = (char *)malloc(ncol * 12 + 64), *p = s;
    p += sprintf(p, "\xEF\xBB\xBF");
    for (size_t j = 0; j < ncol; j++) p += sprintf(p, "%scol%zu", j ? ";" : "", j);
    p += sprintf(p, "\r\n1,5;x\n");
    for (size_t paso = 0; paso < 2; paso++) {
        fuente f = {s, (size_t)(p - s), 0, paso ? 1000 : 0, 0};
        dt__csv c;
        dt__csv_init(&c, leer, &f);
        c.separador = DT__CSV_SEPARADOR_AUTO;
        char why[300];
        size_t k;
        CHECK(dt__csv_registro(&c, why, sizeof why) == 1 && c.ncampos == ncol && c.separador == ';', "long header: %s", why);
        const char *v = dt__csv_campo(&c, 0, &k);
        CHECK(k == 4 && memcmp(v, "col0", 4) == 0, "long header: the first name, without the byte-order mark");
        v = dt__csv_campo(&c, ncol - 1, &k);
        CHECK(k == 8 && memcmp(v, "col29999", 8) == 0, "long header: the last name");
        CHECK(dt__csv_registro(&c, why, sizeof why) == 1 && c.ncampos == 2 && c.linea == 3, "long header: the row after it");
        CHECK(dt__csv_registro(&c, why, sizeof why) == 0, "long header: the end");
        dt__csv_free(&c);
    }
    free(s);
    /* a read error while the header line is looked at: refused as any read error */
    const char *entradas[] = {"", "a;b"};
    for (size_t i = 0; i < 2; i++) {
        fuente f = {entradas[i], strlen(entradas[i]), 0, 1, 1};
        dt__csv c;
        dt__csv_init(&c, leer, &f);
        c.separador = DT__CSV_SEPARADOR_AUTO;
        char why[300];
        CHECK(dt__csv_registro(&c, why, sizeof why) == -1 && strcmp(why, "record 1 (line 1), field 1: cannot read the input") == 0,
              "read error %zu: %s", i, why);
        dt__csv_free(&c);
    }
}

int main(void) {
    uno_a_uno();
    separadores();
    sin_valores();
    grandes();
    return dt_test_done("test_csv");
}
