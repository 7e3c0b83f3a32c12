/* Masking, part 2 (docs/enmascarar.md): the rules document's refusals, sentence by sentence; a plan
 * bound to a header (its refusals, the columns dropped); the policies for a value a rule cannot read
 * (no sentence carries the value); the persona of an entity (deterministic, one per masked body, its
 * rut the masked RUT, the same in every column of a row). Check digits are checked with rut_ref.h's
 * own mod 11, not the library's. The persona's derivation is recomputed outside C by
 * tests/python/test_enmascarar.py (hashlib's BLAKE2s, a SipHash of its own, the CLI's persona). */
#include <stdlib.h>

#include "check.h"
#include "datoteca.h"
#include "rut_ref.h"

static const char CLAVE_A[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
static const char CLAVE_B[] = "010102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

static dt_mascara_clave *clave(const char *hex) {
    dt_mascara_clave *k = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_clave_new(hex, strlen(hex), &k, why, sizeof why), "key: %s", why);
    return k;
}

/* A rules text must be refused with exactly `esperada`. */
static void rechaza(const char *texto, int formato, const char *esperada) {
    dt_mascara_reglas *r = (dt_mascara_reglas *)1;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_mascara_reglas_new(texto, strlen(texto), formato, "reglas.toml", &r, why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG && r == NULL, "rules %s: expected DT_ERR_INVALID_ARG and NULL, got %d", texto, (int)st);
    CHECK(strcmp(why, esperada) == 0, "rules:\n%s\n    expected: %s\n    got:      %s", texto, esperada, why);
    if (st == DT_OK) dt_mascara_reglas_free(r);
}

static dt_mascara_reglas *acepta(const char *texto) {
    dt_mascara_reglas *r = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK_OK(dt_mascara_reglas_new(texto, strlen(texto), DT_MASCARA_TOML, "reglas.toml", &r, why, sizeof why),
             "rules:\n%s\n    refused: %s", texto, why);
    return r;
}

static void refusals(void) {
    rechaza("", DT_MASCARA_TOML, "reglas.toml:1: the document needs the key version");
    rechaza("version = 2\n[columnas]\na = { regla = \"rut\" }\n", DT_MASCARA_TOML,
            "reglas.toml:1: version must be 1 (the only version of the masking rules), got 2");
    rechaza("version = 1\n", DT_MASCARA_TOML, "reglas.toml:1: the document needs the key columnas");
    rechaza("version = 1\nclave = \"x\"\n[columnas]\n", DT_MASCARA_TOML,
            "reglas.toml:2: unknown key 'clave' (masking rules take version, columnas and politica)");
    rechaza("version = 1\n[columnas]\n", DT_MASCARA_TOML,
            "reglas.toml:2: columnas has no column: give every column of the input a rule");
    rechaza("version = 1\n[columnas]\nrut = \"rut\"\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.rut must be a table such as { regla = \"rut\" }, got a string");
    rechaza("version = 1\n[columnas]\nrut = { }\n", DT_MASCARA_TOML, "reglas.toml:3: columnas.rut needs the key regla");
    rechaza("version = 1\n[columnas]\nrut = { regla = 1 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.rut.regla must be a string, got an integer");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"hash\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.rut: unknown rule 'hash' (the rules are rut, persona, email, telefono, patente, "
            "texto, fecha, monto, sustituir, derivado, formato, ip, coordenada, imagen, constante, sigue, suma, mantener, nulo and borrar)");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\", formato = \"puntos\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.rut: unknown key 'formato' (the rule rut takes regla and dv)");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nemail = { regla = \"persona\", entidad = \"rut\" }\n",
            DT_MASCARA_TOML,
            "reglas.toml:4: columnas.email: the rule persona needs campo, one of nombres, apellido_paterno, "
            "apellido_materno, nombre_completo, email, telefono, direccion, comuna, region, fecha_nacimiento, sexo, "
            "codigo_comuna, codigo_region");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nemail = { regla = \"persona\", campo = \"correo\", "
            "entidad = \"rut\" }\n",
            DT_MASCARA_TOML,
            "reglas.toml:4: columnas.email.campo must be one of nombres, apellido_paterno, apellido_materno, "
            "nombre_completo, email, telefono, direccion, comuna, region, fecha_nacimiento, sexo, codigo_comuna, "
            "codigo_region, got 'correo'");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nemail = { regla = \"persona\", campo = \"email\" }\n",
            DT_MASCARA_TOML,
            "reglas.toml:4: columnas.email: the rule persona needs entidad, the column whose masked RUT the persona "
            "stands for");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nemail = { regla = \"persona\", campo = \"email\", "
            "entidad = \"run\" }\n",
            DT_MASCARA_TOML, "reglas.toml:4: columnas.email.entidad names 'run', which is not a column of columnas");
    rechaza("version = 1\n[columnas]\nid = { regla = \"mantener\" }\nemail = { regla = \"persona\", campo = \"email\", "
            "entidad = \"id\" }\n",
            DT_MASCARA_TOML,
            "reglas.toml:4: columnas.email.entidad names 'id', whose rule is not rut: an entity is a column of RUTs "
            "masked with the rule rut");
    rechaza("version = 1\n[politica]\ninvalido = \"ignorar\"\n[columnas]\nrut = { regla = \"rut\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: politica.invalido must be \"error\", \"nulo\" or \"invalido\" (what a value a rule cannot "
            "read becomes)");
    rechaza("version = 1\n[politica]\nsin_regla = \"nulo\"\n[columnas]\nrut = { regla = \"rut\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: politica.sin_regla must be \"error\" or \"mantener\" (what a column of the input with no "
            "rule does)");
    rechaza("version = 1\n[politica]\nclave = 1\n[columnas]\nrut = { regla = \"rut\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: unknown key 'clave' (politica takes invalido and sin_regla)");
    /* JSON, the same checks */
    rechaza("{\"version\": 1, \"columnas\": {\"notas\": {\"regla\": \"sustituir\"}}}", DT_MASCARA_JSON,
            "reglas.toml:1: columnas.notas: the rule sustituir needs llamada, a call that gives one text such as "
            "\"persona.nombre\"");
    /* the parser's own refusals come through as they are */
    dt_mascara_reglas *r = NULL;
    char why[DT_SENTENCE_MAX];
    CHECK(dt_mascara_reglas_new("version = 1\n[columnas\n", 21, DT_MASCARA_TOML, "r.toml", &r, why, sizeof why) ==
              DT_ERR_INVALID_ARG && strncmp(why, "r.toml:2: ", 10) == 0,
          "a syntax error: %s", why);
    CHECK(dt_mascara_reglas_new("", 0, 3, "r.toml", &r, why, sizeof why) == DT_ERR_INVALID_ARG, "formato 3 accepted");
    CHECK(dt_mascara_reglas_new("x", 1, DT_MASCARA_TOML, "r", NULL, why, sizeof why) == DT_ERR_NULL, "NULL out accepted");
}

static const char REGLAS[] = "version = 1\n"
                             "[columnas]\n"
                             "id = { regla = \"mantener\" }\n"
                             "rut = { regla = \"rut\" }\n"
                             "nombre = { regla = \"persona\", campo = \"nombre_completo\", entidad = \"rut\" }\n"
                             "email = { regla = \"persona\", campo = \"email\", entidad = \"rut\" }\n"
                             "sexo = { regla = \"persona\", campo = \"sexo\", entidad = \"rut\" }\n"
                             "saldo = { regla = \"borrar\" }\n"
                             "obs = { regla = \"nulo\" }\n";

static dt_mascara_plan *plan_de(const dt_mascara_reglas *r, const dt_mascara_clave *k, size_t n, const char **cols,
                                dt_status esperado, const char *frase) {
    size_t largos[16];
    for (size_t i = 0; i < n; i++) largos[i] = strlen(cols[i]);
    dt_mascara_plan *p = NULL;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_mascara_plan_new(r, k, n, cols, largos, &p, why, sizeof why);
    CHECK(st == esperado, "plan: expected status %d, got %d (%s)", (int)esperado, (int)st, why);
    if (frase) CHECK(strcmp(why, frase) == 0, "plan:\n    expected: %s\n    got:      %s", frase, why);
    return p;
}

static dt_status fila(dt_mascara_plan *p, uint64_t n_fila, size_t n, const char **v, char *why) {
    size_t largos[16];
    for (size_t i = 0; i < n; i++) largos[i] = strlen(v[i]);
    return dt_mascara_plan_fila(p, n_fila, n, v, largos, why, DT_SENTENCE_MAX);
}

/* The output value i as a NUL-terminated copy. */
static const char *valor(const dt_mascara_plan *p, size_t i, char *buf, size_t cap) {
    size_t n;
    const char *s = dt_mascara_plan_valor(p, i, &n);
    snprintf(buf, cap, "%.*s", s ? (int)n : 0, s ? s : "");
    return buf;
}

/* 1 when `s` is a RUT in the dotted form whose check digit is right (rut_ref.h's mod 11). */
static int rut_puntos_valido(const char *s, uint32_t *cuerpo) {
    uint32_t c = 0;
    size_t n = strlen(s);
    if (n < 3 || s[n - 2] != '-') return 0;
    for (size_t i = 0; i + 2 < n; i++)
        if (s[i] >= '0' && s[i] <= '9') c = c * 10 + (uint32_t)(s[i] - '0');
        else if (s[i] != '.') return 0;
    *cuerpo = c;
    return mod11(c) == s[n - 1];
}

/* Every text field equal (the bytes after each NUL are not part of a record). */
/* The rule persona's email of persona pe of masked body c, from the document ("Contact data that
 * reaches no one"): the generated local part without its trailing digits, the body, @example.com. */
static void email_regla(const dt_persona *pe, uint32_t c, char out[128]) {
    const char *at = strchr(pe->email, '@');
    size_t n = at ? (size_t)(at - pe->email) : 0;
    while (n > 0 && pe->email[n - 1] >= '0' && pe->email[n - 1] <= '9') n--;
    snprintf(out, 128, "%.*s%u@example.com", (int)n, pe->email, c);
}

static int misma_persona(const dt_persona *a, const dt_persona *b) {
    return !strcmp(a->nombres, b->nombres) && !strcmp(a->apellido_paterno, b->apellido_paterno) &&
           !strcmp(a->apellido_materno, b->apellido_materno) && !strcmp(a->nombre_completo, b->nombre_completo) &&
           !strcmp(a->sexo, b->sexo) && !strcmp(a->rut, b->rut) && !strcmp(a->fecha_nacimiento, b->fecha_nacimiento) &&
           !strcmp(a->email, b->email) && !strcmp(a->telefono, b->telefono) && !strcmp(a->direccion, b->direccion) &&
           !strcmp(a->comuna, b->comuna) && !strcmp(a->region, b->region) && !strcmp(a->codigo_comuna, b->codigo_comuna) &&
           !strcmp(a->codigo_region, b->codigo_region);
}

static void planes(void) {
    dt_mascara_clave *k = clave(CLAVE_A), *kb = clave(CLAVE_B);
    dt_mascara_reglas *r = acepta(REGLAS);
    const char *cols[] = {"id", "rut", "nombre", "email", "sexo", "saldo", "obs"};
    plan_de(r, k, 6, (const char *[]){"id", "rut", "nombre", "email", "sexo", "saldo"}, DT_ERR_INVALID_ARG,
            "reglas.toml: columnas.obs names a column the input does not have (its header has no such name)");
    plan_de(r, k, 8, (const char *[]){"id", "rut", "nombre", "email", "sexo", "saldo", "obs", "telefono"},
            DT_ERR_INVALID_ARG,
            "reglas.toml: the input's column 'telefono' has no rule in columnas (a column added after the rules were "
            "written is not masked by assumption): give it one ({ regla = \"mantener\" } keeps it as it is), or set "
            "politica.sin_regla = \"mantener\"");
    plan_de(r, k, 8, (const char *[]){"id", "rut", "nombre", "email", "sexo", "saldo", "obs", "rut"}, DT_ERR_INVALID_ARG,
            "reglas.toml: the input has two columns named 'rut'; a rule could not tell them apart");
    dt_mascara_plan *p = plan_de(r, k, 7, cols, DT_OK, NULL);
    if (p == NULL) return;
    /* saldo (borrar) is dropped: id rut nombre email sexo obs */
    const char *salida[] = {"id", "rut", "nombre", "email", "sexo", "obs"};
    CHECK(dt_mascara_plan_ncolumnas(p) == 6, "saldo is dropped: expected 6 output columns, got %zu",
          dt_mascara_plan_ncolumnas(p));
    for (size_t i = 0; i < 6; i++) {
        size_t n;
        const char *c = dt_mascara_plan_columna(p, i, &n);
        CHECK(c && n == strlen(salida[i]) && memcmp(c, salida[i], n) == 0, "output column %zu: expected %s", i, salida[i]);
    }
    size_t n0;
    CHECK(dt_mascara_plan_columna(p, 6, &n0) == NULL && n0 == 0, "output column 6 exists");

    char why[DT_SENTENCE_MAX], b[6][128];
    const char *v[] = {"7", "12.345.678-5", "Juan Pérez", "jperez@gmail.com", "M", "1000", "nota"};
    CHECK_OK(fila(p, 1, 7, v, why), "row 1: %s", why);
    CHECK(strcmp(valor(p, 0, b[0], 128), "7") == 0, "mantener: id expected 7, got %s", b[0]);
    CHECK(strcmp(valor(p, 5, b[5], 128), "") == 0, "nulo: obs expected empty, got %s", b[5]);
    uint32_t cuerpo = 0;
    valor(p, 1, b[1], 128);
    CHECK(rut_puntos_valido(b[1], &cuerpo), "row 1: the masked RUT %s is not a valid dotted RUT", b[1]);
    uint32_t esperado;
    CHECK_OK(dt_mascara_rut_cuerpo(k, 12345678, &esperado), "body");
    CHECK(cuerpo == esperado, "row 1: masked body %u, dt_mascara_rut_cuerpo says %u", cuerpo, esperado);
    /* the persona of that body, field by field */
    dt_persona pe, pe2, pb;
    CHECK_OK(dt_mascara_persona(k, cuerpo, &pe), "persona");
    CHECK_OK(dt_mascara_persona(k, cuerpo, &pe2), "persona again");
    CHECK(misma_persona(&pe, &pe2), "the persona of body %u differs between two calls", cuerpo);
    CHECK(strcmp(valor(p, 2, b[2], 128), pe.nombre_completo) == 0, "nombre: expected %s, got %s", pe.nombre_completo, b[2]);
    char em[128];
    email_regla(&pe, cuerpo, em);
    CHECK(strcmp(valor(p, 3, b[3], 128), em) == 0, "email: expected %s, got %s", em, b[3]);
    CHECK(strcmp(valor(p, 4, b[4], 128), pe.sexo) == 0, "sexo: expected %s, got %s", pe.sexo, b[4]);
    char rut_p[16];
    snprintf(rut_p, sizeof rut_p, "%u-%c", cuerpo, mod11(cuerpo));
    CHECK(strcmp(pe.rut, rut_p) == 0, "the persona's rut: expected %s, got %s", rut_p, pe.rut);
    CHECK(strstr(pe.email, "jperez") == NULL && strcmp(pe.nombre_completo, "Juan Pérez") != 0, "the original survived");
    /* another key, another persona */
    CHECK_OK(dt_mascara_persona(kb, cuerpo, &pb), "persona, key B");
    CHECK(strcmp(pb.nombre_completo, pe.nombre_completo) != 0 || strcmp(pb.email, pe.email) != 0,
          "keys A and B give body %u the same persona %s", cuerpo, pe.email);
    /* the same RUT written another way is the same person */
    const char *v2[] = {"8", " 12345678-5 ", "x", "y", "F", "1", ""};
    CHECK_OK(fila(p, 2, 7, v2, why), "row 2: %s", why);
    CHECK(strcmp(valor(p, 3, b[3], 128), em) == 0, "row 2: the same RUT undotted gave email %s, not %s", b[3], em);
    /* 2,000 bodies: distinct personas (by email and name) for distinct bodies, nearly always */
    unsigned iguales = 0;
    dt_persona prev;
    memset(&prev, 0, sizeof prev);
    for (uint32_t c = 5000000; c < 5002000; c++) {
        dt_persona q;
        CHECK_OK(dt_mascara_persona(k, c, &q), "persona %u", c);
        if (strcmp(q.email, prev.email) == 0 && strcmp(q.nombre_completo, prev.nombre_completo) == 0) iguales++;
        CHECK(q.email[0] != '\0' && q.telefono[0] != '\0', "body %u: a persona of 18 to 80 with no email or phone", c);
        prev = q;
    }
    CHECK(iguales == 0, "%u consecutive bodies share a persona", iguales);
    CHECK(dt_mascara_persona(k, 0, &pb) == DT_ERR_INVALID_ARG, "body 0 accepted");
    CHECK(dt_mascara_persona(NULL, 1, &pb) == DT_ERR_NULL, "NULL key accepted");

    /* an empty entity, a bad check digit: policy error names row and column, never the value */
    const char *v3[] = {"9", "", "Ana", "ana@x.cl", "F", "1", ""};
    CHECK(fila(p, 3, 7, v3, why) == DT_ERR_INVALID_ARG, "row 3: an empty entity with persona values was accepted");
    CHECK(strcmp(why, "row 3, column nombre: its entity rut is empty, so there is no persona to take "
                      "nombre_completo from; politica.invalido is \"error\"") == 0,
          "row 3: %s", why);
    const char *v4[] = {"9", "13.579.246-0", "Ana", "ana@x.cl", "F", "1", ""};
    CHECK(fila(p, 4, 7, v4, why) == DT_ERR_INVALID_ARG, "row 4: a wrong check digit accepted under error");
    CHECK(strcmp(why, "row 4, column rut: not a valid RUT (rut: the check digit does not match the body); "
                      "politica.invalido is \"error\"") == 0,
          "row 4: %s", why);
    CHECK(strstr(why, "13.579") == NULL && strstr(why, "579.246") == NULL, "row 4: the value is in the sentence: %s", why);
    const char *v5[] = {"9", "", "", "", "", "1", ""};
    CHECK_OK(fila(p, 5, 7, v5, why), "row 5 (all empty): %s", why);
    CHECK(strcmp(valor(p, 2, b[2], 128), "") == 0, "row 5: an empty value became %s", b[2]);
    CHECK(fila(p, 6, 6, v5, why) == DT_ERR_INVALID_ARG, "a row of 6 values under a header of 7 accepted");
    dt_mascara_plan_free(p);
    dt_mascara_reglas_free(r);

    /* policy nulo: emptied; policy invalido: a wrong check digit kept wrong, at the same distance */
    char texto[1024];
    for (int pol = 0; pol < 2; pol++) {
        snprintf(texto, sizeof texto, "%s[politica]\ninvalido = \"%s\"\n", REGLAS, pol ? "invalido" : "nulo");
        r = acepta(texto);
        p = plan_de(r, k, 7, cols, DT_OK, NULL);
        if (p == NULL) continue;
        /* 13.579.246-? : the right digit is mod11(13579246); give it the next one mod 11 */
        const char dvs[] = "0123456789K";
        char dv_ok = mod11(13579246);
        int e = (int)(strchr(dvs, dv_ok) - dvs);
        char malo[32];
        snprintf(malo, sizeof malo, "13.579.246-%c", dvs[(e + 3) % 11]);
        const char *v6[] = {"9", malo, "Ana", "ana@x.cl", "F", "1", ""};
        CHECK_OK(fila(p, 6, 7, v6, why), "policy %d: %s", pol, why);
        valor(p, 1, b[1], 128);
        if (pol == 0) {
            CHECK(strcmp(b[1], "") == 0, "nulo: the bad RUT became %s", b[1]);
            CHECK(strcmp(valor(p, 3, b[3], 128), "") == 0, "nulo: the persona's email of a bad entity is %s", b[3]);
        } else {
            uint32_t mc, esperado2;
            CHECK(!rut_puntos_valido(b[1], &mc), "invalido: %s is valid", b[1]);
            CHECK_OK(dt_mascara_rut_cuerpo(k, 13579246, &esperado2), "body");
            CHECK(mc == esperado2, "invalido: masked body %u, expected %u", mc, esperado2);
            int w = (int)(strchr(dvs, b[1][strlen(b[1]) - 1]) - dvs);
            int c = (int)(strchr(dvs, mod11(mc)) - dvs);
            CHECK((w - c + 11) % 11 == 3, "invalido: %s is %d digits from its right one, the input 3", b[1], (w - c + 11) % 11);
            CHECK_OK(dt_mascara_persona(k, esperado2, &pe), "persona");
            char em2[128];
            email_regla(&pe, esperado2, em2);
            CHECK(strcmp(valor(p, 3, b[3], 128), em2) == 0, "invalido: the email %s is not the persona's %s", b[3], em2);
            const char *v7[] = {"9", "no es rut", "Ana", "ana@x.cl", "F", "1", ""};
            CHECK_OK(fila(p, 7, 7, v7, why), "invalido, not a RUT: %s", why);
            CHECK(strcmp(valor(p, 1, b[1], 128), "") == 0 && strcmp(valor(p, 2, b[2], 128), "") == 0,
                  "invalido: a text that is no RUT became %s / %s", b[1], b[2]);
        }
        dt_mascara_plan_free(p);
        dt_mascara_reglas_free(r);
    }
    /* sin_regla = "mantener": an unnamed column passes */
    r = acepta("version = 1\n[politica]\nsin_regla = \"mantener\"\n[columnas]\nrut = { regla = \"rut\" }\n");
    p = plan_de(r, k, 2, (const char *[]){"rut", "otra"}, DT_OK, NULL);
    if (p) {
        const char *v8[] = {"12.345.678-5", "hola"};
        CHECK_OK(fila(p, 1, 2, v8, why), "sin_regla: %s", why);
        CHECK(strcmp(valor(p, 1, b[1], 128), "hola") == 0, "sin_regla mantener: got %s", b[1]);
    }
    dt_mascara_plan_free(p);
    dt_mascara_reglas_free(r);
    dt_mascara_clave_free(k);
    dt_mascara_clave_free(kb);
}

/* ---- the value rules: fecha, monto, sustituir, and persona's sexo (docs/enmascarar.md) ---- */

/* Day number of a date, counted from 0001-01-01 = 1 with the test's own arithmetic (whole years,
 * then months), not the library's days-from-civil. */
static int64_t dia_ref(int a, int m, int d) {
    static const int mes[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t y = a - 1, n = 365 * y + y / 4 - y / 100 + y / 400;
    int bis = (a % 4 == 0 && a % 100 != 0) || a % 400 == 0;
    for (int i = 1; i < m; i++) n += mes[i - 1] + (i == 2 && bis);
    return n + d;
}

/* A date as the rule writes it, read back by the test: its day number and form (0 ISO, 1 DD-MM-YYYY,
 * 2 DD/MM/YYYY); -1 when it is not one of them. */
static int64_t leer_fecha(const char *s, int *forma) {
    if (strlen(s) != 10) return -1;
    int a, m, d;
    char x, y;
    if (sscanf(s, "%4d%c%2d%c%2d", &a, &x, &m, &y, &d) == 5 && x == '-' && y == '-' && s[4] == '-') *forma = 0;
    else if (sscanf(s, "%2d%c%2d%c%4d", &d, &x, &m, &y, &a) == 5 && x == y && (x == '-' || x == '/')) *forma = x == '-' ? 1 : 2;
    else return -1;
    return dia_ref(a, m, d);
}

/* dt_mascara_fecha of `in` under entity `e` and `dias`, as a NUL-terminated text ("" if refused). */
static dt_status fecha_de(const dt_mascara_clave *k, const char *in, uint32_t e, int32_t dias, char *out, char *why) {
    size_t n = 0;
    return dt_mascara_fecha(k, in, strlen(in), e, dias, out, 32, &n, why, DT_SENTENCE_MAX);
}
static dt_status monto_de(const dt_mascara_clave *k, const char *in, uint32_t e, int32_t p, char *out, char *why) {
    size_t n = 0;
    return dt_mascara_monto(k, in, strlen(in), e, p, out, 64, &n, why, DT_SENTENCE_MAX);
}

/* The magnitude of an amount the rule wrote (dots skipped), and whether it has dots. */
static uint64_t magnitud(const char *s, int *puntos) {
    uint64_t v = 0;
    *puntos = 0;
    for (; *s; s++)
        if (*s >= '0' && *s <= '9') v = v * 10 + (uint64_t)(*s - '0');
        else if (*s == '.') *puntos = 1;
    return v;
}

static void valores_fecha(const dt_mascara_clave *k, const dt_mascara_clave *kb) {
    char o1[32], o2[32], why[DT_SENTENCE_MAX];
    /* per entity: one offset for every date, within [-dias, dias], never 0 */
    const char *fechas[] = {"2024-02-29", "1999-12-31", "2000-01-01", "1970-01-01", "1900-03-01", "2026-12-01"};
    int vistos[7] = {0};
    for (uint32_t e = 1000000; e < 1002000; e++) {
        int64_t off = 0;
        for (size_t i = 0; i < 6; i++) {
            int f;
            CHECK_OK(fecha_de(k, fechas[i], e, 3, o1, why), "fecha %s entity %u: %s", fechas[i], e, why);
            int64_t d = leer_fecha(o1, &f) - leer_fecha(fechas[i], &f);
            CHECK(f == 0, "fecha %s entity %u: the form changed: %s", fechas[i], e, o1);
            if (i == 0) off = d;
            CHECK(d == off, "fecha entity %u: %s moved %lld days, %s %lld (an interval changed)", e, fechas[i], (long long)d,
                  fechas[0], (long long)off);
        }
        CHECK(off >= -3 && off <= 3 && off != 0, "fecha entity %u: offset %lld outside {-3..-1, 1..3}", e, (long long)off);
        if (off >= -3 && off <= 3) vistos[off + 3]++;
    }
    /* 2,000 entities over 6 offsets: about 333 each (a binomial's sd is 17; 250..420 is 5 sd) */
    for (int o = -3; o <= 3; o++)
        CHECK(o == 0 ? vistos[3] == 0 : vistos[o + 3] >= 250 && vistos[o + 3] <= 420, "fecha: offset %d drawn %d times in 2000", o,
              vistos[o + 3]);
    /* the bounds reached: 20,000 entities with dias = 30 see both -30 and 30 (each 1 in 60) */
    int64_t lo = 0, hi = 0;
    for (uint32_t e = 5000000; e < 5020000; e++) {
        int f;
        CHECK_OK(fecha_de(k, "2020-06-15", e, 30, o1, why), "fecha: %s", why);
        int64_t d = leer_fecha(o1, &f) - dia_ref(2020, 6, 15);
        if (d < lo) lo = d;
        if (d > hi) hi = d;
    }
    CHECK(lo == -30 && hi == 30, "fecha dias 30: offsets from %lld to %lld, expected -30 to 30", (long long)lo, (long long)hi);
    /* the three forms: the same day, the same shift, each in its own form */
    int64_t iso = 0;
    const char *formas[] = {"2023-03-05", "05-03-2023", "05/03/2023"};
    for (int i = 0; i < 3; i++) {
        int f;
        CHECK_OK(fecha_de(k, formas[i], 7654321, 3650, o1, why), "fecha %s: %s", formas[i], why);
        int64_t d = leer_fecha(o1, &f);
        CHECK(f == i, "fecha %s: written %s, another form", formas[i], o1);
        if (i == 0) iso = d;
        CHECK(d == iso, "fecha %s -> %s: another day than the ISO spelling's", formas[i], o1);
    }
    /* by the value (entity 0): the same date the same output, another key another */
    CHECK_OK(fecha_de(k, "2023-03-05", 0, 30, o1, why), "fecha: %s", why);
    CHECK_OK(fecha_de(k, "05/03/2023", 0, 30, o2, why), "fecha: %s", why);
    int f1, f2;
    CHECK(leer_fecha(o1, &f1) == leer_fecha(o2, &f2), "fecha by value: %s and %s differ", o1, o2);
    int distintos = 0;
    for (uint32_t e = 1000000; e < 1000100; e++) {
        CHECK_OK(fecha_de(k, "2023-03-05", e, 3650, o1, why), "fecha: %s", why);
        CHECK_OK(fecha_de(kb, "2023-03-05", e, 3650, o2, why), "fecha: %s", why);
        distintos += strcmp(o1, o2) != 0;
    }
    CHECK(distintos >= 95, "fecha: another key gave the same date for %d of 100 entities", 100 - distintos);
    /* refusals: the sentence never holds the value */
    const char *malas[] = {"2023-02-29", "2024-13-01", "2024-00-10", "0000-01-01", "31-04-2024", "2024-1-01", "20240101",
                           "2024/01/01", "05-03/2023", "2024-01-01 ", "x024-01-01", "", "2024-01-0a"};
    for (size_t i = 0; i < sizeof malas / sizeof malas[0]; i++) {
        dt_status st = fecha_de(k, malas[i], 1000000, 30, o1, why);
        CHECK(st == DT_ERR_INVALID_ARG && o1[0] == '\0', "fecha '%s': expected refused, got %d '%s'", malas[i], (int)st, o1);
        CHECK(strncmp(why, "fecha: ", 7) == 0 && (malas[i][0] == '\0' || strstr(why, malas[i]) == NULL),
              "fecha '%s': sentence %s", malas[i], why);
    }
    fecha_de(k, "2023-02-29", 1000000, 30, o1, why);
    CHECK(strcmp(why, "fecha: no such day in the calendar (the year, month or day is out of range)") == 0, "fecha: %s", why);
    fecha_de(k, "20240101", 1000000, 30, o1, why);
    CHECK(strcmp(why, "fecha: not a date written YYYY-MM-DD, DD-MM-YYYY or DD/MM/YYYY") == 0, "fecha: %s", why);
    /* out of the years 0001..9999: an entity whose shift is positive, at 9999-12-31 */
    int hecho = 0;
    for (uint32_t e = 1000000; e < 1000100 && !hecho; e++) {
        int f;
        fecha_de(k, "2000-01-01", e, 10, o1, why);
        if (leer_fecha(o1, &f) <= dia_ref(2000, 1, 1)) continue;
        hecho = 1;
        CHECK(fecha_de(k, "9999-12-31", e, 10, o1, why) == DT_ERR_INVALID_ARG &&
                  strcmp(why, "fecha: the shifted date falls outside the years 0001 to 9999") == 0,
              "fecha 9999-12-31 shifted forward: %s", why);
    }
    CHECK(fecha_de(k, "2000-01-01", 1, 0, o1, why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "fecha: dias must be from 1 to 3650, got 0") == 0,
          "fecha dias 0: %s", why);
    CHECK(fecha_de(k, "2000-01-01", 1, 3651, o1, why) == DT_ERR_INVALID_ARG, "fecha dias 3651 accepted");
    size_t n = 0;
    CHECK(dt_mascara_fecha(k, "2000-01-01", 10, 1, 5, o1, 10, &n, why, sizeof why) == DT_ERR_BUFFER_TOO_SMALL && n == 10,
          "fecha cap 10: expected DT_ERR_BUFFER_TOO_SMALL and 10, got %zu", n);
    CHECK(dt_mascara_fecha(NULL, "2000-01-01", 10, 1, 5, o1, 32, &n, why, sizeof why) == DT_ERR_NULL, "fecha NULL k");
}

static void valores_monto(const dt_mascara_clave *k) {
    char o[64], why[DT_SENTENCE_MAX];
    /* the bounds, exactly: 20,000 entities at p = 10 on 1000 give 900..1100, both ends reached (1 in 2,000) */
    uint64_t lo = 2000, hi = 0;
    for (uint32_t e = 2000000; e < 2020000; e++) {
        int d;
        CHECK_OK(monto_de(k, "1000", e, 10, o, why), "monto: %s", why);
        uint64_t w = magnitud(o, &d);
        if (w < lo) lo = w;
        if (w > hi) hi = w;
    }
    CHECK(lo == 900 && hi == 1100, "monto p 10 on 1000: from %llu to %llu, expected 900 to 1100", (unsigned long long)lo,
          (unsigned long long)hi);
    /* the factor of an entity read from 10^13 (exact: (10^13 (10000 + f) + 5000) / 10000 = 10^13 + 10^9 f),
     * then every amount 1..20000 of that entity recomputed from the documented formula */
    int sujetos = 0; /* amounts whose rounding the bounds held back: the clamp must be exercised */
    for (uint32_t e = 3000000; e < 3000040; e++) {
        int d;
        CHECK_OK(monto_de(k, "10000000000000", e, 7, o, why), "monto: %s", why);
        int64_t f = ((int64_t)magnitud(o, &d) - 10000000000000) / 1000000000;
        CHECK(f >= -700 && f <= 700 && f != 0, "monto entity %u: factor %lld basis points outside {-700..-1, 1..700}", e,
              (long long)f);
        for (uint64_t v = 1; v <= 20000; v++) {
            char in[32];
            snprintf(in, sizeof in, "%llu", (unsigned long long)v);
            CHECK_OK(monto_de(k, in, e, 7, o, why), "monto %s: %s", in, why);
            /* round half up of v (10000 + f) / 10000, then held in [ceil(0.93 v), floor(1.07 v)] */
            uint64_t x = (v * (uint64_t)(10000 + f) + 5000) / 10000, a = (93 * v + 99) / 100, b = 107 * v / 100;
            uint64_t esperado = x < a ? a : x > b ? b : x;
            sujetos += x != esperado;
            uint64_t w = magnitud(o, &d);
            if (w != esperado) {
                CHECK(w == esperado, "monto %s entity %u (f %lld): expected %llu, got %s", in, e, (long long)f,
                      (unsigned long long)esperado, o);
                break;
            }
        }
    }
    CHECK(sujetos > 0, "monto: no amount of 40 entities x 20000 met a bound after rounding (the clamp untested)");
    /* forms: the prefix kept byte for byte, dots as the input had them */
    struct {
        const char *in, *prefijo;
        int puntos;
    } formas[] = {{"1234567", "", 0},        {"1.234.567", "", 1}, {"$1.234.567", "$", 1}, {"$ 1.234", "$ ", 1},
                  {"-$ 12.345", "-$ ", 1},   {"-1234", "-", 0},    {"999", "", 0},          {"$999", "$", 0},
                  {"99.999.999.999.999", "", 1}, {"-5", "-", 0}};
    for (size_t i = 0; i < sizeof formas / sizeof formas[0]; i++) {
        CHECK_OK(monto_de(k, formas[i].in, 4000000, 50, o, why), "monto %s: %s", formas[i].in, why);
        size_t pl = strlen(formas[i].prefijo);
        CHECK(strncmp(o, formas[i].prefijo, pl) == 0 && o[pl] >= '1' && o[pl] <= '9',
              "monto %s -> %s: prefix '%s' not kept", formas[i].in, o, formas[i].prefijo);
        int d, dv;
        uint64_t v = magnitud(formas[i].in, &dv), w = magnitud(o, &d);
        CHECK(w * 100 >= v * 50 && w * 100 <= v * 150, "monto %s -> %s: beyond 50 %%", formas[i].in, o);
        /* dotted: groups of three from the right, checked by rewriting */
        char re[64], *q = re + sizeof re;
        *--q = '\0';
        uint64_t t = w;
        int g = 0;
        do {
            if (formas[i].puntos && g && g % 3 == 0) *--q = '.';
            *--q = (char)('0' + t % 10);
            t /= 10;
            g++;
        } while (t);
        CHECK(strcmp(o + pl, q) == 0, "monto %s -> %s: digits written %s, expected %s", formas[i].in, o, o + pl, q);
    }
    CHECK_OK(monto_de(k, "0", 4000000, 50, o, why), "monto 0: %s", why);
    CHECK(strcmp(o, "0") == 0, "monto 0 -> %s", o);
    /* by the value: the same amount the same output, written either way */
    char o2[64];
    CHECK_OK(monto_de(k, "1234567", 0, 10, o, why), "monto: %s", why);
    CHECK_OK(monto_de(k, "$1.234.567", 0, 10, o2, why), "monto: %s", why);
    int d1, d2;
    CHECK(magnitud(o, &d1) == magnitud(o2, &d2), "monto by value: %s and %s differ", o, o2);
    const char *malos[] = {"1,5", "01", "0.123", "1.23", "1234.567", "12.3456", "$", "-", "", "1.234.", ".123", "1e5",
                           "+5", "$-5", " 5", "5 ", "1..234", "--5", "$$5"};
    for (size_t i = 0; i < sizeof malos / sizeof malos[0]; i++) {
        dt_status st = monto_de(k, malos[i], 4000000, 10, o, why);
        CHECK(st == DT_ERR_INVALID_ARG && o[0] == '\0', "monto '%s': expected refused, got %d '%s'", malos[i], (int)st, o);
        CHECK(strcmp(why, "monto: not an amount (digits, or digits with a dot between groups of three, after an optional "
                          "'-' and an optional '$')") == 0,
              "monto '%s': %s", malos[i], why);
    }
    CHECK(monto_de(k, "100000000000000", 4000000, 10, o, why) == DT_ERR_INVALID_ARG &&
              strcmp(why, "monto: the amount has more than 14 digits, more than this rule scales exactly") == 0,
          "monto 10^14: %s", why);
    CHECK(monto_de(k, "99999999999999999999999", 4000000, 10, o, why) == DT_ERR_INVALID_ARG, "monto 23 digits accepted");
    CHECK(monto_de(k, "5", 1, 0, o, why) == DT_ERR_INVALID_ARG && strcmp(why, "monto: porcentaje must be from 1 to 90, got 0") == 0,
          "monto p 0: %s", why);
    CHECK(monto_de(k, "5", 1, 91, o, why) == DT_ERR_INVALID_ARG, "monto p 91 accepted");
    /* the largest: 14 nines at +90 % still exact (no overflow): at most floor(1.9 v) */
    for (uint32_t e = 1; e < 200; e++) {
        int d;
        CHECK_OK(monto_de(k, "99999999999999", e, 90, o, why), "monto: %s", why);
        uint64_t w = magnitud(o, &d);
        CHECK(w >= 9999999999999ULL && w <= 189999999999998ULL, "monto 14 nines entity %u: %s", e, o);
    }
}

static void valores_sustituir(const dt_mascara_clave *k, const dt_mascara_clave *kb) {
    size_t idx, n;
    char a[DT_MAX_TEXT], b[DT_MAX_TEXT], why[DT_SENTENCE_MAX];
    CHECK_OK(dt_call_find("persona.nombre_completo", 23, &idx), "persona.nombre_completo");
    const char *iguales[] = {"Ana María Pérez", "  ana   maría pérez ", "ANA MARÍA PÉREZ", "Ana\tMaría\nPérez", "aNa MaRÍa PéReZ"};
    CHECK_OK(dt_mascara_sustituir(k, idx, iguales[0], strlen(iguales[0]), a, sizeof a, &n, why, sizeof why), "%s", why);
    CHECK(n > 0 && strlen(a) == n && strcmp(a, iguales[0]) != 0, "sustituir: got '%s'", a);
    for (size_t i = 1; i < 5; i++) {
        CHECK_OK(dt_mascara_sustituir(k, idx, iguales[i], strlen(iguales[i]), b, sizeof b, &n, why, sizeof why), "%s", why);
        CHECK(strcmp(a, b) == 0, "sustituir: '%s' gave '%s', '%s' gave '%s' (the same after normalization)", iguales[0], a,
              iguales[i], b);
    }
    /* 2,000 distinct names: the outputs mostly distinct (collisions are possible, documented) */
    char (*vistos)[DT_MAX_TEXT] = malloc(2000 * sizeof *vistos);
    int repetidos = 0, otra_clave = 0;
    for (int i = 0; i < 2000 && vistos; i++) {
        char in[32];
        snprintf(in, sizeof in, "Persona %d", i);
        CHECK_OK(dt_mascara_sustituir(k, idx, in, strlen(in), vistos[i], DT_MAX_TEXT, &n, why, sizeof why), "%s", why);
        CHECK_OK(dt_mascara_sustituir(kb, idx, in, strlen(in), b, sizeof b, &n, why, sizeof why), "%s", why);
        otra_clave += strcmp(vistos[i], b) == 0;
        for (int j = 0; j < i; j++) repetidos += strcmp(vistos[i], vistos[j]) == 0;
    }
    free(vistos);
    CHECK(repetidos < 20, "sustituir: %d repeated full names among 2000", repetidos);
    CHECK(otra_clave < 20, "sustituir: another key gave the same name for %d of 2000", otra_clave);
    /* a record or a number is refused; an index out of range too */
    CHECK_OK(dt_call_find("persona.persona", 15, &idx), "persona.persona");
    CHECK(dt_mascara_sustituir(k, idx, "x", 1, a, sizeof a, &n, why, sizeof why) == DT_ERR_INVALID_ARG, "a record accepted");
    CHECK(dt_mascara_sustituir(k, dt_call_count(), "x", 1, a, sizeof a, &n, why, sizeof why) == DT_ERR_INVALID_ARG,
          "an index out of range accepted");
}

static void valores_sexo(const dt_mascara_clave *k) {
    dt_persona x, y;
    for (uint32_t c = 1000000; c < 1000500; c++) {
        CHECK_OK(dt_mascara_persona(k, c, &x), "persona %u", c);
        CHECK_OK(dt_mascara_persona_sexo(k, c, DT_SEXO_CUALQUIERA, &y), "persona %u", c);
        CHECK(misma_persona(&x, &y), "persona %u: dt_mascara_persona_sexo(cualquiera) differs from dt_mascara_persona", c);
        CHECK_OK(dt_mascara_persona_sexo(k, c, DT_SEXO_F, &y), "persona F %u", c);
        CHECK(strcmp(y.sexo, "F") == 0, "persona %u with sexo F: got %s", c, y.sexo);
        CHECK_OK(dt_mascara_persona_sexo(k, c, DT_SEXO_M, &y), "persona M %u", c);
        CHECK(strcmp(y.sexo, "M") == 0, "persona %u with sexo M: got %s", c, y.sexo);
    }
    CHECK(dt_mascara_persona_sexo(k, 1000000, (dt_sexo)3, &y) == DT_ERR_INVALID_ARG, "sexo 3 accepted");
    const char *f[] = {"F", "f", " F ", "Femenino", "FEMENINO", "mujer", "Mujer"}, *m[] = {"M", "m", "Masculino", "hombre", "HOMBRE\t"};
    const char *no[] = {"", "X", "fem", "mujeres", "FM", "Femenina", "1", "2", "mujer hombre"};
    dt_sexo s;
    for (size_t i = 0; i < 7; i++) CHECK(dt_mascara_sexo_leer(f[i], strlen(f[i]), &s) == DT_OK && s == DT_SEXO_F, "sexo '%s'", f[i]);
    for (size_t i = 0; i < 5; i++) CHECK(dt_mascara_sexo_leer(m[i], strlen(m[i]), &s) == DT_OK && s == DT_SEXO_M, "sexo '%s'", m[i]);
    for (size_t i = 0; i < 9; i++)
        CHECK(dt_mascara_sexo_leer(no[i], strlen(no[i]), &s) == DT_ERR_INVALID_ARG && s == DT_SEXO_CUALQUIERA, "sexo '%s' accepted",
              no[i]);
}

static void valores_reglas(void) {
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f: the rule fecha needs dias, the largest shift in days from 1 to 3650");
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\", dias = 0 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f.dias must be an integer from 1 to 3650, got 0");
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\", dias = 3651 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f.dias must be an integer from 1 to 3650, got 3651");
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\", dias = \"30\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f.dias must be an integer from 1 to 3650, got a string");
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\", dias = 30, porcentaje = 5 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f: unknown key 'porcentaje' (the rule fecha takes regla, dias, generalizar, entidad and conserva)");
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\", dias = 30, entidad = \"rut\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f.entidad names 'rut', which is not a column of columnas");
    rechaza("version = 1\n[columnas]\nid = { regla = \"mantener\" }\nf = { regla = \"fecha\", dias = 30, entidad = \"id\" }\n",
            DT_MASCARA_TOML,
            "reglas.toml:4: columnas.f.entidad names 'id', whose rule is not rut: an entity is a column of RUTs masked "
            "with the rule rut");
    rechaza("version = 1\n[columnas]\nm = { regla = \"monto\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.m: the rule monto needs porcentaje, the largest change in percent from 1 to 90");
    rechaza("version = 1\n[columnas]\nm = { regla = \"monto\", porcentaje = 91 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.m.porcentaje must be an integer from 1 to 90, got 91");
    rechaza("version = 1\n[columnas]\nm = { regla = \"monto\", porcentaje = 10, dias = 3 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.m: unknown key 'dias' (the rule monto takes regla, porcentaje, cifras, entidad and conserva)");
    rechaza("version = 1\n[columnas]\nn = { regla = \"sustituir\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.n: the rule sustituir needs llamada, a call that gives one text such as "
            "\"persona.nombre\"");
    rechaza("version = 1\n[columnas]\nn = { regla = \"sustituir\", llamada = \"persona.nombrE\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.n.llamada: unknown call 'persona.nombrE' (datoteca list names them all)");
    rechaza("version = 1\n[columnas]\nn = { regla = \"sustituir\", llamada = \"persona.persona\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.n.llamada: the call persona.persona does not give one text (a record or a number); "
            "sustituir takes a text call such as \"persona.nombre\"");
    rechaza("version = 1\n[columnas]\nn = { regla = \"sustituir\", llamada = 3 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.n.llamada must be a string (a call's name), got an integer");
    rechaza("version = 1\n[columnas]\nn = { regla = \"sustituir\", llamada = \"persona.nombre\", entidad = \"x\" }\n",
            DT_MASCARA_TOML, "reglas.toml:3: columnas.n: unknown key 'entidad' (the rule sustituir takes regla and llamada)");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nn = { regla = \"persona\", campo = \"nombres\", entidad = "
            "\"rut\", sexo = \"genero\" }\n",
            DT_MASCARA_TOML, "reglas.toml:4: columnas.n.sexo names 'genero', which is not a column of columnas");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nn = { regla = \"persona\", campo = \"nombres\", entidad = "
            "\"rut\", sexo = 1 }\n",
            DT_MASCARA_TOML,
            "reglas.toml:4: columnas.n.sexo must be a string (the name of the column with the original sex), got an integer");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\nn = { regla = \"persona\", campo = \"nombres\", entidad = "
            "\"rut\", edad = 1 }\n",
            DT_MASCARA_TOML,
            "reglas.toml:4: columnas.n: unknown key 'edad' (the rule persona takes regla, campo, entidad, sexo and realista)");
    rechaza("{\"version\": 1, \"columnas\": {\"f\": {\"regla\": \"fecha\", \"dias\": -1}}}", DT_MASCARA_JSON,
            "reglas.toml:1: columnas.f.dias must be an integer from 1 to 3650, got -1");
}

/* The rules in a plan: two date columns and two rows of one entity keep their interval; an amount
 * column scales with its entity; the sexo column; the policies. */
static void valores_plan(const dt_mascara_clave *k) {
    dt_mascara_reglas *r = acepta("version = 1\n"
                                  "[columnas]\n"
                                  "rut = { regla = \"rut\" }\n"
                                  "alta = { regla = \"fecha\", dias = 60, entidad = \"rut\", conserva = \"intervalos\" }\n"
                                  "baja = { regla = \"fecha\", dias = 60, entidad = \"rut\", conserva = \"intervalos\" }\n"
                                  "libre = { regla = \"fecha\", dias = 60 }\n"
                                  "saldo = { regla = \"monto\", porcentaje = 20, entidad = \"rut\", conserva = \"proporciones\" }\n"
                                  "limite = { regla = \"monto\", porcentaje = 20, entidad = \"rut\", conserva = \"proporciones\" }\n"
                                  "ciudad = { regla = \"sustituir\", llamada = \"direccion.comuna\" }\n"
                                  "sexo = { regla = \"mantener\" }\n"
                                  "nombres = { regla = \"persona\", campo = \"nombres\", entidad = \"rut\", sexo = \"sexo\" }\n"
                                  "psexo = { regla = \"persona\", campo = \"sexo\", entidad = \"rut\", sexo = \"sexo\" }\n"
                                  "otro = { regla = \"persona\", campo = \"nombres\", entidad = \"rut\" }\n");
    const char *cols[] = {"rut", "alta", "baja", "libre", "saldo", "limite", "ciudad", "sexo", "nombres", "psexo", "otro"};
    dt_mascara_plan *p = plan_de(r, k, 11, cols, DT_OK, NULL);
    char why[DT_SENTENCE_MAX], b[11][256];
    if (p) {
        const char *f1[] = {"12.345.678-5", "2020-01-10", "15/03/2021", "2020-01-10", "1.000.000", "500000",
                            "Ñuñoa", "mujer", "x", "x", "x"};
        const char *f2[] = {"12345678-5", "10-01-2020", "2022-07-01", "2020-01-10", "$ 2.000.000", "100",
                            "ÑUÑOA ", "F", "x", "x", "x"};
        CHECK_OK(fila(p, 1, 11, f1, why), "row 1: %s", why);
        for (size_t i = 0; i < 11; i++) valor(p, i, b[i], 256);
        char c[11][256];
        CHECK_OK(fila(p, 2, 11, f2, why), "row 2: %s", why);
        for (size_t i = 0; i < 11; i++) valor(p, i, c[i], 256);
        int f;
        int64_t o1 = leer_fecha(b[1], &f) - dia_ref(2020, 1, 10), o2 = leer_fecha(b[2], &f) - dia_ref(2021, 3, 15),
                o3 = leer_fecha(c[1], &f) - dia_ref(2020, 1, 10), o4 = leer_fecha(c[2], &f) - dia_ref(2022, 7, 1);
        CHECK(o1 == o2 && o1 == o3 && o1 == o4 && o1 != 0 && o1 >= -60 && o1 <= 60,
              "one entity, two columns, two rows: offsets %lld %lld %lld %lld (%s %s %s %s)", (long long)o1, (long long)o2,
              (long long)o3, (long long)o4, b[1], b[2], c[1], c[2]);
        CHECK(c[1][2] == '-' && b[2][2] == '/', "the forms: %s %s", c[1], b[2]);
        CHECK(strcmp(b[3], c[3]) == 0 && strcmp(b[3], "2020-01-10") != 0, "fecha without entity: %s, %s", b[3], c[3]);
        /* the same factor for both amount columns and both rows: 1.000.000 and 2.000.000 scale alike */
        int d;
        uint64_t s1 = magnitud(b[4], &d), s2 = magnitud(c[4], &d), l1 = magnitud(b[5], &d);
        CHECK(s2 == 2 * s1 && l1 * 2 == s1 && s1 >= 800000 && s1 <= 1200000 && s1 != 1000000,
              "monto of one entity: %s, %s, %s", b[4], c[4], b[5]);
        CHECK(strncmp(c[4], "$ ", 2) == 0 && strchr(b[5], '.') == NULL, "monto forms: %s %s", c[4], b[5]);
        CHECK(strcmp(b[6], c[6]) == 0 && strcmp(b[6], "Ñuñoa") != 0 && b[6][0] != '\0', "sustituir: %s, %s", b[6], c[6]);
        CHECK(strcmp(b[9], "F") == 0 && strcmp(c[9], "F") == 0 && strcmp(b[8], c[8]) == 0, "persona of sex F: %s %s, %s %s",
              b[8], b[9], c[8], c[9]);
        dt_persona x;
        uint32_t m;
        CHECK_OK(dt_mascara_rut_cuerpo(k, 12345678, &m), "body");
        CHECK_OK(dt_mascara_persona_sexo(k, m, DT_SEXO_F, &x), "persona F");
        CHECK(strcmp(b[8], x.nombres) == 0, "nombres with sexo: %s, expected %s", b[8], x.nombres);
        CHECK_OK(dt_mascara_persona(k, m, &x), "persona");
        CHECK(strcmp(b[10], x.nombres) == 0, "nombres without sexo: %s, expected %s (unchanged)", b[10], x.nombres);
        /* the policies: an unreadable date, an amount, a sex, an entity; the sentences never hold the value */
        const char *f3[] = {"12.345.678-5", "2020-02-30", "", "", "", "", "", "mujer", "", "", ""};
        CHECK(fila(p, 3, 11, f3, why) == DT_ERR_INVALID_ARG &&
                  strcmp(why, "row 3, column alta: fecha: no such day in the calendar (the year, month or day is out of "
                              "range); politica.invalido is \"error\"") == 0,
              "row 3: %s", why);
        const char *f4[] = {"12.345.678-5", "", "", "", "1.2345", "", "", "mujer", "", "", ""};
        CHECK(fila(p, 4, 11, f4, why) == DT_ERR_INVALID_ARG &&
                  strcmp(why, "row 4, column saldo: monto: not an amount (digits, or digits with a dot between groups of "
                              "three, after an optional '-' and an optional '$'); politica.invalido is \"error\"") == 0,
              "row 4: %s", why);
        const char *f5[] = {"12.345.678-5", "", "", "", "", "", "", "otro", "Ana", "", ""};
        CHECK(fila(p, 5, 11, f5, why) == DT_ERR_INVALID_ARG &&
                  strcmp(why, "row 5, column nombres: its sexo column sexo is not F, M, femenino, masculino, mujer or hombre, "
                              "so there is no persona of that sex to take nombres from; politica.invalido is \"error\"") == 0,
              "row 5: %s", why);
        const char *f6[] = {"", "2020-01-01", "", "", "", "", "", "", "", "", ""};
        CHECK(fila(p, 6, 11, f6, why) == DT_ERR_INVALID_ARG &&
                  strcmp(why, "row 6, column alta: its entity rut is empty, so there is no offset to shift its date by; "
                              "politica.invalido is \"error\"") == 0,
              "row 6: %s", why);
        const char *f7[] = {"", "", "", "", "5", "", "", "", "", "", ""};
        CHECK(fila(p, 7, 11, f7, why) == DT_ERR_INVALID_ARG &&
                  strcmp(why, "row 7, column saldo: its entity rut is empty, so there is no factor to scale its amount by; "
                              "politica.invalido is \"error\"") == 0,
              "row 7: %s", why);
    }
    dt_mascara_plan_free(p);
    dt_mascara_reglas_free(r);
    /* nulo: the unreadable values emptied, the rest masked */
    r = acepta("version = 1\n[politica]\ninvalido = \"nulo\"\n[columnas]\nrut = { regla = \"rut\" }\n"
               "f = { regla = \"fecha\", dias = 5 }\nm = { regla = \"monto\", porcentaje = 5 }\n"
               "s = { regla = \"mantener\" }\nn = { regla = \"persona\", campo = \"nombres\", entidad = \"rut\", sexo = \"s\" }\n");
    p = plan_de(r, k, 5, (const char *[]){"rut", "f", "m", "s", "n"}, DT_OK, NULL);
    if (p) {
        const char *v[] = {"12.345.678-5", "31/02/2020", "12,5", "?", "Ana"};
        CHECK_OK(fila(p, 1, 5, v, why), "nulo: %s", why);
        CHECK(valor(p, 1, b[1], 256)[0] == '\0' && valor(p, 2, b[2], 256)[0] == '\0' && valor(p, 4, b[4], 256)[0] == '\0',
              "nulo: '%s' '%s' '%s' not emptied", b[1], b[2], b[4]);
    }
    dt_mascara_plan_free(p);
    dt_mascara_reglas_free(r);
}

/* The per-cell default (docs/enmascarar.md, "The value rules, exactly"): the known answers under the
 * test key, two dates of one person moving independently, the same cell the same everywhere, the
 * generalisations, and the refusals of conserva, generalizar and cifras. */
static void valores_celda(const dt_mascara_clave *k) {
    dt_mascara_reglas *r = acepta("version = 1\n[columnas]\nrut = { regla = \"rut\" }\n"
                                  "nac = { regla = \"fecha\", dias = 30, entidad = \"rut\" }\n"
                                  "alta = { regla = \"fecha\", dias = 30, entidad = \"rut\", generalizar = \"dia\" }\n"
                                  "mes = { regla = \"fecha\", dias = 30, entidad = \"rut\", generalizar = \"mes\" }\n"
                                  "saldo = { regla = \"monto\", porcentaje = 10, entidad = \"rut\" }\n"
                                  "limite = { regla = \"monto\", porcentaje = 10, entidad = \"rut\", cifras = 3 }\n");
    const char *cols[] = {"rut", "nac", "alta", "mes", "saldo", "limite"};
    dt_mascara_plan *p = plan_de(r, k, 6, cols, DT_OK, NULL);
    char why[DT_SENTENCE_MAX], b[6][256];
    if (p) {
        const char *f1[] = {"12.345.678-5", "1980-05-17", "03/02/2015", "2015-02-03", "$ 1.234.567", "2500"};
        CHECK_OK(fila(p, 1, 6, f1, why), "row 1: %s", why);
        const char *esperado[] = {NULL, "1980-01-01", "19/02/2015", NULL, "$ 1.200.000", "2580"};
        for (size_t i = 1; i < 6; i++) {
            valor(p, i, b[i], 256);
            if (esperado[i]) CHECK(strcmp(b[i], esperado[i]) == 0, "known answer, column %s: expected %s, got %s", cols[i], esperado[i], b[i]);
        }
        /* the same date in two columns of one person: drawn per cell, not per person (alta moved 16 days,
         * mes by its own draw, then to the month's first day) */
        CHECK(strlen(b[3]) == 10 && strcmp(b[3] + 8, "01") == 0, "mes: %s is not a month's first day", b[3]);
        /* the same cell in another row: the same output; another value of the same person: its own draw */
        const char *f2[] = {"12345678-5", "1980-05-17", "04/02/2015", "2015-02-03", "$ 1.234.567", "2600"};
        CHECK_OK(fila(p, 2, 6, f2, why), "row 2: %s", why);
        char c[6][256];
        for (size_t i = 1; i < 6; i++) valor(p, i, c[i], 256);
        CHECK(strcmp(c[1], b[1]) == 0 && strcmp(c[3], b[3]) == 0 && strcmp(c[4], b[4]) == 0,
              "the same cell gave %s %s %s, then %s %s %s", b[1], b[3], b[4], c[1], c[3], c[4]);
        int fa, fb;
        int64_t d1 = leer_fecha(b[2], &fa) - dia_ref(2015, 2, 3), d2 = leer_fecha(c[2], &fb) - dia_ref(2015, 2, 4);
        CHECK(d1 != d2, "two dates of one person moved alike (%lld days): the per-person form leaked", (long long)d1);
    }
    dt_mascara_plan_free(p);
    dt_mascara_reglas_free(r);
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\", dias = 30, conserva = \"intervalos\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f: conserva = \"intervalos\" needs entidad, the column of RUTs whose intervals between "
            "dates it keeps");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\n"
            "f = { regla = \"fecha\", dias = 30, entidad = \"rut\", conserva = \"intervalos\", generalizar = \"mes\" }\n",
            DT_MASCARA_TOML, "reglas.toml:4: columnas.f: conserva = \"intervalos\" keeps them exactly, so it takes no generalizar");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\" }\n"
            "m = { regla = \"monto\", porcentaje = 5, entidad = \"rut\", conserva = \"intervalos\" }\n",
            DT_MASCARA_TOML, "reglas.toml:4: columnas.m.conserva must be \"proporciones\" (the one thing the per-entity form "
            "keeps), or be left out");
    rechaza("version = 1\n[columnas]\nf = { regla = \"fecha\", dias = 30, generalizar = \"semana\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.f.generalizar must be \"dia\", \"mes\" or \"anio\"");
    rechaza("version = 1\n[columnas]\nm = { regla = \"monto\", porcentaje = 5, cifras = 15 }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.m.cifras must be an integer from 1 to 14 (the significant digits kept)");
}

static void valores(void) {
    dt_mascara_clave *k = clave(CLAVE_A), *kb = clave(CLAVE_B);
    valores_reglas();
    valores_fecha(k, kb);
    valores_monto(k);
    valores_sustituir(k, kb);
    valores_sexo(k);
    valores_plan(k);
    valores_celda(k);
    dt_mascara_clave_free(k);
    dt_mascara_clave_free(kb);
}


/* A database's document (docs/copia.md): one table's rules taken out of it, the same plan as the same
 * rules alone; every table checked whichever is asked; a table not in it refused; the detector's table
 * sections joined under one version read back. */
static void rechaza_tabla(const char *texto, const char *tabla, const char *esperada) {
    dt_mascara_reglas *r = (dt_mascara_reglas *)1;
    char why[DT_SENTENCE_MAX];
    dt_status st = dt_mascara_reglas_tabla_new(texto, strlen(texto), DT_MASCARA_TOML, "db.toml", tabla, strlen(tabla), &r,
                                               why, sizeof why);
    CHECK(st == DT_ERR_INVALID_ARG && r == NULL, "table %s of:\n%s\n    expected DT_ERR_INVALID_ARG and NULL, got %d", tabla,
          texto, (int)st);
    CHECK(strcmp(why, esperada) == 0, "table %s of:\n%s\n    expected: %s\n    got:      %s", tabla, texto, esperada, why);
    if (st == DT_OK) dt_mascara_reglas_free(r);
}

static void base_de_datos(void) {
    static const char db[] = "version = 1\n"
                             "[politica]\ninvalido = \"nulo\"\n"
                             "[tablas.clientes.columnas]\nrut = { regla = \"rut\" }\nnombre = { regla = \"persona\", campo = "
                             "\"nombre_completo\", entidad = \"rut\" }\n"
                             "[tablas.\"ventas.facturas\".columnas]\nfolio = { regla = \"mantener\" }\nrut = { regla = \"rut\" }\n";
    static const char sola[] = "version = 1\n[politica]\ninvalido = \"nulo\"\n[columnas]\nrut = { regla = \"rut\" }\n"
                               "nombre = { regla = \"persona\", campo = \"nombre_completo\", entidad = \"rut\" }\n";
    dt_mascara_clave *k = clave(CLAVE_A);
    char why[DT_SENTENCE_MAX];
    dt_mascara_reglas *a = NULL, *b = acepta(sola), *f = NULL;
    CHECK_OK(dt_mascara_reglas_tabla_new(db, strlen(db), DT_MASCARA_TOML, "db.toml", "clientes", 8, &a, why, sizeof why),
             "clientes: %s", why);
    CHECK_OK(dt_mascara_reglas_tabla_new(db, strlen(db), DT_MASCARA_TOML, "db.toml", "ventas.facturas", 15, &f, why, sizeof why),
             "ventas.facturas: %s", why);
    const char *cols[] = {"rut", "nombre"}, *vals[] = {"12.345.678-5", "Ana Pérez"}, *malo[] = {"12.345.678-9", "x"};
    size_t largos[] = {3, 6}, vl[] = {12, 10}, ml[] = {12, 1};
    dt_mascara_plan *pa = NULL, *pb = NULL;
    CHECK_OK(dt_mascara_plan_new(a, k, 2, cols, largos, &pa, why, sizeof why), "plan from the database's document: %s", why);
    CHECK_OK(dt_mascara_plan_new(b, k, 2, cols, largos, &pb, why, sizeof why), "plan from the table's document: %s", why);
    const char *const *filas[] = {vals, malo};
    const size_t *fl[] = {vl, ml};
    for (int fila = 0; fila < 2; fila++) { /* the second row's RUT is invalid: politica.invalido = "nulo" came along */
        CHECK_OK(dt_mascara_plan_fila(pa, (uint64_t)fila + 1, 2, filas[fila], fl[fila], why, sizeof why), "row %d: %s", fila + 1, why);
        CHECK_OK(dt_mascara_plan_fila(pb, (uint64_t)fila + 1, 2, filas[fila], fl[fila], why, sizeof why), "row %d: %s", fila + 1, why);
        for (size_t i = 0; i < 2; i++) {
            size_t la, lb;
            const char *va = dt_mascara_plan_valor(pa, i, &la), *vb = dt_mascara_plan_valor(pb, i, &lb);
            CHECK(la == lb && memcmp(va, vb, la) == 0, "row %d, column %s: database's document gave '%.*s', the table's '%.*s'",
                  fila + 1, cols[i], (int)la, va, (int)lb, vb);
        }
    }
    size_t l0;
    dt_mascara_plan_valor(pa, 0, &l0);
    CHECK(l0 == 0, "row 2: an invalid RUT under politica.invalido = nulo gave %zu bytes", l0);
    dt_mascara_plan_free(pa);
    dt_mascara_plan_free(pb);
    dt_mascara_reglas_free(a);
    dt_mascara_reglas_free(b);
    dt_mascara_reglas_free(f);

    rechaza_tabla(db, "cuentas",
                  "db.toml:4: tablas has no table 'cuentas': every table masked needs its rules, none are assumed "
                  "(datoteca detectar URL writes them for a whole database)");
    rechaza_tabla("version = 1\n[tablas.a.columnas]\nx = { regla = \"mantener\" }\n[tablas.b.columnas]\ny = { regla = \"nada\" }\n",
                  "a",
                  "db.toml:5: columnas.y: unknown rule 'nada' (the rules are rut, persona, email, telefono, patente, texto, "
                  "fecha, monto, sustituir, derivado, formato, ip, coordenada, imagen, constante, sigue, suma, mantener, nulo and borrar)");
    rechaza_tabla("version = 1\n[tablas.a]\nfilas = 3\n[tablas.a.columnas]\nx = { regla = \"mantener\" }\n", "a",
                  "db.toml:3: tablas.a: unknown key 'filas' (a table takes columnas)");
    rechaza_tabla("version = 1\n[columnas]\nx = { regla = \"mantener\" }\n", "a",
                  "db.toml:2: unknown key 'columnas' (a database's masking rules take version, tablas and politica)");
    rechaza_tabla("version = 1\n", "a", "db.toml:1: the document needs the key tablas");
    dt_mascara_reglas *r = (dt_mascara_reglas *)1;
    CHECK(dt_mascara_reglas_tabla_new(db, strlen(db), DT_MASCARA_TOML, NULL, "", 0, &r, why, sizeof why) == DT_ERR_INVALID_ARG &&
              r == NULL, "an empty table name is refused");
    CHECK(dt_mascara_reglas_tabla_new(db, strlen(db), DT_MASCARA_TOML, NULL, NULL, 0, &r, why, sizeof why) == DT_ERR_NULL,
          "a NULL table name is DT_ERR_NULL");

    /* the detector's sections under one version: read back, each table's rules as proposed */
    const char *cc[] = {"rut", "notas"}, *cv[] = {"12.345.678-5", "llamar al +56 9 8765 4321"};
    size_t cl[] = {3, 5}, cvl[] = {12, 25};
    dt_detector *d = NULL;
    CHECK_OK(dt_detector_new(2, cc, cl, &d), "detector");
    for (int i = 0; i < 3; i++) CHECK_OK(dt_detector_fila(d, 2, cv, cvl), "detector row %d", i + 1);
    char doc[4096] = "version = 1\n\n";
    size_t n = strlen(doc), len = 0;
    CHECK(dt_detector_reglas_tabla(d, "ventas.boletas", NULL, 0, &len) == DT_ERR_BUFFER_TOO_SMALL && len > 0,
          "the size is asked with cap 0");
    CHECK_OK(dt_detector_reglas_tabla(d, "ventas.boletas", doc + n, sizeof doc - n, &len), "the table's section");
    static const char esperado[] = "[tablas.\"ventas.boletas\".columnas]  # 3 rows sampled, 2 columns\n"
                                   "rut = { regla = \"rut\" }  # 3 non-empty, rut 3, digit runs 3, data in text 3\n"
                                   "notas = { regla = \"texto\" }  # 3 non-empty, texto 3, data in text 3: by the column's name and its values\n";
    CHECK(strcmp(doc + n, esperado) == 0, "the section:\n%s\nwant:\n%s", doc + n, esperado);
    CHECK(dt_detector_reglas_tabla(d, "", doc, sizeof doc, &len) == DT_ERR_INVALID_ARG, "an empty table name is refused");
    CHECK(dt_detector_reglas_tabla(d, NULL, doc, sizeof doc, &len) == DT_ERR_NULL, "a NULL table name is DT_ERR_NULL");
    r = NULL;
    CHECK_OK(dt_mascara_reglas_tabla_new(doc, strlen(doc), DT_MASCARA_TOML, NULL, "ventas.boletas", 14, &r, why, sizeof why),
             "the detector's section read back: %s", why);
    dt_mascara_reglas_free(r);
    dt_detector_free(d);

    /* a column its database declares a timestamp: a fake timestamp per value instead of nulo */
    const char *tc[] = {"creado", "otro"}, *tv[] = {"2026-12-05 07:12:43", "2026-12-05 07:12:43"};
    size_t tl[] = {6, 4}, tvl[] = {19, 19};
    CHECK_OK(dt_detector_new(2, tc, tl, &d), "detector");
    CHECK(dt_detector_tipo(d, 2, DT_DETECTOR_TIMESTAMP) == DT_ERR_INVALID_ARG, "column 2 of 2 is refused");
    CHECK(dt_detector_tipo(d, 0, DT_DETECTOR_BOOLEANO + 1) == DT_ERR_INVALID_ARG, "an unknown tipo is refused");
    CHECK(dt_detector_tipo(NULL, 0, DT_DETECTOR_TIMESTAMP) == DT_ERR_NULL, "a NULL detector is DT_ERR_NULL");
    CHECK_OK(dt_detector_tipo(d, 0, DT_DETECTOR_TIMESTAMP), "tipo");
    for (int i = 0; i < 2; i++) CHECK_OK(dt_detector_fila(d, 2, tv, tvl), "detector row %d", i + 1);
    CHECK_OK(dt_detector_reglas_tabla(d, "auditoria", doc, sizeof doc, &len), "the table's section");
    static const char esperado_t[] =
        "[tablas.auditoria.columnas]  # 2 rows sampled, 2 columns\n"
        "creado = { regla = \"sustituir\", llamada = \"fecha.fecha_hora\" }  # 2 non-empty, dates 2: a timestamp column, as its "
        "database declares it\n"
        "otro = { regla = \"formato\" }  # 2 non-empty, dates 2\n"; /* never nulo (issue 48): the form kept */
    CHECK(strcmp(doc, esperado_t) == 0, "the section:\n%s\nwant:\n%s", doc, esperado_t);
    dt_detector_free(d);

    /* a uuid key (its digit runs would make it nulo): kept, as integer keys are */
    const char *uc[] = {"id", "otro"}, *uv[] = {"4b1c0f1a-8812-4567-8912-345678901234", "4b1c0f1a-8812-4567-8912-345678901234"};
    size_t ul[] = {2, 4}, uvl[] = {36, 36};
    CHECK_OK(dt_detector_new(2, uc, ul, &d), "detector");
    CHECK_OK(dt_detector_tipo(d, 0, DT_DETECTOR_UUID), "tipo uuid");
    CHECK_OK(dt_detector_fila(d, 2, uv, uvl), "detector row 1");
    CHECK_OK(dt_detector_reglas_tabla(d, "accesos", doc, sizeof doc, &len), "the table's section");
    static const char esperado_u[] =
        "[tablas.accesos.columnas]  # 1 rows sampled, 2 columns\n"
        "id = { regla = \"mantener\" }  # 1 non-empty, digit runs 1: a uuid column, as its database declares it: an "
        "identifier, kept\n"
        "otro = { regla = \"formato\" }  # 1 non-empty, digit runs 1\n";
    CHECK(strcmp(doc, esperado_u) == 0, "the section:\n%s\nwant:\n%s", doc, esperado_u);
    dt_detector_free(d);

    /* a foreign key's column takes the rule of the column it references when that rule masks by value;
     * not when it needs a column of the parent's row (persona with entidad) */
    const char *pc[] = {"rut", "email"}, *pv[] = {"12.345.678-5", "ana.perez12@gmail.com"};
    size_t pl[] = {3, 5}, pvl[] = {12, 21};
    const char *hc[] = {"cliente", "quien"}, *hv[] = {"7", "x"};
    size_t hl[] = {7, 5}, hvl[] = {1, 1};
    dt_detector *padre = NULL, *hijo = NULL;
    CHECK_OK(dt_detector_new(2, pc, pl, &padre), "parent");
    CHECK_OK(dt_detector_new(2, hc, hl, &hijo), "child");
    for (int i = 0; i < 3; i++) CHECK_OK(dt_detector_fila(padre, 2, pv, pvl), "parent row %d", i + 1);
    CHECK_OK(dt_detector_fila(hijo, 2, hv, hvl), "child row 1");
    CHECK(dt_detector_seguir(hijo, 2, padre, 0, "clientes.rut") == DT_ERR_INVALID_ARG, "child column 2 of 2 is refused");
    CHECK(dt_detector_seguir(hijo, 0, padre, 2, "clientes.rut") == DT_ERR_INVALID_ARG, "parent column 2 of 2 is refused");
    CHECK(dt_detector_seguir(hijo, 0, NULL, 0, "x") == DT_ERR_NULL, "a NULL parent is DT_ERR_NULL");
    CHECK_OK(dt_detector_seguir(hijo, 0, padre, 0, "clientes.rut"), "seguir rut");
    CHECK_OK(dt_detector_seguir(hijo, 1, padre, 1, "clientes.email"), "seguir email");
    CHECK_OK(dt_detector_reglas_tabla(hijo, "cuentas", doc, sizeof doc, &len), "the child's section");
    static const char esperado_h[] =
        "[tablas.cuentas.columnas]  # 1 rows sampled, 2 columns\n"
        "cliente = { regla = \"rut\" }  # 1 non-empty: a FOREIGN KEY to clientes.rut, so its rule (the join holds)\n"
        "quien = { regla = \"mantener\" }  # 1 non-empty: nothing personal found; a FOREIGN KEY to clientes.email, whose rule "
        "needs a column of its own row: review, the join may not hold\n";
    CHECK(strcmp(doc, esperado_h) == 0, "the section:\n%s\nwant:\n%s", doc, esperado_h);
    dt_detector_free(hijo);
    dt_detector_free(padre);
    dt_mascara_clave_free(k);
}

int main(void) {
    refusals();
    base_de_datos();
    planes();
    valores();
    return dt_test_done("test_mascara_reglas");
}
