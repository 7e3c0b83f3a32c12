/* arrow: a dataset's rows as Arrow record batches through the C Data Interface, built column by
 * column as each row is generated (one pass, no per-value allocation). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "nucleo/calendario.h"
#include "internal.h"
#include "nucleo/arrow_lote.h"
#include "tabla_interno.h"

enum { DT__ARROW_UTF8, DT__ARROW_INT64, DT__ARROW_DATE32 };

static int dt__tipo_arrow(const dt_tabla *t, size_t j) {
    switch (t->ll->sql[t->col[j]]) {
    case DT__SQL_DATE: return DT__ARROW_DATE32;
    case DT__SQL_INTEGER:
    case DT__SQL_BIGINT: return DT__ARROW_INT64;
    default: return DT__ARROW_UTF8;
    }
}

/* ---- schema ---- */

dt_status dt_tabla_arrow_schema(const dt_tabla *t, struct ArrowSchema *out) {
    if (t == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    size_t n = t->ncol;
    static const char *const formato[] = {"u", "l", "tdD"};
    const char **nombres = (const char **)malloc((n ? n : 1) * sizeof *nombres);
    const char **formatos = (const char **)malloc((n ? n : 1) * sizeof *formatos);
    int *nulables = (int *)malloc((n ? n : 1) * sizeof *nulables);
    dt_status st = DT_ERR_NO_MEMORY;
    if (nombres && formatos && nulables) {
        for (size_t j = 0; j < n; j++) {
            nombres[j] = dt__tabla_campo(t, t->col[j]);
            formatos[j] = formato[dt__tipo_arrow(t, j)];
            nulables[j] = dt__tabla_nulable(t, j);
        }
        st = dt__al_schema(n, nombres, NULL, formatos, nulables, out);
    }
    free(nombres);
    free(formatos);
    free(nulables);
    return st;
}

/* ---- arrays ---- */

/* Text bytes as they are appended: a column's, or the second half of a batch's before joining. */
typedef struct dt__texto {
    char *datos;
    size_t len, cap;
} dt__texto;

/* One column's buffers while rows are appended; then owned by its ArrowArray. */
typedef struct dt__columna {
    const void *buffers[3];
    uint8_t *validez;  /* NULL for a column that cannot be null */
    int32_t *offsets;  /* utf8 */
    dt__texto texto;   /* utf8 bytes */
    void *valores;     /* int64 or int32 (date32) */
} dt__columna;

static void dt__columna_liberar(dt__columna *c) {
    if (c == NULL) return;
    free(c->validez);
    free(c->offsets);
    free(c->texto.datos);
    free(c->valores);
    free(c);
}

/* A child owns its column (a consumer may move a child out and release the parent first). */
static void dt__array_hijo_release(struct ArrowArray *a) {
    if (a->release == NULL) return;
    dt__columna_liberar((dt__columna *)a->private_data);
    a->release = NULL;
}

static void dt__array_release(struct ArrowArray *a) {
    if (a->release == NULL) return;
    for (int64_t i = 0; i < a->n_children; i++) {
        struct ArrowArray *c = a->children[i];
        if (c->release) c->release(c);
    }
    free(a->private_data);
    a->release = NULL;
}

/* The block a batch's private_data owns: children pointers, child structs, column builders, and
 * the struct array's one buffer pointer (no validity: rows are never null). */
typedef struct dt__lote {
    struct ArrowArray *hijos[DT_MAX_FIELDS];
    struct ArrowArray h[DT_MAX_FIELDS];
    dt__columna *c[DT_MAX_FIELDS]; /* each owned by its child once built */
    const void *buffers[1];
} dt__lote;

/* "YYYY-MM-DD" -> days since 1970-01-01 */
static int32_t dt__dias(const char *s) {
    int32_t y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    int32_t m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    return (int32_t)dt__dias_desde_civil(y, m, d);
}

#define DT__ARROW_HILO_MIN 4096 /* rows from which a batch is filled by two threads */

/* One thread's share of a batch: rows [i0, i1). The first half (i0 == 0) is lent the columns' own
 * text buffers and gives them back; the second writes into its own, with offsets relative to them.
 * Each half reads and writes only its own struct while it runs, and the struct is a whole number
 * of cache lines: the two threads never touch one line (no false sharing). */
typedef struct dt__relleno {
    _Alignas(64) const dt_tabla *t;
    const int *tipos;
    uint64_t desde;
    size_t i0, i1;
    uint8_t *validez[DT_MAX_FIELDS];
    int32_t *offsets[DT_MAX_FIELDS];
    void *valores[DT_MAX_FIELDS];
    dt__texto texto[DT_MAX_FIELDS];
    int64_t nulos[DT_MAX_FIELDS];
    int fallo;
} dt__relleno;

enum { DT__FALLO_MEMORIA = 1, DT__FALLO_2GIB = 2 }; /* why a batch failed: DT_ERR_NO_MEMORY, DT_ERR_INVALID_ARG */

/* Room for `extra` more bytes: 0, or DT__FALLO_MEMORIA. */
static int dt__reservar(dt__texto *x, size_t extra) {
    if (x->len + extra <= x->cap) return 0;
    size_t cap = x->cap * 2 + extra + 4096;
    char *d = (char *)realloc(x->datos, cap);
    if (d == NULL) return DT__FALLO_MEMORIA;
    x->datos = d;
    x->cap = cap;
    return 0;
}

/* Append k bytes: 0, or why not (past int32 offsets, or no memory). */
static int dt__anadir(dt__texto *x, const char *s, size_t k) {
    if (x->len + k > (size_t)INT32_MAX) return DT__FALLO_2GIB;
    int fallo = dt__reservar(x, k);
    if (fallo) return fallo;
    if (k) memcpy(x->datos + x->len, s, k);
    x->len += k;
    return 0;
}

static void dt__rellenar(dt__relleno *r) {
    const dt_tabla *t = r->t;
    size_t nc = t->ncol;
    dt__valores v;
    for (size_t i = r->i0; i < r->i1 && !r->fallo; i++) {
        dt__tabla_valores(t, r->desde + i, &v);
        for (size_t j = 0; j < nc; j++) {
            const char *s = v.ini[j];
            size_t k = v.largo[j];
            int nulo = v.nulo[j];
            if (nulo) r->nulos[j]++;
            else if (r->validez[j]) r->validez[j][i >> 3] |= (uint8_t)(1u << (i & 7));
            if (r->tipos[j] == DT__ARROW_UTF8) {
                if (!nulo && (r->fallo = dt__anadir(&r->texto[j], s, k)) != 0) break;
                r->offsets[j][i + 1] = (int32_t)r->texto[j].len;
            } else if (r->tipos[j] == DT__ARROW_INT64) {
                int64_t x = 0;
                for (size_t q = 0; !nulo && q < k; q++) x = x * 10 + (s[q] - '0');
                ((int64_t *)r->valores[j])[i] = x;
            } else {
                ((int32_t *)r->valores[j])[i] = nulo || k != 10 ? 0 : dt__dias(s);
            }
        }
    }
}

static void *dt__rellenar_hilo(void *arg) {
    dt__rellenar((dt__relleno *)arg);
    return NULL;
}

dt_status dt_tabla_arrow_lote(const dt_tabla *t, uint64_t desde, size_t n, int hilos, struct ArrowArray *out) {
    if (t == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    if (desde > t->capacidad || n > t->capacidad - desde || n > (size_t)INT32_MAX) return DT_ERR_INVALID_ARG;
    dt__lote *L = (dt__lote *)calloc(1, sizeof *L);
    if (L == NULL) return DT_ERR_NO_MEMORY;
    size_t nc = t->ncol;
    int tipos[DT_MAX_FIELDS];
    int fallo = 0;
    for (size_t j = 0; j < nc && !fallo; j++) {
        dt__columna *c = L->c[j] = (dt__columna *)calloc(1, sizeof(dt__columna));
        if (c == NULL) {
            fallo = 1;
            break;
        }
        tipos[j] = dt__tipo_arrow(t, j);
        if (dt__tabla_nulable(t, j)) fallo |= (c->validez = (uint8_t *)calloc((n + 7) / 8 + 1, 1)) == NULL;
        if (tipos[j] == DT__ARROW_UTF8) {
            fallo |= (c->offsets = (int32_t *)malloc((n + 1) * sizeof(int32_t))) == NULL;
            if (!fallo) c->offsets[0] = 0;
            fallo |= dt__reservar(&c->texto, n * 16);
        } else {
            fallo |= (c->valores = malloc(n * (tipos[j] == DT__ARROW_INT64 ? 8 : 4) + 8)) == NULL;
        }
    }
    int64_t nulos[DT_MAX_FIELDS] = {0};
    /* Rows are independent: a large batch is filled by two threads, each writing its own rows'
     * offsets, values and validity bytes (the split is a multiple of 8 rows) and its own text bytes,
     * joined afterwards. The result is the same bytes as one thread's. */
    size_t mitad = hilos >= 2 && n >= DT__ARROW_HILO_MIN ? (n / 2) & ~(size_t)7 : n;
    dt__relleno r1, r2;
    memset(&r1, 0, sizeof r1);
    memset(&r2, 0, sizeof r2);
    r1.t = r2.t = t;
    r1.tipos = r2.tipos = tipos;
    r1.desde = r2.desde = desde;
    r1.i1 = r2.i0 = mitad;
    r2.i1 = n;
    for (size_t j = 0; j < nc && L->c[j]; j++) {
        dt__columna *c = L->c[j];
        r1.validez[j] = r2.validez[j] = c->validez;
        r1.offsets[j] = r2.offsets[j] = c->offsets;
        r1.valores[j] = r2.valores[j] = c->valores;
        r1.texto[j] = c->texto; /* lent to the first half */
        c->texto = (dt__texto){NULL, 0, 0};
    }
    if (!fallo) {
        pthread_t hilo;
        int en_hilo = mitad < n && pthread_create(&hilo, NULL, dt__rellenar_hilo, &r2) == 0;
        dt__rellenar(&r1);
        if (mitad < n) {
            if (en_hilo) pthread_join(hilo, NULL);
            else dt__rellenar(&r2);
        }
        fallo = r1.fallo ? r1.fallo : r2.fallo;
    }
    for (size_t j = 0; j < nc && L->c[j]; j++) L->c[j]->texto = r1.texto[j]; /* given back, also on failure */
    for (size_t j = 0; j < nc && !fallo; j++) {
        dt__columna *c = L->c[j];
        nulos[j] = r1.nulos[j] + r2.nulos[j];
        if (tipos[j] != DT__ARROW_UTF8) continue;
        /* the second half's bytes follow the first half's */
        size_t base = c->texto.len;
        if ((fallo = dt__anadir(&c->texto, r2.texto[j].datos, r2.texto[j].len)) != 0) break;
        for (size_t i = mitad + 1; i <= n && mitad < n; i++) c->offsets[i] += (int32_t)base;
    }
    for (size_t j = 0; j < DT_MAX_FIELDS; j++) free(r2.texto[j].datos);
    if (fallo) {
        for (size_t j = 0; j < nc; j++) dt__columna_liberar(L->c[j]);
        free(L);
        return fallo == DT__FALLO_2GIB ? DT_ERR_INVALID_ARG : DT_ERR_NO_MEMORY;
    }
    for (size_t j = 0; j < nc; j++) {
        dt__columna *c = L->c[j];
        struct ArrowArray *a = &L->h[j];
        c->buffers[0] = nulos[j] ? c->validez : NULL; /* no nulls: the bitmap may be omitted */
        if (tipos[j] == DT__ARROW_UTF8) {
            c->buffers[1] = c->offsets;
            c->buffers[2] = c->texto.datos;
            a->n_buffers = 3;
        } else {
            c->buffers[1] = c->valores;
            a->n_buffers = 2;
        }
        a->length = (int64_t)n;
        a->null_count = nulos[j];
        a->offset = 0;
        a->n_children = 0;
        a->buffers = c->buffers;
        a->children = NULL;
        a->dictionary = NULL;
        a->release = dt__array_hijo_release;
        a->private_data = c;
        L->hijos[j] = a;
    }
    L->buffers[0] = NULL;
    out->length = (int64_t)n;
    out->null_count = 0;
    out->offset = 0;
    out->n_buffers = 1;
    out->n_children = (int64_t)nc;
    out->buffers = L->buffers;
    out->children = L->hijos;
    out->dictionary = NULL;
    out->release = dt__array_release;
    out->private_data = L;
    return DT_OK;
}

/* ---- stream ---- */

typedef struct dt__flujo {
    dt_tabla tabla; /* a copy: the stream outlives the caller's dataset */
    uint64_t siguiente, fin;
    size_t lote;
    int hilos;
    char error[128];
} dt__flujo;

static int dt__flujo_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
    dt__flujo *f = (dt__flujo *)s->private_data;
    dt_status st = dt_tabla_arrow_schema(&f->tabla, out);
    if (st == DT_OK) return 0;
    snprintf(f->error, sizeof f->error, "datoteca: schema: %s", dt_status_str(st));
    return 12; /* ENOMEM */
}

static int dt__flujo_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
    dt__flujo *f = (dt__flujo *)s->private_data;
    if (f->siguiente >= f->fin) { /* the end: a released array */
        memset(out, 0, sizeof *out);
        out->release = NULL;
        return 0;
    }
    uint64_t quedan = f->fin - f->siguiente;
    size_t n = quedan < f->lote ? (size_t)quedan : f->lote;
    dt_status st = dt_tabla_arrow_lote(&f->tabla, f->siguiente, n, f->hilos, out);
    if (st != DT_OK) {
        snprintf(f->error, sizeof f->error, "datoteca: rows %llu..%llu: %s", (unsigned long long)f->siguiente,
                 (unsigned long long)(f->siguiente + n), dt_status_str(st));
        return st == DT_ERR_NO_MEMORY ? 12 : 22; /* ENOMEM, EINVAL */
    }
    f->siguiente += n;
    return 0;
}

static const char *dt__flujo_error(struct ArrowArrayStream *s) {
    dt__flujo *f = (dt__flujo *)s->private_data;
    return f->error[0] ? f->error : NULL;
}

static void dt__flujo_release(struct ArrowArrayStream *s) {
    if (s->release == NULL) return;
    free(s->private_data);
    s->release = NULL;
}

dt_status dt_tabla_arrow_stream(const dt_tabla *t, uint64_t desde, uint64_t n, size_t filas_por_lote, int hilos,
                                struct ArrowArrayStream *out) {
    if (t == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    if (filas_por_lote == 0 || filas_por_lote > (1u << 20) || hilos < 1 || hilos > 2 || desde > t->capacidad ||
        n > t->capacidad - desde)
        return DT_ERR_INVALID_ARG;
    dt__flujo *f = (dt__flujo *)calloc(1, sizeof *f);
    if (f == NULL) return DT_ERR_NO_MEMORY;
    f->tabla = *t;
    f->siguiente = desde;
    f->fin = desde + n;
    f->lote = filas_por_lote;
    f->hilos = hilos;
    out->get_schema = dt__flujo_schema;
    out->get_next = dt__flujo_next;
    out->get_last_error = dt__flujo_error;
    out->release = dt__flujo_release;
    out->private_data = f;
    return DT_OK;
}

struct ArrowArrayStream *dt_tabla_arrow_stream_new(const dt_tabla *t, uint64_t desde, uint64_t n, size_t filas_por_lote,
                                                     int hilos) {
    struct ArrowArrayStream *s = (struct ArrowArrayStream *)malloc(sizeof *s);
    if (s == NULL) return NULL;
    if (dt_tabla_arrow_stream(t, desde, n, filas_por_lote, hilos, s) != DT_OK) {
        free(s);
        return NULL;
    }
    return s;
}

void dt_arrow_stream_free(struct ArrowArrayStream *s) {
    if (s == NULL) return;
    if (s->release) s->release(s);
    free(s);
}

struct ArrowSchema *dt_tabla_arrow_schema_new(const dt_tabla *t) {
    struct ArrowSchema *s = (struct ArrowSchema *)malloc(sizeof *s);
    if (s == NULL) return NULL;
    if (dt_tabla_arrow_schema(t, s) != DT_OK) {
        free(s);
        return NULL;
    }
    return s;
}

void dt_arrow_schema_free(struct ArrowSchema *s) {
    if (s == NULL) return;
    if (s->release) s->release(s);
    free(s);
}
