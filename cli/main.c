/* The datoteca program: the command line lives in the library (dt_cli_main, cli/cli.c), so the
 * CMake binary, the Python package's script and the npm package's bin run the same code; a Python wheel
 * carries this program too (datoteca/_bin/datoteca, which its script runs), with the client libraries.
 * Only this program links SQLite (cli/cli_sqlite.c, cli/conectar_sqlite.c), for `datoteca esquema --formato
 * sqlite`, `--hacia sqlite:` and `datoteca inferir sqlite:`, and libpq (cli/conectar_pg*.c,
 * cli/hacia_pg.c, cli/copiar_pg.c), for `datoteca inferir postgresql://`, `datoteca esquema --hacia
 * postgresql://` and `datoteca copiar --desde postgresql://`,
 * and MariaDB Connector/C (cli/conectar_mariadb*.c, cli/hacia_mariadb.c, cli/copiar_mariadb.c), for
 * `datoteca inferir`, `datoteca esquema --hacia` and `datoteca copiar` with `mariadb://` and `mysql://`. */
#include "datoteca.h"
#if defined(DT_CON_SQLITE) || defined(DT_CON_PG) || defined(DT_CON_MARIADB)
#include "cli_interno.h"
#include "conectar.h"
#endif

int main(int argc, char **argv) {
#ifdef DT_CON_SQLITE
    dt__cli_esquema_sqlite = dt__cli_sqlite_escribir;
    dt__cli_hacia_sqlite = dt__cli_sqlite_hacia;
    dt__cli_conectar_sqlite = dt__conectar_sqlite;
    dt__cli_copiar_sqlite = dt__cli_sqlite_copiar;
#endif
#ifdef DT_CON_PG
    dt__cli_conectar_pg = dt__conectar_pg;
    dt__cli_hacia_pg = dt__cli_pg_hacia;
    dt__cli_copiar_pg = dt__cli_pg_copiar;
#endif
#ifdef DT_CON_MARIADB
    dt__cli_hacia_mariadb = dt__cli_mariadb_hacia;
    dt__cli_copiar_mariadb = dt__cli_mariadb_copiar;
    dt__cli_conectar_mariadb = dt__conectar_mariadb;
#endif
    return dt_cli_main(argc, argv);
}
