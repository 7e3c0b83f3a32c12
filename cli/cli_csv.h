/* A streaming CSV reader (RFC 4180, strict) for the commands that read real data (`datoteca
 * enmascarar`, `datoteca detectar`): one record at a time in memory, whatever the input's size.
 *
 * Accepted: fields separated by ',' (or the byte in `separador`: ';', a tab or '|' for the CLI's
 * --separador), records ended by "\n" or "\r\n" (the last may end at the end of the input), a field in
 * double quotes holding the separator, '"' as "" and line breaks, one UTF-8 byte-order mark at the very
 * start (skipped: never part of the first field). Refused, with a sentence naming the record, its first line and the
 * field, and never any byte of the input: a quote inside an unquoted field, text after a closing
 * quote, a quoted field the input ends inside (a truncated file), a carriage return outside quotes
 * not followed by "\n", a NUL byte, a field that is not valid UTF-8 (overlong forms, surrogates and
 * code points above U+10FFFF included), a field longer than DT__CSV_CAMPO_MAX bytes, a record of
 * more than DT__CSV_CAMPOS_MAX fields. An empty line is a record of one empty field: whether that
 * fits is the caller's to say (it knows the header).
 *
 * Ownership: a dt__csv owns its buffers; the fields it returns live until the next
 * dt__csv_registro or dt__csv_free. One dt__csv belongs to one thread at a time. Not installed. */
#ifndef DT_CLI_CSV_H
#define DT_CLI_CSV_H

#include <stddef.h>
#include <stdint.h>

#define DT__CSV_CAMPO_MAX (16u << 20) /* 16 MiB: longer is refused, not truncated */
#define DT__CSV_CAMPOS_MAX 65536

/* Reads at most `cap` bytes into buf: the count read, 0 at the end of the input, or (size_t)-1 for a
 * read error (the reader then refuses with "cannot read the input"). */
typedef size_t (*dt__csv_leer_fn)(void *ctx, char *buf, size_t cap);

typedef struct dt__csv {
    dt__csv_leer_fn leer;
    void *ctx;
    char *entrada;          /* the input read ahead: entrada[pos, fin) */
    size_t pos, fin, cap_entrada;
    int agotada;            /* the reader said 0 (or failed) */
    int empezada;           /* the first bytes were seen (the byte-order mark is only there) */
    char *texto;            /* the current record's fields, one after another */
    size_t largo_texto, cap_texto;
    size_t *ini, *largo;    /* field j: texto[ini[j], ini[j] + largo[j]) */
    uint8_t *citado;        /* 1 where field j was in quotes */
    size_t ncampos, cap_campos;
    uint64_t registros;     /* records read so far */
    uint64_t linea;         /* the line the next record starts on, from 1 */
    int separador;          /* the fields' separator byte: ',' from dt__csv_init; DT__CSV_SEPARADOR_AUTO
                               before the first record to choose it from the header line (below) */
} dt__csv;

/* Set c->separador to this before the first dt__csv_registro to have the reader choose: ';' when the
 * first line (the header, after the byte-order mark; up to its line break outside quotes, or the end of
 * the input) holds at least one ';' and no ',' outside double quotes, else ','. Data rows are never
 * looked at. Once the first record is read, c->separador is the byte chosen. */
#define DT__CSV_SEPARADOR_AUTO 0

/* 0, or 1 when out of memory (dt__csv_free is then still safe). */
int dt__csv_init(dt__csv *c, dt__csv_leer_fn leer, void *ctx);
void dt__csv_free(dt__csv *c);

/* The next record: 1 with its fields in c (dt__csv_campo), 0 at the end of the input, -1 when it is
 * refused: the sentence "record N (line L), field J: ..." in why (snprintf semantics; no input byte
 * in it), and the reader must not be used again but to free it. */
int dt__csv_registro(dt__csv *c, char *why, size_t whycap);

/* Field j of the current record (j < c->ncampos): its bytes (not NUL-terminated) and length. */
const char *dt__csv_campo(const dt__csv *c, size_t j, size_t *n);

#endif
