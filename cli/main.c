/* The datoteca program: the command line lives in the library (dt_cli_main, cli/cli.c), so the
 * CMake binary, the Python package's script and the npm package's bin run the same code. Only this
 * program links SQLite (cli/cli_sqlite.c), for `datoteca esquema --formato sqlite`. */
#include "datoteca.h"
#ifdef DT_CON_SQLITE
#include "cli_interno.h"
#endif

int main(int argc, char **argv) {
#ifdef DT_CON_SQLITE
    dt__cli_esquema_sqlite = dt__cli_sqlite_escribir;
#endif
    return dt_cli_main(argc, argv);
}
