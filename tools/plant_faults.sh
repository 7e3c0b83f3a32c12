#!/usr/bin/env bash
# Shows that each registered property suite catches a planted fault (docs/testing.md).
# Run by hand: tools/plant_faults.sh [PYTHON]. For each suite, one line of the C sources is
# changed in a copy, a shared library is built from it, and the suite is run against it
# (Python through DATOTECA_LIBRARY; the C suites are rebuilt); the first failure line is printed.
set -uo pipefail
cd "$(dirname "$0")/.."
py="${1:-.venv/bin/python}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r cli "$work/cli"  # in the library too (c/fuentes.txt); no fault is planted there
srcs=$(sed "s|^|$work/|" c/fuentes.txt)
plant() { # suite, file, sed expression, description [, "c" when only C can reach the fault]
  suite="$1"; file="$2"; expr="$3"; what="$4"; only="${5:-}"
  rm -rf "$work/c"; cp -r c "$work/c"
  sed -i "$expr" "$work/c/$file"
  if cmp -s "c/$file" "$work/c/$file"; then echo "[$suite] fault did not apply: $what"; return; fi
  cc -std=c11 -O2 -shared -fPIC -fvisibility=hidden -I"$work/c/include" -I"$work/c/src" $srcs -o "$work/libdatoteca.so"
  echo "[$suite] planted: $what"
  if [ "$only" != c ]; then
    out=$(DATOTECA_LIBRARY="$work/libdatoteca.so" "$py" -m pytest -q -p no:cacheprovider \
          "tests/python/test_properties.py::test_$suite" 2>&1 | grep -m1 -o "property $suite, seed .*" | cut -c1-220)
    echo "    python: ${out:-NOT CAUGHT}"
  fi
  case "$suite" in rut|money|streams)
    cc -std=c11 -O1 -I"$work/c/include" -I"$work/c/src" -DDT_TESTS_DIR="\"$PWD/tests\"" $srcs tests/c/test_propiedades.c -o "$work/props"
    echo "    c:      $("$work/props" 2>&1 | grep -m1 -o "property $suite, seed .*" | cut -c1-200 || true)";;
  esac
}
plant pcg32_differential src/gen.c 's/tmp.rng.state += initstate;/tmp.rng.state ^= initstate;/' \
  "seeding adds the seed with XOR instead of +"
plant bounded_differential src/internal.h 's/uint32_t threshold = (uint32_t)(-n) % n;/uint32_t threshold = 0;/' \
  "Lemire's method never rejects (biased)"
plant rut src/rut.c "s/if (dv == 'k') dv = 'K';//" "the validator no longer accepts a lower-case k"
plant geography src/direccion.c 's/const dt_t_provincia \*pv = &dt_t_provincias\[c->provincia\];/const dt_t_provincia *pv = \&dt_t_provincias[c->provincia ? c->provincia - 1 : 0];/' \
  "an address takes the previous province"
plant telephone_plan src/telefono.c 's/20000000u + dt__below(g, 80000000u)/10000000u + dt__below(g, 90000000u)/' \
  "mobiles may start with 9 1"
plant money src/gen.c 's/if (n \&\& n % 3 == 0) \*p++ = '"'"'.'"'"';/if (n \&\& n % 4 == 0) *p++ = '"'"'.'"'"';/' \
  "thousands grouped by four"
plant dates src/fecha.c 's/int64_t desde = dt__hace_anios(g, edad_max + 1) + 1;/int64_t desde = dt__hace_anios(g, edad_max + 2) + 1;/' \
  "the age window is one year too wide"
plant streams src/gen.c 's/    uint64_t ab = dt__next64(parent);/    (void)dt__next(parent);\n    uint64_t ab = dt__next64(parent);/' \
  "derive takes three draws from the parent"
plant streams src/gen.c 's/    if (st != DT_OK) g->rng = \*saved;//' \
  "a too-small buffer no longer restores the stream (the bindings never pass a small buffer: C only)" c
