#!/usr/bin/env bash
# The C suites (golden included) built with AddressSanitizer + UndefinedBehaviorSanitizer, no
# suppressions; then the Release build's test programs and the CLI under valgrind memcheck
# with zero errors and zero leaks. Usage: tests/hardening/sanitizers.sh RELEASE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/need.sh
release="$1"
asan=build-asan
cmake -S . -B "$asan" -DCMAKE_BUILD_TYPE=Debug -DDATOTECA_SANITIZE=ON >/dev/null
cmake --build "$asan" -j2 >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# install_consumers links outside programs against the library, abi_compatible builds its own,
# and the CLI test bounds RSS (ASan's shadow memory would break the bound).
(cd "$asan" && ctest --output-on-failure -E 'install_consumers|^cli$|abi_compatible')
for call in $("$asan/datoteca" list | cut -d' ' -f1); do
  for fmt in plain jsonl csv; do "$asan/datoteca" "$call" --seed 5 -n 50 --format "$fmt" >/dev/null; done
done
"$asan/datoteca" dinero.monto --min 9 --max 1 >/dev/null 2>&1 && { echo "bad arguments accepted"; exit 1; }
echo "sanitizers: ASan+UBSan C suites and CLI clean"

need valgrind valgrind
vg=(valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all)
for t in test_pcg test_stream test_rut test_datos test_llamadas test_golden test_propiedades test_hilos test_regresiones test_vehiculo test_arrow test_documento test_esquema; do
  "${vg[@]}" "$release/tests/c/$t" >/dev/null || { echo "valgrind: $t has errors or leaks"; exit 1; }
  echo "valgrind: $t: 0 errors, 0 leaks"
done
"${vg[@]}" "$release/datoteca" persona --seed 1 -n 2000 --format jsonl >/dev/null
"${vg[@]}" "$release/datoteca" empresa --seed 1 -n 2000 --format csv >/dev/null
"${vg[@]}" "$release/datoteca" tabla persona --seed 1 -n 20000 --unico rut,email --nulos comuna:50 --format sql --jobs 2 >/dev/null
esq=$(mktemp -d)
printf '[tablas.c]\nfilas = 500\ncolumnas.id = { serie = true }\ncolumnas.p = { llamada = "persona.persona", campos = ["rut", "email"], unico = ["rut"] }\n[tablas.k]\npor = "c"\ncuantos = { min = 0, max = 4 }\ncolumnas.id = { serie = true }\ncolumnas.c = { ref = "c.rut" }\n' > "$esq/e.toml"
"${vg[@]}" "$release/datoteca" esquema "$esq/e.toml" --formato csv --salida "$esq/out" >/dev/null
"${vg[@]}" "$release/datoteca" esquema "$esq/e.toml" --formato ddl --dialecto sqlite >/dev/null
rm -rf "$esq"
echo "valgrind: CLI: 0 errors, 0 leaks"
echo "sanitizers: 2 passed, 0 failed"
