/* Schemas: row counts, foreign keys present among their parent's keys (computed here from the parent's
 * rows), "adding a column and a table changes nothing else" (also to esquemas/banco.toml), slices equal to full runs, the DDL's
 * constraints, and the C API's own argument checks (the refused documents are in tests/casos_errores.json). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <pthread.h>

#include "archivo.h"
#include "check.h"
#include "datoteca.h"

static const char banco[] =
    "version = 1\n"
    "\n"
    "[tablas.clientes]\n"
    "filas = 300\n"
    "\n"
    "[tablas.clientes.columnas]\n"
    "id = { serie = true }\n"
    "persona = { llamada = \"persona.persona\", campos = [\"rut\", \"nombre_completo\", \"email\"], unico = [\"rut\"], edad_min = 21, nulos = { email = 200 } }\n"
    "\n"
    "[tablas.cuentas]\n"
    "por = \"clientes\"\n"
    "cuantos = { min = 1, max = 3 }\n"
    "\n"
    "[tablas.cuentas.columnas]\n"
    "id = { serie = true }\n"
    "cliente = { ref = \"clientes.id\" }\n"
    "titular = { ref = \"clientes.rut\" }\n"
    "tipo = { elegir = { corriente = 3, vista = 5, cuentarut = 2 } }\n"
    "\n"
    "[tablas.movimientos]\n"
    "filas = 2000\n"
    "\n"
    "[tablas.movimientos.columnas]\n"
    "id = { serie = true }\n"
    "cuenta = { ref = \"cuentas.id\" }\n"
    "tipo = { elegir = { cargo = 7, abono = 3 } }\n"
    "monto = { llamada = \"dinero.monto\", min = 1000, max = 500000 }\n";

/* The same schema with a column in the middle of clientes and a table before movimientos. */
static const char banco_mas[] =
    "version = 1\n"
    "\n"
    "[tablas.clientes]\n"
    "filas = 300\n"
    "\n"
    "[tablas.clientes.columnas]\n"
    "id = { serie = true }\n"
    "vive = { llamada = \"direccion.comuna\" }\n"
    "persona = { llamada = \"persona.persona\", campos = [\"rut\", \"nombre_completo\", \"email\"], unico = [\"rut\"], edad_min = 21, nulos = { email = 200 } }\n"
    "\n"
    "[tablas.cuentas]\n"
    "por = \"clientes\"\n"
    "cuantos = { min = 1, max = 3 }\n"
    "\n"
    "[tablas.cuentas.columnas]\n"
    "id = { serie = true }\n"
    "cliente = { ref = \"clientes.id\" }\n"
    "titular = { ref = \"clientes.rut\" }\n"
    "tipo = { elegir = { corriente = 3, vista = 5, cuentarut = 2 } }\n"
    "\n"
    "[tablas.tarjetas]\n"
    "por = \"cuentas\"\n"
    "cuantos = { min = 0, max = 2 }\n"
    "\n"
    "[tablas.tarjetas.columnas]\n"
    "id = { serie = true }\n"
    "cuenta = { ref = \"cuentas.id\" }\n"
    "cliente = { ref = \"clientes.id\" }\n"
    "\n"
    "[tablas.movimientos]\n"
    "filas = 2000\n"
    "\n"
    "[tablas.movimientos.columnas]\n"
    "id = { serie = true }\n"
    "cuenta = { ref = \"cuentas.id\" }\n"
    "tipo = { elegir = { cargo = 7, abono = 3 } }\n"
    "monto = { llamada = \"dinero.monto\", min = 1000, max = 500000 }\n";

static dt_esquema *abrir(const char *texto, int formato, uint64_t seed) {
    dt_esquema *e = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_esquema_new(texto, strlen(texto), formato, "banco.toml", seed, 0, 0, 0, &e, why, sizeof why);
    CHECK(st == DT_OK, "dt_esquema_new: %s: %s", dt_status_str(st), why);
    if (e == NULL) exit(1);
    return e;
}

static size_t tabla(const dt_esquema *e, const char *nombre) {
    size_t t = 0;
    dt_status st = dt_esquema_buscar(e, nombre, strlen(nombre), &t);
    CHECK(st == DT_OK, "no table %s", nombre);
    return t;
}

/* A table's rows [desde, desde + n) as one malloc'd text. */
static char *filas(const dt_esquema *e, size_t t, uint64_t desde, size_t n) {
    size_t cap = 0;
    dt_status st = dt_esquema_filas(e, t, desde, n, NULL, 0, &cap);
    CHECK(st == DT_ERR_BUFFER_TOO_SMALL, "size query: %s", dt_status_str(st));
    char *buf = (char *)malloc(cap);
    size_t len = 0;
    st = dt_esquema_filas(e, t, desde, n, buf, cap, &len);
    CHECK(st == DT_OK && strlen(buf) == len, "rows %llu+%zu: %s", (unsigned long long)desde, n, dt_status_str(st));
    return buf;
}

/* Cell (r, j) of a block of rows: its start and length (the test's own split, not the library's). */
static const char *celda(const char *bloque, size_t r, size_t j, size_t *n) {
    const char *p = bloque;
    for (size_t i = 0; i < r; i++) p = strchr(p, '\n') + 1;
    for (size_t i = 0; i < j; i++) {
        while (*p != DT_FIELD_SEP && *p != '\n') p++;
        p++;
    }
    const char *q = p;
    while (*q != DT_FIELD_SEP && *q != '\n') q++;
    *n = (size_t)(q - p);
    return p;
}

static size_t columna(const dt_esquema *e, size_t t, const char *nombre) {
    for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
        dt_esquema_columna_info ci;
        dt_esquema_columna(e, t, j, &ci);
        if (strcmp(ci.nombre, nombre) == 0) return j;
    }
    CHECK(0, "no column %s", nombre);
    return 0;
}

/* Every value of column `hijo` of table `t` is among the values of column `padre` of table `p`, and
 * the parent's values are distinct; returns the parent row of each child row through `fila` (may be NULL). */
static void claves_presentes(const dt_esquema *e, const char *t, const char *hijo, const char *p, const char *padre, uint64_t *fila) {
    size_t ti = tabla(e, t), pi = tabla(e, p);
    size_t nt = (size_t)dt_esquema_tabla_filas(e, ti), np = (size_t)dt_esquema_tabla_filas(e, pi);
    char *bt = filas(e, ti, 0, nt), *bp = filas(e, pi, 0, np);
    size_t jt = columna(e, ti, hijo), jp = columna(e, pi, padre);
    const char **pv = (const char **)malloc(np * sizeof *pv);
    size_t *pn = (size_t *)malloc(np * sizeof *pn);
    for (size_t r = 0; r < np; r++) pv[r] = celda(bp, r, jp, &pn[r]);
    for (size_t a = 0; a < np && a < 400; a++)
        for (size_t b = a + 1; b < np; b++)
            CHECK(pn[a] != pn[b] || memcmp(pv[a], pv[b], pn[a]) != 0, "%s.%s rows %zu and %zu are equal", p, padre, a, b);
    for (size_t r = 0; r < nt; r++) {
        size_t n;
        const char *v = celda(bt, r, jt, &n);
        size_t k = 0;
        while (k < np && (pn[k] != n || memcmp(pv[k], v, n) != 0)) k++;
        CHECK(k < np, "%s.%s row %zu: '%.*s' is not a %s.%s", t, hijo, r, (int)n, v, p, padre);
        if (fila) fila[r] = k;
    }
    free(pv);
    free(pn);
    free(bt);
    free(bp);
}

/* Every column of every table of `e` is byte for byte the same column of `m` (a schema with more
 * columns and tables), row by row; `que` names the pair in a failure. */
static void sin_cambios(const dt_esquema *e, const dt_esquema *m, const char *que) {
    for (size_t t = 0; t < dt_esquema_tablas(e); t++) {
        size_t tm = tabla(m, dt_esquema_tabla(e, t));
        size_t n = (size_t)dt_esquema_tabla_filas(e, t);
        CHECK(dt_esquema_tabla_filas(m, tm) == n, "%s, %s: rows changed", que, dt_esquema_tabla(e, t));
        if (dt_esquema_tabla_filas(m, tm) != n) continue;
        char *a = filas(e, t, 0, n), *b = filas(m, tm, 0, n);
        for (size_t j = 0; j < dt_esquema_columnas(e, t); j++) {
            dt_esquema_columna_info ci;
            dt_esquema_columna(e, t, j, &ci);
            size_t jm = columna(m, tm, ci.nombre), iguales = 0, primera = n;
            for (size_t r = 0; r < n; r++) {
                size_t na, nb;
                const char *va = celda(a, r, j, &na), *vb = celda(b, r, jm, &nb);
                int igual = na == nb && memcmp(va, vb, na) == 0;
                iguales += (size_t)igual;
                if (!igual && primera == n) primera = r;
            }
            CHECK(iguales == n, "%s, %s.%s: %zu of %zu rows changed by adding a column and a table (the first: row %zu)", que,
                  dt_esquema_tabla(e, t), ci.nombre, n - iguales, n, primera);
        }
        free(a);
        free(b);
    }
}

/* The shipped esquemas/banco.toml (read from the repository, never pinned; every `filas = N` at 300
 * for speed) with a column right after clientes' first column and a table before movimientos: every
 * other column unchanged (Python's tests/python/test_esquema_aditivo.py and Node's esquema.test.mjs
 * make the same change). */
static void banco_aditivo(void) {
    char *doc = leer_archivo(DT_TESTS_DIR "/../esquemas/banco.toml", NULL);
    CHECK(doc != NULL, "cannot read esquemas/banco.toml");
    if (doc == NULL) return;
    size_t n = strlen(doc);
    char *chico = (char *)malloc(2 * n + 64), *mas = (char *)malloc(2 * n + 1024); /* "filas = 1" grows to "filas = 300" */
    /* every line "filas = N" becomes "filas = 300" */
    char *o = chico;
    for (const char *p = doc; *p;) {
        const char *fin = strchr(p, '\n');
        fin = fin ? fin + 1 : p + strlen(p);
        if (strncmp(p, "filas = ", 8) == 0 && p[8] >= '0' && p[8] <= '9') o += sprintf(o, "filas = 300\n");
        else {
            memcpy(o, p, (size_t)(fin - p));
            o += fin - p;
        }
        p = fin;
    }
    *o = '\0';
    const char *cabeza = strstr(chico, "[tablas.clientes.columnas]\n"), *mov = strstr(chico, "[tablas.movimientos]");
    CHECK(cabeza != NULL && mov != NULL && mov > cabeza, "esquemas/banco.toml has no clientes columns or no movimientos table: update this test");
    if (cabeza == NULL || mov == NULL || mov < cabeza) return;
    const char *despues = strchr(cabeza + strlen("[tablas.clientes.columnas]\n"), '\n') + 1; /* after clientes' first column */
    sprintf(mas, "%.*svive_en = { llamada = \"direccion.comuna\" }\n%.*s"
            "[tablas.seguros]\npor = \"clientes\"\ncuantos = { min = 0, max = 2 }\n\n[tablas.seguros.columnas]\n"
            "id = { serie = true }\ncliente_id = { ref = \"clientes.id\" }\nprima = { llamada = \"dinero.monto\", min = 5000, max = 90000 }\n\n%s",
            (int)(despues - chico), chico, (int)(mov - despues), despues, mov);
    dt_esquema *e = abrir(chico, DT_ESQUEMA_TOML, 42), *m = abrir(mas, DT_ESQUEMA_TOML, 42);
    CHECK(dt_esquema_tablas(m) == dt_esquema_tablas(e) + 1 && dt_esquema_columnas(m, tabla(m, "clientes")) == dt_esquema_columnas(e, tabla(e, "clientes")) + 1 &&
              dt_esquema_tabla_filas(m, tabla(m, "seguros")) > 0, "esquemas/banco.toml: the column and the table were not added");
    sin_cambios(e, m, "esquemas/banco.toml");
    dt_esquema_free(e);
    dt_esquema_free(m);
    free(chico);
    free(mas);
    free(doc);
}

/* Two threads reading one schema at once give the rows one thread gives. */
typedef struct hilo {
    const dt_esquema *e;
    size_t t;
    uint64_t desde;
    size_t n;
    char *out;
} hilo;
static void *correr(void *arg) {
    hilo *h = (hilo *)arg;
    size_t cap = 0;
    dt_esquema_filas(h->e, h->t, h->desde, h->n, NULL, 0, &cap);
    h->out = (char *)malloc(cap);
    if (h->out) dt_esquema_filas(h->e, h->t, h->desde, h->n, h->out, cap, NULL);
    return NULL;
}

static void hilos(const dt_esquema *e, size_t t) {
    size_t n = (size_t)dt_esquema_tabla_filas(e, t);
    hilo a = {e, t, 0, n / 2, NULL}, b = {e, t, n / 2, n - n / 2, NULL};
    pthread_t ha, hb;
    pthread_create(&ha, NULL, correr, &a);
    pthread_create(&hb, NULL, correr, &b);
    pthread_join(ha, NULL);
    pthread_join(hb, NULL);
    char *todo = filas(e, t, 0, n);
    size_t la = a.out ? strlen(a.out) : 0;
    CHECK(a.out && b.out && strncmp(todo, a.out, la) == 0 && strcmp(todo + la, b.out) == 0, "two threads differ from one");
    free(a.out);
    free(b.out);
    free(todo);
}

static void propiedades(void) {
    dt_esquema *e = abrir(banco, DT_ESQUEMA_TOML, 42);
    CHECK(dt_esquema_tablas(e) == 3, "%zu tables", dt_esquema_tablas(e));
    size_t cl = tabla(e, "clientes"), cu = tabla(e, "cuentas"), mo = tabla(e, "movimientos");
    CHECK(dt_esquema_tabla_filas(e, cl) == 300 && dt_esquema_tabla_filas(e, mo) == 2000, "row counts");
    uint64_t ncu = dt_esquema_tabla_filas(e, cu);
    CHECK(ncu >= 300 && ncu <= 900, "cuentas: %llu rows for 300 clientes at 1..3", (unsigned long long)ncu);
    CHECK(dt_esquema_columnas(e, cl) == 4 && dt_esquema_columnas(e, cu) == 4 && dt_esquema_columnas(e, mo) == 4, "columns");

    /* Foreign keys: present among the parent's keys; a fan-out child's cliente is its own parent (the
     * rows of one client are consecutive, each client has 1..3), and its titular the same client's rut. */
    uint64_t *padre = (uint64_t *)malloc(ncu * sizeof *padre), *padre_rut = (uint64_t *)malloc(ncu * sizeof *padre_rut);
    claves_presentes(e, "cuentas", "cliente", "clientes", "id", padre);
    claves_presentes(e, "cuentas", "titular", "clientes", "rut", padre_rut);
    claves_presentes(e, "movimientos", "cuenta", "cuentas", "id", NULL);
    size_t cuenta_de[300] = {0};
    for (uint64_t r = 0; r < ncu; r++) {
        CHECK(padre[r] == padre_rut[r], "cuentas row %llu: cliente row %llu, titular row %llu", (unsigned long long)r,
              (unsigned long long)padre[r], (unsigned long long)padre_rut[r]);
        CHECK(r == 0 || padre[r] == padre[r - 1] || padre[r] == padre[r - 1] + 1, "cuentas row %llu: not in parent order", (unsigned long long)r);
        cuenta_de[padre[r]]++;
    }
    for (size_t c = 0; c < 300; c++) CHECK(cuenta_de[c] >= 1 && cuenta_de[c] <= 3, "cliente %zu has %zu cuentas", c, cuenta_de[c]);
    free(padre);
    free(padre_rut);

    /* Slices equal the same rows of a full run. */
    for (size_t t = 0; t < 3; t++) {
        size_t n = (size_t)dt_esquema_tabla_filas(e, t);
        char *todo = filas(e, t, 0, n);
        static const size_t cortes[][2] = {{0, 1}, {7, 13}, {250, 50}, {1, 0}};
        for (size_t c = 0; c < 4; c++) {
            char *parte = filas(e, t, cortes[c][0], cortes[c][1]);
            size_t ini, fin, x;
            const char *a = cortes[c][1] ? celda(todo, cortes[c][0], 0, &x) : "";
            ini = (size_t)(a - todo);
            const char *b = cortes[c][1] ? celda(todo, cortes[c][0] + cortes[c][1] - 1, 0, &x) : "";
            fin = cortes[c][1] ? (size_t)(strchr(b, '\n') + 1 - todo) : ini;
            CHECK(cortes[c][1] == 0 ? parte[0] == '\0' : strlen(parte) == fin - ini && memcmp(parte, todo + ini, fin - ini) == 0,
                  "table %zu slice %zu+%zu differs from the full run", t, cortes[c][0], cortes[c][1]);
            free(parte);
        }
        free(todo);
    }
    hilos(e, cu);
    hilos(e, mo);
    size_t len = 0;
    CHECK(dt_esquema_filas(e, mo, 1999, 2, NULL, 0, &len) == DT_ERR_INVALID_ARG, "past the rows");
    CHECK(dt_esquema_filas(e, 3, 0, 1, NULL, 0, &len) == DT_ERR_INVALID_ARG, "table out of range");

    /* Adding a column and a table changes no other column's bytes, row by row. */
    dt_esquema *m = abrir(banco_mas, DT_ESQUEMA_TOML, 42);
    CHECK(dt_esquema_tablas(m) == 4, "%zu tables", dt_esquema_tablas(m));
    sin_cambios(e, m, "the test's bank");
    /* tarjetas (a fan-out of a fan-out): its cliente is its cuenta's cliente. */
    size_t ta = tabla(m, "tarjetas"), cum = tabla(m, "cuentas");
    size_t nta = (size_t)dt_esquema_tabla_filas(m, ta);
    uint64_t *cuenta = (uint64_t *)malloc((nta + 1) * sizeof *cuenta), *cli = (uint64_t *)malloc((nta + 1) * sizeof *cli);
    claves_presentes(m, "tarjetas", "cuenta", "cuentas", "id", cuenta);
    claves_presentes(m, "tarjetas", "cliente", "clientes", "id", cli);
    char *bc = filas(m, cum, 0, (size_t)dt_esquema_tabla_filas(m, cum));
    for (size_t r = 0; r < nta; r++) {
        size_t n;
        const char *v = celda(bc, cuenta[r], 1, &n);
        CHECK((size_t)atoi(v) == cli[r] + 1, "tarjetas row %zu: cliente %llu, its cuenta's cliente %.*s", r, (unsigned long long)cli[r] + 1,
              (int)n, v);
    }
    free(bc);
    free(cuenta);
    free(cli);

    /* A different seed gives different data; the same seed the same. */
    dt_esquema *o = abrir(banco, DT_ESQUEMA_TOML, 43), *e2 = abrir(banco, DT_ESQUEMA_TOML, 42);
    char *x = filas(e, cl, 0, 20), *y = filas(o, cl, 0, 20), *z = filas(e2, cl, 0, 20);
    CHECK(strcmp(x, y) != 0 && strcmp(x, z) == 0, "seeds");
    free(x);
    free(y);
    free(z);

    /* DDL: dependency order and constraints. */
    char ddl[8192];
    CHECK_OK(dt_esquema_ddl(m, DT_SQL_POSTGRESQL, ddl, sizeof ddl, &len), "ddl");
    const char *esperado =
        "CREATE TABLE clientes (\n"
        "    id bigint NOT NULL PRIMARY KEY,\n"
        "    vive text NOT NULL,\n"
        "    rut text NOT NULL UNIQUE,\n"
        "    nombre_completo text NOT NULL,\n"
        "    email text\n"
        ");\n"
        "\n"
        "CREATE TABLE cuentas (\n"
        "    id bigint NOT NULL PRIMARY KEY,\n"
        "    cliente bigint NOT NULL,\n"
        "    titular text NOT NULL,\n"
        "    tipo text NOT NULL,\n"
        "    FOREIGN KEY (cliente) REFERENCES clientes (id),\n"
        "    FOREIGN KEY (titular) REFERENCES clientes (rut)\n"
        ");\n"
        "\n"
        "CREATE TABLE tarjetas (\n"
        "    id bigint NOT NULL PRIMARY KEY,\n"
        "    cuenta bigint NOT NULL,\n"
        "    cliente bigint NOT NULL,\n"
        "    FOREIGN KEY (cuenta) REFERENCES cuentas (id),\n"
        "    FOREIGN KEY (cliente) REFERENCES clientes (id)\n"
        ");\n"
        "\n"
        "CREATE TABLE movimientos (\n"
        "    id bigint NOT NULL PRIMARY KEY,\n"
        "    cuenta bigint NOT NULL,\n"
        "    tipo text NOT NULL,\n"
        "    monto bigint NOT NULL,\n"
        "    FOREIGN KEY (cuenta) REFERENCES cuentas (id)\n"
        ");\n";
    CHECK(strcmp(ddl, esperado) == 0, "ddl:\n%s", ddl);
    char chico[10];
    CHECK(dt_esquema_ddl(m, DT_SQL_SQLITE, chico, sizeof chico, &len) == DT_ERR_BUFFER_TOO_SMALL && chico[0] == '\0' && len > 100,
          "small buffer");
    CHECK_OK(dt_esquema_ddl(m, DT_SQL_SQLITE, ddl, sizeof ddl, &len), "sqlite ddl");
    CHECK(strstr(ddl, "    id INTEGER NOT NULL PRIMARY KEY,\n    vive TEXT NOT NULL,") != NULL, "sqlite:\n%s", ddl);
    CHECK(dt_esquema_ddl(m, (dt_dialecto)7, ddl, sizeof ddl, &len) == DT_ERR_INVALID_ARG &&
              strcmp(ddl, "dialecto must be 0 (postgresql) or 1 (sqlite), got 7") == 0, "%s", ddl);
    dt_esquema_columna_info ci;
    CHECK_OK(dt_esquema_columna(m, cum, 2, &ci), "column");
    CHECK(strcmp(ci.nombre, "titular") == 0 && strcmp(ci.ref_tabla, "clientes") == 0 && strcmp(ci.ref_columna, "rut") == 0 &&
              strcmp(ci.tipo_sql, "text") == 0 && !ci.unico && !ci.clave_primaria, "titular");
    CHECK(dt_esquema_orden(m, 2) == ta && dt_esquema_orden(m, 3) == tabla(m, "movimientos"), "order");

    /* JSON twin: the same rows. */
    const char *json = "{\"tablas\": {\"t\": {\"filas\": 5, \"columnas\": {\"id\": {\"serie\": true}, "
                       "\"rut\": {\"llamada\": \"rut\", \"unico\": true}}}}}";
    const char *toml = "[tablas.t]\nfilas = 5\ncolumnas.id.serie = true\ncolumnas.rut = { llamada = \"rut\", unico = true }\n";
    dt_esquema *j1 = abrir(json, DT_ESQUEMA_JSON, 7), *t1 = abrir(toml, DT_ESQUEMA_TOML, 7);
    x = filas(j1, 0, 0, 5);
    y = filas(t1, 0, 0, 5);
    CHECK(strcmp(x, y) == 0 && strncmp(x, "1\x1f", 2) == 0, "json twin: %s / %s", x, y);
    free(x);
    free(y);

    dt_esquema_free(j1);
    dt_esquema_free(t1);
    dt_esquema_free(o);
    dt_esquema_free(e2);
    dt_esquema_free(m);
    dt_esquema_free(e);
    dt_esquema_free(NULL);
    CHECK(dt_esquema_tablas(NULL) == 0 && dt_esquema_tabla(NULL, 0) == NULL && dt_esquema_columnas(NULL, 0) == 0, "NULL");
}

/* ---- refusals ----
 * Every refusal of a document lives in the one table tests/casos_errores.json (de: esquema), which
 * tests/c/test_errores.c, Python, the CLI and Node run. What stays here are the C API's own argument
 * checks, which the runtimes reach differently or not at all (a formato number, an impossible hoy,
 * NULL pointers), and the default name of a document. */

static void malos_casos(void) {
    dt_esquema *e = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK(dt_esquema_new("", 0, 3, NULL, 1, 0, 0, 0, &e, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "formato must be 1 (TOML) or 2 (JSON), got 3") == 0, "%s", why);
    CHECK(dt_esquema_new("", 0, DT_ESQUEMA_TOML, NULL, 1, 2026, 2, 30, &e, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "hoy must be a real day from 1900-01-01 to 2200-12-31, got 2026-02-30") == 0, "%s", why);
    CHECK(dt_esquema_new(NULL, 1, DT_ESQUEMA_TOML, NULL, 1, 0, 0, 0, &e, why, sizeof why) == DT_ERR_NULL, "NULL text");
    CHECK(dt_esquema_new("", 0, DT_ESQUEMA_TOML, NULL, 1, 0, 0, 0, NULL, why, sizeof why) == DT_ERR_NULL, "NULL out");
    CHECK(dt_esquema_new("", 0, DT_ESQUEMA_TOML, NULL, 1, 0, 0, 0, &e, why, sizeof why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "<document>:1: the document needs the key tablas") == 0, "%s", why);
}

/* 11,000 tables, each referring to the one before (and, in the second document, the first to the
 * last: a cycle through all of them), built on a thread with a 256 KB stack: the dependency walk
 * must not recurse per table, and lookups must not be quadratic. */
static char *cadena(size_t n, int ciclo) {
    char *s = (char *)malloc(n * 100 + 100), *p = s;
    p += sprintf(p, "tablas.t0 = { filas = 2, columnas = { id = { serie = true }%s%s%s } }\n", ciclo ? ", r = { ref = \"t" : "",
                 ciclo ? "10999" : "", ciclo ? ".id\" }" : "");
    for (size_t i = 1; i < n; i++)
        p += sprintf(p, "tablas.t%zu = { filas = 2, columnas = { id = { serie = true }, r = { ref = \"t%zu.id\" } } }\n", i, i - 1);
    return s;
}
typedef struct largo {
    int ciclo;
    dt_status st;
    char why[DT_SENTENCE_MAX];
    size_t ultimo;
} largo;
static void *construir(void *arg) {
    largo *l = (largo *)arg;
    char *s = cadena(11000, l->ciclo);
    dt_esquema *e = NULL;
    l->st = dt_esquema_new(s, strlen(s), DT_ESQUEMA_TOML, "cadena.toml", 1, 0, 0, 0, &e, l->why, sizeof l->why);
    if (e) l->ultimo = dt_esquema_orden(e, 10999);
    dt_esquema_free(e);
    free(s);
    return NULL;
}
static void cadenas(void) {
    for (int ciclo = 0; ciclo < 2; ciclo++) {
        largo l = {ciclo, DT_OK, "", 0};
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setstacksize(&a, 256 * 1024);
        pthread_t h;
        CHECK(pthread_create(&h, &a, construir, &l) == 0, "thread");
        pthread_join(h, NULL);
        pthread_attr_destroy(&a);
        if (!ciclo) CHECK(l.st == DT_OK && l.ultimo == 10999, "chain of 11,000: %s %s", dt_status_str(l.st), l.why);
        else
            CHECK(l.st == DT_ERR_INVALID_ARG && strncmp(l.why, "cadena.toml:2: tablas.t1.columnas.r: a foreign-key cycle: t0 -> t10999 -> t10998 -> ", 83) == 0 &&
                      strstr(l.why, " -> ... -> t0 (a table must come after the tables it refers to)") != NULL && strlen(l.why) < DT_SENTENCE_MAX,
                  "cycle of 11,000: %s", l.why);
    }
}

int main(void) {
    cadenas();
    malos_casos();
    propiedades();
    banco_aditivo();
    return dt_test_done("test_esquema");
}
