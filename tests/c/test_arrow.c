/* The Arrow C Data Interface producer: shapes, buffers, nulls, dates, release callbacks (children
 * moved out before the parent is released, as a consumer may do), and the stream. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"

static dt_tabla *nueva(const char *call, const char *campos, const char *unico, const char *nulos) {
    size_t i = 0;
    dt_call_find(call, strlen(call), &i);
    dt_tabla_opciones o = {sizeof o, i, NULL, 0, 11, NULL, 0, 0, 0, 0, campos, unico, nulos, NULL};
    dt_tabla *t = NULL;
    char why[512];
    dt_status st = dt_tabla_new(&o, &t, why, sizeof why);
    CHECK(st == DT_OK, "%s: %s", call, why);
    return t;
}

int main(void) {
    dt_tabla *t = nueva("persona.persona", "rut,fecha_nacimiento,comuna,email", "rut", "comuna:300");
    struct ArrowSchema s;
    CHECK_OK(dt_tabla_arrow_schema(t, &s), "schema");
    CHECK(strcmp(s.format, "+s") == 0 && s.n_children == 4, "schema %s %lld", s.format, (long long)s.n_children);
    CHECK(strcmp(s.children[0]->format, "u") == 0 && strcmp(s.children[0]->name, "rut") == 0 && s.children[0]->flags == 0, "rut");
    CHECK(strcmp(s.children[1]->format, "tdD") == 0, "fecha_nacimiento is date32");
    CHECK(s.children[2]->flags == ARROW_FLAG_NULLABLE && s.children[3]->flags == ARROW_FLAG_NULLABLE, "nullable flags");
    /* a consumer moves a child out, then releases the parent, then the child */
    struct ArrowSchema movido = *s.children[1];
    s.children[1]->release = NULL;
    s.release(&s);
    CHECK(s.release == NULL && strcmp(movido.name, "fecha_nacimiento") == 0, "moved child schema survives its parent");
    movido.release(&movido);

    enum { N = 10000 }; /* above DT__ARROW_HILO_MIN: both halves of a two-thread batch are checked */
    struct ArrowArray a;
    CHECK_OK(dt_tabla_arrow_lote(t, 100, N, 2, &a), "lote");
    struct ArrowArray uno;
    CHECK_OK(dt_tabla_arrow_lote(t, 100, N, 1, &uno), "lote, one thread");
    for (int64_t j = 0; j < 4; j++) {
        const struct ArrowArray *x = a.children[j], *y = uno.children[j];
        CHECK(x->null_count == y->null_count && x->n_buffers == y->n_buffers, "column %lld: two threads vs one", (long long)j);
        if (x->n_buffers == 3) {
            const int32_t *ox = (const int32_t *)x->buffers[1], *oy = (const int32_t *)y->buffers[1];
            CHECK(memcmp(ox, oy, (N + 1) * sizeof(int32_t)) == 0 && memcmp(x->buffers[2], y->buffers[2], (size_t)ox[N]) == 0,
                  "column %lld: two threads give other bytes", (long long)j);
        }
    }
    uno.release(&uno);
    CHECK(a.length == N && a.n_children == 4 && a.n_buffers == 1, "batch shape");
    size_t cap = DT_CALL_MANY_BOUND(N), len;
    char *texto = (char *)malloc(cap);
    CHECK_OK(dt_tabla_filas(t, 100, N, texto, cap, &len), "filas");
    const struct ArrowArray *rut = a.children[0], *comuna = a.children[2];
    const int32_t *off = (const int32_t *)rut->buffers[1];
    const char *datos = (const char *)rut->buffers[2];
    CHECK(off[0] == 0 && rut->null_count == 0 && rut->buffers[0] == NULL, "rut offsets/validity");
    const char *fila = texto;
    int64_t nulos = 0;
    for (int i = 0; i < N; i++) {
        size_t k = (size_t)(strchr(fila, DT_FIELD_SEP) - fila);
        CHECK((size_t)(off[i + 1] - off[i]) == k && memcmp(datos + off[i], fila, k) == 0, "row %d: rut differs from dt_tabla_filas", i);
        const uint8_t *val = (const uint8_t *)comuna->buffers[0];
        int valido = val == NULL || ((val[i >> 3] >> (i & 7)) & 1);
        nulos += !valido;
        fila = strchr(fila, '\n') + 1;
    }
    CHECK(comuna->null_count == nulos && nulos > N / 5 && nulos < N * 2 / 5, "comuna nulls %lld (bitmap %lld)",
          (long long)comuna->null_count, (long long)nulos);
    /* date32 values are days since 1970: the first row's date as text gives the same day */
    const int32_t *dias = (const int32_t *)a.children[1]->buffers[1];
    CHECK(dias[0] > -30000 && dias[0] < 30000, "date32 %d", dias[0]);
    struct ArrowArray hijo = *a.children[0];
    a.children[0]->release = NULL;
    a.release(&a);
    CHECK(a.release == NULL && ((const int32_t *)hijo.buffers[1])[N] > 0, "moved child array survives its parent");
    hijo.release(&hijo);
    free(texto);

    struct ArrowArrayStream st;
    CHECK_OK(dt_tabla_arrow_stream(t, 0, 1000, 300, 2, &st), "stream");
    dt_tabla_free(t); /* the stream keeps its own copy */
    struct ArrowSchema ss;
    CHECK(st.get_schema(&st, &ss) == 0 && ss.n_children == 4, "stream schema");
    ss.release(&ss);
    int64_t total = 0, lotes = 0;
    for (;;) {
        struct ArrowArray b;
        CHECK(st.get_next(&st, &b) == 0, "get_next");
        if (b.release == NULL) break;
        total += b.length;
        lotes++;
        b.release(&b);
    }
    CHECK(total == 1000 && lotes == 4 && st.get_last_error(&st) == NULL, "stream: %lld rows in %lld batches", (long long)total,
          (long long)lotes);
    st.release(&st);
    CHECK(dt_tabla_arrow_stream(NULL, 0, 1, 1, 1, &st) == DT_ERR_NULL, "NULL dataset");
    struct ArrowArrayStream *p = dt_tabla_arrow_stream_new(NULL, 0, 1, 1, 1);
    CHECK(p == NULL, "nuevo with NULL");
    dt_arrow_stream_free(NULL);
    return dt_test_done("test_arrow");
}
