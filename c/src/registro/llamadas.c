/* The call registry's generic half: every generating call by name, with integer arguments, writing
 * text; the one validator of every argument (calls and utilities alike); and the entry points of
 * the typed functions. The rows and runners are generated (llamadas.gen.c). */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "internal.h"
#include "registro/registro.h"

char *dt__serializar(const void *rec, const size_t *offsets, size_t n, char *p) {
    for (size_t i = 0; i < n; i++) {
        if (i) *p++ = DT_FIELD_SEP;
        const char *s = (const char *)rec + offsets[i];
        p = dt__put(p, s, strlen(s));
    }
    return p;
}

size_t dt_call_count(void) { return dt__n_llamadas; }

const dt_call_info *dt_call_at(size_t index) { return index < dt__n_llamadas ? &dt__llamadas[index].info : NULL; }

dt_status dt_call_find(const char *name, size_t len, size_t *index) {
    if ((name == NULL && len > 0) || index == NULL) return DT_ERR_NULL;
    for (size_t i = 0; i < dt__n_llamadas; i++) {
        const char *n = dt__llamadas[i].info.name;
        if (strlen(n) == len && memcmp(n, name, len) == 0) {
            *index = i;
            return DT_OK;
        }
    }
    return DT_ERR_UNKNOWN_CALL;
}

/* "'cualquiera', 'F', 'M'" at why + k, each with its number when `numeros` (a number was given);
 * returns the new length (snprintf's, may exceed whycap). */
static int dt__choices(const dt_param_info *pi, int numeros, char *why, size_t whycap, int k) {
    for (int64_t c = pi->min; c <= pi->max && k >= 0 && (size_t)k < whycap; c++) {
        k += snprintf(why + k, whycap - (size_t)k, "%s'%s'", c == pi->min ? "" : ", ", pi->choices[c - pi->min]);
        if (numeros && k >= 0 && (size_t)k < whycap) k += snprintf(why + k, whycap - (size_t)k, " (%lld)", (long long)c);
    }
    return k;
}

dt_status dt__args(const dt_call_info *info, const char *const *cero, const dt__check *checks, size_t nchecks,
                   const int64_t *args, size_t nargs, int por_defecto, int64_t *out, char *why, size_t whycap) {
    if (args == NULL && nargs > 0) return DT_ERR_NULL;
    if (nargs > info->nparams) {
        if (why) snprintf(why, whycap, "%s takes %zu argument%s, got %zu", info->name, info->nparams,
                          info->nparams == 1 ? "" : "s", nargs);
        return DT_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < info->nparams; i++) {
        const dt_param_info *pi = &info->params[i];
        int64_t v = i < nargs && !(por_defecto && args[i] == DT_ARG_DEFAULT) ? args[i] : pi->def;
        if (v < pi->min || v > pi->max) {
            if (why && pi->choices) {
                int k = snprintf(why, whycap, "%s: %s must be one of ", info->name, pi->name);
                k = dt__choices(pi, 1, why, whycap, k);
                if (k >= 0 && (size_t)k < whycap) snprintf(why + k, whycap - (size_t)k, ", got %lld", (long long)v);
            } else if (why) {
                const char *c = cero ? cero[i] : "";
                snprintf(why, whycap, "%s: %s must be from %lld to %lld%s%s%s, got %lld", info->name, pi->name,
                         (long long)pi->min, (long long)pi->max, *c ? " (0 = " : "", c, *c ? ")" : "", (long long)v);
            }
            return DT_ERR_INVALID_ARG;
        }
        out[i] = v;
    }
    for (size_t k = 0; k < nchecks; k++) {
        const dt__check *c = &checks[k];
        if (out[c->a] > out[c->b]) {
            if (why) snprintf(why, whycap, "%s: %s must not exceed %s, got %s=%lld, %s=%lld", info->name,
                              info->params[c->a].name, info->params[c->b].name, info->params[c->a].name,
                              (long long)out[c->a], info->params[c->b].name, (long long)out[c->b]);
            return DT_ERR_INVALID_ARG;
        }
    }
    return DT_OK;
}

dt_status dt__hoy_admite(const dt__llamada *ll, int32_t anio, int32_t mes, int32_t dia, char *why, size_t whycap) {
    int32_t hoy = anio * 10000 + mes * 100 + dia, d = ll->hoy_desde, h = ll->hoy_hasta;
    if ((d == 0 || hoy >= d) && (h == 0 || hoy <= h)) return DT_OK;
    if (why == NULL) return DT_ERR_INVALID_ARG;
    char desde[16], hasta[16];
    snprintf(desde, sizeof desde, "%04d-%02d-%02d", (int)(d / 10000), (int)(d / 100 % 100), (int)(d % 100));
    snprintf(hasta, sizeof hasta, "%04d-%02d-%02d", (int)(h / 10000), (int)(h / 100 % 100), (int)(h % 100));
    if (d && h)
        snprintf(why, whycap, "%s: hoy must be from %s to %s (%s), got %04d-%02d-%02d", ll->info.name, desde, hasta,
                 ll->hoy_porque, (int)anio, (int)mes, (int)dia);
    else
        snprintf(why, whycap, "%s: hoy must be %s or %s (%s), got %04d-%02d-%02d", ll->info.name, d ? desde : hasta,
                 d ? "later" : "earlier", ll->hoy_porque, (int)anio, (int)mes, (int)dia);
    return DT_ERR_INVALID_ARG;
}

dt_status dt__llamada_args(const dt__llamada *ll, const int64_t *args, size_t nargs, int64_t *out, char *why,
                           size_t whycap) {
    return dt__args(&ll->info, ll->cero, ll->checks, ll->nchecks, args, nargs, 1, out, why, whycap);
}

dt_status dt_param_choice(const dt_call_info *info, size_t param, const char *name, size_t len, int64_t *value,
                          char *buf, size_t cap, size_t *out_len) {
    if (info == NULL || value == NULL || (name == NULL && len > 0) || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    if (param >= info->nparams || info->params[param].choices == NULL) {
        if (cap > 0) buf[0] = '\0';
        if (out_len) *out_len = 0;
        return DT_ERR_INVALID_ARG;
    }
    const dt_param_info *pi = &info->params[param];
    for (int64_t c = pi->min; c <= pi->max; c++) {
        const char *ch = pi->choices[c - pi->min];
        if (strlen(ch) == len && memcmp(ch, name, len) == 0) {
            *value = c;
            if (cap > 0) buf[0] = '\0';
            if (out_len) *out_len = 0;
            return DT_OK;
        }
    }
    char why[DT_SENTENCE_MAX];
    int k = snprintf(why, sizeof why, "%s: %s must be one of ", info->name, pi->name);
    k = dt__choices(pi, 0, why, sizeof why, k);
    if (k >= 0 && (size_t)k < sizeof why)
        snprintf(why + k, sizeof why - (size_t)k, ", got '%.*s%s'", (int)(len > 40 ? 40 : len), len ? name : "",
                 len > 40 ? "..." : "");
    dt__sentence_out(why, buf, cap, out_len);
    return DT_ERR_INVALID_ARG;
}

dt_status dt_call_check(size_t index, const int64_t *args, size_t nargs, char *buf, size_t cap, size_t *len) {
    if (buf == NULL && cap > 0) return DT_ERR_NULL;
    if (index >= dt__n_llamadas) return DT_ERR_UNKNOWN_CALL;
    char why[DT_SENTENCE_MAX] = "";
    int64_t a[DT_MAX_PARAMS];
    dt_status st = dt__llamada_args(&dt__llamadas[index], args, nargs, a, why, sizeof why);
    if (st == DT_ERR_NULL) return st;
    dt_status copied = dt__copy_out(why, strlen(why), buf, cap, len);
    return copied != DT_OK ? copied : st;
}

/* Check (g, buf, cap) and the arguments of call `index`; a refusal's sentence goes to buf. */
static dt_status dt__preparar(const dt_gen *g, size_t index, const int64_t *args, size_t nargs, int por_defecto,
                              int64_t *a, char *buf, size_t cap, size_t *len) {
    dt_status st = dt__check_out(g, buf, cap);
    if (st != DT_OK) return st;
    if (index >= dt__n_llamadas) return DT_ERR_UNKNOWN_CALL;
    const dt__llamada *ll = &dt__llamadas[index];
    char why[DT_SENTENCE_MAX];
    st = dt__args(&ll->info, ll->cero, ll->checks, ll->nchecks, args, nargs, por_defecto, a, why, sizeof why);
    if (st == DT_OK) st = dt__hoy_admite(ll, g->hoy_anio, g->hoy_mes, g->hoy_dia, why, sizeof why);
    if (st == DT_ERR_INVALID_ARG) dt__sentence_out(why, buf, cap, len);
    return st;
}

static dt_status dt__texto(dt_gen *g, size_t index, const int64_t *args, size_t nargs, int por_defecto, char *buf,
                           size_t cap, size_t *len) {
    int64_t a[DT_MAX_PARAMS];
    dt_status st = dt__preparar(g, index, args, nargs, por_defecto, a, buf, cap, len);
    if (st != DT_OK) return st;
    dt_rng saved = g->rng;
    char tmp[DT_MAX_TEXT + 16];
    char *end = dt__llamadas[index].run(g, a, tmp);
    return dt__emit(g, &saved, tmp, (size_t)(end - tmp), buf, cap, len);
}

dt_status dt_call(dt_gen *g, size_t index, const int64_t *args, size_t nargs, char *buf, size_t cap, size_t *len) {
    return dt__texto(g, index, args, nargs, 1, buf, cap, len);
}

dt_status dt__llamar_texto(dt_gen *g, size_t index, const int64_t *a, char *buf, size_t cap, size_t *len) {
    return dt__texto(g, index, a, dt__llamadas[index].info.nparams, 0, buf, cap, len);
}

/* The integer and record entry points: no text buffer, so no sentence (dt_call_check gives it). */
static dt_status dt__preparar_sin_texto(const dt_gen *g, const void *out, size_t index, const int64_t *a, int64_t *c) {
    if (g == NULL || out == NULL) return DT_ERR_NULL;
    const dt__llamada *ll = &dt__llamadas[index];
    dt_status st = dt__args(&ll->info, ll->cero, ll->checks, ll->nchecks, a, ll->info.nparams, 0, c, NULL, 0);
    return st == DT_OK ? dt__hoy_admite(ll, g->hoy_anio, g->hoy_mes, g->hoy_dia, NULL, 0) : st;
}

dt_status dt__llamar_entero(dt_gen *g, size_t index, const int64_t *a, int64_t *out) {
    int64_t c[DT_MAX_PARAMS];
    dt_status st = dt__preparar_sin_texto(g, out, index, a, c);
    if (st == DT_OK) *out = dt__llamadas[index].entero(g, c);
    return st;
}

dt_status dt__llamar_registro(dt_gen *g, size_t index, const int64_t *a, void *out) {
    int64_t c[DT_MAX_PARAMS];
    dt_status st = dt__preparar_sin_texto(g, out, index, a, c);
    if (st == DT_OK) dt__llamadas[index].registro(g, c, out);
    return st;
}

dt_status dt__lineas(size_t n, char *buf, size_t cap, size_t *len, dt__una_fn una, void *ctx) {
    size_t pos = 0;
    char tmp[DT_MAX_TEXT + 16];
    for (size_t i = 0; i < n; i++) {
        /* Generate in place while a whole value surely fits, else through tmp. */
        int directo = cap - pos >= DT_MAX_TEXT + 1;
        char *p = directo ? buf + pos : tmp;
        size_t k = (size_t)(una(ctx, i, p) - p);
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

static char *dt__una(void *ctx, size_t i, char *p) {
    (void)i;
    dt__una_llamada *c = (dt__una_llamada *)ctx;
    return c->ll->run(c->g, c->a, p);
}

dt_status dt_call_many(dt_gen *g, size_t index, const int64_t *args, size_t nargs, size_t n,
                       char *buf, size_t cap, size_t *len) {
    int64_t a[DT_MAX_PARAMS];
    dt_status st = dt__preparar(g, index, args, nargs, 1, a, buf, cap, len);
    if (st != DT_OK) return st;
    dt_rng saved = g->rng;
    dt__una_llamada ctx = {g, &dt__llamadas[index], a};
    st = dt__lineas(n, buf, cap, len, dt__una, &ctx);
    if (st != DT_OK) g->rng = saved; /* a failed or too small call consumes nothing */
    return st;
}

int dt_call_field_nullable(size_t index, size_t field) {
    if (index >= dt__n_llamadas || field >= dt__llamadas[index].info.nfields) return 0;
    return dt__llamadas[index].nulos[field];
}
