/* What documento.c shares with the two parsers (toml.c, json.c): the node layout, the arena,
 * the key index and the pieces every sentence is made of. Not installed. */
#ifndef DT_ESQUEMA_DOCUMENTO_INTERNO_H
#define DT_ESQUEMA_DOCUMENTO_INTERNO_H

#include "esquema/documento.h"

/* How a TOML table or array came to be: the rules against redefining one read these (JSON sets
 * none; docs/esquemas-formato.md says what each allows). */
enum {
    DT__DOC_M_HEADER = 1, /* defined by a [header] or as an element of [[header]]; an array made by [[header]] */
    DT__DOC_M_DOTTED = 2, /* defined by dotted keys (or reached by them, once a deeper header made it) */
    DT__DOC_M_FROZEN = 4  /* an inline table or an array written as a value: complete as written */
};

struct dt__doc_node {
    dt__doc_node *parent;
    const char *key; /* in the parent table; NULL in an array and for the root */
    size_t keylen;
    size_t index;    /* position in the parent */
    uint32_t line;
    uint32_t id;     /* creation number: the key index hashes it, so it never depends on addresses */
    uint16_t depth;  /* the root is 0 */
    uint8_t kind;
    uint8_t marks;
    union {
        struct {
            dt__doc_node **items;
            size_t n, cap;
        } c;
        struct {
            const char *s;
            size_t len;
        } s;
        int64_t i;
        int b;
    } v;
};

typedef struct dt__doc_block dt__doc_block;

/* The root comes first, so the document is found from any node by walking up (dt__doc_of). */
struct dt__doc {
    dt__doc_node root;
    dt__doc_format format;
    const char *file; /* as given; sentences shorten it (dt__doc_show_file) */
    dt__doc_block *blocks;
    char *free_at;
    size_t free_n, next_block;
    dt__doc_node **index; /* open addressing on (table id, key): every table entry of the document */
    size_t index_cap, index_n;
    uint32_t next_id;
};

/* The document owning n (n not NULL). */
static inline const dt__doc *dt__doc_of(const dt__doc_node *n) {
    while (n->parent) n = n->parent;
    return (const dt__doc *)(const void *)n;
}

/* A new empty document (an empty root table at line 1), or NULL when out of memory. */
dt__doc *dt__doc_new(dt__doc_format format, const char *file);
/* n bytes from the arena, aligned for any node; NULL when out of memory. Freed with the document. */
void *dt__doc_alloc(dt__doc *d, size_t n);
/* The entry `key` of table t, or NULL. */
dt__doc_node *dt__doc_lookup(const dt__doc *d, const dt__doc_node *t, const char *key, size_t keylen);
/* Append a node of `kind` to the container `parent`: to a table under `key` (copied; the caller
 * has checked it is absent), to an array when key is NULL. The caller has checked the depth
 * (dt__doc_too_deep). NULL when out of memory. */
dt__doc_node *dt__doc_add(dt__doc *d, dt__doc_node *parent, dt__doc_kind kind, const char *key, size_t keylen,
                          uint32_t line);
static inline int dt__doc_too_deep(const dt__doc_node *parent) { return parent->depth + 1 > DT__DOC_MAX_DEPTH; }

/* The checks both parsers make before reading: the size limit, then strict UTF-8 (no overlong
 * forms, no surrogates, nothing above U+10FFFF), naming the line of a bad byte. A UTF-8 byte order
 * mark is skipped: *start is where the text begins. 0 if acceptable, else 1 with the sentence. */
int dt__doc_check_input(const char *text, size_t len, const char *file, size_t *start, char *why, size_t whycap);
/* The length of the valid UTF-8 sequence at p (1 to 4), or 0 if it is not one. */
size_t dt__doc_utf8_len(const unsigned char *p, const unsigned char *end);
/* Encode a Unicode scalar value at p; returns the end. */
char *dt__doc_put_utf8(char *p, uint32_t cp);

/* Writes "<file>:<line>: <text>" (or "<file>: <text>" for line 0). Returns 1. */
int dt__doc_say(const dt__doc *d, uint32_t line, char *why, size_t whycap, const char *fmt, ...) DT__DOC_PRINTF(5, 6);
/* The same before a document exists, naming `file` (NULL: "<document>"). Returns 1. */
int dt__doc_say_as(const char *file, uint32_t line, char *why, size_t whycap, const char *fmt, ...) DT__DOC_PRINTF(5, 6);
/* The shortened file name of a sentence into out (DT__DOC_FILE_MAX + 1 bytes). */
void dt__doc_show_file(const char *file, char *out);

#define DT__DOC_CITE_BUF (DT__DOC_CITE_MAX + 16)
/* Source text quoted in a sentence: its first DT__DOC_CITE_MAX bytes (cut between characters)
 * and "..." if longer; control characters as U+XXXX. */
void dt__doc_cite(const char *s, size_t n, char out[DT__DOC_CITE_BUF]);
/* A key as a path shows it: bare when it can be written bare, else a quoted basic string. */
void dt__doc_cite_key(const char *s, size_t n, char out[DT__DOC_CITE_BUF]);
/* What stands at p, for "expected X, got <this>": 'x', "'", U+0001, 'ñ', "end of line", "the end of the document". */
void dt__doc_cite_char(const char *p, const char *end, char out[DT__DOC_CITE_BUF]);

/* Character classes written out: the C ones follow the locale. */
static inline int dt__doc_digit(int c) { return c >= '0' && c <= '9'; }
static inline int dt__doc_hex(int c) { return dt__doc_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
static inline int dt__doc_letter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline uint32_t dt__doc_hex_value(int c) {
    return (uint32_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
}

/* Digits (and, for TOML, underscores already checked) of a decimal integer into *v; `negative`
 * for a leading '-'. 0 if it fits in int64, else 1. */
int dt__doc_decimal(const char *s, size_t n, int negative, int64_t *v);

#endif
