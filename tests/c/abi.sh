#!/bin/sh
# The ABI of libdatoteca against the committed baseline of its soname, abi/libdatoteca.so.MAJOR.abi
# (docs/abi.md). Added functions pass and are reported; a removed function or variable, or one whose
# type changed in any way (a parameter, a return type, a record it reaches changing size or layout),
# fails unless the major version, and with it the soname, changed. Only the opaque dt_gen and dt_tabla
# are exempt (abi/suppressions.abignore).
# Usage: tests/c/abi.sh [--write-baseline]   (writing is by hand: make abi-baseline)
set -eu
cd "$(dirname "$0")/../.."
. tools/need.sh
need abidiff abigail-tools
major=$(sed -n 's/^#define DT_VERSION_MAJOR \([0-9]*\)$/\1/p' c/include/datoteca.h)
soname="libdatoteca.so.$major"
baseline="abi/$soname.abi"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# With debug information, so that the types of every parameter and record are compared too.
cc -std=c11 -g -Og -shared -fPIC -fvisibility=hidden -Ic/include -Ic/src $(cat c/fuentes.txt) \
   -Wl,-soname,"$soname" -o "$work/$soname"
abidw --no-corpus-path --no-comp-dir-path "$work/$soname" > "$work/current.abi"
if [ "${1:-}" = "--write-baseline" ]; then
  cp "$work/current.abi" "$baseline"
  echo "abi: wrote $baseline: commit it with the release that opens soname $major"
  exit 0
fi
if [ ! -f "$baseline" ]; then
  echo "abi: no baseline $baseline for soname $major: a new major version writes one (make abi-baseline)"
  exit 1
fi
set +e
abidiff --suppressions abi/suppressions.abignore "$baseline" "$work/current.abi" > "$work/report"
rc=$?
set -e
if [ $((rc & 3)) -ne 0 ]; then cat "$work/report"; echo "abi: abidiff could not compare (exit $rc)"; exit 1; fi
# abidiff flags only removals as incompatible (8); a changed parameter or record is a plain ABI
# change (4) to it, and for callers compiled against the old header it is just as incompatible.
if [ $((rc & 8)) -ne 0 ] || grep -Eq 'changes summary: ([1-9][0-9]* Removed|[0-9]+ Removed, [1-9][0-9]* Changed)' "$work/report"; then
  cat "$work/report"
  echo "abi: an incompatible change to soname $major: keep the ABI, or bump DT_VERSION_MAJOR (docs/abi.md)"
  exit 1
fi
if [ $((rc & 4)) -ne 0 ]; then
  echo "abi: compatible changes since the baseline of soname $major:"; sed 's/^/  /' "$work/report" | head -40
fi
echo "abi: $soname compatible with $baseline"
