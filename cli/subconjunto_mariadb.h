/* Which rows a smaller copy of a MariaDB source keeps (cli/subconjunto_mariadb.c): the datoteca program only,
 * as it links libmariadb. */
#ifndef DT_SUBCONJUNTO_MARIADB_H
#define DT_SUBCONJUNTO_MARIADB_H

#include <stddef.h>
#include <stdint.h>

#include "conectar_mariadb.h"

/* For the nt tables of the source open in s (nombres[i] their names), TEMPORARY tables datoteca_sub_<i>
 * holding the primary keys of the rows a copy keeps under `spec` ("clientes=10%", cli_subconjunto.c),
 * `semilla` (a root's row kept by a hash of its primary key as text, as PostgreSQL's) and `hijos` (children
 * of kept rows too, downward from the roots); every kept row's parents kept, transitively; each of the
 * ncondiciones "TABLE=CONDITION" keeps the rows of TABLE that CONDITION, run by MariaDB, chooses, as roots too. donde[i] gets a
 * new string the caller frees: the WHERE clause that reads only table i's kept rows. s must be in a
 * transaction that may write TEMPORARY tables (not READ ONLY). *raices: the root rows kept. 0; 2 refused
 * or failed (said on stderr, no value in it: a table without a primary key is refused by name); 1 out of
 * memory. Not thread-safe (one connection). */
int dt__cli_mariadb_subconjunto(dt__mdb *s, char *const *nombres, size_t nt, const char *spec, uint64_t semilla, int hijos,
                                const char *const *condiciones, size_t ncondiciones, char **donde, uint64_t *raices);

#endif
