/* The schema layer's internals (esquema.c), shared with nothing else yet: the CLI and the bindings
 * use only the public dt_esquema_* functions of datoteca.h. Not installed. */
#ifndef DT_ESQUEMA_ESQUEMA_H
#define DT_ESQUEMA_ESQUEMA_H

#include <stddef.h>
#include <stdint.h>

#include "datoteca.h"

/* A fan-out child maps its rows to its parent's through prefix sums, one uint64_t per parent row:
 * 8 bytes of memory per row of a fan-out's parent. This bounds that memory (800 MB at the limit). */
#ifndef DT__ESQUEMA_PADRES_MAX /* the fuzz target lowers it, so an input cannot spend a second on one table */
#define DT__ESQUEMA_PADRES_MAX 100000000ULL
#endif
/* The most children one parent row may have (cuantos.max), so a sum never nears 2^63. */
#define DT__ESQUEMA_CUANTOS_MAX 1000000
/* The most rows a table may have (filas, or a fan-out's total): the rows a dataset can address. */
#define DT__ESQUEMA_FILAS_MAX (1ULL << 62)
/* The most columns of one table: PostgreSQL's limit, which also keeps the check for a repeated column
 * name (every pair of a table's columns) small. */
#define DT__ESQUEMA_COLUMNAS_MAX 1600
/* The largest weight of an `elegir` option: a sum of at most 2^20 of them stays far below 2^63. */
#define DT__ESQUEMA_PESO_MAX 1000000000

/* A bounded value from a keyed hash, unbiased: mezcla(clave ^ mezcla(i)), rehashed while it falls in
 * the last, incomplete run of n values below 2^64 (so the % n that follows takes every value equally
 * often). Used for fan-out counts, uniform foreign keys and `elegir`; docs/esquemas.md gives it. */
uint64_t dt__esquema_acotado(uint64_t clave, uint64_t i, uint64_t n);

#endif
