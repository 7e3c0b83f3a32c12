/* The streaming JSON Lines reader (cli_jsonl.h): a line gathered whole through a 64 KiB read-ahead,
 * then one flat object read from it by hand, its strings decoded into one buffer. */
#include "cli_jsonl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esquema/documento_interno.h" /* dt__doc_utf8_len, dt__doc_put_utf8, dt__doc_hex */

#define DT__JSONL_LECTURA (64u << 10)

int dt__jsonl_init(dt__jsonl *j, dt__csv_leer_fn leer, void *ctx) {
    memset(j, 0, sizeof *j);
    j->leer = leer;
    j->ctx = ctx;
    j->cap_entrada = DT__JSONL_LECTURA;
    j->entrada = (char *)malloc(j->cap_entrada);
    j->cap_linea = 4096;
    j->linea = (char *)malloc(j->cap_linea);
    j->cap_texto = 4096;
    j->texto = (char *)malloc(j->cap_texto);
    j->cap_miembros = 64;
    j->m = (dt__jsonl_miembro *)malloc(j->cap_miembros * sizeof *j->m);
    return j->entrada == NULL || j->linea == NULL || j->texto == NULL || j->m == NULL;
}

void dt__jsonl_free(dt__jsonl *j) {
    free(j->entrada);
    free(j->linea);
    free(j->texto);
    free(j->m);
    memset(j, 0, sizeof *j);
}

static int dt__jsonl_no(const dt__jsonl *j, size_t byte, char *why, size_t whycap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int dt__jsonl_no(const dt__jsonl *j, size_t byte, char *why, size_t whycap, const char *fmt, ...) {
    if (why && whycap) {
        char texto[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(texto, sizeof texto, fmt, ap);
        va_end(ap);
        snprintf(why, whycap, "line %llu, byte %zu: %s", (unsigned long long)j->linea_num, byte + 1, texto);
    }
    return -1;
}

/* Refill the read-ahead: 1 with bytes in it, 0 at the end, -1 on a read error. */
static int dt__jsonl_llenar(dt__jsonl *j) {
    if (j->agotada) return 0;
    size_t n = j->leer(j->ctx, j->entrada, j->cap_entrada);
    if (n == (size_t)-1 || n == 0) {
        j->agotada = 1;
        return n == 0 ? 0 : -1;
    }
    j->pos = 0;
    j->fin = n;
    if (!j->empezada) { /* a UTF-8 byte-order mark, only at the very start; it may come in pieces */
        j->empezada = 1;
        while (j->fin < 3 && !j->agotada) {
            size_t m = j->leer(j->ctx, j->entrada + j->fin, j->cap_entrada - j->fin);
            if (m == (size_t)-1 || m == 0) {
                j->agotada = 1;
                if (m == (size_t)-1) return -1;
                break;
            }
            j->fin += m;
        }
        if (j->fin >= 3 && memcmp(j->entrada, "\xEF\xBB\xBF", 3) == 0) j->pos = 3;
    }
    return 1;
}

/* The next line into j->linea (without its "\n"): 1, 0 at the end of the input, -1 refused. */
static int dt__jsonl_linea(dt__jsonl *j, char *why, size_t whycap) {
    j->largo_linea = 0;
    int alguno = 0;
    for (;;) {
        if (j->pos == j->fin) {
            int r = dt__jsonl_llenar(j);
            if (r < 0) return dt__jsonl_no(j, j->largo_linea, why, whycap, "cannot read the input");
            if (r == 0) return alguno ? 1 : 0;
            if (j->pos == j->fin) continue;
        }
        alguno = 1;
        const char *a = j->entrada + j->pos;
        const char *nl = (const char *)memchr(a, '\n', j->fin - j->pos);
        size_t n = nl ? (size_t)(nl - a) : j->fin - j->pos;
        if (j->largo_linea + n > DT__JSONL_LINEA_MAX)
            return dt__jsonl_no(j, DT__JSONL_LINEA_MAX, why, whycap, "the line is longer than %u bytes",
                                (unsigned)DT__JSONL_LINEA_MAX);
        if (j->largo_linea + n > j->cap_linea) {
            size_t cap = j->cap_linea;
            while (cap < j->largo_linea + n) cap *= 2;
            char *b = (char *)realloc(j->linea, cap);
            if (b == NULL) return dt__jsonl_no(j, 0, why, whycap, "out of memory");
            j->linea = b;
            j->cap_linea = cap;
        }
        memcpy(j->linea + j->largo_linea, a, n);
        j->largo_linea += n;
        j->pos += n + (nl != NULL);
        if (nl) return 1;
    }
}

static int dt__jsonl_espacio(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Room for n more decoded bytes. */
static int dt__jsonl_reservar(dt__jsonl *j, size_t n) {
    if (j->largo_texto + n <= j->cap_texto) return 0;
    size_t cap = j->cap_texto;
    while (cap < j->largo_texto + n) cap *= 2;
    char *b = (char *)realloc(j->texto, cap);
    if (b == NULL) return 1;
    j->texto = b;
    j->cap_texto = cap;
    return 0;
}

static int dt__jsonl_hex4(const char *s, const char *fin, uint32_t *v) {
    if (fin - s < 4) return 1;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        if (!dt__doc_hex(s[i])) return 1;
        *v = *v * 16 + dt__doc_hex_value(s[i]);
    }
    return 0;
}

/* A string at *p (on its opening quote) decoded onto j->texto: 0, or -1 refused. `que` names it
 * ("key 3", "the value of key 3"). */
static int dt__jsonl_cadena(dt__jsonl *j, const char **p, const char *fin, const char *que, char *why, size_t whycap) {
    const char *ini = j->linea, *r = *p + 1;
    /* a decoded string is never longer than its source */
    const char *q = r;
    while (q < fin && *q != '"') q += *q == '\\' && q + 1 < fin ? 2 : 1;
    if (q >= fin) return dt__jsonl_no(j, (size_t)(*p - ini), why, whycap, "%s: a string is not closed on its line", que);
    if (dt__jsonl_reservar(j, (size_t)(q - r) + 1)) return dt__jsonl_no(j, 0, why, whycap, "out of memory");
    char *o = j->texto + j->largo_texto;
    while (r < q) {
        unsigned char c = (unsigned char)*r;
        if (c < 0x20)
            return dt__jsonl_no(j, (size_t)(r - ini), why, whycap,
                                "%s: a control character (U+%04X) in a string; JSON writes it as an escape", que, c);
        if (c >= 0x80) {
            size_t k = dt__doc_utf8_len((const unsigned char *)r, (const unsigned char *)q);
            if (k == 0) return dt__jsonl_no(j, (size_t)(r - ini), why, whycap, "%s: not valid UTF-8", que);
            memcpy(o, r, k);
            o += k;
            r += k;
            continue;
        }
        if (c != '\\') {
            *o++ = (char)c;
            r++;
            continue;
        }
        switch (r[1]) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            uint32_t cp, lo;
            if (dt__jsonl_hex4(r + 2, q, &cp))
                return dt__jsonl_no(j, (size_t)(r - ini), why, whycap, "%s: \\u is not followed by 4 hexadecimal digits", que);
            if (cp >= 0xD800 && cp <= 0xDBFF && q - r >= 12 && r[6] == '\\' && r[7] == 'u' && !dt__jsonl_hex4(r + 8, q, &lo) &&
                lo >= 0xDC00 && lo <= 0xDFFF) {
                o = dt__doc_put_utf8(o, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
                r += 12;
                continue;
            }
            if (cp >= 0xD800 && cp <= 0xDFFF)
                return dt__jsonl_no(j, (size_t)(r - ini), why, whycap, "%s: a lone surrogate escape (not a character)", que);
            o = dt__doc_put_utf8(o, cp);
            r += 6;
            continue;
        }
        default:
            return dt__jsonl_no(j, (size_t)(r - ini), why, whycap,
                                "%s: an invalid escape (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", que);
        }
        r += 2;
    }
    j->largo_texto = (size_t)(o - j->texto);
    *p = q + 1;
    return 0;
}

/* RFC 8259's number at p: its end, or NULL. */
static const char *dt__jsonl_numero(const char *p, const char *fin) {
    if (p < fin && *p == '-') p++;
    if (p >= fin || !dt__doc_digit(*p)) return NULL;
    if (*p == '0') p++;
    else
        while (p < fin && dt__doc_digit(*p)) p++;
    if (p < fin && *p == '.') {
        p++;
        if (p >= fin || !dt__doc_digit(*p)) return NULL;
        while (p < fin && dt__doc_digit(*p)) p++;
    }
    if (p < fin && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < fin && (*p == '+' || *p == '-')) p++;
        if (p >= fin || !dt__doc_digit(*p)) return NULL;
        while (p < fin && dt__doc_digit(*p)) p++;
    }
    return p;
}

static int dt__jsonl_palabra(const char *p, const char *fin, const char *w) {
    size_t n = strlen(w);
    return (size_t)(fin - p) >= n && memcmp(p, w, n) == 0 &&
           ((size_t)(fin - p) == n || !(dt__doc_letter(p[n]) || dt__doc_digit(p[n])));
}

int dt__jsonl_objeto(dt__jsonl *j, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    j->linea_num++;
    int r = dt__jsonl_linea(j, why, whycap);
    if (r <= 0) return r;
    j->largo_texto = 0;
    j->nmiembros = 0;
    const char *ini = j->linea, *p = ini, *fin = ini + j->largo_linea;
#define POS ((size_t)(p - ini))
    while (p < fin && dt__jsonl_espacio(*p)) p++;
    if (p == fin) return dt__jsonl_no(j, POS, why, whycap, "the line is empty; JSON Lines holds one object on every line");
    if (*p != '{') return dt__jsonl_no(j, POS, why, whycap, "the line is not a JSON object (it must start with '{')");
    p++;
    while (p < fin && dt__jsonl_espacio(*p)) p++;
    if (p < fin && *p == '}') {
        p++;
    } else {
        for (;;) {
            size_t k = j->nmiembros + 1;
            char que[64];
            while (p < fin && dt__jsonl_espacio(*p)) p++;
            if (p >= fin || *p != '"') {
                if (p < fin && *p == '}') return dt__jsonl_no(j, POS, why, whycap, "a comma before '}' (JSON has no trailing comma)");
                return dt__jsonl_no(j, POS, why, whycap, "expected key %zu in double quotes%s", k,
                                    p >= fin ? ", got the end of the line (is the object cut?)" : "");
            }
            if (j->nmiembros == j->cap_miembros) {
                if (j->nmiembros >= DT__JSONL_MIEMBROS_MAX)
                    return dt__jsonl_no(j, POS, why, whycap, "more than %u keys in one object", (unsigned)DT__JSONL_MIEMBROS_MAX);
                dt__jsonl_miembro *m = (dt__jsonl_miembro *)realloc(j->m, 2 * j->cap_miembros * sizeof *m);
                if (m == NULL) return dt__jsonl_no(j, 0, why, whycap, "out of memory");
                j->m = m;
                j->cap_miembros *= 2;
            }
            dt__jsonl_miembro *m = &j->m[j->nmiembros];
            snprintf(que, sizeof que, "key %zu", k);
            m->kini = j->largo_texto;
            if (dt__jsonl_cadena(j, &p, fin, que, why, whycap)) return -1;
            m->klen = j->largo_texto - m->kini;
            for (size_t i = 0; i < j->nmiembros; i++)
                if (j->m[i].klen == m->klen && memcmp(j->texto + j->m[i].kini, j->texto + m->kini, m->klen) == 0)
                    return dt__jsonl_no(j, POS, why, whycap, "key %zu is key %zu again (a key is written once in an object)", k, i + 1);
            while (p < fin && dt__jsonl_espacio(*p)) p++;
            if (p >= fin || *p != ':') return dt__jsonl_no(j, POS, why, whycap, "expected ':' after key %zu", k);
            p++;
            while (p < fin && dt__jsonl_espacio(*p)) p++;
            snprintf(que, sizeof que, "the value of key %zu", k);
            m->vini = j->largo_texto;
            if (p >= fin) return dt__jsonl_no(j, POS, why, whycap, "expected the value of key %zu, got the end of the line", k);
            if (*p == '"') {
                if (dt__jsonl_cadena(j, &p, fin, que, why, whycap)) return -1;
                m->tipo = DT__JSONL_TEXTO;
            } else if (*p == '{' || *p == '[') {
                return dt__jsonl_no(j, POS, why, whycap,
                                    "the value of key %zu is %s; enmascarar reads flat objects (strings, numbers, true, "
                                    "false, null), as the rules name columns",
                                    k, *p == '{' ? "an object" : "an array");
            } else if (dt__jsonl_palabra(p, fin, "null")) {
                p += 4;
                m->tipo = DT__JSONL_NULO;
            } else {
                const char *e = NULL;
                if (dt__jsonl_palabra(p, fin, "true")) e = p + 4;
                else if (dt__jsonl_palabra(p, fin, "false")) e = p + 5;
                else if ((e = dt__jsonl_numero(p, fin)) != NULL && e < fin && (dt__doc_letter(*e) || *e == '.')) e = NULL;
                if (e == NULL)
                    return dt__jsonl_no(j, POS, why, whycap,
                                        "the value of key %zu is not a JSON value (a string, a number, true, false or null)", k);
                if (dt__jsonl_reservar(j, (size_t)(e - p))) return dt__jsonl_no(j, 0, why, whycap, "out of memory");
                memcpy(j->texto + j->largo_texto, p, (size_t)(e - p));
                j->largo_texto += (size_t)(e - p);
                m->tipo = DT__JSONL_CRUDO;
                p = e;
            }
            m->vlen = j->largo_texto - m->vini;
            j->nmiembros++;
            while (p < fin && dt__jsonl_espacio(*p)) p++;
            if (p < fin && *p == '}') {
                p++;
                break;
            }
            if (p >= fin || *p != ',')
                return dt__jsonl_no(j, POS, why, whycap, "expected ',' or '}' after the value of key %zu%s", k,
                                    p >= fin ? ", got the end of the line (is the object cut?)" : "");
            p++;
        }
    }
    while (p < fin && dt__jsonl_espacio(*p)) p++;
    if (p < fin) return dt__jsonl_no(j, POS, why, whycap, "text after the object; JSON Lines holds one object on every line");
#undef POS
    return 1;
}
