/* reparto: integer weight tables for fan-out counts and Zipf-skewed foreign keys (reparto.h).
 * Every weight is an exact integer function of the document's parameters, written in
 * docs/esquemas.md#determinism, so another runtime reproduces the same rows. */
#include "esquema/reparto.h"

#include <stdlib.h>

#include "esquema/esquema.h"
#include "internal.h"

/* x^s, or 0 when it exceeds `tope` (the weights it divides would be 0 anyway). */
static uint64_t dt__potencia(uint64_t x, int64_t s, uint64_t tope) {
    uint64_t y = 1;
    for (int64_t i = 0; i < s; i++) {
        if (y > tope / x) return 0;
        y *= x;
    }
    return y;
}

dt__reparto *dt__reparto_nuevo(int dist, int64_t param, size_t n) {
    dt__reparto *r = (dt__reparto *)malloc(sizeof *r);
    if (r == NULL) return NULL;
    r->n = n;
    r->acum = (uint64_t *)calloc(n, sizeof *r->acum);
    if (r->acum == NULL) {
        free(r);
        return NULL;
    }
    if (dist == DT__REPARTO_GEOMETRICA) {
        /* w[0] = 2^32, w[k] = floor(w[k-1] * (1000 - p) / 1000): the ratio is exact per step, the
         * rounding down is the only approximation and is part of the definition. */
        uint64_t w = 1ULL << 32;
        for (size_t k = 0; k < n; k++) {
            r->acum[k] = w;
            w = w * (uint64_t)(1000 - param) / 1000;
        }
        dt__reparto_cerrar(r);
    } else if (dist == DT__REPARTO_ZIPF) {
        /* w[k] = floor(2^32 / (k + 1)^s), 0 once (k + 1)^s > 2^32. */
        for (size_t k = 0; k < n; k++) {
            uint64_t d = dt__potencia((uint64_t)k + 1, param, 1ULL << 32);
            r->acum[k] = d ? (1ULL << 32) / d : 0;
        }
        dt__reparto_cerrar(r);
    }
    return r;
}

void dt__reparto_cerrar(dt__reparto *r) {
    size_t ultimo = 0;
    uint64_t suma = 0;
    for (size_t k = 0; k < r->n; k++) {
        if (r->acum[k]) ultimo = k;
        suma += r->acum[k];
        r->acum[k] = suma;
    }
    r->n = ultimo + 1; /* the memory stays allocated; only the search range shrinks */
}

void dt__reparto_free(dt__reparto *r) {
    if (r == NULL) return;
    free(r->acum);
    free(r);
}

size_t dt__reparto_indice(const dt__reparto *r, uint64_t x) {
    size_t lo = 0, hi = r->n - 1;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (r->acum[m] > x) hi = m;
        else lo = m + 1;
    }
    return lo;
}

/* ---- sesgo ---- */

#define DT__SESGO_ESCALA 48 /* per-rank weights are floor(2^48 / a^s) */

dt__sesgo *dt__sesgo_nuevo(int64_t s, uint64_t n, uint64_t clave_perm) {
    dt__sesgo *z = (dt__sesgo *)calloc(1, sizeof *z);
    if (z == NULL) return NULL;
    z->n = n;
    z->clave_perm = clave_perm;
    size_t cap = 31 + 16 * 58; /* ranks up to 2^62: e <= 58 */
    z->ini = (uint64_t *)malloc(3 * cap * sizeof *z->ini);
    if (z->ini == NULL) {
        free(z);
        return NULL;
    }
    z->unidad = z->ini + cap;
    z->acum = z->unidad + cap;
    uint64_t suma = 0; /* below 2^48 * (1 + ln n) < 2^54 */
    /* Buckets [m * 2^e, (m + 1) * 2^e): e = 0 with m = 1..31 (one rank each), then e >= 1 with
     * m = 16..31; ranks 1..n in order, each bucket's per-rank weight floor(2^48 / (m * 2^e)^s) =
     * floor(2^48 / m^s) >> (e * s) (the same floor: dividing by 2^(e*s) after a floor by m^s). */
    for (unsigned e = 0; e <= 58; e++) {
        for (uint64_t m = e ? 16 : 1; m < 32; m++) {
            uint64_t a = m << e;
            if (a > n) goto fin;
            uint64_t d = dt__potencia(m, s, 1ULL << DT__SESGO_ESCALA);
            uint64_t base = d ? (1ULL << DT__SESGO_ESCALA) / d : 0;
            uint64_t u = (uint64_t)e * (uint64_t)s >= 64 ? 0 : base >> (e * (unsigned)s);
            if (u == 0) goto fin; /* weights only fall from here: the remaining ranks are never drawn */
            uint64_t ancho = (1ULL << e) < n - a + 1 ? (1ULL << e) : n - a + 1;
            suma += ancho * u;
            z->ini[z->nb] = a;
            z->unidad[z->nb] = u;
            z->acum[z->nb] = suma;
            z->nb++;
        }
    }
fin:
    return z;
}

void dt__sesgo_free(dt__sesgo *z) {
    if (z == NULL) return;
    free(z->ini);
    free(z);
}

uint64_t dt__sesgo_fila(const dt__sesgo *z, uint64_t clave, uint64_t r) {
    uint64_t x = dt__esquema_acotado(clave, r, z->acum[z->nb - 1]);
    size_t lo = 0, hi = z->nb - 1;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (z->acum[m] > x) hi = m;
        else lo = m + 1;
    }
    uint64_t antes = lo ? z->acum[lo - 1] : 0;
    uint64_t rango = z->ini[lo] + (x - antes) / z->unidad[lo]; /* uniform in the bucket: u values each */
    return dt__permutar(z->clave_perm, z->n, rango - 1);
}
