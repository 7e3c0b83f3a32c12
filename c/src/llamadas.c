/* The call registry: every generating call by name, with integer arguments, writing
 * text. The CLI, the bindings' bulk paths and the golden tests all go through here.
 * Beside it, the directory of data tables with their digests (dt_table_at). */
#include <stddef.h>
#include <stdint.h>

#include "huella.h"
#include "internal.h"

/* Writes one value at p (at least DT_MAX_TEXT bytes of room) and sets *end. The
 * arguments are already range-checked and complete. */
typedef dt_status (*dt__runner)(dt_gen *g, const int64_t *a, char *p, char **end);

typedef struct dt__llamada {
    dt_call_info info;
    dt__runner run;
    const size_t *offsets; /* records: where each field lives in the struct */
} dt__llamada;

static const char *const ch_sexo[] = {"cualquiera", "F", "M"};
static const char *const ch_rut_tipo[] = {"persona", "empresa"};
static const char *const ch_rut_formato[] = {"puntos", "guion", "limpio"};
static const char *const ch_tel_formato[] = {"internacional", "e164", "nacional"};

static const dt_param_info p_rut[] = {{"tipo", 0, 0, 1, ch_rut_tipo}, {"formato", 0, 0, 2, ch_rut_formato}};
static const dt_param_info p_formato_rut[] = {{"formato", 0, 0, 2, ch_rut_formato}};
static const dt_param_info p_sexo[] = {{"sexo", 0, 0, 2, ch_sexo}};
static const dt_param_info p_edades[] = {{"edad_min", 18, 0, 120, NULL}, {"edad_max", 80, 0, 120, NULL}};
static const dt_param_info p_persona[] = {{"sexo", 0, 0, 2, ch_sexo}, {"edad_min", 18, 0, 120, NULL}, {"edad_max", 80, 0, 120, NULL}};
static const dt_param_info p_region[] = {{"region", 0, 0, DT_T_N_REGIONES, NULL}};
static const dt_param_info p_movil[] = {{"formato", 0, 0, 2, ch_tel_formato}};
static const dt_param_info p_fijo[] = {{"region", 0, 0, DT_T_N_REGIONES, NULL}, {"formato", 0, 0, 2, ch_tel_formato}};
static const dt_param_info p_monto[] = {{"min", 1000, 0, DT_DINERO_MAX, NULL}, {"max", 1000000, 0, DT_DINERO_MAX, NULL}};
static const dt_param_info p_uf[] = {{"min", 100, 0, DT_DINERO_MAX, NULL}, {"max", 10000000, 0, DT_DINERO_MAX, NULL}};

/* Each record's fields, stated once: the names the registry publishes and the offsets the
 * serialiser reads are both generated from these lists, so they cannot drift apart. */
#define CAMPOS_PERSONA(X)                                                                        \
    X(dt_persona, nombres) X(dt_persona, apellido_paterno) X(dt_persona, apellido_materno)       \
    X(dt_persona, nombre_completo) X(dt_persona, sexo) X(dt_persona, rut)                        \
    X(dt_persona, fecha_nacimiento) X(dt_persona, email) X(dt_persona, telefono)                 \
    X(dt_persona, direccion) X(dt_persona, comuna) X(dt_persona, region)
#define CAMPOS_DIRECCION(X)                                                                      \
    X(dt_direccion, tipo_via) X(dt_direccion, nombre_via) X(dt_direccion, numero)                \
    X(dt_direccion, depto) X(dt_direccion, comuna) X(dt_direccion, codigo_comuna)                \
    X(dt_direccion, provincia) X(dt_direccion, codigo_provincia) X(dt_direccion, region)         \
    X(dt_direccion, codigo_region) X(dt_direccion, codigo_postal) X(dt_direccion, linea)
#define CAMPOS_BANCO(X) X(dt_banco, codigo) X(dt_banco, nombre)
#define CAMPOS_CUENTA(X)                                                                         \
    X(dt_cuenta, banco) X(dt_cuenta, codigo_banco) X(dt_cuenta, tipo_cuenta) X(dt_cuenta, numero) \
    X(dt_cuenta, rut_titular)
#define CAMPOS_EMPRESA(X)                                                                        \
    X(dt_empresa, razon_social) X(dt_empresa, nombre_fantasia) X(dt_empresa, rut)                \
    X(dt_empresa, giro) X(dt_empresa, direccion) X(dt_empresa, comuna) X(dt_empresa, region)     \
    X(dt_empresa, telefono) X(dt_empresa, email)

#define NOMBRE(type, field) #field,
#define OFFSET(type, field) offsetof(type, field),
static const char *const n_persona[] = {CAMPOS_PERSONA(NOMBRE)};
static const size_t o_persona[] = {CAMPOS_PERSONA(OFFSET)};
static const char *const n_direccion[] = {CAMPOS_DIRECCION(NOMBRE)};
static const size_t o_direccion[] = {CAMPOS_DIRECCION(OFFSET)};
static const char *const n_banco[] = {CAMPOS_BANCO(NOMBRE)};
static const size_t o_banco[] = {CAMPOS_BANCO(OFFSET)};
static const char *const n_cuenta[] = {CAMPOS_CUENTA(NOMBRE)};
static const size_t o_cuenta[] = {CAMPOS_CUENTA(OFFSET)};
static const char *const n_empresa[] = {CAMPOS_EMPRESA(NOMBRE)};
static const size_t o_empresa[] = {CAMPOS_EMPRESA(OFFSET)};
#undef NOMBRE
#undef OFFSET

/* ---- runners ---- */

#define TEXT_RUNNER(nombre, expr)                                              \
    static dt_status nombre(dt_gen *g, const int64_t *a, char *p, char **end) { \
        size_t n = 0;                                                          \
        (void)a;                                                               \
        dt_status st = (expr);                                                 \
        *end = p + n;                                                          \
        return st;                                                             \
    }
#define CAP DT_MAX_TEXT
TEXT_RUNNER(r_rut, dt_rut(g, (int)a[0], (int)a[1], p, CAP, &n))
TEXT_RUNNER(r_nombre, dt_persona_nombre(g, (int)a[0], p, CAP, &n))
TEXT_RUNNER(r_nombres, dt_persona_nombres(g, (int)a[0], p, CAP, &n))
TEXT_RUNNER(r_apellido, dt_persona_apellido(g, p, CAP, &n))
TEXT_RUNNER(r_nombre_completo, dt_persona_nombre_completo(g, (int)a[0], p, CAP, &n))
TEXT_RUNNER(r_sexo, dt_persona_sexo(g, p, CAP, &n))
TEXT_RUNNER(r_fecha, dt_persona_fecha_nacimiento(g, (int32_t)a[0], (int32_t)a[1], p, CAP, &n))
TEXT_RUNNER(r_email, dt_persona_email(g, p, CAP, &n))
TEXT_RUNNER(r_region, dt_direccion_region(g, p, CAP, &n))
TEXT_RUNNER(r_comuna, dt_direccion_comuna(g, (int32_t)a[0], p, CAP, &n))
TEXT_RUNNER(r_calle, dt_direccion_calle(g, p, CAP, &n))
TEXT_RUNNER(r_movil, dt_telefono_movil(g, (int)a[0], p, CAP, &n))
TEXT_RUNNER(r_fijo, dt_telefono_fijo(g, (int32_t)a[0], (int)a[1], p, CAP, &n))
TEXT_RUNNER(r_clp, dt_dinero_clp(g, a[0], a[1], p, CAP, &n))
TEXT_RUNNER(r_uf, dt_dinero_uf(g, a[0], a[1], p, CAP, &n))
TEXT_RUNNER(r_tipo_cuenta, dt_banco_tipo_cuenta(g, p, CAP, &n))
TEXT_RUNNER(r_numero_cuenta, dt_banco_numero_cuenta(g, p, CAP, &n))
TEXT_RUNNER(r_empresa_nombre, dt_empresa_nombre(g, p, CAP, &n))
TEXT_RUNNER(r_razon_social, dt_empresa_razon_social(g, p, CAP, &n))
TEXT_RUNNER(r_empresa_rut, dt_empresa_rut(g, (int)a[0], p, CAP, &n))
TEXT_RUNNER(r_giro, dt_empresa_giro(g, p, CAP, &n))
#undef TEXT_RUNNER
#undef CAP

#define INT_RUNNER(nombre, expr)                                               \
    static dt_status nombre(dt_gen *g, const int64_t *a, char *p, char **end) { \
        int64_t v = 0;                                                         \
        (void)a;                                                               \
        dt_status st = (expr);                                                 \
        *end = st == DT_OK ? dt__put_u64(p, (uint64_t)v) : p;                  \
        return st;                                                             \
    }
INT_RUNNER(r_numero, dt_direccion_numero(g, &v))
INT_RUNNER(r_monto, dt_dinero_monto(g, a[0], a[1], &v))
INT_RUNNER(r_sueldo, dt_dinero_sueldo(g, &v))
#undef INT_RUNNER

static char *dt__serializar(const void *rec, const size_t *offsets, size_t n, char *p) {
    for (size_t i = 0; i < n; i++) {
        if (i) *p++ = DT_FIELD_SEP;
        const char *s = (const char *)rec + offsets[i];
        p = dt__put(p, s, strlen(s));
    }
    return p;
}

#define RECORD_RUNNER(nombre, type, offsets, expr)                              \
    static dt_status nombre(dt_gen *g, const int64_t *a, char *p, char **end) { \
        type r;                                                                \
        (void)a;                                                               \
        dt_status st = (expr);                                                 \
        *end = st == DT_OK ? dt__serializar(&r, offsets, sizeof offsets / sizeof offsets[0], p) : p; \
        return st;                                                             \
    }
RECORD_RUNNER(r_persona, dt_persona, o_persona, dt_persona_persona(g, (int)a[0], (int32_t)a[1], (int32_t)a[2], &r))
RECORD_RUNNER(r_direccion, dt_direccion, o_direccion, dt_direccion_direccion(g, (int32_t)a[0], &r))
RECORD_RUNNER(r_banco, dt_banco, o_banco, dt_banco_banco(g, &r))
RECORD_RUNNER(r_cuenta, dt_cuenta, o_cuenta, dt_banco_cuenta(g, &r))
RECORD_RUNNER(r_empresa, dt_empresa, o_empresa, dt_empresa_empresa(g, &r))
#undef RECORD_RUNNER

#define N(x) (sizeof x / sizeof x[0])
#define TEXT(name, params, run) {{name, DT_KIND_TEXT, N(params), params, 0, NULL}, run, NULL}
#define TEXT0(name, run) {{name, DT_KIND_TEXT, 0, NULL, 0, NULL}, run, NULL}
#define INT(name, params, run) {{name, DT_KIND_INT, N(params), params, 0, NULL}, run, NULL}
#define INT0(name, run) {{name, DT_KIND_INT, 0, NULL, 0, NULL}, run, NULL}
#define REC(name, params, names, offsets, run) {{name, DT_KIND_RECORD, N(params), params, N(names), names}, run, offsets}
#define REC0(name, names, offsets, run) {{name, DT_KIND_RECORD, 0, NULL, N(names), names}, run, offsets}

/* Indices are part of the ABI within a major version: append only. */
static const dt__llamada dt__llamadas[] = {
    TEXT("rut", p_rut, r_rut),
    TEXT("persona.nombre", p_sexo, r_nombre),
    TEXT("persona.nombres", p_sexo, r_nombres),
    TEXT0("persona.apellido", r_apellido),
    TEXT("persona.nombre_completo", p_sexo, r_nombre_completo),
    TEXT0("persona.sexo", r_sexo),
    TEXT("persona.fecha_nacimiento", p_edades, r_fecha),
    TEXT0("persona.email", r_email),
    REC("persona.persona", p_persona, n_persona, o_persona, r_persona),
    TEXT0("direccion.region", r_region),
    TEXT("direccion.comuna", p_region, r_comuna),
    TEXT0("direccion.calle", r_calle),
    INT0("direccion.numero", r_numero),
    REC("direccion.direccion", p_region, n_direccion, o_direccion, r_direccion),
    TEXT("telefono.movil", p_movil, r_movil),
    TEXT("telefono.fijo", p_fijo, r_fijo),
    INT("dinero.monto", p_monto, r_monto),
    TEXT("dinero.clp", p_monto, r_clp),
    TEXT("dinero.uf", p_uf, r_uf),
    INT0("dinero.sueldo", r_sueldo),
    REC0("banco.banco", n_banco, o_banco, r_banco),
    TEXT0("banco.tipo_cuenta", r_tipo_cuenta),
    TEXT0("banco.numero_cuenta", r_numero_cuenta),
    REC0("banco.cuenta", n_cuenta, o_cuenta, r_cuenta),
    TEXT0("empresa.nombre", r_empresa_nombre),
    TEXT0("empresa.razon_social", r_razon_social),
    TEXT("empresa.rut", p_formato_rut, r_empresa_rut),
    TEXT0("empresa.giro", r_giro),
    REC0("empresa.empresa", n_empresa, o_empresa, r_empresa),
};
#define DT__N_LLAMADAS N(dt__llamadas)

size_t dt_call_count(void) { return DT__N_LLAMADAS; }

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

/* Complete and range-check the arguments. */
static dt_status dt__args(const dt_call_info *info, const int64_t *args, size_t nargs, int64_t *out) {
    if (args == NULL && nargs > 0) return DT_ERR_NULL;
    if (nargs > info->nparams) return DT_ERR_INVALID_ARG;
    for (size_t i = 0; i < info->nparams; i++) {
        const dt_param_info *pi = &info->params[i];
        int64_t v = i < nargs ? args[i] : pi->def;
        if (v < pi->min || v > pi->max) return DT_ERR_INVALID_ARG;
        out[i] = v;
    }
    return DT_OK;
}

#define DT__MAX_PARAMS 4

dt_status dt_call(dt_gen *g, size_t index, const int64_t *args, size_t nargs, char *buf, size_t cap, size_t *len) {
    dt_status st = dt__check_out(g, buf, cap);
    if (st != DT_OK) return st;
    if (index >= DT__N_LLAMADAS) return DT_ERR_UNKNOWN_CALL;
    const dt__llamada *ll = &dt__llamadas[index];
    int64_t a[DT__MAX_PARAMS];
    st = dt__args(&ll->info, args, nargs, a);
    if (st != DT_OK) return st;
    dt_rng saved = g->rng;
    char tmp[DT_MAX_TEXT + 16];
    char *end;
    st = ll->run(g, a, tmp, &end);
    if (st != DT_OK) return st; /* the typed call restored nothing it consumed: it consumed nothing */
    return dt__emit(g, &saved, tmp, (size_t)(end - tmp), buf, cap, len);
}

dt_status dt_call_many(dt_gen *g, size_t index, const int64_t *args, size_t nargs, size_t n,
                       char *buf, size_t cap, size_t *len) {
    dt_status st = dt__check_out(g, buf, cap);
    if (st != DT_OK) return st;
    if (index >= DT__N_LLAMADAS) return DT_ERR_UNKNOWN_CALL;
    const dt__llamada *ll = &dt__llamadas[index];
    int64_t a[DT__MAX_PARAMS];
    st = dt__args(&ll->info, args, nargs, a);
    if (st != DT_OK) return st;
    dt_rng saved = g->rng;
    size_t pos = 0;
    char tmp[DT_MAX_TEXT + 16];
    for (size_t i = 0; i < n; i++) {
        /* Generate in place while a whole value surely fits, else through tmp. */
        int directo = cap - pos >= DT_MAX_TEXT + 1;
        char *p = directo ? buf + pos : tmp;
        char *end;
        st = ll->run(g, a, p, &end);
        if (st != DT_OK) {
            g->rng = saved;
            if (cap > 0) buf[0] = '\0';
            return st;
        }
        size_t k = (size_t)(end - p);
        if (!directo) {
            if (cap - pos < k + 2) {
                g->rng = saved;
                if (cap > 0) buf[0] = '\0';
                if (len) *len = n >= (SIZE_MAX - 1) / DT_MAX_TEXT ? SIZE_MAX : n * DT_MAX_TEXT + 1;
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
