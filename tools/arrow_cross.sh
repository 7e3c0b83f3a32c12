#!/usr/bin/env bash
# The cross-language Arrow check: Node writes each case of tests/cross/arrow_casos.json as an Arrow
# IPC file through apache-arrow; pyarrow reads it, validates it fully and compares it with Python's
# own batch of the same rows. Two independent Arrow implementations, two bindings, one C library.
# Usage: tools/arrow_cross.sh PYTHON
set -euo pipefail
cd "$(dirname "$0")/.."
python="$1"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
node tests/node/arrow_ipc_runner.mjs "$out"
"$python" tests/python/arrow_cross_runner.py "$out"
