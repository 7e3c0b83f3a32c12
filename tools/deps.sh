#!/usr/bin/env bash
# The build's own tools: installed from Debian when missing (as root or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/need.sh
need cmake cmake
need pkg-config pkgconf
need c++ g++
need python3 python3 python3-venv
# The datoteca program links SQLite for `datoteca esquema --formato sqlite` (headers and the .so link).
if ! pkg-config --exists sqlite3 2>/dev/null && [ ! -e /usr/include/sqlite3.h ]; then need sqlite3.h libsqlite3-dev; fi
# ... and libpq for `datoteca inferir postgresql://` (cli/conectar_pg.c).
if ! pkg-config --exists libpq 2>/dev/null && [ ! -e /usr/include/postgresql/libpq-fe.h ]; then need libpq-fe.h libpq-dev; fi
# ... and MariaDB Connector/C for `datoteca inferir mariadb://` and `datoteca esquema --hacia mariadb://` (cli/conectar_mariadb*.c, cli/hacia_mariadb.c).
if ! pkg-config --exists libmariadb 2>/dev/null && [ ! -e /usr/include/mariadb/mysql.h ]; then need_file /usr/include/mariadb/mysql.h libmariadb-dev; fi
