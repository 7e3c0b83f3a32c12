/* libFuzzer target: the schema document's two parsers (c/src/esquema/) on arbitrary bytes.
 * A refusal must be DT_ERR_INVALID_ARG with no document and one sentence: "<file>:" first, under
 * DT_SENTENCE_MAX, valid UTF-8, no control characters, the same status with a small buffer or none.
 * An accepted document must be a consistent tree (kinds, lines within the input, depth within the
 * limit, every key found again by lookup, paths within their bound), and its dump, read back as
 * JSON, must dump the same: the TOML reader and the JSON reader agree on every tree either makes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8_ok.h"

#include "esquema/documento.h"


static void check_sentence(const char *why, const char *file) {
    size_t n = strlen(why);
    if (n == 0 || n >= DT_SENTENCE_MAX) abort();
    if (strncmp(why, file, strlen(file)) != 0 || why[strlen(file)] != ':') abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)why[i] < 0x20) abort();
    if (!utf8_ok((const unsigned char *)why, n)) abort();
}

static void check_tree(const dt__doc_node *n, int depth, uint32_t lines) {
    dt__doc_kind k = dt__doc_kind_of(n);
    if (k < DT__DOC_TABLE || k > DT__DOC_BOOLEAN || depth > DT__DOC_MAX_DEPTH) abort();
    if (dt__doc_line(n) < 1 || dt__doc_line(n) > lines) abort();
    if (dt__doc_want(n, k, NULL, 0) != DT_OK) abort();
    char path[DT__DOC_PATH_MAX + 1], why[DT_SENTENCE_MAX];
    if (dt__doc_path(n, path, sizeof path) > DT__DOC_PATH_MAX) abort();
    /* A wrong-kind sentence about any node fits too. */
    if (dt__doc_want(n, k == DT__DOC_STRING ? DT__DOC_INTEGER : DT__DOC_STRING, why, sizeof why) != DT_ERR_INVALID_ARG) abort();
    check_sentence(why, "fuzz");
    size_t len;
    const char *s = dt__doc_string(n, &len);
    if ((k == DT__DOC_STRING) != (s != NULL) || (s && (s[len] != '\0' || !utf8_ok((const unsigned char *)s, len)))) abort();
    for (size_t i = 0; i < dt__doc_len(n); i++) {
        const dt__doc_node *m = dt__doc_item(n, i);
        if (m == NULL || dt__doc_parent(m) != n) abort();
        const char *key = dt__doc_key(m, &len);
        if ((k == DT__DOC_TABLE) != (key != NULL)) abort();
        if (key && (dt__doc_get(n, key, len) != m || !utf8_ok((const unsigned char *)key, len))) abort();
        check_tree(m, depth + 1, lines);
    }
    if (dt__doc_item(n, dt__doc_len(n)) != NULL) abort();
}

static char *dump(const dt__doc_node *n, unsigned flags, size_t *len) {
    if (dt__doc_dump(n, flags, NULL, 0, len) != DT_ERR_BUFFER_TOO_SMALL) abort();
    char *b = (char *)malloc(*len + 1);
    size_t again;
    if (b == NULL || dt__doc_dump(n, flags, b, *len + 1, &again) != DT_OK || again != *len || strlen(b) != *len) abort();
    return b;
}

static void one(int json, const uint8_t *data, size_t size, uint32_t lines) {
    dt__doc *d = (dt__doc *)&d;
    char why[DT_SENTENCE_MAX * 2], small[16];
    const char *text = (const char *)data;
    dt_status st = json ? dt__doc_parse_json(text, size, "fuzz", &d, why, sizeof why)
                        : dt__doc_parse_toml(text, size, "fuzz", &d, why, sizeof why);
    if (st != DT_OK) {
        if (st != DT_ERR_INVALID_ARG || d != NULL) abort();
        check_sentence(why, "fuzz");
        dt__doc *d2 = NULL;
        dt_status st2 = json ? dt__doc_parse_json(text, size, "fuzz", &d2, small, sizeof small)
                             : dt__doc_parse_toml(text, size, "fuzz", &d2, small, sizeof small);
        if (st2 != st || strncmp(small, why, sizeof small - 1) != 0) abort();
        st2 = json ? dt__doc_parse_json(text, size, "fuzz", &d2, NULL, 0) : dt__doc_parse_toml(text, size, "fuzz", &d2, NULL, 0);
        if (st2 != st || d2 != NULL) abort();
        return;
    }
    const dt__doc_node *root = dt__doc_root(d);
    check_tree(root, 0, lines);
    size_t n, nl;
    char *plain = dump(root, 0, &n), *with_lines = dump(root, DT__DOC_DUMP_LINES, &nl);
    if (nl < n) abort();
    if (n <= DT__DOC_MAX_BYTES) {
        dt__doc *back = NULL;
        if (dt__doc_parse_json(plain, n, "dump", &back, why, sizeof why) != DT_OK) abort();
        size_t n2;
        char *again = dump(dt__doc_root(back), 0, &n2);
        if (n2 != n || memcmp(again, plain, n) != 0) abort();
        free(again);
        dt__doc_free(back);
    }
    free(plain);
    free(with_lines);
    dt__doc_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint32_t lines = 1;
    for (size_t i = 0; i < size; i++) lines += data[i] == '\n';
    one(0, data, size, lines);
    one(1, data, size, lines);
    return 0;
}
