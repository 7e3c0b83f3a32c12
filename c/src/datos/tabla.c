/* tabla: datasets, the addressable mode. Row i of a call is generated from its own stream,
 * derived from the seed and i (docs/stream.md), through the same registry runners as dt_call;
 * then its columns are selected, unique columns come from keyed permutations indexed by i
 * (unico.c) and null values from a keyed hash of (i, column). Nothing depends on other rows. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "tabla_interno.h"

/* The size of dt_tabla_opciones in 2.0.0, which ended with `nulos`: the smallest a caller may pass. */
#define DT__OPCIONES_2_0 (offsetof(dt_tabla_opciones, nulos) + sizeof(const char *))

static const char *const dt__tipos_pg[] = {"text", "date", "char(1)", "integer", "bigint"};
static const char *const dt__tipos_sqlite[] = {"TEXT", "TEXT", "TEXT", "INTEGER", "INTEGER"};

const char *dt__tabla_campo(const dt_tabla *t, size_t k) {
    return t->ll->info.kind == DT_KIND_RECORD ? t->ll->info.fields[k] : t->clave_escalar;
}

/* Field k of the call by name (len bytes), or -1. */
static int dt__buscar_campo(const dt_tabla *t, const char *s, size_t len) {
    for (size_t k = 0; k < t->ncampos_llamada; k++) {
        const char *n = dt__tabla_campo(t, k);
        if (strlen(n) == len && memcmp(n, s, len) == 0) return (int)k;
    }
    return -1;
}

/* The column j showing field k, or -1. */
static int dt__columna_de(const dt_tabla *t, size_t k) {
    for (size_t j = 0; j < t->ncol; j++)
        if (t->col[j] == k) return (int)j;
    return -1;
}

static int dt__es_de(const char *name, const char *prefijo) { return strncmp(name, prefijo, strlen(prefijo)) == 0; }

/* How many rows a unique column of this kind can serve for this call and its arguments. */
static uint64_t dt__capacidad_unico(const dt_tabla *t, int clase) {
    const char *name = t->ll->info.name;
    switch (clase) {
    case DT__UNICO_RUT:
        if (strcmp(name, "persona.persona") == 0) { /* args: sexo, edad_min, edad_max */
            uint32_t lo, hi;
            dt__rut_nacido_dominio(t->hoy_anio, (int32_t)t->args[1], (int32_t)t->args[2], &lo, &hi);
            return (uint64_t)hi - lo + 1;
        }
        if (dt__es_de(name, "empresa.") || (strcmp(name, "rut") == 0 && t->args[0] == DT_RUT_EMPRESA))
            return DT_RUT_EMPRESA_MAX - DT_RUT_EMPRESA_MIN + 1;
        return DT_RUT_PERSONA_MAX - DT_RUT_PERSONA_MIN + 1;
    case DT__UNICO_EMAIL: return DT__EMAIL_UNICOS;
    case DT__UNICO_MOVIL: return DT_T_MOVILES_TOTAL;
    default: return 1000000u; /* DT__UNICO_FIJO: the numbers of one area outside Santiago */
    }
}

/* Walk a comma-separated list ("rut,email" or "email:100"), calling `uno` on each item. */
typedef int (*dt__item)(dt_tabla *t, const char *s, size_t len, char *why, size_t whycap);
static int dt__lista(dt_tabla *t, const char *lista, dt__item uno, char *why, size_t whycap) {
    if (lista == NULL) return 0;
    const char *s = lista;
    while (*s) {
        const char *fin = strchr(s, ',');
        size_t len = fin ? (size_t)(fin - s) : strlen(s);
        if (uno(t, s, len, why, whycap)) return 1;
        if (!fin) break;
        s = fin + 1;
    }
    return 0;
}

static int dt__falta(const dt_tabla *t, const char *que, const char *s, size_t len, char *why, size_t whycap) {
    int k = snprintf(why, whycap, "%s: %s '%.*s' is not a column; its columns are ", t->ll->info.name, que,
                     (int)(len > 64 ? 64 : len), s);
    for (size_t c = 0; c < t->ncampos_llamada && k >= 0 && (size_t)k < whycap; c++)
        k += snprintf(why + k, whycap - (size_t)k, "%s%s", c ? ", " : "", dt__tabla_campo(t, c));
    return 1;
}

static int dt__item_campo(dt_tabla *t, const char *s, size_t len, char *why, size_t whycap) {
    int k = dt__buscar_campo(t, s, len);
    if (k < 0) return dt__falta(t, "campos:", s, len, why, whycap);
    if (dt__columna_de(t, (size_t)k) >= 0) {
        snprintf(why, whycap, "%s: campos: '%.*s' is given twice", t->ll->info.name, (int)len, s);
        return 1;
    }
    t->col[t->ncol++] = (uint8_t)k;
    return 0;
}

static int dt__item_unico(dt_tabla *t, const char *s, size_t len, char *why, size_t whycap) {
    int k = dt__buscar_campo(t, s, len);
    if (k < 0) return dt__falta(t, "unico:", s, len, why, whycap);
    int clase = t->ll->unico[k];
    if (clase == DT__UNICO_NO) {
        int n = snprintf(why, whycap, "%s: column '%.*s' cannot be unique; unique columns are", t->ll->info.name,
                         (int)len, s);
        int alguno = 0;
        for (size_t c = 0; c < t->ncampos_llamada && n >= 0 && (size_t)n < whycap; c++)
            if (t->ll->unico[c]) n += snprintf(why + n, whycap - (size_t)n, "%s %s", alguno++ ? "," : "", dt__tabla_campo(t, c));
        if (!alguno && n >= 0 && (size_t)n < whycap) snprintf(why + n, whycap - (size_t)n, " none (RUT, email and phone columns can be)");
        return 1;
    }
    int j = dt__columna_de(t, (size_t)k);
    if (j < 0) {
        snprintf(why, whycap, "%s: unico: '%.*s' is not among the chosen campos", t->ll->info.name, (int)len, s);
        return 1;
    }
    t->unico[j] = 1;
    t->hay_unico = 1;
    int u = clase == DT__UNICO_RUT ? DT__U_RUT : clase == DT__UNICO_EMAIL ? DT__U_EMAIL : DT__U_TEL;
    t->plantilla.activo[u] = 1;
    uint64_t c = dt__capacidad_unico(t, clase);
    if (c < t->capacidad) t->capacidad = c;
    return 0;
}

/* "column:per-mille" (an integer from 0 to 1000) of the `que` option ("nulos", "sucio"): the column's
 * field into *k and the rate into *v, or 1 with the sentence. Shared so the two options read alike. */
static int dt__item_tasa(dt_tabla *t, const char *que, const char *ejemplo, const char *s, size_t len, int *k, uint32_t *v,
                         char *why, size_t whycap) {
    const char *dos = memchr(s, ':', len);
    size_t nlen = dos ? (size_t)(dos - s) : len;
    uint32_t x = 0;
    size_t nd = 0;
    for (const char *q = dos ? dos + 1 : s + len; dos && q < s + len && nd < 5; q++, nd++) {
        if (*q < '0' || *q > '9') { nd = 0; break; }
        x = x * 10 + (uint32_t)(*q - '0');
    }
    if (!dos || nd == 0 || nd > 4 || (size_t)(s + len - dos - 1) != nd || x > 1000) {
        snprintf(why, whycap, "%s: %s: '%.*s' must be column:per-mille with an integer from 0 to 1000 (\"%s\")",
                 t->ll->info.name, que, (int)(len > 64 ? 64 : len), s, ejemplo);
        return 1;
    }
    char etiqueta[16];
    snprintf(etiqueta, sizeof etiqueta, "%s:", que);
    *k = dt__buscar_campo(t, s, nlen);
    if (*k < 0) return dt__falta(t, etiqueta, s, nlen, why, whycap);
    *v = x;
    return 0;
}

/* The column j showing field k, or 1 with the sentence that it is not among the chosen campos. */
static int dt__elegida(const dt_tabla *t, const char *que, int k, const char *s, size_t nlen, int *j, char *why, size_t whycap) {
    *j = dt__columna_de(t, (size_t)k);
    if (*j >= 0) return 0;
    snprintf(why, whycap, "%s: %s: '%.*s' is not among the chosen campos", t->ll->info.name, que, (int)nlen, s);
    return 1;
}

static int dt__item_nulos(dt_tabla *t, const char *s, size_t len, char *why, size_t whycap) {
    int k, j;
    uint32_t v;
    if (dt__item_tasa(t, "nulos", "email:100", s, len, &k, &v, why, whycap)) return 1;
    if (dt__elegida(t, "nulos", k, s, strlen(dt__tabla_campo(t, (size_t)k)), &j, why, whycap)) return 1;
    t->nulos[j] = v;
    return 0;
}

static int dt__item_sucio(dt_tabla *t, const char *s, size_t len, char *why, size_t whycap) {
    int k, j;
    uint32_t v;
    if (dt__item_tasa(t, "sucio", "rut:100", s, len, &k, &v, why, whycap)) return 1;
    size_t nlen = strlen(dt__tabla_campo(t, (size_t)k));
    if (t->ll->sucio[k] == DT__SUCIO_NO) {
        int n = snprintf(why, whycap, "%s: column '%.*s' cannot be dirty; dirty columns are", t->ll->info.name, (int)nlen, s);
        int alguno = 0;
        for (size_t c = 0; c < t->ncampos_llamada && n >= 0 && (size_t)n < whycap; c++)
            if (t->ll->sucio[c]) n += snprintf(why + n, whycap - (size_t)n, "%s %s", alguno++ ? "," : "", dt__tabla_campo(t, c));
        if (!alguno && n >= 0 && (size_t)n < whycap)
            snprintf(why + n, whycap - (size_t)n, " none (RUT, name, comuna and phone columns can be)");
        return 1;
    }
    if (dt__elegida(t, "sucio", k, s, nlen, &j, why, whycap)) return 1;
    t->sucio[j] = v;
    return 0;
}

dt_status dt_tabla_new(const dt_tabla_opciones *o, dt_tabla **out, char *why, size_t whycap) {
    char sink[8];
    if (why == NULL || whycap == 0) {
        why = sink;
        whycap = sizeof sink;
    }
    why[0] = '\0';
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    /* A caller compiled against 2.0.0's header passes the size without `sucio`: still a whole set of
     * options, with no dirt. A member is read only when the caller's size covers it. */
    if (o == NULL || o->tamano < DT__OPCIONES_2_0 || (o->args == NULL && o->nargs > 0) ||
        (o->seed_texto == NULL && o->seed_texto_len > 0))
        return DT_ERR_NULL;
    const char *sucio = o->tamano >= offsetof(dt_tabla_opciones, sucio) + sizeof o->sucio ? o->sucio : NULL;
    if (o->llamada >= dt_call_count()) {
        snprintf(why, whycap, "no call has index %zu (there are %zu)", o->llamada, dt_call_count());
        return DT_ERR_INVALID_ARG;
    }
    dt_tabla *t = (dt_tabla *)calloc(1, sizeof *t);
    if (t == NULL) return DT_ERR_NO_MEMORY;
    t->ll = &dt__llamadas[o->llamada];
    dt_status st = dt__llamada_args(t->ll, o->args, o->nargs, t->args, why, whycap);
    if (st == DT_OK && (o->hoy_anio || o->hoy_mes || o->hoy_dia)) {
        dt_gen probe = {{0, 1}, 0, 0, 0, NULL};
        if (dt_set_hoy(&probe, o->hoy_anio, o->hoy_mes, o->hoy_dia) != DT_OK) {
            snprintf(why, whycap, "hoy must be a real day from %d-01-01 to %d-12-31, got %04d-%02d-%02d", DT_HOY_ANIO_MIN, DT_HOY_ANIO_MAX,
                     (int)o->hoy_anio, (int)o->hoy_mes, (int)o->hoy_dia);
            st = DT_ERR_INVALID_ARG;
        }
        t->hoy_anio = o->hoy_anio;
        t->hoy_mes = o->hoy_mes;
        t->hoy_dia = o->hoy_dia;
    } else {
        t->hoy_anio = DT_HOY_DEFAULT_ANIO;
        t->hoy_mes = DT_HOY_DEFAULT_MES;
        t->hoy_dia = DT_HOY_DEFAULT_DIA;
    }
    if (st == DT_OK) st = dt__hoy_admite(t->ll, t->hoy_anio, t->hoy_mes, t->hoy_dia, why, whycap);
    if (st != DT_OK) {
        free(t);
        return st;
    }
    t->seed = o->seed_texto ? dt__fnv1a64(o->seed_texto_len ? o->seed_texto : "", o->seed_texto_len) : o->seed;
    t->ncampos_llamada = t->ll->info.kind == DT_KIND_RECORD ? t->ll->info.nfields : 1;
    const char *punto = strrchr(t->ll->info.name, '.');
    snprintf(t->clave_escalar, sizeof t->clave_escalar, "%s", punto ? punto + 1 : t->ll->info.name);
    t->capacidad = DT__SIN_UNICOS;
    t->clave_nulos = dt__mezcla(t->seed ^ dt__fnv1a64("nulos", 5));
    t->clave_sucio = dt__mezcla(t->seed ^ dt__fnv1a64("sucio", 5));
    t->plantilla.clave[DT__U_RUT] = dt__mezcla(t->seed ^ dt__fnv1a64("unico:rut", 9));
    t->plantilla.clave[DT__U_EMAIL] = dt__mezcla(t->seed ^ dt__fnv1a64("unico:email", 11));
    t->plantilla.clave[DT__U_TEL] = dt__mezcla(t->seed ^ dt__fnv1a64("unico:telefono", 14));

    int malo = 0;
    if (o->campos && *o->campos) {
        malo = dt__lista(t, o->campos, dt__item_campo, why, whycap);
    } else {
        for (size_t k = 0; k < t->ncampos_llamada; k++) t->col[t->ncol++] = (uint8_t)k;
    }
    if (!malo) malo = dt__lista(t, o->unico, dt__item_unico, why, whycap);
    if (!malo) malo = dt__lista(t, o->nulos, dt__item_nulos, why, whycap);
    if (!malo) malo = dt__lista(t, sucio, dt__item_sucio, why, whycap);
    for (size_t j = 0; !malo && j < t->ncol; j++) {
        if (t->unico[j] && t->nulos[j]) {
            snprintf(why, whycap, "%s: column '%s' is unique and cannot also have nulls", t->ll->info.name,
                     dt__tabla_campo(t, t->col[j]));
            malo = 1;
        }
    }
    if (malo) {
        free(t);
        return DT_ERR_INVALID_ARG;
    }
    *out = t;
    return DT_OK;
}

void dt_tabla_free(dt_tabla *t) { free(t); }

size_t dt_tabla_columnas(const dt_tabla *t) { return t ? t->ncol : 0; }

uint64_t dt_tabla_capacidad(const dt_tabla *t) { return t ? t->capacidad : 0; }

int dt__tabla_nulable(const dt_tabla *t, size_t j) {
    size_t k = t->col[j];
    return t->nulos[j] > 0 || (t->ll->info.kind == DT_KIND_RECORD && t->ll->nulos[k]);
}

dt_status dt_tabla_columna(const dt_tabla *t, size_t j, dt_columna_info *out) {
    if (t == NULL || out == NULL) return DT_ERR_NULL;
    if (j >= t->ncol) return DT_ERR_INVALID_ARG;
    out->nombre = dt__tabla_campo(t, t->col[j]);
    out->tipo_sql = dt__tipos_pg[t->ll->sql[t->col[j]]];
    out->nulable = dt__tabla_nulable(t, j);
    out->unico = t->unico[j];
    out->nulos_por_mil = t->nulos[j];
    return DT_OK;
}

/* Whether row `fila`'s column k (column j) is dirty, and in which form, come from keyed hashes of
 * (seed, row, field), never from the row's stream: the clean values and every other column stay
 * exactly those of the same dataset without `sucio`. The form is drawn among the forms that change
 * this text (a lower-case k changes only a RUT with K, an abbreviation only a comuna that has one),
 * with equal weight, so a dirty cell always differs from its clean value; a cell no form changes
 * stays clean. Returns the dirty text's end at p, or NULL for a clean cell. */
static char *dt__ensuciar_celda(const dt_tabla *t, uint64_t fila, size_t j, const char *s, size_t n, char *p) {
    size_t k = t->col[j];
    uint64_t h = dt__mezcla(t->clave_sucio + fila * DT_MAX_FIELDS + k);
    if (h % 1000u >= t->sucio[j]) return NULL;
    int tipo = t->ll->sucio[k];
    int cambia[DT__SUCIO_FORMAS];
    uint32_t nc = 0;
    for (int f = 1; f <= DT__SUCIO_FORMAS; f++) {
        char *e = dt__ensuciar(tipo, f, s, n, p);
        if ((size_t)(e - p) != n || memcmp(p, s, n) != 0) cambia[nc++] = f;
    }
    if (nc == 0) return NULL;
    /* the high half of a second hash, scaled to nc: no modulo bias worth the name at 32 bits */
    uint32_t r = (uint32_t)(((dt__mezcla(h ^ 0x7375636961ULL) >> 32) * nc) >> 32);
    return dt__ensuciar(tipo, cambia[r], s, n, p);
}

void dt__tabla_valores(const dt_tabla *t, uint64_t fila, dt__valores *v) { dt__tabla_valores_con(t, fila, t->args, v); }

void dt__tabla_valores_con(const dt_tabla *t, uint64_t fila, const int64_t *args, dt__valores *v) {
    dt_gen g;
    dt__seed(&g.rng, dt__mezcla(t->seed ^ dt__mezcla(fila)), DT__TABLA_STREAM);
    g.hoy_anio = t->hoy_anio;
    g.hoy_mes = t->hoy_mes;
    g.hoy_dia = t->hoy_dia;
    dt__unico u = t->plantilla;
    u.fila = fila;
    g.unico = t->hay_unico ? &u : NULL;
    const dt__llamada *ll = t->ll;
    char *b = v->valor.bytes;
    int registro = ll->info.kind == DT_KIND_RECORD;
    if (registro) {
        ll->registro(&g, args, b);
    } else {
        char *end = ll->run(&g, args, b);
        v->ini[0] = b;
        v->largo[0] = (size_t)(end - b);
    }
    size_t fila_largo = t->ncol; /* the row as dt__tabla_fila writes it: separators and texts */
    int hay_sucio = 0;
    for (size_t j = 0; j < t->ncol; j++) {
        size_t k = t->col[j];
        if (registro) {
            v->ini[j] = b + ll->offsets[k];
            v->largo[j] = strlen(v->ini[j]);
        }
        int nulo = v->largo[j] == 0 && registro && ll->nulos[k];
        if (!nulo && t->nulos[j]) nulo = dt__mezcla(t->clave_nulos + fila * DT_MAX_FIELDS + k) % 1000u < t->nulos[j];
        v->nulo[j] = (uint8_t)nulo;
        fila_largo += v->largo[j];
        hay_sucio |= t->sucio[j] != 0;
    }
    if (!hay_sucio) return;
    char *p = v->sucios;
    for (size_t j = 0; j < t->ncol; j++) {
        if (!t->sucio[j] || v->nulo[j] || v->largo[j] == 0) continue; /* a null or a field with no value stays so */
        if ((size_t)(p - v->sucios) + 2 * v->largo[j] + 8 > sizeof v->sucios) break; /* as below: never, but never past */
        char *e = dt__ensuciar_celda(t, fila, j, v->ini[j], v->largo[j], p);
        if (e == NULL) continue;
        size_t n = (size_t)(e - p);
        /* a row must still fit DT_MAX_TEXT: no real row comes near it, but a row is never cut */
        if (fila_largo - v->largo[j] + n >= DT_MAX_TEXT) continue;
        fila_largo = fila_largo - v->largo[j] + n;
        v->ini[j] = p;
        v->largo[j] = n;
        p = e;
    }
}

char *dt__tabla_fila(const dt_tabla *t, uint64_t fila, char *p) {
    dt__valores v;
    dt__tabla_valores(t, fila, &v);
    for (size_t j = 0; j < t->ncol; j++) {
        if (j) *p++ = DT_FIELD_SEP;
        if (v.nulo[j]) *p++ = DT_NULO;
        else p = dt__put(p, v.ini[j], v.largo[j]);
    }
    return p;
}

/* One row of a dataset for dt__lineas. */
typedef struct dt__una_fila {
    const dt_tabla *t;
    uint64_t desde;
} dt__una_fila;

static char *dt__una(void *ctx, size_t i, char *p) {
    const dt__una_fila *c = (const dt__una_fila *)ctx;
    return dt__tabla_fila(c->t, c->desde + i, p);
}

dt_status dt_tabla_filas(const dt_tabla *t, uint64_t desde, size_t n, char *buf, size_t cap, size_t *len) {
    if (t == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    if (desde > t->capacidad || n > t->capacidad - desde) {
        if (cap > 0) buf[0] = '\0';
        return DT_ERR_INVALID_ARG;
    }
    dt__una_fila ctx = {t, desde};
    return dt__lineas(n, buf, cap, len, dt__una, &ctx);
}

dt_status dt_tabla_ddl(const dt_tabla *t, dt_dialecto dialecto, const char *nombre, char *buf, size_t cap, size_t *len) {
    if (t == NULL || nombre == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    char why[DT_SENTENCE_MAX];
    if (dialecto != DT_SQL_POSTGRESQL && dialecto != DT_SQL_SQLITE) {
        snprintf(why, sizeof why, "dialecto must be %d (postgresql) or %d (sqlite), got %d", DT_SQL_POSTGRESQL, DT_SQL_SQLITE,
                 (int)dialecto);
        dt__sentence_out(why, buf, cap, len);
        return DT_ERR_INVALID_ARG;
    }
    if (!dt__sql_nombre_valido(nombre, strlen(nombre))) {
        snprintf(why, sizeof why, "nombre must be letters of any alphabet, digits and '_', not starting with a digit, at most 63 bytes");
        dt__sentence_out(why, buf, cap, len);
        return DT_ERR_INVALID_ARG;
    }
    const char *const *tipos = dialecto == DT_SQL_SQLITE ? dt__tipos_sqlite : dt__tipos_pg;
    char tmp[DT_MAX_FIELDS * 96 + 128];
    char q[DT__SQL_CITADO_MAX]; /* names as SQL spells them: `user`, `order` are keywords */
    dt__sql_nombre(nombre, strlen(nombre), q);
    int k = snprintf(tmp, sizeof tmp, "CREATE TABLE %s (\n", q);
    int clave = -1; /* the primary key: the first unique column that cannot be null */
    for (size_t j = 0; j < t->ncol; j++)
        if (t->unico[j] && !dt__tabla_nulable(t, j)) {
            clave = (int)j;
            break;
        }
    for (size_t j = 0; j < t->ncol; j++) {
        const char *campo = dt__tabla_campo(t, t->col[j]);
        dt__sql_nombre(campo, strlen(campo), q);
        k += snprintf(tmp + k, sizeof tmp - (size_t)k, "    %s %s%s%s%s\n", q,
                      tipos[t->ll->sql[t->col[j]]], dt__tabla_nulable(t, j) ? "" : " NOT NULL",
                      (int)j == clave ? " PRIMARY KEY" : t->unico[j] ? " UNIQUE" : "", j + 1 < t->ncol ? "," : "");
    }
    k += snprintf(tmp + k, sizeof tmp - (size_t)k, ");\n");
    return dt__copy_out(tmp, (size_t)k, buf, cap, len);
}
