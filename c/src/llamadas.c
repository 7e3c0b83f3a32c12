/* The call registry: every generating call by name, with integer arguments, writing
 * text. The CLI, the bindings' bulk paths and the golden tests all go through here.
 * Beside it, the directory of data tables with their digests (dt_table_at). */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "huella.h"
#include "internal.h"
#include "registro.h"

static char *dt__serializar(const void *rec, const size_t *offsets, size_t n, char *p) {
    for (size_t i = 0; i < n; i++) {
        if (i) *p++ = DT_FIELD_SEP;
        const char *s = (const char *)rec + offsets[i];
        p = dt__put(p, s, strlen(s));
    }
    return p;
}

/* The rows, the runners and the record layouts, generated from c/llamadas.toml. */
#include "llamadas_tabla.h"

#define DT__N_LLAMADAS (sizeof dt__llamadas / sizeof dt__llamadas[0])
_Static_assert(DT__N_LLAMADAS > 0, "the registry is empty");

size_t dt_call_count(void) { return DT__N_LLAMADAS; }

const dt__llamada *dt__llamada_at(size_t index) { return &dt__llamadas[index]; }

const dt_call_info *dt_call_at(size_t index) {
    return index < DT__N_LLAMADAS ? &dt__llamadas[index].info : NULL;
}

dt_status dt_call_find(const char *name, size_t len, size_t *index) {
    if ((name == NULL && len > 0) || index == NULL) return DT_ERR_NULL;
    for (size_t i = 0; i < DT__N_LLAMADAS; i++) {
        const char *n = dt__llamadas[i].info.name;
        if (strlen(n) == len && memcmp(n, name, len) == 0) {
            *index = i;
            return DT_OK;
        }
    }
    return DT_ERR_UNKNOWN_CALL;
}

/* Complete and check the arguments: DT_ARG_DEFAULT (or an argument not given) takes the
 * parameter's default, every value must lie in its range, and every cross-parameter check must
 * hold. On failure, when `why` is not NULL, a sentence naming the call, the parameter, the value
 * and what is accepted is written there (snprintf semantics, `whycap` bytes). */
static dt_status dt__args(const dt__llamada *ll, const int64_t *args, size_t nargs, int64_t *out,
                          char *why, size_t whycap) {
    const dt_call_info *info = &ll->info;
    if (args == NULL && nargs > 0) return DT_ERR_NULL;
    if (nargs > info->nparams) {
        if (why) snprintf(why, whycap, "%s takes %zu argument%s, got %zu", info->name, info->nparams,
                          info->nparams == 1 ? "" : "s", nargs);
        return DT_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < info->nparams; i++) {
        const dt_param_info *pi = &info->params[i];
        int64_t v = i < nargs && args[i] != DT_ARG_DEFAULT ? args[i] : pi->def;
        if (v < pi->min || v > pi->max) {
            if (why && pi->choices) {
                int k = snprintf(why, whycap, "%s: %s must be one of", info->name, pi->name);
                for (int64_t c = pi->min; c <= pi->max && k >= 0 && (size_t)k < whycap; c++)
                    k += snprintf(why + k, whycap - (size_t)k, "%s '%s' (%lld)", c == pi->min ? "" : ",",
                                  pi->choices[c - pi->min], (long long)c);
                if (k >= 0 && (size_t)k < whycap) snprintf(why + k, whycap - (size_t)k, ", got %lld", (long long)v);
            } else if (why) {
                const char *cero = ll->cero ? ll->cero[i] : "";
                snprintf(why, whycap, "%s: %s must be from %lld to %lld%s%s%s, got %lld", info->name, pi->name,
                         (long long)pi->min, (long long)pi->max, *cero ? " (0 = " : "", cero, *cero ? ")" : "",
                         (long long)v);
            }
            return DT_ERR_INVALID_ARG;
        }
        out[i] = v;
    }
    for (size_t k = 0; k < ll->nchecks; k++) {
        const dt__check *c = &ll->checks[k];
        if (out[c->a] > out[c->b]) {
            if (why) snprintf(why, whycap, "%s: %s must not exceed %s, got %s=%lld, %s=%lld", info->name,
                              info->params[c->a].name, info->params[c->b].name, info->params[c->a].name,
                              (long long)out[c->a], info->params[c->b].name, (long long)out[c->b]);
            return DT_ERR_INVALID_ARG;
        }
    }
    return DT_OK;
}

dt_status dt__llamada_args(const dt__llamada *ll, const int64_t *args, size_t nargs, int64_t *out, char *why,
                           size_t whycap) {
    return dt__args(ll, args, nargs, out, why, whycap);
}

dt_status dt_call_check(size_t index, const int64_t *args, size_t nargs, char *buf, size_t cap, size_t *len) {
    if (buf == NULL && cap > 0) return DT_ERR_NULL;
    if (index >= DT__N_LLAMADAS) return DT_ERR_UNKNOWN_CALL;
    char why[512] = "";
    int64_t a[DT_MAX_PARAMS];
    dt_status st = dt__args(&dt__llamadas[index], args, nargs, a, why, sizeof why);
    if (st == DT_ERR_NULL) return st;
    dt_status copied = dt__copy_out(why, strlen(why), buf, cap, len);
    return copied != DT_OK ? copied : st;
}

dt_status dt_call(dt_gen *g, size_t index, const int64_t *args, size_t nargs, char *buf, size_t cap, size_t *len) {
    dt_status st = dt__check_out(g, buf, cap);
    if (st != DT_OK) return st;
    if (index >= DT__N_LLAMADAS) return DT_ERR_UNKNOWN_CALL;
    const dt__llamada *ll = &dt__llamadas[index];
    int64_t a[DT_MAX_PARAMS];
    st = dt__args(ll, args, nargs, a, NULL, 0);
    if (st != DT_OK) return st;
    dt_rng saved = g->rng;
    char tmp[DT_MAX_TEXT + 16];
    char *end;
    st = ll->run(g, a, tmp, &end);
    if (st != DT_OK) return st; /* the typed call restored nothing it consumed: it consumed nothing */
    return dt__emit(g, &saved, tmp, (size_t)(end - tmp), buf, cap, len);
}

dt_status dt__lineas(size_t n, char *buf, size_t cap, size_t *len, dt__una_fn una, void *ctx) {
    size_t pos = 0;
    char tmp[DT_MAX_TEXT + 16];
    for (size_t i = 0; i < n; i++) {
        /* Generate in place while a whole value surely fits, else through tmp. */
        int directo = cap - pos >= DT_MAX_TEXT + 1;
        char *p = directo ? buf + pos : tmp;
        char *end;
        dt_status st = una(ctx, i, p, &end);
        if (st != DT_OK) {
            if (cap > 0) buf[0] = '\0';
            return st;
        }
        size_t k = (size_t)(end - p);
        if (!directo) {
            if (cap - pos < k + 2) {
                if (cap > 0) buf[0] = '\0';
                if (len) *len = n >= (SIZE_MAX - 1) / DT_MAX_TEXT ? SIZE_MAX : DT_CALL_MANY_BOUND(n);
                return DT_ERR_BUFFER_TOO_SMALL;
            }
            memcpy(buf + pos, tmp, k);
        }
        pos += k;
        buf[pos++] = '\n';
    }
    if (cap > 0) buf[pos] = '\0'; /* room is guaranteed above */
    if (len) *len = pos;
    return DT_OK;
}

/* One value of a sequential call for dt__lineas. */
typedef struct dt__una_llamada {
    dt_gen *g;
    const dt__llamada *ll;
    const int64_t *a;
} dt__una_llamada;

static dt_status dt__una(void *ctx, size_t i, char *p, char **end) {
    (void)i;
    dt__una_llamada *c = (dt__una_llamada *)ctx;
    return c->ll->run(c->g, c->a, p, end);
}

dt_status dt_call_many(dt_gen *g, size_t index, const int64_t *args, size_t nargs, size_t n,
                       char *buf, size_t cap, size_t *len) {
    dt_status st = dt__check_out(g, buf, cap);
    if (st != DT_OK) return st;
    if (index >= DT__N_LLAMADAS) return DT_ERR_UNKNOWN_CALL;
    const dt__llamada *ll = &dt__llamadas[index];
    int64_t a[DT_MAX_PARAMS];
    st = dt__args(ll, args, nargs, a, NULL, 0);
    if (st != DT_OK) return st;
    dt_rng saved = g->rng;
    dt__una_llamada ctx = {g, ll, a};
    st = dt__lineas(n, buf, cap, len, dt__una, &ctx);
    if (st != DT_OK) g->rng = saved; /* a failed or too small call consumes nothing */
    return st;
}

int dt_call_field_nullable(size_t index, size_t field) {
    if (index >= DT__N_LLAMADAS || field >= dt__llamadas[index].info.nfields) return 0;
    return dt__llamadas[index].nulos[field];
}

size_t dt_table_count(void) { return DT_T_N_TABLAS; }

dt_status dt_table_at(size_t index, dt_table_info *out) {
    if (out == NULL) return DT_ERR_NULL;
    if (index >= DT_T_N_TABLAS) return DT_ERR_INVALID_ARG;
    const dt_t_tabla *t = &dt_t_tablas[index];
    out->name = t->nombre;
    out->rows = t->filas;
    out->digest = t->huella(DT_FNV_BASIS);
    return DT_OK;
}
