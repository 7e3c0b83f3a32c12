/* Masking, part 3: Arrow record batches (dt_mascara_plan_arrow, dt_mascara_arrow_schema,
 * dt_mascara_arrow_lote). Batches built here by hand in the three text layouts (utf8, large_utf8,
 * utf8_view with inline and out-of-line values), with a struct offset, a child offset and a struct
 * validity bitmap; each output value must equal what dt_mascara_plan_fila gives for the same row
 * (the CLI's path) under the documented nulls: a null in is a null out, a non-empty value emptied by
 * its rule is a null, the rest as the plan gives it. The refusals name the column or the row, never a
 * value. Run under ASan/UBSan and valgrind by tests/hardening/sanitizers.sh. */
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"

static const char CLAVE[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char REGLAS[] = "version = 1\n[columnas]\n"
                             "id = { regla = \"mantener\" }\n"
                             "rut = { regla = \"rut\" }\n"
                             "nombre = { regla = \"persona\", campo = \"nombre_completo\", entidad = \"rut\" }\n"
                             "notas = { regla = \"borrar\" }\n"
                             "glosa = { regla = \"nulo\" }\n"
                             "[politica]\ninvalido = \"nulo\"\n";
#define NC 5
#define NF 7
static const char *const COLS[NC] = {"id", "rut", "nombre", "notas", "glosa"};
/* NULL is a null. Row 0 is a padding row the struct offset skips. */
static const char *const FILAS[NF][NC] = {
    {"pad", "1-9", "x", "x", "x"},
    {"1", "12.345.678-5", "Ana", "una nota larga de mas de doce bytes", "g"},
    {"2", NULL, "Beto", "n", "g"},
    {"3", "", "", "", ""},
    {"4", "12.345.678-4", NULL, NULL, NULL},
    {NULL, "no es un rut", "Carla", "n", "glosa larga de mas de doce bytes"},
    {"6", " 7.654.321-6 ", "Dora", "n", "g"},
};

typedef struct hijo { /* one child's buffers, owned here */
    uint8_t validez[8];
    int32_t off32[NF + 1];
    int64_t off64[NF + 1];
    uint8_t vistas[16 * NF];
    char datos[1024];
    int64_t largos_variadicos[1];
    const void *buffers[4];
} hijo;

static void nada_schema(struct ArrowSchema *s) { s->release = NULL; }
static void nada_array(struct ArrowArray *a) { a->release = NULL; }

/* The batch of FILAS in `formato` ("u", "U", "vu"). */
static void armar(const char *formato, hijo *h, struct ArrowSchema *sc, struct ArrowSchema **scp,
                  struct ArrowArray *ac, struct ArrowArray **acp, struct ArrowSchema *s, struct ArrowArray *a,
                  const void **abuf, uint8_t *valfila) {
    for (int j = 0; j < NC; j++) {
        hijo *x = &h[j];
        memset(x, 0, sizeof *x);
        size_t usado = 0;
        int nulos = 0;
        for (int q = 0; q < NF; q++) {
            const char *v = FILAS[q][j];
            if (v) x->validez[q >> 3] |= (uint8_t)(1u << (q & 7));
            else nulos++;
            size_t k = v ? strlen(v) : 0;
            x->off32[q + 1] = (int32_t)(usado + k);
            x->off64[q + 1] = (int64_t)(usado + k);
            int32_t k32 = (int32_t)k;
            uint8_t *w = x->vistas + 16 * q;
            memcpy(w, &k32, 4);
            if (k <= 12) {
                if (k) memcpy(w + 4, v, k);
            } else {
                int32_t buf = 0, desde = (int32_t)usado;
                memcpy(w + 4, v, 4);
                memcpy(w + 8, &buf, 4);
                memcpy(w + 12, &desde, 4);
            }
            if (k) memcpy(x->datos + usado, v, k);
            usado += k;
        }
        x->largos_variadicos[0] = (int64_t)usado;
        int vista = strcmp(formato, "vu") == 0;
        x->buffers[0] = x->validez;
        x->buffers[1] = vista ? (const void *)x->vistas : strcmp(formato, "U") == 0 ? (const void *)x->off64 : (const void *)x->off32;
        x->buffers[2] = x->datos;
        x->buffers[3] = x->largos_variadicos;
        ac[j] = (struct ArrowArray){NF, nulos, 0, vista ? 4 : 3, 0, x->buffers, NULL, NULL, nada_array, NULL};
        acp[j] = &ac[j];
        sc[j] = (struct ArrowSchema){formato, COLS[j], NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, nada_schema, NULL};
        scp[j] = &sc[j];
    }
    *s = (struct ArrowSchema){"+s", "", NULL, 0, NC, scp, NULL, nada_schema, NULL};
    abuf[0] = valfila;
    *a = (struct ArrowArray){NF, 0, 0, 1, NC, abuf, acp, NULL, nada_array, NULL};
}

static int bit(const void *b, int64_t i) { return b == NULL || ((((const uint8_t *)b)[i >> 3] >> (i & 7)) & 1); }

int main(void) {
    dt_mascara_clave *k = NULL;
    dt_mascara_reglas *r = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_clave_new(CLAVE, strlen(CLAVE), &k, why, sizeof why), "key: %s", why);
    CHECK_OK(dt_mascara_reglas_new(REGLAS, strlen(REGLAS), DT_MASCARA_TOML, "reglas.toml", &r, why, sizeof why), "%s", why);
    if (k == NULL || r == NULL) return dt_test_done("test_mascara_arrow");

    /* the row path: what the CLI does for each row, a null given as "" */
    size_t largos_cols[NC];
    for (int j = 0; j < NC; j++) largos_cols[j] = strlen(COLS[j]);
    dt_mascara_plan *fila_plan = NULL;
    CHECK_OK(dt_mascara_plan_new(r, k, NC, COLS, largos_cols, &fila_plan, why, sizeof why), "%s", why);
    char esperado[NF][NC][128];
    int esperado_nulo[NF][NC];
    size_t nsal = dt_mascara_plan_ncolumnas(fila_plan);
    CHECK(nsal == 4, "4 output columns (notas dropped), got %zu", nsal);
    static const int de[4] = {0, 1, 2, 4};
    for (int f = 0; f < NF; f++) {
        const char *vals[NC];
        size_t lens[NC];
        for (int j = 0; j < NC; j++) {
            vals[j] = FILAS[f][j] ? FILAS[f][j] : "";
            lens[j] = strlen(vals[j]);
        }
        CHECK_OK(dt_mascara_plan_fila(fila_plan, (uint64_t)f, NC, vals, lens, why, sizeof why), "row %d: %s", f, why);
        for (size_t i = 0; i < nsal; i++) {
            size_t m;
            const char *v = dt_mascara_plan_valor(fila_plan, i, &m);
            snprintf(esperado[f][i], sizeof esperado[f][i], "%.*s", (int)m, v);
            esperado_nulo[f][i] = FILAS[f][de[i]] == NULL || (m == 0 && lens[de[i]] > 0);
        }
    }
    CHECK(esperado_nulo[1][3] && esperado_nulo[4][1] && !esperado_nulo[3][1], "the null rules as documented");

    static const char *const formatos[] = {"u", "U", "vu"};
    for (int fmt = 0; fmt < 3; fmt++) {
        for (int variante = 0; variante < 2; variante++) { /* 0: plain; 1: struct offset 1, row 3 null */
            hijo h[NC];
            struct ArrowSchema sc[NC], *scp[NC], s;
            struct ArrowArray ac[NC], *acp[NC], a;
            const void *abuf[1];
            uint8_t valfila[1] = {0xFF};
            armar(formatos[fmt], h, sc, scp, ac, acp, &s, &a, abuf, valfila);
            int desde = 0;
            if (variante == 1) {
                a.offset = 1;
                a.length = NF - 1;
                valfila[0] = (uint8_t)~(1u << 3);
                a.null_count = 1;
                desde = 1;
            } else {
                abuf[0] = NULL;
            }
            dt_mascara_plan *p = NULL;
            CHECK_OK(dt_mascara_plan_arrow(r, k, &s, &p, why, sizeof why), "%s: %s", formatos[fmt], why);
            struct ArrowSchema os;
            CHECK_OK(dt_mascara_arrow_schema(p, &os), "schema");
            CHECK(os.n_children == 4 && strcmp(os.children[2]->name, "nombre") == 0 && strcmp(os.children[3]->name, "glosa") == 0 &&
                      strcmp(os.children[0]->format, "u") == 0 && (os.children[0]->flags & ARROW_FLAG_NULLABLE),
                  "%s: the output schema", formatos[fmt]);
            os.release(&os);
            CHECK(os.release == NULL, "schema released");
            struct ArrowArray o;
            CHECK_OK(dt_mascara_arrow_lote(p, &s, &a, 100, &o, why, sizeof why), "%s variant %d: %s", formatos[fmt], variante, why);
            if (o.release == NULL) continue;
            CHECK(o.length == a.length && o.n_children == 4, "%s: %lld rows", formatos[fmt], (long long)o.length);
            for (int i = 0; i < 4; i++) {
                const struct ArrowArray *c = o.children[i];
                const int32_t *off = (const int32_t *)c->buffers[1];
                const char *dat = (const char *)c->buffers[2];
                int64_t nulos = 0;
                for (int q = 0; q < o.length; q++) {
                    int f = q + desde;
                    int nulo_esp = (variante == 1 && f == 3) || esperado_nulo[f][i];
                    /* a null struct row: its values go in as "", so the row path's emptied values hold */
                    int nulo = !bit(c->buffers[0], q) && c->null_count > 0;
                    nulos += nulo;
                    char got[128];
                    snprintf(got, sizeof got, "%.*s", (int)(off[q + 1] - off[q]), dat + off[q]);
                    CHECK(nulo == nulo_esp, "%s variant %d, row %d, column %s: null %d, expected %d", formatos[fmt], variante, f,
                          COLS[de[i]], nulo, nulo_esp);
                    if (!nulo && !nulo_esp)
                        CHECK(strcmp(got, esperado[f][i]) == 0, "%s variant %d, row %d, column %s: expected '%s', got '%s'",
                              formatos[fmt], variante, f, COLS[de[i]], esperado[f][i], got);
                }
                CHECK(nulos == c->null_count, "%s column %s: null_count %lld, counted %lld", formatos[fmt], COLS[de[i]],
                      (long long)c->null_count, (long long)nulos);
            }
            /* a consumer may move a child out and release the parent first */
            struct ArrowArray movido = *o.children[1];
            o.children[1]->release = NULL;
            o.release(&o);
            CHECK(o.release == NULL, "batch released");
            movido.release(&movido);
            dt_mascara_plan_free(p);
        }
    }

    /* refusals */
    {
        hijo h[NC];
        struct ArrowSchema sc[NC], *scp[NC], s;
        struct ArrowArray ac[NC], *acp[NC], a;
        const void *abuf[1] = {NULL};
        uint8_t valfila[1] = {0xFF};
        armar("u", h, sc, scp, ac, acp, &s, &a, abuf, valfila);
        dt_mascara_plan *p = (dt_mascara_plan *)1;
        sc[3].format = "l";
        CHECK(dt_mascara_plan_arrow(r, k, &s, &p, why, sizeof why) == DT_ERR_INVALID_ARG && p == NULL, "an int64 column");
        CHECK(strstr(why, "column notas is Arrow type \"l\", not text") != NULL, "sentence: %s", why);
        sc[3].format = "u";
        struct ArrowSchema diccionario = {"u", "", NULL, 0, 0, NULL, NULL, nada_schema, NULL};
        sc[3].format = "i";
        sc[3].dictionary = &diccionario;
        CHECK(dt_mascara_plan_arrow(r, k, &s, &p, why, sizeof why) == DT_ERR_INVALID_ARG && p == NULL, "a dictionary column");
        CHECK(strstr(why, "column notas is Arrow type \"dictionary\"") != NULL, "sentence: %s", why);
        sc[3].format = "u";
        sc[3].dictionary = NULL;
        CHECK_OK(dt_mascara_plan_arrow(r, k, &s, &p, why, sizeof why), "%s", why);
        struct ArrowArray o;
        a.n_children = 4;
        CHECK(dt_mascara_arrow_lote(p, &s, &a, 1, &o, why, sizeof why) == DT_ERR_INVALID_ARG && o.release == NULL,
              "a batch of another width");
        a.n_children = NC;
        const char *reglas_error = "version = 1\n[columnas]\nid = { regla = \"mantener\" }\nrut = { regla = \"rut\" }\n"
                                   "[politica]\nsin_regla = \"mantener\"\n";
        dt_mascara_reglas *re = NULL;
        CHECK_OK(dt_mascara_reglas_new(reglas_error, strlen(reglas_error), DT_MASCARA_TOML, NULL, &re, why, sizeof why), "%s", why);
        dt_mascara_plan *pe = NULL;
        CHECK_OK(dt_mascara_plan_arrow(re, k, &s, &pe, why, sizeof why), "%s", why);
        a.offset = 1;
        a.length = NF - 1; /* row 4 of FILAS (1-9 at 0 is valid) is batch row 3: numbered 10 + 3 */
        CHECK(dt_mascara_arrow_lote(pe, &s, &a, 10, &o, why, sizeof why) == DT_ERR_INVALID_ARG && o.release == NULL,
              "a wrong check digit under invalido = error");
        CHECK(strncmp(why, "row 13, column rut: not a valid RUT", 35) == 0 && strstr(why, "678") == NULL, "sentence: %s", why);
        CHECK(dt_mascara_arrow_lote(NULL, &s, &a, 1, &o, why, sizeof why) == DT_ERR_NULL, "NULL plan");
        dt_mascara_plan_free(pe);
        dt_mascara_reglas_free(re);
        dt_mascara_plan_free(p);
        struct ArrowSchema os;
        CHECK(dt_mascara_arrow_schema(NULL, &os) == DT_ERR_NULL && os.release == NULL, "NULL plan schema");
        CHECK(dt_mascara_arrow_schema_new(NULL) == NULL, "NULL plan schema_new");
    }
    dt_mascara_plan_free(fila_plan);
    dt_mascara_reglas_free(r);
    dt_mascara_clave_free(k);
    return dt_test_done("test_mascara_arrow");
}
