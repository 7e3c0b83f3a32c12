#!/usr/bin/env bash
# The CLI writing 1,000,000 persona rows to /dev/null, beside the C floor measured in the same run:
# the stream (`datoteca persona`) as JSONL and CSV, and the dataset (`datoteca tabla persona`) as CSV
# with one and two jobs and as JSONL; median of 5 runs each. The floor is `dt_persona_persona` alone
# (bench/c_piso.c), timed before and after the CLI runs; "records per row" is a row's time over the
# record's (1.00 would be a row that costs nothing but its person), which says more on a noisy
# machine than rows/s does. Issue #31's targets are printed beside the figures.
# Usage: bench/cli_bench.sh PATH/TO/datoteca PATH/TO/c_piso
set -euo pipefail
cli="$1"; piso="$2"; n=1000000
miles() { printf '%.0f' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
antes=$("$piso")
filas=()
medir() { # label target command...
  local label="$1" target="$2"; shift 2
  local times=()
  for _ in 1 2 3 4 5; do
    s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc -l)")
  done
  filas+=("$label|$target|$(printf '%s\n' "${times[@]}" | sort -g | sed -n 3p)")
}
medir "\`datoteca persona --format jsonl\` (stream)" "≥ 2 M rows/s" "$cli" persona --seed 1 -n "$n" --format jsonl
medir "\`datoteca persona --format csv\` (stream)" "≥ 2 M rows/s" "$cli" persona --seed 1 -n "$n" --format csv
medir "\`datoteca tabla persona --format csv\`" "≥ 2 M rows/s" "$cli" tabla persona --seed 1 -n "$n" --format csv
medir "\`datoteca tabla persona --format csv --jobs 2\`" "≥ 3.5 M rows/s" "$cli" tabla persona --seed 1 -n "$n" --format csv --jobs 2
medir "\`datoteca tabla persona --format jsonl\`" "—" "$cli" tabla persona --seed 1 -n "$n" --format jsonl
despues=$("$piso")
piso_ns=$(echo "($antes + $despues) / 2" | bc -l)
printf 'C floor: `dt_persona_persona` %.0f ns before the CLI runs, %.0f ns after (%s records/s on one core)\n\n' \
  "$antes" "$despues" "$(miles "$(echo "1000000000 / $piso_ns" | bc -l)")"
echo "| path | seconds for 1,000,000 persona rows (median of 5) | rows/s | µs per row | records per row | issue #31's target |"
echo "|---|---:|---:|---:|---:|---|"
for f in "${filas[@]}"; do
  IFS='|' read -r label target med <<< "$f"
  printf '| %s | %.3f | %s | %.3f | %.2f | %s |\n' "$label" "$med" "$(miles "$(echo "$n / $med" | bc -l)")" \
    "$(echo "$med" | bc -l)" "$(echo "$med * 1000000000 / $n / $piso_ns" | bc -l)" "$target"
done
