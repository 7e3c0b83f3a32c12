#!/bin/sh
# The golden test must fail where it should. Each mutation below is applied to a copy of the
# C sources, the golden test is rebuilt against it, and it must fail naming the first
# divergence: the seed, the call number and the call name given here.
set -eu
src="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"
pass=0; fail=0
mutate() { # name, file (relative to c/), sed expression, expected message fragment
  name="$1"; file="$2"; expr="$3"; want="$4"
  rm -rf "$work/c"; cp -r "$src/c" "$work/c"
  sed -i "$expr" "$work/c/$file"
  if cmp -s "$src/c/$file" "$work/c/$file"; then echo "mutation '$name' did not apply"; fail=$((fail + 1)); return; fi
  cc -std=c11 -O1 -I"$work/c/include" -I"$work/c/src" -DDT_DATA_DIR="\"$src/c/data\"" -DDT_FIXTURES_DIR="\"$src/fixtures\"" \
     "$work"/c/src/*.c "$src/tests/c/test_golden.c" -o "$work/golden" 2>"$work/cc.log" || { cat "$work/cc.log"; fail=$((fail + 1)); return; }
  if "$work/golden" > "$work/out" 2>&1; then
    echo "mutation '$name': the golden test PASSED, it must fail"; fail=$((fail + 1)); return
  fi
  if grep -qF "$want" "$work/out"; then
    echo "mutation '$name': fails as it must: $(grep -F 'golden:' "$work/out" | head -n1 | sed 's/^ *//')"; pass=$((pass + 1))
  else
    echo "mutation '$name': failed, but not with '$want':"; cat "$work/out"; fail=$((fail + 1))
  fi
}
# 1. One PCG constant: the multiplier's last digit.
mutate "PCG multiplier" src/internal.h 's/6364136223846793005ULL/6364136223846793007ULL/' \
  "golden: seed 1, call #0 rut:"
# 2. Two entries of a data table swapped: the first two banks.
mutate "swap banks 001 and 009" src/tablas.c \
  '/^const dt_t_banco dt_t_bancos/{n;N;s/\(.*\)\n\(.*\)/\2\n\1/}' \
  "golden: seed 1, call #54 banco.banco: field codigo: expected \"009\", got \"001\""
# 3. One extra draw inside a call: banco.banco draws once more before choosing.
mutate "extra draw in banco.banco" src/banco.c \
  's/    const dt_t_banco \*b = &dt_t_bancos\[dt__below(g, DT_T_N_BANCOS)\];/    (void)dt__next(g);\n    const dt_t_banco *b = \&dt_t_bancos[dt__below(g, DT_T_N_BANCOS)];/' \
  "golden: seed 1, call #6 banco.banco:"
echo "golden mutations: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
