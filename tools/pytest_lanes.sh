#!/usr/bin/env bash
# tests/python in two pytest processes at once, one per core: the files that start real components
# (PostgreSQL, SQLite and DuckDB through test_basesdedatos' server, MariaDB, Spark, the wheel builds) in one, every
# other file in the other. Each process is single-threaded, and the two sets took about equal time
# (830 s and 750 s of a 1,583 s serial run on a loaded machine). Each lane's output is printed whole, in order, when both
# have ended; the run fails if either lane fails, collects nothing (pytest's exit 5), or is killed.
# With --sin-componentes (make check) the component files are left out and the other files run as two
# lanes instead: the four that take most of the time (the golden digests, the CLI masking runs, mypy,
# the dataset slices) in one, the rest in the other.
# Usage: tools/pytest_lanes.sh [--sin-componentes] PYTHON [PYTEST_ARGS...]
set -uo pipefail
cd "$(dirname "$0")/.."
sin_componentes=0
if [ "${1:-}" = "--sin-componentes" ]; then sin_componentes=1; shift; fi
py="$1"; shift
components=(tests/python/test_basesdedatos.py tests/python/test_esquema_bases.py tests/python/test_spark.py
            tests/python/test_wheel.py tests/python/test_npm.py tests/python/test_postgres_*.py tests/python/test_hacia*.py tests/python/test_inferir_mariadb.py
            tests/python/test_inferir_abanico.py tests/python/test_referencia.py tests/python/test_detectar_url.py tests/python/test_copiar_pg.py
            tests/python/test_copiar_mariadb.py tests/python/test_copiar_revision_servidores.py)
ignore=()
for f in "${components[@]}"; do ignore+=(--ignore="$f"); done
first=("${components[@]}"); first_name="the files with real components (${#components[@]} files)"
if [ "$sin_componentes" = 1 ]; then
  first=(tests/python/test_golden.py tests/python/test_enmascarar_cli.py tests/python/test_api.py tests/python/test_tabla.py)
  first_name="${first[*]}"
  for f in "${first[@]}"; do ignore+=(--ignore="$f"); done
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
start=$(date +%s)
"$py" -m pytest "${first[@]}" "$@" >"$logs/components.log" 2>&1 &
a=$!
"$py" -m pytest tests/python "${ignore[@]}" "$@" >"$logs/rest.log" 2>&1 &
b=$!
wait "$a"; sa=$?
wait "$b"; sb=$?
echo "== tests/python, $first_name: exit $sa"
cat "$logs/components.log"
echo "== tests/python, every other file: exit $sb"
cat "$logs/rest.log"
echo "tests/python: two lanes in $(( $(date +%s) - start )) s"
[ "$sa" -eq 0 ] && [ "$sb" -eq 0 ]
