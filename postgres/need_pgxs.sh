#!/usr/bin/env bash
# PGXS and the server headers for building the extension (postgres/), from Debian when missing.
# The headers are pinned to the installed server's exact version: an unpinned install would upgrade the
# server package under any cluster another suite has running.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/need.sh
tools/need_postgres.sh
command -v pg_config >/dev/null 2>&1 || need pg_config libpq-dev
major=$(pg_config --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
inc=$(pg_config --includedir-server)
if [ ! -f "$inc/postgres.h" ] || [ ! -f "$(pg_config --pgxs)" ]; then
  ver=$(dpkg-query -W -f='${Version}' "postgresql-$major" 2>/dev/null || true)
  # need's CMD is the header's path: `command -v` fails on a file that is not executable.
  need "$inc/postgres.h" "postgresql-server-dev-$major${ver:+=$ver}"
fi
