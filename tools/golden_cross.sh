#!/usr/bin/env bash
# The cross-language golden check: C, Python and Node each replay fixtures/golden-sequence.json
# and write their canonical JSON; all three must equal fixtures/golden.json byte for byte.
# Usage: tools/golden_cross.sh BUILD_DIR PYTHON
set -euo pipefail
cd "$(dirname "$0")/.."
build="$1"; python="$2"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$build/tests/c/test_golden" --out "$out/c.json" >/dev/null || true
"$python" tests/python/golden_runner.py "$out/python.json"
node tests/node/golden_runner.mjs "$out/node.json"
fail=0
for lang in c python node; do
  if cmp -s "$out/$lang.json" fixtures/golden.json; then
    echo "golden ($lang): identical to fixtures/golden.json ($(wc -c < fixtures/golden.json) bytes)"
  else
    echo "golden ($lang): DIFFERS from fixtures/golden.json:"; diff -u fixtures/golden.json "$out/$lang.json" | head -20; fail=$((fail + 1))
  fi
done
echo "golden: $((3 - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]
