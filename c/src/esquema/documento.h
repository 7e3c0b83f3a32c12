/* The schema document: a tree read from TOML or JSON (docs/esquemas-formato.md), before any
 * schema meaning is given to it. Internal: not installed, nothing here is exported (dt__doc_
 * names, hidden visibility); the schema layer and the tests are its only users.
 *
 * A document is parsed and checked only here, in C, so that every runtime accepts and refuses
 * the same documents with the same sentences. Every refusal is one English sentence that starts
 * with "<file>:<line>: " (only the size limit, which has no line, is "<file>: "), written into
 * the caller's `why` with snprintf semantics and always shorter than DT_SENTENCE_MAX bytes:
 * the file name, keys, paths and quoted values are shortened with "..." to the bounds below.
 *
 * Ownership: a dt__doc owns every node, key and string of its tree; the pointers these functions
 * return stay valid until dt__doc_free. The parsers copy what they keep: the input text may be
 * freed as soon as a parser returns.
 *
 * Threads: the parsers share nothing (no global state), so any number may run at once. A parsed
 * document is never modified again: every reading function below may be called on one document
 * from many threads at once, as long as none of them frees it. */
#ifndef DT_ESQUEMA_DOCUMENTO_H
#define DT_ESQUEMA_DOCUMENTO_H

#include <stddef.h>
#include <stdint.h>

#include "datoteca.h"

#define DT__DOC_MAX_BYTES 1048576u /* a longer input is refused before it is read */
#define DT__DOC_MAX_DEPTH 32       /* levels of tables and arrays below the root; deeper is refused */
#define DT__DOC_CITE_MAX 40        /* bytes of a key or value quoted in a sentence, before "..." */
#define DT__DOC_PATH_MAX 200       /* bytes of a path in a sentence: longer ones keep their end, after "..." */
#define DT__DOC_FILE_MAX 100       /* bytes of the file name in a sentence: longer ones keep their end */

/* printf-style checking of the sentence functions; MinGW names its own archetype (ANSI stdio). */
#if defined(__MINGW_PRINTF_FORMAT)
#define DT__DOC_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__) || defined(__clang__)
#define DT__DOC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DT__DOC_PRINTF(f, a)
#endif

typedef struct dt__doc dt__doc;           /* a parsed document: owns its whole tree */
typedef struct dt__doc_node dt__doc_node; /* one value of the tree */

/* Pinned like the public statuses: tests and later layers may print them. */
typedef enum dt__doc_kind {
    DT__DOC_TABLE = 1,   /* a TOML table or a JSON object: keys in declaration order */
    DT__DOC_ARRAY = 2,   /* items in order (a TOML array of tables is an array of tables) */
    DT__DOC_STRING = 3,  /* UTF-8, length-counted: it may contain NUL bytes (written \u0000) */
    DT__DOC_INTEGER = 4, /* int64 */
    DT__DOC_BOOLEAN = 5
} dt__doc_kind;

typedef enum dt__doc_format { DT__DOC_TOML = 1, DT__DOC_JSON = 2 } dt__doc_format;

/* ---- parsing ---- */

/* Parse `len` bytes of TOML (the subset of docs/esquemas-formato.md) into a new document.
 * `file` names the input in every sentence (any text; NULL means "<document>"); it is copied.
 * `text` may be NULL only when len == 0 (an empty document: an empty root table).
 * DT_OK: *out is the document; free it with dt__doc_free.
 * DT_ERR_INVALID_ARG: the document is refused; *out is NULL and `why` has the sentence.
 * DT_ERR_NO_MEMORY: *out is NULL, `why` says so. Nothing is leaked on any path.
 * DT_ERR_NULL: `out` is NULL, or `text` is NULL with len > 0 (no sentence).
 * `why` may be NULL or whycap 0 to get no sentence. Thread-safe (see above). */
dt_status dt__doc_parse_toml(const char *text, size_t len, const char *file, dt__doc **out, char *why,
                             size_t whycap);
/* The same for JSON (RFC 8259, stricter: the root must be an object; null, numbers with a fraction
 * or exponent, duplicate keys and lone surrogates are refused). An empty input is refused. The
 * bindings pass a dict or object by serialising it to JSON and naming it in `file`. */
dt_status dt__doc_parse_json(const char *text, size_t len, const char *file, dt__doc **out, char *why,
                             size_t whycap);
/* Free the document and everything in it: every node pointer from it becomes invalid.
 * NULL is a no-op. Not to be called while another thread reads the document. */
void dt__doc_free(dt__doc *d);

/* ---- reading: every function below accepts NULL nodes and returns the "nothing" value stated ---- */

/* The root table (line 1 in TOML, the line of its '{' in JSON). NULL if d is NULL. */
const dt__doc_node *dt__doc_root(const dt__doc *d);
/* Which parser made the document of node n (0 if n is NULL): kind names in sentences follow it. */
dt__doc_format dt__doc_format_of(const dt__doc_node *n);
/* The file name as given to the parser (NUL-terminated, never NULL; "" if n is NULL). */
const char *dt__doc_file(const dt__doc_node *n);
dt__doc_kind dt__doc_kind_of(const dt__doc_node *n); /* 0 if n is NULL */
/* The line (from 1) where the value starts: a table's header, dotted key or brace; an array of
 * tables' first [[header]]. 0 if n is NULL. */
uint32_t dt__doc_line(const dt__doc_node *n);
/* The table or array holding n; NULL for the root and for NULL. */
const dt__doc_node *dt__doc_parent(const dt__doc_node *n);
/* The key of n in its parent table (`*len` bytes, NUL-terminated, may hold NUL bytes), or NULL for
 * an array item, the root or NULL (then *len = 0). `len` may be NULL. */
const char *dt__doc_key(const dt__doc_node *n, size_t *len);

/* Entries of a table or items of an array; 0 for anything else and for NULL. */
size_t dt__doc_len(const dt__doc_node *n);
/* Entry or item i (0 <= i < dt__doc_len), in declaration order; NULL when out of range or
 * when n is not a table or an array. A table's entry gives its key through dt__doc_key. */
const dt__doc_node *dt__doc_item(const dt__doc_node *n, size_t i);
/* The value of `key` (keylen bytes; key may be NULL only if keylen == 0) in table t: constant
 * time. NULL if absent, or if t is not a table or is NULL. */
const dt__doc_node *dt__doc_get(const dt__doc_node *t, const char *key, size_t keylen);

/* A string's bytes (NUL-terminated; *len counts them, NULs inside included), or NULL (with
 * *len = 0) if n is not a string. `len` may be NULL. */
const char *dt__doc_string(const dt__doc_node *n, size_t *len);
int64_t dt__doc_integer(const dt__doc_node *n); /* 0 if n is not an integer */
int dt__doc_boolean(const dt__doc_node *n);     /* 1 for true; 0 for false or if not a boolean */

/* ---- checking, with sentences for the schema layer ---- */

/* "a table" (TOML) or "an object" (JSON), "an array", "a string", "an integer", "a boolean";
 * "nothing" for kind 0 and unknown kinds. Static storage. */
const char *dt__doc_kind_name(dt__doc_kind kind, dt__doc_format format);
/* The path of n as sentences show it: keys joined by '.', array items as [i] from 0, a key that is
 * not bare quoted as a TOML basic string ("tablas.\"mi tabla\".columnas[2]"); a long key and a long
 * path are shortened (DT__DOC_CITE_MAX, DT__DOC_PATH_MAX). "" for the root. Written with snprintf
 * semantics into buf (NULL when cap == 0); returns the full length (at most DT__DOC_PATH_MAX). */
size_t dt__doc_path(const dt__doc_node *n, char *buf, size_t cap);
/* Write "<file>:<line of n>: " and then the printf-style text into why (snprintf semantics,
 * truncated under whycap; why may be NULL or whycap 0). Returns DT_ERR_INVALID_ARG, so a check
 * can `return dt__doc_refuse(...)`. Use dt__doc_path to name n in the text. n must not be NULL. */
dt_status dt__doc_refuse(const dt__doc_node *n, char *why, size_t whycap, const char *fmt, ...) DT__DOC_PRINTF(4, 5);
/* DT_OK if n is of `kind`; else DT_ERR_INVALID_ARG with
 * "banco.toml:14: tablas.cuentas.filas must be an integer, got a string" (the root is "the
 * document"). n NULL is DT_ERR_NULL with no sentence (use dt__doc_need for a missing key). */
dt_status dt__doc_want(const dt__doc_node *n, dt__doc_kind kind, char *why, size_t whycap);
/* As dt__doc_want, and the value through the out-parameter (which may be NULL). */
dt_status dt__doc_want_string(const dt__doc_node *n, const char **s, size_t *len, char *why, size_t whycap);
dt_status dt__doc_want_integer(const dt__doc_node *n, int64_t *v, char *why, size_t whycap);
dt_status dt__doc_want_boolean(const dt__doc_node *n, int *v, char *why, size_t whycap);
/* The value of a required key (a NUL-terminated key): as dt__doc_get, but when absent returns NULL
 * and writes "banco.toml:3: tablas.cuentas needs the key filas" (at the table's line). Also NULL,
 * with dt__doc_want's sentence, when t is not a table; NULL with no sentence when t or key is NULL. */
const dt__doc_node *dt__doc_need(const dt__doc_node *t, const char *key, char *why, size_t whycap);

/* ---- the canonical dump (tests, fuzzing, and a TOML document's JSON twin) ---- */

#define DT__DOC_DUMP_LINES 1u /* write "@<line>" after every value */
/* Write n as one line of canonical JSON: no spaces, keys in declaration order, strings with the
 * escapes \" \\ \b \f \n \r \t and \u00XX for the other control characters and DEL, everything
 * else as its UTF-8 bytes. With DT__DOC_DUMP_LINES every value is followed by @line (not JSON
 * then): {"a":1@2,"b":[true@3]@3}@1. Snprintf-style: DT_OK if the text and a NUL fit in cap,
 * else DT_ERR_BUFFER_TOO_SMALL (buf[0] = '\0' when cap > 0); *len (may be NULL) is the text's
 * length either way. DT_ERR_NULL if n is NULL or buf is NULL with cap > 0. Recursion is bounded
 * by DT__DOC_MAX_DEPTH. */
dt_status dt__doc_dump(const dt__doc_node *n, unsigned flags, char *buf, size_t cap, size_t *len);

#endif
