/* The call registry's rows, shared by the sequential calls (llamadas.c) and datasets (tabla.c).
 * Not installed. */
#ifndef DT_REGISTRO_H
#define DT_REGISTRO_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Writes one value at p (at least DT_MAX_TEXT bytes of room) and sets *end. The
 * arguments are already range-checked and complete. */
typedef dt_status (*dt__runner)(dt_gen *g, const int64_t *a, char *p, char **end);
/* A record call's own function with the arguments applied: fills the record at `out` (its struct,
 * at most DT__REGISTRO_MAX bytes: the generated table asserts it). Datasets read the fields in place. */
typedef dt_status (*dt__registro_fn)(dt_gen *g, const int64_t *a, void *out);
#define DT__REGISTRO_MAX 4096

/* A cross-parameter check: params[a] must not exceed params[b]. */
typedef struct dt__check {
    uint8_t a, b;
} dt__check;

/* Column types of a dataset's DDL, and kinds of unique column: the order of SQL_TIPOS and
 * UNICOS in tools/gen_llamadas.py. */
enum { DT__SQL_TEXT, DT__SQL_DATE, DT__SQL_CHAR1, DT__SQL_INTEGER, DT__SQL_BIGINT };
enum { DT__UNICO_NO, DT__UNICO_RUT, DT__UNICO_EMAIL, DT__UNICO_MOVIL, DT__UNICO_FIJO };

typedef struct dt__llamada {
    dt_call_info info;
    dt__runner run;
    const size_t *offsets;     /* records: where each field lives in the struct */
    const uint8_t *nulos;      /* records: 1 where an empty field means "no value" */
    const char *const *cero;   /* per param: what 0 means ("any region"), or "" */
    size_t nchecks;
    const dt__check *checks;
    const uint8_t *sql;        /* per column (a record's fields, or the one value): DT__SQL_* */
    const uint8_t *unico;      /* per column: DT__UNICO_* */
    dt__registro_fn registro;  /* records: the record into its struct; NULL otherwise */
} dt__llamada;

/* The registry's row `index` (< dt_call_count()). */
const dt__llamada *dt__llamada_at(size_t index);

/* Complete and check arguments as dt_call does; on failure a sentence in `why` when not NULL. */
dt_status dt__llamada_args(const dt__llamada *ll, const int64_t *args, size_t nargs, int64_t *out, char *why, size_t whycap);

/* n values, each followed by '\n', then a NUL, into buf, as dt_call_many documents: `una` writes value i
 * at p (room for DT_MAX_TEXT bytes) and sets *end. Values are generated in place while one surely fits,
 * else through a scratch buffer; on failure buf[0] = '\0' (and *len = DT_CALL_MANY_BOUND(n) when the
 * buffer is too small). The caller restores whatever state a failure must not move. */
typedef dt_status (*dt__una_fn)(void *ctx, size_t i, char *p, char **end);
dt_status dt__lineas(size_t n, char *buf, size_t cap, size_t *len, dt__una_fn una, void *ctx);

#endif
