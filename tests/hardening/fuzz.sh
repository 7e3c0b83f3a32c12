#!/usr/bin/env bash
# Bounded fuzzing with libFuzzer (clang from Debian): each target replays its committed corpus,
# then runs for FUZZ_SECONDS (default 30) on a scratch copy of it. A crash fails the run and
# leaves the input in build-fuzz/ to become a named regression test in tests/c/test_regresiones.c.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/need.sh
need clang-14 clang-14 libclang-rt-14-dev
# clang-14 may be there without libFuzzer's runtime (the WebAssembly build installs clang alone)
need_file "$(clang-14 --print-runtime-dir)/libclang_rt.fuzzer-x86_64.a" libclang-rt-14-dev
seconds="${FUZZ_SECONDS:-30}"
out=build-fuzz
mkdir -p "$out"
# The library is compiled once, with the targets' sanitizers and fuzzer coverage, and linked into each
# target (compiling the 48 sources per target cost about 40 s each). DT__ESQUEMA_PADRES_MAX: a fan-out's
# parent of at most 100,000 rows, so one input stays fast (fuzz_esquema).
flags=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -DDT__ESQUEMA_PADRES_MAX=100000 -Ic/include -Ic/src -Icli)
rm -rf "$out/obj"; mkdir -p "$out/obj"
tr ' ' '\n' < c/fuentes.txt | grep . | xargs -P 2 -I{} sh -c \
  'clang-14 "$@" -fsanitize=fuzzer-no-link -c "$0" -o "'"$out"'/obj/$(echo "$0" | tr / _).o"' {} "${flags[@]}"
targets=(rut calls state documento esquema csv mascara jsonl)
for t in "${targets[@]}"; do
  clang-14 "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/fuzz_$t.c" "$out"/obj/*.o -o "$out/fuzz_$t"
done
# fuzz_one TARGET: replay the corpus, then fuzz a scratch copy of it; its verdict in $out/TARGET.verdict,
# its exit status says whether it passed. Two targets run at a time (one core each; libFuzzer is
# single-threaded), and the verdicts are printed in the targets' order.
fuzz_one() {
  local t="$1" v="$out/$1.verdict"
  if ! "$out/fuzz_$t" -runs=0 "tests/fuzz/corpus/$t" >"$out/$t-replay.log" 2>&1; then
    { cat "$out/$t-replay.log"; echo "fuzz_$t: corpus replay failed"; } >"$v"; return 1
  fi
  rm -rf "$out/corpus-$t"; cp -r "tests/fuzz/corpus/$t" "$out/corpus-$t"
  if ! "$out/fuzz_$t" -max_total_time="$seconds" -artifact_prefix="$out/$t-" "$out/corpus-$t" >"$out/$t.log" 2>&1; then
    { tail -n 30 "$out/$t.log"; echo "fuzz_$t: crash, input in $out/"; } >"$v"; return 1
  fi
  runs=$(grep -o 'Done [0-9]* runs' "$out/$t.log" | grep -o '[0-9]*')
  echo "fuzz_$t: corpus of $(ls "tests/fuzz/corpus/$t" | wc -l) inputs replayed, then $runs runs in ${seconds} s, no crash" >"$v"
}
export -f fuzz_one
export out seconds
rm -f "$out"/*.verdict
status=0
printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c 'fuzz_one "$0"' {} || status=1
for t in "${targets[@]}"; do cat "$out/$t.verdict" 2>/dev/null || { echo "fuzz_$t: no verdict"; status=1; }; done
[ "$status" -eq 0 ] || { echo "fuzzing: failed"; exit 1; }
echo "fuzzing: 8 passed, 0 failed"
