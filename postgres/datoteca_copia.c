/* A masked copy of tables inside the database (docs/postgres.md, "A masked copy"):
 *
 *   datoteca.enmascarar_filas(destino anyelement, origen regclass, reglas jsonb) RETURNS SETOF anyelement
 *     every row of `origen` masked by a rules document (docs/enmascarar.md, "The rules", in its JSON form),
 *     as rows of destino's type (NULL::schema.table), matched to the masked columns by name;
 *   datoteca.columnas_enmascaradas(origen regclass, reglas jsonb) RETURNS text[]
 *     the columns a masked copy of `origen` has (its own, in order, without those whose rule is borrar);
 *
 *   datoteca.reglas_json(reglas text) RETURNS jsonb
 *     a rules document written in TOML (a table's, or a database's as `datoteca detectar URL` writes it) as
 *     its JSON twin, the form the two functions above take;
 *
 * and the procedures datoteca.copiar_enmascarado and datoteca.copiar_todo_enmascarado (datoteca_manual.sql)
 * over them. A rules document that has `tablas` is a database's: each table takes its own section. The library decides every
 * value (dt_mascara_plan_fila): a column's value goes in as its type's text (the function runs with
 * DateStyle ISO, YMD, so a date is 2024-03-05 whatever the session says), comes out as text and is read
 * back by the destination column's type. A null goes in as "" and comes out null whatever the rule, and a
 * non-empty value the rule empties comes out null: the Arrow path's semantics (dt_mascara_arrow_lote), so
 * a copy written as CSV is the CLI's output for the same rows. A refused value is an error naming the
 * table, row and column, never the value; the key is the masking scalars' (datoteca_mascara.c).
 *
 * The rules and the plan are malloc'd by the library and freed by a reset callback of this call's memory
 * context, so an error or a cancel in the middle frees them too. A backend is single-threaded. */
#include "datoteca_pg.h"

#include "datoteca.h"
#include "esquema/documento.h" /* a TOML rules document's JSON twin (reglas_json) */

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include <string.h>

/* Rows fetched from the source per SPI round trip. */
#define LOTE 1000

typedef struct recursos {
    dt_mascara_reglas *reglas;
    dt_mascara_plan *plan;
} recursos;

static void liberar(void *arg) {
    recursos *r = arg;
    dt_mascara_plan_free(r->plan);
    dt_mascara_reglas_free(r->reglas);
    r->plan = NULL;
    r->reglas = NULL;
}

/* The rules of the jsonb argument `k` (a table's document, or a database's: then the section named
 * `seccion`), and the plan over `n` source columns, in a context whose reset frees both. */
static recursos *plan_de(FunctionCallInfo fcinfo, int k, const char *funcion, const char *tabla, const char *seccion, size_t n,
                         const char *const *nombres, const size_t *largos, MemoryContext cx) {
    if (PG_ARGISNULL(k))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s: reglas must not be null", funcion)));
    const dt_mascara_clave *clave = dt_pg_clave(funcion);
    Jsonb *jb = PG_GETARG_JSONB_P(k);
    char *texto = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
    recursos *r = MemoryContextAllocZero(cx, sizeof *r);
    MemoryContextCallback *cb = MemoryContextAllocZero(cx, sizeof *cb);
    cb->func = liberar;
    cb->arg = r;
    MemoryContextRegisterResetCallback(cx, cb);
    char why[DT_SENTENCE_MAX];
    /* a database's document (`tablas`, what datoteca detectar URL writes): this table's section of it */
    JsonbValue llave = {.type = jbvString, .val.string = {.len = 6, .val = "tablas"}};
    dt_status s = findJsonbValueFromContainer(&jb->root, JB_FOBJECT, &llave) != NULL
                      ? dt_mascara_reglas_tabla_new(texto, strlen(texto), DT_MASCARA_JSON, "reglas", seccion, strlen(seccion),
                                                    &r->reglas, why, sizeof why)
                      : dt_mascara_reglas_new(texto, strlen(texto), DT_MASCARA_JSON, "reglas", &r->reglas, why, sizeof why);
    if (s == DT_OK) s = dt_mascara_plan_new(r->reglas, clave, n, nombres, largos, &r->plan, why, sizeof why);
    if (s == DT_ERR_NO_MEMORY) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: out of memory", funcion)));
    if (s != DT_OK)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: %s: %s", funcion, tabla, s == DT_ERR_INVALID_ARG ? why : dt_status_str(s))));
    return r;
}

/* The source's columns as the header: the names of its live attributes, in order (what SELECT * gives). */
typedef struct cabecera {
    size_t n;
    const char **nombres;
    size_t *largos;
    char *tabla; /* schema.table, quoted where needed */
    char *clave; /* its name in a database's rules document: the bare name in public, else schema.name */
} cabecera;

static cabecera cabecera_de(Oid origen, const char *funcion) {
    cabecera c = {0};
    char *esquema = get_namespace_name(get_rel_namespace(origen));
    char *nombre = get_rel_name(origen);
    if (esquema == NULL || nombre == NULL)
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("%s: origen names no table", funcion)));
    c.tabla = (char *)quote_qualified_identifier(esquema, nombre);
    c.clave = strcmp(esquema, "public") == 0 ? pstrdup(nombre) : psprintf("%s.%s", esquema, nombre);
    Relation rel = relation_open(origen, AccessShareLock);
    TupleDesc td = RelationGetDescr(rel);
    c.nombres = palloc(sizeof(char *) * (size_t)(td->natts + 1));
    c.largos = palloc(sizeof(size_t) * (size_t)(td->natts + 1));
    for (int i = 0; i < td->natts; i++) {
        Form_pg_attribute a = TupleDescAttr(td, i);
        if (a->attisdropped) continue;
        c.nombres[c.n] = pstrdup(NameStr(a->attname));
        c.largos[c.n] = strlen(c.nombres[c.n]);
        c.n++;
    }
    relation_close(rel, AccessShareLock);
    return c;
}

PG_FUNCTION_INFO_V1(datoteca_columnas_enmascaradas);
Datum datoteca_columnas_enmascaradas(PG_FUNCTION_ARGS) {
    const char *funcion = "datoteca.columnas_enmascaradas";
    if (PG_ARGISNULL(0))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s: origen must not be null", funcion)));
    cabecera c = cabecera_de(PG_GETARG_OID(0), funcion);
    MemoryContext cx = AllocSetContextCreate(CurrentMemoryContext, "datoteca columnas_enmascaradas", ALLOCSET_SMALL_SIZES);
    recursos *r = plan_de(fcinfo, 1, funcion, c.tabla, c.clave, c.n, c.nombres, c.largos, cx);
    size_t n = dt_mascara_plan_ncolumnas(r->plan);
    Datum *d = palloc(sizeof(Datum) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = dt_mascara_plan_columna(r->plan, i, &len);
        d[i] = PointerGetDatum(cstring_to_text_with_len(s, (int)len));
    }
    ArrayType *a = construct_array(d, (int)n, TEXTOID, -1, false, TYPALIGN_INT);
    MemoryContextDelete(cx);
    PG_RETURN_ARRAYTYPE_P(a);
}

/* Where output column i of the plan comes from (its source column) and goes (its destination attribute). */
typedef struct salida {
    int origen;  /* index into the source header */
    int destino; /* attribute number - 1 in the destination's row type */
} salida;

PG_FUNCTION_INFO_V1(datoteca_enmascarar_filas);
Datum datoteca_enmascarar_filas(PG_FUNCTION_ARGS) {
    const char *funcion = "datoteca.enmascarar_filas";
    ReturnSetInfo *rsi = (ReturnSetInfo *)fcinfo->resultinfo;
    if (rsi == NULL || !IsA(rsi, ReturnSetInfo) || !(rsi->allowedModes & SFRM_Materialize))
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("%s: a set of rows is returned here, call it in FROM", funcion)));
    if (PG_ARGISNULL(1))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s: origen must not be null", funcion)));
    TupleDesc destino;
    if (get_call_result_type(fcinfo, NULL, &destino) != TYPEFUNC_COMPOSITE)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: destino must be a row type, such as NULL::esquema.tabla", funcion)));

    MemoryContext consulta = rsi->econtext->ecxt_per_query_memory;
    MemoryContext antes = MemoryContextSwitchTo(consulta);
    destino = CreateTupleDescCopy(destino);
    Tuplestorestate *ts = tuplestore_begin_heap(true, false, work_mem);
    MemoryContext cx = AllocSetContextCreate(consulta, "datoteca enmascarar_filas", ALLOCSET_DEFAULT_SIZES);
    MemoryContextSwitchTo(cx);

    cabecera c = cabecera_de(PG_GETARG_OID(1), funcion);
    recursos *r = plan_de(fcinfo, 2, funcion, c.tabla, c.clave, c.n, c.nombres, c.largos, cx);
    size_t nsal = dt_mascara_plan_ncolumnas(r->plan);

    /* Every masked column lands in the destination column of its name, and every destination column is
     * a masked one: a copy that silently left a column empty or dropped one would not be a copy. */
    int natts = destino->natts;
    salida *sal = palloc(sizeof(salida) * (nsal + 1));
    bool *cubierto = palloc0(sizeof(bool) * (size_t)(natts + 1));
    for (size_t i = 0; i < nsal; i++) {
        size_t len;
        const char *s = dt_mascara_plan_columna(r->plan, i, &len);
        sal[i].origen = -1;
        sal[i].destino = -1;
        for (size_t j = 0; j < c.n; j++)
            if (c.largos[j] == len && memcmp(c.nombres[j], s, len) == 0) sal[i].origen = (int)j;
        for (int a = 0; a < natts; a++) {
            Form_pg_attribute at = TupleDescAttr(destino, a);
            if (!at->attisdropped && strlen(NameStr(at->attname)) == len && memcmp(NameStr(at->attname), s, len) == 0)
                sal[i].destino = a;
        }
        if (sal[i].origen < 0) elog(ERROR, "%s: the plan's column %.*s is not a source column", funcion, (int)len, s);
        if (sal[i].destino < 0)
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("%s: %s: the masked column %.*s is not a column of destino's row type", funcion,
                                   c.tabla, (int)len, s)));
        cubierto[sal[i].destino] = true;
    }
    FmgrInfo *entrada = palloc0(sizeof(FmgrInfo) * (size_t)(natts + 1));
    Oid *parametro = palloc0(sizeof(Oid) * (size_t)(natts + 1));
    for (int a = 0; a < natts; a++) {
        Form_pg_attribute at = TupleDescAttr(destino, a);
        if (at->attisdropped) continue;
        if (!cubierto[a])
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("%s: %s: destino's column %s is not a masked column of origen (its rule is borrar, "
                                   "or origen has no such column)", funcion, c.tabla, NameStr(at->attname))));
        Oid fn;
        getTypeInputInfo(at->atttypid, &fn, &parametro[a]);
        fmgr_info_cxt(fn, &entrada[a], cx);
    }

    StringInfoData q;
    initStringInfo(&q);
    appendStringInfo(&q, "SELECT * FROM %s", c.tabla);
    if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "%s: SPI_connect failed", funcion);
    SPIPlanPtr sp = SPI_prepare(q.data, 0, NULL);
    if (sp == NULL) elog(ERROR, "%s: SPI_prepare: %s", funcion, SPI_result_code_string(SPI_result));
    Portal portal = SPI_cursor_open(NULL, sp, NULL, NULL, true);

    MemoryContext fila_cx = AllocSetContextCreate(cx, "datoteca fila", ALLOCSET_DEFAULT_SIZES);
    FmgrInfo *salida_fn = NULL;
    const char **valores = palloc(sizeof(char *) * (c.n + 1));
    size_t *largos = palloc(sizeof(size_t) * (c.n + 1));
    bool *nulo = palloc(sizeof(bool) * (c.n + 1));
    Datum *datos = palloc(sizeof(Datum) * (size_t)(natts + 1));
    bool *nulos = palloc(sizeof(bool) * (size_t)(natts + 1));
    uint64 fila = 0;
    char why[DT_SENTENCE_MAX];
    for (;;) {
        SPI_cursor_fetch(portal, true, LOTE);
        if (SPI_processed == 0) break;
        SPITupleTable *tt = SPI_tuptable;
        if ((size_t)tt->tupdesc->natts != c.n)
            elog(ERROR, "%s: %s has %d columns, its description %zu", funcion, c.tabla, tt->tupdesc->natts, c.n);
        if (salida_fn == NULL) {
            MemoryContext m = MemoryContextSwitchTo(cx);
            salida_fn = palloc0(sizeof(FmgrInfo) * (c.n + 1));
            for (size_t j = 0; j < c.n; j++) {
                Oid fn;
                bool varlena;
                getTypeOutputInfo(TupleDescAttr(tt->tupdesc, (int)j)->atttypid, &fn, &varlena);
                fmgr_info_cxt(fn, &salida_fn[j], cx);
            }
            MemoryContextSwitchTo(m);
        }
        for (uint64 t = 0; t < SPI_processed; t++) {
            CHECK_FOR_INTERRUPTS();
            MemoryContext m = MemoryContextSwitchTo(fila_cx);
            fila++;
            for (size_t j = 0; j < c.n; j++) {
                bool isnull;
                Datum d = SPI_getbinval(tt->vals[t], tt->tupdesc, (int)j + 1, &isnull);
                nulo[j] = isnull;
                valores[j] = isnull ? "" : OutputFunctionCall(&salida_fn[j], d);
                largos[j] = strlen(valores[j]);
            }
            dt_status s = dt_mascara_plan_fila(r->plan, fila, c.n, valores, largos, why, sizeof why);
            if (s == DT_ERR_NO_MEMORY) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: out of memory", funcion)));
            if (s != DT_OK) /* "row N, column C: ..." without the value */
                ereport(ERROR, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                                errmsg("%s: %s: %s", funcion, c.tabla, s == DT_ERR_INVALID_ARG ? why : dt_status_str(s))));
            for (int a = 0; a < natts; a++) nulos[a] = true;
            for (size_t i = 0; i < nsal; i++) {
                size_t len;
                const char *v = dt_mascara_plan_valor(r->plan, i, &len);
                int j = sal[i].origen, a = sal[i].destino;
                if (nulo[j] || (len == 0 && largos[j] > 0)) continue;
                Form_pg_attribute at = TupleDescAttr(destino, a);
                datos[a] = InputFunctionCall(&entrada[a], pnstrdup(v, len), parametro[a], at->atttypmod);
                nulos[a] = false;
            }
            MemoryContextSwitchTo(consulta);
            tuplestore_putvalues(ts, destino, datos, nulos);
            MemoryContextSwitchTo(m);
            MemoryContextReset(fila_cx);
        }
        SPI_freetuptable(tt);
    }
    SPI_cursor_close(portal);
    SPI_finish();
    MemoryContextSwitchTo(antes);
    MemoryContextDelete(cx); /* frees the plan and the rules through the callback */
    rsi->returnMode = SFRM_Materialize;
    rsi->setResult = ts;
    rsi->setDesc = destino;
    return (Datum)0;
}

PG_FUNCTION_INFO_V1(datoteca_reglas_json);
Datum datoteca_reglas_json(PG_FUNCTION_ARGS) {
    const char *funcion = "datoteca.reglas_json";
    if (PG_ARGISNULL(0))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s: reglas must not be null", funcion)));
    text *t = PG_GETARG_TEXT_PP(0);
    char why[DT_SENTENCE_MAX];
    dt__doc *d = NULL;
    dt_status s = dt__doc_parse_toml(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), "reglas", &d, why, sizeof why);
    size_t n = 0;
    char *json = NULL;
    if (s == DT_OK && (s = dt__doc_dump(dt__doc_root(d), 0, NULL, 0, &n)) == DT_ERR_BUFFER_TOO_SMALL) {
        json = palloc(n + 1);
        s = dt__doc_dump(dt__doc_root(d), 0, json, n + 1, &n);
    }
    dt__doc_free(d);
    if (s == DT_ERR_NO_MEMORY) ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("%s: out of memory", funcion)));
    if (s != DT_OK)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("%s: %s", funcion, s == DT_ERR_INVALID_ARG ? why : dt_status_str(s))));
    return DirectFunctionCall1(jsonb_in, CStringGetDatum(json));
}
