#!/usr/bin/env bash
# PostgreSQL's server for the dataset tests (tests/python/test_basesdedatos.py), from Debian when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/need.sh
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  need initdb postgresql
fi
