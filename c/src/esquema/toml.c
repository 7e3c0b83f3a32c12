/* A strict reader of the TOML subset of docs/esquemas-formato.md. One pass over the text, by
 * recursive descent for values (bounded by DT__DOC_MAX_DEPTH, checked before each level is made).
 * What TOML 1.0 has and datoteca does not use (floats, dates and times, multi-line strings,
 * hexadecimal, octal and binary integers) is refused with a sentence that says so, rather than
 * read and then refused later with a vaguer one. The rules against redefinition are TOML 1.0's,
 * kept as marks on the tables (documento_interno.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "esquema/documento_interno.h"

typedef struct dt__toml {
    dt__doc *d;
    const char *p, *end;
    uint32_t line;
    char *why;
    size_t whycap;
    int oom;
    dt__doc_node *section; /* the table of the last [header] (the root before any) */
} dt__toml;

typedef struct dt__toml_key {
    const char *s; /* decoded; in the source or in the arena */
    size_t n;
} dt__toml_key;

static int dt__toml_fail(dt__toml *t, const char *fmt, ...) DT__DOC_PRINTF(2, 3);
static int dt__toml_fail(dt__toml *t, const char *fmt, ...) {
    char msg[DT_SENTENCE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dt__doc_say(t->d, t->line, t->why, t->whycap, "%s", msg);
}

static int dt__toml_oom(dt__toml *t) {
    t->oom = 1;
    return dt__doc_say(t->d, 0, t->why, t->whycap, "out of memory");
}

static int dt__toml_deep(dt__toml *t) {
    return dt__toml_fail(t, "nesting deeper than %d levels is not accepted", DT__DOC_MAX_DEPTH);
}

/* "expected <what>, got <the character at p>" */
static int dt__toml_expected(dt__toml *t, const char *what) {
    char got[DT__DOC_CITE_BUF];
    dt__doc_cite_char(t->p, t->end, got);
    return dt__toml_fail(t, "expected %s, got %s", what, got);
}

static void dt__toml_ws(dt__toml *t) {
    while (t->p < t->end && (*t->p == ' ' || *t->p == '\t')) t->p++;
}

static int dt__toml_at_newline(const dt__toml *t) {
    return t->p < t->end && (*t->p == '\n' || (*t->p == '\r' && t->p + 1 < t->end && t->p[1] == '\n'));
}

static void dt__toml_newline(dt__toml *t) {
    t->p += *t->p == '\r' ? 2 : 1;
    t->line++;
}

static int dt__toml_control(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7F; }

/* From '#' to the end of the line, which is left for the caller. */
static int dt__toml_comment(dt__toml *t) {
    for (t->p++; t->p < t->end && !dt__toml_at_newline(t); t->p++)
        if (dt__toml_control((unsigned char)*t->p))
            return dt__toml_fail(t, "a control character (U+%04X) is not accepted in a comment", (unsigned)*t->p);
    return 0;
}

/* Whitespace, comments and newlines, as allowed between the items of an array. */
static int dt__toml_wcn(dt__toml *t) {
    for (;;) {
        dt__toml_ws(t);
        if (t->p < t->end && *t->p == '#' && dt__toml_comment(t)) return 1;
        if (!dt__toml_at_newline(t)) return 0;
        dt__toml_newline(t);
    }
}

static int dt__toml_not_closed(dt__toml *t, const char *q) {
    return q >= t->end || *q == '\n' || (*q == '\r' && q + 1 < t->end && q[1] == '\n');
}

static int dt__toml_multiline(dt__toml *t, char quote) {
    return t->end - t->p >= 3 && t->p[1] == quote && t->p[2] == quote;
}

static int dt__toml_refuse_multiline(dt__toml *t) {
    return dt__toml_fail(t, "multi-line strings are not accepted: write the text on one line, with \\n for a line break");
}

/* A basic string "..." at p, decoded into the arena. */
static int dt__toml_basic(dt__toml *t, const char **out, size_t *outn) {
    if (dt__toml_multiline(t, '"')) return dt__toml_refuse_multiline(t);
    /* First the end, skipping escaped characters, so the arena gets the exact span. */
    const char *a = t->p + 1, *q = a;
    for (;;) {
        if (dt__toml_not_closed(t, q)) return dt__toml_fail(t, "a string is not closed on its line");
        if (*q == '"') break;
        q += *q == '\\' && !dt__toml_not_closed(t, q + 1) ? 2 : 1;
    }
    char *o = (char *)dt__doc_alloc(t->d, (size_t)(q - a) + 1), *start = o;
    if (o == NULL) return dt__toml_oom(t);
    for (const char *r = a; r < q;) {
        unsigned char c = (unsigned char)*r;
        if (dt__toml_control(c))
            return dt__toml_fail(t, "a control character (U+%04X) is not accepted in a string; write it as an escape", (unsigned)c);
        if (c != '\\') {
            *o++ = (char)c;
            r++;
            continue;
        }
        char cite[DT__DOC_CITE_BUF];
        switch (r[1]) {
        case 'b': *o++ = '\b'; r += 2; continue;
        case 't': *o++ = '\t'; r += 2; continue;
        case 'n': *o++ = '\n'; r += 2; continue;
        case 'f': *o++ = '\f'; r += 2; continue;
        case 'r': *o++ = '\r'; r += 2; continue;
        case '"': *o++ = '"'; r += 2; continue;
        case '\\': *o++ = '\\'; r += 2; continue;
        case 'u':
        case 'U': {
            size_t want = r[1] == 'u' ? 4 : 8, have = 0;
            uint32_t cp = 0;
            while (have < want && r + 2 + have < q && dt__doc_hex(r[2 + have])) {
                /* Eight digits can exceed 32 bits: anything past 10FFFF is refused anyway. */
                cp = cp > 0x10FFFF ? cp : cp * 16 + dt__doc_hex_value(r[2 + have]);
                have++;
            }
            if (have < want) {
                size_t shown = 2 + have + (r + 2 + have < q ? 1 : 0);
                dt__doc_cite(r, shown, cite);
                return dt__toml_fail(t, "\\%c must be followed by %zu hexadecimal digits: %s", r[1], want, cite);
            }
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                dt__doc_cite(r, 2 + want, cite);
                return dt__toml_fail(t, "an escape must be a Unicode scalar value (not a surrogate, at most 10FFFF): %s", cite);
            }
            o = dt__doc_put_utf8(o, cp);
            r += 2 + want;
            continue;
        }
        default: {
            size_t n = dt__doc_utf8_len((const unsigned char *)r + 1, (const unsigned char *)q);
            dt__doc_cite(r, 1 + (n ? n : 1), cite);
            return dt__toml_fail(t, "invalid escape %s in a string (valid: \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", cite);
        }
        }
    }
    *o = '\0';
    *out = start;
    *outn = (size_t)(o - start);
    t->p = q + 1;
    return 0;
}

/* A literal string '...' at p: no escapes, so it is read in place. */
static int dt__toml_literal(dt__toml *t, const char **out, size_t *outn) {
    if (dt__toml_multiline(t, '\'')) return dt__toml_refuse_multiline(t);
    const char *a = t->p + 1, *q = a;
    for (; !dt__toml_not_closed(t, q) && *q != '\''; q++)
        if (dt__toml_control((unsigned char)*q))
            return dt__toml_fail(t, "a control character (U+%04X) is not accepted in a string", (unsigned)*q);
    if (dt__toml_not_closed(t, q)) return dt__toml_fail(t, "a string is not closed on its line");
    *out = a;
    *outn = (size_t)(q - a);
    t->p = q + 1;
    return 0;
}

static int dt__toml_bare_char(char c) { return dt__doc_letter(c) || dt__doc_digit(c) || c == '_' || c == '-'; }

static int dt__toml_simple_key(dt__toml *t, dt__toml_key *k) {
    if (t->p < t->end && *t->p == '"') return dt__toml_basic(t, &k->s, &k->n);
    if (t->p < t->end && *t->p == '\'') return dt__toml_literal(t, &k->s, &k->n);
    k->s = t->p;
    while (t->p < t->end && dt__toml_bare_char(*t->p)) t->p++;
    k->n = (size_t)(t->p - k->s);
    return k->n == 0 ? dt__toml_expected(t, "a key") : 0;
}

/* key = simple-key { ws '.' ws simple-key }: at most DT__DOC_MAX_DEPTH parts, since each part
 * but the last is a table. */
static int dt__toml_key_parse(dt__toml *t, dt__toml_key *keys, size_t *nk) {
    *nk = 0;
    for (;;) {
        if (*nk == DT__DOC_MAX_DEPTH) return dt__toml_deep(t);
        if (dt__toml_simple_key(t, &keys[(*nk)++])) return 1;
        const char *after = t->p;
        dt__toml_ws(t);
        if (t->p >= t->end || *t->p != '.') {
            t->p = after;
            return 0;
        }
        t->p++;
        dt__toml_ws(t);
    }
}

/* The kind of an existing value as the redefinition sentences name it. */
static const char *dt__toml_what(const dt__doc_node *n) {
    if (n->kind == DT__DOC_TABLE && (n->marks & DT__DOC_M_FROZEN)) return "an inline table";
    if (n->kind == DT__DOC_ARRAY && (n->marks & DT__DOC_M_HEADER)) return "an array of tables";
    return dt__doc_kind_name((dt__doc_kind)n->kind, DT__DOC_TOML);
}

static int dt__toml_not_a(dt__toml *t, const dt__doc_node *n, const char *wanted) {
    char path[DT__DOC_PATH_MAX + 1];
    dt__doc_path(n, path, sizeof path);
    return dt__toml_fail(t, "%s is %s (line %u), not %s", path, dt__toml_what(n), (unsigned)n->line, wanted);
}

static int dt__toml_frozen(dt__toml *t, const dt__doc_node *n) {
    char path[DT__DOC_PATH_MAX + 1];
    dt__doc_path(n, path, sizeof path);
    return dt__toml_fail(t, "%s is %s (line %u), complete as written: nothing can be added to it", path,
                         dt__toml_what(n), (unsigned)n->line);
}

static dt__doc_node *dt__toml_add(dt__toml *t, dt__doc_node *parent, dt__doc_kind kind, const dt__toml_key *k) {
    if (dt__doc_too_deep(parent)) {
        dt__toml_deep(t);
        return NULL;
    }
    dt__doc_node *n = dt__doc_add(t->d, parent, kind, k ? k->s : NULL, k ? k->n : 0, t->line);
    if (n == NULL) dt__toml_oom(t);
    return n;
}

static int dt__toml_value(dt__toml *t, dt__doc_node *n);

static int dt__toml_array(dt__toml *t, dt__doc_node *n) {
    uint32_t open = t->line;
    n->kind = DT__DOC_ARRAY;
    t->p++;
    for (;;) {
        if (dt__toml_wcn(t)) return 1;
        if (t->p >= t->end) return dt__toml_fail(t, "an array opened at line %u is not closed", (unsigned)open);
        if (*t->p == ']') break;
        dt__doc_node *item = dt__toml_add(t, n, (dt__doc_kind)0, NULL);
        if (item == NULL || dt__toml_value(t, item) || dt__toml_wcn(t)) return 1;
        if (t->p >= t->end) return dt__toml_fail(t, "an array opened at line %u is not closed", (unsigned)open);
        if (*t->p == ']') break;
        if (*t->p != ',') return dt__toml_expected(t, "a comma or ] in the array");
        t->p++;
    }
    t->p++;
    n->marks |= DT__DOC_M_FROZEN;
    return 0;
}

static int dt__toml_keyval(dt__toml *t, dt__doc_node *table);

static int dt__toml_inline(dt__toml *t, dt__doc_node *n) {
    uint32_t open = t->line;
    n->kind = DT__DOC_TABLE;
    t->p++;
    dt__toml_ws(t);
    if (t->p < t->end && *t->p == '}') {
        t->p++;
    } else {
        for (;;) {
            if (t->p >= t->end) return dt__toml_fail(t, "an inline table opened at line %u is not closed", (unsigned)open);
            if (*t->p == '#' || dt__toml_at_newline(t))
                return dt__toml_fail(t, "an inline table must be written on one line (it opened at line %u)", (unsigned)open);
            if (dt__toml_keyval(t, n)) return 1;
            dt__toml_ws(t);
            if (t->p < t->end && *t->p == ',') {
                t->p++;
                dt__toml_ws(t);
                if (t->p < t->end && *t->p == '}') return dt__toml_fail(t, "a trailing comma is not accepted in an inline table");
            } else if (t->p < t->end && *t->p == '}') {
                t->p++;
                break;
            } else if (t->p < t->end && *t->p != '#' && !dt__toml_at_newline(t)) {
                return dt__toml_expected(t, "a comma or } in the inline table");
            }
        }
    }
    n->marks |= DT__DOC_M_FROZEN;
    return 0;
}

static int dt__toml_token_char(char c) {
    return dt__doc_letter(c) || dt__doc_digit(c) || c == '_' || c == '+' || c == '-' || c == '.' || c == ':';
}

static int dt__toml_is(const char *s, size_t n, const char *word) { return strlen(word) == n && memcmp(s, word, n) == 0; }

/* Shaped like a TOML float (sign, digits, '.' digits, exponent), loosely: refused as a float even
 * when it would also be a malformed one, since the fix is the same. */
static int dt__toml_float_shape(const char *s, size_t n) {
    size_t i = 0, digits = 0;
    int point = 0, exponent = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (dt__toml_is(s + i, n - i, "inf") || dt__toml_is(s + i, n - i, "nan")) return 1;
    for (; i < n && (dt__doc_digit(s[i]) || s[i] == '_'); i++) digits += s[i] != '_';
    if (i < n && s[i] == '.') {
        point = 1;
        for (i++; i < n && (dt__doc_digit(s[i]) || s[i] == '_'); i++) digits += s[i] != '_';
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        exponent = 1;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        while (i < n && (dt__doc_digit(s[i]) || s[i] == '_')) i++;
    }
    return i == n && digits > 0 && (point || exponent);
}

/* true, false, or an integer; anything else that is not a string, array or inline table. */
static int dt__toml_scalar(dt__toml *t, dt__doc_node *n) {
    const char *s = t->p;
    while (t->p < t->end && dt__toml_token_char(*t->p)) t->p++;
    size_t len = (size_t)(t->p - s);
    if (len == 0) return dt__toml_expected(t, "a value");
    char cite[DT__DOC_CITE_BUF];
    dt__doc_cite(s, len, cite);
    if (dt__toml_is(s, len, "true") || dt__toml_is(s, len, "false")) {
        n->kind = DT__DOC_BOOLEAN;
        n->v.b = s[0] == 't';
        return 0;
    }
    if (dt__toml_is(s, len, "null")) return dt__toml_fail(t, "null is not accepted (leave the key out)");
    if ((len >= 5 && dt__doc_digit(s[0]) && dt__doc_digit(s[1]) && dt__doc_digit(s[2]) && dt__doc_digit(s[3]) && s[4] == '-') ||
        (len >= 3 && dt__doc_digit(s[0]) && dt__doc_digit(s[1]) && s[2] == ':'))
        return dt__toml_fail(t, "a date or time is not accepted (write it as a string): %s", cite);
    size_t i = s[0] == '+' || s[0] == '-';
    if (len > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'o' || s[i + 1] == 'b' || s[i + 1] == 'X' ||
                                       s[i + 1] == 'O' || s[i + 1] == 'B'))
        return dt__toml_fail(t, "hexadecimal, octal and binary integers are not accepted (write it in decimal): %s", cite);
    if (dt__toml_float_shape(s, len)) return dt__toml_fail(t, "a float is not accepted (datoteca uses integers): %s", cite);
    size_t digits = 0;
    for (size_t k = i; k < len; k++) {
        if (s[k] == '_') {
            if (k == i || k + 1 == len || !dt__doc_digit(s[k - 1]) || !dt__doc_digit(s[k + 1]))
                return dt__toml_fail(t, "an underscore in an integer must be between two digits: %s", cite);
        } else if (dt__doc_digit(s[k])) {
            digits++;
        } else {
            digits = 0;
            break;
        }
    }
    if (digits == 0)
        return dt__toml_fail(t, "expected a value (a string, an integer, true, false, an array or an inline table), got %s", cite);
    if (s[i] == '0' && len > i + 1) return dt__toml_fail(t, "an integer with leading zeros is not accepted: %s", cite);
    int64_t v;
    if (dt__doc_decimal(s + i, len - i, s[0] == '-', &v))
        return dt__toml_fail(t, "an integer out of range (-9223372036854775808 to 9223372036854775807): %s", cite);
    n->kind = DT__DOC_INTEGER;
    n->v.i = v;
    return 0;
}

/* The value at p into n, a node already placed in its table or array. */
static int dt__toml_value(dt__toml *t, dt__doc_node *n) {
    if (t->p >= t->end) return dt__toml_expected(t, "a value");
    switch (*t->p) {
    case '"':
    case '\'': {
        const char *s;
        size_t len;
        int literal = *t->p == '\'';
        if ((literal ? dt__toml_literal : dt__toml_basic)(t, &s, &len)) return 1;
        if (literal) {
            /* A literal string points into the caller's text: keep a copy. */
            char *c = (char *)dt__doc_alloc(t->d, len + 1);
            if (c == NULL) return dt__toml_oom(t);
            memcpy(c, s, len);
            c[len] = '\0';
            s = c;
        }
        n->kind = DT__DOC_STRING;
        n->v.s.s = s;
        n->v.s.len = len;
        return 0;
    }
    case '[': return dt__toml_array(t, n);
    case '{': return dt__toml_inline(t, n);
    default: return dt__toml_scalar(t, n);
    }
}

/* key = value, into `table` (the section's table, or an inline table being read). */
static int dt__toml_keyval(dt__toml *t, dt__doc_node *table) {
    dt__toml_key keys[DT__DOC_MAX_DEPTH];
    size_t nk;
    const char *start = t->p;
    if (dt__toml_key_parse(t, keys, &nk)) return 1;
    const char *key_end = t->p;
    dt__toml_ws(t);
    if (t->p >= t->end || *t->p != '=') {
        char cite[DT__DOC_CITE_BUF], what[DT__DOC_CITE_BUF + 32];
        dt__doc_cite(start, (size_t)(key_end - start), cite);
        snprintf(what, sizeof what, "= after the key %s", cite);
        return dt__toml_expected(t, what);
    }
    t->p++;
    dt__toml_ws(t);
    dt__doc_node *cur = table;
    for (size_t i = 0; i + 1 < nk; i++) {
        dt__doc_node *child = dt__doc_lookup(t->d, cur, keys[i].s, keys[i].n);
        if (child == NULL) {
            if ((child = dt__toml_add(t, cur, DT__DOC_TABLE, &keys[i])) == NULL) return 1;
        } else if (child->kind != DT__DOC_TABLE) {
            return dt__toml_not_a(t, child, "a table");
        } else if (child->marks & DT__DOC_M_FROZEN) {
            return dt__toml_frozen(t, child);
        } else if (child->marks & DT__DOC_M_HEADER) {
            char path[DT__DOC_PATH_MAX + 1];
            dt__doc_path(child, path, sizeof path);
            return dt__toml_fail(t, "dotted keys cannot add to %s, a table defined at line %u by its header", path,
                                 (unsigned)child->line);
        }
        /* TOML 1.0 also forbids extending, from a later section, a table that dotted keys defined
         * in an earlier one. Reaching it would take a header over a table of those dotted keys
         * (refused by dt__toml_header) or dotted keys through a header's table (refused above), so
         * no mark of sections is kept. A table a deeper header made is defined here, at this line. */
        if (!(child->marks & DT__DOC_M_DOTTED)) child->line = t->line;
        child->marks |= DT__DOC_M_DOTTED;
        cur = child;
    }
    dt__doc_node *old = dt__doc_lookup(t->d, cur, keys[nk - 1].s, keys[nk - 1].n);
    if (old != NULL) {
        char path[DT__DOC_PATH_MAX + 1];
        dt__doc_path(old, path, sizeof path);
        return dt__toml_fail(t, "duplicate key %s (first written at line %u)", path, (unsigned)old->line);
    }
    dt__doc_node *v = dt__toml_add(t, cur, (dt__doc_kind)0, &keys[nk - 1]);
    return v == NULL || dt__toml_value(t, v);
}

/* [a.b] or [[a.b]]: makes the section's table. */
static int dt__toml_header(dt__toml *t) {
    int aot = t->p + 1 < t->end && t->p[1] == '[';
    t->p += aot ? 2 : 1;
    dt__toml_ws(t);
    dt__toml_key keys[DT__DOC_MAX_DEPTH];
    size_t nk;
    if (dt__toml_key_parse(t, keys, &nk)) return 1;
    dt__toml_ws(t);
    if (aot) {
        if (!(t->p + 1 < t->end && t->p[0] == ']' && t->p[1] == ']')) {
            if (t->p < t->end && *t->p == ']') t->p++; /* name what follows the half that is there */
            return dt__toml_expected(t, "]] to close the array-of-tables header");
        }
        t->p += 2;
    } else {
        if (!(t->p < t->end && *t->p == ']')) return dt__toml_expected(t, "] to close the table header");
        t->p++;
    }
    dt__doc_node *cur = &t->d->root;
    for (size_t i = 0; i + 1 < nk; i++) {
        dt__doc_node *child = dt__doc_lookup(t->d, cur, keys[i].s, keys[i].n);
        if (child == NULL) {
            if ((child = dt__toml_add(t, cur, DT__DOC_TABLE, &keys[i])) == NULL) return 1;
        } else if (child->kind == DT__DOC_ARRAY && (child->marks & DT__DOC_M_HEADER)) {
            child = child->v.c.items[child->v.c.n - 1]; /* a header goes into the last table of [[...]] */
        } else if (child->kind != DT__DOC_TABLE) {
            return dt__toml_not_a(t, child, "a table");
        } else if (child->marks & DT__DOC_M_FROZEN) {
            return dt__toml_frozen(t, child);
        }
        cur = child;
    }
    const dt__toml_key *last = &keys[nk - 1];
    dt__doc_node *old = dt__doc_lookup(t->d, cur, last->s, last->n), *section;
    if (aot) {
        dt__doc_node *arr = old;
        if (arr == NULL) {
            if ((arr = dt__toml_add(t, cur, DT__DOC_ARRAY, last)) == NULL) return 1;
            arr->marks = DT__DOC_M_HEADER;
        } else if (arr->kind != DT__DOC_ARRAY) {
            return dt__toml_not_a(t, arr, "an array of tables");
        } else if (!(arr->marks & DT__DOC_M_HEADER)) {
            return dt__toml_frozen(t, arr);
        }
        if ((section = dt__toml_add(t, arr, DT__DOC_TABLE, NULL)) == NULL) return 1;
        section->marks = DT__DOC_M_HEADER;
    } else if (old == NULL) {
        if ((section = dt__toml_add(t, cur, DT__DOC_TABLE, last)) == NULL) return 1;
        section->marks = DT__DOC_M_HEADER;
    } else if (old->kind != DT__DOC_TABLE) {
        return dt__toml_not_a(t, old, "a table");
    } else if (old->marks & DT__DOC_M_FROZEN) {
        return dt__toml_frozen(t, old);
    } else if (old->marks & (DT__DOC_M_HEADER | DT__DOC_M_DOTTED)) {
        char path[DT__DOC_PATH_MAX + 1];
        dt__doc_path(old, path, sizeof path);
        return dt__toml_fail(t, "table %s is already defined at line %u%s", path, (unsigned)old->line,
                             old->marks & DT__DOC_M_HEADER ? "" : " by dotted keys");
    } else {
        /* Made on the way to a deeper header; defined here, once. */
        section = old;
        section->marks = DT__DOC_M_HEADER;
        section->line = t->line;
    }
    t->section = section;
    return 0;
}

static int dt__toml_document(dt__toml *t) {
    for (;;) {
        dt__toml_ws(t);
        if (t->p >= t->end) return 0;
        const char *what = "the value";
        if (dt__toml_at_newline(t)) {
            dt__toml_newline(t);
            continue;
        } else if (*t->p == '#') {
            what = "the comment";
        } else if (*t->p == '[') {
            if (dt__toml_header(t)) return 1;
            what = "the header";
        } else if (dt__toml_bare_char(*t->p) || *t->p == '"' || *t->p == '\'') {
            if (dt__toml_keyval(t, t->section)) return 1;
        } else {
            return dt__toml_expected(t, "a key, a [table] header or a comment");
        }
        dt__toml_ws(t);
        if (t->p < t->end && *t->p == '#' && dt__toml_comment(t)) return 1;
        if (t->p >= t->end) return 0;
        if (!dt__toml_at_newline(t)) {
            char expected[64];
            snprintf(expected, sizeof expected, "the end of the line after %s", what);
            return dt__toml_expected(t, expected);
        }
        dt__toml_newline(t);
    }
}

dt_status dt__doc_parse_toml(const char *text, size_t len, const char *file, dt__doc **out, char *why, size_t whycap) {
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    if (text == NULL && len > 0) return DT_ERR_NULL;
    if (text == NULL) text = "";
    size_t start;
    if (dt__doc_check_input(text, len, file, &start, why, whycap)) return DT_ERR_INVALID_ARG;
    dt__toml t;
    memset(&t, 0, sizeof t);
    t.d = dt__doc_new(DT__DOC_TOML, file);
    t.why = why;
    t.whycap = whycap;
    if (t.d == NULL) {
        dt__doc_say_as(file, 0, why, whycap, "out of memory");
        return DT_ERR_NO_MEMORY;
    }
    t.p = text + start;
    t.end = text + len;
    t.line = 1;
    t.section = &t.d->root;
    if (dt__toml_document(&t)) {
        dt__doc_free(t.d);
        return t.oom ? DT_ERR_NO_MEMORY : DT_ERR_INVALID_ARG;
    }
    *out = t.d;
    return DT_OK;
}
