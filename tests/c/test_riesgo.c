/* The risk report (dt_riesgo_*, c/src/mascara/riesgo.c) on small tables whose every number was
 * counted by hand in the comments: classes, linkage in each mode, original values found, and the
 * refusals that must never echo a header cell. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "datoteca.h"

#define MAXC 8

typedef struct {
    const char *v[MAXC];
} fila;

static void partir(const fila *f, size_t n, const char **v, size_t *l) {
    for (size_t j = 0; j < n; j++) {
        v[j] = f->v[j];
        l[j] = f->v[j] ? strlen(f->v[j]) : 0;
    }
}

static dt_riesgo *nuevo(size_t nqi, const char *const *qi, size_t nenl, const char *const *enl, int modo, size_t np,
                        const char *const *pers) {
    dt_riesgo *r = NULL;
    char why[512];
    dt_status st = dt_riesgo_new(nqi, qi, nenl, enl, modo, np, pers, &r, why, sizeof why);
    CHECK(st == DT_OK && r != NULL, "dt_riesgo_new: status %d, %s", (int)st, why);
    return r;
}

static void columnas(dt_riesgo *r, size_t n, const char *const *cab, size_t no, const char *const *cab_o) {
    size_t l[MAXC], lo[MAXC];
    for (size_t j = 0; j < n; j++) l[j] = strlen(cab[j]);
    for (size_t j = 0; j < no; j++) lo[j] = strlen(cab_o[j]);
    char why[512];
    dt_status st = dt_riesgo_columnas(r, n, cab, l, no, cab_o, cab_o ? lo : NULL, why, sizeof why);
    CHECK(st == DT_OK, "dt_riesgo_columnas: status %d, %s", (int)st, why);
}

static void filas(dt_riesgo *r, size_t n, const fila *m, size_t no, const fila *o, size_t k, int al_reves) {
    for (size_t q = 0; q < k; q++) {
        size_t i = al_reves ? k - 1 - q : q;
        const char *v[MAXC], *vo[MAXC];
        size_t l[MAXC], lo[MAXC];
        partir(&m[i], n, v, l);
        if (o) partir(&o[i], no, vo, lo);
        char why[512];
        dt_status st = dt_riesgo_fila(r, n, v, l, o ? no : 0, o ? vo : NULL, o ? lo : NULL, why, sizeof why);
        CHECK(st == DT_OK, "dt_riesgo_fila row %zu: status %d, %s", i + 1, (int)st, why);
    }
}

static char json[8192];

static const char *informe(const dt_riesgo *r) {
    size_t n = 0;
    dt_status st = dt_riesgo_informe_json(r, "t", json, sizeof json, &n);
    CHECK(st == DT_OK, "informe_json: status %d", (int)st);
    return json;
}

static void contiene(const char *caso, const char *texto, const char *parte) {
    CHECK(strstr(texto, parte) != NULL, "%s: the report lacks\n      %s\n    it is\n      %s", caso, parte, texto);
}

/* ---- k-anonymity ---- */

static const char *const cab_k[] = {"comuna", "sexo", "nac"};
static const fila tabla_k[] = {
    {{"A", "F", "1980-05-01"}}, {{"A", "F", "1980-07-09"}}, {{"A", "M", "1980-01-01"}}, {{"B", "F", "1990-02-02"}},
    {{"B", "F", "1990-02-03"}}, {{"B", "F", "1990-12-31"}}, {{"B", "F", "1991-01-01"}}, {{"C", "M", "2000-01-01"}},
    {{"C", "M", "2000-01-01"}}, {{"C", "M", "2000-01-01"}},
};

static void test_k(void) {
    /* comuna, sexo: (A,F) 2, (A,M) 1, (B,F) 4, (C,M) 3: 4 classes, sizes 1, 2, 3-4 twice; one unique
     * row of 10 (100 per mille), every row in a class below 5, mean risk 4/10 */
    const char *qi1[] = {"comuna", "sexo"};
    dt_riesgo *r = nuevo(2, qi1, 0, NULL, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 3, cab_k, 0, NULL);
    filas(r, 3, tabla_k, 0, NULL, 10, 0);
    const char *esperado =
        "{\"tabla\":\"t\",\"filas\":10,\"cuasi_identificadores\":[\"comuna\",\"sexo\"],\"k_anonimato\":{\"clases\":4,"
        "\"k_min\":1,\"k_max\":4,\"clases_por_tamano\":{\"1\":1,\"2\":1,\"3-4\":2,\"5-9\":0,\"10+\":0},"
        "\"filas_unicas\":{\"n\":1,\"de\":10,\"por_mil\":100},\"filas_k_menor_5\":{\"n\":10,\"de\":10,\"por_mil\":1000},"
        "\"riesgo_medio\":{\"n\":4,\"de\":10,\"por_mil\":400},\"no_generalizados\":0,\"tamanos\":[[1,1],[2,1],[3,1],[4,1]]},"
        "\"enlace\":null,\"valores_originales\":null}\n";
    CHECK(strcmp(informe(r), esperado) == 0, "k over comuna,sexo:\n    expected %s    actual   %s", esperado, json);
    CHECK(dt_riesgo_filas(r) == 10, "rows %llu", (unsigned long long)dt_riesgo_filas(r));
    dt_riesgo_free(r);

    /* the same rows in the opposite order: the same bytes (no table order reaches the report) */
    r = nuevo(2, qi1, 0, NULL, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 3, cab_k, 0, NULL);
    filas(r, 3, tabla_k, 0, NULL, 10, 1);
    CHECK(strcmp(informe(r), esperado) == 0, "k reversed:\n    expected %s    actual   %s", esperado, json);
    dt_riesgo_free(r);

    /* + nac:anio: (A,F,1980) 2, (A,M,1980) 1, (B,F,1990) 3, (B,F,1991) 1, (C,M,2000) 3 */
    const char *qi2[] = {"comuna", "sexo", "nac:anio"};
    r = nuevo(3, qi2, 0, NULL, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 3, cab_k, 0, NULL);
    filas(r, 3, tabla_k, 0, NULL, 10, 0);
    contiene("nac:anio", informe(r), "\"clases\":5,\"k_min\":1,\"k_max\":3,\"clases_por_tamano\":{\"1\":2,\"2\":1,\"3-4\":2,");
    contiene("nac:anio", json, "\"filas_unicas\":{\"n\":2,\"de\":10,\"por_mil\":200}");
    contiene("nac:anio", json, "\"tamanos\":[[1,2],[2,1],[3,2]]");
    dt_riesgo_free(r);

    /* + nac:mes: 1980-05, 1980-07, 1980-01 alone; (B,F,1990-02) 2; 1990-12, 1991-01 alone; (C,M,2000-01) 3 */
    const char *qi3[] = {"comuna", "sexo", "nac:mes"};
    r = nuevo(3, qi3, 0, NULL, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 3, cab_k, 0, NULL);
    filas(r, 3, tabla_k, 0, NULL, 10, 0);
    contiene("nac:mes", informe(r), "\"clases\":7,\"k_min\":1,\"k_max\":3,\"clases_por_tamano\":{\"1\":5,\"2\":1,\"3-4\":1,");
    dt_riesgo_free(r);

    /* amounts to buckets of 1000 (floor, negatives too), a value that is no amount kept whole and counted */
    static const char *const cab_m[] = {"monto"};
    static const fila montos[] = {{{"1.234.567"}}, {{"1234999"}}, {{"$ 1.234.000"}}, {{"-1"}}, {{"-999"}}, {{"n/a"}}};
    const char *qi4[] = {"monto:1000"};
    r = nuevo(1, qi4, 0, NULL, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 1, cab_m, 0, NULL);
    filas(r, 1, montos, 0, NULL, 6, 0);
    /* 1234000 x3, -1000 x2, "n/a" x1 */
    contiene("monto:1000", informe(r), "\"clases\":3,\"k_min\":1,\"k_max\":3,");
    contiene("monto:1000", json, "\"no_generalizados\":1,\"tamanos\":[[1,1],[2,1],[3,1]]");
    dt_riesgo_free(r);

    /* no rows: zeros, no division */
    r = nuevo(2, qi1, 0, NULL, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 3, cab_k, 0, NULL);
    contiene("empty", informe(r), "\"clases\":0,\"k_min\":0,\"k_max\":0,");
    contiene("empty", json, "\"filas_unicas\":{\"n\":0,\"de\":0,\"por_mil\":0}");
    dt_riesgo_free(r);
}

/* ---- linkage ---- */

static const char *const cab_ab[] = {"a", "b"};

static void test_enlace_igual(void) {
    /* masked pairs (10,20) (99,99) (50,60) (50,61) (1,1): each once. Originals: r1 (10,20) finds one
     * masked row, its own; r2 (10,20) finds one, r1's; r3 (30,40) none; r4 (50,60) one, r3's; r5 has
     * an empty value: no pair. 4 with a pair, 3 unique (750), 1 re-identified (250). */
    static const fila o[] = {{{"10", "20"}}, {{"10", "20"}}, {{"30", "40"}}, {{"50", "60"}}, {{"", "70"}}};
    static const fila m[] = {{{"10", "20"}}, {{"99", "99"}}, {{"50", "60"}}, {{"50", "61"}}, {{"1", "1"}}};
    const char *enl[] = {"a", "b"};
    dt_riesgo *r = nuevo(0, NULL, 2, enl, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 2, cab_ab, 2, cab_ab);
    filas(r, 2, m, 2, o, 5, 0);
    const char *esperado =
        "\"enlace\":{\"columnas\":[\"a\",\"b\"],\"modo\":\"igual\",\"filas_con_par\":4,\"filas_sin_par\":1,"
        "\"enmascaradas_sin_par\":0,\"unicas\":{\"n\":3,\"de\":4,\"por_mil\":750},\"reidentificadas\":{\"n\":1,\"de\":4,"
        "\"por_mil\":250}}";
    contiene("enlace igual", informe(r), esperado);
    contiene("enlace igual", json, "\"k_anonimato\":null");
    dt_riesgo_free(r);

    /* generalised to the year: dates that moved within their year still link */
    static const fila o2[] = {{{"1980-01-05", "2010-06-01"}}, {{"1981-03-03", "2010-06-01"}}};
    static const fila m2[] = {{{"1980-02-05", "2010-07-01"}}, {{"1981-04-03", "2010-07-01"}}};
    const char *enl2[] = {"a:anio", "b:anio"};
    r = nuevo(0, NULL, 2, enl2, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 2, cab_ab, 2, cab_ab);
    filas(r, 2, m2, 2, o2, 2, 0);
    contiene("enlace anio", informe(r), "\"unicas\":{\"n\":2,\"de\":2,\"por_mil\":1000},\"reidentificadas\":{\"n\":2,\"de\":2,");
    dt_riesgo_free(r);
}

static void test_enlace_diferencia(void) {
    /* gaps in days: originals 10, 20, 30, 10 (1999-12-31 -> 2000-01-10 across the year); masked 10, 20,
     * 40 (2000-03-01 -> 2000-04-10: March has 31 days), 15. Masked gaps each once: o1 finds m1 (own),
     * o4 finds m1 (not own), o2 finds m2 (own), o3 none: 3 unique of 4, 2 re-identified. */
    static const fila o[] = {{{"2000-01-01", "2000-01-11"}}, {{"2000-02-01", "2000-02-21"}},
                             {{"2000-03-01", "2000-03-31"}}, {{"1999-12-31", "2000-01-10"}}};
    static const fila m[] = {{{"2000-01-06", "2000-01-16"}}, {{"2000-02-03", "2000-02-23"}},
                             {{"2000-03-01", "2000-04-10"}}, {{"1999-12-31", "2000-01-15"}}};
    const char *enl[] = {"a", "b"};
    dt_riesgo *r = nuevo(0, NULL, 2, enl, DT_RIESGO_DIFERENCIA, 0, NULL);
    columnas(r, 2, cab_ab, 2, cab_ab);
    filas(r, 2, m, 2, o, 4, 0);
    contiene("diferencia", informe(r),
             "\"modo\":\"diferencia\",\"filas_con_par\":4,\"filas_sin_par\":0,\"enmascaradas_sin_par\":0,\"unicas\":{\"n\":3,"
             "\"de\":4,\"por_mil\":750},\"reidentificadas\":{\"n\":2,\"de\":4,\"por_mil\":500}");
    dt_riesgo_free(r);

    /* razon: 250/100 = 2.500 and 275/110 = 2.500 (own); 1000/1000 = 1.000 but 1000/1001 = 0.999 (lost);
     * 1/3 = 0.333 and 2/6 = 0.333 (own). 2 unique of 3, both own: 667 per mille (2/3 rounded half up). */
    static const fila o2[] = {{{"100", "250"}}, {{"1000", "1000"}}, {{"3", "1"}}};
    static const fila m2[] = {{{"110", "275"}}, {{"1001", "1000"}}, {{"6", "2"}}};
    r = nuevo(0, NULL, 2, enl, DT_RIESGO_RAZON, 0, NULL);
    columnas(r, 2, cab_ab, 2, cab_ab);
    filas(r, 2, m2, 2, o2, 3, 0);
    contiene("razon", informe(r), "\"unicas\":{\"n\":2,\"de\":3,\"por_mil\":667},\"reidentificadas\":{\"n\":2,\"de\":3,\"por_mil\":667}");
    dt_riesgo_free(r);
}

/* ---- original values found ---- */

static void test_hallados(void) {
    char rut1[] = "12.345.678-5", rut2[16];
    char dv;
    CHECK_OK(dt_rut_dv(7796476, &dv), "dv");
    snprintf(rut2, sizeof rut2, "7.796.476-%c", dv);
    CHECK(dt_rut_validar(rut1, strlen(rut1)) == DT_OK, "%s is not a valid RUT", rut1);
    const char *cab[] = {"rut", "telefono", "nombre", "nota"};
    const fila o[] = {{{rut1, "+56 9 8765 4321", "Ana", "x"}}, {{rut2, "22 345 6789", "Pedro Soto", "y"}}};
    /* the masked row 1's note holds row 1's mobile without its +56 (same row); row 2's note holds row 1's
     * RUT body written without dots (another row); row 2's name is row 2's own; "Ana" is too short to
     * be searched (a 3-byte needle would match half the words of any text) */
    const fila m[] = {{{"11.111.111-1", "+56 9 1111 2222", "Ana", "contacto 987654321 llamar"}},
                      {{"8.888.888-8", "+56 9 3333 4444", "PEDRO SOTO", "RUT 12345678-5 del titular"}}};
    const char *pers[] = {"rut", "telefono", "nombre"};
    dt_riesgo *r = nuevo(0, NULL, 0, NULL, DT_RIESGO_IGUAL, 3, pers);
    columnas(r, 4, cab, 4, cab);
    for (int i = 0; i < 2; i++) {
        const char *v[MAXC];
        size_t l[MAXC];
        partir(&o[i], 4, v, l);
        CHECK_OK(dt_riesgo_original(r, 4, v, l, NULL, 0), "original row %d", i + 1);
    }
    filas(r, 4, m, 4, o, 2, 0);
    informe(r);
    /* rut needles: each RUT's text, its 9 digits, its body: 6; found: row 1's 9 digits and body (the
     * note's digit run is 123456785). telefono: "+56 9 8765 4321", 56987654321, 987654321; "22 345
     * 6789", 223456789: 5, found 1. nombre: "pedro soto": 1, found 1 (case folded). */
    contiene("hallados", json,
             "\"por_columna\":[{\"columna\":\"rut\",\"valores\":6,\"hallados\":2},{\"columna\":\"telefono\",\"valores\":5,"
             "\"hallados\":1},{\"columna\":\"nombre\",\"valores\":1,\"hallados\":1}]");
    contiene("hallados", json, "{\"tabla\":\"t\",\"columna\":\"nota\",\"de_columna_original\":\"rut\",\"celdas\":1,\"misma_fila\":0}");
    contiene("hallados", json, "{\"tabla\":\"t\",\"columna\":\"nota\",\"de_columna_original\":\"telefono\",\"celdas\":1,\"misma_fila\":1}");
    contiene("hallados", json, "{\"tabla\":\"t\",\"columna\":\"nombre\",\"de_columna_original\":\"nombre\",\"celdas\":1,\"misma_fila\":1}");
    contiene("hallados", json, "\"valores_buscados\":12,\"celdas\":3,\"misma_fila\":2}");
    /* the report names columns and counts, never a value */
    const char *nunca[] = {"12345678", "987654321", "8765", "Pedro", "PEDRO", "pedro", "7796476", "Ana"};
    for (size_t i = 0; i < sizeof nunca / sizeof nunca[0]; i++)
        CHECK(strstr(json, nunca[i]) == NULL, "the JSON report holds the value %s: %s", nunca[i], json);
    char texto[4096];
    size_t n;
    CHECK_OK(dt_riesgo_informe_texto(r, "t", texto, sizeof texto, &n), "texto");
    for (size_t i = 0; i < sizeof nunca / sizeof nunca[0]; i++)
        CHECK(strstr(texto, nunca[i]) == NULL, "the text report holds the value %s: %s", nunca[i], texto);
    /* the original goes before the masked rows */
    const char *v[MAXC];
    size_t l[MAXC];
    partir(&o[0], 4, v, l);
    CHECK(dt_riesgo_original(r, 4, v, l, NULL, 0) == DT_ERR_INVALID_STATE, "an original row after a masked row was taken");
    dt_riesgo_free(r);
}

/* A value is found as a word or a whole written number, not inside another: the body 19831126 is not
 * in the date 1983-11-26 nor in the phone 56919831126 0, the name Rosa not in Rosario; Rosa as a word,
 * and the body with its check digit after a space are. */
static void test_hallados_limites(void) {
    const char *cab[] = {"rut", "nombre", "nota"};
    const fila o[] = {{{"19.831.126-K", "Rosa", "-"}}, {{"", "", "-"}}};
    const fila m[] = {{{"1983-11-26", "Rosario", "llamar al 56919831126 0"}},
                      {{"x", "doña Rosa, 09 1983 1126", "rut 19831126 k"}}};
    char dv;
    CHECK_OK(dt_rut_dv(19831126, &dv), "dv");
    CHECK(dv == 'K', "the test's RUT: dv %c", dv);
    const char *pers[] = {"rut", "nombre"};
    dt_riesgo *r = nuevo(0, NULL, 0, NULL, DT_RIESGO_IGUAL, 2, pers);
    columnas(r, 3, cab, 3, cab);
    for (int i = 0; i < 2; i++) {
        const char *v[MAXC];
        size_t l[MAXC];
        partir(&o[i], 3, v, l);
        CHECK_OK(dt_riesgo_original(r, 3, v, l, NULL, 0), "original row %d", i + 1);
    }
    filas(r, 3, m, 3, o, 2, 0);
    informe(r);
    /* row 1: nothing (the date is three runs, 56919831126 0 is one run of 12 digits, Rosario one word).
     * row 2: nombre holds "rosa" as a word; nota holds the run 19831126 (the body, its K after) */
    contiene("limites", json, "\"encontrados\":[{\"tabla\":\"t\",\"columna\":\"nota\",\"de_columna_original\":\"rut\",\"celdas\":1,"
                              "\"misma_fila\":0},{\"tabla\":\"t\",\"columna\":\"nombre\",\"de_columna_original\":\"nombre\","
                              "\"celdas\":1,\"misma_fila\":0}]");
    dt_riesgo_free(r);
}

/* A masked file without its header line: its first row stands where the names go, and the report
 * names those columns by position, never by those cells. */
static void test_sin_cabecera(void) {
    const char *cab_o[] = {"rut", "nota"};
    const char *cab_m[] = {"21.623.409-K", "llamar a Ana"}; /* a row of data read as the header */
    const fila o[] = {{{"12.345.678-5", "-"}}};
    const fila m[] = {{{"9.999.999-9", "rut 12345678-5"}}};
    const char *pers[] = {"rut"};
    dt_riesgo *r = nuevo(0, NULL, 0, NULL, DT_RIESGO_IGUAL, 1, pers);
    columnas(r, 2, cab_m, 2, cab_o);
    const char *v[MAXC];
    size_t l[MAXC];
    partir(&o[0], 2, v, l);
    CHECK_OK(dt_riesgo_original(r, 2, v, l, NULL, 0), "original");
    filas(r, 2, m, 2, o, 1, 0);
    contiene("sin cabecera", informe(r), "{\"tabla\":\"t\",\"columna\":\"#2\",\"de_columna_original\":\"rut\",\"celdas\":1,");
    CHECK(strstr(json, "21.623") == NULL && strstr(json, "Ana") == NULL, "a header cell in the report: %s", json);
    dt_riesgo_free(r);
}

/* ---- refusals ---- */

static void test_rechazos(void) {
    char why[512];
    dt_riesgo *r = NULL;
    const char *qi[] = {"comuna"};
    /* a file with no header line: its first row is taken as the header; the sentence names the
     * quasi-identifier as given, never a cell */
    const char *cab[] = {"12.345.678-5", "Ana Soto"};
    size_t l[] = {12, 8};
    r = nuevo(1, qi, 0, NULL, DT_RIESGO_IGUAL, 0, NULL);
    dt_status st = dt_riesgo_columnas(r, 2, cab, l, 0, NULL, NULL, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "a missing quasi-identifier: status %d", (int)st);
    CHECK(strstr(why, "comuna") != NULL && strstr(why, "12.345") == NULL && strstr(why, "Ana") == NULL,
          "the sentence: %s", why);
    dt_riesgo_free(r);

    const char *enl[] = {"a:mes", "b"};
    st = dt_riesgo_new(0, NULL, 2, enl, DT_RIESGO_DIFERENCIA, 0, NULL, &r, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG && r == NULL, "a generalisation with diferencia: status %d", (int)st);
    const char *uno[] = {"a"};
    st = dt_riesgo_new(0, NULL, 1, uno, DT_RIESGO_IGUAL, 0, NULL, &r, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "one linkage column: status %d", (int)st);
    st = dt_riesgo_new(0, NULL, 0, NULL, 7, 0, NULL, &r, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "modo 7: status %d", (int)st);
    st = dt_riesgo_new(1, NULL, 0, NULL, DT_RIESGO_IGUAL, 0, NULL, &r, why, sizeof why);
    CHECK(st == DT_ERR_NULL, "a NULL list: status %d", (int)st);
    const char *vacio[] = {":anio"};
    st = dt_riesgo_new(1, vacio, 0, NULL, DT_RIESGO_IGUAL, 0, NULL, &r, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "no name: status %d", (int)st);

    /* linkage needs the original's header and its row */
    const char *e2[] = {"a", "b"};
    r = nuevo(0, NULL, 2, e2, DT_RIESGO_IGUAL, 0, NULL);
    size_t lab[] = {1, 1};
    st = dt_riesgo_columnas(r, 2, cab_ab, lab, 0, NULL, NULL, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "linkage without an original: status %d", (int)st);
    dt_riesgo_free(r);
    r = nuevo(0, NULL, 2, e2, DT_RIESGO_IGUAL, 0, NULL);
    columnas(r, 2, cab_ab, 2, cab_ab);
    const char *v[] = {"1", "2"};
    st = dt_riesgo_fila(r, 2, v, lab, 0, NULL, NULL, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG, "a masked row without its original: status %d", (int)st);
    st = dt_riesgo_fila(r, 1, v, lab, 2, v, lab, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG && strstr(why, "masked row 1 has 1 values") != NULL, "a short row: %d %s", (int)st, why);
    /* text out: a size query, then a buffer too small */
    size_t n = 0;
    CHECK(dt_riesgo_informe_json(r, NULL, NULL, 0, &n) == DT_ERR_BUFFER_TOO_SMALL && n > 0, "size query: %zu", n);
    char chico[8];
    CHECK(dt_riesgo_informe_json(r, NULL, chico, sizeof chico, &n) == DT_ERR_BUFFER_TOO_SMALL && chico[0] == '\0',
          "small buffer");
    dt_riesgo_free(r);
    dt_riesgo_free(NULL);
    CHECK(dt_riesgo_filas(NULL) == 0, "filas(NULL)");
}

int main(void) {
    test_k();
    test_enlace_igual();
    test_enlace_diferencia();
    test_hallados();
    test_hallados_limites();
    test_sin_cabecera();
    test_rechazos();
    return dt_test_done("test_riesgo");
}
