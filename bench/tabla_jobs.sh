#!/usr/bin/env bash
# datoteca tabla --jobs: 10,000,000 persona rows with unico=rut,email as CSV, with 1 and 2
# threads, written to /dev/null (the CLI's own work: generation and formatting) and to a file
# (adds the kernel's page cache and the disk); median of 3 runs each, and whether the outputs
# are byte-identical. Usage: bench/tabla_jobs.sh PATH/TO/datoteca
set -euo pipefail
cli="$1"; n=10000000
out=$(mktemp -d "${TMPDIR:-/tmp}/dt-bench.XXXXXX"); trap 'rm -rf "$out"' EXIT
miles() { printf '%.0f' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
echo "| written to | --jobs | seconds for 10,000,000 persona rows, CSV, unico rut,email (median of 3) | rows/s | speed-up |"
echo "|---|---|---|---|---|"
for dest in /dev/null file; do
  base=""
  for jobs in 1 2; do
    target=$([ "$dest" = file ] && echo "$out/$jobs.csv" || echo /dev/null)
    times=()
    for _ in 1 2 3; do
      s=$(date +%s.%N); "$cli" tabla persona --seed 1 -n "$n" --unico rut,email --format csv --jobs "$jobs" > "$target"; e=$(date +%s.%N)
      times+=("$(echo "$e - $s" | bc -l)")
    done
    med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 2p)
    [ -z "$base" ] && base=$med
    printf '| %s | %s | %.2f | %s | %.2f× |\n' "$dest" "$jobs" "$med" "$(miles "$(echo "$n / $med" | bc -l)")" "$(echo "$base / $med" | bc -l)"
  done
done
cmp -s "$out/1.csv" "$out/2.csv" && echo "outputs byte-identical ($(wc -c < "$out/1.csv") bytes)" || { echo "outputs DIFFER"; exit 1; }
