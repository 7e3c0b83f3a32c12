/* Datasets: slices equal full runs, rows are independent of their neighbours and of threads,
 * unique columns hold, null rates are what was asked, DDL and errors say the right thing. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"
#include "rut_ref.h"

static size_t llamada(const char *name) {
    size_t i = 0;
    if (dt_call_find(name, strlen(name), &i) != DT_OK) {
        fprintf(stderr, "no call %s\n", name);
        exit(1);
    }
    return i;
}

static dt_tabla *nueva(const char *call, const int64_t *args, size_t nargs, uint64_t seed, const char *campos,
                       const char *unico, const char *nulos) {
    dt_tabla_opciones o = {sizeof o, llamada(call), args, nargs, seed, NULL, 0, 0, 0, 0, campos, unico, nulos, NULL};
    dt_tabla *t = NULL;
    char why[512];
    dt_status st = dt_tabla_new(&o, &t, why, sizeof why);
    CHECK(st == DT_OK, "%s campos=%s unico=%s nulos=%s: %s (%s)", call, campos, unico, nulos, dt_status_str(st), why);
    return t;
}

/* Rows [desde, desde + n) as one malloc'd text. */
static char *filas(const dt_tabla *t, uint64_t desde, size_t n) {
    size_t cap = DT_CALL_MANY_BOUND(n), len = 0;
    char *buf = (char *)malloc(cap);
    dt_status st = dt_tabla_filas(t, desde, n, buf, cap, &len);
    CHECK(st == DT_OK, "rows %llu+%zu: %s", (unsigned long long)desde, n, dt_status_str(st));
    return buf;
}

/* The start of row k in a block of rows. */
static const char *fila_k(const char *s, size_t k) {
    while (k--) s = strchr(s, '\n') + 1;
    return s;
}

static void slices_equal_full_runs(void) {
    static const char *const calls[] = {"persona.persona", "empresa.empresa", "rut", "telefono.movil", "direccion.direccion",
                                        "banco.cuenta", "dinero.sueldo"};
    uint64_t lcg = 0x5eed;
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        dt_tabla *t = nueva(calls[c], NULL, 0, 1234, NULL, NULL, NULL);
        enum { N = 3000 };
        char *todo = filas(t, 0, N);
        for (int s = 0; s < 8; s++) {
            lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t desde = (size_t)(lcg >> 33) % N, n = 1 + (size_t)(lcg >> 17) % (N - desde);
            char *parte = filas(t, desde, n);
            const char *a = fila_k(todo, desde), *b = fila_k(todo, desde + n);
            CHECK(strlen(parte) == (size_t)(b - a) && memcmp(parte, a, (size_t)(b - a)) == 0,
                  "%s seed 1234: rows %zu..%zu differ from the same rows of a full run", calls[c], desde, desde + n);
            free(parte);
        }
        /* backwards, one row at a time */
        for (size_t i = N; i-- > N - 50;) {
            char *una = filas(t, i, 1);
            const char *a = fila_k(todo, i), *b = fila_k(todo, i + 1);
            CHECK(strlen(una) == (size_t)(b - a) && memcmp(una, a, (size_t)(b - a)) == 0, "%s: row %zu alone", calls[c], i);
            free(una);
        }
        free(todo);
        dt_tabla_free(t);
    }
}

/* The sequential stream is not touched: a dataset's row 0 is not the first sequential value. */
static void independent_of_the_sequential_api(void) {
    dt_tabla *t = nueva("rut", NULL, 0, 42, NULL, NULL, NULL);
    char *r = filas(t, 0, 1);
    dt_gen *g;
    dt_new(42, &g);
    char buf[64];
    size_t len;
    dt_call(g, llamada("rut"), NULL, 0, buf, sizeof buf, &len);
    CHECK(strncmp(r, buf, len) != 0, "row 0 of a dataset equals the first sequential rut %s", buf);
    dt_free(g);
    free(r);
    dt_tabla_free(t);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Column j of every row, sorted, to find duplicates. */
static void sin_duplicados(const char *call, const char *todo, size_t n, size_t j, const char *que) {
    char **v = (char **)malloc(n * sizeof *v);
    char *copia = (char *)malloc(strlen(todo) + 1);
    strcpy(copia, todo);
    char *s = copia;
    for (size_t i = 0; i < n; i++) {
        char *nl = strchr(s, '\n');
        *nl = '\0';
        char *campo = s;
        for (size_t k = 0; k < j; k++) campo = strchr(campo, DT_FIELD_SEP) + 1;
        char *fin = strchr(campo, DT_FIELD_SEP);
        if (fin) *fin = '\0';
        v[i] = campo;
        s = nl + 1;
    }
    qsort(v, n, sizeof *v, cmp_str);
    size_t dups = 0;
    for (size_t i = 1; i < n; i++)
        if (strcmp(v[i], v[i - 1]) == 0 && dups++ < 3) CHECK(0, "%s: %s '%s' twice in %zu unique rows", call, que, v[i], n);
    CHECK(dups == 0, "%s: %zu duplicate %s in %zu rows", call, dups, que, n);
    free(v);
    free(copia);
}

static void unique_columns_hold(void) {
    enum { N = 200000 };
    /* campos: rut, email, telefono; every RUT valid and in the persona range */
    dt_tabla *t = nueva("persona.persona", NULL, 0, 7, "rut,email,telefono,fecha_nacimiento", "rut,email,telefono", NULL);
    char *todo = filas(t, 0, N);
    sin_duplicados("persona.persona", todo, N, 0, "rut");
    sin_duplicados("persona.persona", todo, N, 1, "email");
    sin_duplicados("persona.persona", todo, N, 2, "telefono");
    const char *s = todo;
    for (size_t i = 0; i < N; i++, s = strchr(s, '\n') + 1) {
        char rut[20];
        size_t k = (size_t)(strchr(s, DT_FIELD_SEP) - s);
        memcpy(rut, s, k < 19 ? k : 19);
        rut[k < 19 ? k : 19] = '\0';
        uint32_t cuerpo;
        CHECK(rut_ref_ok(rut, DT_RUT_PUNTOS, &cuerpo) && cuerpo >= DT_RUT_PERSONA_MIN && cuerpo <= 29400000u,
              "persona.persona unique row %zu: rut '%s'", i, rut);
    }
    free(todo);
    dt_tabla_free(t);

    t = nueva("empresa.empresa", NULL, 0, 7, "rut,email,telefono,razon_social", "rut,email,telefono", NULL);
    CHECK(dt_tabla_capacidad(t) == 1000000u, "empresa capacity %llu (the fixed line's)", (unsigned long long)dt_tabla_capacidad(t));
    todo = filas(t, 0, N);
    sin_duplicados("empresa.empresa", todo, N, 0, "rut");
    sin_duplicados("empresa.empresa", todo, N, 1, "email");
    sin_duplicados("empresa.empresa", todo, N, 2, "telefono");
    free(todo);
    dt_tabla_free(t);

    int64_t empresa[] = {DT_RUT_EMPRESA};
    t = nueva("rut", empresa, 1, 9, NULL, "rut", NULL);
    CHECK(dt_tabla_capacidad(t) == 2000000u, "rut(empresa) capacity %llu", (unsigned long long)dt_tabla_capacidad(t));
    /* the last rows of the capacity are valid too, and one more is refused */
    todo = filas(t, 2000000u - 5, 5);
    CHECK(strlen(todo) > 0, "the last rows of the capacity");
    free(todo);
    char buf[64];
    CHECK(dt_tabla_filas(t, 2000000u - 1, 2, buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "a row past the capacity");
    dt_tabla_free(t);
}

static void null_rates(void) {
    enum { N = 100000 };
    dt_tabla *t = nueva("persona.persona", NULL, 0, 3, "comuna,email,rut", "rut", "comuna:100,email:250");
    char *todo = filas(t, 0, N);
    size_t nulos[2] = {0, 0};
    const char *s = todo;
    for (size_t i = 0; i < N; i++) {
        if (s[0] == DT_NULO && s[1] == DT_FIELD_SEP) nulos[0]++;
        const char *e = strchr(s, DT_FIELD_SEP) + 1;
        if (e[0] == DT_NULO && e[1] == DT_FIELD_SEP) nulos[1]++;
        s = strchr(s, '\n') + 1;
    }
    CHECK(nulos[0] > 9400 && nulos[0] < 10600, "comuna:100 gave %zu nulls in %d rows", nulos[0], N);
    CHECK(nulos[1] > 24300 && nulos[1] < 25700, "email:250 gave %zu nulls in %d rows", nulos[1], N);
    free(todo);
    dt_tabla_free(t);
    /* a minor's email is null, not empty */
    int64_t ninos[] = {0, 0, 5};
    t = nueva("persona.persona", ninos, 3, 3, "email", NULL, NULL);
    todo = filas(t, 0, 10);
    CHECK(strcmp(todo, "\x1e\n\x1e\n\x1e\n\x1e\n\x1e\n\x1e\n\x1e\n\x1e\n\x1e\n\x1e\n") == 0, "children's emails: '%s'", todo);
    free(todo);
    dt_tabla_free(t);
}

static void ddl_and_errors(void) {
    dt_tabla *t = nueva("persona.persona", NULL, 0, 1, "rut,fecha_nacimiento,sexo,email,comuna", "rut,email", "comuna:10");
    char buf[2048];
    CHECK_OK(dt_tabla_ddl(t, DT_SQL_POSTGRESQL, "personas", buf, sizeof buf, NULL), "ddl");
    const char *pg = "CREATE TABLE personas (\n    rut text NOT NULL PRIMARY KEY,\n    fecha_nacimiento date NOT NULL,\n"
                     "    sexo char(1) NOT NULL,\n    email text UNIQUE,\n    comuna text\n);\n";
    CHECK(strcmp(buf, pg) == 0, "PostgreSQL DDL:\n%s", buf);
    CHECK_OK(dt_tabla_ddl(t, DT_SQL_SQLITE, "p", buf, sizeof buf, NULL), "ddl sqlite");
    CHECK(strstr(buf, "rut TEXT NOT NULL PRIMARY KEY") && strstr(buf, "fecha_nacimiento TEXT NOT NULL"), "SQLite DDL:\n%s", buf);
    CHECK(dt_tabla_ddl(t, DT_SQL_SQLITE, "1x; DROP", buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "a bad table name");
    dt_tabla_free(t);

    static const struct {
        const char *campos, *unico, *nulos, *dice;
    } malos[] = {
        {"rut,nada", NULL, NULL, "persona.persona: campos: 'nada' is not a column; its columns are nombres,"},
        {"rut,rut", NULL, NULL, "persona.persona: campos: 'rut' is given twice"},
        {NULL, "nombres", NULL, "persona.persona: column 'nombres' cannot be unique; unique columns are rut, email, telefono"},
        {"email", "rut", NULL, "persona.persona: unico: 'rut' is not among the chosen campos"},
        {NULL, "rut", "rut:5", "persona.persona: column 'rut' is unique and cannot also have nulls"},
        {NULL, NULL, "email:1001", "persona.persona: nulos: 'email:1001' must be column:per-mille"},
        {NULL, NULL, "email", "persona.persona: nulos: 'email' must be column:per-mille"},
        {NULL, NULL, "email:-1", "persona.persona: nulos: 'email:-1' must be column:per-mille"},
    };
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        dt_tabla_opciones o = {sizeof o, llamada("persona.persona"), NULL, 0, 1, NULL, 0, 0, 0, 0,
                               malos[i].campos, malos[i].unico, malos[i].nulos, NULL};
        char why[512] = "";
        dt_tabla *x = NULL;
        dt_status st = dt_tabla_new(&o, &x, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && x == NULL && strncmp(why, malos[i].dice, strlen(malos[i].dice)) == 0,
              "case %zu: status %d, said '%s', expected '%s…'", i, (int)st, why, malos[i].dice);
    }
    int64_t mal[] = {0, 50, 20};
    dt_tabla_opciones o = {sizeof o, llamada("persona.persona"), mal, 3, 1, NULL, 0, 0, 0, 0, NULL, NULL, NULL, NULL};
    char why[512];
    dt_tabla *x = NULL;
    CHECK(dt_tabla_new(&o, &x, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "persona.persona: edad_min must not exceed edad_max, got edad_min=50, edad_max=20") == 0,
          "argument check: '%s'", why);
    CHECK(dt_tabla_new(NULL, &x, why, sizeof why) == DT_ERR_NULL, "NULL options");
    o.tamano = 8;
    CHECK(dt_tabla_new(&o, &x, why, sizeof why) == DT_ERR_NULL, "options from a smaller struct");
    dt_tabla_free(NULL);
}

/* Field j of a row (up to the next separator or newline), copied into out. */
static void campo_j(const char *fila, size_t j, char *out, size_t cap) {
    for (size_t k = 0; k < j; k++) fila = strpbrk(fila, "\x1f") + 1;
    size_t n = strcspn(fila, "\x1f\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, fila, n);
    out[n] = '\0';
}

/* Dirt (docs/sucios.md): a caller of 2.0.0's smaller options still builds, without dirt; a dirty
 * dataset differs from the clean one only in dirty cells of the dirty column; every dirty RUT reads
 * back, once its spaces and leading zeros go, to the clean cell's body; the share is the rate; bad
 * options are refused with the sentence. */
static void dirt(void) {
    enum { N = 20000 };
    const char *campos = "rut,nombre_completo,comuna,telefono";
    dt_tabla_opciones viejo = {offsetof(dt_tabla_opciones, sucio), llamada("persona.persona"), NULL, 0, 7, NULL, 0, 0, 0, 0,
                               campos, NULL, NULL, "rut:1000"};
    dt_tabla *t0 = NULL, *sucia = NULL;
    char why[512] = "";
    CHECK(dt_tabla_new(&viejo, &t0, why, sizeof why) == DT_OK, "2.0.0-sized options: %s", why);
    dt_tabla *limpia = nueva("persona.persona", NULL, 0, 7, campos, NULL, NULL);
    dt_tabla_opciones o = {sizeof o, llamada("persona.persona"), NULL, 0, 7, NULL, 0, 0, 0, 0, campos, NULL, NULL, "rut:100"};
    CHECK(dt_tabla_new(&o, &sucia, why, sizeof why) == DT_OK, "sucio rut:100: %s", why);
    char *a = filas(t0, 0, N), *b = filas(limpia, 0, N), *c = filas(sucia, 0, N);
    CHECK(strcmp(a, b) == 0, "2.0.0-sized options with a sucio pointer past their size: the rows changed");
    size_t sucias = 0;
    for (size_t i = 0; i < N; i++) {
        const char *fb = fila_k(b, i), *fc = fila_k(c, i);
        char lr[64], sr[64];
        for (size_t j = 1; j < 4; j++) {
            char x[256], y[256];
            campo_j(fb, j, x, sizeof x);
            campo_j(fc, j, y, sizeof y);
            CHECK(strcmp(x, y) == 0, "seed 7 row %zu: column %zu is '%s' dirty and '%s' clean, only rut may differ", i, j, y, x);
        }
        campo_j(fb, 0, lr, sizeof lr);
        campo_j(fc, 0, sr, sizeof sr);
        if (strcmp(lr, sr) == 0) continue;
        sucias++;
        const char *s = sr;
        while (*s == ' ' || *s == '0') s++;
        size_t n = strlen(s);
        while (n && s[n - 1] == ' ') n--;
        uint32_t c1 = 0, c2 = 1;
        CHECK(dt_rut_leer(s, n, &c1, NULL) == DT_OK && dt_rut_leer(lr, strlen(lr), &c2, NULL) == DT_OK && c1 == c2,
              "seed 7 row %zu: dirty rut '%s' does not read back to '%s'", i, sr, lr);
    }
    CHECK(sucias >= N / 10 - N / 100 && sucias <= N / 10 + N / 100, "sucio rut:100: %zu dirty of %d rows", sucias, N);
    free(a);
    free(b);
    free(c);
    dt_tabla_free(t0);
    dt_tabla_free(limpia);
    dt_tabla_free(sucia);
    static const struct { const char *campos, *sucio, *dice; } malos[] = {
        {NULL, "sexo:10", "persona.persona: column 'sexo' cannot be dirty; dirty columns are nombres, apellido_paterno, "
                          "apellido_materno, nombre_completo, rut, telefono, comuna"},
        {NULL, "rut:1001", "persona.persona: sucio: 'rut:1001' must be column:per-mille with an integer from 0 to 1000 (\"rut:100\")"},
        {NULL, "rut", "persona.persona: sucio: 'rut' must be column:per-mille"},
        {NULL, "bogus:5", "persona.persona: sucio: 'bogus' is not a column; its columns are nombres"},
        {"email", "rut:5", "persona.persona: sucio: 'rut' is not among the chosen campos"},
    };
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        dt_tabla_opciones m = {sizeof m, llamada("persona.persona"), NULL, 0, 1, NULL, 0, 0, 0, 0, malos[i].campos, NULL, NULL,
                               malos[i].sucio};
        dt_tabla *x = NULL;
        dt_status st = dt_tabla_new(&m, &x, why, sizeof why);
        CHECK(st == DT_ERR_INVALID_ARG && x == NULL && strncmp(why, malos[i].dice, strlen(malos[i].dice)) == 0,
              "sucio case %zu: status %d, said '%s', expected '%s…'", i, (int)st, why, malos[i].dice);
    }
    dt_tabla_opciones m = {sizeof m, llamada("dinero.sueldo"), NULL, 0, 1, NULL, 0, 0, 0, 0, NULL, NULL, NULL, "sueldo:5"};
    dt_tabla *x = NULL;
    CHECK(dt_tabla_new(&m, &x, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "dinero.sueldo: column 'sueldo' cannot be dirty; dirty columns are none (RUT, name, comuna and phone columns can be)") == 0,
          "a call without dirty columns: '%s'", why);
}

/* Two threads on one dataset give what one does. */
typedef struct hilo {
    const dt_tabla *t;
    uint64_t desde;
    char *out;
} hilo;
static void *correr(void *arg) {
    hilo *h = (hilo *)arg;
    h->out = filas(h->t, h->desde, 5000);
    return NULL;
}
static void threads_agree(void) {
    dt_tabla *t = nueva("persona.persona", NULL, 0, 99, NULL, "rut,email", "comuna:50");
    hilo h[2] = {{t, 0, NULL}, {t, 5000, NULL}};
    pthread_t p[2];
    for (int k = 0; k < 2; k++) pthread_create(&p[k], NULL, correr, &h[k]);
    for (int k = 0; k < 2; k++) pthread_join(p[k], NULL);
    char *uno = filas(t, 0, 10000);
    size_t a = strlen(h[0].out);
    CHECK(strncmp(uno, h[0].out, a) == 0 && strcmp(uno + a, h[1].out) == 0, "two threads differ from one run");
    free(uno);
    free(h[0].out);
    free(h[1].out);
    dt_tabla_free(t);
}

int main(void) {
    slices_equal_full_runs();
    independent_of_the_sequential_api();
    unique_columns_hold();
    null_rates();
    ddl_and_errors();
    threads_agree();
    dirt();
    return dt_test_done("test_tabla");
}
