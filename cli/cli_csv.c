/* The streaming CSV reader (cli_csv.h): a byte at a time through a 64 KiB read-ahead, a state machine
 * of four states, each field checked as UTF-8 when it ends. */
#include "cli_csv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esquema/documento_interno.h" /* dt__doc_utf8_len */

#define DT__CSV_LECTURA (64u << 10)
#define DT__CSV_EOF (-1)
#define DT__CSV_ERROR_LECTURA (-2)

int dt__csv_init(dt__csv *c, dt__csv_leer_fn leer, void *ctx) {
    memset(c, 0, sizeof *c);
    c->leer = leer;
    c->ctx = ctx;
    c->linea = 1;
    c->separador = ',';
    c->cap_entrada = DT__CSV_LECTURA;
    c->entrada = (char *)malloc(c->cap_entrada);
    c->cap_texto = 4096;
    c->texto = (char *)malloc(c->cap_texto);
    c->cap_campos = 64;
    c->ini = (size_t *)malloc(c->cap_campos * sizeof *c->ini);
    c->largo = (size_t *)malloc(c->cap_campos * sizeof *c->largo);
    c->citado = (uint8_t *)malloc(c->cap_campos);
    return c->entrada == NULL || c->texto == NULL || c->ini == NULL || c->largo == NULL || c->citado == NULL;
}

void dt__csv_free(dt__csv *c) {
    free(c->entrada);
    free(c->texto);
    free(c->ini);
    free(c->largo);
    free(c->citado);
    memset(c, 0, sizeof *c);
}

const char *dt__csv_campo(const dt__csv *c, size_t j, size_t *n) {
    *n = c->largo[j];
    return c->texto + c->ini[j];
}

/* The next byte, DT__CSV_EOF, or DT__CSV_ERROR_LECTURA. */
static int dt__csv_byte(dt__csv *c) {
    if (c->pos == c->fin) {
        if (c->agotada) return DT__CSV_EOF;
        size_t n = c->leer(c->ctx, c->entrada, c->cap_entrada);
        if (n == (size_t)-1) {
            c->agotada = 1;
            return DT__CSV_ERROR_LECTURA;
        }
        if (n == 0) {
            c->agotada = 1;
            return DT__CSV_EOF;
        }
        c->pos = 0;
        c->fin = n;
        if (!c->empezada) { /* a UTF-8 byte-order mark, only at the very start */
            c->empezada = 1;
            while (c->fin < 3 && !c->agotada) { /* the mark may come in pieces */
                size_t m = c->leer(c->ctx, c->entrada + c->fin, c->cap_entrada - c->fin);
                if (m == (size_t)-1 || m == 0) {
                    c->agotada = 1;
                    if (m == (size_t)-1) return DT__CSV_ERROR_LECTURA;
                    break;
                }
                c->fin += m;
            }
            if (c->fin >= 3 && memcmp(c->entrada, "\xEF\xBB\xBF", 3) == 0) c->pos = 3;
            if (c->pos == c->fin) return dt__csv_byte(c);
        }
    }
    return (unsigned char)c->entrada[c->pos++];
}

/* The next byte without taking it (only after dt__csv_byte, so the mark is behind). */
static int dt__csv_mirar(dt__csv *c) {
    int b = dt__csv_byte(c);
    if (b >= 0) c->pos--;
    return b;
}

/* 1 when s[0, n) is valid UTF-8: the schema documents' own check (shortest forms, no surrogates, at
 * most U+10FFFF), sequence by sequence. */
static int dt__csv_utf8(const unsigned char *s, size_t n) {
    for (size_t i = 0, k; i < n; i += k)
        if ((k = dt__doc_utf8_len(s + i, s + n)) == 0) return 0;
    return 1;
}

static int dt__csv_rechazo(dt__csv *c, uint64_t linea, char *why, size_t whycap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int dt__csv_rechazo(dt__csv *c, uint64_t linea, char *why, size_t whycap, const char *fmt, ...) {
    if (why && whycap) {
        char texto[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(texto, sizeof texto, fmt, ap);
        va_end(ap);
        snprintf(why, whycap, "record %llu (line %llu), field %zu: %s", (unsigned long long)c->registros + 1,
                 (unsigned long long)linea, c->ncampos + 1, texto);
    }
    return -1;
}

/* Room for one more byte of the current field: 0, or 1 when it would pass the limit or memory. */
static int dt__csv_mas(dt__csv *c, char b) {
    if (c->largo_texto - c->ini[c->ncampos] >= DT__CSV_CAMPO_MAX) return 1;
    if (c->largo_texto == c->cap_texto) {
        size_t cap = c->cap_texto * 2;
        char *t = (char *)realloc(c->texto, cap);
        if (t == NULL) return 1;
        c->texto = t;
        c->cap_texto = cap;
    }
    c->texto[c->largo_texto++] = b;
    return 0;
}

/* A field begins at the current end of texto. 0, or 1 past DT__CSV_CAMPOS_MAX or out of memory. */
static int dt__csv_campo_nuevo(dt__csv *c) {
    if (c->ncampos == DT__CSV_CAMPOS_MAX) return 1;
    if (c->ncampos == c->cap_campos) {
        size_t cap = c->cap_campos * 2;
        size_t *a = (size_t *)realloc(c->ini, cap * sizeof *a);
        if (a == NULL) return 1;
        c->ini = a;
        size_t *b = (size_t *)realloc(c->largo, cap * sizeof *b);
        if (b == NULL) return 1;
        c->largo = b;
        uint8_t *d = (uint8_t *)realloc(c->citado, cap);
        if (d == NULL) return 1;
        c->citado = d;
        c->cap_campos = cap;
    }
    c->ini[c->ncampos] = c->largo_texto;
    c->citado[c->ncampos] = 0;
    return 0;
}

/* DT__CSV_SEPARADOR_AUTO (cli_csv.h): the first line is looked at in the read-ahead, grown as needed
 * (up to DT__CSV_CAMPO_MAX bytes; a longer header line is judged on those), before it is parsed, so
 * nothing of the stream is lost. A '"' opens or closes quotes (a "" inside them does both), a '\n'
 * outside them ends the line. 0, or -1 when the input cannot be read. */
static int dt__csv_elegir_separador(dt__csv *c) {
    c->separador = ',';
    int b = dt__csv_mirar(c); /* the first read, and the byte-order mark skipped */
    if (b == DT__CSV_ERROR_LECTURA) return -1;
    if (b < 0) return 0;
    int comillas = 0, coma = 0, punto_y_coma = 0;
    size_t i = c->pos;
    for (;;) {
        if (i == c->fin) {
            if (c->agotada) break;
            if (c->fin == c->cap_entrada) {
                if (c->pos > 0) { /* the first line to the front of the buffer */
                    memmove(c->entrada, c->entrada + c->pos, c->fin - c->pos);
                    i -= c->pos;
                    c->fin -= c->pos;
                    c->pos = 0;
                } else {
                    if (c->cap_entrada >= DT__CSV_CAMPO_MAX) break;
                    char *t = (char *)realloc(c->entrada, c->cap_entrada * 2);
                    if (t == NULL) break; /* judged on what was seen */
                    c->entrada = t;
                    c->cap_entrada *= 2;
                }
            }
            size_t m = c->leer(c->ctx, c->entrada + c->fin, c->cap_entrada - c->fin);
            if (m == (size_t)-1 || m == 0) {
                c->agotada = 1;
                if (m == (size_t)-1) return -1;
                break;
            }
            c->fin += m;
            continue;
        }
        char x = c->entrada[i++];
        if (x == '"') comillas = !comillas;
        else if (!comillas && x == '\n') break;
        else if (!comillas && x == ',') coma = 1;
        else if (!comillas && x == ';') punto_y_coma = 1;
    }
    if (punto_y_coma && !coma) c->separador = ';';
    return 0;
}

enum { DT__CSV_INICIO, DT__CSV_SIN_COMILLAS, DT__CSV_COMILLAS, DT__CSV_COMILLA_DENTRO };

int dt__csv_registro(dt__csv *c, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    c->ncampos = 0;
    c->largo_texto = 0;
    uint64_t linea = c->linea; /* where this record starts, for its sentences */
    if (c->separador == DT__CSV_SEPARADOR_AUTO && dt__csv_elegir_separador(c) != 0)
        return dt__csv_rechazo(c, linea, why, whycap, "cannot read the input");
    int b = dt__csv_byte(c);
    if (b == DT__CSV_EOF) return 0;
    int estado = DT__CSV_INICIO;
    if (dt__csv_campo_nuevo(c)) return dt__csv_rechazo(c, linea, why, whycap, "out of memory");
    for (;; b = dt__csv_byte(c)) {
        if (b == DT__CSV_ERROR_LECTURA) return dt__csv_rechazo(c, linea, why, whycap, "cannot read the input");
        int fin_campo = 0, fin_registro = 0;
        if (b == DT__CSV_EOF) {
            if (estado == DT__CSV_COMILLAS)
                return dt__csv_rechazo(c, linea, why, whycap, "a quoted field is not closed at the end of the input (a truncated file?)");
            fin_registro = 1;
        } else if (b == 0) {
            return dt__csv_rechazo(c, linea, why, whycap, "a NUL byte");
        } else if (estado == DT__CSV_COMILLAS) {
            if (b == '"') estado = DT__CSV_COMILLA_DENTRO;
            else {
                if (b == '\n') c->linea++;
                if (dt__csv_mas(c, (char)b)) goto largo;
            }
            continue;
        } else if (b == c->separador) {
            fin_campo = 1;
        } else if (b == '\n' || b == '\r') {
            if (b == '\r') {
                if (dt__csv_mirar(c) != '\n')
                    return dt__csv_rechazo(c, linea, why, whycap, "a carriage return outside quotes, not followed by a line feed");
                dt__csv_byte(c);
            }
            c->linea++;
            fin_registro = 1;
        } else if (b == '"') {
            if (estado == DT__CSV_INICIO) {
                estado = DT__CSV_COMILLAS;
                c->citado[c->ncampos] = 1;
                continue;
            }
            if (estado == DT__CSV_COMILLA_DENTRO) { /* "" inside quotes: one quote */
                estado = DT__CSV_COMILLAS;
                if (dt__csv_mas(c, '"')) goto largo;
                continue;
            }
            return dt__csv_rechazo(c, linea, why, whycap, "a quote inside a field that does not start with one");
        } else {
            if (estado == DT__CSV_COMILLA_DENTRO)
                return dt__csv_rechazo(c, linea, why, whycap, "text after a field's closing quote");
            estado = DT__CSV_SIN_COMILLAS;
            if (dt__csv_mas(c, (char)b)) goto largo;
            continue;
        }
        /* a field ends here */
        c->largo[c->ncampos] = c->largo_texto - c->ini[c->ncampos];
        if (!dt__csv_utf8((const unsigned char *)c->texto + c->ini[c->ncampos], c->largo[c->ncampos]))
            return dt__csv_rechazo(c, linea, why, whycap, "not valid UTF-8");
        c->ncampos++;
        if (fin_registro) break;
        (void)fin_campo;
        if (dt__csv_campo_nuevo(c)) {
            c->ncampos--; /* name the field that would not fit */
            return dt__csv_rechazo(c, linea, why, whycap, "more than %d fields in one record (or out of memory)", DT__CSV_CAMPOS_MAX);
        }
        estado = DT__CSV_INICIO;
    }
    c->registros++;
    return 1;
largo:
    return dt__csv_rechazo(c, linea, why, whycap, "longer than %u bytes (or out of memory)", DT__CSV_CAMPO_MAX);
}
