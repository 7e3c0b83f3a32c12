/* Which rows a smaller copy keeps (cli/subconjunto_sqlite.c): the datoteca program only, as it links
 * SQLite. */
#ifndef DT_SUBCONJUNTO_SQLITE_H
#define DT_SUBCONJUNTO_SQLITE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

/* For the nt tables named tablas[i] of db, TEMP tables datoteca_sub_<i>(rid) holding the rowids a copy
 * keeps under `spec` ("clientes=10%,pedidos=5%": the roots' shares), `semilla` (which rows of each root),
 * and `hijos` (children of kept rows kept too, downward from the roots); every kept row's parents are
 * kept, transitively; each of the ndonde "TABLE=CONDITION" in donde (cli_subconjunto.c) keeps the rows of TABLE
 * that CONDITION, run by SQLite, chooses, as roots too. *raices: the root rows kept. 0; 2 refused or failed (said on stderr, no value in
 * it); 1 out of memory. db may be read-only (TEMP tables are the connection's own). Not thread-safe. */
int dt__cli_sqlite_subconjunto(sqlite3 *db, char *const *tablas, size_t nt, const char *spec, uint64_t semilla, int hijos,
                               const char *const *donde, size_t ndonde, uint64_t *raices);

#endif
