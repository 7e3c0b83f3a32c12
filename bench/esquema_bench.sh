#!/usr/bin/env bash
# datoteca esquema: rows per second of the banco schema (esquemas/banco.toml, every table) as CSV, with
# --jobs 1 and 2, against the same rows made by single-table datasets: for every table, `datoteca tabla`
# of each of its calls with the table's row count and the same options (so the same calls, without the
# serie, foreign-key and elegir columns and without the fan-out). The difference is what keys and fan-out
# cost. Both write files into one temporary directory ($TMPDIR, else /tmp); best of 3 runs each, wall and
# CPU time. Then --formato sql and sqlite.
# Usage: bench/esquema_bench.sh PATH/TO/datoteca [SCHEMA.toml]
set -euo pipefail
cli="$1"; esquema="${2:-$(dirname "$0")/../esquemas/banco.toml}"; seed=7
out=$(mktemp -d "${TMPDIR:-/tmp}/dt-bench.XXXXXX"); trap 'rm -rf "$out"' EXIT
miles() { printf '%.0f' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
ahora() { date +%s.%N; }
# best CMD...: "wall cpu", the shortest wall time and the smallest CPU time (user + system, every thread)
# of 3 runs, in seconds. On a shared machine the CPU time is the steadier of the two.
best() {
  local b="" c="" r u s
  for _ in 1 2 3; do
    rm -rf "$out/run"; mkdir "$out/run"
    read -r r u s < <( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null; } 2>&1 )
    u=$(echo "$u + $s" | bc -l)
    if [ -z "$b" ] || [ "$(echo "$r < $b" | bc -l)" = 1 ]; then b=$r; fi
    if [ -z "$c" ] || [ "$(echo "$u < $c" | bc -l)" = 1 ]; then c=$u; fi
  done
  echo "$b $c"
}
"$cli" esquema "$esquema" --seed "$seed" --formato csv --salida "$out/ref"
filas() { echo $(( $(wc -l < "$out/ref/$1.csv") - 1 )); }
nc=$(filas clientes); ncu=$(filas cuentas); nt=$(filas tarjetas); nm=$(filas movimientos)
total=$((nc + ncu + nt + nm))
bytes=$(cat "$out"/ref/*.csv | wc -c)

# The schema's calls as datasets, table by table (kept in step with esquemas/banco.toml by hand; the
# fecha.fecha ranges are the defaults, since `datoteca tabla --desde` is the first row, not the call's;
# a titular given by another column is the schema's own work, so the dataset draws its holder).
datasets() {
  local j="$1" t="$out/run"
  "$cli" tabla persona --seed "$seed" -n "$nc" --edad_min 25 \
    --campos rut,nombres,apellido_paterno,apellido_materno,fecha_nacimiento,email,telefono,comuna,region \
    --unico rut,email --nulos telefono:50 --format csv --jobs "$j" > "$t/clientes.csv"
  "$cli" tabla banco.cuenta_titular --seed "$seed" -n "$ncu" --campos banco,codigo_banco,tipo_cuenta,numero,rut_titular --format csv --jobs "$j" > "$t/cuentas.csv"
  "$cli" tabla fecha.fecha --seed "$seed" -n "$ncu" --format csv --jobs "$j" > "$t/cuentas_apertura.csv"
  "$cli" tabla dinero.monto --seed "$seed" -n "$nt" --min 100000 --max 5000000 --format csv --jobs "$j" > "$t/tarjetas.csv"
  "$cli" tabla fecha.fecha --seed "$seed" -n "$nm" --format csv --jobs "$j" > "$t/movimientos_fecha.csv"
  "$cli" tabla dinero.monto --seed "$seed" -n "$nm" --min 1000 --max 500000 --format csv --jobs "$j" > "$t/movimientos.csv"
}
esquema_csv() { "$cli" esquema "$esquema" --seed "$seed" --formato csv --salida "$out/run" --jobs "$1"; }
esquema_sql() { "$cli" esquema "$esquema" --seed "$seed" --formato sql --salida "$out/run/banco.sql" --jobs "$1"; }
esquema_sqlite() { "$cli" esquema "$esquema" --seed "$seed" --formato sqlite --salida "$out/run/banco.db" --jobs "$1"; }

echo "banco: $(miles "$nc") clientes, $(miles "$ncu") cuentas, $(miles "$nt") tarjetas, $(miles "$nm") movimientos = $(miles "$total") rows, $(miles "$bytes") bytes of CSV"
echo
echo "| what | --jobs | wall s (best of 3) | rows/s | CPU s (best of 3) | rows per CPU-second | schema / datasets (wall, CPU) |"
echo "|---|---|---|---|---|---|---|"
fila() { # what jobs wall cpu [ratio]
  printf '| %s | %s | %.3f | %s | %.3f | %s | %s |\n' "$1" "$2" "$3" "$(miles "$(echo "$total / $3" | bc -l)")" "$4" \
    "$(miles "$(echo "$total / $4" | bc -l)")" "${5:-}"
}
for j in 1 2; do
  read -r dw dc < <(best datasets "$j"); read -r sw sc < <(best esquema_csv "$j")
  fila "the same calls as single-table datasets, CSV" "$j" "$dw" "$dc"
  fila "the schema, CSV" "$j" "$sw" "$sc" "$(printf '%.2f, %.2f' "$(echo "$sw / $dw" | bc -l)" "$(echo "$sc / $dc" | bc -l)")"
done
for j in 1 2; do
  read -r w c < <(best esquema_sql "$j"); fila "the schema, --formato sql (one script)" "$j" "$w" "$c"
done
for j in 1 2; do
  read -r w c < <(best esquema_sqlite "$j"); fila "the schema, --formato sqlite (a loaded database, keys checked)" "$j" "$w" "$c"
done
