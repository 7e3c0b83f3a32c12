#!/bin/sh
# Build build-wasm/datoteca.wasm: the C sources of c/fuentes.txt for wasm32-wasi, as a reactor (no main;
# _initialize runs the C constructors), exporting wasm/exports.gen.txt (tools/gen/wasm.py).
#
# Toolchain (pinned: Debian bookworm's packages, the same clang-14 the rest of the project may use):
#   clang-14 1:14.0.6-12, lld-14 1:14.0.6-12 (wasm-ld), wasi-libc 0.0~git20220510.9886d3d-2,
#   libclang-rt-14-dev-wasm32 1:14.0.6-12 (compiler-rt builtins: 64-bit and 128-bit helpers).
# WASM_INSTALL=1 installs them with apt-get when missing (make wasm does).
#
# Reproducible: no timestamps, file paths mapped to '.', a fixed source order; building twice gives
# the same bytes (make test-wasm checks it).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${WASM_OUT:-$ROOT/build-wasm}
CC=${WASM_CC:-clang-14}
LLVM_BIN=/usr/lib/llvm-14/bin
SYSROOT_INC=/usr/include/wasm32-wasi
SYSROOT_LIB=/usr/lib/wasm32-wasi
RT=/usr/lib/llvm-14/lib/clang/14.0.6/lib/wasi/libclang_rt.builtins-wasm32.a

faltan=""
command -v "$CC" >/dev/null 2>&1 || faltan="$faltan clang-14"
[ -x "$LLVM_BIN/wasm-ld" ] || faltan="$faltan lld-14"
[ -f "$SYSROOT_LIB/libc.a" ] || faltan="$faltan wasi-libc"
[ -f "$RT" ] || faltan="$faltan libclang-rt-14-dev-wasm32"
if [ -n "$faltan" ]; then
    if [ "${WASM_INSTALL:-0}" = 1 ]; then
        apt-get install -y --no-install-recommends $faltan >/dev/null
    else
        echo "wasm/build.sh: missing Debian packages:$faltan (apt-get install$faltan, or WASM_INSTALL=1)" >&2
        exit 1
    fi
fi

mkdir -p "$OUT/obj"
cd "$ROOT"
# -nostdlibinc: only wasi-libc's headers (and clang's own), never the host's /usr/include.
CFLAGS="--target=wasm32-wasi -O2 -std=c11 -nostdlibinc -isystem $SYSROOT_INC -Iwasm/include -Ic/include -Ic/src
  -ffunction-sections -fdata-sections -fno-ident -ffile-prefix-map=$ROOT=. -fdebug-prefix-map=$ROOT=.
  -Wall -Wno-unused-function"
# shellcheck disable=SC2086
$CC $CFLAGS -fsyntax-only wasm/disposicion.c  # the struct layout the WASM loaders read
# cli/cli_enmascarar.c warns that mkstemp is undeclared (WASI has no temporary files): the command line
# is compiled, as c/fuentes.txt lists it, but not exported, so --gc-sections drops it and nothing imports it.
objs=""
for f in $(cat c/fuentes.txt); do
    o="$OUT/obj/$(echo "$f" | tr / _).o"
    # shellcheck disable=SC2086
    $CC $CFLAGS -c "$f" -o "$o"
    objs="$objs $o"
done
exports=""
for e in $(cat wasm/exports.gen.txt); do exports="$exports --export=$e"; done
# shellcheck disable=SC2086
"$LLVM_BIN/wasm-ld" -m wasm32 -L"$SYSROOT_LIB" "$SYSROOT_LIB/crt1-reactor.o" $objs -lc "$RT" \
    --gc-sections --strip-all --no-entry --export=_initialize --export-table $exports \
    -z stack-size=1048576 --initial-memory=4194304 --max-memory=4294967296 \
    -o "$OUT/datoteca.wasm.tmp"
mv "$OUT/datoteca.wasm.tmp" "$OUT/datoteca.wasm"
raw=$(wc -c < "$OUT/datoteca.wasm")
gz=$(gzip -9n < "$OUT/datoteca.wasm" | wc -c)
echo "build-wasm/datoteca.wasm: $raw bytes, $gz gzipped, sha256 $(sha256sum "$OUT/datoteca.wasm" | cut -c1-16)"
