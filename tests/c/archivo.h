/* Read a whole file into a NUL-terminated buffer (test code: exits on failure). */
#ifndef DT_TEST_ARCHIVO_H
#define DT_TEST_ARCHIVO_H

#include <stdio.h>
#include <stdlib.h>

static char *leer_archivo(const char *ruta, long *largo) {
    FILE *f = fopen(ruta, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", ruta);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) exit(2);
    s[n] = 0;
    fclose(f);
    if (largo) *largo = n;
    return s;
}

#endif
