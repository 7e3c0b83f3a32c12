/* Which rows a smaller copy of a PostgreSQL source keeps (cli/subconjunto_pg.c): the datoteca program only,
 * as it links libpq. */
#ifndef DT_SUBCONJUNTO_PG_H
#define DT_SUBCONJUNTO_PG_H

#include <stddef.h>
#include <stdint.h>

#include "conectar_pg.h"

/* For the nt tables of the source open in s (nombres[i] as the rules document names them, oids[i] their
 * pg_class oid as text, citadas[i] their schema-qualified quoted name), TEMP tables
 * pg_temp.datoteca_sub_<i>(toid, rid) holding the (tableoid, ctid) of each row a copy keeps under `spec`
 * ("clientes=10%": the roots' shares, cli_subconjunto.c), `semilla` (which rows of each root: by a hash of its
 * primary key's text, or of its ctid when it has none) and `hijos` (children of kept rows kept too,
 * downward from the roots); every kept row's parents are kept, transitively. Each of the ndonde "TABLE=CONDITION"
 * in donde keeps the rows of TABLE that CONDITION, run by PostgreSQL, chooses, as roots too. *raices: the root rows kept.
 * s must be in a transaction that may create TEMP tables (not READ ONLY), so that the rows read later are
 * those of the same snapshot. 0; 2 refused or failed (said on stderr, no value in it); 1 out of memory.
 * Not thread-safe (one connection). */
int dt__cli_pg_subconjunto(dt__pg *s, char *const *nombres, char *const *oids, char *const *citadas, size_t nt,
                           const char *spec, uint64_t semilla, int hijos, const char *const *donde, size_t ndonde,
                           uint64_t *raices);

#endif
