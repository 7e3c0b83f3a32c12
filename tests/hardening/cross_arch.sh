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
# objs COMPILER DIR FLAGS...: the library's sources compiled once into DIR (two at a time), so each
# program of an architecture links the same objects instead of compiling the 48 sources again.
objs() {
  local cc="$1" dir="$2"; shift 2
  mkdir -p "$dir"
  tr ' ' '\n' < c/fuentes.txt | grep . | xargs -P 2 -I{} sh -c 'cc="$1"; d="$2"; shift 2; "$cc" "$@" -c "$0" -o "$d/$(echo "$0" | tr / _).o"' {} "$cc" "$dir" "$@"
}
# arch_one ARCH:COMPILER:RUNNER: build and run one architecture; its verdict in $out/ARCH.verdict, its exit
# status says whether it passed. Two architectures run at a time (each qemu run is single-threaded), and
# the verdicts are printed in the list's order.
arch_one() {
  local arch compiler runner v
  IFS=: read -r arch compiler runner <<<"$1"
  v="$out/$arch.verdict"
  local flags=(-std=c11 -O2 -static -Ic/include -Ic/src -DDT_FIXTURES_DIR="\"$PWD/fixtures\"")
  mkdir -p "$out/obj-$arch"
  for src in $(cat c/fuentes.txt); do
    "$compiler" "${flags[@]}" -c "$src" -o "$out/obj-$arch/$(echo "$src" | tr / _).o" || { echo "$arch: $src does not compile" >"$v"; return 1; }
  done
  "$compiler" "${flags[@]}" tests/c/test_golden.c "$out/obj-$arch"/*.o -o "$out/golden-$arch"
  "$compiler" "${flags[@]}" tests/c/test_pcg.c "$out/obj-$arch"/*.o -o "$out/pcg-$arch"
  $runner "$out/pcg-$arch" >/dev/null || { echo "$arch: PCG reference vectors differ" >"$v"; return 1; }
  $runner "$out/golden-$arch" --fixtures fixtures --out "$out/$arch.json" >"$out/$arch.log" 2>&1 \
    || { { cat "$out/$arch.log"; echo "$arch: golden test failed"; } >"$v"; return 1; }
  cmp "$out/$arch.json" fixtures/golden.json >/dev/null 2>&1 || { echo "$arch: canonical output differs" >"$v"; return 1; }
  # The CLI's writers (word-at-a-time scans of each cell, SSE2 on x86-64 only) give the Linux x86-64
  # binary's bytes on this architecture too, s390x's byte order included.
  "$compiler" "${flags[@]}" cli/main.c "$out/obj-$arch"/*.o -o "$out/cli-$arch" -lpthread
  local args
  while read -r args; do
    # shellcheck disable=SC2086
    cmp -s <("$linux_cli" $args) <($runner "$out/cli-$arch" $args) || { echo "$arch: 'datoteca $args' differs from the x86-64 CLI" >"$v"; return 1; }
  done <<'EOC'
persona --seed 1 -n 300 --format csv
persona --seed 1 -n 300 --format jsonl
empresa --seed 4 -n 300 --format jsonl
tabla persona --seed 2 -n 500 --unico rut,email --nulos comuna:50 --format csv --jobs 2
tabla persona --seed 2 -n 500 --format jsonl
tabla empresa --seed 3 -n 500 --format sql
tabla sucio.nombre --seed 5 -n 500 --format csv
tabla sucio.comuna --seed 5 -n 500 --format jsonl
tabla direccion --seed 6 -n 500 --format csv
EOC
  local endian
  endian=$(printf '%s' "$arch" | grep -q s390x && echo big-endian || echo little-endian)
  echo "cross-arch: $arch ($endian): PCG vectors, table and call digests, golden.json byte for byte, the CLI's bytes" >"$v"
}
linux_cli=$(realpath "${DATOTECA_CLI:-build-c/datoteca}")
[ -x "$linux_cli" ] || { echo "cross-arch: no Linux CLI at $linux_cli to compare with (build it first)"; exit 1; }
export -f arch_one
export out linux_cli
archs=(x86_64:cc: i686:i686-linux-gnu-gcc:qemu-i386 aarch64:aarch64-linux-gnu-gcc:qemu-aarch64 s390x:s390x-linux-gnu-gcc:qemu-s390x)
status=0
printf '%s\n' "${archs[@]}" | xargs -P 2 -I{} bash -c 'arch_one "$0"' {} || status=1
for target in "${archs[@]}"; do
  arch=${target%%:*}
  cat "$out/$arch.verdict" 2>/dev/null || { echo "$arch: no verdict"; status=1; }
done
[ "$status" -eq 0 ] || exit 1
pass=${#archs[@]}
# Windows: the library, its golden test and the CLI built with Debian's mingw-w64 (POSIX threads) and run
# under wine; the golden file byte for byte, and the CLI's bytes equal to the Linux binary's.
need x86_64-w64-mingw32-gcc-posix gcc-mingw-w64-x86-64-posix
need wine wine64 wine
export WINEPREFIX="$out/wine" WINEDEBUG=-all
wflags=(-std=c11 -O2 -static -Ic/include -Ic/src -D__USE_MINGW_ANSI_STDIO=1 -DDT_FIXTURES_DIR="\"fixtures\"")
objs x86_64-w64-mingw32-gcc-posix "$out/obj-windows" "${wflags[@]}"
for p in golden:tests/c/test_golden.c pcg:tests/c/test_pcg.c datoteca:cli/main.c; do
  x86_64-w64-mingw32-gcc-posix "${wflags[@]}" "${p#*:}" "$out/obj-windows"/*.o -o "$out/${p%%:*}.exe" -lpthread
done
wine "$out/pcg.exe" >/dev/null 2>&1 || { echo "windows: PCG reference vectors differ"; exit 1; }
wine "$out/golden.exe" --fixtures fixtures --out "$out/windows.json" >"$out/windows.log" 2>&1 \
  || { cat "$out/windows.log"; echo "windows: golden test failed"; exit 1; }
cmp "$out/windows.json" fixtures/golden.json || { echo "windows: canonical output differs"; exit 1; }
if [ -x "$linux_cli" ]; then
  for args in "rut --seed 42 -n 100" "persona --seed 1 -n 50 --format csv" "tabla persona -n 200 --unico rut,email --format sql --jobs 2"; do
    # shellcheck disable=SC2086
    cmp <("$linux_cli" $args) <(wine "$out/datoteca.exe" $args 2>/dev/null) || { echo "windows: 'datoteca $args' differs"; exit 1; }
  done
fi
echo "cross-arch: windows x86_64 (mingw-w64 under wine): PCG vectors, table and call digests, golden.json and the CLI byte for byte"
pass=$((pass + 1))
echo "cross-arch: $pass passed, 0 failed"
