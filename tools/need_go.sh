#!/usr/bin/env bash
# The Go toolchain for make test-go and bench-go: prints the path of a `go` binary. /usr/local/go/bin/go
# when there, else `go` on PATH, else Debian's golang-go (1.19 on Debian 12: bindings/go builds with it).
# Never downloads a toolchain: the callers set GOTOOLCHAIN=local.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go; exit 0; fi
. tools/need.sh
need go golang-go >&2
command -v go
