/* The document tree: one arena per document (freeing it frees every node, key and string, so no
 * error path of a parser can leak), one key index per document so that a table of 100,000 keys
 * costs no more per key than one of ten, and the sentences every refusal is made of. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esquema/documento_interno.h"
#include "internal.h"

/* ---- arena ---- */

struct dt__doc_block {
    dt__doc_block *next;
    size_t cap;
    max_align_t data[]; /* aligned for anything stored in it */
};

#define DT__DOC_BLOCK_FIRST 4096u
#define DT__DOC_BLOCK_LAST (256u * 1024u) /* blocks grow to this, so waste stays a small fraction */
#define DT__DOC_ALIGN (sizeof(max_align_t))

void *dt__doc_alloc(dt__doc *d, size_t n) {
    n = (n + DT__DOC_ALIGN - 1) / DT__DOC_ALIGN * DT__DOC_ALIGN;
    if (n == 0) n = DT__DOC_ALIGN;
    if (n > d->free_n) {
        size_t cap = d->next_block;
        if (cap < n) cap = n;
        dt__doc_block *b = (dt__doc_block *)malloc(sizeof *b + cap);
        if (b == NULL) return NULL;
        b->next = d->blocks;
        b->cap = cap;
        d->blocks = b;
        d->free_at = (char *)b->data;
        d->free_n = cap;
        if (d->next_block < DT__DOC_BLOCK_LAST) d->next_block *= 2;
    }
    void *p = d->free_at;
    d->free_at += n;
    d->free_n -= n;
    return p;
}

static char *dt__doc_copy(dt__doc *d, const char *s, size_t n) {
    char *c = (char *)dt__doc_alloc(d, n + 1);
    if (c == NULL) return NULL;
    if (n) memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

dt__doc *dt__doc_new(dt__doc_format format, const char *file) {
    dt__doc *d = (dt__doc *)calloc(1, sizeof *d);
    if (d == NULL) return NULL;
    d->format = format;
    d->next_block = DT__DOC_BLOCK_FIRST;
    d->root.kind = DT__DOC_TABLE;
    d->root.line = 1;
    d->root.id = d->next_id++;
    if (file == NULL) file = "<document>";
    d->file = dt__doc_copy(d, file, strlen(file));
    if (d->file == NULL) {
        dt__doc_free(d);
        return NULL;
    }
    return d;
}

void dt__doc_free(dt__doc *d) {
    if (d == NULL) return;
    dt__doc_block *b = d->blocks;
    while (b) {
        dt__doc_block *next = b->next;
        free(b);
        b = next;
    }
    free(d->index);
    free(d);
}

/* ---- key index ---- */

static size_t dt__doc_hash(uint32_t table_id, const char *key, size_t keylen) {
    return (size_t)dt__mezcla(dt__fnv1a64(key, keylen) ^ ((uint64_t)table_id * 0x9E3779B97F4A7C15ULL));
}

dt__doc_node *dt__doc_lookup(const dt__doc *d, const dt__doc_node *t, const char *key, size_t keylen) {
    if (d->index_cap == 0) return NULL;
    size_t mask = d->index_cap - 1;
    for (size_t h = dt__doc_hash(t->id, key, keylen) & mask;; h = (h + 1) & mask) {
        dt__doc_node *e = d->index[h];
        if (e == NULL) return NULL;
        if (e->parent == t && e->keylen == keylen && memcmp(e->key, key, keylen) == 0) return e;
    }
}

static void dt__doc_index_put(dt__doc_node **index, size_t cap, dt__doc_node *e) {
    size_t mask = cap - 1;
    size_t h = dt__doc_hash(e->parent->id, e->key, e->keylen) & mask;
    while (index[h]) h = (h + 1) & mask;
    index[h] = e;
}

/* Room for one more entry, at most half full so probes stay short. */
static int dt__doc_index_room(dt__doc *d) {
    if ((d->index_n + 1) * 2 <= d->index_cap) return 1;
    size_t cap = d->index_cap ? d->index_cap * 2 : 64;
    dt__doc_node **index = (dt__doc_node **)calloc(cap, sizeof *index);
    if (index == NULL) return 0;
    for (size_t i = 0; i < d->index_cap; i++)
        if (d->index[i]) dt__doc_index_put(index, cap, d->index[i]);
    free(d->index);
    d->index = index;
    d->index_cap = cap;
    return 1;
}

dt__doc_node *dt__doc_add(dt__doc *d, dt__doc_node *parent, dt__doc_kind kind, const char *key, size_t keylen,
                          uint32_t line) {
    if (key != NULL && !dt__doc_index_room(d)) return NULL;
    if (parent->v.c.n == parent->v.c.cap) {
        /* The old array stays in the arena: doubling bounds that waste by the final size. */
        size_t cap = parent->v.c.cap ? parent->v.c.cap * 2 : 4;
        dt__doc_node **items = (dt__doc_node **)dt__doc_alloc(d, cap * sizeof *items);
        if (items == NULL) return NULL;
        if (parent->v.c.n) memcpy(items, parent->v.c.items, parent->v.c.n * sizeof *items);
        parent->v.c.items = items;
        parent->v.c.cap = cap;
    }
    dt__doc_node *n = (dt__doc_node *)dt__doc_alloc(d, sizeof *n);
    if (n == NULL) return NULL;
    memset(n, 0, sizeof *n);
    if (key != NULL) {
        n->key = dt__doc_copy(d, key, keylen);
        if (n->key == NULL) return NULL;
        n->keylen = keylen;
    }
    n->parent = parent;
    n->index = parent->v.c.n;
    n->line = line;
    n->id = d->next_id++;
    n->depth = (uint16_t)(parent->depth + 1);
    n->kind = (uint8_t)kind;
    parent->v.c.items[parent->v.c.n++] = n;
    if (key != NULL) {
        dt__doc_index_put(d->index, d->index_cap, n);
        d->index_n++;
    }
    return n;
}

/* ---- input checks ---- */

size_t dt__doc_utf8_len(const unsigned char *p, const unsigned char *end) {
    unsigned c = p[0];
    if (c < 0x80) return 1;
    size_t n;
    uint32_t min;
    if (c >= 0xC2 && c <= 0xDF) n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, min = 0x10000;
    else return 0;
    if ((size_t)(end - p) < n) return 0;
    uint32_t cp = c & (0x3Fu >> (n - 1));
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

char *dt__doc_put_utf8(char *p, uint32_t cp) {
    if (cp < 0x80) {
        *p++ = (char)cp;
    } else if (cp < 0x800) {
        *p++ = (char)(0xC0 | (cp >> 6));
        *p++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *p++ = (char)(0xE0 | (cp >> 12));
        *p++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *p++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *p++ = (char)(0xF0 | (cp >> 18));
        *p++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *p++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *p++ = (char)(0x80 | (cp & 0x3F));
    }
    return p;
}

static void dt__doc_say_file(const char *file, uint32_t line, char *why, size_t whycap, const char *fmt, va_list ap) {
    if (why == NULL || whycap == 0) return;
    char shown[DT__DOC_FILE_MAX + 1];
    dt__doc_show_file(file ? file : "<document>", shown);
    int k = line ? snprintf(why, whycap, "%s:%u: ", shown, (unsigned)line) : snprintf(why, whycap, "%s: ", shown);
    if (k >= 0 && (size_t)k < whycap) vsnprintf(why + k, whycap - (size_t)k, fmt, ap);
}

int dt__doc_say_as(const char *file, uint32_t line, char *why, size_t whycap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dt__doc_say_file(file, line, why, whycap, fmt, ap);
    va_end(ap);
    return 1;
}

int dt__doc_check_input(const char *text, size_t len, const char *file, size_t *start, char *why, size_t whycap) {
    *start = 0;
    if (len > DT__DOC_MAX_BYTES)
        return dt__doc_say_as(file, 0, why, whycap, "the document is %zu bytes; the limit is %u", len,
                                  DT__DOC_MAX_BYTES);
    const unsigned char *p = (const unsigned char *)text, *end = p + len;
    if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) *start = 3;
    uint32_t line = 1;
    for (const unsigned char *q = p + *start; q < end;) {
        if (*q == '\n') line++;
        size_t n = dt__doc_utf8_len(q, end);
        if (n == 0) return dt__doc_say_as(file, line, why, whycap, "invalid UTF-8 (byte 0x%02X)", (unsigned)*q);
        q += n;
    }
    return 0;
}

/* ---- sentences ---- */

int dt__doc_say(const dt__doc *d, uint32_t line, char *why, size_t whycap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dt__doc_say_file(d->file, line, why, whycap, fmt, ap);
    va_end(ap);
    return 1;
}

void dt__doc_show_file(const char *file, char *out) {
    size_t n = strlen(file);
    const char *s = file;
    size_t k = 0;
    if (n > DT__DOC_FILE_MAX) {
        size_t skip = n - (DT__DOC_FILE_MAX - 3);
        while (skip < n && ((unsigned char)file[skip] & 0xC0) == 0x80) skip++;
        s = file + skip;
        n -= skip;
        memcpy(out, "...", 3);
        k = 3;
    }
    /* A name is shown on one line whatever it holds. */
    for (size_t i = 0; i < n; i++) out[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7F ? '?' : s[i];
    out[k] = '\0';
}

static const char dt__doc_hexdig[] = "0123456789ABCDEF";

/* Quoted text with escapes (`quote`: a key as a basic string) or source text (control characters
 * as U+XXXX), shortened to DT__DOC_CITE_MAX bytes of content. */
static void dt__doc_cite_text(const char *s, size_t n, int quote, char *out) {
    if (dt__parece_clave_en(s, n)) {
        /* hexadecimal digits in a row, as a masking key is written: not quoted, not even cut (issue 48) */
        strcpy(out, "[hexadecimal digits, not quoted]");
        return;
    }
    char *o = out;
    if (quote) *o++ = '"';
    size_t used = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        char tmp[8];
        size_t tn, step = 1;
        if (c < 0x20 || c == 0x7F) {
            const char *pre = quote ? "\\u00" : "U+00";
            memcpy(tmp, pre, 4);
            tmp[4] = dt__doc_hexdig[c >> 4];
            tmp[5] = dt__doc_hexdig[c & 15];
            tn = 6;
        } else if (quote && (c == '"' || c == '\\')) {
            tmp[0] = '\\';
            tmp[1] = (char)c;
            tn = 2;
        } else {
            step = c < 0x80 ? 1 : dt__doc_utf8_len((const unsigned char *)s + i, (const unsigned char *)s + n);
            if (step == 0) break; /* a span that ends inside a character: the sentence stays UTF-8 */
            memcpy(tmp, s + i, step);
            tn = step;
        }
        if (used + tn > DT__DOC_CITE_MAX) {
            memcpy(o, "...", 3);
            o += 3;
            break;
        }
        memcpy(o, tmp, tn);
        o += tn;
        used += tn;
        i += step;
    }
    if (quote) *o++ = '"';
    *o = '\0';
}

void dt__doc_cite(const char *s, size_t n, char out[DT__DOC_CITE_BUF]) { dt__doc_cite_text(s, n, 0, out); }

static int dt__doc_bare(const char *s, size_t n) {
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        if (!dt__doc_letter(s[i]) && !dt__doc_digit(s[i]) && s[i] != '_' && s[i] != '-') return 0;
    return 1;
}

void dt__doc_cite_key(const char *s, size_t n, char out[DT__DOC_CITE_BUF]) {
    dt__doc_cite_text(s, n, !dt__doc_bare(s, n), out);
}

void dt__doc_cite_char(const char *p, const char *end, char out[DT__DOC_CITE_BUF]) {
    if (p >= end) {
        strcpy(out, "the end of the document");
    } else if (*p == '\n' || (*p == '\r' && p + 1 < end && p[1] == '\n')) {
        strcpy(out, "the end of the line");
    } else if ((unsigned char)*p < 0x20 || *p == 0x7F) {
        dt__doc_cite_text(p, 1, 0, out);
    } else if (*p == '\'') {
        strcpy(out, "\"'\"");
    } else {
        size_t n = dt__doc_utf8_len((const unsigned char *)p, (const unsigned char *)end);
        if (n == 0) n = 1;
        out[0] = '\'';
        memcpy(out + 1, p, n);
        out[n + 1] = '\'';
        out[n + 2] = '\0';
    }
}

int dt__doc_decimal(const char *s, size_t n, int negative, int64_t *v) {
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, m = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '_') continue;
        uint64_t digit = (uint64_t)(s[i] - '0');
        if (m > (limit - digit) / 10) return 1;
        m = m * 10 + digit;
    }
    *v = negative ? (int64_t)(0 - m) : (int64_t)m;
    return 0;
}

/* ---- reading ---- */

const dt__doc_node *dt__doc_root(const dt__doc *d) { return d ? &d->root : NULL; }
dt__doc_format dt__doc_format_of(const dt__doc_node *n) { return n ? dt__doc_of(n)->format : (dt__doc_format)0; }
const char *dt__doc_file(const dt__doc_node *n) { return n ? dt__doc_of(n)->file : ""; }
dt__doc_kind dt__doc_kind_of(const dt__doc_node *n) { return n ? (dt__doc_kind)n->kind : (dt__doc_kind)0; }
uint32_t dt__doc_line(const dt__doc_node *n) { return n ? n->line : 0; }
const dt__doc_node *dt__doc_parent(const dt__doc_node *n) { return n ? n->parent : NULL; }

const char *dt__doc_key(const dt__doc_node *n, size_t *len) {
    if (len) *len = n && n->key ? n->keylen : 0;
    return n ? n->key : NULL;
}

static int dt__doc_container(const dt__doc_node *n) {
    return n && (n->kind == DT__DOC_TABLE || n->kind == DT__DOC_ARRAY);
}

size_t dt__doc_len(const dt__doc_node *n) { return dt__doc_container(n) ? n->v.c.n : 0; }

const dt__doc_node *dt__doc_item(const dt__doc_node *n, size_t i) {
    return dt__doc_container(n) && i < n->v.c.n ? n->v.c.items[i] : NULL;
}

const dt__doc_node *dt__doc_get(const dt__doc_node *t, const char *key, size_t keylen) {
    if (t == NULL || t->kind != DT__DOC_TABLE || (key == NULL && keylen > 0)) return NULL;
    return dt__doc_lookup(dt__doc_of(t), t, keylen ? key : "", keylen);
}

const char *dt__doc_string(const dt__doc_node *n, size_t *len) {
    int ok = n && n->kind == DT__DOC_STRING;
    if (len) *len = ok ? n->v.s.len : 0;
    return ok ? n->v.s.s : NULL;
}

int64_t dt__doc_integer(const dt__doc_node *n) { return n && n->kind == DT__DOC_INTEGER ? n->v.i : 0; }
int dt__doc_boolean(const dt__doc_node *n) { return n && n->kind == DT__DOC_BOOLEAN ? n->v.b : 0; }

/* ---- checking ---- */

const char *dt__doc_kind_name(dt__doc_kind kind, dt__doc_format format) {
    switch (kind) {
    case DT__DOC_TABLE: return format == DT__DOC_JSON ? "an object" : "a table";
    case DT__DOC_ARRAY: return "an array";
    case DT__DOC_STRING: return "a string";
    case DT__DOC_INTEGER: return "an integer";
    case DT__DOC_BOOLEAN: return "a boolean";
    default: return "nothing";
    }
}

size_t dt__doc_path(const dt__doc_node *n, char *buf, size_t cap) {
    /* Segments from n up to the root, each as it is written with its separator. */
    char seg[DT__DOC_MAX_DEPTH + 1][DT__DOC_CITE_BUF + 2];
    size_t len[DT__DOC_MAX_DEPTH + 1], k = 0;
    for (const dt__doc_node *m = n; m && m->parent && k <= DT__DOC_MAX_DEPTH; m = m->parent, k++) {
        if (m->key) {
            seg[k][0] = '.';
            dt__doc_cite_key(m->key, m->keylen, seg[k] + 1);
        } else {
            snprintf(seg[k], sizeof seg[k], "[%zu]", m->index);
        }
        len[k] = strlen(seg[k]);
    }
    size_t total = 0, keep = k;
    for (size_t i = 0; i < k; i++) total += len[i];
    int cut = total > DT__DOC_PATH_MAX;
    if (cut) {
        /* Keep the end of the path, the part that says the most: whole segments after "...". */
        for (total = 3, keep = 0; keep < k && total + len[keep] <= DT__DOC_PATH_MAX; keep++) total += len[keep];
    }
    char out[DT__DOC_PATH_MAX + 1], *o = out;
    if (cut) o = dt__put(o, "...", 3);
    for (size_t i = keep; i-- > 0;) {
        const char *s = seg[i];
        size_t m = len[i];
        if (i + 1 == keep && s[0] == '.') s++, m--; /* the first segment shown has no dot before it */
        o = dt__put(o, s, m);
    }
    *o = '\0';
    size_t n_out = (size_t)(o - out);
    if (cap > 0) {
        size_t c = n_out < cap ? n_out : cap - 1;
        memcpy(buf, out, c);
        buf[c] = '\0';
    }
    return n_out;
}

dt_status dt__doc_refuse(const dt__doc_node *n, char *why, size_t whycap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    dt__doc_say_file(dt__doc_of(n)->file, n->line, why, whycap, fmt, ap);
    va_end(ap);
    return DT_ERR_INVALID_ARG;
}

/* The node's path for a sentence, or "the document" for the root. */
static const char *dt__doc_named(const dt__doc_node *n, char out[DT__DOC_PATH_MAX + 1]) {
    if (dt__doc_path(n, out, DT__DOC_PATH_MAX + 1) == 0) return "the document";
    return out;
}

dt_status dt__doc_want(const dt__doc_node *n, dt__doc_kind kind, char *why, size_t whycap) {
    if (n == NULL) return DT_ERR_NULL;
    if (n->kind == kind) return DT_OK;
    char path[DT__DOC_PATH_MAX + 1];
    dt__doc_format f = dt__doc_of(n)->format;
    return dt__doc_refuse(n, why, whycap, "%s must be %s, got %s", dt__doc_named(n, path), dt__doc_kind_name(kind, f),
                          dt__doc_kind_name((dt__doc_kind)n->kind, f));
}

dt_status dt__doc_want_string(const dt__doc_node *n, const char **s, size_t *len, char *why, size_t whycap) {
    dt_status st = dt__doc_want(n, DT__DOC_STRING, why, whycap);
    if (st == DT_OK) {
        if (s) *s = n->v.s.s;
        if (len) *len = n->v.s.len;
    }
    return st;
}

dt_status dt__doc_want_integer(const dt__doc_node *n, int64_t *v, char *why, size_t whycap) {
    dt_status st = dt__doc_want(n, DT__DOC_INTEGER, why, whycap);
    if (st == DT_OK && v) *v = n->v.i;
    return st;
}

dt_status dt__doc_want_boolean(const dt__doc_node *n, int *v, char *why, size_t whycap) {
    dt_status st = dt__doc_want(n, DT__DOC_BOOLEAN, why, whycap);
    if (st == DT_OK && v) *v = n->v.b;
    return st;
}

const dt__doc_node *dt__doc_need(const dt__doc_node *t, const char *key, char *why, size_t whycap) {
    if (t == NULL || key == NULL) return NULL;
    if (dt__doc_want(t, DT__DOC_TABLE, why, whycap) != DT_OK) return NULL;
    size_t keylen = strlen(key);
    const dt__doc_node *v = dt__doc_lookup(dt__doc_of(t), t, key, keylen);
    if (v == NULL) {
        char path[DT__DOC_PATH_MAX + 1], k[DT__DOC_CITE_BUF];
        dt__doc_cite_key(key, keylen, k);
        dt__doc_refuse(t, why, whycap, "%s needs the key %s", dt__doc_named(t, path), k);
    }
    return v;
}

/* ---- dump ---- */

typedef struct dt__doc_out {
    char *buf;
    size_t cap, n;
} dt__doc_out;

static void dt__doc_w(dt__doc_out *o, const char *s, size_t n) {
    if (o->n < o->cap) {
        size_t room = o->cap - o->n;
        memcpy(o->buf + o->n, s, n < room ? n : room);
    }
    o->n += n;
}

static void dt__doc_w_string(dt__doc_out *o, const char *s, size_t n) {
    dt__doc_w(o, "\"", 1);
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7F) continue;
        dt__doc_w(o, s + from, i - from);
        from = i + 1;
        char e[6] = {'\\', (char)c, 0, 0, 0, 0};
        size_t en = 2;
        switch (c) {
        case '"': case '\\': break;
        case '\b': e[1] = 'b'; break;
        case '\f': e[1] = 'f'; break;
        case '\n': e[1] = 'n'; break;
        case '\r': e[1] = 'r'; break;
        case '\t': e[1] = 't'; break;
        default:
            memcpy(e + 1, "u00", 3);
            e[4] = dt__doc_hexdig[c >> 4];
            e[5] = dt__doc_hexdig[c & 15];
            en = 6;
        }
        dt__doc_w(o, e, en);
    }
    dt__doc_w(o, s + from, n - from);
    dt__doc_w(o, "\"", 1);
}

static void dt__doc_w_node(dt__doc_out *o, const dt__doc_node *n, unsigned flags) {
    char tmp[24];
    switch (n->kind) {
    case DT__DOC_TABLE:
    case DT__DOC_ARRAY: {
        int table = n->kind == DT__DOC_TABLE;
        dt__doc_w(o, table ? "{" : "[", 1);
        for (size_t i = 0; i < n->v.c.n; i++) {
            const dt__doc_node *m = n->v.c.items[i];
            if (i) dt__doc_w(o, ",", 1);
            if (table) {
                dt__doc_w_string(o, m->key, m->keylen);
                dt__doc_w(o, ":", 1);
            }
            dt__doc_w_node(o, m, flags);
        }
        dt__doc_w(o, table ? "}" : "]", 1);
        break;
    }
    case DT__DOC_STRING: dt__doc_w_string(o, n->v.s.s, n->v.s.len); break;
    case DT__DOC_INTEGER: dt__doc_w(o, tmp, (size_t)(dt__put_i64(tmp, n->v.i) - tmp)); break;
    case DT__DOC_BOOLEAN: n->v.b ? dt__doc_w(o, "true", 4) : dt__doc_w(o, "false", 5); break;
    default: dt__doc_w(o, "?", 1); break; /* not reached: every node gets its kind */
    }
    if (flags & DT__DOC_DUMP_LINES) {
        tmp[0] = '@';
        dt__doc_w(o, tmp, (size_t)(dt__put_u64(tmp + 1, n->line) - tmp));
    }
}

dt_status dt__doc_dump(const dt__doc_node *n, unsigned flags, char *buf, size_t cap, size_t *len) {
    if (n == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    dt__doc_out o = {buf, cap, 0};
    dt__doc_w_node(&o, n, flags);
    if (len) *len = o.n;
    if (o.n + 1 > cap) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    buf[o.n] = '\0';
    return DT_OK;
}
