"""The shipped schema (esquemas/banco.toml, over a million rows) loaded into real databases by the CLI's
outputs, with every constraint in force during the load:

- PostgreSQL 15, started here as test_basesdedatos.py starts it: the DDL first (PRIMARY KEY, UNIQUE,
  NOT NULL, FOREIGN KEY), then `psql -f cargar.sql` of `--formato csv`; and `--formato sql` into a
  second database. Counts, sampled rows and the constraints themselves (pg_constraint) are checked.
- SQLite: the `--formato sqlite` file (foreign_key_check, integrity_check, counts, sampled rows) and
  the `--formato sql --dialecto sqlite` script through the sqlite3 program.
- `--jobs 2` and `--jobs 3` give the bytes of `--jobs 1` for every output.

The CLI's CSV is the reference the databases are compared with; the schema's self-description
(datoteca.Esquema, the C library's dt_esquema_columna) says which constraints to expect."""
import csv
import io
import os
import random
import re
import shutil
import sqlite3
import subprocess

import pytest

from conftest import ROOT
from datoteca import Esquema
from test_basesdedatos import _pg_bin, postgres  # noqa: F401  (the same throwaway server)

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
BANCO = os.path.join(ROOT, "esquemas", "banco.toml")
SEED = 20261201
MUESTRA = 200  # sampled rows per table
CELDA = re.compile(r'"((?:[^"]|"")*)"|([^,]*)')


def _cli(*args, **kw):
    return subprocess.run([CLI, "esquema", BANCO, "--seed", str(SEED), *args], check=True, capture_output=True, **kw).stdout


def _celdas(linea):
    """One CSV record of the CLI, None for a null (an unquoted empty cell; an empty text is "")."""
    out, pos = [], 0
    while True:
        m = CELDA.match(linea, pos)
        citado, suelto = m.group(1), m.group(2)
        out.append(citado.replace('""', '"') if citado is not None else (suelto or None))
        pos = m.end()
        if pos == len(linea):
            return out
        assert linea[pos] == ",", f"unexpected {linea[pos]!r} at {pos} of {linea!r}"
        pos += 1


@pytest.fixture(scope="module")
def salidas(tmp_path_factory):
    base = tmp_path_factory.mktemp("banco")
    esquema = Esquema(BANCO, seed=SEED)
    _cli("--formato", "csv", "--salida", str(base / "csv"))
    lineas = {}
    for t in esquema.orden:
        texto = (base / "csv" / f"{t}.csv").read_text(encoding="utf-8")
        lineas[t] = texto.split("\n")[:-1]
        assert texto.endswith("\n") and len(lineas[t]) == esquema.total(t) + 1, \
            f"{t}.csv: {len(lineas[t])} lines for {esquema.total(t)} rows and a header (a value with a line break?)"
    assert sum(esquema.total(t) for t in esquema.orden) >= 1_000_000, "banco.toml should have a million rows or more"
    rng = random.Random(SEED)
    muestras = {t: sorted(rng.sample(range(esquema.total(t)), min(MUESTRA, esquema.total(t)))) for t in esquema.orden}
    return {"dir": base, "esquema": esquema, "lineas": lineas, "muestras": muestras}


def _esperadas(salidas, tabla):
    """Row number -> the CLI's cells for the sampled rows of a table."""
    lineas = salidas["lineas"][tabla]
    return {i: _celdas(lineas[i + 1]) for i in salidas["muestras"][tabla]}


def _clave(salidas, tabla):
    cols = salidas["esquema"].columnas(tabla)
    js = [j for j, c in enumerate(cols) if c["clave_primaria"]]
    assert js, f"table {tabla} has no primary key: the sampled rows are found by it (give it a serie)"
    return js[0], cols[js[0]]["nombre"]


# ---- --jobs ----

@pytest.mark.parametrize("jobs", ["2", "3"])
def test_jobs_give_the_same_bytes(salidas, tmp_path, jobs):
    base = salidas["dir"]
    _cli("--formato", "csv", "--salida", str(tmp_path / "csv"), "--jobs", jobs)
    for nombre in sorted(os.listdir(base / "csv")):
        a, b = (base / "csv" / nombre).read_bytes(), (tmp_path / "csv" / nombre).read_bytes()
        assert a == b, f"seed {SEED}: {nombre} with --jobs {jobs} differs from --jobs 1 (sizes {len(b)} / {len(a)})"
    uno = _cli("--formato", "sql")
    varios = _cli("--formato", "sql", "--jobs", jobs)
    assert uno == varios, f"seed {SEED}: --formato sql with --jobs {jobs} differs from --jobs 1 (sizes {len(varios)} / {len(uno)})"
    _cli("--formato", "sqlite", "--salida", str(tmp_path / "1.db"))
    _cli("--formato", "sqlite", "--salida", str(tmp_path / "n.db"), "--jobs", jobs)
    assert (tmp_path / "1.db").read_bytes() == (tmp_path / "n.db").read_bytes(), \
        f"seed {SEED}: the SQLite file with --jobs {jobs} differs from --jobs 1"


def test_sqlite_refuses_an_existing_file(tmp_path):
    ruta = tmp_path / "ya.db"
    ruta.write_bytes(b"not mine")
    r = subprocess.run([CLI, "esquema", BANCO, "--formato", "sqlite", "--salida", str(ruta)], capture_output=True)
    assert r.returncode == 2, r
    assert r.stderr.decode() == f"datoteca: --salida {ruta} already exists; --formato sqlite writes only a new file\n"
    assert ruta.read_bytes() == b"not mine"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failed_write_exits_1_with_its_reason(jobs):
    with open("/dev/full", "wb") as lleno:
        r = subprocess.run([CLI, "esquema", BANCO, "--formato", "sql", "--jobs", jobs], stdout=lleno, stderr=subprocess.PIPE)
    assert r.returncode == 1 and r.stderr.decode().startswith("datoteca: cannot write the output: "), r


def test_the_library_cli_refuses_sqlite_and_names_the_script(tmp_path):
    """The library's CLI does not link SQLite: a sentence, exit 2, no file. python -m datoteca runs it when
    DATOTECA_LIBRARY is set (else, installed from a wheel, it runs the wheel's program: test_wheel.py)."""
    import sys
    ruta = tmp_path / "x.db"
    env = {**os.environ, "DATOTECA_LIBRARY": os.environ.get("DATOTECA_LIBRARY") or os.path.join(ROOT, "build-c", "libdatoteca.so.3")}
    r = subprocess.run([sys.executable, "-m", "datoteca", "esquema", BANCO, "--formato", "sqlite", "--salida", str(ruta)],
                       capture_output=True, env=env)
    assert r.returncode == 2, r
    assert b"--formato sql --dialecto sqlite | sqlite3 FILE.db" in r.stderr, r.stderr
    assert not ruta.exists()


# ---- PostgreSQL ----

def _psql(base, db, *args, stdin=None, cwd=None):
    cmd = [_pg_bin("psql"), "-h", base, "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-q", "-At", *args]
    r = subprocess.run(cmd, input=stdin, capture_output=True, cwd=cwd)
    assert r.returncode == 0, f"psql {' '.join(args)}: {r.stderr.decode()}"
    return r.stdout.decode()


def _pg_filas(base, db, salidas, tabla):
    """The sampled rows as PostgreSQL holds them (COPY's CSV with \\N for a null), by row number."""
    j, clave = _clave(salidas, tabla)
    esperadas = _esperadas(salidas, tabla)
    por_clave = {celdas[j]: i for i, celdas in esperadas.items()}
    lista = ", ".join("'" + k.replace("'", "''") + "'" for k in por_clave)
    nombres = ", ".join(c["nombre"] for c in salidas["esquema"].columnas(tabla))
    texto = _psql(base, db, "-c", f"COPY (SELECT {nombres} FROM {tabla} WHERE {clave} IN ({lista})) TO STDOUT "
                                  "WITH (FORMAT csv, NULL '\\N')")
    filas = {}
    for celdas in csv.reader(io.StringIO(texto)):
        celdas = [None if c == "\\N" else c for c in celdas]
        filas[por_clave[celdas[j]]] = celdas
    return filas


def _pg_comprobar(base, db, salidas):
    esquema = salidas["esquema"]
    for t in esquema.orden:
        n = int(_psql(base, db, "-c", f"SELECT count(*) FROM {t}"))
        assert n == esquema.total(t), f"seed {SEED}, database {db}, table {t}: {n} rows, the CLI's CSV has {esquema.total(t)}"
        esperadas, filas = _esperadas(salidas, t), _pg_filas(base, db, salidas, t)
        for i, celdas in esperadas.items():
            assert filas.get(i) == celdas, f"seed {SEED}, database {db}, table {t}, row {i}: PostgreSQL {filas.get(i)}, CLI {celdas}"


def test_postgresql_loads_the_csv_with_every_constraint_first(postgres, salidas):  # noqa: F811
    base, esquema = postgres, salidas["esquema"]
    _psql(base, "postgres", "-c", "CREATE DATABASE banco_csv")
    _psql(base, "banco_csv", stdin=_cli("--formato", "ddl", "--dialecto", "postgresql"))
    # The constraints exist before a single row does, as pg_constraint says.
    restr = _psql(base, "banco_csv", "-c", """
        SELECT c.conrelid::regclass, c.contype, a.attname, CASE c.contype WHEN 'f' THEN c.confrelid::regclass::text ELSE '' END,
               coalesce(fa.attname, ''), c.convalidated
        FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        LEFT JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = c.confkey[1]
        WHERE c.connamespace = 'public'::regnamespace AND c.contype IN ('p', 'u', 'f')
          AND array_length(c.conkey, 1) = 1""")
    hay = {tuple(l.split("|")) for l in restr.splitlines()}
    esperado = set()
    for t in esquema.orden:
        for c in esquema.columnas(t):
            if c["clave_primaria"]:
                esperado.add((t, "p", c["nombre"], "", "", "t"))
            elif c["unico"]:
                esperado.add((t, "u", c["nombre"], "", "", "t"))
            if c["ref"]:
                pt, pc = c["ref"].split(".")
                esperado.add((t, "f", c["nombre"], pt, pc, "t"))
    assert any(e[1] == "f" for e in esperado) and any(e[1] == "u" for e in esperado), esperado
    assert hay == esperado, f"constraints: missing {esperado - hay}, unexpected {hay - esperado}"
    no_nulos = {tuple(l.split("|")) for l in _psql(base, "banco_csv", "-c", """
        SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND is_nullable = 'NO'""").splitlines()}
    assert no_nulos == {(t, c["nombre"]) for t in esquema.orden for c in esquema.columnas(t) if not c["nulable"]}
    _psql(base, "banco_csv", "-f", "cargar.sql", cwd=salidas["dir"] / "csv")
    _pg_comprobar(base, "banco_csv", salidas)
    # And they hold: a child pointing at no parent is refused.
    for t in esquema.orden:
        cols = esquema.columnas(t)
        for c in cols:
            if c["ref"]:
                r = subprocess.run([_pg_bin("psql"), "-h", base, "-U", "postgres", "-d", "banco_csv", "-c",
                                    f"UPDATE {t} SET {c['nombre']} = '-1' WHERE {_clave(salidas, t)[1]} = (SELECT min({_clave(salidas, t)[1]}) FROM {t})"],
                                   capture_output=True)
                assert r.returncode != 0 and b"foreign key" in r.stderr, f"{t}.{c['nombre']}: an orphan was accepted: {r}"


def test_postgresql_loads_the_sql_script(postgres, salidas):  # noqa: F811
    base = postgres
    ruta = salidas["dir"] / "banco.sql"
    _cli("--formato", "sql", "--salida", str(ruta), "--jobs", "2")
    _psql(base, "postgres", "-c", "CREATE DATABASE banco_sql")
    _psql(base, "banco_sql", "-f", str(ruta))
    _pg_comprobar(base, "banco_sql", salidas)


# ---- SQLite ----

def _sqlite_comprobar(db, salidas, origen):
    esquema = salidas["esquema"]
    db.execute("PRAGMA foreign_keys = ON")
    assert db.execute("PRAGMA foreign_keys").fetchone() == (1,)
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)], origen
    assert db.execute("PRAGMA foreign_key_check").fetchall() == [], origen
    for t in esquema.orden:
        cols = esquema.columnas(t)
        (n,) = db.execute(f"SELECT count(*) FROM {t}").fetchone()
        assert n == esquema.total(t), f"seed {SEED}, {origen}, table {t}: {n} rows, the CLI's CSV has {esquema.total(t)}"
        claves = {r["nombre"]: r["ref"] for r in cols if r["ref"]}
        fks = {r[3]: f"{r[2]}.{r[4]}" for r in db.execute(f"PRAGMA foreign_key_list({t})")}
        assert fks == claves, f"{origen}, table {t}: foreign keys {fks}, the schema declares {claves}"
        j, clave = _clave(salidas, t)
        for i, celdas in _esperadas(salidas, t).items():
            fila = db.execute(f"SELECT {', '.join(c['nombre'] for c in cols)} FROM {t} WHERE {clave} = ?",
                              (int(celdas[j]) if cols[j]["tipo_sql"] in ("bigint", "integer") else celdas[j],)).fetchone()
            assert fila is not None, f"seed {SEED}, {origen}, table {t}, row {i}: no row with {clave} = {celdas[j]}"
            for c, v, esperado in zip(cols, fila, celdas):
                entero = c["tipo_sql"] in ("bigint", "integer")
                assert (v is None and esperado is None) or (type(v) is (int if entero else str) and str(v) == esperado), \
                    f"seed {SEED}, {origen}, table {t}, row {i}, column {c['nombre']}: SQLite {v!r}, CLI {esperado!r}"


def test_sqlite_file_holds_every_row_and_key(salidas, tmp_path):
    ruta = tmp_path / "banco.db"
    _cli("--formato", "sqlite", "--salida", str(ruta), "--jobs", "2")
    db = sqlite3.connect(ruta)
    _sqlite_comprobar(db, salidas, "--formato sqlite")
    for t in salidas["esquema"].orden:  # the keys are enforced on the file as written
        for c in salidas["esquema"].columnas(t):
            if c["ref"]:
                with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
                    db.execute(f"UPDATE {t} SET {c['nombre']} = '-1' WHERE rowid = (SELECT min(rowid) FROM {t})")
    db.close()


def test_sqlite_loads_the_sql_script(salidas, tmp_path):
    guion = _cli("--formato", "sql", "--dialecto", "sqlite")
    ruta = tmp_path / "guion.db"
    if shutil.which("sqlite3"):
        r = subprocess.run(["sqlite3", "-bail", str(ruta)], input=guion, capture_output=True)
        assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    else:
        con = sqlite3.connect(ruta)
        con.executescript(guion.decode())
        con.close()
    db = sqlite3.connect(ruta)
    _sqlite_comprobar(db, salidas, "--formato sql --dialecto sqlite")
    db.close()


# ---- the other shipped schemas, and the cross-table rules as the databases see them ----

# A query per rule a shipped schema declares, which must find no row breaking it (the database's own
# joins and arithmetic, not the library's).
REGLAS = {
    "banco": [
        ("a cuenta's holder is its cliente", "SELECT count(*) FROM cuentas k JOIN clientes c ON c.id = k.cliente_id "
                                            "WHERE k.rut_titular <> c.rut"),
        ("a CuentaRUT is numbered by the holder's RUT body",
         "SELECT count(*) FROM cuentas WHERE tipo_cuenta = 'CuentaRUT' "
         "AND numero <> replace(substr(rut_titular, 1, length(rut_titular) - 2), '.', '')"),
        ("no movimiento before its cuenta's opening", "SELECT count(*) FROM movimientos m JOIN cuentas k "
                                                      "ON k.id = m.cuenta_id WHERE m.fecha < k.apertura"),
    ],
    "retail": [
        ("a DTE's lines add up to its neto plus exento",
         "SELECT count(*) FROM documentos d LEFT JOIN (SELECT documento_id, sum(monto) AS s FROM lineas "
         "GROUP BY documento_id) l ON l.documento_id = d.id WHERE coalesce(l.s, -1) <> d.monto_neto + d.monto_exento"),
        ("lines are numbered 1..k within their DTE",
         "SELECT count(*) FROM (SELECT documento_id, count(*) AS n, min(linea) AS a, max(linea) AS b "
         "FROM lineas GROUP BY documento_id) WHERE a <> 1 OR b <> n"),
    ],
    "rrhh": [
        ("an empleado lives in the empresa's region", "SELECT count(*) FROM empleados p JOIN empresas e "
                                                      "ON e.id = p.empresa_id WHERE p.region <> e.region"),
        ("hired on or after the 18th birthday",
         "SELECT count(*) FROM empleados WHERE ingreso < date(fecha_nacimiento, '+18 years')"),
    ],
}


@pytest.mark.parametrize("nombre", sorted(REGLAS))
def test_every_shipped_schema_loads_into_sqlite_with_its_rules(nombre, tmp_path):
    """Each shipped schema's SQLite file (foreign keys on while it loads): foreign_key_check finds
    nothing, every table has the schema's rows, and every cross-table rule the schema declares holds in
    SQL over the whole database."""
    ruta = tmp_path / f"{nombre}.db"
    doc = os.path.join(ROOT, "esquemas", f"{nombre}.toml")
    subprocess.run([CLI, "esquema", doc, "--seed", str(SEED), "--formato", "sqlite", "--salida", str(ruta)],
                   check=True, capture_output=True)
    esquema = Esquema(doc, seed=SEED)
    db = sqlite3.connect(ruta)
    assert db.execute("PRAGMA foreign_key_check").fetchall() == [], nombre
    for t in esquema.orden:
        assert db.execute(f"SELECT count(*) FROM {t}").fetchone() == (esquema.total(t),), f"seed {SEED}, {nombre}.{t}"
    for que, sql in REGLAS[nombre]:
        (malos,) = db.execute(sql).fetchone()
        assert malos == 0, f"seed {SEED}, {nombre}: {malos} rows break '{que}'"
    db.close()


@pytest.mark.parametrize("nombre", ["retail", "rrhh"])
def test_the_other_shipped_schemas_load_into_postgresql(postgres, nombre, tmp_path):  # noqa: F811
    """retail and rrhh as banco above: the DDL with every constraint first, then cargar.sql; counts
    equal the schema's, and the rules hold in PostgreSQL's SQL too."""
    base = postgres
    doc = os.path.join(ROOT, "esquemas", f"{nombre}.toml")
    subprocess.run([CLI, "esquema", doc, "--seed", str(SEED), "--formato", "csv", "--salida", str(tmp_path / "csv")],
                   check=True, capture_output=True)
    ddl = subprocess.run([CLI, "esquema", doc, "--formato", "ddl", "--dialecto", "postgresql"], check=True,
                         capture_output=True).stdout
    _psql(base, "postgres", "-c", f"CREATE DATABASE {nombre}_csv")
    _psql(base, f"{nombre}_csv", stdin=ddl)
    _psql(base, f"{nombre}_csv", "-f", "cargar.sql", cwd=tmp_path / "csv")
    esquema = Esquema(doc, seed=SEED)
    for t in esquema.orden:
        n = int(_psql(base, f"{nombre}_csv", "-c", f"SELECT count(*) FROM {t}"))
        assert n == esquema.total(t), f"seed {SEED}, {nombre}.{t}: {n} rows in PostgreSQL, {esquema.total(t)} in the schema"
    for que, sql in REGLAS[nombre]:
        sql = sql.replace("date(fecha_nacimiento, '+18 years')", "fecha_nacimiento + interval '18 years'")
        sql = sql.replace("FROM lineas GROUP BY documento_id) WHERE", "FROM lineas GROUP BY documento_id) x WHERE")
        malos = int(_psql(base, f"{nombre}_csv", "-c", sql))
        assert malos == 0, f"seed {SEED}, {nombre} in PostgreSQL: {malos} rows break '{que}'"
