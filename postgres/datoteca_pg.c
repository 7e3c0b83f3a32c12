/* The datoteca extension's runners: a dataset call as a set-returning function, a utility as a scalar.
 *
 * They convert SQL arguments to the registry's integers and texts, call libdatoteca (linked statically,
 * its symbols hidden) and turn its refusals into PostgreSQL errors with the library's sentence: a refused
 * argument is 22023 (invalid_parameter_value), a text a utility refuses 22P02. Nothing here draws a number
 * or decides a value. Every allocation is in a PostgreSQL memory context; the one malloc'd object (the
 * library's dt_tabla) is freed by a reset callback of the function's multi-call context, so an error or a
 * cancel in the middle of a call frees it too. A backend is single-threaded: the registry indices cached in
 * the generated descriptions are written by one thread only. */
#include "datoteca_pg.h"

#include "datoteca.h"
#include "datos/tabla_interno.h" /* dt__tabla_valores: a row's values in place, as the CLI reads them */

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/lsyscache.h"

#include <inttypes.h>
#include <string.h>

PG_MODULE_MAGIC;

/* CHECK_FOR_INTERRUPTS runs once per LOTE rows, which at ~1 µs a row answers a cancel in well under 1 ms. */
#define LOTE 256

#define RECHAZO(...) ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg(__VA_ARGS__)))

typedef struct estado {
    dt_tabla *t;
    uint64_t siguiente; /* the next row to make */
    uint64_t fin;       /* desde + n */
    uint64_t hasta_pausa; /* rows left before the next CHECK_FOR_INTERRUPTS */
    size_t ncol;
    dt__valores *v;     /* the row, read in place from the value the library generated */
    Oid *tipos;         /* each column's type, for the direct conversions of dt_pg_datum */
    Datum *datos;
    bool *nulos;
    AttInMetadata *meta; /* the input functions, for a value a direct conversion does not take */
} estado;

static void liberar_tabla(void *arg) {
    dt_tabla **t = arg;
    dt_tabla_free(*t);
    *t = NULL;
}

static int64_t entero_no_negativo(FunctionCallInfo fcinfo, int k, const char *funcion, const char *nombre) {
    if (PG_ARGISNULL(k)) RECHAZO("%s: %s must not be null", funcion, nombre);
    int64_t v = PG_GETARG_INT64(k);
    if (v < 0) RECHAZO("%s: %s must be an integer from 0 to %" PRId64 ", got %" PRId64, funcion, nombre, INT64_MAX, v);
    return v;
}

/* NULL for a NULL argument, else a palloc'd NUL-terminated copy. */
static char *texto_o_null(FunctionCallInfo fcinfo, int k) {
    return PG_ARGISNULL(k) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(k));
}

/* The registry's value of a choice named by SQL argument k (param j of `info`), or DT_ARG_DEFAULT for NULL. */
static int64_t opcion(FunctionCallInfo fcinfo, int k, const dt_call_info *info, size_t j) {
    if (PG_ARGISNULL(k)) return DT_ARG_DEFAULT;
    text *t = PG_GETARG_TEXT_PP(k);
    int64_t v;
    char why[DT_SENTENCE_MAX];
    if (dt_param_choice(info, j, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), &v, why, sizeof why, NULL) != DT_OK)
        RECHAZO("%s", why);
    return v;
}

/* unico as the library's "a,b": a text[] joined with ','; NULL for none. */
static char *lista(FunctionCallInfo fcinfo, int k, const char *funcion) {
    if (PG_ARGISNULL(k)) return NULL;
    ArrayType *a = PG_GETARG_ARRAYTYPE_P(k);
    Datum *elems;
    bool *nulls;
    int n;
    deconstruct_array(a, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
    StringInfoData s;
    initStringInfo(&s);
    for (int i = 0; i < n; i++) {
        if (nulls[i]) RECHAZO("%s: unico must not hold a null", funcion);
        char *c = TextDatumGetCString(elems[i]);
        if (strchr(c, ',')) RECHAZO("%s: unico holds column names, one per element, without ','", funcion);
        if (i) appendStringInfoChar(&s, ',');
        appendStringInfoString(&s, c);
    }
    return s.data;
}

Oid dt_pg_tipo(const char *tipo_sql) {
    if (strcmp(tipo_sql, "text") == 0) return TEXTOID;
    if (strcmp(tipo_sql, "date") == 0) return DATEOID;
    if (strcmp(tipo_sql, "char(1)") == 0) return BPCHAROID;
    if (strcmp(tipo_sql, "integer") == 0) return INT4OID;
    if (strcmp(tipo_sql, "bigint") == 0) return INT8OID;
    return InvalidOid;
}

/* Digits only, at most 18 of them with an optional '-', so the value cannot overflow: *out, true. */
static bool entero_simple(const char *c, size_t len, int64_t *out) {
    size_t i = c[0] == '-';
    if (len == i || len - i > 18) return false;
    int64_t v = 0;
    for (; i < len; i++) {
        if (c[i] < '0' || c[i] > '9') return false;
        v = v * 10 + (c[i] - '0');
    }
    *out = c[0] == '-' ? -v : v;
    return true;
}

/* The Datum of a column's text `c` (len bytes; it need not be NUL-terminated) in type `tipo`. The library writes
 * integers as plain decimals and dates as YYYY-MM-DD, so those are converted here directly (the text
 * input functions cost more than making the row); anything else goes through the type's input
 * function, which also gives PostgreSQL's own error for a value out of range. */
Datum dt_pg_datum(Oid tipo, const char *c, size_t len, FmgrInfo *entrada, Oid ioparam, int32 typmod) {
    int64_t v;
    switch (tipo) {
    case TEXTOID:
        return PointerGetDatum(cstring_to_text_with_len(c, (int)len));
    case BPCHAROID: /* char(1): one byte needs no padding */
        if (len == 1) return PointerGetDatum(cstring_to_text_with_len(c, 1));
        break;
    case INT8OID:
        if (entero_simple(c, len, &v)) return Int64GetDatum(v);
        break;
    case INT4OID:
        if (len <= 10 && entero_simple(c, len, &v) && v >= PG_INT32_MIN && v <= PG_INT32_MAX) return Int32GetDatum((int32)v);
        break;
    case DATEOID:
        if (len == 10 && c[4] == '-' && c[7] == '-') {
            int64_t y, m, d;
            if (entero_simple(c, 4, &y) && entero_simple(c + 5, 2, &m) && entero_simple(c + 8, 2, &d) && y >= 1 &&
                m >= 1 && m <= 12 && d >= 1 && d <= day_tab[isleap(y)][m - 1])
                return DateADTGetDatum(date2j((int)y, (int)m, (int)d) - POSTGRES_EPOCH_JDATE);
        }
        break;
    }
    return InputFunctionCall(entrada, pnstrdup(c, len), ioparam, typmod);
}

static void resolver_llamada(dt_pg_llamada *ll) {
    if (ll->resuelta) return;
    if (dt_call_find(ll->llamada, strlen(ll->llamada), &ll->indice) != DT_OK)
        elog(ERROR, "%s: libdatoteca has no call %s (the extension and the library disagree)", ll->funcion, ll->llamada);
    const dt_call_info *info = dt_call_at(ll->indice);
    if (info->nparams != ll->nparams)
        elog(ERROR, "%s: the library's %s has %zu params, the extension %zu", ll->funcion, ll->llamada, info->nparams,
             ll->nparams);
    ll->resuelta = 1;
}

dt_tabla *dt_pg_dataset(FunctionCallInfo fcinfo, dt_pg_llamada *ll, int b, MemoryContext cx, uint64_t *desde_out,
                         uint64_t *n_out) {
    resolver_llamada(ll);
    const dt_call_info *info = dt_call_at(ll->indice);
    int64_t n = entero_no_negativo(fcinfo, b, ll->funcion, "n");
    int64_t desde = entero_no_negativo(fcinfo, b + 2, ll->funcion, "desde");
    int64_t args[DT_MAX_PARAMS];
    for (size_t j = 0; j < ll->nparams; j++) {
        int k = (int)(b + 3 + j);
        if (ll->kinds[j] == 'o') args[j] = opcion(fcinfo, k, info, j);
        else if (PG_ARGISNULL(k)) args[j] = DT_ARG_DEFAULT;
        else args[j] = ll->kinds[j] == 'i' ? (int64_t)PG_GETARG_INT32(k) : PG_GETARG_INT64(k);
    }
    int k = (int)(b + 3 + ll->nparams);
    dt_tabla_opciones o;
    memset(&o, 0, sizeof o);
    o.tamano = sizeof o;
    o.llamada = ll->indice;
    o.args = ll->nparams ? args : NULL;
    o.nargs = ll->nparams;
    o.unico = lista(fcinfo, k, ll->funcion);
    o.nulos = texto_o_null(fcinfo, k + 1);
    o.sucio = texto_o_null(fcinfo, k + 2);
    if (!PG_ARGISNULL(k + 3)) {
        DateADT d = PG_GETARG_DATEADT(k + 3);
        if (DATE_NOT_FINITE(d)) RECHAZO("%s: hoy must be a finite date", ll->funcion);
        int y, m, dd;
        j2date(d + POSTGRES_EPOCH_JDATE, &y, &m, &dd);
        o.hoy_anio = y;
        o.hoy_mes = m;
        o.hoy_dia = dd;
    }
    char *st = texto_o_null(fcinfo, k + 4);
    if (st) {
        if (!PG_ARGISNULL(b + 1) && PG_GETARG_INT64(b + 1) != 0)
            RECHAZO("%s: give semilla or semilla_texto, not both", ll->funcion);
        o.seed_texto = st;
        o.seed_texto_len = strlen(st);
    } else {
        o.seed = (uint64_t)entero_no_negativo(fcinfo, b + 1, ll->funcion, "semilla");
    }

    dt_tabla **t = MemoryContextAllocZero(cx, sizeof *t);
    char why[DT_SENTENCE_MAX];
    dt_status s = dt_tabla_new(&o, t, why, sizeof why);
    if (s == DT_ERR_INVALID_ARG) RECHAZO("%s", why);
    if (s == DT_ERR_NO_MEMORY) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: %s", ll->funcion, dt_status_str(s))));
    if (s != DT_OK) elog(ERROR, "%s: dt_tabla_new: %s", ll->funcion, dt_status_str(s));
    MemoryContextCallback *cb = MemoryContextAllocZero(cx, sizeof *cb);
    cb->func = liberar_tabla;
    cb->arg = t;
    MemoryContextRegisterResetCallback(cx, cb);

    uint64_t cap = dt_tabla_capacidad(*t);
    if ((uint64_t)desde > cap || (uint64_t)n > cap - (uint64_t)desde) {
        char x[24], y[24], z[24]; /* the library's sentence takes its numbers as text */
        snprintf(x, sizeof x, "%" PRIu64, (uint64_t)desde);
        snprintf(y, sizeof y, "%" PRIu64, (uint64_t)desde + (uint64_t)n);
        snprintf(z, sizeof z, "%" PRIu64, cap);
        RECHAZO(DT_FRASE_CAPACIDAD, ll->llamada, x, y, z);
    }
    *desde_out = (uint64_t)desde;
    *n_out = (uint64_t)n;
    return *t;
}

/* The first call: arguments checked and converted, the dataset built in the multi-call context. */
static estado *empezar(FunctionCallInfo fcinfo, dt_pg_llamada *ll, FuncCallContext *fc) {
    estado *e = palloc0(sizeof *e);
    uint64_t desde, n;
    e->t = dt_pg_dataset(fcinfo, ll, 0, fc->multi_call_memory_ctx, &desde, &n);

    TupleDesc td;
    if (get_call_result_type(fcinfo, NULL, &td) != TYPEFUNC_COMPOSITE)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: a set of rows is returned here, call it in FROM", ll->funcion)));
    e->ncol = dt_tabla_columnas(e->t);
    if (e->ncol != (size_t)td->natts || e->ncol != ll->ncols)
        elog(ERROR, "%s: the library gives %zu columns, the SQL type has %d", ll->funcion, e->ncol, td->natts);
    for (size_t j = 0; j < e->ncol; j++) {
        dt_columna_info ci;
        dt_tabla_columna(e->t, j, &ci);
        Form_pg_attribute att = TupleDescAttr(td, (int)j);
        if (strcmp(ci.nombre, ll->cols[j].nombre) != 0 || strcmp(ci.tipo_sql, ll->cols[j].tipo_sql) != 0 ||
            dt_pg_tipo(ci.tipo_sql) != att->atttypid)
            elog(ERROR, "%s: column %zu is %s %s in the library but %s %s in the extension", ll->funcion, j + 1,
                 ci.nombre, ci.tipo_sql, NameStr(att->attname), format_type_be(att->atttypid));
    }
    fc->tuple_desc = BlessTupleDesc(td);
    e->meta = TupleDescGetAttInMetadata(fc->tuple_desc);
    e->siguiente = desde;
    e->fin = desde + n;
    e->v = palloc(sizeof *e->v);
    e->tipos = palloc(sizeof(Oid) * e->ncol);
    e->datos = palloc(sizeof(Datum) * e->ncol);
    e->nulos = palloc(sizeof(bool) * e->ncol);
    for (size_t j = 0; j < e->ncol; j++) e->tipos[j] = TupleDescAttr(fc->tuple_desc, (int)j)->atttypid;
    return e;
}

Datum dt_pg_tabla(FunctionCallInfo fcinfo, dt_pg_llamada *ll) {
    FuncCallContext *fc;
    if (SRF_IS_FIRSTCALL()) {
        fc = SRF_FIRSTCALL_INIT();
        MemoryContext antes = MemoryContextSwitchTo(fc->multi_call_memory_ctx);
        fc->user_fctx = empezar(fcinfo, ll, fc);
        MemoryContextSwitchTo(antes);
    }
    fc = SRF_PERCALL_SETUP();
    estado *e = fc->user_fctx;
    if (e->siguiente >= e->fin) SRF_RETURN_DONE(fc);
    if (e->hasta_pausa == 0) {
        CHECK_FOR_INTERRUPTS();
        e->hasta_pausa = LOTE;
    }
    e->hasta_pausa--;
    dt__tabla_valores(e->t, e->siguiente++, e->v);
    for (size_t j = 0; j < e->ncol; j++) {
        e->nulos[j] = e->v->nulo[j] != 0;
        e->datos[j] = e->nulos[j] ? (Datum)0
                                  : dt_pg_datum(e->tipos[j], e->v->ini[j], e->v->largo[j], &e->meta->attinfuncs[j],
                                                e->meta->attioparams[j], e->meta->atttypmods[j]);
    }
    HeapTuple tup = heap_form_tuple(fc->tuple_desc, e->datos, e->nulos);
    SRF_RETURN_NEXT(fc, HeapTupleGetDatum(tup));
}

Datum dt_pg_util(FunctionCallInfo fcinfo, dt_pg_utilidad *u) {
    if (!u->resuelta) {
        if (dt_util_find(u->utilidad, strlen(u->utilidad), &u->indice) != DT_OK)
            elog(ERROR, "%s: libdatoteca has no utility %s", u->funcion, u->utilidad);
        u->resuelta = 1;
    }
    const dt_call_info *info = dt_util_at(u->indice);
    const char *texto = NULL;
    size_t tlen = 0;
    int k = 0;
    if (u->texto) {
        text *t = PG_GETARG_TEXT_PP(0);
        texto = VARDATA_ANY(t);
        tlen = VARSIZE_ANY_EXHDR(t);
        k = 1;
    }
    size_t nargs = strlen(u->kinds);
    int64_t args[4];
    for (size_t j = 0; j < nargs && j < 4; j++) {
        char kind = u->kinds[j];
        if (kind == 'f') args[j] = u->fijo[j];
        else if (kind == 'o') args[j] = opcion(fcinfo, k++, info, j);
        else if (kind == 'i') args[j] = PG_GETARG_INT32(k++);
        else args[j] = PG_GETARG_INT64(k++);
    }
    char buf[DT_MAX_TEXT];
    size_t len;
    dt_status s = dt_util(u->indice, texto ? texto : "", tlen, args, nargs, buf, sizeof buf, &len);
    if (u->validar) {
        if (s == DT_OK) PG_RETURN_BOOL(true);
        if (s != DT_ERR_INVALID_ARG && s != DT_ERR_NO_MEMORY && s != DT_ERR_NULL && s != DT_ERR_UNKNOWN_CALL)
            PG_RETURN_BOOL(false);
    }
    if (s == DT_ERR_INVALID_ARG) RECHAZO("%s", buf);
    if (s != DT_OK && s != DT_ERR_NO_MEMORY && s != DT_ERR_NULL && s != DT_ERR_UNKNOWN_CALL &&
        s != DT_ERR_BUFFER_TOO_SMALL)
        ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), errmsg("%s", buf)));
    if (s != DT_OK) elog(ERROR, "%s: dt_util: %s", u->funcion, dt_status_str(s));
    PG_RETURN_TEXT_P(cstring_to_text_with_len(buf, (int)len));
}
