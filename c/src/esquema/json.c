/* A strict JSON reader (RFC 8259) into the document tree, with what a schema cannot use refused
 * by name: null, numbers with a fraction or an exponent, duplicate keys (which RFC 8259 leaves to
 * the reader: here the same document means the same thing everywhere), lone surrogates, a root that
 * is not an object. Recursive descent bounded by DT__DOC_MAX_DEPTH, checked before each level. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "esquema/documento_interno.h"

typedef struct dt__json {
    dt__doc *d;
    const char *p, *end;
    uint32_t line;
    char *why;
    size_t whycap;
    int oom;
} dt__json;

static int dt__json_fail(dt__json *j, const char *fmt, ...) DT__DOC_PRINTF(2, 3);
static int dt__json_fail(dt__json *j, const char *fmt, ...) {
    char msg[DT_SENTENCE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dt__doc_say(j->d, j->line, j->why, j->whycap, "%s", msg);
}

static int dt__json_oom(dt__json *j) {
    j->oom = 1;
    return dt__doc_say(j->d, 0, j->why, j->whycap, "out of memory");
}

static int dt__json_expected(dt__json *j, const char *what) {
    char got[DT__DOC_CITE_BUF];
    dt__doc_cite_char(j->p, j->end, got);
    return dt__json_fail(j, "expected %s, got %s", what, got);
}

static void dt__json_ws(dt__json *j) {
    for (; j->p < j->end; j->p++) {
        if (*j->p == '\n') j->line++;
        else if (*j->p != ' ' && *j->p != '\t' && *j->p != '\r') return;
    }
}

/* Four hex digits at s (within the string ending at q) into *v; 0 if they are there. */
static int dt__json_hex4(const char *s, const char *q, uint32_t *v) {
    if (q - s < 4) return 1;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        if (!dt__doc_hex(s[i])) return 1;
        *v = *v * 16 + dt__doc_hex_value(s[i]);
    }
    return 0;
}

/* A string at p, decoded into the arena. */
static int dt__json_string(dt__json *j, const char **out, size_t *outn) {
    const char *a = j->p + 1, *q = a;
    /* First the end, so the arena gets the exact span; raw control characters end the search. */
    for (;;) {
        if (q >= j->end) return dt__json_fail(j, "a string is not closed");
        unsigned char c = (unsigned char)*q;
        if (c == '"') break;
        if (c < 0x20)
            return dt__json_fail(j, "a control character (U+%04X) is not accepted in a string; write it as an escape",
                                 (unsigned)c);
        q += c == '\\' && q + 1 < j->end && (unsigned char)q[1] >= 0x20 ? 2 : 1;
    }
    char *o = (char *)dt__doc_alloc(j->d, (size_t)(q - a) + 1), *start = o;
    if (o == NULL) return dt__json_oom(j);
    for (const char *r = a; r < q;) {
        if (*r != '\\') {
            *o++ = *r++;
            continue;
        }
        char cite[DT__DOC_CITE_BUF];
        switch (r[1]) {
        case '"': *o++ = '"'; r += 2; continue;
        case '\\': *o++ = '\\'; r += 2; continue;
        case '/': *o++ = '/'; r += 2; continue;
        case 'b': *o++ = '\b'; r += 2; continue;
        case 'f': *o++ = '\f'; r += 2; continue;
        case 'n': *o++ = '\n'; r += 2; continue;
        case 'r': *o++ = '\r'; r += 2; continue;
        case 't': *o++ = '\t'; r += 2; continue;
        case 'u': {
            uint32_t cp, lo;
            if (dt__json_hex4(r + 2, q, &cp)) {
                size_t shown = (size_t)(q - r) < 6 ? (size_t)(q - r) : 6;
                dt__doc_cite(r, shown, cite);
                return dt__json_fail(j, "\\u must be followed by 4 hexadecimal digits: %s", cite);
            }
            if (cp >= 0xD800 && cp <= 0xDBFF && q - r >= 12 && r[6] == '\\' && r[7] == 'u' &&
                !dt__json_hex4(r + 8, q, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                o = dt__doc_put_utf8(o, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
                r += 12;
                continue;
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                dt__doc_cite(r, 6, cite);
                return dt__json_fail(j, "a lone surrogate is not accepted (a pair is \\uD800-\\uDBFF then \\uDC00-\\uDFFF): %s", cite);
            }
            o = dt__doc_put_utf8(o, cp);
            r += 6;
            continue;
        }
        default: {
            size_t n = r + 1 < q ? dt__doc_utf8_len((const unsigned char *)r + 1, (const unsigned char *)q) : 0;
            dt__doc_cite(r, r + 1 < q ? 1 + (n ? n : 1) : 1, cite);
            return dt__json_fail(j, "invalid escape %s in a string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", cite);
        }
        }
    }
    *o = '\0';
    *out = start;
    *outn = (size_t)(o - start);
    j->p = q + 1;
    return 0;
}

static int dt__json_number(dt__json *j, dt__doc_node *n) {
    const char *s = j->p, *e = s;
    while (e < j->end && (dt__doc_digit(*e) || *e == '-' || *e == '+' || *e == '.' || *e == 'e' || *e == 'E')) e++;
    char cite[DT__DOC_CITE_BUF];
    dt__doc_cite(s, (size_t)(e - s), cite);
    int negative = *s == '-';
    const char *d = s + negative, *k = d;
    while (k < e && dt__doc_digit(*k)) k++;
    for (const char *x = k; x < e; x++)
        if (*x == '.' || *x == 'e' || *x == 'E') return dt__json_fail(j, "a float is not accepted (datoteca uses integers): %s", cite);
    if (k == d || k != e) return dt__json_fail(j, "invalid number: %s", cite);
    if (*d == '0' && k - d > 1) return dt__json_fail(j, "an integer with leading zeros is not accepted: %s", cite);
    int64_t v;
    if (dt__doc_decimal(d, (size_t)(k - d), negative, &v))
        return dt__json_fail(j, "an integer out of range (-9223372036854775808 to 9223372036854775807): %s", cite);
    n->kind = DT__DOC_INTEGER;
    n->v.i = v;
    j->p = e;
    return 0;
}

static int dt__json_is(const char *s, size_t n, const char *word) { return strlen(word) == n && memcmp(s, word, n) == 0; }

static int dt__json_word(dt__json *j, dt__doc_node *n) {
    const char *s = j->p, *e = s;
    while (e < j->end && (dt__doc_letter(*e) || dt__doc_digit(*e) || *e == '_')) e++;
    size_t len = (size_t)(e - s);
    if (dt__json_is(s, len, "true") || dt__json_is(s, len, "false")) {
        n->kind = DT__DOC_BOOLEAN;
        n->v.b = *s == 't';
        j->p = e;
        return 0;
    }
    if (dt__json_is(s, len, "null")) return dt__json_fail(j, "null is not accepted (leave the key out)");
    char cite[DT__DOC_CITE_BUF];
    dt__doc_cite(s, len, cite);
    return dt__json_fail(j, "expected a value (an object, an array, a string, an integer, true or false), got %s", cite);
}

static dt__doc_node *dt__json_add(dt__json *j, dt__doc_node *parent, const char *key, size_t keylen) {
    if (dt__doc_too_deep(parent)) {
        dt__json_fail(j, "nesting deeper than %d levels is not accepted", DT__DOC_MAX_DEPTH);
        return NULL;
    }
    dt__doc_node *n = dt__doc_add(j->d, parent, (dt__doc_kind)0, key, keylen, j->line);
    if (n == NULL) dt__json_oom(j);
    return n;
}

static int dt__json_value(dt__json *j, dt__doc_node *n);

static int dt__json_object(dt__json *j, dt__doc_node *n) {
    uint32_t open = j->line;
    n->kind = DT__DOC_TABLE;
    j->p++;
    dt__json_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
        return 0;
    }
    for (;;) {
        dt__json_ws(j);
        if (j->p >= j->end) return dt__json_fail(j, "an object opened at line %u is not closed", (unsigned)open);
        if (*j->p != '"') {
            if (*j->p == '}') return dt__json_fail(j, "a trailing comma is not accepted in JSON");
            return dt__json_expected(j, "a key in double quotes");
        }
        const char *key;
        size_t keylen;
        if (dt__json_string(j, &key, &keylen)) return 1;
        dt__json_ws(j);
        if (j->p >= j->end || *j->p != ':') return dt__json_expected(j, "a colon after the key");
        j->p++;
        dt__json_ws(j);
        dt__doc_node *old = dt__doc_lookup(j->d, n, key, keylen);
        if (old != NULL) {
            char path[DT__DOC_PATH_MAX + 1];
            dt__doc_path(old, path, sizeof path);
            return dt__json_fail(j, "duplicate key %s (first written at line %u)", path, (unsigned)old->line);
        }
        dt__doc_node *v = dt__json_add(j, n, key, keylen);
        if (v == NULL || dt__json_value(j, v)) return 1;
        dt__json_ws(j);
        if (j->p >= j->end) return dt__json_fail(j, "an object opened at line %u is not closed", (unsigned)open);
        if (*j->p == '}') break;
        if (*j->p != ',') return dt__json_expected(j, "a comma or } in the object");
        j->p++;
    }
    j->p++;
    return 0;
}

static int dt__json_array(dt__json *j, dt__doc_node *n) {
    uint32_t open = j->line;
    n->kind = DT__DOC_ARRAY;
    j->p++;
    dt__json_ws(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
        return 0;
    }
    for (;;) {
        dt__json_ws(j);
        if (j->p >= j->end) return dt__json_fail(j, "an array opened at line %u is not closed", (unsigned)open);
        if (*j->p == ']') return dt__json_fail(j, "a trailing comma is not accepted in JSON");
        dt__doc_node *v = dt__json_add(j, n, NULL, 0);
        if (v == NULL || dt__json_value(j, v)) return 1;
        dt__json_ws(j);
        if (j->p >= j->end) return dt__json_fail(j, "an array opened at line %u is not closed", (unsigned)open);
        if (*j->p == ']') break;
        if (*j->p != ',') return dt__json_expected(j, "a comma or ] in the array");
        j->p++;
    }
    j->p++;
    return 0;
}

static int dt__json_value(dt__json *j, dt__doc_node *n) {
    if (j->p >= j->end) return dt__json_expected(j, "a value");
    char c = *j->p;
    if (c == '{') return dt__json_object(j, n);
    if (c == '[') return dt__json_array(j, n);
    if (c == '"') {
        if (dt__json_string(j, &n->v.s.s, &n->v.s.len)) return 1;
        n->kind = DT__DOC_STRING;
        return 0;
    }
    if (c == '-' || dt__doc_digit(c)) return dt__json_number(j, n);
    if (dt__doc_letter(c)) return dt__json_word(j, n);
    return dt__json_expected(j, "a value");
}

dt_status dt__doc_parse_json(const char *text, size_t len, const char *file, dt__doc **out, char *why, size_t whycap) {
    if (why != NULL && whycap > 0) why[0] = '\0';
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    if (text == NULL && len > 0) return DT_ERR_NULL;
    if (text == NULL) text = "";
    size_t start;
    if (dt__doc_check_input(text, len, file, &start, why, whycap)) return DT_ERR_INVALID_ARG;
    dt__json j;
    memset(&j, 0, sizeof j);
    j.d = dt__doc_new(DT__DOC_JSON, file);
    j.why = why;
    j.whycap = whycap;
    if (j.d == NULL) {
        dt__doc_say_as(file, 0, why, whycap, "out of memory");
        return DT_ERR_NO_MEMORY;
    }
    j.p = text + start;
    j.end = text + len;
    j.line = 1;
    dt__json_ws(&j);
    int bad;
    if (j.p >= j.end) {
        bad = dt__json_fail(&j, "the document is empty (expected a JSON object)");
    } else if (*j.p != '{') {
        bad = dt__json_expected(&j, "a JSON object as the document");
    } else {
        j.d->root.line = j.line;
        bad = dt__json_object(&j, &j.d->root);
        if (!bad) {
            dt__json_ws(&j);
            if (j.p < j.end) bad = dt__json_expected(&j, "the end of the document after its object");
        }
    }
    if (bad) {
        dt__doc_free(j.d);
        return j.oom ? DT_ERR_NO_MEMORY : DT_ERR_INVALID_ARG;
    }
    *out = j.d;
    return DT_OK;
}
