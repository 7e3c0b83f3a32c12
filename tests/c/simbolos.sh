#!/bin/sh
# Fails if the shared or the static library defines a global symbol outside the library's own
# namespace: dt_ (the API), dt__ (internal, the CLI's dt__cli_ included) or DT_. exports.sh checks
# only what the .so exports; the archive's globals matter too, because a C program linking
# libdatoteca.a meets every one of them, and an unprefixed name (a `progreso` of its own) is a
# duplicate symbol there. Prints each offender with the object file that defines it.
# Usage: tests/c/simbolos.sh LIBDATOTECA.so LIBDATOTECA.a
set -eu
so="$1"
a="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# `nm -A` prefixes each line with its file (archive:member: for the archive), so the object that
# leaks a name is named in the report. Both the symbol table and the dynamic one of the .so: a
# stripped library keeps only the second.
for lib in "$a" "$so"; do
  nm -A -g --defined-only "$lib" 2>/dev/null || true
done > "$work/todos"
nm -A -D --defined-only "$so" >> "$work/todos"
[ -s "$work/todos" ] || { echo "simbolos: nm listed no symbol in $so or $a"; exit 1; }

# The linker's own markers in a shared object are not ours to rename, nor the ODR indicators
# AddressSanitizer adds beside our globals in the sanitizer build (__odr_asan.dt_...).
awk '{ n = $NF; if (n !~ /^(dt_|DT_|__odr_asan\.dt_)/ && n !~ /^(_init|_fini|_edata|_end|__bss_start)$/) print }' \
  "$work/todos" | sort -u > "$work/malos"

if [ -s "$work/malos" ]; then
  echo "simbolos: globals outside dt_/dt__/DT_ (make them static, or prefix them dt__):"
  while read -r donde tipo nombre; do
    donde=${donde%:*}  # without the address: "LIB.a:MEMBER.o" or "LIB.so"
    if [ "$donde" = "$so" ]; then
      # A .so line names no object: the archive, built from the same sources, says which one.
      objeto=$(awk -v n="$nombre" -v a="$a:" 'index($1, a) == 1 && $NF == n { print $1; exit }' "$work/todos")
      objeto=${objeto%:*}
      objeto=${objeto#"$a:"}
      echo "  $nombre ($tipo) in $so, from ${objeto:-an object not in $a}"
    else
      echo "  $nombre ($tipo) in ${donde#"$a:"} of $a"
    fi
  done < "$work/malos"
  exit 1
fi
cuenta() { grep "^$1:" "$work/todos" | awk '{ print $NF }' | sort -u | wc -l | tr -d ' '; }
echo "simbolos: ok ($(cuenta "$a") globals in $a, $(cuenta "$so") in $so, all dt_/dt__/DT_ or the linker's)"
