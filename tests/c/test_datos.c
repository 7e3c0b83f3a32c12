/* Every generating call, 10,000 draws each, checked against the CSVs in c/data read here
 * (not through the generated tables): geography, numbering plan, banks, formats, and the
 * frequency weighting. */
#include <ctype.h>

#include "check.h"
#include "csv.h"
#include "datoteca.h"
#include "rut_ref.h"

#ifndef DT_DATA_DIR
#error "DT_DATA_DIR must point at c/data"
#endif
#define N_ITER 10000

static csv_tabla T_comunas, T_regiones, T_nombres, T_apellidos, T_bancos, T_dominios, T_telefonos, T_postales;

/* A mobile "+56 9 XXXX XXXX" inside a block of telefonos_validos.csv (what libphonenumber accepts). */
static int movil_aceptado(const char *t) {
    unsigned long n = 0;
    for (const char *c = t + 3; *c; c++) if (isdigit((unsigned char)*c)) n = n * 10 + (unsigned long)(*c - '0');
    int cat = csv_col(&T_telefonos, "categoria"), de = csv_col(&T_telefonos, "desde"), ha = csv_col(&T_telefonos, "hasta");
    for (size_t i = 1; i < T_telefonos.filas; i++)
        if (strcmp(csv_celda(&T_telefonos, i, cat), "movil") == 0 && strtoul(csv_celda(&T_telefonos, i, de), NULL, 10) <= n &&
            n <= strtoul(csv_celda(&T_telefonos, i, ha), NULL, 10))
            return 1;
    return 0;
}

static int en_columna(const csv_tabla *t, const char *col, const char *v) {
    int c = csv_col(t, col);
    for (size_t i = 1; i < t->filas; i++)
        if (strcmp(csv_celda(t, i, c), v) == 0) return (int)i;
    return 0;
}

/* Row of comunas.csv for (comuna name, region official name), or 0. */
static int fila_comuna(const char *comuna, const char *region) {
    int cn = csv_col(&T_comunas, "nombre"), cr = csv_col(&T_comunas, "codigo_region");
    int rr = en_columna(&T_regiones, "nombre_oficial", region);
    if (!rr) return 0;
    const char *codigo_region = csv_celda(&T_regiones, (size_t)rr, csv_col(&T_regiones, "codigo_cut"));
    for (size_t i = 1; i < T_comunas.filas; i++)
        if (strcmp(csv_celda(&T_comunas, i, cn), comuna) == 0 && strcmp(csv_celda(&T_comunas, i, cr), codigo_region) == 0) return (int)i;
    return 0;
}

static int nombre_de_sexo(const char *nombre, const char *sexo) {
    int cn = csv_col(&T_nombres, "nombre"), cs = csv_col(&T_nombres, "sexo");
    for (size_t i = 1; i < T_nombres.filas; i++)
        if (strcmp(csv_celda(&T_nombres, i, cn), nombre) == 0 && strcmp(csv_celda(&T_nombres, i, cs), sexo) == 0) return 1;
    return 0;
}

/* Split a record from dt_call into its fields (in place). */
static size_t campos(char *s, char **out, size_t max) {
    size_t n = 0;
    out[n++] = s;
    for (; *s; s++)
        if (*s == DT_FIELD_SEP && n < max) {
            *s = 0;
            out[n++] = s + 1;
        }
    return n;
}

static size_t llamada(const char *nombre) {
    size_t i;
    if (dt_call_find(nombre, strlen(nombre), &i) != DT_OK) {
        fprintf(stderr, "no call %s\n", nombre);
        exit(1);
    }
    return i;
}

/* "+56 9 dddd dddd", "+56 2 2ddd dddd" or "+56 AA 2dd dddd": returns the area code or -1. */
static int area_de(const char *t) {
    if (strncmp(t, "+56 ", 4) != 0) return -1;
    t += 4;
    int area = 0;
    while (isdigit((unsigned char)*t)) area = area * 10 + (*t++ - '0');
    if (*t++ != ' ') return -1;
    size_t n = strlen(t);
    int largo = area < 10 ? 9 : 8; /* with the inner space */
    if ((int)n != largo) return -1;
    for (size_t i = 0; i < n; i++) {
        int espacio = (int)i == (area < 10 ? 4 : 3);
        if (espacio ? t[i] != ' ' : !isdigit((unsigned char)t[i])) return -1;
    }
    if (area != 9 && t[0] != '2') return -1;
    return area;
}

static long long leer_miles(const char *s, const char **fin) {
    long long v = 0;
    int grupo = 0, primero = 1;
    for (; *s; s++) {
        if (*s == '.') {
            if ((primero && (grupo < 1 || grupo > 3)) || (!primero && grupo != 3)) return -1;
            primero = 0;
            grupo = 0;
        } else if (isdigit((unsigned char)*s)) {
            v = v * 10 + (*s - '0');
            grupo++;
        } else {
            break;
        }
    }
    if (!primero && grupo != 3) return -1;
    *fin = s;
    return v;
}

int main(void) {
    T_comunas = csv_leer(DT_DATA_DIR "/comunas.csv");
    T_telefonos = csv_leer(DT_DATA_DIR "/telefonos_validos.csv");
    T_postales = csv_leer(DT_DATA_DIR "/codigos_postales.csv");
    T_regiones = csv_leer(DT_DATA_DIR "/regiones.csv");
    T_nombres = csv_leer(DT_DATA_DIR "/nombres.csv");
    T_apellidos = csv_leer(DT_DATA_DIR "/apellidos.csv");
    T_bancos = csv_leer(DT_DATA_DIR "/bancos.csv");
    T_dominios = csv_leer(DT_DATA_DIR "/dominios_email.csv");
    CHECK(T_comunas.filas == 347 && T_regiones.filas == 17, "CSV sizes %zu %zu", T_comunas.filas, T_regiones.filas);

    dt_gen *g;
    dt_new(0xda7a, &g);
    char buf[DT_MAX_TEXT], *f[16];
    size_t len;
    int c_area = csv_col(&T_comunas, "codigo_area_telefono");

    /* persona records; per birth year, the smallest and largest RUT body seen */
    enum { Y0 = 1900, NY = 131 };
    uint32_t min_rut[NY], max_rut[NY];
    for (int y = 0; y < NY; y++) { min_rut[y] = UINT32_MAX; max_rut[y] = 0; }
    size_t ip = llamada("persona.persona");
    for (int i = 0; i < N_ITER; i++) {
        CHECK_OK(dt_call(g, ip, NULL, 0, buf, sizeof buf, &len), "persona %d", i);
        CHECK(campos(buf, f, 16) == 14, "persona %d: field count", i);
        const char *sexo = f[4];
        char nombres[64];
        snprintf(nombres, sizeof nombres, "%s", f[0]);
        char *sp = strchr(nombres, ' ');
        if (sp) *sp = 0;
        CHECK(nombre_de_sexo(nombres, sexo), "seed 0xda7a persona %d: '%s' is not a %s name", i, nombres, sexo);
        if (sp) {
            CHECK(nombre_de_sexo(sp + 1, sexo), "persona %d: second name '%s' is not a %s name", i, sp + 1, sexo);
            CHECK(strcmp(nombres, sp + 1) != 0, "persona %d: repeated given name '%s'", i, f[0]);
        }
        CHECK(en_columna(&T_apellidos, "apellido", f[1]) && en_columna(&T_apellidos, "apellido", f[2]),
              "persona %d: surnames '%s' '%s'", i, f[1], f[2]);
        char completo[160];
        snprintf(completo, sizeof completo, "%s %s %s", f[0], f[1], f[2]);
        CHECK(strcmp(completo, f[3]) == 0, "persona %d: nombre_completo '%s' vs '%s'", i, f[3], completo);
        uint32_t cuerpo = 0;
        CHECK(rut_ref_ok(f[5], DT_RUT_PUNTOS, &cuerpo), "persona %d: rut '%s' fails the mod-11 written in the tests", i, f[5]);
        CHECK(cuerpo >= DT_RUT_PERSONA_MIN && cuerpo <= DT_RUT_PERSONA_MAX, "persona %d: rut body %u", i, cuerpo);
        int y, m, d;
        CHECK(sscanf(f[6], "%4d-%2d-%2d", &y, &m, &d) == 3 && strlen(f[6]) == 10, "persona %d: date '%s'", i, f[6]);
        int edad = 2026 - y - ((m > 1 || d > 1) ? 1 : 0); /* age on 2026-01-01 */
        CHECK(edad >= 18 && edad <= 80, "persona %d: born %s is %d on 2026-01-01", i, f[6], edad);
        if (y >= Y0 && y < Y0 + NY) {
            if (cuerpo < min_rut[y - Y0]) min_rut[y - Y0] = cuerpo;
            if (cuerpo > max_rut[y - Y0]) max_rut[y - Y0] = cuerpo;
        }
        const char *at = strchr(f[7], '@');
        CHECK(at && en_columna(&T_dominios, "dominio", at + 1), "persona %d: email domain in '%s'", i, f[7]);
        for (const char *q = f[7]; *q; q++)
            CHECK((unsigned char)*q < 128 && !isupper((unsigned char)*q), "persona %d: email '%s' not lower ASCII", i, f[7]);
        CHECK(area_de(f[8]) == 9 && movil_aceptado(f[8]), "persona %d: mobile '%s' (shape, or outside the accepted blocks)", i, f[8]);
        int pc = fila_comuna(f[10], f[11]);
        CHECK(pc, "persona %d: comuna '%s' not in '%s'", i, f[10], f[11]);
        if (pc) CHECK(strcmp(csv_celda(&T_comunas, (size_t)pc, csv_col(&T_comunas, "codigo_cut")), f[12]) == 0 &&
                          strncmp(f[12], f[13], 2) == 0 && strlen(f[13]) == 2,
                      "persona %d: codes %s/%s for %s", i, f[12], f[13], f[10]);
    }

    /* RUNs are assigned in order: anyone born 20 years later has a larger RUT body */
    for (int a = 0; a < NY; a++)
        for (int b = a + 20; b < NY; b++)
            if (max_rut[a] && max_rut[b])
                CHECK(max_rut[a] < min_rut[b], "born %d: RUT up to %u; born %d: RUT from %u", Y0 + a, max_rut[a], Y0 + b, min_rut[b]);

    /* address records: comuna ∈ provincia ∈ región by CUT codes, per the CSV */
    size_t idir = llamada("direccion.direccion");
    int cc = csv_col(&T_comunas, "codigo_cut"), cpv = csv_col(&T_comunas, "codigo_provincia"),
        cpn = csv_col(&T_comunas, "nombre_provincia"), cnom = csv_col(&T_comunas, "nombre");
    for (int i = 0; i < N_ITER; i++) {
        int64_t region = i % 17; /* 0 = any */
        CHECK_OK(dt_call(g, idir, &region, 1, buf, sizeof buf, &len), "direccion %d", i);
        CHECK(campos(buf, f, 16) == 12, "direccion %d: fields", i);
        int fila = en_columna(&T_comunas, "codigo_cut", f[5]);
        CHECK(fila, "direccion %d: CUT '%s' unknown", i, f[5]);
        if (!fila) continue;
        CHECK(strcmp(csv_celda(&T_comunas, (size_t)fila, cnom), f[4]) == 0, "direccion %d: comuna '%s' vs CUT %s", i, f[4], f[5]);
        CHECK(strcmp(csv_celda(&T_comunas, (size_t)fila, cpv), f[7]) == 0 && strncmp(f[5], f[7], 3) == 0,
              "direccion %d: provincia code %s for comuna %s", i, f[7], f[5]);
        CHECK(strcmp(csv_celda(&T_comunas, (size_t)fila, cpn), f[6]) == 0, "direccion %d: provincia '%s'", i, f[6]);
        CHECK(strncmp(f[7], f[9], 2) == 0, "direccion %d: region code %s for provincia %s", i, f[9], f[7]);
        CHECK(fila_comuna(f[4], f[8]), "direccion %d: '%s' not in '%s'", i, f[4], f[8]);
        if (region) CHECK(atoi(f[9]) == region, "direccion %d: asked region %lld, got %s", i, (long long)region, f[9]);
        int fp = en_columna(&T_postales, "codigo_comuna", f[5]);
        CHECK(fp && strcmp(csv_celda(&T_postales, (size_t)fp, csv_col(&T_postales, "codigo_postal_base")), f[10]) == 0,
              "direccion %d: postal code '%s' for comuna %s, codigos_postales.csv says '%s'", i, f[10], f[5],
              fp ? csv_celda(&T_postales, (size_t)fp, csv_col(&T_postales, "codigo_postal_base")) : "(no row)");
        CHECK(strstr(f[11], f[4]) && strstr(f[11], f[8]) && strstr(f[11], f[1]), "direccion %d: linea '%s'", i, f[11]);
        (void)cc;
    }

    /* comuna by region; fijo by region uses an area code of that region's comunas */
    size_t icom = llamada("direccion.comuna"), ifijo = llamada("telefono.fijo");
    for (int i = 0; i < N_ITER; i++) {
        int64_t args[2] = {1 + i % 16, 0};
        CHECK_OK(dt_call(g, icom, args, 1, buf, sizeof buf, &len), "comuna %d", i);
        const char *region_nombre = csv_celda(&T_regiones, (size_t)args[0], csv_col(&T_regiones, "nombre_oficial"));
        CHECK(fila_comuna(buf, region_nombre), "comuna %d: '%s' not in region %lld", i, buf, (long long)args[0]);
        CHECK_OK(dt_call(g, ifijo, args, 2, buf, sizeof buf, &len), "fijo %d", i);
        int area = area_de(buf);
        int ok = 0;
        char rc[3];
        snprintf(rc, sizeof rc, "%02d", (int)args[0]);
        for (size_t k = 1; k < T_comunas.filas; k++)
            if (strncmp(csv_celda(&T_comunas, k, cc), rc, 2) == 0 && atoi(csv_celda(&T_comunas, k, c_area)) == area) ok = 1;
        CHECK(area > 0 && area != 9 && ok, "fijo %d: '%s' (area %d) is not a code of region %s", i, buf, area, rc);
    }

    /* mobiles, money, banks, accounts, companies */
    size_t imov = llamada("telefono.movil"), iclp = llamada("dinero.clp"), iuf = llamada("dinero.uf"),
           ibanco = llamada("banco.banco"), icuenta = llamada("banco.cuenta"), iemp = llamada("empresa.empresa"),
           isueldo = llamada("dinero.sueldo");
    int cb_cod = csv_col(&T_bancos, "codigo"), cb_nom = csv_col(&T_bancos, "nombre_comun"), cb_est = csv_col(&T_bancos, "estado");
    int cuenta_rut = 0;
    for (int i = 0; i < N_ITER; i++) {
        CHECK_OK(dt_call(g, imov, NULL, 0, buf, sizeof buf, &len), "movil");
        CHECK(area_de(buf) == 9, "movil %d: '%s'", i, buf);
        int64_t rango[2] = {i, (int64_t)i * 1000 + 999};
        CHECK_OK(dt_call(g, iclp, rango, 2, buf, sizeof buf, &len), "clp");
        const char *fin;
        long long v = buf[0] == '$' ? leer_miles(buf + 1, &fin) : -1;
        CHECK(v >= rango[0] && v <= rango[1] && *fin == 0, "clp %d: '%s' not in [%lld, %lld]", i, buf, (long long)rango[0], (long long)rango[1]);
        CHECK_OK(dt_call(g, iuf, rango, 2, buf, sizeof buf, &len), "uf");
        v = strncmp(buf, "UF ", 3) == 0 ? leer_miles(buf + 3, &fin) : -1;
        CHECK(v >= 0 && fin[0] == ',' && isdigit((unsigned char)fin[1]) && isdigit((unsigned char)fin[2]) && fin[3] == 0, "uf %d: '%s'", i, buf);
        long long cent = v * 100 + (fin[1] - '0') * 10 + (fin[2] - '0');
        CHECK(cent >= rango[0] && cent <= rango[1], "uf %d: '%s' not in [%lld, %lld] hundredths", i, buf, (long long)rango[0], (long long)rango[1]);
        CHECK_OK(dt_call(g, isueldo, NULL, 0, buf, sizeof buf, &len), "sueldo");
        long long s = atoll(buf);
        CHECK(s >= DT_SUELDO_MINIMO && s <= 8000000 && s % 1000 == 0, "sueldo %d: %s", i, buf);

        CHECK_OK(dt_call(g, ibanco, NULL, 0, buf, sizeof buf, &len), "banco");
        campos(buf, f, 16);
        int fb = en_columna(&T_bancos, "codigo", f[0]);
        CHECK(fb && strcmp(csv_celda(&T_bancos, (size_t)fb, cb_nom), f[1]) == 0 && strcmp(csv_celda(&T_bancos, (size_t)fb, cb_est), "vigente") == 0,
              "banco %d: %s %s is not a current bank with that code", i, f[0], f[1]);
        CHECK_OK(dt_call(g, icuenta, NULL, 0, buf, sizeof buf, &len), "cuenta");
        campos(buf, f, 16);
        uint32_t cuerpo = 0;
        CHECK(rut_ref_ok(f[4], DT_RUT_PUNTOS, &cuerpo), "cuenta %d: holder rut '%s' fails the mod-11 written in the tests", i, f[4]);
        if (strcmp(f[2], "CuentaRUT") == 0) {
            cuenta_rut++;
            CHECK(strcmp(f[1], "012") == 0, "cuenta %d: CuentaRUT at bank %s", i, f[1]);
            CHECK(strtoul(f[3], NULL, 10) == cuerpo, "cuenta %d: CuentaRUT number %s vs holder %s", i, f[3], f[4]);
        } else {
            CHECK(strlen(f[3]) >= 8 && strlen(f[3]) <= 12 && f[3][0] != '0', "cuenta %d: number '%s'", i, f[3]);
        }
        (void)cb_cod;

        CHECK_OK(dt_call(g, iemp, NULL, 0, buf, sizeof buf, &len), "empresa");
        CHECK(campos(buf, f, 16) == 11, "empresa %d: fields", i);
        size_t lr = strlen(f[0]);
        int sa = lr > 5 && strcmp(f[0] + lr - 5, " S.A.") == 0;
        CHECK(rut_ref_ok(f[2], DT_RUT_PUNTOS, &cuerpo) &&
                  ((cuerpo >= DT_RUT_EMPRESA_MIN && cuerpo <= DT_RUT_EMPRESA_MAX) ||
                   (sa && cuerpo >= DT_RUT_SA_ANTIGUA_MIN && cuerpo <= DT_RUT_SA_ANTIGUA_MAX)),
              "empresa %d: rut '%s' for '%s'", i, f[2], f[0]);
        int forma = 0;
        static const char *formas[] = {" SpA", " Ltda.", " S.A.", " E.I.R.L."};
        for (int k = 0; k < 4; k++)
            if (lr > strlen(formas[k]) && strcmp(f[0] + lr - strlen(formas[k]), formas[k]) == 0) forma = 1;
        CHECK(forma && strncmp(f[0], f[1], strlen(f[1])) == 0, "empresa %d: razon social '%s' / fantasia '%s'", i, f[0], f[1]);
        int fc = fila_comuna(f[5], f[6]);
        CHECK(fc, "empresa %d: comuna '%s' not in '%s'", i, f[5], f[6]);
        if (fc) CHECK(strcmp(csv_celda(&T_comunas, (size_t)fc, csv_col(&T_comunas, "codigo_cut")), f[9]) == 0 &&
                          strncmp(f[9], f[10], 2) == 0 && strlen(f[10]) == 2,
                      "empresa %d: codes %s/%s for %s", i, f[9], f[10], f[5]);
        if (fc) CHECK(area_de(f[7]) == atoi(csv_celda(&T_comunas, (size_t)fc, c_area)),
                      "empresa %d: phone '%s' does not use %s's area code %s", i, f[7], f[5], csv_celda(&T_comunas, (size_t)fc, c_area));
        size_t le = strlen(f[8]);
        CHECK(strchr(f[8], '@') && le > 3 && strcmp(f[8] + le - 3, ".cl") == 0, "empresa %d: email '%s'", i, f[8]);
    }
    CHECK(cuenta_rut > 0, "no CuentaRUT in %d accounts", N_ITER);

    /* every other call runs 10,000 times through the registry without error or empty value */
    for (size_t c = 0; c < dt_call_count(); c++) {
        for (int i = 0; i < N_ITER; i++) {
            dt_status st = dt_call(g, c, NULL, 0, buf, sizeof buf, &len);
            CHECK(st == DT_OK && len > 0 && len == strlen(buf), "%s iteration %d: status %d len %zu", dt_call_at(c)->name, i, st, len);
            if (st != DT_OK) break;
        }
    }

    /* frequency weighting: José (rank 1 of men, 5.36 %) vs the rank-500 name (0.011 %).
     * Uniform choice would give both about 200 in 100,000; the bounds cannot pass by chance. */
    size_t inom = llamada("persona.nombre");
    int jose = 0, raro = 0;
    const char *nombre_raro = NULL;
    int cn = csv_col(&T_nombres, "nombre"), cs = csv_col(&T_nombres, "sexo"), crk = csv_col(&T_nombres, "rank_en_sexo");
    for (size_t k = 1; k < T_nombres.filas; k++)
        if (strcmp(csv_celda(&T_nombres, k, cs), "M") == 0 && atoi(csv_celda(&T_nombres, k, crk)) == 500) nombre_raro = csv_celda(&T_nombres, k, cn);
    CHECK(nombre_raro != NULL, "no rank-500 male name");
    int64_t sexo_m = DT_SEXO_M;
    for (int i = 0; i < 100000; i++) {
        dt_call(g, inom, &sexo_m, 1, buf, sizeof buf, &len);
        if (strcmp(buf, "José") == 0) jose++;
        if (nombre_raro && strcmp(buf, nombre_raro) == 0) raro++;
    }
    CHECK(jose > 4800 && jose < 5900, "José drawn %d times in 100,000 (expected about 5,357)", jose);
    CHECK(raro < 60, "%s drawn %d times in 100,000 (expected about 11)", nombre_raro, raro);
    /* comunas by population within the RM: Puente Alto (568,106) vs Alhué (6,444) */
    int puente = 0, alhue = 0;
    int64_t rm = 13;
    for (int i = 0; i < 100000; i++) {
        dt_call(g, icom, &rm, 1, buf, sizeof buf, &len);
        puente += strcmp(buf, "Puente Alto") == 0;
        alhue += strcmp(buf, "Alhué") == 0;
    }
    CHECK(puente > 7200 && puente < 8800 && alhue < 200, "Puente Alto %d, Alhué %d in 100,000 (expected about 7,987 and 91)", puente, alhue);
    dt_free(g);
    csv_tabla *tablas[] = {&T_comunas, &T_regiones, &T_nombres, &T_apellidos, &T_bancos, &T_dominios, &T_telefonos, &T_postales};
    for (size_t i = 0; i < sizeof tablas / sizeof tablas[0]; i++) csv_liberar(tablas[i]);
    return dt_test_done("test_datos");
}
