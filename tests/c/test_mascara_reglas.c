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
    /* what detectar proposes but is not built: refused, never passed through */
    const char *aun_no[] = {"sustituir", "fecha"};
    for (size_t i = 0; i < sizeof aun_no / sizeof aun_no[0]; i++) {
        char t[200], e[300];
        snprintf(t, sizeof t, "version = 1\n\n[columnas]\nrut = { regla = \"rut\" }\nnotas = { regla = \"%s\" }\n", aun_no[i]);
        snprintf(e, sizeof e,
                 "reglas.toml:5: columnas.notas: the rule %s is not built yet; use rut, persona, mantener, nulo or borrar "
                 "for this column",
                 aun_no[i]);
        rechaza(t, DT_MASCARA_TOML, e);
    }
    rechaza("version = 1\n[columnas]\nrut = { regla = \"hash\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.rut: unknown rule 'hash' (the rules are rut, persona, email, telefono, patente, texto, mantener, nulo and borrar)");
    rechaza("version = 1\n[columnas]\nrut = { regla = \"rut\", formato = \"puntos\" }\n", DT_MASCARA_TOML,
            "reglas.toml:3: columnas.rut: unknown key 'formato' (the rule rut takes only regla)");
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
            "reglas.toml:1: columnas.notas: the rule sustituir is not built yet; use rut, persona, mantener, nulo or borrar "
            "for this column");
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
            "reglas.toml: the input's column 'telefono' has no rule in columnas: give it one ({ regla = \"mantener\" } "
            "keeps it as it is), or set politica.sin_regla = \"mantener\"");
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
    CHECK(strcmp(valor(p, 3, b[3], 128), pe.email) == 0, "email: expected %s, got %s", pe.email, b[3]);
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
    CHECK(strcmp(valor(p, 3, b[3], 128), pe.email) == 0, "row 2: the same RUT undotted gave email %s, not %s", b[3], pe.email);
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
            CHECK(strcmp(valor(p, 3, b[3], 128), pe.email) == 0, "invalido: the email %s is not the persona's %s", b[3], pe.email);
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

int main(void) {
    refusals();
    planes();
    return dt_test_done("test_mascara_reglas");
}
