/* The call registry for every call: buffer-size edges (cap 0, 1, exact - 1, exact),
 * invalid arguments, and dt_call_many == n dt_call. A failed call must consume nothing. */
#include "check.h"
#include "datoteca.h"
#include "json.h"

static void estado(dt_gen *g, uint8_t *st) { dt_state_save(g, st, DT_STATE_SIZE, NULL); }

int main(void) {
    dt_gen *g, *h;
    dt_new(2024, &g);
    dt_new(2024, &h);
    uint8_t antes[DT_STATE_SIZE], despues[DT_STATE_SIZE];
    char buf[DT_MAX_TEXT], ref[DT_MAX_TEXT];
    for (size_t c = 0; c < dt_call_count(); c++) {
        const dt_call_info *info = dt_call_at(c);
        for (int rep = 0; rep < 50; rep++) {
            size_t need;
            CHECK_OK(dt_call(h, c, NULL, 0, ref, sizeof ref, &need), "%s reference", info->name);
            size_t caps[4] = {0, 1, need > 0 ? need - 1 : 0, need};
            for (int k = 0; k < 4; k++) {
                if (caps[k] > need) continue;
                estado(g, antes);
                size_t got = 0;
                memset(buf, '#', sizeof buf);
                dt_status st = dt_call(g, c, NULL, 0, caps[k] ? buf : NULL, caps[k], &got);
                estado(g, despues);
                CHECK(st == DT_ERR_BUFFER_TOO_SMALL, "%s rep %d cap %zu: status %d", info->name, rep, caps[k], st);
                CHECK(got == need, "%s rep %d cap %zu: reported %zu, needs %zu", info->name, rep, caps[k], got, need);
                CHECK(memcmp(antes, despues, sizeof antes) == 0, "%s rep %d cap %zu: a failed call moved the stream", info->name, rep, caps[k]);
                for (size_t j = caps[k] ? 1 : 0; j < need + 1; j++)
                    CHECK(buf[j] == '#', "%s cap %zu: wrote past cap at %zu", info->name, caps[k], j);
            }
            CHECK_OK(dt_call(g, c, NULL, 0, buf, need + 1, NULL), "%s exact", info->name);
            CHECK(strcmp(buf, ref) == 0, "%s rep %d: after failed calls expected '%s', got '%s'", info->name, rep, ref, buf);
        }
        /* invalid arguments: too many, and each parameter just outside its range */
        int64_t args[8];
        for (size_t j = 0; j < info->nparams; j++) args[j] = info->params[j].def;
        estado(g, antes);
        CHECK(dt_call(g, c, args, info->nparams + 1, buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "%s: too many args", info->name);
        for (size_t j = 0; j < info->nparams; j++) {
            int64_t keep = args[j];
            args[j] = info->params[j].min - 1;
            CHECK(dt_call(g, c, args, info->nparams, buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "%s: %s below min", info->name, info->params[j].name);
            args[j] = info->params[j].max + 1;
            CHECK(dt_call(g, c, args, info->nparams, buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "%s: %s above max", info->name, info->params[j].name);
            args[j] = keep;
        }
        /* every refusal is explained by dt_call_check, naming the call, the parameter and the value */
        CHECK(info->nparams <= DT_MAX_PARAMS, "%s: %zu params, DT_MAX_PARAMS is %d", info->name, info->nparams, DT_MAX_PARAMS);
        CHECK(info->nfields <= DT_MAX_FIELDS, "%s: %zu fields, DT_MAX_FIELDS is %d", info->name, info->nfields, DT_MAX_FIELDS);
        for (size_t j = 0; j < info->nparams; j++) {
            int64_t keep = args[j];
            args[j] = info->params[j].max + 1;
            char why[512], frag[96];
            CHECK(dt_call_check(c, args, info->nparams, why, sizeof why, NULL) == DT_ERR_INVALID_ARG, "%s: check of %s above max",
                  info->name, info->params[j].name);
            snprintf(frag, sizeof frag, "%s: %s must be ", info->name, info->params[j].name);
            CHECK(strstr(why, frag) == why, "%s: message '%s' does not start with '%s'", info->name, why, frag);
            snprintf(frag, sizeof frag, "got %lld", (long long)args[j]);
            CHECK(strstr(why, frag) != NULL, "%s: message '%s' does not say '%s'", info->name, why, frag);
            args[j] = DT_ARG_DEFAULT; /* absent: the default */
            CHECK(dt_call_check(c, args, info->nparams, why, sizeof why, NULL) == DT_OK && why[0] == '\0',
                  "%s: DT_ARG_DEFAULT for %s refused: %s", info->name, info->params[j].name, why);
            args[j] = keep;
        }
        CHECK(dt_call(g, c, NULL, 1, buf, sizeof buf, NULL) == DT_ERR_NULL, "%s: NULL args with nargs 1", info->name);
        CHECK(dt_call(NULL, c, NULL, 0, buf, sizeof buf, NULL) == DT_ERR_NULL, "%s: NULL instance", info->name);
        estado(g, despues);
        CHECK(memcmp(antes, despues, sizeof antes) == 0, "%s: an invalid call moved the stream", info->name);

        /* many == single calls, in order */
        enum { N = 37 };
        static char many[N * DT_MAX_TEXT + 1];
        size_t len;
        CHECK_OK(dt_call_many(g, c, NULL, 0, N, many, sizeof many, &len), "%s many", info->name);
        const char *p = many;
        for (int i = 0; i < N; i++) {
            CHECK_OK(dt_call(h, c, NULL, 0, ref, sizeof ref, NULL), "%s single %d", info->name, i);
            size_t n = strlen(ref);
            CHECK(strncmp(p, ref, n) == 0 && p[n] == '\n', "%s value %d: many gave '%.*s', single '%s'", info->name, i, (int)n, p, ref);
            p += n + 1;
        }
        CHECK((size_t)(p - many) == len, "%s many: len %zu", info->name, len);
        /* a too-small bulk buffer consumes nothing */
        estado(g, antes);
        CHECK(dt_call_many(g, c, NULL, 0, N, many, 10, &len) == DT_ERR_BUFFER_TOO_SMALL && len == DT_CALL_MANY_BOUND(N),
              "%s many small: len %zu", info->name, len);
        estado(g, despues);
        CHECK(memcmp(antes, despues, sizeof antes) == 0, "%s: a failed many moved the stream", info->name);
        dt_call(g, c, NULL, 0, buf, sizeof buf, NULL); /* keep g and h in step */
        dt_call(h, c, NULL, 0, buf, sizeof buf, NULL);
    }

    /* cross-parameter checks: min above max, impossible ages */
    size_t i;
    int64_t rango[2] = {10, 5};
    estado(g, antes);
    dt_call_find("dinero.monto", 12, &i);
    CHECK(dt_call(g, i, rango, 2, buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "monto min > max");
    dt_call_find("persona.fecha_nacimiento", 24, &i);
    int64_t edades[2] = {50, 20};
    CHECK(dt_call(g, i, edades, 2, buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "edad_min > edad_max");
    dt_call_find("persona.persona", 15, &i);
    int64_t p3[3] = {0, 90, 30};
    CHECK(dt_call(g, i, p3, 3, buf, sizeof buf, NULL) == DT_ERR_INVALID_ARG, "persona edad_min > edad_max");
    estado(g, despues);
    CHECK(memcmp(antes, despues, sizeof antes) == 0, "an invalid cross-parameter call moved the stream");
    CHECK(dt_call(g, dt_call_count(), NULL, 0, buf, sizeof buf, NULL) == DT_ERR_UNKNOWN_CALL, "unknown index");

    /* the sentences, written here from c/llamadas.toml's ranges and checks */
    static const struct { const char *call; size_t n; int64_t a[3]; const char *want; } frases[] = {
        {"direccion.comuna", 1, {17}, "direccion.comuna: region must be from 0 to 16 (0 = any region), got 17"},
        {"telefono.fijo", 2, {-1, 0}, "telefono.fijo: region must be from 0 to 16 (0 = any region), got -1"},
        {"dinero.monto", 2, {10, 5}, "dinero.monto: min must not exceed max, got min=10, max=5"},
        {"dinero.clp", 2, {-1, 5}, "dinero.clp: min must be from 0 to 999999999999999, got -1"},
        {"dinero.uf", 2, {0, 1000000000000000}, "dinero.uf: max must be from 0 to 999999999999999, got 1000000000000000"},
        {"persona.persona", 3, {0, 90, 30}, "persona.persona: edad_min must not exceed edad_max, got edad_min=90, edad_max=30"},
        {"persona.fecha_nacimiento", 1, {81}, "persona.fecha_nacimiento: edad_min must not exceed edad_max, got edad_min=81, edad_max=80"},
        {"persona.nombre", 1, {3}, "persona.nombre: sexo must be one of 'cualquiera' (0), 'F' (1), 'M' (2), got 3"},
        {"rut", 3, {0, 0, 0}, "rut takes 2 arguments, got 3"},
        {"persona.sexo", 1, {0}, "persona.sexo takes 0 arguments, got 1"},
        {"direccion.comuna", 1, {0}, ""},
        {"dinero.monto", 2, {DT_ARG_DEFAULT, 5}, "dinero.monto: min must not exceed max, got min=1000, max=5"},
    };
    for (size_t k = 0; k < sizeof frases / sizeof frases[0]; k++) {
        char why[512];
        size_t idx, n = 0;
        dt_call_find(frases[k].call, strlen(frases[k].call), &idx);
        dt_status st = dt_call_check(idx, frases[k].a, frases[k].n, why, sizeof why, &n);
        CHECK(st == (frases[k].want[0] ? DT_ERR_INVALID_ARG : DT_OK) && strcmp(why, frases[k].want) == 0 && n == strlen(why),
              "case %zu, %s: status %d, expected \"%s\", got \"%s\"", k + 1, frases[k].call, st, frases[k].want, why);
    }
    /* the registry-driven cases every language runs (tests/casos_argumentos.json, generated) */
    char *casos_text = jread_file(DT_TESTS_DIR "/casos_argumentos.json");
    jval *casos = jparse(casos_text);
    const jval *lista = jget(casos, "cases");
    for (size_t k = 0; k < lista->n; k++) {
        const jval *caso = lista->items[k];
        const char *call = jget(caso, "call")->str, *expect = jget(caso, "expect")->str;
        const jval *cargs = jget(caso, "args");
        size_t idx;
        CHECK(dt_call_find(call, strlen(call), &idx) == DT_OK, "case %zu: unknown call %s", k + 1, call);
        const dt_call_info *info = dt_call_at(idx);
        int64_t a[DT_MAX_PARAMS];
        for (size_t j = 0; j < info->nparams; j++) {
            const jval *v = jget(cargs, info->params[j].name);
            a[j] = DT_ARG_DEFAULT;
            if (v && v->tipo == J_NUM) a[j] = v->num;
            for (int64_t c = info->params[j].min; v && v->tipo == J_STR && c <= info->params[j].max; c++)
                if (strcmp(info->params[j].choices[c - info->params[j].min], v->str) == 0) a[j] = c;
        }
        char why[512];
        dt_status st = dt_call_check(idx, a, info->nparams, why, sizeof why, NULL);
        int ok = strcmp(expect, "ok") == 0;
        CHECK(ok ? st == DT_OK : st == DT_ERR_INVALID_ARG && strcmp(why, expect) == 0,
              "argument case %zu, %s: expected \"%s\", got status %d \"%s\"", k + 1, call, expect, st, why);
        st = dt_call(g, idx, a, info->nparams, buf, sizeof buf, NULL);
        CHECK(ok ? st == DT_OK : st == DT_ERR_INVALID_ARG, "argument case %zu, %s: dt_call status %d", k + 1, call, st);
    }
    jfree(casos);
    free(casos_text);

    char tiny[8];
    size_t need = 0;
    dt_call_find("dinero.monto", 12, &i);
    CHECK(dt_call_check(i, rango, 2, tiny, sizeof tiny, &need) == DT_ERR_BUFFER_TOO_SMALL && need > sizeof tiny && tiny[0] == '\0',
          "a small buffer for the sentence: need %zu", need);
    CHECK(dt_call_check(dt_call_count(), NULL, 0, tiny, sizeof tiny, NULL) == DT_ERR_UNKNOWN_CALL, "check of an unknown index");
    CHECK(dt_call_find("persona.nada", 12, &i) == DT_ERR_UNKNOWN_CALL, "unknown name");
    CHECK(dt_call_at(dt_call_count()) == NULL, "dt_call_at past the end");

    /* typed record calls with NULL out */
    CHECK(dt_persona_persona(g, 0, 18, 80, NULL) == DT_ERR_NULL, "persona NULL");
    CHECK(dt_direccion_direccion(g, 17, (dt_direccion *)buf) == DT_ERR_INVALID_ARG, "region 17");
    dt_free(g);
    dt_free(h);
    return dt_test_done("test_llamadas");
}
