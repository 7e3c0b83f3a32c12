#!/bin/sh
# The CLI as a user runs it.
set -eu
cli="$1"
# Every scratch file under this run's own directory: two runs at once (two ctests on one machine) must
# not read each other's files (tests/c/cli_concurrente.sh runs two).
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "cli: $*"; exit 1; }
[ "$("$cli" rut --seed 42 -n 5 | wc -l)" -eq 5 ] || fail "rut -n 5 did not print 5 lines"
[ "$("$cli" rut --seed 42 -n 5)" = "$("$cli" rut --seed 42 -n 5)" ] || fail "same seed, different output"
for call in $("$cli" list | awk '{print $1}'); do
  for fmt in plain jsonl csv; do
    out=$("$cli" "$call" --seed 7 -n 3 --format "$fmt") || fail "$call --format $fmt exited non-zero"
    [ -n "$out" ] || fail "$call --format $fmt printed nothing"
    printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null || fail "$call --format $fmt is not UTF-8"
  done
done
"$cli" persona --seed 42 -n 3 --format jsonl | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' \
  || fail "persona jsonl is not JSON"
# One JSON form per record (3.0.0): each field of every call is the same JSON type in the stream and in
# `datoteca tabla` (integers bare, texts quoted, an empty nullable field null in both).
for call in $("$cli" list | awk '{print $1}'); do
  "$cli" "$call" --seed 7 -n 50 --format jsonl > "$TMP/dt_cli_stream.jsonl" || fail "$call jsonl"
  "$cli" tabla "$call" --seed 7 -n 50 --format jsonl > "$TMP/dt_cli_tabla.jsonl" 2>/dev/null || continue
  python3 - "$call" "$TMP/dt_cli_stream.jsonl" "$TMP/dt_cli_tabla.jsonl" <<'PY' || fail "$call: the stream's JSON types differ from datoteca tabla's"
import json, sys
def tipos(path):
    seen = {}
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        v = json.loads(line)
        row = v if isinstance(v, dict) else {"": v}
        for k, x in row.items():
            if x is not None:
                seen.setdefault(k, set()).add(type(x).__name__)
    return seen
s, t = tipos(sys.argv[2]), tipos(sys.argv[3])
bad = [f"{k}: stream {sorted(s[k])}, tabla {sorted(t[k])}" for k in s if k in t and s[k] != t[k]]
if bad:
    print(f"{sys.argv[1]} (seed 7, 50 rows): " + "; ".join(bad))
    sys.exit(1)
PY
done
"$cli" empresa --seed 42 -n 3 --format csv | python3 -c 'import csv,sys; r=list(csv.reader(sys.stdin)); assert len(r)==4 and all(len(x)==len(r[0]) for x in r)' \
  || fail "empresa csv is not CSV"
expect_error() {
  if "$cli" "$@" 2>"$TMP/dt_cli_err" >/dev/null; then fail "'$*' should fail"; fi
  grep -q -- "$last" "$TMP/dt_cli_err" || fail "'$*' said: $(cat "$TMP/dt_cli_err")"
}
last="--seed must be"; expect_error rut --seed -1
last="(decimal or 0x-hex), got '0x'"; expect_error rut --seed 0x
[ "$("$cli" rut --seed 0x10 -n 2)" = "$("$cli" rut --seed 16 -n 2)" ] || fail "--seed 0x10 differs from --seed 16"
[ "$("$cli" tabla rut --seed 0xff -n 2)" = "$("$cli" tabla rut --seed 255 -n 2)" ] || fail "tabla --seed 0xff differs"
last="--seed must be"; expect_error rut --seed 18446744073709551616
last="unknown call"; expect_error nada
last="not both"; expect_error rut --seed 1 --seed-str uno
last="needs a value"; expect_error rut --seed
last="unknown option '--bogus' (see 'datoteca rut --help')"; expect_error rut --bogus
last="unknown option '--bogus' (see 'datoteca rut --help')"; expect_error rut --bogus 1
# help on stdout with status 0; --edad-min as --edad_min; shorthands listed
[ "$("$cli" --help | head -c 6)" = "usage:" ] || fail "--help is not on stdout"
"$cli" persona --help | grep -q -- "--edad_min" || fail "persona --help does not list --edad_min"
"$cli" tabla persona --help | grep -q "Fields:" || fail "tabla persona --help"
[ "$("$cli" persona --seed 3 --edad-min 40 --edad-max 40 --format plain)" = "$("$cli" persona --seed 3 --edad_min 40 --edad_max 40 --format plain)" ] \
  || fail "--edad-min differs from --edad_min"
"$cli" list | grep -q "persona.persona (also: persona)" || fail "list does not show the persona shorthand"
last="direccion.comuna: region must be from 0 to 16 (0 = any region), got 17"; expect_error direccion.comuna --region 17
last="--region must be an integer, got 'x'"; expect_error direccion.comuna --region x
last="dinero.monto: min must not exceed max, got min=10, max=5"; expect_error dinero.monto --min 10 --max 5
last="persona.fecha_nacimiento: edad_min must not exceed edad_max, got edad_min=50, edad_max=20"
expect_error persona.fecha_nacimiento --edad_min 50 --edad_max 20
last="persona.nombre: sexo must be one of 'cualquiera', 'F', 'M', got 'X'"; expect_error persona.nombre --sexo X
# --hoy: exactly YYYY-MM-DD of a real day in 1900..2200, anything else names the flag and the form
for bad in 2000-2-29 2000-02-29junk 0000-01-01 2023-02-29 1899-12-31 2201-01-01 2000-13-01 2000-00-10 \
           2000-01-00 2000-04-31 " 2000-01-01" 2000/01/01 20000101 "" +2000-01-01 2000-01-1x; do
  last="--hoy must be a date YYYY-MM-DD from 1900-01-01 to 2200-12-31, got '$bad'"; expect_error rut --hoy "$bad"
done
for good in 2000-02-29 1900-01-01 2200-12-31 2024-02-29; do
  "$cli" persona.fecha_nacimiento --hoy "$good" --edad_min 0 --edad_max 0 >/dev/null || fail "--hoy $good refused"
done
[ "$("$cli" persona.fecha_nacimiento --seed 3 --hoy 2024-02-29 --edad_min 0 --edad_max 0 | cut -c1-4)" -ge 2023 ] \
  || fail "--hoy 2024-02-29 was not used"
# datoteca tabla: a slice is the same rows as a full run, --jobs 2 is byte-identical to --jobs 1
"$cli" tabla persona --seed 5 -n 20000 --unico rut,email --nulos comuna:100 --format csv > "$TMP/dt_t1" || fail "tabla csv"
"$cli" tabla persona --seed 5 -n 20000 --unico rut,email --nulos comuna:100 --format csv --jobs 2 > "$TMP/dt_t2" || fail "tabla --jobs 2"
cmp -s "$TMP/dt_t1" "$TMP/dt_t2" || fail "tabla --jobs 2 differs from --jobs 1"
"$cli" tabla persona --seed 5 -n 300 --desde 12345 --unico rut,email --nulos comuna:100 --format csv --jobs 3 | tail -n +2 > "$TMP/dt_t3"
sed -n '12347,12646p' "$TMP/dt_t1" | cmp -s - "$TMP/dt_t3" || fail "tabla --desde 12345 -n 300 is not rows 12345..12644 of the full run"
for f in jsonl sql plain; do
  "$cli" tabla empresa --seed 2 -n 9000 --format $f > "$TMP/dt_t1" && "$cli" tabla empresa --seed 2 -n 9000 --format $f --jobs 2 > "$TMP/dt_t2" \
    && cmp -s "$TMP/dt_t1" "$TMP/dt_t2" || fail "tabla empresa --format $f: --jobs 2 differs"
done
[ "$("$cli" tabla persona -n 1000 --unico rut --format csv --campos rut | tail -n +2 | sort | uniq -d | wc -l)" = 0 ] || fail "tabla --unico rut repeats a RUT"
last="persona.persona: column 'nombres' cannot be unique"; expect_error tabla persona --unico nombres
last="empresa.rut: rows 0 to 2000001 asked, but with these unique columns there is room for 2000000 rows (docs/datasets.md)"; expect_error tabla empresa.rut --unico rut -n 2000001
last="--jobs must be an integer from 1 to 64"; expect_error tabla rut --jobs 0
last="--format must be jsonl, csv, sql, ddl or plain"; expect_error tabla rut --format xml
# The progress line (cli/cli_progreso.c; tests/python/test_progreso.py runs it on a pseudo-terminal):
# --progreso and --silencio contradict each other; in a pipe nothing is drawn unless --progreso asks
last="give --progreso or --silencio, not both"; expect_error tabla rut --progreso --silencio
last="give --progreso or --silencio, not both"; expect_error rut --silencio --progreso
last="give --progreso or --silencio, not both"; expect_error esquema x.toml --formato csv --progreso --silencio
last="enmascarar: give --progreso or --silencio, not both"; expect_error enmascarar --reglas x.toml --progreso --silencio
[ -z "$("$cli" tabla rut -n 5000 2>&1 >/dev/null)" ] || fail "tabla in a pipe wrote on stderr"
"$cli" tabla rut -n 5000 --progreso 2>&1 >/dev/null | tail -n 1 | grep -q "^datoteca tabla: 5,000 of 5,000 rows (100%), " \
  || fail "tabla --progreso in a pipe: $("$cli" tabla rut -n 5000 --progreso 2>&1 >/dev/null)"
[ "$("$cli" tabla rut -n 5000 --progreso 2>/dev/null | cksum)" = "$("$cli" tabla rut -n 5000 2>/dev/null | cksum)" ] \
  || fail "tabla --progreso changed stdout"
# Output that cannot be written is an error, not a silent exit 0
if [ -w /dev/full ]; then
  if "$cli" rut -n 100000 > /dev/full 2>/dev/null; then fail "rut -n 100000 > /dev/full exited 0"; fi
  if "$cli" tabla rut -n 100000 > /dev/full 2>/dev/null; then fail "tabla rut -n 100000 > /dev/full exited 0"; fi
fi
# With SIGPIPE ignored by a parent, a closed pipe is a write error: the CLI stops at once, says so,
# and exits non-zero (it used to run until killed)
# (exit 1 of its own; a run until killed would be timeout's 124: no duration is asserted)
for mode in "" "tabla"; do
  st=$( (trap '' PIPE; if timeout 20 "$cli" $mode persona -n 1000000000 2>"$TMP/dt_pipe_err"; then r=0; else r=$?; fi
         echo "$r" > "$TMP/dt_pipe_rc") | head -1 >/dev/null; cat "$TMP/dt_pipe_rc")
  [ "$st" = 1 ] || fail "${mode:-sequential}: SIGPIPE ignored, exit $st (124: still writing when timeout stopped it)"
  grep -q "cannot write the output" "$TMP/dt_pipe_err" || fail "${mode:-sequential}: no message on a closed pipe: $(cat "$TMP/dt_pipe_err")"
done
# datoteca esquema: DDL, CSV and cargar.sql in dependency order, a refused schema exits 2 with its sentence
esq="$TMP/esquema"; mkdir "$esq"
cat > "$esq/banco.toml" <<'TOML'
[tablas.movimientos]
filas = 500
[tablas.movimientos.columnas]
id = { serie = true }
cuenta = { ref = "cuentas.id" }
monto = { llamada = "dinero.monto", min = 1000, max = 90000 }
[tablas.clientes]
filas = 50
[tablas.clientes.columnas]
id = { serie = true }
persona = { llamada = "persona.persona", campos = ["rut", "nombre_completo", "email"], unico = ["rut"], nulos = { email = 200 } }
[tablas.cuentas]
por = "clientes"
cuantos = { min = 1, max = 3 }
[tablas.cuentas.columnas]
id = { serie = true }
titular = { ref = "clientes.rut" }
tipo = { elegir = { corriente = 3, "cuenta vista" = 5 } }
TOML
"$cli" esquema "$esq/banco.toml" --formato ddl > "$esq/ddl.sql" || fail "esquema --formato ddl"
[ "$(grep '^CREATE TABLE' "$esq/ddl.sql" | awk '{print $3}' | tr '\n' ' ')" = "clientes cuentas movimientos " ] || fail "esquema ddl order: $(cat "$esq/ddl.sql")"
"$cli" esquema "$esq/banco.toml" --seed 9 --formato csv --salida "$esq/out" || fail "esquema --formato csv"
[ "$(wc -l < "$esq/out/movimientos.csv")" -eq 501 ] || fail "esquema: movimientos.csv has not 500 rows and a header"
grep -q "^\\\\copy clientes (id, rut, nombre_completo, email) FROM 'clientes.csv' WITH (FORMAT csv, HEADER true)$" "$esq/out/cargar.sql" \
  || fail "esquema cargar.sql: $(cat "$esq/out/cargar.sql")"
"$cli" esquema "$esq/banco.toml" --seed 9 --formato csv --salida "$esq/out2" && cmp -s "$esq/out/cuentas.csv" "$esq/out2/cuentas.csv" \
  || fail "esquema: the same seed gave different cuentas"
if command -v sqlite3 >/dev/null 2>&1; then
  "$cli" esquema "$esq/banco.toml" --formato ddl --dialecto sqlite > "$esq/sqlite.sql"
  (cd "$esq/out" && sqlite3 "$esq/b.db" "PRAGMA foreign_keys=ON;" ".read $esq/sqlite.sql" ".import --csv --skip 1 clientes.csv clientes" \
    ".import --csv --skip 1 cuentas.csv cuentas" ".import --csv --skip 1 movimientos.csv movimientos") || fail "esquema: sqlite load"
  [ -z "$(sqlite3 "$esq/b.db" 'PRAGMA foreign_key_check;')" ] || fail "esquema: sqlite foreign_key_check"
  [ "$(sqlite3 "$esq/b.db" 'SELECT count(*) FROM movimientos JOIN cuentas ON cuentas.id = movimientos.cuenta JOIN clientes ON clientes.rut = cuentas.titular;')" -eq 500 ] \
    || fail "esquema: sqlite joins"
fi
printf '[tablas.t]\nfilas = 3\ncolumnas.c = { ref = "u.id" }\n' > "$esq/malo.toml"
st=0; "$cli" esquema "$esq/malo.toml" --formato ddl 2> "$esq/err" >/dev/null || st=$?
[ "$st" -eq 2 ] && [ "$(cat "$esq/err")" = "datoteca: malo.toml:3: tablas.t.columnas.c: ref: unknown table 'u'; the tables are t" ] \
  || fail "esquema: bad schema exited $st with: $(cat "$esq/err")"
rm -rf "$esq"
# Progress goes to stderr only when it is a terminal, and a full disk is an error for small runs too
"$cli" persona -n 1000000 >/dev/null 2>"$TMP/dt_prog_err"
[ ! -s "$TMP/dt_prog_err" ] || fail "progress written to a stderr that is not a terminal: $(head -c 200 "$TMP/dt_prog_err")"
if command -v script >/dev/null 2>&1; then
  script -qec "$cli persona -n 1500000 >/dev/null" /dev/null > "$TMP/dt_prog_tty" 2>&1 || true
  grep -q "datoteca: 1,500,000 of 1,500,000 rows (100%)" "$TMP/dt_prog_tty" || fail "no progress on a terminal: $(tail -c 200 "$TMP/dt_prog_tty")"
fi
if [ -w /dev/full ]; then
  if "$cli" rut -n 1 > /dev/full 2>/dev/null; then fail "rut -n 1 > /dev/full exited 0"; fi
  if "$cli" tabla rut -n 1 > /dev/full 2>/dev/null; then fail "tabla rut -n 1 > /dev/full exited 0"; fi
fi
# A million records stream in constant memory (the RSS stays small).
rss=$( { /usr/bin/time -f '%M' "$cli" persona --seed 1 -n 1000000 --format jsonl > /dev/null; } 2>&1 ) || rss=0
if [ "$rss" -gt 0 ] && [ "$rss" -gt 20000 ]; then fail "1,000,000 persona used ${rss} KiB"; fi
echo "cli: ok (max RSS for 1,000,000 persona records: ${rss} KiB)"
