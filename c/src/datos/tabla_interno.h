/* The dataset's description, shared by tabla.c (rows as text) and arrow.c (rows as Arrow columns).
 * Not installed. */
#ifndef DT_TABLA_INTERNO_H
#define DT_TABLA_INTERNO_H

#include <stddef.h>

#include "registro/registro.h"

#define DT__TABLA_STREAM 0x7461626c61ULL /* "tabla": the increment of every row stream */
#define DT__SIN_UNICOS (1ULL << 63)      /* rows addressable without unique columns */

/* Plain values only (the registry row is static): a copy is a whole, independent dataset, which
 * is how an Arrow stream outlives the dt_tabla it came from. */
struct dt_tabla {
    const dt__llamada *ll;
    int64_t args[DT_MAX_PARAMS];
    uint64_t seed, clave_nulos, clave_sucio, capacidad;
    int32_t hoy_anio, hoy_mes, hoy_dia;
    size_t ncampos_llamada;           /* fields of a record, 1 for a texto/entero */
    size_t ncol;
    uint8_t col[DT_MAX_FIELDS];       /* column j is field col[j] of the call's value */
    uint32_t nulos[DT_MAX_FIELDS];    /* per mille, per column */
    uint32_t sucio[DT_MAX_FIELDS];    /* per mille of dirty values, per column (docs/sucios.md) */
    uint8_t unico[DT_MAX_FIELDS];     /* 1 where column j is unique */
    int hay_unico;
    dt__unico plantilla;              /* keys and active kinds; the row is set per row */
    char clave_escalar[32];           /* the one column's name of a texto/entero: "rut" */
};

/* The name of field k of the call's value (a record's field, or the scalar's one column). */
const char *dt__tabla_campo(const dt_tabla *t, size_t k);
/* 1 if column j may be null: a null rate, or a field that may have no value. */
int dt__tabla_nulable(const dt_tabla *t, size_t j);
/* One row's columns, read in place from the value the call generated: column j is the ini[j] text
 * of largo[j] bytes, unless nulo[j]. A dirty column's text is in `sucios` instead (every transform
 * writes at most 2n + 8 bytes for n clean ones, and a row's clean texts add up to under DT_MAX_TEXT). */
typedef struct dt__valores {
    union { /* the record's struct, or a texto/entero value as text */
        max_align_t alinear;
        char bytes[DT__REGISTRO_MAX > DT_MAX_TEXT + 16 ? DT__REGISTRO_MAX : DT_MAX_TEXT + 16];
    } valor;
    const char *ini[DT_MAX_FIELDS];
    size_t largo[DT_MAX_FIELDS];
    uint8_t nulo[DT_MAX_FIELDS];
    char sucios[2 * DT_MAX_TEXT + 8 * DT_MAX_FIELDS];
} dt__valores;
/* Generate row `fila` into v. Cannot fail: the arguments were checked when the dataset was built. */
void dt__tabla_valores(const dt_tabla *t, uint64_t fila, dt__valores *v);
/* The same row with other arguments: `args` complete and checked (dt__llamada_args), as a schema's
 * column whose arguments come from other columns gives them row by row (docs/esquemas.md). The row's
 * stream, nulls and dirt are the dataset's own, so only what the arguments decide differs. */
void dt__tabla_valores_con(const dt_tabla *t, uint64_t fila, const int64_t *args, dt__valores *v);
/* Row `fila` at p as dt_tabla_filas writes it (columns joined by DT_FIELD_SEP, a null as DT_NULO,
 * no newline); returns the end. p has room for DT_MAX_TEXT bytes. */
char *dt__tabla_fila(const dt_tabla *t, uint64_t fila, char *p);

#endif
