/* datoteca.llenar_<call>(tabla regclass, n, semilla, desde, params..., unico, nulos, sucio, hoy,
 * semilla_texto) RETURNS bigint: the dataset's rows inserted straight into a table (docs/postgres.md,
 * "Seed a table in one statement").
 *
 * `INSERT … SELECT * FROM datoteca.persona(…)` pays twice for the executor: the function's rows go into a
 * tuplestore (spilled to a temporary file past work_mem) and come out again, then each is inserted and
 * WAL-logged alone. This does what COPY FROM does instead: rows built as Datums, a batch of them inserted
 * by the table access method's multi-insert (one WAL record per page), the table's indexes and CHECK / NOT
 * NULL constraints applied to each row, generated columns computed. What it does not do, it refuses
 * (0A000) before the first row: a table with INSERT triggers (a foreign key's check is one), row-level
 * security, a partitioned table or a view, a column the call does not make that is not generated. Those
 * take the INSERT … SELECT form. A dataset column the table lacks is skipped; a column of another type
 * than the call's gets the value through its type's input function (varchar(n), numeric, …).
 *
 * Every allocation is in this call's memory contexts; the dataset is freed by a reset callback, so an
 * error or a cancel (CHECK_FOR_INTERRUPTS between batches) frees it too. A backend is single-threaded. */
#include "datoteca_pg.h"

#include "datoteca.h"
#include "datos/tabla_interno.h" /* dt__tabla_valores: a row's values in place, as the CLI reads them */

#include "access/heapam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "executor/nodeModifyTable.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"

#include <string.h>

/* Rows made per crossing into the library and inserted per multi-insert. */
#define LOTE 256

#define NO_AQUI(...) ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg(__VA_ARGS__)))

/* Where dataset column j goes: attribute `att` (-1: skipped), by its own conversion. */
typedef struct destino {
    int att;
    Oid tipo;      /* the attribute's type: the library's own type takes dt_pg_datum's direct path */
    FmgrInfo entrada;
    Oid ioparam;
    int32 typmod;
} destino;

static void comprobar_tabla(Relation rel, const char *funcion) {
    const char *nombre = RelationGetRelationName(rel);
    if (rel->rd_rel->relkind != RELKIND_RELATION)
        NO_AQUI("%s: %s is not a plain table (a partitioned table, a view or a foreign table): use INSERT INTO %s "
                "SELECT * FROM the dataset function", funcion, nombre, nombre);
    AclResult acl = pg_class_aclcheck(RelationGetRelid(rel), GetUserId(), ACL_INSERT);
    if (acl != ACLCHECK_OK) aclcheck_error(acl, get_relkind_objtype(rel->rd_rel->relkind), nombre);
    if (check_enable_rls(RelationGetRelid(rel), InvalidOid, false) == RLS_ENABLED)
        NO_AQUI("%s: %s has row-level security: use INSERT INTO %s SELECT * FROM the dataset function", funcion, nombre,
                nombre);
    TriggerDesc *tg = rel->trigdesc;
    if (tg && (tg->trig_insert_before_row || tg->trig_insert_after_row || tg->trig_insert_instead_row ||
               tg->trig_insert_before_statement || tg->trig_insert_after_statement || tg->trig_insert_new_table))
        NO_AQUI("%s: %s has INSERT triggers (a foreign key's check is one): use INSERT INTO %s SELECT * FROM the "
                "dataset function", funcion, nombre, nombre);
}

Datum dt_pg_llenar(FunctionCallInfo fcinfo, dt_pg_llamada *ll) {
    const char *funcion = ll->funcion;
    if (PG_ARGISNULL(0))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s: tabla must not be null", funcion)));
    Oid relid = PG_GETARG_OID(0);
    MemoryContext cx = AllocSetContextCreate(CurrentMemoryContext, "datoteca llenar", ALLOCSET_DEFAULT_SIZES);
    MemoryContext antes = MemoryContextSwitchTo(cx);
    uint64_t desde, n;
    dt_tabla *t = dt_pg_dataset(fcinfo, ll, 1, cx, &desde, &n);

    Relation rel = table_open(relid, RowExclusiveLock);
    comprobar_tabla(rel, funcion);
    TupleDesc td = RelationGetDescr(rel);
    size_t ncol = dt_tabla_columnas(t);
    if (ncol != ll->ncols) elog(ERROR, "%s: the library gives %zu columns, the extension %zu", funcion, ncol, ll->ncols);

    /* Each table column is a dataset column (by name) or generated; each dataset column the table has is
     * converted to the column's type. */
    destino *dst = palloc0(sizeof(destino) * ncol);
    bool *cubierta = palloc0(sizeof(bool) * (size_t)(td->natts + 1));
    for (size_t j = 0; j < ncol; j++) {
        dt_columna_info ci;
        dt_tabla_columna(t, j, &ci);
        dst[j].att = -1;
        for (int a = 0; a < td->natts; a++) {
            Form_pg_attribute at = TupleDescAttr(td, a);
            if (at->attisdropped || at->attgenerated || strcmp(NameStr(at->attname), ci.nombre) != 0) continue;
            dst[j].att = a;
            dst[j].tipo = at->atttypid;
            dst[j].typmod = at->atttypmod;
            Oid fn;
            getTypeInputInfo(at->atttypid, &fn, &dst[j].ioparam);
            fmgr_info_cxt(fn, &dst[j].entrada, cx);
            /* The direct conversions are the library's own types; a char(1) made into char(n) needs padding. */
            if (dt_pg_tipo(ci.tipo_sql) != at->atttypid || (at->atttypid == BPCHAROID && at->atttypmod != VARHDRSZ + 1))
                dst[j].tipo = InvalidOid;
            cubierta[a] = true;
        }
    }
    for (int a = 0; a < td->natts; a++) {
        Form_pg_attribute at = TupleDescAttr(td, a);
        if (!at->attisdropped && !at->attgenerated && !cubierta[a])
            NO_AQUI("%s: %s has the column %s, which %s does not make: leave it out of the table, make it generated, "
                    "or use INSERT INTO %s SELECT … FROM the dataset function", funcion, RelationGetRelationName(rel),
                    NameStr(at->attname), ll->llamada, RelationGetRelationName(rel));
    }

    /* The executor state COPY FROM sets up: the range table for the error messages, the indexes. */
    EState *estate = CreateExecutorState();
    RangeTblEntry *rte = makeNode(RangeTblEntry);
    rte->rtekind = RTE_RELATION;
    rte->relid = relid;
    rte->relkind = rel->rd_rel->relkind;
    rte->rellockmode = RowExclusiveLock;
    rte->requiredPerms = ACL_INSERT;
    ExecInitRangeTable(estate, list_make1(rte));
    ResultRelInfo *rri = makeNode(ResultRelInfo);
    InitResultRelInfo(rri, rel, 1, NULL, 0);
    CheckValidResultRel(rri, CMD_INSERT);
    ExecOpenIndices(rri, false);
    estate->es_output_cid = GetCurrentCommandId(true);
    CommandId cid = estate->es_output_cid;
    BulkInsertState bis = GetBulkInsertState();
    bool generadas = td->constr && td->constr->has_generated_stored;
    bool restricciones = td->constr != NULL;

    TupleTableSlot **slots = palloc(sizeof(TupleTableSlot *) * LOTE);
    for (int i = 0; i < LOTE; i++) slots[i] = table_slot_create(rel, &estate->es_tupleTable);
    dt__valores *v = palloc(sizeof *v);
    MemoryContext lote_cx = AllocSetContextCreate(cx, "datoteca llenar lote", ALLOCSET_DEFAULT_SIZES);

    uint64_t hechas = 0;
    for (uint64_t siguiente = desde; siguiente < desde + n;) {
        CHECK_FOR_INTERRUPTS();
        uint64_t falta = desde + n - siguiente;
        size_t lote = falta < LOTE ? (size_t)falta : LOTE;
        MemoryContextSwitchTo(lote_cx);
        for (size_t r = 0; r < lote; r++) {
            TupleTableSlot *slot = slots[r];
            ExecClearTuple(slot);
            for (int a = 0; a < td->natts; a++) {
                slot->tts_values[a] = (Datum)0;
                slot->tts_isnull[a] = true;
            }
            dt__tabla_valores(t, siguiente + r, v);
            for (size_t j = 0; j < ncol; j++) {
                int a = dst[j].att;
                if (a < 0 || v->nulo[j]) continue;
                slot->tts_values[a] = dt_pg_datum(dst[j].tipo, v->ini[j], v->largo[j], &dst[j].entrada, dst[j].ioparam,
                                                  dst[j].typmod);
                slot->tts_isnull[a] = false;
            }
            ExecStoreVirtualTuple(slot);
            if (generadas) ExecComputeStoredGenerated(rri, estate, slot, CMD_INSERT);
            if (restricciones) ExecConstraints(rri, slot, estate);
        }
        siguiente += lote;
        table_multi_insert(rel, slots, (int)lote, cid, 0, bis);
        if (rri->ri_NumIndices > 0)
            for (size_t r = 0; r < lote; r++) list_free(ExecInsertIndexTuples(rri, slots[r], estate, false, false, NULL, NIL));
        hechas += lote;
        MemoryContextSwitchTo(cx);
        ResetPerTupleExprContext(estate);
        MemoryContextReset(lote_cx);
    }

    FreeBulkInsertState(bis);
    table_finish_bulk_insert(rel, 0);
    ExecCloseIndices(rri);
    ExecResetTupleTable(estate->es_tupleTable, false);
    FreeExecutorState(estate);
    table_close(rel, NoLock); /* the lock is held to the end of the transaction, as for an INSERT */
    MemoryContextSwitchTo(antes);
    MemoryContextDelete(cx); /* frees the dataset through its callback */
    PG_RETURN_INT64((int64)hechas);
}
