/* datoteca.cargar_esquema(documento, semilla, hoy, formato): a whole example database from one schema
 * document (docs/esquemas.md) created and filled by one call (docs/postgres.md, "A schema in one call").
 *
 * The library parses and checks the document, writes the CREATE TABLE statements (with their primary,
 * unique and foreign keys) and makes every row; this file only runs the DDL and the INSERTs through SPI,
 * in the library's dependency order, so the database enforces every key as the rows arrive. The schema
 * (malloc'd by the library) is freed by a reset callback of the calling context, so an error or a cancel
 * frees it too. Rows are made LOTE at a time, with CHECK_FOR_INTERRUPTS between batches. */
#include "datoteca_pg.h"

#include "datoteca.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/memutils.h"

#include <string.h>

#define LOTE 1024

static void liberar_esquema(void *arg) {
    dt_esquema **e = arg;
    dt_esquema_free(*e);
    *e = NULL;
}

static void spi_o_error(int rc, int esperado, const char *que) {
    if (rc != esperado) elog(ERROR, "datoteca.cargar_esquema: %s: %s", que, SPI_result_code_string(rc));
}

/* One table's rows: a prepared INSERT whose text parameters are cast to the column types. */
static uint64_t cargar_tabla(dt_esquema *e, size_t tabla, char *buf, size_t cap) {
    const char *nombre = dt_esquema_tabla(e, tabla);
    size_t ncol = dt_esquema_columnas(e, tabla);
    StringInfoData q;
    initStringInfo(&q);
    appendStringInfo(&q, "INSERT INTO %s VALUES (", quote_identifier(nombre));
    Oid *tipos = palloc(sizeof(Oid) * ncol);
    for (size_t j = 0; j < ncol; j++) {
        dt_esquema_columna_info ci;
        if (dt_esquema_columna(e, tabla, j, &ci) != DT_OK) elog(ERROR, "datoteca.cargar_esquema: no column %zu", j);
        appendStringInfo(&q, "%s$%zu::%s", j ? ", " : "", j + 1, ci.tipo_sql);
        tipos[j] = TEXTOID;
    }
    appendStringInfoChar(&q, ')');
    SPIPlanPtr plan = SPI_prepare(q.data, (int)ncol, tipos);
    if (plan == NULL) elog(ERROR, "datoteca.cargar_esquema: %s: %s", q.data, SPI_result_code_string(SPI_result));
    Datum *valores = palloc(sizeof(Datum) * ncol);
    char *nulos = palloc(ncol);
    uint64_t filas = dt_esquema_tabla_filas(e, tabla);
    MemoryContext fila_ctx = AllocSetContextCreate(CurrentMemoryContext, "datoteca fila", ALLOCSET_DEFAULT_SIZES);
    for (uint64_t desde = 0; desde < filas;) {
        CHECK_FOR_INTERRUPTS();
        size_t n = filas - desde < LOTE ? (size_t)(filas - desde) : LOTE;
        size_t len;
        char why[DT_SENTENCE_MAX];
        dt_status s = dt_esquema_filas(e, tabla, desde, n, buf, cap, &len);
        if (s == DT_ERR_INVALID_ARG) {
            strlcpy(why, buf, sizeof why);
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", why)));
        }
        if (s != DT_OK) elog(ERROR, "datoteca.cargar_esquema: dt_esquema_filas: %s", dt_status_str(s));
        char *p = buf;
        for (size_t i = 0; i < n; i++) {
            MemoryContext antes = MemoryContextSwitchTo(fila_ctx);
            for (size_t j = 0; j < ncol; j++) {
                char *c = p;
                while (*p != DT_FIELD_SEP && *p != '\n' && *p != '\0') p++;
                if (*p == '\0' || ((*p == '\n') != (j + 1 == ncol)))
                    elog(ERROR, "datoteca.cargar_esquema: a row of table %s has the wrong number of fields", nombre);
                *p++ = '\0';
                int nulo = c[0] == DT_NULO && c[1] == '\0';
                nulos[j] = nulo ? 'n' : ' ';
                valores[j] = nulo ? (Datum)0 : CStringGetTextDatum(c);
            }
            MemoryContextSwitchTo(antes);
            spi_o_error(SPI_execute_plan(plan, valores, nulos, false, 0), SPI_OK_INSERT, nombre);
            MemoryContextReset(fila_ctx);
        }
        desde += n;
    }
    MemoryContextDelete(fila_ctx);
    SPI_freeplan(plan);
    return filas;
}

PG_FUNCTION_INFO_V1(datoteca_cargar_esquema);
Datum datoteca_cargar_esquema(PG_FUNCTION_ARGS) {
    if (PG_ARGISNULL(0))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("datoteca.cargar_esquema: documento must not be null")));
    text *doc = PG_GETARG_TEXT_PP(0);
    int64_t semilla = PG_ARGISNULL(1) ? 0 : PG_GETARG_INT64(1);
    if (semilla < 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("datoteca.cargar_esquema: semilla must be an integer from 0 to %lld, got %lld",
                               (long long)INT64_MAX, (long long)semilla)));
    int y = 0, m = 0, d = 0;
    if (!PG_ARGISNULL(2)) {
        DateADT f = PG_GETARG_DATEADT(2);
        if (DATE_NOT_FINITE(f))
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("datoteca.cargar_esquema: hoy must be a finite date")));
        j2date(f + POSTGRES_EPOCH_JDATE, &y, &m, &d);
    }
    int formato = DT_ESQUEMA_TOML;
    if (!PG_ARGISNULL(3)) {
        char *fmt = text_to_cstring(PG_GETARG_TEXT_PP(3));
        if (strcmp(fmt, "json") == 0) formato = DT_ESQUEMA_JSON;
        else if (strcmp(fmt, "toml") != 0)
            ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                            errmsg("datoteca.cargar_esquema: formato must be 'toml' or 'json', got '%.40s'", fmt)));
    }

    dt_esquema **e = palloc0(sizeof *e);
    MemoryContextCallback *cb = palloc0(sizeof *cb);
    cb->func = liberar_esquema;
    cb->arg = e;
    MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);
    char why[DT_SENTENCE_MAX];
    dt_status s = dt_esquema_new(VARDATA_ANY(doc), VARSIZE_ANY_EXHDR(doc), formato, "documento", (uint64_t)semilla, y, m,
                                 d, e, why, sizeof why);
    if (s == DT_ERR_INVALID_ARG) ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", why)));
    if (s != DT_OK) elog(ERROR, "datoteca.cargar_esquema: dt_esquema_new: %s", dt_status_str(s));

    size_t len = 0;
    dt_esquema_ddl(*e, DT_SQL_POSTGRESQL, NULL, 0, &len);
    char *ddl = palloc(len + 1);
    s = dt_esquema_ddl(*e, DT_SQL_POSTGRESQL, ddl, len + 1, &len);
    if (s != DT_OK) elog(ERROR, "datoteca.cargar_esquema: dt_esquema_ddl: %s", dt_status_str(s));

    /* A capacity for LOTE rows of the widest table: the library's size query. */
    size_t cap = 0;
    for (size_t t = 0; t < dt_esquema_tablas(*e); t++) {
        size_t c = 0;
        dt_esquema_filas(*e, t, 0, LOTE, NULL, 0, &c);
        if (c > cap) cap = c;
    }
    char *buf = palloc(cap);

    if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "datoteca.cargar_esquema: SPI_connect failed");
    spi_o_error(SPI_execute(ddl, false, 0), SPI_OK_UTILITY, "the CREATE TABLE statements");
    uint64_t total = 0;
    for (size_t k = 0; k < dt_esquema_tablas(*e); k++) total += cargar_tabla(*e, dt_esquema_orden(*e, k), buf, cap);
    SPI_finish();
    PG_RETURN_INT64((int64_t)total);
}
