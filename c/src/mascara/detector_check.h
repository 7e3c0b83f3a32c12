/* A CHECK constraint's text read for the detector (detector_check.c), for detector.c only. Internal. */
#ifndef DT_DETECTOR_CHECK_H
#define DT_DETECTOR_CHECK_H

#include <stddef.h>

typedef struct dt__dc_termino {
    size_t columna;
    int signo; /* +1 or -1 */
} dt__dc_termino;

/* A column bound to a sum of others: ligada = t[0] ± t[1] ± ... (n terms, 2 to 16). */
typedef struct dt__dc_suma {
    size_t ligada;
    dt__dc_termino t[16];
    size_t n;
} dt__dc_suma;

/* Every column of `columnas` (ncol names) the CHECK's text names gets nombradas[j] = 1; returns 1 and
 * fills *suma when the text is `A = B + C - D` (either side), else 0 (suma->n 0). NULL text: 0. */
int dt__dc_leer(const char *texto, char *const *columnas, size_t ncol, unsigned char *nombradas, dt__dc_suma *suma);

#endif
