#!/usr/bin/env bash
# Records per second of the CLI writing 1,000,000 persona records to /dev/null, as JSONL and
# CSV; median of 5 runs each. Usage: bench/cli_bench.sh PATH/TO/datoteca
set -euo pipefail
cli="$1"; n=1000000
echo "| format | seconds for 1,000,000 persona records (median of 5) | records/s |"
echo "|---|---|---|"
for fmt in jsonl csv; do
  times=()
  for _ in 1 2 3 4 5; do
    s=$(date +%s.%N); "$cli" persona --seed 1 -n "$n" --format "$fmt" > /dev/null; e=$(date +%s.%N)
    times+=("$(echo "$e - $s" | bc -l)")
  done
  med=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 3p)
  printf '| %s | %.3f | %s |\n' "$fmt" "$med" "$(printf '%.0f' "$(echo "$n / $med" | bc -l)" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')"
done
