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

#include "nucleo/arrow_lote.h"

static int dt__ea_tipo(const char *tipo_sql) {
    if (strcmp(tipo_sql, "date") == 0) return DT__AL_DATE32;
    if (strcmp(tipo_sql, "integer") == 0 || strcmp(tipo_sql, "bigint") == 0) return DT__AL_INT64;
    return DT__AL_UTF8;
}

/* ---- schema ---- */

dt_status dt_esquema_arrow_schema(const dt_esquema *e, size_t tabla, struct ArrowSchema *out) {
    if (e == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    if (tabla >= dt_esquema_tablas(e)) return DT_ERR_INVALID_ARG;
    size_t n = dt_esquema_columnas(e, tabla);
    const char **nombres = (const char **)malloc((n + 1) * sizeof *nombres);
    const char **formatos = (const char **)malloc((n + 1) * sizeof *formatos);
    int *nulables = (int *)malloc((n + 1) * sizeof *nulables);
    dt_status st = DT_ERR_NO_MEMORY;
    if (nombres && formatos && nulables) {
        static const char *const fmt[] = {"u", "l", "tdD"};
        for (size_t j = 0; j < n; j++) {
            dt_esquema_columna_info c;
            dt_esquema_columna(e, tabla, j, &c);
            nombres[j] = c.nombre;
            formatos[j] = fmt[dt__ea_tipo(c.tipo_sql)];
            nulables[j] = c.nulable;
        }
        st = dt__al_schema(n, nombres, NULL, formatos, nulables, out);
    }
    free(nombres);
    free(formatos);
    free(nulables);
    return st;
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

enum { DT__EA_FILAS = 3 }; /* why a batch failed, beside DT__AL_MEMORIA and DT__AL_2GIB */

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
static int dt__ea_rellenar(const dt_esquema *e, size_t tabla, uint64_t desde, size_t n, size_t nc, dt__al_columna **c) {
    size_t cota1;
    if (dt_esquema_filas(e, tabla, desde, n ? 1 : 0, NULL, 0, &cota1) != DT_ERR_BUFFER_TOO_SMALL) return DT__EA_FILAS;
    size_t trozo = cota1 < DT__EA_TROZO_BYTES ? DT__EA_TROZO_BYTES / cota1 : 1;
    if (trozo > n) trozo = n ? n : 1;
    size_t cap = trozo * cota1 + 1; /* k rows' bound is k * (cota1 - 1) + 1: this always suffices */
    char *buf = (char *)malloc(cap);
    if (buf == NULL) return DT__AL_MEMORIA;
    int fallo = 0;
    for (size_t i = 0; i < n && !fallo;) {
        size_t k = n - i < trozo ? n - i : trozo, len;
        dt_status st = dt_esquema_filas(e, tabla, desde + i, k, buf, cap, &len);
        if (st != DT_OK) {
            fallo = st == DT_ERR_NO_MEMORY ? DT__AL_MEMORIA : DT__EA_FILAS;
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
                dt__al_columna *col = c[j];
                if (col->tipo == DT__AL_UTF8) {
                    if ((fallo = dt__al_texto(col, r, nulo ? NULL : f, largo)) != 0) break;
                } else if (col->tipo == DT__AL_INT64) {
                    dt__al_valor(col, r, nulo ? 0 : dt__ea_entero(f, largo), nulo);
                } else {
                    dt__al_valor(col, r, nulo || largo != 10 ? 0 : dt__ea_dias(f), nulo);
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
    dt__al_columna **c = (dt__al_columna **)calloc(nc + 1, sizeof *c);
    int fallo = c == NULL ? DT__AL_MEMORIA : 0;
    for (size_t j = 0; j < nc && !fallo; j++) {
        dt_esquema_columna_info info;
        dt_esquema_columna(e, tabla, j, &info);
        if ((c[j] = dt__al_columna_nueva(dt__ea_tipo(info.tipo_sql), n, info.nulable)) == NULL) fallo = DT__AL_MEMORIA;
    }
    if (!fallo) fallo = dt__ea_rellenar(e, tabla, desde, n, nc, c);
    if (!fallo && dt__al_lote(n, nc, c, out) != DT_OK) fallo = DT__AL_MEMORIA;
    if (fallo)
        for (size_t j = 0; c && j < nc; j++) dt__al_columna_liberar(c[j]);
    free(c);
    if (fallo) return fallo == DT__AL_MEMORIA ? DT_ERR_NO_MEMORY : DT_ERR_INVALID_ARG;
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
