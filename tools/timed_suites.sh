#!/usr/bin/env bash
# Run make targets one after another, stop at the first that fails, and print how long each took.
# Usage: tools/timed_suites.sh TARGET...   (make test calls it with every suite)
set -uo pipefail
make_cmd=${MAKE:-make}
times=()
status=0
for target in "$@"; do
  start=$(date +%s)
  "$make_cmd" --no-print-directory "$target"
  status=$?
  times+=("$target $(( $(date +%s) - start )) s")
  [ "$status" -eq 0 ] || { times[-1]+=" (FAILED)"; break; }
done
echo "== time per suite"
printf '   %s\n' "${times[@]}"
exit "$status"
