#!/usr/bin/env bash
# The C suites (golden included) built with AddressSanitizer + UndefinedBehaviorSanitizer, no
# suppressions; the CLI's --jobs threads (datoteca tabla and esquema, one schema shared by every worker)
# under ThreadSanitizer; then the Release build's test programs and the CLI under valgrind memcheck
# with zero errors and zero leaks. Usage: tests/hardening/sanitizers.sh RELEASE_BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/need.sh
release="$1"
asan=build-asan
cmake -S . -B "$asan" -DCMAKE_BUILD_TYPE=Debug -DDATOTECA_SANITIZE=ON >/dev/null
cmake --build "$asan" -j2 >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# test_mascara's bijection sweeps (10 million bodies) take a twentieth of them here: the sanitizers
# look at the code paths, which the short sweep walks as the long one does (76 s -> 4 s).
export DT_TEST_CORTO=1
# install_consumers links outside programs against the library, abi_compatible builds its own,
# and the CLI tests bound RSS (ASan's shadow memory would break the bound; cli_concurrente runs cli.sh twice).
(cd "$asan" && ctest -j2 --output-on-failure -E 'install_consumers|^cli$|^cli_concurrente$|abi_compatible')
for call in $("$asan/datoteca" list | cut -d' ' -f1); do
  for fmt in plain jsonl csv; do "$asan/datoteca" "$call" --seed 5 -n 50 --format "$fmt" >/dev/null; done
done
"$asan/datoteca" dinero.monto --min 9 --max 1 >/dev/null 2>&1 && { echo "bad arguments accepted"; exit 1; }
echo "sanitizers: ASan+UBSan C suites and CLI clean"

# ThreadSanitizer: the CLI compiled from the same sources, its outputs with three jobs equal the Release
# CLI's with one (so the threads were really used and changed nothing).
tsan=$(mktemp -d)
# the program's own files as CMake adds them: SQLite's writer and connector, libpq's connector
gcc -std=c11 -O1 -g -fsanitize=thread -Ic/include -Ic/src -Icli $(cat c/fuentes.txt) cli/main.c \
  $( [ -e /usr/include/sqlite3.h ] && echo "-DDT_CON_SQLITE cli/cli_sqlite.c cli/copiar_sqlite.c cli/subconjunto_sqlite.c cli/conectar_sqlite.c -lsqlite3" ) \
  $( [ -e /usr/include/postgresql/libpq-fe.h ] && echo "-DDT_CON_PG -I/usr/include/postgresql cli/conectar_pg.c cli/conectar_pg_sesion.c cli/hacia_pg.c cli/copiar_pg.c cli/subconjunto_pg.c -lpq" ) \
  $( [ -e /usr/include/mariadb/mysql.h ] && echo "-DDT_CON_MARIADB -I/usr/include/mariadb $(ls cli/*mariadb*.c) -lmariadb" ) \
  -lpthread -o "$tsan/datoteca"
export TSAN_OPTIONS=halt_on_error=1:exitcode=66
"$tsan/datoteca" tabla persona --seed 1 -n 30000 --unico rut,email --format csv --jobs 3 > "$tsan/t3.csv"
"$release/datoteca" tabla persona --seed 1 -n 30000 --unico rut,email --format csv > "$tsan/t1.csv"
cmp -s "$tsan/t1.csv" "$tsan/t3.csv" || { echo "tsan: datoteca tabla --jobs 3 differs from --jobs 1"; exit 1; }
"$tsan/datoteca" esquema esquemas/banco.toml --seed 3 --formato csv --salida "$tsan/e3" --jobs 3
"$release/datoteca" esquema esquemas/banco.toml --seed 3 --formato csv --salida "$tsan/e1"
diff -r "$tsan/e1" "$tsan/e3" >/dev/null || { echo "tsan: datoteca esquema --jobs 3 differs from --jobs 1"; exit 1; }
# --hacia: three threads make the rows, the writer inserts them in order (when the program links SQLite)
if [ -e /usr/include/sqlite3.h ]; then
  "$release/datoteca" esquema esquemas/banco.toml --formato ddl --dialecto sqlite |
    python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(sys.stdin.read())' "$tsan/h.db"
  "$tsan/datoteca" esquema esquemas/banco.toml --seed 3 --hacia "sqlite:$tsan/h.db" --jobs 3
fi
"$tsan/datoteca" esquema esquemas/banco.toml --seed 3 --formato sql --jobs 3 | cmp -s - <("$release/datoteca" esquema esquemas/banco.toml --seed 3 --formato sql) \
  || { echo "tsan: datoteca esquema --formato sql --jobs 3 differs from --jobs 1"; exit 1; }
if [ -e /usr/include/sqlite3.h ]; then
  "$tsan/datoteca" esquema esquemas/banco.toml --seed 3 --formato sqlite --salida "$tsan/e3.db" --jobs 3
  "$release/datoteca" esquema esquemas/banco.toml --seed 3 --formato sqlite --salida "$tsan/e1.db"
  cmp -s "$tsan/e1.db" "$tsan/e3.db" || { echo "tsan: datoteca esquema --formato sqlite --jobs 3 differs from --jobs 1"; exit 1; }
fi
# copiar --jobs 3: a plan per block slot, SQLite read and written on the calling thread in row order
if [ -e /usr/include/sqlite3.h ]; then
  "$release/datoteca" tabla persona --seed 4 -n 30000 --format sql --dialecto sqlite --nombre personas |
    python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(sys.stdin.read())' "$tsan/c.db"
  "$release/datoteca" detectar "sqlite:$tsan/c.db" > "$tsan/c.toml"
  DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "$tsan/datoteca" copiar --clave-de-prueba --desde "sqlite:$tsan/c.db" --hacia "$tsan/c3.sql" --reglas "$tsan/c.toml" --jobs 3
  DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "$release/datoteca" copiar --clave-de-prueba --desde "sqlite:$tsan/c.db" --hacia "$tsan/c1.sql" --reglas "$tsan/c.toml" 2>/dev/null
  cmp -s "$tsan/c1.sql" "$tsan/c3.sql" || { echo "tsan: datoteca copiar --jobs 3 differs from --jobs 1"; exit 1; }
fi
# enmascarar --jobs 3: one plan per block slot, the rules and the key shared; CSV and JSON Lines
printf 'version = 1\n[politica]\nsin_regla = "mantener"\n[columnas]\nrut = { regla = "rut" }\nemail = { regla = "persona", campo = "email", entidad = "rut" }\n' > "$tsan/r.toml"
for fmt in csv jsonl; do
  "$release/datoteca" tabla persona --seed 2 -n 30000 --format "$fmt" > "$tsan/p.$fmt"
  DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "$tsan/datoteca" enmascarar --clave-de-prueba --reglas "$tsan/r.toml" --entrada "$tsan/p.$fmt" --jobs 3 > "$tsan/m3.$fmt"
  DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "$release/datoteca" enmascarar --clave-de-prueba --reglas "$tsan/r.toml" --entrada "$tsan/p.$fmt" > "$tsan/m1.$fmt"
  cmp -s "$tsan/m1.$fmt" "$tsan/m3.$fmt" || { echo "tsan: datoteca enmascarar --jobs 3 ($fmt) differs from --jobs 1"; exit 1; }
done
rm -rf "$tsan"
unset TSAN_OPTIONS
echo "sanitizers: TSan CLI --jobs 3 (tabla; esquema csv, sql, sqlite; copiar sqlite; enmascarar csv, jsonl) clean and equal to one job"

need valgrind valgrind
vg=(valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all)
# Two programs at a time (valgrind runs each on one core); the verdicts in the list's order.
vgdir=$(mktemp -d)
export release vgdir
printf '%s\n' test_pcg test_stream test_rut test_datos test_llamadas test_golden test_propiedades test_hilos test_regresiones test_vehiculo test_arrow test_documento test_esquema test_esquema_args test_csv test_mascara_reglas test_mascara_texto test_mascara_arrow test_mascara_contrato \
  > "$vgdir/programas"
vgstatus=0
xargs -P 2 -I{} sh -c 'if valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all "$release/tests/c/$0" >/dev/null 2>"$vgdir/$0.log"; then echo "valgrind: $0: 0 errors, 0 leaks" > "$vgdir/$0.verdict"; else echo "valgrind: $0 has errors or leaks" > "$vgdir/$0.verdict"; cat "$vgdir/$0.log" >&2; exit 1; fi' {} < "$vgdir/programas" || vgstatus=1
while read -r t; do cat "$vgdir/$t.verdict"; done < "$vgdir/programas"
rm -rf "$vgdir"
[ "$vgstatus" -eq 0 ] || exit 1
"${vg[@]}" "$release/datoteca" persona --seed 1 -n 2000 --format jsonl >/dev/null
"${vg[@]}" "$release/datoteca" empresa --seed 1 -n 2000 --format csv >/dev/null
"${vg[@]}" "$release/datoteca" tabla persona --seed 1 -n 20000 --unico rut,email --nulos comuna:50 --format sql --jobs 2 >/dev/null
esq=$(mktemp -d)
printf '[tablas.c]\nfilas = 500\ncolumnas.id = { serie = true }\ncolumnas.p = { llamada = "persona.persona", campos = ["rut", "email"], unico = ["rut"] }\n[tablas.k]\npor = "c"\ncuantos = { min = 0, max = 4 }\ncolumnas.id = { serie = true }\ncolumnas.c = { ref = "c.rut" }\n' > "$esq/e.toml"
"${vg[@]}" "$release/datoteca" esquema "$esq/e.toml" --formato csv --salida "$esq/out" >/dev/null
"${vg[@]}" "$release/datoteca" esquema "$esq/e.toml" --formato ddl --dialecto sqlite >/dev/null
"${vg[@]}" "$release/datoteca" esquema "$esq/e.toml" --formato sql --jobs 2 >/dev/null
"${vg[@]}" "$release/datoteca" esquema "$esq/e.toml" --formato sqlite --salida "$esq/e.db" --jobs 2 >/dev/null
printf 'version = 1\n[politica]\nsin_regla = "mantener"\n[columnas]\nrut = { regla = "rut" }\nemail = { regla = "persona", campo = "email", entidad = "rut" }\n' > "$esq/r.toml"
"$release/datoteca" tabla persona --seed 2 -n 5000 --format jsonl > "$esq/p.jsonl"
DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "${vg[@]}" "$release/datoteca" enmascarar --clave-de-prueba --reglas "$esq/r.toml" --entrada "$esq/p.jsonl" --jobs 2 --salida "$esq/m.jsonl"
"${vg[@]}" "$release/datoteca" detectar "sqlite:$esq/e.db" > "$esq/db.toml"
DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "${vg[@]}" "$release/datoteca" copiar --clave-de-prueba --desde "sqlite:$esq/e.db" --hacia "sqlite:$esq/copia.db" --reglas "$esq/db.toml" 2>/dev/null
DATOTECA_CLAVE=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f "${vg[@]}" "$release/datoteca" copiar --clave-de-prueba --desde "sqlite:$esq/e.db" --hacia "$esq/copia.sql" --reglas "$esq/db.toml" --subconjunto c=10% --con-hijos 2>/dev/null
rm -rf "$esq"
echo "valgrind: CLI: 0 errors, 0 leaks"
echo "sanitizers: 3 passed, 0 failed"
