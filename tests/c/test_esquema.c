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
#include "esquema_prueba.h"
#include "esquema/reparto.h" /* the weight tables themselves: a rounding off by one is invisible in rows */

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

/* ---- fan-out distributions and skewed foreign keys (docs/esquemas.md#determinism) ----
 *
 * The expectations below come from the test's own implementation of the documented formulas (FNV-1a
 * 64, mezcla, acotado, the Feistel permutation of stream.md, the weight tables), written from the
 * doc, not from reparto.c; the weight tables are first checked against values worked out by hand. */

static uint64_t t_fnv(const char *s, size_t n) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}
static uint64_t t_mezcla(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
static uint64_t t_acotado(uint64_t clave, uint64_t i, uint64_t n) {
    uint64_t resto = (0 - n) % n; /* 2^64 mod n, another way round: 2^64 - n is congruent to it */
    uint64_t h = t_mezcla(clave ^ t_mezcla(i));
    while (h > UINT64_MAX - resto) h = t_mezcla(h ^ 0x7265686173ULL);
    return h % n;
}
/* permutar(key, n, i) as docs/stream.md words it: the smallest h >= 1 (at most 31) with 2^(2h) >= n. */
static uint64_t t_permutar(uint64_t clave, uint64_t n, uint64_t x) {
    unsigned h = 1;
    while (h < 31 && (1ULL << (2 * h)) < n) h++;
    uint64_t mask = (1ULL << h) - 1;
    do {
        uint64_t L = x >> h, R = x & mask;
        for (uint64_t r = 0; r < 4; r++) {
            uint64_t F = t_mezcla(clave + r * 4294967296ULL + R) & mask, nl = R;
            R = L ^ F;
            L = nl;
        }
        x = (L << h) | R;
    } while (x >= n);
    return x;
}
static uint64_t t_clave_tabla(uint64_t seed, const char *tabla) { return t_mezcla(seed ^ t_fnv(tabla, strlen(tabla))); }
static uint64_t t_clave_columna(uint64_t seed, const char *tabla, const char *col) {
    char b[200];
    size_t tn = strlen(tabla), cn = strlen(col);
    memcpy(b, tabla, tn);
    b[tn] = '\0';
    memcpy(b + tn + 1, col, cn);
    return t_mezcla(seed ^ t_fnv(b, tn + 1 + cn));
}

/* Cumulative weights of counts min.. (n of them): 'g' geometric per mille p, 'z' Zipf exponent s. */
static void t_acum(int dist, uint64_t param, size_t n, uint64_t *acum) {
    uint64_t suma = 0, w = 1ULL << 32;
    for (size_t k = 0; k < n; k++) {
        uint64_t x;
        if (dist == 'g') {
            x = w;
            w = w * (1000 - param) / 1000;
        } else {
            uint64_t d = 1; /* (k + 1)^s, until it passes 2^32 (then at most 2^32 * 65536) */
            for (uint64_t i = 0; i < param && d <= (1ULL << 32); i++) d *= k + 1;
            x = d > (1ULL << 32) ? 0 : (1ULL << 32) / d;
        }
        suma += x;
        acum[k] = suma;
    }
}
static size_t t_primero(const uint64_t *acum, size_t n, uint64_t x) {
    size_t k = 0;
    while (k < n && acum[k] <= x) k++; /* linear on purpose: not the library's binary search */
    return k;
}

/* Zipf buckets of a sesgo over ranks 1..n: first rank, per-rank weight floor(2^48 / a^s), cumulative. */
typedef struct t_cubetas {
    size_t nb;
    uint64_t ini[1000], u[1000], acum[1000];
} t_cubetas;
static void t_cubetas_de(uint64_t n, uint64_t s, t_cubetas *c) {
    c->nb = 0;
    uint64_t suma = 0;
    for (uint64_t a = 1; a <= n;) {
        unsigned e = 0; /* the bucket's width 2^e: 1 below 32, else 2^(floor(log2 a) - 4) */
        while (a >= (32ULL << e)) e++;
        uint64_t d = 1, u;
        int grande = 0; /* a^s > 2^48: weight 0 */
        for (uint64_t i = 0; i < s && !grande; i++) {
            if (d > (1ULL << 48) / a) grande = 1;
            else d *= a;
        }
        u = grande ? 0 : (1ULL << 48) / d;
        if (u == 0) break;
        uint64_t ancho = (1ULL << e) < n - a + 1 ? (1ULL << e) : n - a + 1;
        suma += ancho * u;
        c->ini[c->nb] = a;
        c->u[c->nb] = u;
        c->acum[c->nb++] = suma;
        a += 1ULL << e;
    }
}
static uint64_t t_sesgo(const t_cubetas *c, uint64_t clave, uint64_t clave_perm, uint64_t n, uint64_t r) {
    uint64_t x = t_acotado(clave, r, c->acum[c->nb - 1]);
    size_t b = t_primero(c->acum, c->nb, x);
    uint64_t rango = c->ini[b] + (x - (b ? c->acum[b - 1] : 0)) / c->u[b];
    return t_permutar(clave_perm, n, rango - 1);
}

/* Integer column j of every row of a table (a linear split, for 10^5 rows). */
static uint64_t *t_enteros(const dt_esquema *e, size_t t, size_t j, size_t *n) {
    *n = (size_t)dt_esquema_tabla_filas(e, t);
    char *b = filas(e, t, 0, *n), *p = b;
    uint64_t *v = (uint64_t *)malloc((*n + 1) * sizeof *v);
    for (size_t r = 0; r < *n; r++) {
        for (size_t c = 0; c < j; c++) p = strchr(p, DT_FIELD_SEP) + 1;
        v[r] = strtoull(p, &p, 10);
        p = strchr(p, '\n') + 1;
    }
    free(b);
    return v;
}

/* Slices [a, a + k) of table t equal the same lines of the full run. */
static void t_rebanadas(const dt_esquema *e, size_t t) {
    size_t n = (size_t)dt_esquema_tabla_filas(e, t);
    char *todo = filas(e, t, 0, n);
    size_t *ini = (size_t *)malloc((n + 1) * sizeof *ini), pos = 0;
    for (size_t r = 0; r <= n; r++) {
        ini[r] = pos;
        if (r < n) pos = (size_t)(strchr(todo + pos, '\n') + 1 - todo);
    }
    const size_t cortes[][2] = {{0, 1}, {n / 3, 17}, {n / 2, n / 2}, {n - 1, 1}, {n, 0}};
    for (size_t c = 0; c < 5; c++) {
        char *parte = filas(e, t, cortes[c][0], cortes[c][1]);
        size_t bytes = ini[cortes[c][0] + cortes[c][1]] - ini[cortes[c][0]];
        CHECK(strlen(parte) == bytes && memcmp(parte, todo + ini[cortes[c][0]], bytes) == 0, "%s: slice %zu+%zu differs from the full run",
              dt_esquema_tabla(e, t), cortes[c][0], cortes[c][1]);
        free(parte);
    }
    free(ini);
    free(todo);
}

static const char reparto_doc[] =
    "[tablas.p]\nfilas = 100000\ncolumnas.id = { serie = true }\n"
    "[tablas.g]\npor = \"p\"\ncuantos = { min = 0, max = 3, distribucion = \"geometrica\", p = 500 }\n"
    "columnas.p = { ref = \"p.id\" }\ncolumnas.id = { serie = true }\n"
    "[tablas.z]\npor = \"p\"\ncuantos = { min = 1, max = 4, distribucion = \"zipf\", s = 1 }\n"
    "columnas.p = { ref = \"p.id\" }\n"
    "[tablas.w]\npor = \"p\"\ncuantos = { min = 2, max = 4, distribucion = \"pesos\", pesos = [5, 3, 1] }\n"
    "columnas.p = { ref = \"p.id\" }\n"
    "[tablas.tres]\npor = \"p\"\ncuantos = { min = 1, max = 4, distribucion = \"pesos\", pesos = [0, 0, 7, 0] }\n"
    "columnas.id = { serie = true }\n"
    "[tablas.uno]\npor = \"p\"\ncuantos = { min = 1, max = 9, distribucion = \"geometrica\", p = 1000 }\n"
    "columnas.id = { serie = true }\n"
    "[tablas.c]\nfilas = 1000\ncolumnas.id = { serie = true }\n"
    "[tablas.m]\nfilas = 100000\ncolumnas.id = { serie = true }\ncolumnas.c = { ref = \"c.id\", sesgo = { distribucion = \"zipf\", s = 1 } }\n"
    "columnas.u = { ref = \"c.id\" }\n"
    "[tablas.big]\nfilas = 100000000\ncolumnas.id = { serie = true }\n"
    "[tablas.b]\nfilas = 3000\ncolumnas.big = { ref = \"big.id\", sesgo = { distribucion = \"zipf\", s = 2 } }\n"
    "columnas.g = { ref = \"g.id\" }\n";

static void reparto(void) {
    /* The weight tables by hand (2^32 = 4294967296):
     * geometrica p = 500, counts 0..3: 2^32, 2^31, 2^30, 2^29 -> cumulative 4294967296, 6442450944,
     *   7516192768, 8053063680 (shares 8/15, 4/15, 2/15, 1/15);
     * geometrica p = 300: 4294967296, then floor(. * 700 / 1000) each: 3006477107 (3006477107.2),
     *   2104533974 (2104533974.9), 1473173781 (1473173781.8): rounding down at every step;
     * zipf s = 1, counts 1..4: 2^32, 2^31, floor(2^32 / 3) = 1431655765, 2^30 -> cumulative
     *   4294967296, 6442450944, 7874106709, 8947848533;
     * zipf s = 2, 3 counts: 2^32, 2^30, floor(2^32 / 9) = 477218588;
     * zipf s = 8, 20 counts: 20^8 = 2.56e10 > 2^32, so the last count's weight is 0 (and 16^8 = 2^32: 1). */
    uint64_t a[20];
    t_acum('g', 500, 4, a);
    CHECK(a[0] == 4294967296ULL && a[1] == 6442450944ULL && a[2] == 7516192768ULL && a[3] == 8053063680ULL, "geometrica 500");
    t_acum('g', 300, 4, a);
    CHECK(a[1] - a[0] == 3006477107ULL && a[2] - a[1] == 2104533974ULL && a[3] - a[2] == 1473173781ULL, "geometrica 300");
    t_acum('z', 1, 4, a);
    CHECK(a[0] == 4294967296ULL && a[1] == 6442450944ULL && a[2] == 7874106709ULL && a[3] == 8947848533ULL, "zipf 1");
    t_acum('z', 2, 3, a);
    CHECK(a[1] - a[0] == 1073741824ULL && a[2] - a[1] == 477218588ULL, "zipf 2");
    t_acum('z', 8, 20, a);
    CHECK(a[15] - a[14] == 1 && a[19] == a[18], "zipf 8");
    /* sesgo buckets over 40 ranks: 1..31 one each, then [32, 34), [34, 36), [36, 38), [38, 40), [40, 41):
     * 36 buckets, per-rank weights floor(2^48 / a): rank 32's is 2^43 = 8796093022208. Over 3 ranks with
     * s = 1 the total is 2^48 + 2^47 + floor(2^48 / 3) = 281474976710656 + 140737488355328 +
     * 93824992236885 = 516037457302869. */
    /* The library's own tables hold the same integers (and drop trailing zero weights). */
    static const struct {
        int dist;
        int64_t param;
        size_t n, n_final;
        uint64_t w[4];
    } tablas_mano[] = {{DT__REPARTO_GEOMETRICA, 500, 4, 4, {4294967296ULL, 2147483648ULL, 1073741824ULL, 536870912ULL}},
                       {DT__REPARTO_GEOMETRICA, 300, 4, 4, {4294967296ULL, 3006477107ULL, 2104533974ULL, 1473173781ULL}},
                       {DT__REPARTO_GEOMETRICA, 1000, 4, 1, {4294967296ULL, 0, 0, 0}},
                       {DT__REPARTO_ZIPF, 1, 4, 4, {4294967296ULL, 2147483648ULL, 1431655765ULL, 1073741824ULL}},
                       {DT__REPARTO_ZIPF, 2, 3, 3, {4294967296ULL, 1073741824ULL, 477218588ULL, 0}}};
    for (size_t i = 0; i < sizeof tablas_mano / sizeof tablas_mano[0]; i++) {
        dt__reparto *r = dt__reparto_nuevo(tablas_mano[i].dist, tablas_mano[i].param, tablas_mano[i].n);
        CHECK(r && r->n == tablas_mano[i].n_final, "table %zu: %zu counts", i, r ? r->n : 0);
        for (size_t k = 0; r && k < r->n; k++)
            CHECK(r->acum[k] - (k ? r->acum[k - 1] : 0) == tablas_mano[i].w[k], "table %zu: weight %zu is %llu, by hand %llu", i, k,
                  (unsigned long long)(r->acum[k] - (k ? r->acum[k - 1] : 0)), (unsigned long long)tablas_mano[i].w[k]);
        dt__reparto_free(r);
    }
    dt__reparto *r8 = dt__reparto_nuevo(DT__REPARTO_ZIPF, 8, 20);
    CHECK(r8 && r8->n == 16 && r8->acum[15] - r8->acum[14] == 1, "zipf 8: %zu counts", r8 ? r8->n : 0);
    dt__reparto_free(r8);
    static t_cubetas cb;
    t_cubetas_de(40, 1, &cb);
    CHECK(cb.nb == 36 && cb.ini[31] == 32 && cb.u[31] == 8796093022208ULL && cb.ini[35] == 40 && cb.acum[35] - cb.acum[34] == cb.u[35],
          "buckets of 40: %zu", cb.nb);
    t_cubetas_de(3, 1, &cb);
    CHECK(cb.nb == 3 && cb.acum[2] == 516037457302869ULL, "buckets of 3");

    const uint64_t seed = 42;
    dt_esquema *e = abrir(reparto_doc, DT_ESQUEMA_TOML, seed);
    const size_t N = 100000;
    /* Exact counts: pesos [0, 0, 7, 0] over 1..4 gives every parent exactly 3 children; geometrica
     * p = 1000 gives weights 2^32, 0, 0, ...: every parent exactly min = 1. */
    CHECK(dt_esquema_tabla_filas(e, tabla(e, "tres")) == 3 * N, "tres: %llu rows", (unsigned long long)dt_esquema_tabla_filas(e, tabla(e, "tres")));
    CHECK(dt_esquema_tabla_filas(e, tabla(e, "uno")) == N, "uno: %llu rows", (unsigned long long)dt_esquema_tabla_filas(e, tabla(e, "uno")));

    /* Each parent's count equals the formula's, and the counts' shares are the weights' within 1,000 in
     * 100,000 (the largest standard deviation of a count's frequency is sqrt(N / 4) = 158: over 6 sigma). */
    static const struct {
        const char *t;
        int dist;
        uint64_t param, min;
        size_t n;
    } casos[] = {{"g", 'g', 500, 0, 4}, {"z", 'z', 1, 1, 4}, {"w", 'w', 0, 2, 3}};
    size_t *hijos = (size_t *)malloc(N * sizeof *hijos);
    for (size_t c = 0; c < 3; c++) {
        uint64_t acum[4];
        if (casos[c].dist == 'w') {
            acum[0] = 5;
            acum[1] = 8;
            acum[2] = 9;
        } else {
            t_acum(casos[c].dist, casos[c].param, casos[c].n, acum);
        }
        uint64_t total = acum[casos[c].n - 1], clave = t_clave_tabla(seed, casos[c].t);
        size_t ti = tabla(e, casos[c].t), nf;
        uint64_t *padre = t_enteros(e, ti, 0, &nf);
        memset(hijos, 0, N * sizeof *hijos);
        for (size_t r = 0; r < nf; r++) {
            CHECK(padre[r] >= 1 && padre[r] <= N && (r == 0 || padre[r] >= padre[r - 1]), "%s row %zu: parent %llu", casos[c].t, r,
                  (unsigned long long)padre[r]);
            if (padre[r] >= 1 && padre[r] <= N) hijos[padre[r] - 1]++;
        }
        size_t visto[4] = {0, 0, 0, 0}, distintos = 0, esperado_total = 0;
        for (size_t q = 0; q < N; q++) {
            size_t k = t_primero(acum, casos[c].n, t_acotado(clave, q, total)), cuenta = casos[c].min + k;
            esperado_total += cuenta;
            if (hijos[q] != cuenta && distintos++ < 5)
                CHECK(0, "seed %llu table %s parent row %zu: %zu children, the formula gives %zu", (unsigned long long)seed, casos[c].t, q,
                      hijos[q], cuenta);
            if (hijos[q] >= casos[c].min && hijos[q] - casos[c].min < casos[c].n) visto[hijos[q] - casos[c].min]++;
        }
        CHECK(distintos == 0 && nf == esperado_total, "%s: %zu parents differ; %zu rows, the formula's %zu", casos[c].t, distintos, nf, esperado_total);
        for (size_t k = 0; k < casos[c].n; k++) {
            uint64_t w = acum[k] - (k ? acum[k - 1] : 0), esperado = N * w / total;
            CHECK(visto[k] + 1000 >= esperado && visto[k] <= esperado + 1000, "%s: count %llu for %zu of %zu parents, weights say %llu",
                  casos[c].t, (unsigned long long)(casos[c].min + k), visto[k], N, (unsigned long long)esperado);
        }
        free(padre);
    }
    free(hijos);

    /* sesgo over 1,000 parents, 100,000 children: every row the formula's; rank rho's share within
     * 1,000 of N * u / total (rank 1 is about 1/7.9 of the rows, sigma about 105); the uniform column u
     * beside it is unchanged by the skew (acotado on its own key). */
    {
        size_t mi = tabla(e, "m"), nf;
        uint64_t *c = t_enteros(e, mi, 1, &nf), *u = t_enteros(e, mi, 2, &nf);
        CHECK(nf == N, "m: %zu rows", nf);
        t_cubetas_de(1000, 1, &cb);
        uint64_t clave = t_clave_columna(seed, "m", "c"), kp = t_mezcla(t_clave_tabla(seed, "c") ^ 0x736573676fULL),
                 ku = t_clave_columna(seed, "m", "u");
        size_t *veces = (size_t *)calloc(1000, sizeof *veces), malos_ = 0;
        for (size_t r = 0; r < nf; r++) {
            uint64_t f = t_sesgo(&cb, clave, kp, 1000, r);
            if ((c[r] != f + 1 || u[r] != t_acotado(ku, r, 1000) + 1) && malos_++ < 5)
                CHECK(0, "seed %llu m row %zu: c %llu (formula %llu), u %llu (formula %llu)", (unsigned long long)seed, r, (unsigned long long)c[r],
                      (unsigned long long)f + 1, (unsigned long long)u[r], (unsigned long long)t_acotado(ku, r, 1000) + 1);
            if (c[r] >= 1 && c[r] <= 1000) veces[c[r] - 1]++;
        }
        CHECK(malos_ == 0, "m: %zu rows differ from the formula", malos_);
        uint64_t total = cb.acum[cb.nb - 1];
        for (uint64_t rho = 1; rho <= 31; rho++) {
            uint64_t fila = t_permutar(kp, 1000, rho - 1), esperado = (uint64_t)N * (cb.u[rho - 1] >> 20) / (total >> 20); /* N * 2^48 would pass 2^64 */
            CHECK(veces[fila] + 1000 >= esperado && veces[fila] <= esperado + 1000, "m: rank %llu (row %llu) referred %zu times, weights say %llu",
                  (unsigned long long)rho, (unsigned long long)fila, veces[fila], (unsigned long long)esperado);
        }
        /* The most referred parent is rank 1's row, and the three most popular are not rows 0, 1, 2
         * (for this seed: a keyed permutation puts them anywhere). */
        size_t top = 0;
        for (size_t q = 1; q < 1000; q++)
            if (veces[q] > veces[top]) top = q;
        CHECK(top == t_permutar(kp, 1000, 0) && veces[top] > 10000 && veces[top] < 15000, "m: most referred row %zu (%zu times)", top, veces[top]);
        CHECK(!(t_permutar(kp, 1000, 0) < 3 && t_permutar(kp, 1000, 1) < 3 && t_permutar(kp, 1000, 2) < 3), "popular rows are 0, 1, 2");
        free(veces);
        free(c);
        free(u);
    }
    /* sesgo over 10^8 parents (no table over them): every row the formula's; s = 2 makes rank 1 about
     * 1/(pi^2/6) = 61 % of the rows (the stepped weights: exactly N * 2^48 / total, within 200). */
    {
        size_t bi = tabla(e, "b"), nf;
        uint64_t *v = t_enteros(e, bi, 0, &nf), *gv = t_enteros(e, bi, 1, &nf);
        static t_cubetas cg;
        t_cubetas_de(100000000, 2, &cg);
        uint64_t clave = t_clave_columna(seed, "b", "big"), kp = t_mezcla(t_clave_tabla(seed, "big") ^ 0x736573676fULL);
        size_t malos_ = 0, uno = 0, ng = (size_t)dt_esquema_tabla_filas(e, tabla(e, "g"));
        uint64_t top = t_permutar(kp, 100000000, 0);
        for (size_t r = 0; r < nf; r++) {
            uint64_t f = t_sesgo(&cg, clave, kp, 100000000, r);
            if (v[r] != f + 1 && malos_++ < 5)
                CHECK(0, "seed %llu b row %zu: big %llu, the formula %llu", (unsigned long long)seed, r, (unsigned long long)v[r], (unsigned long long)f + 1);
            uno += v[r] == top + 1;
            CHECK(gv[r] >= 1 && gv[r] <= ng, "b row %zu: g.p %llu", r, (unsigned long long)gv[r]); /* a ref to a fan-out's column */
        }
        uint64_t esperado = (uint64_t)nf * (cg.u[0] >> 20) / (cg.acum[cg.nb - 1] >> 20);
        CHECK(malos_ == 0 && uno + 200 >= esperado && uno <= esperado + 200, "b: %zu rows differ; rank 1 %zu times, weights say %llu", malos_, uno,
              (unsigned long long)esperado);
        CHECK(ng > 0, "g rows");
        free(v);
        free(gv);
    }
    for (size_t t = 0; t < dt_esquema_tablas(e); t++)
        if (dt_esquema_tabla_filas(e, t) <= 300000 && strcmp(dt_esquema_tabla(e, t), "p") != 0) t_rebanadas(e, t);
    hilos(e, tabla(e, "m"));
    /* Another seed moves the skew (not only the rows' order). */
    dt_esquema *o = abrir(reparto_doc, DT_ESQUEMA_TOML, 43);
    char *x = filas(e, tabla(e, "m"), 0, 50), *y = filas(o, tabla(o, "m"), 0, 50);
    CHECK(strcmp(x, y) != 0, "seeds 42 and 43 give the same m");
    free(x);
    free(y);
    dt_esquema_free(o);
    dt_esquema_free(e);

    /* "uniforme", spelled out or not, gives the rows it gave before distributions were built: digests
     * (FNV-1a 64 of each table's dt_esquema_filas text) of this schema at seed 42, computed with the
     * library of commit 7de08a8 (the last without distributions) by a separate program. */
    static const char uniforme[] =
        "[tablas.clientes]\nfilas = 300\n[tablas.clientes.columnas]\nid = { serie = true }\n"
        "persona = { llamada = \"persona.persona\", campos = [\"rut\", \"nombre_completo\", \"email\"], unico = [\"rut\"], edad_min = 21, nulos = { email = 200 } }\n"
        "[tablas.cuentas]\npor = \"clientes\"\ncuantos = { min = 1, max = 3%s }\n[tablas.cuentas.columnas]\nid = { serie = true }\n"
        "cliente = { ref = \"clientes.id\" }\ntitular = { ref = \"clientes.rut\" }\ntipo = { elegir = { corriente = 3, vista = 5, cuentarut = 2 } }\n"
        "[tablas.tarjetas]\npor = \"cuentas\"\ncuantos = { min = 0, max = 2 }\n[tablas.tarjetas.columnas]\nid = { serie = true }\ncuenta = { ref = \"cuentas.id\" }\n"
        "[tablas.movimientos]\nfilas = 2000\n[tablas.movimientos.columnas]\nid = { serie = true }\ncuenta = { ref = \"cuentas.id\" }\n";
    static const uint64_t huellas[4] = {0xeedc0ec97df09c8aULL, 0xeaf64ae236ef9dc8ULL, 0x2457323432ba469dULL, 0x01096eb38cff1ed4ULL};
    static const size_t nfilas[4] = {300, 603, 598, 2000};
    for (int explicito = 0; explicito < 2; explicito++) {
        char doc[2048];
        snprintf(doc, sizeof doc, uniforme, explicito ? ", distribucion = \"uniforme\"" : "");
        dt_esquema *u = abrir(doc, DT_ESQUEMA_TOML, 42);
        for (size_t t = 0; t < 4; t++) {
            size_t n = (size_t)dt_esquema_tabla_filas(u, t);
            char *b = filas(u, t, 0, n);
            uint64_t h = t_fnv(b, strlen(b));
            CHECK(n == nfilas[t] && h == huellas[t], "uniforme (%s): seed 42 table %s: %zu rows, digest 0x%016llx; before: %zu rows, 0x%016llx",
                  explicito ? "explicit" : "implicit", dt_esquema_tabla(u, t), n, (unsigned long long)h, nfilas[t], (unsigned long long)huellas[t]);
            free(b);
        }
        dt_esquema_free(u);
    }
}

/* tipo_sql: the DDL's types in both dialects, a ref following its parent's, the rows unchanged. */
static void tipos_sql(void) {
    const char *con =
        "[tablas.c]\nfilas = 5\n"
        "columnas.id = { serie = true, tipo_sql = \"integer\" }\n"
        "columnas.p = { llamada = \"persona.persona\", campos = { rut = \"rut_c\", fecha_nacimiento = \"nace\" }, unico = [\"rut\"], tipo_sql = { rut_c = \"varchar(12)\", nace = \"timestamp\" } }\n"
        "columnas.k = { elegir = { a = 1 }, tipo_sql = \"char(1)\" }\n"
        "columnas.r = { llamada = \"rut\", tipo = \"empresa\", tipo_sql = \"varchar(12)\" }\n" /* the call's own tipo is untouched */
        "columnas.m = { llamada = \"dinero.monto\", min = 1, max = 9, tipo_sql = \"numeric(12,2)\" }\n"
        "columnas.s = { llamada = \"dinero.monto\", min = 1, max = 9, tipo_sql = \"smallint\" }\n"
        "[tablas.h]\nfilas = 3\ncolumnas.c = { ref = \"c.rut_c\" }\ncolumnas.i = { ref = \"c.id\" }\n";
    const char *sin =
        "[tablas.c]\nfilas = 5\n"
        "columnas.id = { serie = true }\n"
        "columnas.p = { llamada = \"persona.persona\", campos = { rut = \"rut_c\", fecha_nacimiento = \"nace\" }, unico = [\"rut\"] }\n"
        "columnas.k = { elegir = { a = 1 } }\n"
        "columnas.r = { llamada = \"rut\", tipo = \"empresa\" }\n"
        "columnas.m = { llamada = \"dinero.monto\", min = 1, max = 9 }\n"
        "columnas.s = { llamada = \"dinero.monto\", min = 1, max = 9 }\n"
        "[tablas.h]\nfilas = 3\ncolumnas.c = { ref = \"c.rut_c\" }\ncolumnas.i = { ref = \"c.id\" }\n";
    dt_esquema *a = abrir(con, DT_ESQUEMA_TOML, 3), *b = abrir(sin, DT_ESQUEMA_TOML, 3);
    char ddl[4096];
    size_t len;
    CHECK_OK(dt_esquema_ddl(a, DT_SQL_POSTGRESQL, ddl, sizeof ddl, &len), "ddl");
    CHECK(strcmp(ddl, "CREATE TABLE c (\n"
                      "    id integer NOT NULL PRIMARY KEY,\n"
                      "    rut_c varchar(12) NOT NULL UNIQUE,\n"
                      "    nace timestamp NOT NULL,\n"
                      "    k char(1) NOT NULL,\n"
                      "    r varchar(12) NOT NULL,\n"
                      "    m numeric(12,2) NOT NULL,\n"
                      "    s smallint NOT NULL\n"
                      ");\n"
                      "\n"
                      "CREATE TABLE h (\n"
                      "    c varchar(12) NOT NULL,\n"
                      "    i integer NOT NULL,\n"
                      "    FOREIGN KEY (c) REFERENCES c (rut_c),\n"
                      "    FOREIGN KEY (i) REFERENCES c (id)\n"
                      ");\n") == 0,
          "tipo_sql ddl:\n%s", ddl);
    CHECK_OK(dt_esquema_ddl(a, DT_SQL_SQLITE, ddl, sizeof ddl, &len), "sqlite ddl");
    CHECK(strstr(ddl, "    id INTEGER NOT NULL PRIMARY KEY,\n    rut_c TEXT NOT NULL UNIQUE,\n    nace TEXT NOT NULL,\n    k TEXT NOT NULL,\n"
                      "    r TEXT NOT NULL,\n    m INTEGER NOT NULL,\n    s INTEGER NOT NULL\n") != NULL &&
              strstr(ddl, "    c TEXT NOT NULL,\n    i INTEGER NOT NULL,\n") != NULL,
          "tipo_sql sqlite:\n%s", ddl);
    dt_esquema_columna_info ci;
    CHECK_OK(dt_esquema_columna(a, 1, 0, &ci), "column");
    CHECK(strcmp(ci.tipo_sql, "varchar(12)") == 0, "h.c: %s", ci.tipo_sql);
    for (size_t t = 0; t < 2; t++) {
        char *x = filas(a, t, 0, (size_t)dt_esquema_tabla_filas(a, t)), *y = filas(b, t, 0, (size_t)dt_esquema_tabla_filas(b, t));
        CHECK(strcmp(x, y) == 0, "table %zu: tipo_sql changed the rows", t);
        free(x);
        free(y);
    }
    dt_esquema_free(a);
    dt_esquema_free(b);
}

static void abanicos_muchos(void);

int main(void) {
    cadenas();
    malos_casos();
    propiedades();
    banco_aditivo();
    reparto();
    tipos_sql();
    abanicos_muchos();
    return dt_test_done("test_esquema");
}

/* ---- the bound on distributions' weights (their refusals are cases of tests/casos_errores.json) ---- */


/* 17 fan-outs of 65,536 weights each pass the per-table bound and reach the schema's 2^20 on the 17th. */
static char *muchos_abanicos(void) {
    char *s = (char *)malloc(17 * 200 + 200), *p = s;
    p += sprintf(p, "[tablas.p]\nfilas = 1\ncolumnas.id = { serie = true }\n");
    for (int i = 0; i < 17; i++)
        p += sprintf(p, "[tablas.t%d]\npor = \"p\"\ncuantos = { min = 0, max = 65535, distribucion = \"zipf\", s = 1 }\ncolumnas.id = { serie = true }\n", i);
    return s;
}

static void abanicos_muchos(void) {
    char *s = muchos_abanicos();
    dt_esquema *e = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_esquema_new(s, strlen(s), DT_ESQUEMA_TOML, "banco.toml", 1, 0, 0, 0, &e, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG && e == NULL &&
              strcmp(why, "banco.toml:70: tablas.t16.cuantos: the schema's fan-out distributions may keep at most 1048576 weights together (8 bytes each), and this one brings them to 1114112") == 0,
          "17 tables of 65,536 weights: %s", why);
    /* 16 of them fit exactly (and the ones in a row keep every count 0..65535 reachable: zipf s = 1's
     * smallest weight is floor(2^32 / 65536) = 65536 > 0). */
    s[strlen(s) - 0] = '\0';
    char *t16 = strstr(s, "[tablas.t16]");
    *t16 = '\0';
    e = abrir(s, DT_ESQUEMA_TOML, 1);
    uint64_t n = dt_esquema_tabla_filas(e, tabla(e, "t0"));
    CHECK(n <= 65535, "t0: %llu rows for one parent", (unsigned long long)n);
    dt_esquema_free(e);
    free(s);
}
