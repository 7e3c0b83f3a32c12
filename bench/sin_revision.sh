#!/usr/bin/env bash
# A datoteca CLI with the review's per-row hook turned off, for bench/fugas_bench.py's "review off" runs:
# the tracked files of this working tree copied to OUT/src, dt__cli_revision_fila (cli/cli_revision.c)
# made to return at once, and only the CLI built (Release). Everything else is the same sources, so
# on against off is the review alone. Never installed, never tested: a measuring device.
#   bench/sin_revision.sh OUT    (prints the path of the CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$1
rm -rf "$OUT/src" && mkdir -p "$OUT/src"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$OUT/src"
f="$OUT/src/cli/cli_revision.c"
pat='    if (t == NULL || (t->nk == 0 \&\& t->nx == 0)) return;'
grep -q "^$pat\$" "$f" || { echo "sin_revision.sh: the hook's first line is not where it was; update this script" >&2; exit 1; }
sed -i "s/^$pat\$/    (void)pl; (void)t; (void)fila; (void)vals; (void)lens; (void)p; return; \/* bench: review off *\//" "$f"
grep -q 'bench: review off' "$f"
cmake -S "$OUT/src" -B "$OUT/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$OUT/build" -j2 --target datoteca_cli >/dev/null
echo "$OUT/build/datoteca"
