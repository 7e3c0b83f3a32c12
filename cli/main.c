/* The datoteca program: the command line lives in the library (dt_cli_main, cli/cli.c), so the
 * CMake binary, the Python package's script and the npm package's bin run the same code. */
#include "datoteca.h"

int main(int argc, char **argv) { return dt_cli_main(argc, argv); }
