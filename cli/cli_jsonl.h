/* A streaming JSON Lines reader (strict) for `datoteca enmascarar`: one flat JSON object per line,
 * one line in memory at a time, whatever the input's size.
 *
 * Accepted: lines ended by "\n" (a "\r" before it is whitespace; the last line may end at the end of
 * the input), one UTF-8 byte-order mark at the very start (skipped), each line one JSON object
 * (RFC 8259) whose values are strings, numbers, true, false or null. Refused, with a sentence naming
 * the line and the byte of the line where it went wrong, and never any byte of the input: a line that
 * is not one object (empty, an array, text after the object), a value that is an object or an array
 * (masking rules name flat columns), invalid UTF-8 (overlong forms, surrogates, code points above
 * U+10FFFF), a raw control character in a string, an invalid escape or a lone surrogate, a number that
 * is not RFC 8259's, a key written twice in one object, a line longer than DT__JSONL_LINEA_MAX bytes.
 *
 * Why not the schema documents' JSON reader (c/src/esquema/json.c): it quotes the offending text in
 * its sentences (here that text is personal data), refuses null and fractions (real data has both),
 * and builds a tree per document. This reader shares its UTF-8 check (dt__doc_utf8_len) and encoder.
 *
 * Ownership: a dt__jsonl owns its buffers; the keys and values it returns live until the next
 * dt__jsonl_objeto or dt__jsonl_free. One dt__jsonl belongs to one thread at a time. Not installed. */
#ifndef DT_CLI_JSONL_H
#define DT_CLI_JSONL_H

#include <stddef.h>
#include <stdint.h>

#include "cli_csv.h" /* dt__csv_leer_fn */

#define DT__JSONL_LINEA_MAX (64u << 20) /* 64 MiB: a longer line is refused, not truncated */
#define DT__JSONL_MIEMBROS_MAX 65536

/* What a value was: its text is a string's decoded bytes, a number's or true/false's own text, or
 * empty for null. */
enum { DT__JSONL_TEXTO = 1, DT__JSONL_CRUDO = 2, DT__JSONL_NULO = 3 };

typedef struct dt__jsonl_miembro {
    size_t kini, klen; /* the key: texto[kini, kini + klen) */
    size_t vini, vlen; /* the value */
    int tipo;          /* DT__JSONL_TEXTO, _CRUDO or _NULO */
} dt__jsonl_miembro;

typedef struct dt__jsonl {
    dt__csv_leer_fn leer;
    void *ctx;
    char *entrada; /* the input read ahead: entrada[pos, fin) */
    size_t pos, fin, cap_entrada;
    int agotada, empezada;
    char *linea; /* the current line, whole */
    size_t largo_linea, cap_linea;
    char *texto; /* the object's keys and values, decoded, one after another */
    size_t largo_texto, cap_texto;
    dt__jsonl_miembro *m;
    size_t nmiembros, cap_miembros;
    uint64_t linea_num; /* the line of the object just read, from 1 */
} dt__jsonl;

/* 0, or 1 when out of memory (dt__jsonl_free is then still safe). */
int dt__jsonl_init(dt__jsonl *j, dt__csv_leer_fn leer, void *ctx);
void dt__jsonl_free(dt__jsonl *j);

/* The next line's object: 1 with its members in j->m (in the line's order), 0 at the end of the
 * input, -1 when refused: "line L, byte B: ..." in why (snprintf semantics; no input byte in it), and
 * the reader must not be used again but to free it. */
int dt__jsonl_objeto(dt__jsonl *j, char *why, size_t whycap);

#endif
