/* arrow_lote: struct record batches of flat columns (nucleo/arrow_lote.h). */
#include <stdlib.h>
#include <string.h>

#include "nucleo/arrow_lote.h"

/* ---- schema ---- */

static void dt__al_schema_release(struct ArrowSchema *s) {
    if (s->release == NULL) return;
    for (int64_t i = 0; i < s->n_children; i++) {
        struct ArrowSchema *c = s->children[i];
        if (c->release) c->release(c);
    }
    free(s->private_data); /* children pointers and child structs, one block */
    s->release = NULL;
}

/* A child owns its name. */
static void dt__al_schema_hijo_release(struct ArrowSchema *s) {
    free(s->private_data);
    s->release = NULL;
}

dt_status dt__al_schema(size_t n, const char *const *nombres, const size_t *largos, const char *const *formatos,
                        const int *nulables, struct ArrowSchema *out) {
    out->release = NULL;
    void *bloque = malloc(n * (sizeof(struct ArrowSchema *) + sizeof(struct ArrowSchema)) + 1);
    if (bloque == NULL) return DT_ERR_NO_MEMORY;
    struct ArrowSchema **hijos = (struct ArrowSchema **)bloque;
    struct ArrowSchema *h = (struct ArrowSchema *)(hijos + n);
    for (size_t j = 0; j < n; j++) {
        size_t k = largos ? largos[j] : strlen(nombres[j]);
        char *nombre = (char *)malloc(k + 1);
        if (nombre == NULL) {
            for (size_t q = 0; q < j; q++) free(h[q].private_data);
            free(bloque);
            return DT_ERR_NO_MEMORY;
        }
        if (k) memcpy(nombre, nombres[j], k);
        nombre[k] = '\0';
        h[j].format = formatos[j];
        h[j].name = nombre;
        h[j].metadata = NULL;
        h[j].flags = nulables[j] ? ARROW_FLAG_NULLABLE : 0;
        h[j].n_children = 0;
        h[j].children = NULL;
        h[j].dictionary = NULL;
        h[j].release = dt__al_schema_hijo_release;
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
    out->release = dt__al_schema_release;
    out->private_data = bloque;
    return DT_OK;
}

/* ---- columns ---- */

void dt__al_columna_liberar(dt__al_columna *c) {
    if (c == NULL) return;
    free(c->validez);
    free(c->offsets);
    free(c->texto);
    free(c->valores);
    free(c);
}

static int dt__al_anadir(dt__al_columna *c, const char *s, size_t k) {
    if (c->largo + k > (size_t)INT32_MAX) return DT__AL_2GIB;
    if (c->largo + k > c->cap) {
        size_t cap = c->cap * 2 + k + 4096;
        char *d = (char *)realloc(c->texto, cap);
        if (d == NULL) return DT__AL_MEMORIA;
        c->texto = d;
        c->cap = cap;
    }
    if (k) memcpy(c->texto + c->largo, s, k);
    c->largo += k;
    return 0;
}

dt__al_columna *dt__al_columna_nueva(int tipo, size_t n, int nulable) {
    dt__al_columna *c = (dt__al_columna *)calloc(1, sizeof *c);
    if (c == NULL) return NULL;
    c->tipo = tipo;
    int fallo = nulable && (c->validez = (uint8_t *)calloc((n + 7) / 8 + 1, 1)) == NULL;
    if (tipo == DT__AL_UTF8) {
        if ((c->offsets = (int32_t *)malloc((n + 1) * sizeof(int32_t))) == NULL) fallo = 1;
        else c->offsets[0] = 0;
        if (!fallo) fallo = dt__al_anadir(c, "", 0); /* a data buffer even for no bytes */
    } else if ((c->valores = malloc(n * (tipo == DT__AL_INT64 ? 8 : 4) + 8)) == NULL) {
        fallo = 1;
    }
    if (fallo) {
        dt__al_columna_liberar(c);
        return NULL;
    }
    return c;
}

int dt__al_texto(dt__al_columna *c, size_t r, const char *s, size_t k) {
    if (s == NULL) c->nulos++;
    else {
        int f = dt__al_anadir(c, s, k);
        if (f) return f;
        if (c->validez) c->validez[r >> 3] |= (uint8_t)(1u << (r & 7));
    }
    c->offsets[r + 1] = (int32_t)c->largo;
    return 0;
}

void dt__al_valor(dt__al_columna *c, size_t r, int64_t v, int nulo) {
    if (nulo) {
        c->nulos++;
        v = 0;
    } else if (c->validez) c->validez[r >> 3] |= (uint8_t)(1u << (r & 7));
    if (c->tipo == DT__AL_INT64) ((int64_t *)c->valores)[r] = v;
    else ((int32_t *)c->valores)[r] = (int32_t)v;
}

/* ---- batches ---- */

/* A child owns its column. */
static void dt__al_array_hijo_release(struct ArrowArray *a) {
    if (a->release == NULL) return;
    dt__al_columna_liberar((dt__al_columna *)a->private_data);
    a->release = NULL;
}

/* The block a batch's private_data owns: the struct array's one buffer pointer (no validity: rows
 * are never null), then the children's pointers and structs. */
typedef struct dt__al_bloque {
    const void *buffers[1];
} dt__al_bloque;

static void dt__al_array_release(struct ArrowArray *a) {
    if (a->release == NULL) return;
    for (int64_t i = 0; i < a->n_children; i++) {
        struct ArrowArray *c = a->children[i];
        if (c->release) c->release(c);
    }
    free(a->private_data);
    a->release = NULL;
}

dt_status dt__al_lote(size_t n, size_t nc, dt__al_columna **c, struct ArrowArray *out) {
    out->release = NULL;
    dt__al_bloque *L = (dt__al_bloque *)malloc(sizeof *L + nc * (sizeof(struct ArrowArray *) + sizeof(struct ArrowArray)));
    if (L == NULL) return DT_ERR_NO_MEMORY;
    struct ArrowArray **hijos = (struct ArrowArray **)(L + 1);
    struct ArrowArray *h = (struct ArrowArray *)(hijos + nc);
    for (size_t j = 0; j < nc; j++) {
        dt__al_columna *col = c[j];
        struct ArrowArray *a = &h[j];
        col->buffers[0] = col->nulos ? col->validez : NULL; /* no nulls: the bitmap may be omitted */
        if (col->tipo == DT__AL_UTF8) {
            col->buffers[1] = col->offsets;
            col->buffers[2] = col->texto;
            a->n_buffers = 3;
        } else {
            col->buffers[1] = col->valores;
            a->n_buffers = 2;
        }
        a->length = (int64_t)n;
        a->null_count = col->nulos;
        a->offset = 0;
        a->n_children = 0;
        a->buffers = col->buffers;
        a->children = NULL;
        a->dictionary = NULL;
        a->release = dt__al_array_hijo_release;
        a->private_data = col;
        hijos[j] = a;
    }
    L->buffers[0] = NULL;
    out->length = (int64_t)n;
    out->null_count = 0;
    out->offset = 0;
    out->n_buffers = 1;
    out->n_children = (int64_t)nc;
    out->buffers = L->buffers;
    out->children = hijos;
    out->dictionary = NULL;
    out->release = dt__al_array_release;
    out->private_data = L;
    return DT_OK;
}
