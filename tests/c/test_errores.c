/* The one table of bad inputs (tests/casos_errores.json): for each, the status and the sentence the
 * library gives in C — the same sentence Python, Node and the CLI give (their tests read the same
 * table). A refused schema (de: esquema) also gives its sentence cut to fit a short buffer, and its
 * status with no buffer at all. A failure names the case, what it ran, and the expected and actual status and sentence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datoteca.h"
#include "json.h"
#include "check.h"

/* The status named in the table ("DT_ERR_INVALID_ARG") as its number; -1 if the table names none. */
static int estado(const char *nombre) {
    for (int st = 0; st < 64; st++) {
        static const char *const nombres[] = {"DT_OK", "DT_ERR_NULL", "DT_ERR_INVALID_ARG", "DT_ERR_BUFFER_TOO_SMALL",
                                              "DT_ERR_NO_MEMORY", "DT_ERR_INVALID_STATE", "DT_ERR_INVALID_RUT",
                                              "DT_ERR_UNKNOWN_CALL", "DT_ERR_INVALID_PATENTE"};
        if (st < (int)(sizeof nombres / sizeof nombres[0]) && strcmp(nombres[st], nombre) == 0) return st;
    }
    return -1;
}

/* The arguments of `info` from the case's args object: choices through dt_param_choice (its sentence
 * when refused), integers as given, absent ones DT_ARG_DEFAULT. DT_OK or the refusal in why. */
static dt_status argumentos(const dt_call_info *info, const jval *args, int64_t *a, char *why, size_t cap) {
    for (size_t j = 0; j < info->nparams; j++) {
        const jval *v = jget(args, info->params[j].name);
        a[j] = DT_ARG_DEFAULT;
        if (v && v->tipo == J_NUM) a[j] = v->num;
        if (v && v->tipo == J_STR) {
            dt_status st = dt_param_choice(info, j, v->str, strlen(v->str), &a[j], why, cap, NULL);
            if (st != DT_OK) return st;
        }
    }
    return DT_OK;
}

/* "a,b" from a JSON array of names; "k:v,…" from an object of per-mille rates. */
static void lista(const jval *v, char *out, size_t cap) {
    out[0] = '\0';
    for (size_t i = 0; v && i < v->n; i++) {
        size_t k = strlen(out);
        if (v->tipo == J_ARR) snprintf(out + k, cap - k, "%s%s", i ? "," : "", v->items[i]->str);
        else snprintf(out + k, cap - k, "%s%s:%lld", i ? "," : "", v->keys[i], (long long)v->items[i]->num);
    }
}

int main(void) {
    char *text = jread_file(DT_TESTS_DIR "/casos_errores.json");
    jval *doc = jparse(text);
    const jval *casos = jget(doc, "cases");
    dt_gen *g = NULL;
    CHECK(dt_new(1, &g) == DT_OK, "dt_new");
    for (size_t k = 0; k < casos->n; k++) {
        const jval *c = casos->items[k];
        const char *de = jget(c, "de")->str, *nombre = jget(c, "nombre")->str, *frase = jget(c, "frase")->str;
        int want = estado(jget(c, "estado")->str);
        const jval *args = jget(c, "args");
        char why[DT_SENTENCE_MAX] = "";
        int64_t a[DT_MAX_PARAMS];
        dt_status st = DT_OK;
        size_t idx = 0;
        const jval *hoy_v = jget(c, "hoy");
        int hoy[3] = {0, 0, 0};
        if (hoy_v) CHECK(sscanf(hoy_v->str, "%d-%d-%d", &hoy[0], &hoy[1], &hoy[2]) == 3, "error case %zu: hoy", k + 1);
        if (strcmp(de, "llamada") == 0 || strcmp(de, "tabla") == 0) {
            st = dt_call_find(nombre, strlen(nombre), &idx);
            if (st == DT_ERR_UNKNOWN_CALL) snprintf(why, sizeof why, DT_FRASE_UNKNOWN_CALL, nombre);
            if (st == DT_OK) st = argumentos(dt_call_at(idx), args, a, why, sizeof why);
            if (st == DT_OK && strcmp(de, "llamada") == 0) {
                dt_gen *gh = g;
                if (hoy_v) CHECK(dt_new(1, &gh) == DT_OK && dt_set_hoy(gh, hoy[0], hoy[1], hoy[2]) == DT_OK, "error case %zu: hoy", k + 1);
                st = dt_call(gh, idx, a, dt_call_at(idx)->nparams, why, sizeof why, NULL);
                if (gh != g) dt_free(gh);
            } else if (st == DT_OK) {
                const jval *o = jget(c, "opciones");
                char campos[256], unico[256], nulos[256], sucio[256];
                lista(jget(o, "campos"), campos, sizeof campos);
                lista(jget(o, "unico"), unico, sizeof unico);
                lista(jget(o, "nulos"), nulos, sizeof nulos);
                lista(jget(o, "sucio"), sucio, sizeof sucio);
                dt_tabla_opciones op = {sizeof op, idx, a, dt_call_at(idx)->nparams, 1, NULL, 0, hoy[0], hoy[1], hoy[2], campos, unico, nulos,
                                        sucio};
                dt_tabla *t = NULL;
                st = dt_tabla_new(&op, &t, why, sizeof why);
                dt_tabla_free(t);
            }
        } else if (strcmp(de, "utilidad") == 0) {
            st = dt_util_find(nombre, strlen(nombre), &idx);
            const jval *texto = jget(c, "texto");
            if (st == DT_OK) st = argumentos(dt_util_at(idx), args, a, why, sizeof why);
            if (st == DT_OK)
                st = dt_util(idx, texto ? texto->str : NULL, texto ? strlen(texto->str) : 0, a, dt_util_at(idx)->nparams, why,
                             sizeof why, NULL);
        } else if (strcmp(de, "esquema") == 0) {
            const char *texto = jget(c, "texto")->str;
            const jval *seed = jget(c, "seed");
            int formato = strcmp(jget(c, "formato")->str, "json") == 0 ? DT_ESQUEMA_JSON : DT_ESQUEMA_TOML;
            uint64_t s = seed ? (uint64_t)seed->num : 0;
            dt_esquema *e = (dt_esquema *)1;
            st = dt_esquema_new(texto, strlen(texto), formato, nombre, s, hoy[0], hoy[1], hoy[2], &e, why, sizeof why);
            CHECK(e == NULL, "error case %zu (esquema): a refused schema must leave *out NULL", k + 1);
            /* a short buffer gets the same refusal cut to fit, and no buffer the status alone */
            char chico[12];
            dt_status corto = dt_esquema_new(texto, strlen(texto), formato, nombre, s, hoy[0], hoy[1], hoy[2], &e, chico, sizeof chico);
            CHECK(corto == st && strncmp(chico, frase, 11) == 0 && strlen(chico) == 11, "error case %zu (esquema), short buffer: \"%s\"",
                  k + 1, chico);
            CHECK(dt_esquema_new(texto, strlen(texto), formato, nombre, s, hoy[0], hoy[1], hoy[2], &e, NULL, 0) == st,
                  "error case %zu (esquema), no buffer", k + 1);
        } else {
            uint8_t cero[DT_STATE_SIZE] = {0};
            st = dt_state_restore(g, cero, sizeof cero);
            snprintf(why, sizeof why, "state: %s", dt_status_str(st));
        }
        CHECK((int)st == want && strcmp(why, frase) == 0, "error case %zu (%s %s): expected %s \"%s\", got status %d \"%s\"",
              k + 1, de, nombre, jget(c, "estado")->str, frase, st, why);
    }
    dt_free(g);
    jfree(doc);
    free(text);
    return dt_test_done("test_errores");
}
