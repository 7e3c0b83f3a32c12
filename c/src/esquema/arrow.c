/* esquema/arrow: a schema table's rows as Arrow record batches through the C Data Interface, with the
 * conventions of the datasets' (datos/arrow.c): utf8 text, int64 integers, date32 dates, validity
 * bitmaps only for columns that may be null, no schema metadata. Built only on the public
 * dt_esquema_filas and dt_esquema_columna, so the values are the text rows' values by construction
 * (and the schema layer's internals stay private to esquema.c). One thread per batch: a schema row
 * is several datasets' rows, and callers that want more cores split the table into row ranges
 * (Spark partitions), which any slice allows. */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "nucleo/calendario.h"

enum { DT__EA_UTF8, DT__EA_INT64, DT__EA_DATE32 };

static int dt__ea_tipo(const char *tipo_sql) {
    if (strcmp(tipo_sql, "date") == 0) return DT__EA_DATE32;
    if (strcmp(tipo_sql, "integer") == 0 || strcmp(tipo_sql, "bigint") == 0) return DT__EA_INT64;
    return DT__EA_UTF8;
}

/* ---- schema ---- */

static void dt__ea_schema_release(struct ArrowSchema *s) {
    if (s->release == NULL) return;
    for (int64_t i = 0; i < s->n_children; i++) {
        struct ArrowSchema *c = s->children[i];
        if (c->release) c->release(c);
    }
    free(s->private_data); /* children pointers and child structs, one block */
    s->release = NULL;
}

/* A child owns its name (a consumer may move a child out and release the parent first). */
static void dt__ea_schema_hijo_release(struct ArrowSchema *s) {
    free(s->private_data);
    s->release = NULL;
}

dt_status dt_esquema_arrow_schema(const dt_esquema *e, size_t tabla, struct ArrowSchema *out) {
    if (e == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    if (tabla >= dt_esquema_tablas(e)) return DT_ERR_INVALID_ARG;
    size_t n = dt_esquema_columnas(e, tabla);
    void *bloque = malloc(n * (sizeof(struct ArrowSchema *) + sizeof(struct ArrowSchema)) + 1);
    if (bloque == NULL) return DT_ERR_NO_MEMORY;
    struct ArrowSchema **hijos = (struct ArrowSchema **)bloque;
    struct ArrowSchema *h = (struct ArrowSchema *)(hijos + n);
    static const char *const formatos[] = {"u", "l", "tdD"};
    for (size_t j = 0; j < n; j++) {
        dt_esquema_columna_info c;
        dt_esquema_columna(e, tabla, j, &c);
        size_t k = strlen(c.nombre) + 1;
        char *nombre = (char *)malloc(k);
        if (nombre == NULL) {
            for (size_t q = 0; q < j; q++) free(h[q].private_data);
            free(bloque);
            return DT_ERR_NO_MEMORY;
        }
        memcpy(nombre, c.nombre, k);
        h[j].format = formatos[dt__ea_tipo(c.tipo_sql)];
        h[j].name = nombre;
        h[j].metadata = NULL;
        h[j].flags = c.nulable ? ARROW_FLAG_NULLABLE : 0;
        h[j].n_children = 0;
        h[j].children = NULL;
        h[j].dictionary = NULL;
        h[j].release = dt__ea_schema_hijo_release;
        h[j].private_data = nombre;
        hijos[j] = &h[j];
    }
    out->format = "+s";
    out->name = "";
    out->metadata = NULL;
    out->flags = 0;
    out->n_children = (int64_t)n;
    out->children = hijos;
    out->dictionary = NULL;
    out->release = dt__ea_schema_release;
    out->private_data = bloque;
    return DT_OK;
}

struct ArrowSchema *dt_esquema_arrow_schema_new(const dt_esquema *e, size_t tabla) {
    struct ArrowSchema *s = (struct ArrowSchema *)malloc(sizeof *s);
    if (s == NULL) return NULL;
    if (dt_esquema_arrow_schema(e, tabla, s) != DT_OK) {
        free(s);
        return NULL;
    }
    return s;
}

/* ---- arrays ---- */

/* One column's buffers while rows are appended; then owned by its ArrowArray. */
typedef struct dt__ea_columna {
    const void *buffers[3];
    int tipo;
    uint8_t *validez;  /* NULL for a column that cannot be null */
    int32_t *offsets;  /* utf8 */
    char *texto;       /* utf8 bytes */
    size_t largo, cap;
    void *valores;     /* int64, or int32 for date32 */
} dt__ea_columna;

static void dt__ea_columna_liberar(dt__ea_columna *c) {
    if (c == NULL) return;
    free(c->validez);
    free(c->offsets);
    free(c->texto);
    free(c->valores);
    free(c);
}

/* A child owns its column (a consumer may move a child out and release the parent first). */
static void dt__ea_array_hijo_release(struct ArrowArray *a) {
    if (a->release == NULL) return;
    dt__ea_columna_liberar((dt__ea_columna *)a->private_data);
    a->release = NULL;
}

/* The block a batch's private_data owns: the struct array's one buffer pointer (no validity: rows
 * are never null), then the children's pointers and structs (one block, sized by the columns). */
typedef struct dt__ea_lote {
    const void *buffers[1];
    struct ArrowArray **hijos;
    struct ArrowArray *h;
} dt__ea_lote;

static void dt__ea_array_release(struct ArrowArray *a) {
    if (a->release == NULL) return;
    for (int64_t i = 0; i < a->n_children; i++) {
        struct ArrowArray *c = a->children[i];
        if (c->release) c->release(c);
    }
    free(a->private_data);
    a->release = NULL;
}

enum { DT__EA_MEMORIA = 1, DT__EA_2GIB = 2, DT__EA_FILAS = 3 }; /* why a batch failed */

static int dt__ea_anadir(dt__ea_columna *c, const char *s, size_t k) {
    if (c->largo + k > (size_t)INT32_MAX) return DT__EA_2GIB;
    if (c->largo + k > c->cap) {
        size_t cap = c->cap * 2 + k + 4096;
        char *d = (char *)realloc(c->texto, cap);
        if (d == NULL) return DT__EA_MEMORIA;
        c->texto = d;
        c->cap = cap;
    }
    if (k) memcpy(c->texto + c->largo, s, k);
    c->largo += k;
    return 0;
}

/* Integer text as dt_esquema_filas writes it (an optional '-', then digits) into an int64. */
static int64_t dt__ea_entero(const char *s, size_t k) {
    int neg = k > 0 && s[0] == '-';
    uint64_t x = 0;
    for (size_t q = (size_t)neg; q < k; q++) x = x * 10 + (uint64_t)(s[q] - '0');
    return neg ? (int64_t)(0 - x) : (int64_t)x;
}

/* "YYYY-MM-DD" -> days since 1970-01-01 */
static int32_t dt__ea_dias(const char *s) {
    int32_t y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    int32_t m = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    return (int32_t)dt__dias_desde_civil(y, m, d);
}

/* The text rows are asked for in pieces whose size query stays under this many bytes, so a batch
 * needs one modest buffer whatever its rows (a row's bound is about 1 KB per column group). */
#define DT__EA_TROZO_BYTES (1u << 20)

/* Rows [desde, desde + n) of `tabla` into the columns: 0, or why not. */
static int dt__ea_rellenar(const dt_esquema *e, size_t tabla, uint64_t desde, size_t n, size_t nc, dt__ea_columna **c,
                           int64_t *nulos) {
    size_t cota1;
    if (dt_esquema_filas(e, tabla, desde, n ? 1 : 0, NULL, 0, &cota1) != DT_ERR_BUFFER_TOO_SMALL) return DT__EA_FILAS;
    size_t trozo = cota1 < DT__EA_TROZO_BYTES ? DT__EA_TROZO_BYTES / cota1 : 1;
    if (trozo > n) trozo = n ? n : 1;
    size_t cap = trozo * cota1 + 1; /* k rows' bound is k * (cota1 - 1) + 1: this always suffices */
    char *buf = (char *)malloc(cap);
    if (buf == NULL) return DT__EA_MEMORIA;
    int fallo = 0;
    for (size_t i = 0; i < n && !fallo;) {
        size_t k = n - i < trozo ? n - i : trozo, len;
        dt_status st = dt_esquema_filas(e, tabla, desde + i, k, buf, cap, &len);
        if (st != DT_OK) {
            fallo = st == DT_ERR_NO_MEMORY ? DT__EA_MEMORIA : DT__EA_FILAS;
            break;
        }
        const char *p = buf;
        for (size_t r = i; r < i + k && !fallo; r++) {
            for (size_t j = 0; j < nc; j++) {
                /* a field ends at DT_FIELD_SEP, or at the row's '\n' after the last column */
                const char *f = p;
                while (*p != DT_FIELD_SEP && *p != '\n') p++;
                size_t largo = (size_t)(p - f);
                p++;
                int nulo = largo == 1 && f[0] == DT_NULO;
                dt__ea_columna *col = c[j];
                if (nulo) nulos[j]++;
                else if (col->validez) col->validez[r >> 3] |= (uint8_t)(1u << (r & 7));
                if (col->tipo == DT__EA_UTF8) {
                    if (!nulo && (fallo = dt__ea_anadir(col, f, largo)) != 0) break;
                    col->offsets[r + 1] = (int32_t)col->largo;
                } else if (col->tipo == DT__EA_INT64) {
                    ((int64_t *)col->valores)[r] = nulo ? 0 : dt__ea_entero(f, largo);
                } else {
                    ((int32_t *)col->valores)[r] = nulo || largo != 10 ? 0 : dt__ea_dias(f);
                }
            }
        }
        i += k;
    }
    free(buf);
    return fallo;
}

dt_status dt_esquema_arrow_lote(const dt_esquema *e, size_t tabla, uint64_t desde, size_t n, struct ArrowArray *out) {
    if (e == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    if (tabla >= dt_esquema_tablas(e)) return DT_ERR_INVALID_ARG;
    uint64_t filas = dt_esquema_tabla_filas(e, tabla);
    if (desde > filas || n > filas - desde || n > (size_t)INT32_MAX) return DT_ERR_INVALID_ARG;
    size_t nc = dt_esquema_columnas(e, tabla);
    dt__ea_lote *L = (dt__ea_lote *)malloc(sizeof *L + nc * (sizeof(struct ArrowArray *) + sizeof(struct ArrowArray)));
    dt__ea_columna **c = (dt__ea_columna **)calloc(nc + 1, sizeof *c);
    int64_t *nulos = (int64_t *)calloc(nc + 1, sizeof *nulos);
    int fallo = L == NULL || c == NULL || nulos == NULL ? DT__EA_MEMORIA : 0;
    for (size_t j = 0; j < nc && !fallo; j++) {
        dt_esquema_columna_info info;
        dt_esquema_columna(e, tabla, j, &info);
        dt__ea_columna *col = c[j] = (dt__ea_columna *)calloc(1, sizeof **c);
        if (col == NULL) {
            fallo = DT__EA_MEMORIA;
            break;
        }
        col->tipo = dt__ea_tipo(info.tipo_sql);
        if (info.nulable && (col->validez = (uint8_t *)calloc((n + 7) / 8 + 1, 1)) == NULL) fallo = DT__EA_MEMORIA;
        if (col->tipo == DT__EA_UTF8) {
            if ((col->offsets = (int32_t *)malloc((n + 1) * sizeof(int32_t))) == NULL) fallo = DT__EA_MEMORIA;
            else col->offsets[0] = 0;
            if (!fallo) fallo = dt__ea_anadir(col, "", 0);
        } else if ((col->valores = malloc(n * (col->tipo == DT__EA_INT64 ? 8 : 4) + 8)) == NULL) {
            fallo = DT__EA_MEMORIA;
        }
    }
    if (!fallo) fallo = dt__ea_rellenar(e, tabla, desde, n, nc, c, nulos);
    if (fallo) {
        for (size_t j = 0; c && j < nc; j++) dt__ea_columna_liberar(c[j]);
        free(c);
        free(nulos);
        free(L);
        return fallo == DT__EA_MEMORIA ? DT_ERR_NO_MEMORY : DT_ERR_INVALID_ARG;
    }
    L->hijos = (struct ArrowArray **)(L + 1);
    L->h = (struct ArrowArray *)(L->hijos + nc);
    for (size_t j = 0; j < nc; j++) {
        dt__ea_columna *col = c[j];
        struct ArrowArray *a = &L->h[j];
        col->buffers[0] = nulos[j] ? col->validez : NULL; /* no nulls: the bitmap may be omitted */
        if (col->tipo == DT__EA_UTF8) {
            col->buffers[1] = col->offsets;
            col->buffers[2] = col->texto;
            a->n_buffers = 3;
        } else {
            col->buffers[1] = col->valores;
            a->n_buffers = 2;
        }
        a->length = (int64_t)n;
        a->null_count = nulos[j];
        a->offset = 0;
        a->n_children = 0;
        a->buffers = col->buffers;
        a->children = NULL;
        a->dictionary = NULL;
        a->release = dt__ea_array_hijo_release;
        a->private_data = col;
        L->hijos[j] = a;
    }
    free(c);
    free(nulos);
    L->buffers[0] = NULL;
    out->length = (int64_t)n;
    out->null_count = 0;
    out->offset = 0;
    out->n_buffers = 1;
    out->n_children = (int64_t)nc;
    out->buffers = L->buffers;
    out->children = L->hijos;
    out->dictionary = NULL;
    out->release = dt__ea_array_release;
    out->private_data = L;
    return DT_OK;
}

/* ---- stream ---- */

typedef struct dt__ea_flujo {
    const dt_esquema *e; /* borrowed, unless `propio` */
    dt_esquema *propio;  /* freed with the stream (dt_esquema_arrow_stream_new with propio = 1) */
    size_t tabla;
    uint64_t siguiente, fin;
    size_t lote;
    char error[160];
} dt__ea_flujo;

static int dt__ea_flujo_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
    dt__ea_flujo *f = (dt__ea_flujo *)s->private_data;
    dt_status st = dt_esquema_arrow_schema(f->e, f->tabla, out);
    if (st == DT_OK) return 0;
    snprintf(f->error, sizeof f->error, "datoteca: schema: %s", dt_status_str((int)st));
    return 12; /* ENOMEM */
}

static int dt__ea_flujo_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
    dt__ea_flujo *f = (dt__ea_flujo *)s->private_data;
    if (f->siguiente >= f->fin) { /* the end: a released array */
        memset(out, 0, sizeof *out);
        out->release = NULL;
        return 0;
    }
    uint64_t quedan = f->fin - f->siguiente;
    size_t n = quedan < f->lote ? (size_t)quedan : f->lote;
    dt_status st = dt_esquema_arrow_lote(f->e, f->tabla, f->siguiente, n, out);
    if (st != DT_OK) {
        snprintf(f->error, sizeof f->error, "datoteca: %s rows %llu..%llu: %s", dt_esquema_tabla(f->e, f->tabla),
                 (unsigned long long)f->siguiente, (unsigned long long)(f->siguiente + n), dt_status_str((int)st));
        return st == DT_ERR_NO_MEMORY ? 12 : 22; /* ENOMEM, EINVAL */
    }
    f->siguiente += n;
    return 0;
}

static const char *dt__ea_flujo_error(struct ArrowArrayStream *s) {
    dt__ea_flujo *f = (dt__ea_flujo *)s->private_data;
    return f->error[0] ? f->error : NULL;
}

static void dt__ea_flujo_release(struct ArrowArrayStream *s) {
    if (s->release == NULL) return;
    dt__ea_flujo *f = (dt__ea_flujo *)s->private_data;
    dt_esquema_free(f->propio);
    free(f);
    s->release = NULL;
}

dt_status dt_esquema_arrow_stream(const dt_esquema *e, size_t tabla, uint64_t desde, uint64_t n, size_t filas_por_lote,
                                  struct ArrowArrayStream *out) {
    if (e == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    if (tabla >= dt_esquema_tablas(e)) return DT_ERR_INVALID_ARG;
    uint64_t filas = dt_esquema_tabla_filas(e, tabla);
    if (filas_por_lote == 0 || filas_por_lote > (1u << 20) || desde > filas || n > filas - desde) return DT_ERR_INVALID_ARG;
    dt__ea_flujo *f = (dt__ea_flujo *)calloc(1, sizeof *f);
    if (f == NULL) return DT_ERR_NO_MEMORY;
    f->e = e;
    f->tabla = tabla;
    f->siguiente = desde;
    f->fin = desde + n;
    f->lote = filas_por_lote;
    out->get_schema = dt__ea_flujo_schema;
    out->get_next = dt__ea_flujo_next;
    out->get_last_error = dt__ea_flujo_error;
    out->release = dt__ea_flujo_release;
    out->private_data = f;
    return DT_OK;
}

struct ArrowArrayStream *dt_esquema_arrow_stream_new(dt_esquema *e, size_t tabla, uint64_t desde, uint64_t n,
                                                       size_t filas_por_lote, int propio) {
    struct ArrowArrayStream *s = (struct ArrowArrayStream *)malloc(sizeof *s);
    if (s == NULL) return NULL;
    if (dt_esquema_arrow_stream(e, tabla, desde, n, filas_por_lote, s) != DT_OK) {
        free(s);
        return NULL;
    }
    if (propio) ((dt__ea_flujo *)s->private_data)->propio = e;
    return s;
}
