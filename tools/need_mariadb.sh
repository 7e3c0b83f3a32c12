#!/usr/bin/env bash
# MariaDB's server for the tests that read and write it (tests/python/test_inferir_mariadb.py,
# test_hacia_mariadb.py), from Debian when missing. The tests start their own server in a temporary
# directory, on a unix socket only; the package's own service is never started here.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/need.sh
need mariadbd mariadb-server
