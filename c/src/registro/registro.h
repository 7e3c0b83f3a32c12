/* The call and utility registries' rows (generated into llamadas.gen.c and utilidades.gen.c from
 * spec/), shared by the sequential calls (llamadas.c), the typed functions and datasets (datos/).
 * Not installed. */
#ifndef DT_REGISTRO_H
#define DT_REGISTRO_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Writes one value's text form at p (at least DT_MAX_TEXT bytes of room) and returns the end. The
 * arguments are already range-checked and complete: a runner cannot fail. */
typedef char *(*dt__runner)(dt_gen *g, const int64_t *a, char *p);
/* A record call's own function with the arguments applied: fills the record at `out` (its struct,
 * at most DT__REGISTRO_MAX bytes: the generated table asserts it). Datasets read the fields in place. */
typedef void (*dt__registro_fn)(dt_gen *g, const int64_t *a, void *out);
/* An integer call's own function with the arguments applied. */
typedef int64_t (*dt__entero_fn)(dt_gen *g, const int64_t *a);
#define DT__REGISTRO_MAX 4096

/* A cross-parameter check: params[a] must not exceed params[b]. */
typedef struct dt__check {
    uint8_t a, b;
} dt__check;

/* Column types of a dataset's DDL, kinds of unique column and kinds of dirt: the order of SQL_TIPOS,
 * UNICOS and SUCIOS in tools/gen/spec.py. */
enum { DT__SQL_TEXT, DT__SQL_DATE, DT__SQL_CHAR1, DT__SQL_INTEGER, DT__SQL_BIGINT };
enum { DT__UNICO_NO, DT__UNICO_RUT, DT__UNICO_EMAIL, DT__UNICO_MOVIL, DT__UNICO_FIJO };
enum { DT__SUCIO_NO, DT__SUCIO_RUT, DT__SUCIO_NOMBRE, DT__SUCIO_COMUNA, DT__SUCIO_TELEFONO, DT__SUCIO_N };
/* Every kind of dirt has this many forms, numbered 1.. as its [opciones.sucio_*] set lists them (0 is
 * `cualquiera`, which only a call resolves, by a draw). */
#define DT__SUCIO_FORMAS 5
/* The dirt of kind `tipo` (DT__SUCIO_*) in form `forma` (1..DT__SUCIO_FORMAS) on the clean text
 * s[0, n), written at p, which has room for 2 * n + 8 bytes; returns the end. A pure function of its
 * arguments (ns/sucio.c), shared by the sucio.* calls and datasets' `sucio` option. A text the kind
 * cannot read (not a RUT, not a phone number) is written unchanged, and so is one a form leaves as it
 * is (a lower-case k on a RUT without K). */
char *dt__ensuciar(int tipo, int forma, const char *s, size_t n, char *p);

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
    const uint8_t *sucio;      /* per column: DT__SUCIO_*, the dirt a dataset may give it */
    dt__registro_fn registro;  /* records: the record into its struct; NULL otherwise */
    dt__entero_fn entero;      /* integer calls: the value; NULL otherwise */
    int32_t hoy_desde, hoy_hasta; /* the reference dates the call makes sense for, YYYYMMDD (0: unbounded) */
    const char *hoy_porque;    /* why, for the refusal's sentence ("" when both are 0) */
} dt__llamada;

/* The generated rows (llamadas.gen.c). */
extern const dt__llamada dt__llamadas[];
extern const size_t dt__n_llamadas;

/* A utility: its description, the runner that checks text and writes the value, the name of its
 * text parameter (NULL if it takes none) and the status a text it refuses gives. */
typedef dt_status (*dt__util_fn)(const char *s, size_t n, const int64_t *a, char *p, char **end);
typedef struct dt__utilidad {
    dt_call_info info;
    const char *const *cero;
    dt__util_fn run;
    const char *texto;
    dt_status rechazo;
} dt__utilidad;
extern const dt__utilidad dt__utilidades[];
extern const size_t dt__n_utilidades;

/* The one validator. Complete and check arguments: DT_ARG_DEFAULT (when `por_defecto`) or an
 * argument not given takes the parameter's default, every value must lie in its range, and every
 * cross-parameter check must hold. On failure, when `why` is not NULL, the sentence naming the
 * call, the parameter, the value and what is accepted is written there (snprintf semantics). */
dt_status dt__args(const dt_call_info *info, const char *const *cero, const dt__check *checks, size_t nchecks,
                   const int64_t *args, size_t nargs, int por_defecto, int64_t *out, char *why, size_t whycap);
/* DT_ERR_INVALID_ARG, with the sentence in why (when not NULL), if call `ll` refuses the reference date
 * anio-mes-dia (outside its hoy_desde..hoy_hasta); DT_OK otherwise. */
dt_status dt__hoy_admite(const dt__llamada *ll, int32_t anio, int32_t mes, int32_t dia, char *why, size_t whycap);
/* dt__args for a call's row, DT_ARG_DEFAULT meaning "the default" (datasets and dt_call_check). */
dt_status dt__llamada_args(const dt__llamada *ll, const int64_t *args, size_t nargs, int64_t *out, char *why,
                           size_t whycap);

/* The typed public functions (generated) run call `index` through these: the check (DT_ARG_DEFAULT
 * is a value like any other there), then the generator; a text call writes the sentence of a refusal
 * into buf. Nothing is drawn on failure. */
dt_status dt__llamar_texto(dt_gen *g, size_t index, const int64_t *a, char *buf, size_t cap, size_t *len);
dt_status dt__llamar_entero(dt_gen *g, size_t index, const int64_t *a, int64_t *out);
dt_status dt__llamar_registro(dt_gen *g, size_t index, const int64_t *a, void *out);

/* A record's fields joined by DT_FIELD_SEP at p; returns the end. */
char *dt__serializar(const void *rec, const size_t *offsets, size_t n, char *p);

/* n values, each followed by '\n', then a NUL, into buf, as dt_call_many documents: `una` writes value i
 * at p (room for DT_MAX_TEXT bytes) and returns the end. Values are generated in place while one surely fits,
 * else through a scratch buffer; on failure buf[0] = '\0' (and *len = DT_CALL_MANY_BOUND(n) when the
 * buffer is too small). The caller restores whatever state a failure must not move. */
typedef char *(*dt__una_fn)(void *ctx, size_t i, char *p);
dt_status dt__lineas(size_t n, char *buf, size_t cap, size_t *len, dt__una_fn una, void *ctx);

#endif
