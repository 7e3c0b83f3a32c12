/* Schema columns whose call arguments come from other columns ({ de = ... }, docs/esquemas.md): each
 * argument honoured (checked here from the rows themselves), a null source giving the default, only
 * what the argument decides changing, slices equal to full runs, a row whose source value cannot be an
 * argument refused with its sentence, and a chain of sources bounded. The documents refused at build
 * time are cases of tests/casos_errores.json. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "esquema_prueba.h"

static const char banco[] =
    "[tablas.clientes]\n"
    "filas = 400\n"
    "[tablas.clientes.columnas]\n"
    "id = { serie = true }\n"
    "persona = { llamada = \"persona.persona\", campos = [\"rut\", \"fecha_nacimiento\"], unico = [\"rut\"], edad_min = 19 }\n"
    "[tablas.cuentas]\n"
    "por = \"clientes\"\n"
    "cuantos = { min = 1, max = 3 }\n"
    "[tablas.cuentas.columnas]\n"
    "id = { serie = true }\n"
    "cliente = { ref = \"clientes.id\" }\n"
    "cuenta = { llamada = \"banco.cuenta_titular\", titular = { de = \"clientes.rut\" } }\n"
    "apertura = { llamada = \"fecha.fecha\", desde = { de = \"clientes.fecha_nacimiento\", mas = 6575 }, hasta = 0 }\n"
    "[tablas.movimientos]\n"
    "por = \"cuentas\"\n"
    "cuantos = { min = 0, max = 4 }\n"
    "[tablas.movimientos.columnas]\n"
    "id = { serie = true }\n"
    "cuenta = { ref = \"cuentas.id\" }\n"
    "fecha = { llamada = \"fecha.fecha\", desde = { de = \"cuentas.apertura\" }, hasta = 0 }\n"
    "a = { llamada = \"dinero.monto\", min = 10, max = 1000, nulos = { monto = 300 } }\n"
    "b = { llamada = \"dinero.monto\", min = { de = \"a\" }, max = 2000 }\n";

/* The same cuentas with banco.cuenta: the group's key is the same, so its stream is too. */
static const char sin_titular[] =
    "[tablas.clientes]\n"
    "filas = 400\n"
    "[tablas.clientes.columnas]\n"
    "id = { serie = true }\n"
    "[tablas.cuentas]\n"
    "por = \"clientes\"\n"
    "cuantos = { min = 1, max = 3 }\n"
    "[tablas.cuentas.columnas]\n"
    "cuenta = { llamada = \"banco.cuenta\" }\n";

static int64_t entero(const char *s, size_t n) {
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%.*s", (int)n, s);
    return strtoll(tmp, NULL, 10);
}

/* The integer in cell j of a row (its own statement: the cell must be read before its length is). */
static int64_t entero_en(const char *fila, size_t j) {
    size_t n;
    const char *s = celda(fila, 0, j, &n);
    return entero(s, n);
}

static int igual(const char *a, size_t an, const char *b, size_t bn) { return an == bn && memcmp(a, b, an) == 0; }

static void argumentos(void) {
    dt_esquema *e = abrir(banco, DT_ESQUEMA_TOML, 42), *s = abrir(sin_titular, DT_ESQUEMA_TOML, 42);
    size_t cl = tabla(e, "clientes"), cu = tabla(e, "cuentas"), mo = tabla(e, "movimientos");
    size_t ncl = (size_t)dt_esquema_tabla_filas(e, cl), ncu = (size_t)dt_esquema_tabla_filas(e, cu),
           nmo = (size_t)dt_esquema_tabla_filas(e, mo);
    CHECK(dt_esquema_tabla_filas(s, tabla(s, "cuentas")) == ncu, "the fan-out counts depend on the table, not its columns");
    char *bcl = filas(e, cl, 0, ncl), *bcu = filas(e, cu, 0, ncu), *bmo = filas(e, mo, 0, nmo);
    char *bs = filas(s, tabla(s, "cuentas"), 0, ncu);
    const char **rcl = renglones(bcl, ncl), **rcu = renglones(bcu, ncu), **rmo = renglones(bmo, nmo), **rs = renglones(bs, ncu);
    size_t j_rut = columna(e, cl, "rut"), j_nac = columna(e, cl, "fecha_nacimiento"), j_cli = columna(e, cu, "cliente"),
           j_tipo = columna(e, cu, "tipo_cuenta"), j_num = columna(e, cu, "numero"), j_tit = columna(e, cu, "rut_titular"),
           j_ap = columna(e, cu, "apertura"), j_cta = columna(e, mo, "cuenta"), j_fe = columna(e, mo, "fecha"),
           j_a = columna(e, mo, "a"), j_b = columna(e, mo, "b");
    size_t cuentarut = 0;
    for (size_t r = 0; r < ncu; r++) {
        size_t n, m, k;
        size_t p = (size_t)entero_en(rcu[r], j_cli) - 1;
        CHECK(p < ncl, "cuentas row %zu: cliente %zu", r, p + 1);
        const char *rut = celda(rcl[p], 0, j_rut, &m), *tit = celda(rcu[r], 0, j_tit, &n);
        CHECK(igual(rut, m, tit, n), "seed 42, cuentas row %zu: rut_titular '%.*s', its cliente's rut '%.*s'", r, (int)n, tit, (int)m, rut);
        const char *tipo = celda(rcu[r], 0, j_tipo, &n);
        if (igual(tipo, n, "CuentaRUT", 9)) { /* numbered by the body: the RUT's digits before the dash */
            cuentarut++;
            char cuerpo[16];
            size_t c = 0;
            for (size_t i = 0; i < m && rut[i] != '-'; i++)
                if (rut[i] != '.') cuerpo[c++] = rut[i];
            const char *num = celda(rcu[r], 0, j_num, &k);
            CHECK(igual(num, k, cuerpo, c), "seed 42, cuentas row %zu: CuentaRUT number '%.*s' for RUT '%.*s'", r, (int)k, num, (int)m, rut);
        }
        /* only what titular decides differs from banco.cuenta's row: bank, code and type are the same */
        for (size_t f = 0; f < 3; f++) {
            const char *x = celda(rcu[r], 0, 2 + f, &n), *y = celda(rs[r], 0, f, &k);
            CHECK(igual(x, n, y, k), "seed 42, cuentas row %zu field %zu: '%.*s' with titular, '%.*s' without", r, f, (int)n, x, (int)k, y);
        }
        /* opened 6,575 days or more after the birth: on or after the 18th birthday (18 years are 6,574
         * or 6,575 days), compared as text with the birth's year + 18 */
        const char *ap = celda(rcu[r], 0, j_ap, &n), *nac = celda(rcl[p], 0, j_nac, &m);
        char mayor[32];
        snprintf(mayor, sizeof mayor, "%04d%.6s", atoi(nac) + 18, nac + 4);
        CHECK(n == 10 && m == 10 && memcmp(ap, mayor, 10) >= 0, "seed 42, cuentas row %zu: opened %.*s, before its cliente's 18th birthday %s", r,
              (int)n, ap, mayor);
    }
    CHECK(cuentarut > ncu / 20, "%zu CuentaRUT of %zu cuentas", cuentarut, ncu);
    size_t nulos = 0;
    for (size_t r = 0; r < nmo; r++) {
        size_t n, m;
        size_t c = (size_t)entero_en(rmo[r], j_cta) - 1;
        const char *fe = celda(rmo[r], 0, j_fe, &n), *ap = celda(rcu[c], 0, j_ap, &m);
        CHECK(memcmp(fe, ap, 10) >= 0, "seed 42, movimientos row %zu: %.*s before its cuenta's opening %.*s", r, (int)n, fe, (int)m, ap);
        const char *a = celda(rmo[r], 0, j_a, &n);
        int64_t b = entero_en(rmo[r], j_b);
        if (n == 1 && a[0] == DT_NULO) { /* a null source: min takes its default, 1000 */
            nulos++;
            CHECK(b >= 1000 && b <= 2000, "seed 42, movimientos row %zu: b = %lld with a null a (default min 1000)", r, (long long)b);
        } else {
            CHECK(b >= entero(a, n) && b <= 2000, "seed 42, movimientos row %zu: b = %lld below a = %.*s", r, (long long)b, (int)n, a);
        }
    }
    CHECK(nulos > nmo / 5 && nulos < nmo * 2 / 5, "%zu null a of %zu (30 %%)", nulos, nmo);
    /* a slice recomputes its sources: rows 700.. alone equal those of the full run */
    char *tramo = filas(e, mo, 700, nmo - 700);
    CHECK(strcmp(tramo, rmo[700]) == 0, "movimientos rows 700..: a slice differs from the full run");
    free(tramo);
    free(rcl), free(rcu), free(rmo), free(rs);
    free(bcl), free(bcu), free(bmo), free(bs);
    dt_esquema_free(e);
    dt_esquema_free(s);
}

/* A row whose source is not an argument, or whose argument the call refuses: that row's sentence,
 * naming the table, the column and the row. */
static void filas_rechazadas(void) {
    static const char texto[] =
        "[tablas.t]\nfilas = 50\n[tablas.t.columnas]\n"
        "x = { elegir = { uno = 1 } }\n"
        "b = { llamada = \"dinero.monto\", min = { de = \"x\" } }\n";
    dt_esquema *e = abrir(texto, DT_ESQUEMA_TOML, 1);
    char buf[4096];
    size_t len = 0;
    dt_status st = dt_esquema_filas(e, 0, 3, 2, buf, sizeof buf, &len);
    const char *frase = "tablas.t.columnas.b: row 3: min takes t.x, whose value is not an integer, a date (YYYY-MM-DD) or a RUT";
    CHECK(st == DT_ERR_INVALID_ARG && strcmp(buf, frase) == 0 && len == strlen(frase), "status %d\n    got:      %s\n    expected: %s",
          (int)st, buf, frase);
    dt_esquema_free(e);

    /* a's values alone (the same group key, so the same values), then the first row whose a exceeds
     * b's max must be the refused one */
    static const char solo_a[] = "[tablas.t]\nfilas = 400\n[tablas.t.columnas]\na = { llamada = \"dinero.monto\", min = 10, max = 5000 }\n";
    static const char con_b[] =
        "[tablas.t]\nfilas = 400\n[tablas.t.columnas]\na = { llamada = \"dinero.monto\", min = 10, max = 5000 }\n"
        "b = { llamada = \"dinero.monto\", min = { de = \"a\" }, max = 2000 }\n";
    dt_esquema *sa = abrir(solo_a, DT_ESQUEMA_TOML, 7), *sb = abrir(con_b, DT_ESQUEMA_TOML, 7);
    char *ba = filas(sa, 0, 0, 400);
    const char **ra = renglones(ba, 400);
    size_t r = 0;
    while (r < 400 && entero_en(ra[r], 0) <= 2000) r++;
    CHECK(r < 400, "seed 7: no a above 2000 in 400 rows");
    char esperada[DT_SENTENCE_MAX];
    snprintf(esperada, sizeof esperada, "tablas.t.columnas.b: row %zu: dinero.monto: min must not exceed max, got min=%lld, max=2000", r,
             (long long)entero_en(ra[r], 0));
    char *grande = (char *)malloc(1 << 20);
    st = dt_esquema_filas(sb, 0, 0, 400, grande, 1 << 20, &len);
    CHECK(st == DT_ERR_INVALID_ARG && strcmp(grande, esperada) == 0, "status %d\n    got:      %s\n    expected: %s", (int)st, grande, esperada);
    /* the rows before it are made */
    if (r > 0) {
        char *antes = filas(sb, 0, 0, r);
        free(antes);
    }
    free(grande);
    free(ra);
    free(ba);
    dt_esquema_free(sa);
    dt_esquema_free(sb);
}

/* reparto and posicion: each document's lines add up to its neto exactly (a null neto gives null
 * lines), and number 1..k within their document, checked from the rows. */
static void repartos(void) {
    static const char texto[] =
        "[tablas.documentos]\nfilas = 3000\n[tablas.documentos.columnas]\n"
        "id = { serie = true }\n"
        "neto = { llamada = \"dinero.monto\", min = 0, max = 900000000000, nulos = { monto = 100 } }\n"
        "exento = { llamada = \"dinero.monto\", min = 0, max = 1000 }\n"
        "[tablas.lineas]\npor = \"documentos\"\ncuantos = { min = 1, max = 12 }\n[tablas.lineas.columnas]\n"
        "documento = { ref = \"documentos.id\" }\n"
        "linea = { posicion = true }\n"
        "monto = { reparto = \"documentos.neto\" }\n"
        "ambos = { reparto = [\"documentos.neto\", \"documentos.exento\"] }\n";
    dt_esquema *e = abrir(texto, DT_ESQUEMA_TOML, 3);
    size_t d = tabla(e, "documentos"), l = tabla(e, "lineas");
    size_t nd = (size_t)dt_esquema_tabla_filas(e, d), nl = (size_t)dt_esquema_tabla_filas(e, l);
    char *bd = filas(e, d, 0, nd), *bl = filas(e, l, 0, nl);
    const char **rd = renglones(bd, nd), **rl = renglones(bl, nl);
    int64_t *suma = (int64_t *)calloc(nd, sizeof *suma), *suma2 = (int64_t *)calloc(nd, sizeof *suma2);
    size_t *lineas = (size_t *)calloc(nd, sizeof *lineas), nulos = 0, ceros = 0;
    size_t anterior = 0;
    for (size_t r = 0; r < nl; r++) {
        size_t doc = (size_t)entero_en(rl[r], 0) - 1, n;
        CHECK(doc >= anterior && doc < nd, "seed 3, lineas row %zu: documento %zu after %zu", r, doc + 1, anterior + 1);
        anterior = doc;
        lineas[doc]++;
        CHECK(entero_en(rl[r], 1) == (int64_t)lineas[doc], "seed 3, lineas row %zu: linea %lld, expected %zu", r, (long long)entero_en(rl[r], 1),
              lineas[doc]);
        const char *a2 = celda(rl[r], 0, 3, &n);
        if (n == 1 && a2[0] == DT_NULO) suma2[doc] = -1;
        else if (suma2[doc] >= 0) suma2[doc] += entero(a2, n);
        const char *m = celda(rl[r], 0, 2, &n);
        if (n == 1 && m[0] == DT_NULO) {
            nulos++;
            suma[doc] = -1;
        } else {
            int64_t x = entero(m, n);
            CHECK(x >= 0, "seed 3, lineas row %zu: part %lld", r, (long long)x);
            ceros += x == 0;
            if (suma[doc] >= 0) suma[doc] += x;
        }
    }
    size_t nulos_doc = 0;
    for (size_t r = 0; r < nd; r++) {
        size_t n;
        const char *v = celda(rd[r], 0, 1, &n);
        CHECK(lineas[r] >= 1 && lineas[r] <= 12, "seed 3, documento row %zu: %zu lines", r, lineas[r]);
        if (n == 1 && v[0] == DT_NULO) {
            nulos_doc++;
            CHECK(suma[r] == -1 && suma2[r] == -1, "seed 3, documento row %zu: a null neto, lines not null", r);
        } else {
            CHECK(suma[r] == entero(v, n), "seed 3, documento row %zu: lines add up to %lld, neto %.*s", r, (long long)suma[r], (int)n, v);
            int64_t ex = entero_en(rd[r], 2);
            CHECK(suma2[r] == entero(v, n) + ex, "seed 3, documento row %zu: ambos add up to %lld, neto %.*s + exento %lld", r,
                  (long long)suma2[r], (int)n, v, (long long)ex);
        }
    }
    CHECK(nulos_doc > nd / 20 && nulos_doc < nd / 5, "%zu null neto of %zu (10 %%)", nulos_doc, nd);
    CHECK(ceros < nl / 100, "%zu zero parts of %zu lines: a neto up to 9e11 split in at most 12", ceros, nl);
    /* a slice starting mid-document equals the full run */
    char *tramo = filas(e, l, 1001, nl - 1001);
    CHECK(strcmp(tramo, rl[1001]) == 0, "lineas rows 1001..: a slice differs from the full run");
    free(tramo);
    free(suma), free(suma2), free(lineas), free(rd), free(rl), free(bd), free(bl);
    dt_esquema_free(e);
}

/* A chain of nine columns, each taking its min from the one before: one more than the bound. */
static void cadena(void) {
    char texto[2048], *p = texto;
    p += sprintf(p, "[tablas.t]\nfilas = 5\n[tablas.t.columnas]\nc0 = { llamada = \"dinero.monto\", min = 1, max = 10 }\n");
    for (int i = 1; i <= 9; i++) p += sprintf(p, "c%d = { llamada = \"dinero.monto\", min = { de = \"c%d\" } }\n", i, i - 1);
    dt_esquema *e = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_esquema_new(texto, strlen(texto), DT_ESQUEMA_TOML, "cadena.toml", 1, 0, 0, 0, &e, why, sizeof why);
    const char *frase = "cadena.toml:13: tablas.t.columnas.c9: its arguments come through a chain of more than 8 columns (de)";
    CHECK(st == DT_ERR_INVALID_ARG && e == NULL && strcmp(why, frase) == 0, "got:      %s\n    expected: %s", why, frase);
    /* eight links are fine, and each column is at least the one before */
    char *fin = strstr(texto, "c9 =");
    *fin = '\0';
    e = abrir(texto, DT_ESQUEMA_TOML, 1);
    char *b = filas(e, 0, 0, 5);
    const char **r = renglones(b, 5);
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 1; j < 9; j++) {
            int64_t x = entero_en(r[i], j - 1), y = entero_en(r[i], j);
            CHECK(y >= x, "row %zu: c%zu = %lld below c%zu = %lld", i, j, (long long)y, j - 1, (long long)x);
        }
    free(r);
    free(b);
    dt_esquema_free(e);
}

int main(void) {
    argumentos();
    filas_rechazadas();
    cadena();
    repartos();
    return dt_test_done("test_esquema_args");
}
