/* mascara_arrow: a masking plan over Arrow record batches (the C Data Interface), so every runtime
 * that holds columns (pyarrow, polars, pandas, Spark's mapInArrow) masks them here, one row at a time
 * through dt_mascara_plan_fila: the same values as `datoteca enmascarar` over the same rows, whatever
 * rules exist. Reads text columns as utf8, large_utf8 and utf8_view (what polars exports); writes
 * utf8 with the nulls below. Sentences name the row and the column, never a value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esquema/documento_interno.h"
#include "internal.h"
#include "nucleo/arrow_lote.h"

enum { DT__MA_UTF8 = 1, DT__MA_LARGE, DT__MA_VIEW };

static int dt__ma_formato(const char *f) {
    if (f == NULL) return 0;
    if (strcmp(f, "u") == 0) return DT__MA_UTF8;
    if (strcmp(f, "U") == 0) return DT__MA_LARGE;
    if (strcmp(f, "vu") == 0) return DT__MA_VIEW;
    return 0;
}

static void dt__ma_no(char *why, size_t whycap, const char *fmt, const char *nombre, size_t largo, const char *extra) {
    char cita[DT__DOC_CITE_BUF];
    dt__doc_cite_key(nombre, largo, cita);
    if (why && whycap) snprintf(why, whycap, fmt, cita, extra);
}

/* The batch's schema: a struct of text children with names. 0, or DT_ERR_INVALID_ARG with a sentence. */
static dt_status dt__ma_comprobar(const struct ArrowSchema *s, char *why, size_t whycap) {
    if (s->release == NULL || s->format == NULL || strcmp(s->format, "+s") != 0 || (s->n_children > 0 && s->children == NULL)) {
        if (why) dt__sentence_out("enmascarar: the Arrow schema is not a record batch's (a struct, format \"+s\", not released)", why, whycap, NULL);
        return DT_ERR_INVALID_ARG;
    }
    for (int64_t j = 0; j < s->n_children; j++) {
        const struct ArrowSchema *h = s->children[j];
        const char *nombre = h && h->name ? h->name : "";
        if (h == NULL || h->dictionary != NULL || dt__ma_formato(h->format) == 0) {
            dt__ma_no(why, whycap,
                      "enmascarar: column %s is Arrow type \"%s\", not text: masking reads utf8, large_utf8 and "
                      "utf8_view columns (cast it to a string first)",
                      nombre, strlen(nombre), h == NULL || h->format == NULL ? "?" : h->dictionary ? "dictionary" : h->format);
            return DT_ERR_INVALID_ARG;
        }
    }
    return DT_OK;
}

dt_status dt_mascara_plan_arrow(const dt_mascara_reglas *r, const dt_mascara_clave *k, const struct ArrowSchema *esquema,
                                dt_mascara_plan **out, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out) *out = NULL;
    if (r == NULL || k == NULL || esquema == NULL || out == NULL) {
        if (why) dt__sentence_out("plan: r, k, esquema and out must not be NULL", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    dt_status st = dt__ma_comprobar(esquema, why, whycap);
    if (st != DT_OK) return st;
    size_t n = (size_t)esquema->n_children;
    const char **nombres = (const char **)malloc((n + 1) * sizeof *nombres);
    size_t *largos = (size_t *)malloc((n + 1) * sizeof *largos);
    if (nombres == NULL || largos == NULL) {
        free(nombres);
        free(largos);
        if (why) dt__sentence_out("plan: out of memory", why, whycap, NULL);
        return DT_ERR_NO_MEMORY;
    }
    for (size_t j = 0; j < n; j++) {
        nombres[j] = esquema->children[j]->name ? esquema->children[j]->name : "";
        largos[j] = strlen(nombres[j]);
    }
    st = dt_mascara_plan_new(r, k, n, nombres, largos, out, why, whycap);
    free(nombres);
    free(largos);
    return st;
}

dt_status dt_mascara_arrow_schema(const dt_mascara_plan *p, struct ArrowSchema *out) {
    if (p == NULL || out == NULL) return DT_ERR_NULL;
    out->release = NULL;
    size_t n = dt_mascara_plan_ncolumnas(p);
    const char **nombres = (const char **)malloc((n + 1) * sizeof *nombres);
    size_t *largos = (size_t *)malloc((n + 1) * sizeof *largos);
    const char **formatos = (const char **)malloc((n + 1) * sizeof *formatos);
    int *nulables = (int *)malloc((n + 1) * sizeof *nulables);
    dt_status st = DT_ERR_NO_MEMORY;
    if (nombres && largos && formatos && nulables) {
        for (size_t i = 0; i < n; i++) {
            nombres[i] = dt_mascara_plan_columna(p, i, &largos[i]);
            formatos[i] = "u";
            nulables[i] = 1;
        }
        st = dt__al_schema(n, nombres, largos, formatos, nulables, out);
    }
    free(nombres);
    free(largos);
    free(formatos);
    free(nulables);
    return st;
}

struct ArrowSchema *dt_mascara_arrow_schema_new(const dt_mascara_plan *p) {
    struct ArrowSchema *s = (struct ArrowSchema *)malloc(sizeof *s);
    if (s == NULL) return NULL;
    if (dt_mascara_arrow_schema(p, s) != DT_OK) {
        free(s);
        return NULL;
    }
    return s;
}

static int dt__ma_bit(const void *validez, int64_t i) {
    return validez == NULL || (((const uint8_t *)validez)[i >> 3] >> (i & 7)) & 1;
}

/* Value i (the batch's row, child offsets applied here) of a text child: its bytes, or NULL for a null. */
static const char *dt__ma_valor(const struct ArrowArray *a, int tipo, int64_t i, size_t *len) {
    int64_t q = a->offset + i;
    *len = 0;
    if (a->null_count != 0 && !dt__ma_bit(a->buffers[0], q)) return NULL;
    if (tipo == DT__MA_UTF8) {
        const int32_t *o = (const int32_t *)a->buffers[1];
        *len = (size_t)(o[q + 1] - o[q]);
        return a->buffers[2] ? (const char *)a->buffers[2] + o[q] : "";
    }
    if (tipo == DT__MA_LARGE) {
        const int64_t *o = (const int64_t *)a->buffers[1];
        *len = (size_t)(o[q + 1] - o[q]);
        return a->buffers[2] ? (const char *)a->buffers[2] + o[q] : "";
    }
    /* a view: int32 length; up to 12 bytes inline, else a prefix, a data buffer's index and an offset */
    const uint8_t *v = (const uint8_t *)a->buffers[1] + 16 * q;
    int32_t largo, buffer, desde;
    memcpy(&largo, v, 4);
    *len = (size_t)largo;
    if (largo <= 12) return (const char *)v + 4;
    memcpy(&buffer, v + 8, 4);
    memcpy(&desde, v + 12, 4);
    return (const char *)a->buffers[2 + buffer] + desde;
}

/* The buffers a text child must have: the views' data buffers are checked by their count. */
static int dt__ma_buffers_bien(const struct ArrowArray *a, int tipo) {
    if (a == NULL || a->buffers == NULL) return 0;
    if (tipo == DT__MA_VIEW) return a->n_buffers >= 3 && (a->length == 0 || a->buffers[1] != NULL);
    return a->n_buffers == 3 && (a->length == 0 || a->buffers[1] != NULL);
}

dt_status dt_mascara_arrow_lote(dt_mascara_plan *p, const struct ArrowSchema *esquema, const struct ArrowArray *lote,
                                uint64_t primera, struct ArrowArray *out, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out) out->release = NULL;
    if (p == NULL || esquema == NULL || lote == NULL || out == NULL) {
        if (why) dt__sentence_out("enmascarar: p, esquema, lote and out must not be NULL", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    dt_status st = dt__ma_comprobar(esquema, why, whycap);
    if (st != DT_OK) return st;
    size_t n = (size_t)esquema->n_children, nsal = dt_mascara_plan_ncolumnas(p);
    if (lote->release == NULL || lote->n_children != esquema->n_children || (n > 0 && lote->children == NULL) ||
        lote->length < 0 || lote->length > INT32_MAX) {
        if (why)
            dt__sentence_out("enmascarar: the Arrow array is not a batch of this schema (released, another number of "
                             "columns, or over 2^31 rows)", why, whycap, NULL);
        return DT_ERR_INVALID_ARG;
    }
    size_t filas = (size_t)lote->length;
    int *tipo = (int *)malloc((n + 1) * sizeof *tipo);
    size_t *de = (size_t *)malloc((nsal + 1) * sizeof *de); /* output i is input de[i] */
    const char **vals = (const char **)malloc((n + 1) * sizeof *vals);
    size_t *lens = (size_t *)malloc((n + 1) * sizeof *lens);
    char *nulo = (char *)malloc(n + 1);
    dt__al_columna **c = (dt__al_columna **)calloc(nsal + 1, sizeof *c);
    if (tipo == NULL || de == NULL || vals == NULL || lens == NULL || nulo == NULL || c == NULL) goto sin_memoria;
    for (size_t j = 0; j < n; j++) {
        tipo[j] = dt__ma_formato(esquema->children[j]->format);
        if (!dt__ma_buffers_bien(lote->children[j], tipo[j]) || lote->children[j]->length < lote->offset + lote->length) {
            const char *nombre = esquema->children[j]->name ? esquema->children[j]->name : "";
            dt__ma_no(why, whycap, "enmascarar: column %s: its Arrow array has not the buffers or the rows of its type%s",
                      nombre, strlen(nombre), "");
            st = DT_ERR_INVALID_ARG;
            goto fin;
        }
    }
    /* the output's columns are the input's in order, less those dropped: matched by name (unique in a plan) */
    for (size_t i = 0, j = 0; i < nsal; i++) {
        size_t m;
        const char *s = dt_mascara_plan_columna(p, i, &m);
        while (j < n && !(strlen(esquema->children[j]->name ? esquema->children[j]->name : "") == m &&
                          memcmp(esquema->children[j]->name, s, m) == 0))
            j++;
        if (j == n) {
            dt__ma_no(why, whycap, "enmascarar: the plan's output column %s is not in the batch: the batch's columns "
                      "are not the header the plan was bound to%s", s, m, "");
            st = DT_ERR_INVALID_ARG;
            goto fin;
        }
        de[i] = j++;
    }
    for (size_t i = 0; i < nsal; i++)
        if ((c[i] = dt__al_columna_nueva(DT__AL_UTF8, filas, 1)) == NULL) goto sin_memoria;
    int nulos_fila = lote->null_count != 0 && lote->n_buffers >= 1 && lote->buffers && lote->buffers[0];
    for (size_t r = 0; r < filas; r++) {
        int fila_nula = nulos_fila && !dt__ma_bit(lote->buffers[0], lote->offset + (int64_t)r);
        for (size_t j = 0; j < n; j++) {
            const char *v = fila_nula ? NULL : dt__ma_valor(lote->children[j], tipo[j], lote->offset + (int64_t)r, &lens[j]);
            nulo[j] = v == NULL;
            vals[j] = v ? v : ""; /* a null goes into the plan as "", the CLI's empty field */
            if (v == NULL) lens[j] = 0;
        }
        st = dt_mascara_plan_fila(p, primera + r, n, vals, lens, why, whycap);
        if (st != DT_OK) goto fin;
        for (size_t i = 0; i < nsal; i++) {
            size_t m;
            const char *s = dt_mascara_plan_valor(p, i, &m);
            size_t j = de[i];
            /* a null stays null; a value the rule emptied (nulo, politica.invalido = "nulo") becomes null */
            int vacio = nulo[j] || (m == 0 && lens[j] > 0);
            int f = dt__al_texto(c[i], r, vacio ? NULL : s, m);
            if (f == DT__AL_MEMORIA) goto sin_memoria;
            if (f == DT__AL_2GIB) {
                size_t k;
                const char *nombre = dt_mascara_plan_columna(p, i, &k);
                dt__ma_no(why, whycap, "enmascarar: column %s: its masked text passes 2 GiB in one batch%s", nombre, k,
                          ": split the batch");
                st = DT_ERR_INVALID_ARG;
                goto fin;
            }
        }
    }
    st = dt__al_lote(filas, nsal, c, out);
    if (st != DT_OK) goto sin_memoria;
    free(c);
    c = NULL;
    goto fin;
sin_memoria:
    st = DT_ERR_NO_MEMORY;
    if (why) dt__sentence_out("enmascarar: out of memory", why, whycap, NULL);
fin:
    for (size_t i = 0; c && i < nsal; i++) dt__al_columna_liberar(c[i]);
    free(c);
    free(tipo);
    free(de);
    free(vals);
    free(lens);
    free(nulo);
    return st;
}
