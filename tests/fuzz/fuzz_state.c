/* libFuzzer target: dt_state_restore on arbitrary bytes. An invalid state is rejected and
 * leaves the instance unchanged; a valid one is used, generates, and saves back to exactly
 * the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datoteca.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    dt_gen *g;
    dt_new(7, &g);
    uint8_t before[DT_STATE_SIZE], after[DT_STATE_SIZE];
    dt_state_save(g, before, sizeof before, NULL);
    dt_status st = dt_state_restore(g, data, size);
    dt_state_save(g, after, sizeof after, NULL);
    if (st != DT_OK) {
        if (st != DT_ERR_INVALID_STATE && !(data == NULL && size > 0)) abort();
        if (memcmp(before, after, sizeof before) != 0) abort();
    } else {
        if (size != DT_STATE_SIZE || memcmp(data, after, DT_STATE_SIZE) != 0) abort();
        dt_persona p;
        if (dt_persona_persona(g, 0, 0, 120, &p) != DT_OK) abort();
    }
    dt_free(g);
    return 0;
}
