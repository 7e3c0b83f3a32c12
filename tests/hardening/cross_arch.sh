#!/usr/bin/env bash
# Same data everywhere: the C library and its golden test built for x86_64, i386, aarch64
# and s390x (big-endian) with Debian's cross compilers, run under qemu-user; each must
# pass the whole data contract (table digests, golden.json byte for byte with its stream positions,
# the digests of 10,000 values of every call) and reproduce the PCG reference vectors.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/need.sh
need i686-linux-gnu-gcc gcc-i686-linux-gnu
need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need s390x-linux-gnu-gcc gcc-s390x-linux-gnu
need qemu-s390x qemu-user
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pass=0
for target in x86_64:cc: i686:i686-linux-gnu-gcc:qemu-i386 aarch64:aarch64-linux-gnu-gcc:qemu-aarch64 s390x:s390x-linux-gnu-gcc:qemu-s390x; do
  IFS=: read -r arch compiler runner <<<"$target"
  flags=(-std=c11 -O2 -static -Ic/include -Ic/src -DDT_FIXTURES_DIR="\"$PWD/fixtures\"")
  "$compiler" "${flags[@]}" c/src/*.c tests/c/test_golden.c -o "$out/golden-$arch"
  "$compiler" "${flags[@]}" c/src/*.c tests/c/test_pcg.c -o "$out/pcg-$arch"
  $runner "$out/pcg-$arch" >/dev/null || { echo "$arch: PCG reference vectors differ"; exit 1; }
  $runner "$out/golden-$arch" --fixtures fixtures --out "$out/$arch.json" >"$out/$arch.log" 2>&1 \
    || { cat "$out/$arch.log"; echo "$arch: golden test failed"; exit 1; }
  cmp "$out/$arch.json" fixtures/golden.json || { echo "$arch: canonical output differs"; exit 1; }
  endian=$(printf '%s' "$arch" | grep -q s390x && echo big-endian || echo little-endian)
  echo "cross-arch: $arch ($endian): PCG vectors, table and call digests, golden.json byte for byte"
  pass=$((pass + 1))
done
echo "cross-arch: $pass passed, 0 failed"
