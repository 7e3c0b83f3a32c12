#!/usr/bin/env bash
# Bounded fuzzing with libFuzzer (clang from Debian): each target replays its committed corpus,
# then runs for FUZZ_SECONDS (default 30) on a scratch copy of it. A crash fails the run and
# leaves the input in build-fuzz/ to become a named regression test in tests/c/test_regresiones.c.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/need.sh
need clang-14 clang-14 libclang-rt-14-dev
seconds="${FUZZ_SECONDS:-30}"
out=build-fuzz
mkdir -p "$out"
# DT__ESQUEMA_PADRES_MAX: a fan-out's parent of at most 100,000 rows, so one input stays fast (fuzz_esquema).
for t in rut calls state documento esquema csv mascara jsonl; do
  clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DDT__ESQUEMA_PADRES_MAX=100000 -Ic/include -Ic/src -Icli $(cat c/fuentes.txt) \
    "tests/fuzz/fuzz_$t.c" -o "$out/fuzz_$t"
  "$out/fuzz_$t" -runs=0 "tests/fuzz/corpus/$t" >"$out/$t-replay.log" 2>&1 || { cat "$out/$t-replay.log"; echo "fuzz_$t: corpus replay failed"; exit 1; }
  rm -rf "$out/corpus-$t"; cp -r "tests/fuzz/corpus/$t" "$out/corpus-$t"
  if ! "$out/fuzz_$t" -max_total_time="$seconds" -artifact_prefix="$out/$t-" "$out/corpus-$t" >"$out/$t.log" 2>&1; then
    tail -n 30 "$out/$t.log"; echo "fuzz_$t: crash, input in $out/"; exit 1
  fi
  runs=$(grep -o 'Done [0-9]* runs' "$out/$t.log" | grep -o '[0-9]*')
  echo "fuzz_$t: corpus of $(ls "tests/fuzz/corpus/$t" | wc -l) inputs replayed, then $runs runs in ${seconds} s, no crash"
done
echo "fuzzing: 8 passed, 0 failed"
