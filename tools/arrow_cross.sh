#!/usr/bin/env bash
# The cross-language Arrow check: Node writes each case of tests/cross/arrow_casos.json as an Arrow
# IPC file through apache-arrow; pyarrow reads it, validates it fully and compares it with Python's
# own batch of the same rows, then with the CLI's JSON lines of the same rows.
# What it proves: two bindings hand over the C producer's Arrow columns intact and two Arrow
# libraries (apache-arrow writing, pyarrow reading) agree on them; and those columns say what the
# text path says (the CLI writes through dt_tabla_filas, never through the Arrow producer c/src/arrow.c,
# and Python's json module reads it). It does not prove the generated values: both paths share the
# generators; the dataset digests in fixtures/fingerprint.json and test_tabla_derivacion.py do that.
# Usage: tools/arrow_cross.sh PYTHON CLI
set -euo pipefail
cd "$(dirname "$0")/.."
python="$1"; cli="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
node tests/node/arrow_ipc_runner.mjs "$out"
"$python" tests/python/arrow_cross_runner.py "$out" "$cli"
