/* A minimal JSON reader for the golden tests: objects (keys kept in order), arrays,
 * strings (all escapes, \u with surrogate pairs to UTF-8), integers, true/false/null.
 * Test code only: exits on malformed input. */
#ifndef DT_TEST_JSON_H
#define DT_TEST_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archivo.h"

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtipo;

typedef struct jval {
    jtipo tipo;
    long long num;
    char *str;          /* J_STR */
    size_t n;           /* items of J_ARR / J_OBJ */
    struct jval **items;
    char **keys;        /* J_OBJ */
} jval;

static const char *jp;

static void jfail(const char *why) {
    fprintf(stderr, "json: %s near '%.20s'\n", why, jp);
    exit(2);
}

static void jspace(void) {
    while (*jp == ' ' || *jp == '\n' || *jp == '\r' || *jp == '\t') jp++;
}

static jval *jnew(jtipo t) {
    jval *v = calloc(1, sizeof *v);
    v->tipo = t;
    return v;
}

static unsigned jhex4(void) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *jp++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else jfail("bad \\u escape");
    }
    return v;
}

static char *jstring(void) {
    if (*jp != '"') jfail("expected a string");
    jp++;
    size_t cap = 64, n = 0;
    char *s = malloc(cap);
    for (;;) {
        if (n + 8 > cap) s = realloc(s, cap *= 2);
        char c = *jp++;
        if (c == '"') break;
        if (c == 0) jfail("unterminated string");
        if (c != '\\') { s[n++] = c; continue; }
        c = *jp++;
        switch (c) {
        case 'n': s[n++] = '\n'; break;
        case 't': s[n++] = '\t'; break;
        case 'r': s[n++] = '\r'; break;
        case 'b': s[n++] = '\b'; break;
        case 'f': s[n++] = '\f'; break;
        case 'u': {
            unsigned cp = jhex4();
            if (cp >= 0xD800 && cp < 0xDC00 && jp[0] == '\\' && jp[1] == 'u') {
                jp += 2;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (jhex4() - 0xDC00);
            }
            if (cp < 0x80) s[n++] = (char)cp;
            else if (cp < 0x800) { s[n++] = (char)(0xC0 | (cp >> 6)); s[n++] = (char)(0x80 | (cp & 63)); }
            else if (cp < 0x10000) { s[n++] = (char)(0xE0 | (cp >> 12)); s[n++] = (char)(0x80 | ((cp >> 6) & 63)); s[n++] = (char)(0x80 | (cp & 63)); }
            else { s[n++] = (char)(0xF0 | (cp >> 18)); s[n++] = (char)(0x80 | ((cp >> 12) & 63)); s[n++] = (char)(0x80 | ((cp >> 6) & 63)); s[n++] = (char)(0x80 | (cp & 63)); }
            break;
        }
        default: s[n++] = c; /* \" \\ \/ */
        }
    }
    s[n] = 0;
    return s;
}

static jval *jvalue(void) {
    jspace();
    jval *v;
    if (*jp == '{' || *jp == '[') {
        int obj = *jp == '{';
        v = jnew(obj ? J_OBJ : J_ARR);
        jp++;
        size_t cap = 8;
        v->items = malloc(cap * sizeof *v->items);
        if (obj) v->keys = malloc(cap * sizeof *v->keys);
        jspace();
        if (*jp == (obj ? '}' : ']')) { jp++; return v; }
        for (;;) {
            if (v->n == cap) {
                cap *= 2;
                v->items = realloc(v->items, cap * sizeof *v->items);
                if (obj) v->keys = realloc(v->keys, cap * sizeof *v->keys);
            }
            if (obj) {
                jspace();
                v->keys[v->n] = jstring();
                jspace();
                if (*jp++ != ':') jfail("expected ':'");
            }
            v->items[v->n++] = jvalue();
            jspace();
            if (*jp == ',') { jp++; continue; }
            if (*jp++ != (obj ? '}' : ']')) jfail("expected ',' or a closing bracket");
            return v;
        }
    }
    if (*jp == '"') { v = jnew(J_STR); v->str = jstring(); return v; }
    if (strncmp(jp, "true", 4) == 0) { jp += 4; v = jnew(J_BOOL); v->num = 1; return v; }
    if (strncmp(jp, "false", 5) == 0) { jp += 5; return jnew(J_BOOL); }
    if (strncmp(jp, "null", 4) == 0) { jp += 4; return jnew(J_NULL); }
    if (*jp == '-' || (*jp >= '0' && *jp <= '9')) {
        v = jnew(J_NUM);
        v->num = strtoll(jp, (char **)&jp, 10);
        return v;
    }
    jfail("unexpected character");
    return NULL;
}

static char *jread_file(const char *path) { return leer_archivo(path, NULL); }

static jval *jparse(const char *text) {
    jp = text;
    return jvalue();
}

static void jfree(jval *v) {
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        jfree(v->items[i]);
        if (v->keys) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

static jval *jget(const jval *o, const char *key) {
    for (size_t i = 0; o && o->tipo == J_OBJ && i < o->n; i++)
        if (strcmp(o->keys[i], key) == 0) return o->items[i];
    return NULL;
}

#endif
