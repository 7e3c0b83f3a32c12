/* Building Arrow record batches (a struct of flat children) through the C Data Interface: the
 * schema of named children and the columns appended row by row, shared by the schema layer's
 * batches (esquema/arrow.c) and masking's (mascara/mascara_arrow.c). Internal. Every structure it
 * gives owns its memory, each child separately (a consumer may move a child out and release the
 * parent first), with the release callbacks the specification requires. */
#ifndef DT_NUCLEO_ARROW_LOTE_H
#define DT_NUCLEO_ARROW_LOTE_H

#include "datoteca.h"

enum { DT__AL_UTF8, DT__AL_INT64, DT__AL_DATE32 };
enum { DT__AL_MEMORIA = 1, DT__AL_2GIB = 2 }; /* why appending failed */

/* A struct ("+s") schema of n children: name i is nombres[i] (largos[i] bytes, copied; largos NULL:
 * NUL-terminated), format formatos[i] (a static string), ARROW_FLAG_NULLABLE where nulables[i].
 * DT_OK or DT_ERR_NO_MEMORY (out->release NULL). */
dt_status dt__al_schema(size_t n, const char *const *nombres, const size_t *largos, const char *const *formatos,
                        const int *nulables, struct ArrowSchema *out);

/* One column's buffers while rows are appended; then owned by its ArrowArray. */
typedef struct dt__al_columna {
    const void *buffers[3];
    int tipo;
    uint8_t *validez; /* NULL for a column that cannot be null */
    int64_t nulos;
    int32_t *offsets; /* utf8 */
    char *texto;      /* utf8 bytes */
    size_t largo, cap;
    void *valores;    /* int64, or int32 for date32 */
} dt__al_columna;

/* A column of `tipo` for n rows (a validity bitmap when `nulable`), or NULL without memory. */
dt__al_columna *dt__al_columna_nueva(int tipo, size_t n, int nulable);
void dt__al_columna_liberar(dt__al_columna *c); /* NULL is a no-op */
/* Row r (rows are appended in order) of a utf8 column: k bytes at s, or a null (s NULL, which needs
 * a validity bitmap). 0, DT__AL_MEMORIA, or DT__AL_2GIB when the column would pass 2 GiB. */
int dt__al_texto(dt__al_columna *c, size_t r, const char *s, size_t k);
/* Row r of an int64 (v) or date32 ((int32_t)v) column, or a null when `nulo`. */
void dt__al_valor(dt__al_columna *c, size_t r, int64_t v, int nulo);

/* The record batch of n rows whose nc columns are c[0..nc): on DT_OK the batch owns them (c itself
 * stays the caller's); on DT_ERR_NO_MEMORY (out->release NULL) they are still the caller's. */
dt_status dt__al_lote(size_t n, size_t nc, dt__al_columna **c, struct ArrowArray *out);

#endif
