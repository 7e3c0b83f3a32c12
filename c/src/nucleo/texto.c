/* Writing text: caller buffers (copy out, or report the size and restore the stream) and the
 * number and ASCII writers every generator uses. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

dt_status dt__copy_out(const char *tmp, size_t n, char *buf, size_t cap, size_t *len) {
    if (len) *len = n;
    if (cap < n + 1) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(buf, tmp, n);
    buf[n] = '\0';
    return DT_OK;
}

dt_status dt__emit(dt_gen *g, const dt_rng *saved, const char *tmp, size_t n,
                   char *buf, size_t cap, size_t *len) {
    dt_status st = dt__copy_out(tmp, n, buf, cap, len);
    if (st != DT_OK) g->rng = *saved;
    return st;
}

void dt__sentence_out(const char *why, char *buf, size_t cap, size_t *len) {
    size_t n = strlen(why);
    if (len) *len = n;
    if (cap == 0) return;
    if (n >= cap) n = cap - 1;
    memcpy(buf, why, n);
    buf[n] = '\0';
}

char *dt__put_i64(char *p, int64_t v) {
    if (v < 0) {
        *p++ = '-';
        return dt__put_u64(p, 0u - (uint64_t)v);
    }
    return dt__put_u64(p, (uint64_t)v);
}

/* The decimal digits of v into tmp, least significant first; returns how many (1 to 20). */
static int dt__digitos(uint64_t v, char tmp[20]) {
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return n;
}

char *dt__put_u64(char *p, uint64_t v) {
    char tmp[20];
    int n = dt__digitos(v, tmp);
    while (n) *p++ = tmp[--n];
    return p;
}

/* "00".."99": two digits per division in the fixed-width writer records use most. */
static const char dt__pares[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char *dt__put_u32_width(char *p, uint32_t v, int width) {
    char *end = p + width, *q = end;
    while (q - p >= 2) {
        uint32_t r = v % 100;
        v /= 100;
        q -= 2;
        q[0] = dt__pares[2 * r];
        q[1] = dt__pares[2 * r + 1];
    }
    if (q > p) *--q = (char)('0' + v % 10);
    return end;
}

char *dt__put_miles(char *p, uint64_t v) {
    char tmp[20];
    int n = dt__digitos(v, tmp);
    while (n) {
        *p++ = tmp[--n];
        if (n && n % 3 == 0) *p++ = '.';
    }
    return p;
}

char *dt__put_ascii_fold(char *p, const char *s, size_t n) {
    const uint8_t *u = (const uint8_t *)s;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = u[i];
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            *p++ = (char)c;
        } else if (c >= 'A' && c <= 'Z') {
            *p++ = (char)(c - 'A' + 'a');
        } else if (c == 0xC3 && i + 1 < n) {
            /* Latin-1 supplement letters U+00C0..U+00FF are C3 80..C3 BF. */
            static const char fold[64] = "aaaaaaaceeeeiiii" "dnooooo ouuuuy  "
                                         "aaaaaaaceeeeiiii" "dnooooo ouuuuy y";
            char f = fold[u[++i] & 0x3f];
            if (f != ' ') *p++ = f;
        }
        /* everything else (spaces, apostrophes, other scripts) is dropped */
    }
    return p;
}

void dt__tx(dt__creciente *x, const char *fmt, ...) {
    for (;;) {
        if (x->sin_memoria) return;
        va_list ap;
        va_start(ap, fmt);
        int m = vsnprintf(x->p ? x->p + x->n : NULL, x->p ? x->cap - x->n : 0, fmt, ap);
        va_end(ap);
        if (m < 0) return;
        if (x->p && x->n + (size_t)m < x->cap) {
            x->n += (size_t)m;
            return;
        }
        size_t cap = (x->cap ? x->cap * 2 : 4096) + (size_t)m;
        char *q = (char *)realloc(x->p, cap);
        if (q == NULL) {
            x->sin_memoria = 1;
            return;
        }
        x->p = q;
        x->cap = cap;
    }
}
