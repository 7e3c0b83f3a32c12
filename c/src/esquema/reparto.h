/* reparto: the integer tables behind a fan-out's distribution of children per parent row
 * (cuantos.distribucion) and a skewed foreign key (ref's sesgo). Built once in dt_esquema_new,
 * read-only afterwards (any number of threads may read one at once). Integer arithmetic only;
 * docs/esquemas.md gives every formula. Not installed. */
#ifndef DT_ESQUEMA_REPARTO_H
#define DT_ESQUEMA_REPARTO_H

#include <stddef.h>
#include <stdint.h>

enum { DT__REPARTO_UNIFORME, DT__REPARTO_GEOMETRICA, DT__REPARTO_ZIPF, DT__REPARTO_PESOS };

/* A fan-out table with a distribution other than "uniforme" keeps one uint64_t per count min..max:
 * at most this many per table (max - min <= 65,535: 512 KB) ... */
#define DT__REPARTO_CUENTAS_MAX 65536u
/* ... and at most this many over all the tables of one schema (8 MB), so a 1 MB document of many
 * fan-outs cannot ask for gigabytes. */
#define DT__REPARTO_ESQUEMA_MAX 1048576u
/* The largest Zipf exponent (fan-out and sesgo): with s = 8 the weight of rank 2 is already 1/256. */
#define DT__REPARTO_S_MAX 8

/* Cumulative weights of the counts min .. min + n - 1 (acum[k] = w[0] + ... + w[k], acum[n-1] > 0).
 * Trailing counts of weight 0 are dropped (n shrinks), they could never be drawn. */
typedef struct dt__reparto {
    size_t n;
    uint64_t *acum;
} dt__reparto;

/* A table of `n` counts (1 <= n <= DT__REPARTO_CUENTAS_MAX) for `dist`: DT__REPARTO_GEOMETRICA with
 * param = p per mille (1..1000), DT__REPARTO_ZIPF with param = s (1..DT__REPARTO_S_MAX): weights
 * filled and summed. DT__REPARTO_PESOS: acum[] is zeroed and the caller writes weight k into acum[k],
 * then calls dt__reparto_cerrar. NULL when out of memory. Free with dt__reparto_free (NULL: no-op). */
dt__reparto *dt__reparto_nuevo(int dist, int64_t param, size_t n);
/* Weights in acum[] into cumulative weights, trailing zero weights dropped. The caller has checked
 * that one weight is positive and that their sum stays below 2^63. */
void dt__reparto_cerrar(dt__reparto *r);
void dt__reparto_free(dt__reparto *r);
static inline uint64_t dt__reparto_total(const dt__reparto *r) { return r->acum[r->n - 1]; }
/* The first k whose cumulative weight exceeds x (x < total). */
size_t dt__reparto_indice(const dt__reparto *r, uint64_t x);

/* A Zipf-skewed choice among n parent rows without a table over the rows: ranks 1..n in buckets
 * [a, a + width) of equal per-rank weight floor(2^48 / a^s) (every rank below 32 its own bucket,
 * then 16 buckets per power of two), a bucket by cumulative weight, a rank uniform inside it, and
 * the rank to a row through a keyed permutation of the parent's rows. At most 31 + 16 * 58 buckets
 * (3 * 8 bytes each) whatever n. */
typedef struct dt__sesgo {
    uint64_t n, clave_perm; /* the parent's rows; the permutation's key */
    size_t nb;              /* buckets: first rank, per-rank weight, cumulative weight */
    uint64_t *ini, *unidad, *acum;
} dt__sesgo;

/* For n >= 1 parent rows and exponent s (1..DT__REPARTO_S_MAX). NULL when out of memory. */
dt__sesgo *dt__sesgo_nuevo(int64_t s, uint64_t n, uint64_t clave_perm);
void dt__sesgo_free(dt__sesgo *z);
/* The parent row of child row r, from the ref's own key: one acotado, one binary search over the
 * buckets, one permutation. */
uint64_t dt__sesgo_fila(const dt__sesgo *z, uint64_t clave, uint64_t r);

#endif
