/* libFuzzer target: the RUT validator, cleaner and formatter on arbitrary bytes.
 * Invariants: never a crash or an out-of-bounds write (buffers are exactly the capacity
 * given, so AddressSanitizer sees any overflow); a valid input re-parses from each of its
 * formatted forms to the same body; formatting fails exactly when parsing fails. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datoteca.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *s = (const char *)data;
    uint32_t cuerpo = 0;
    char dv = 0;
    dt_status st = dt_rut_leer(s, size, &cuerpo, &dv);
    if ((dt_rut_validar(s, size) == DT_OK) != (st == DT_OK)) abort();
    for (int formato = 0; formato < 3; formato++) {
        size_t cap = size ? data[0] % 16 : 0;  /* small capacities, 0 included */
        char *buf = cap ? malloc(cap) : NULL;
        size_t len = 0;
        dt_status f = dt_rut_formatear(s, size, formato, buf, cap, &len);
        if (st != DT_OK && f != DT_ERR_INVALID_RUT) abort();
        if (st == DT_OK && f != DT_OK && f != DT_ERR_BUFFER_TOO_SMALL) abort();
        if (f == DT_OK) {
            uint32_t again = 0;
            if (len + 1 > cap || buf[len] != '\0' || dt_rut_leer(buf, len, &again, NULL) != DT_OK || again != cuerpo) abort();
        }
        free(buf);
    }
    return 0;
}
