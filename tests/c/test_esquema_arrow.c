/* A schema table as Arrow (dt_esquema_arrow_*): the shapes and types, every value of every table equal
 * to dt_esquema_filas' text (dates turned back into text by this test's own calendar walk, integers
 * printed by printf), nulls as validity bits, batches that cover a range whatever their size, children
 * moved out before their parent is released, a stream that owns its schema, and the refusals. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"

static const char banco[] =
    "[tablas.clientes]\n"
    "filas = 700\n"
    "[tablas.clientes.columnas]\n"
    "id = { serie = true }\n"
    "persona = { llamada = \"persona.persona\", campos = [\"rut\", \"nombres\", \"fecha_nacimiento\", \"email\", \"telefono\"], "
    "unico = [\"rut\"], nulos = { email = 300, telefono = 100 } }\n"
    "[tablas.cuentas]\n"
    "por = \"clientes\"\n"
    "cuantos = { min = 0, max = 3 }\n"
    "[tablas.cuentas.columnas]\n"
    "id = { serie = true }\n"
    "cliente_id = { ref = \"clientes.id\" }\n"
    "titular = { ref = \"clientes.rut\" }\n"
    "tipo = { elegir = { corriente = 3, vista = 5, \"cuenta RUT\" = 2 } }\n"
    "apertura = { llamada = \"fecha.fecha\", desde = -3650, hasta = -30 }\n"
    "[tablas.movimientos]\n"
    "por = \"cuentas\"\n"
    "cuantos = { min = 1, max = 6 }\n"
    "[tablas.movimientos.columnas]\n"
    "id = { serie = true }\n"
    "cuenta_id = { ref = \"cuentas.id\" }\n"
    "monto = { llamada = \"dinero.monto\", min = 1000, max = 500000 }\n"
    "[tablas.vacia]\n"
    "filas = 0\n"
    "[tablas.vacia.columnas]\n"
    "id = { serie = true }\n";

/* Days since 1970-01-01 as "YYYY-MM-DD", by walking years and months (not the library's formula). */
static void fecha(int32_t dias, char out[11]) {
    static const int mes[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y = 1970, m = 0;
    int64_t d = dias;
    for (;;) {
        int largo = 365 + ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0);
        if (d < 0) {
            y--;
            d += 365 + ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0);
        } else if (d >= largo) {
            d -= largo;
            y++;
        } else {
            break;
        }
    }
    for (;;) {
        int largo = mes[m] + (m == 1 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
        if (d < largo) break;
        d -= largo;
        m++;
    }
    snprintf(out, 11, "%04d-%02d-%02d", y, m + 1, (int)d + 1);
}

static char *texto_de(const dt_esquema *e, size_t t, uint64_t desde, size_t n) {
    size_t cap = 0, len = 0;
    dt_esquema_filas(e, t, desde, n, NULL, 0, &cap);
    char *buf = (char *)malloc(cap);
    CHECK_OK(dt_esquema_filas(e, t, desde, n, buf, cap, &len), "filas %zu", t);
    return buf;
}

/* Row i of `a` (rows desde.. of table t) equals the text rows, column by column. */
static void comparar(const dt_esquema *e, size_t t, uint64_t desde, const struct ArrowArray *a, const struct ArrowSchema *s) {
    size_t n = (size_t)a->length, nc = dt_esquema_columnas(e, t);
    char *texto = texto_de(e, t, desde, n);
    const char *p = texto;
    CHECK(a->n_children == (int64_t)nc && a->n_buffers == 1 && a->null_count == 0 && a->offset == 0, "table %zu: batch shape", t);
    int64_t *nulos = (int64_t *)calloc(nc + 1, sizeof *nulos);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < nc; j++) {
            const char *f = p;
            while (*p != DT_FIELD_SEP && *p != '\n') p++;
            size_t k = (size_t)(p - f);
            p++;
            const struct ArrowArray *c = a->children[j];
            const uint8_t *val = (const uint8_t *)c->buffers[0];
            int valido = val == NULL || ((val[i >> 3] >> (i & 7)) & 1);
            int nulo = k == 1 && f[0] == DT_NULO;
            const char *fmt = s->children[j]->format;
            CHECK(valido == !nulo, "%s row %llu column %s: null %d, validity bit %d", dt_esquema_tabla(e, t),
                  (unsigned long long)(desde + i), s->children[j]->name, nulo, valido);
            nulos[j] += nulo;
            if (nulo) continue;
            char got[64];
            const char *g = got;
            size_t gk;
            if (strcmp(fmt, "u") == 0) {
                const int32_t *off = (const int32_t *)c->buffers[1];
                g = (const char *)c->buffers[2] + off[i];
                gk = (size_t)(off[i + 1] - off[i]);
            } else if (strcmp(fmt, "l") == 0) {
                gk = (size_t)snprintf(got, sizeof got, "%lld", (long long)((const int64_t *)c->buffers[1])[i]);
            } else {
                fecha(((const int32_t *)c->buffers[1])[i], got);
                gk = 10;
            }
            CHECK(gk == k && memcmp(g, f, k) == 0, "%s row %llu column %s (%s): Arrow '%.*s', text '%.*s'", dt_esquema_tabla(e, t),
                  (unsigned long long)(desde + i), s->children[j]->name, fmt, (int)gk, g, (int)k, f);
        }
    }
    for (size_t j = 0; j < nc; j++)
        CHECK(a->children[j]->null_count == nulos[j] && a->children[j]->length == (int64_t)n, "%s column %zu: null_count %lld, counted %lld",
              dt_esquema_tabla(e, t), j, (long long)a->children[j]->null_count, (long long)nulos[j]);
    free(nulos);
    free(texto);
}

int main(void) {
    dt_esquema *e = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_esquema_new(banco, strlen(banco), DT_ESQUEMA_TOML, "banco.toml", 7, 2026, 6, 1, &e, why, sizeof why);
    CHECK(st == DT_OK, "dt_esquema_new: %s", why);
    if (e == NULL) return 1;

    /* the schema: names, types and nullability from dt_esquema_columna */
    size_t cl = 0;
    dt_esquema_buscar(e, "clientes", 8, &cl);
    struct ArrowSchema s;
    CHECK_OK(dt_esquema_arrow_schema(e, cl, &s), "schema");
    static const char *const nombres[] = {"id", "rut", "nombres", "fecha_nacimiento", "email", "telefono"};
    static const char *const formatos[] = {"l", "u", "u", "tdD", "u", "u"};
    static const int64_t banderas[] = {0, 0, 0, 0, ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE};
    CHECK(strcmp(s.format, "+s") == 0 && s.n_children == 6 && s.metadata == NULL, "clientes schema %s %lld", s.format,
          (long long)s.n_children);
    for (int j = 0; j < 6 && j < s.n_children; j++)
        CHECK(strcmp(s.children[j]->name, nombres[j]) == 0 && strcmp(s.children[j]->format, formatos[j]) == 0 &&
                  s.children[j]->flags == banderas[j],
              "clientes column %d: %s %s flags %lld", j, s.children[j]->name, s.children[j]->format, (long long)s.children[j]->flags);
    struct ArrowSchema movido = *s.children[3];
    s.children[3]->release = NULL;
    s.release(&s);
    CHECK(s.release == NULL && strcmp(movido.name, "fecha_nacimiento") == 0, "a moved child schema survives its parent");
    movido.release(&movido);

    /* every table, whole, as one stream of batches of 97 rows (a batch boundary inside a parent's
     * children), compared with the text rows batch by batch */
    size_t total_lotes = 0;
    for (size_t t = 0; t < dt_esquema_tablas(e); t++) {
        uint64_t filas = dt_esquema_tabla_filas(e, t);
        struct ArrowArrayStream flujo;
        CHECK_OK(dt_esquema_arrow_stream(e, t, 0, filas, 97, &flujo), "stream %zu", t);
        struct ArrowSchema fs;
        CHECK(flujo.get_schema(&flujo, &fs) == 0, "get_schema");
        uint64_t visto = 0;
        for (;;) {
            struct ArrowArray a;
            CHECK(flujo.get_next(&flujo, &a) == 0, "get_next: %s", flujo.get_last_error(&flujo));
            if (a.release == NULL) break;
            CHECK(a.length == (int64_t)(filas - visto < 97 ? filas - visto : 97), "%s: batch of %lld rows at %llu",
                  dt_esquema_tabla(e, t), (long long)a.length, (unsigned long long)visto);
            comparar(e, t, visto, &a, &fs);
            visto += (uint64_t)a.length;
            total_lotes++;
            a.release(&a);
        }
        CHECK(visto == filas, "%s: the stream gave %llu of %llu rows", dt_esquema_tabla(e, t), (unsigned long long)visto,
              (unsigned long long)filas);
        CHECK(flujo.get_last_error(&flujo) == NULL, "no error after the end");
        fs.release(&fs);
        flujo.release(&flujo);
        CHECK(flujo.release == NULL, "released");
    }
    CHECK(total_lotes > 20, "only %zu batches", total_lotes);

    /* a slice in the middle of a fan-out is the same rows of the whole table, and its nulls are counted */
    size_t mv = 0, cu = 0;
    dt_esquema_buscar(e, "movimientos", 11, &mv);
    dt_esquema_buscar(e, "cuentas", 7, &cu);
    struct ArrowArray a;
    CHECK_OK(dt_esquema_arrow_lote(e, mv, 1234, 1000, &a), "lote");
    CHECK_OK(dt_esquema_arrow_schema(e, mv, &s), "schema");
    comparar(e, mv, 1234, &a, &s);
    s.release(&s);
    struct ArrowArray hijo = *a.children[2];
    a.children[2]->release = NULL;
    a.release(&a);
    CHECK(a.release == NULL && ((const int64_t *)hijo.buffers[1])[999] >= 1000, "a moved child array survives its parent");
    hijo.release(&hijo);
    CHECK_OK(dt_esquema_arrow_lote(e, cl, 0, 700, &a), "clientes");
    CHECK(a.children[4]->null_count > 150 && a.children[4]->null_count < 270 && a.children[1]->buffers[0] == NULL,
          "email nulls %lld of 700 at 300 per mille; rut has no bitmap", (long long)a.children[4]->null_count);
    a.release(&a);
    CHECK_OK(dt_esquema_arrow_lote(e, cu, dt_esquema_tabla_filas(e, cu), 0, &a), "an empty batch at the end");
    CHECK(a.length == 0 && a.n_children == 5, "empty batch");
    a.release(&a);

    /* refusals: nothing allocated, release NULL */
    struct ArrowArrayStream flujo;
    uint64_t fm = dt_esquema_tabla_filas(e, mv);
    CHECK(dt_esquema_arrow_stream(e, 99, 0, 1, 10, &flujo) == DT_ERR_INVALID_ARG && flujo.release == NULL, "table out of range");
    CHECK(dt_esquema_arrow_stream(e, mv, fm, 1, 10, &flujo) == DT_ERR_INVALID_ARG, "past the rows");
    CHECK(dt_esquema_arrow_stream(e, mv, 1, fm, 10, &flujo) == DT_ERR_INVALID_ARG, "desde + n past the rows");
    CHECK(dt_esquema_arrow_stream(e, mv, 0, 1, 0, &flujo) == DT_ERR_INVALID_ARG, "lote 0");
    CHECK(dt_esquema_arrow_stream(e, mv, 0, 1, (1u << 20) + 1, &flujo) == DT_ERR_INVALID_ARG, "lote past 2^20");
    CHECK(dt_esquema_arrow_stream(NULL, 0, 0, 1, 10, &flujo) == DT_ERR_NULL, "NULL schema");
    CHECK(dt_esquema_arrow_stream(e, 0, 0, 1, 10, NULL) == DT_ERR_NULL, "NULL out");
    CHECK(dt_esquema_arrow_lote(e, mv, fm - 5, 6, &a) == DT_ERR_INVALID_ARG && a.release == NULL, "lote past the rows");
    CHECK(dt_esquema_arrow_schema(e, 99, &s) == DT_ERR_INVALID_ARG && s.release == NULL, "schema of no table");
    CHECK(dt_esquema_arrow_stream_new(e, 99, 0, 1, 10, 1) == NULL, "stream_new refused (and e not taken)");
    CHECK(dt_esquema_arrow_schema_new(e, 99) == NULL && dt_esquema_arrow_schema_new(NULL, 0) == NULL, "schema_new refused");
    dt_arrow_stream_free(NULL);

    /* a stream that owns its schema: built from the same document, freed with the stream; its rows
     * equal the borrowing one's (valgrind or ASan would see a leak or a double free) */
    dt_esquema *otro = NULL;
    dt_esquema_new(banco, strlen(banco), DT_ESQUEMA_TOML, "banco.toml", 7, 2026, 6, 1, &otro, why, sizeof why);
    struct ArrowArrayStream *propio = dt_esquema_arrow_stream_new(otro, cu, 10, 50, 1000, 1);
    CHECK(propio != NULL, "stream_new");
    struct ArrowSchema *ps = dt_esquema_arrow_schema_new(e, cu);
    CHECK(ps != NULL, "schema_new");
    CHECK(propio->get_next(propio, &a) == 0 && a.length == 50, "owned stream batch");
    comparar(e, cu, 10, &a, ps);
    a.release(&a);
    dt_arrow_schema_free(ps);
    dt_arrow_stream_free(propio);

    dt_esquema_free(e);
    return dt_test_done("test_esquema_arrow");
}
