/* The extension's descriptions of its SQL functions (filled by the generated datoteca_glue.gen.c) and the
 * two runners over libdatoteca (datoteca_pg.c). Owned by the extension; used only inside one backend. */
#ifndef DATOTECA_PG_H
#define DATOTECA_PG_H

#include "postgres.h"
#include "fmgr.h"

/* Built and tested against PostgreSQL 15 only (docs/postgres.md, "Limits"): datoteca_llenar.c's executor
 * calls changed in 16. A clear refusal here rather than an error deep in a header or a wrong build. */
#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 160000
#error "datoteca: the extension is built for PostgreSQL 15 only (docs/postgres.md, Limits)"
#endif

#include <stddef.h>
#include <stdint.h>

typedef struct dt_pg_columna {
    const char *nombre;
    const char *tipo_sql; /* as the spec and dt_tabla_columna say: text, date, char(1), integer, bigint */
} dt_pg_columna;

/* One dataset function: SQL arguments (n, semilla, desde, one per param, unico, nulos, sucio, hoy,
 * semilla_texto); kinds has one letter per param: 'i' int4, 'l' int8, 'o' a choice given by name. */
typedef struct dt_pg_llamada {
    const char *llamada;           /* the registry's name: "persona.persona" */
    const char *funcion;           /* the SQL name, for sentences: "datoteca.persona" */
    size_t nparams;
    const char *kinds;
    size_t ncols;
    const dt_pg_columna *cols;
    int resuelta;                  /* the registry index below is looked up once per backend */
    size_t indice;
} dt_pg_llamada;

/* One utility function: an optional text first, then one SQL argument per kind that is not 'f' (fixed:
 * an alias' value in fijo). */
typedef struct dt_pg_utilidad {
    const char *utilidad;
    const char *funcion;
    int texto;
    int validar;                   /* returns boolean: DT_OK is true, the utility's own refusal false */
    const char *kinds;
    int64_t fijo[4];
    int resuelta;
    size_t indice;
} dt_pg_utilidad;

/* Hidden: the module exports only PostgreSQL's entry points (PG_FUNCTION_INFO_V1 and the magic block). */
__attribute__((visibility("hidden"))) Datum dt_pg_tabla(FunctionCallInfo fcinfo, dt_pg_llamada *ll);
__attribute__((visibility("hidden"))) Datum dt_pg_util(FunctionCallInfo fcinfo, dt_pg_utilidad *u);

/* The dataset of a dataset function's SQL arguments, which start at argument `b` (n, semilla, desde, the
 * params, unico, nulos, sucio, hoy, semilla_texto): checked (22023 with the library's sentence), built,
 * and freed by a reset callback of `cx`; rows [*desde, *desde + *n) are within its capacity. */
struct dt_tabla;
__attribute__((visibility("hidden"))) struct dt_tabla *dt_pg_dataset(FunctionCallInfo fcinfo, dt_pg_llamada *ll, int b,
                                                                     MemoryContext cx, uint64_t *desde, uint64_t *n);
/* The type of a column the library calls `tipo_sql` (text, date, char(1), integer, bigint); InvalidOid else. */
__attribute__((visibility("hidden"))) Oid dt_pg_tipo(const char *tipo_sql);
/* A column's text from the library as a Datum of `tipo`: integers, dates and text directly, anything else
 * (or an odd form) through the type's input function `entrada` (given a copy: `c` need not be NUL-terminated). */
__attribute__((visibility("hidden"))) Datum dt_pg_datum(Oid tipo, const char *c, size_t len, FmgrInfo *entrada, Oid ioparam,
                                                        int32 typmod);
/* datoteca.llenar_<call>(tabla, n, semilla, ...): the rows inserted into `tabla` as COPY does, in batches
 * (datoteca_llenar.c). Returns the rows inserted. */
__attribute__((visibility("hidden"))) Datum dt_pg_llenar(FunctionCallInfo fcinfo, dt_pg_llamada *ll);

/* The masking key of datoteca.clave_archivo (datoteca_mascara.c), read once per backend and cached until
 * the setting changes; owned by the cache (never freed by the caller). Raises a PostgreSQL error, naming
 * `funcion` and never the key or the file's content, when there is none or it cannot be read. */
struct dt_mascara_clave;
__attribute__((visibility("hidden"))) const struct dt_mascara_clave *dt_pg_clave(const char *funcion);

#endif
