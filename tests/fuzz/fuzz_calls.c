/* libFuzzer target: every generating call with arbitrary arguments and buffer capacities.
 * Input: 8 bytes of seed, a call byte, an argument count byte, up to 4 arguments of 8
 * bytes, a capacity selector byte and a bulk count byte. Invariants: no crash or overflow
 * (exact-size buffers); a failed call leaves the state byte for byte as it was; a call that
 * reports DT_ERR_BUFFER_TOO_SMALL succeeds with the reported length + 1 and gives the same
 * value a roomy buffer gives. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datoteca.h"

static uint64_t rd64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 12) return 0;
    dt_gen *g, *h;
    uint64_t seed = rd64(data);
    dt_new(seed, &g);
    dt_new(seed, &h);
    size_t call = data[8] % (dt_call_count() + 1); /* one past the end: an unknown call */
    size_t nargs = data[9] % 6;
    int64_t args[5] = {0};
    size_t off = 10;
    for (size_t i = 0; i < nargs && off + 8 <= size; i++, off += 8) args[i] = (int64_t)rd64(data + off);
    uint8_t sel = off < size ? data[off++] : 0;
    uint8_t many = off < size ? data[off] % 8 : 0;
    uint8_t before[DT_STATE_SIZE], after[DT_STATE_SIZE];
    dt_state_save(g, before, sizeof before, NULL);

    size_t cap = sel % 5 == 0 ? 0 : sel % 5 == 1 ? 1 : sel % 5 == 2 ? 8 : sel % 5 == 3 ? 40 : DT_MAX_TEXT;
    char *buf = cap ? malloc(cap) : NULL;
    size_t len = 0;
    dt_status st = dt_call(g, call, nargs ? args : NULL, nargs, buf, cap, &len);
    dt_state_save(g, after, sizeof after, NULL);
    if (st != DT_OK && memcmp(before, after, sizeof before) != 0) abort(); /* a failed call consumed */
    if (st == DT_ERR_BUFFER_TOO_SMALL) {
        char *exact = malloc(len + 1), roomy[DT_MAX_TEXT];
        if (dt_call(g, call, nargs ? args : NULL, nargs, exact, len + 1, NULL) != DT_OK) abort();
        if (dt_call(h, call, nargs ? args : NULL, nargs, roomy, sizeof roomy, NULL) != DT_OK) abort();
        if (strcmp(exact, roomy) != 0) abort();
        free(exact);
    } else if (st == DT_OK) {
        if (len + 1 > cap || buf[len] != '\0' || strlen(buf) != len) abort();
    }
    free(buf);

    if (many && call < dt_call_count()) {
        size_t mcap = (size_t)many * (sel % 2 ? 64 : DT_MAX_TEXT) + 1;
        char *mb = malloc(mcap);
        dt_state_save(g, before, sizeof before, NULL);
        st = dt_call_many(g, call, nargs ? args : NULL, nargs, many, mb, mcap, &len);
        dt_state_save(g, after, sizeof after, NULL);
        if (st != DT_OK && memcmp(before, after, sizeof before) != 0) abort();
        if (st == DT_OK && (len >= mcap || mb[len] != '\0')) abort();
        free(mb);
    }
    dt_free(g);
    dt_free(h);
    return 0;
}
