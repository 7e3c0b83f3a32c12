"""Names SQL must quote (issue #40, item 3): every table and column name the library writes into SQL
(the DDL, `--formato sql`, the `\\copy` script of `--formato csv`, the `--formato sqlite` load,
`datoteca tabla --format sql|ddl --nombre`) is spelt so that the database reads the name the document
gave. The keywords come from the engines themselves, not from the library's list: PostgreSQL's
`pg_get_keywords()` (every keyword that is not unreserved) on the server this suite starts, and
SQLite's `sqlite3_keyword_name()` of the libsqlite3 Python's sqlite3 module links. Each keyword names a
column of one table and a table of its own; mixed-case and non-ASCII names go with them."""
import ctypes
import ctypes.util
import os
import sqlite3
import subprocess

import pytest

from conftest import ROOT
from datoteca import Esquema, InvalidArgumentError
from test_basesdedatos import _pg_bin, _psql, postgres  # noqa: F401  (the same throwaway server)

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
OTROS = ["ClienteId", "Año", "año_de_ingreso", "número", "Ñandú", "región_código"]


def _claves_sqlite():
    lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    lib.sqlite3_keyword_count.restype = ctypes.c_int
    lib.sqlite3_keyword_name.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_int)]
    out = set()
    for i in range(lib.sqlite3_keyword_count()):
        z, n = ctypes.c_char_p(), ctypes.c_int()
        assert lib.sqlite3_keyword_name(i, ctypes.byref(z), ctypes.byref(n)) == 0
        out.add(ctypes.string_at(z, n.value).decode().lower())
    assert len(out) > 100, f"SQLite listed {len(out)} keywords"
    return out


def _documento(palabras):
    """A table "user" (serie id, column "order", one column per word and per OTROS name), and per word
    a table of that name whose rows reference "user"."""
    lin = ["version = 1", "", '[tablas."user"]', "filas = 3", '[tablas."user".columnas]',
           'id = { serie = true }', '"order" = { llamada = "persona.nombre" }']
    lin += [f'"{p}" = {{ llamada = "rut" }}' for p in sorted(palabras) + OTROS if p not in ("id", "order")]
    for p in sorted(palabras):
        if p == "user":
            continue
        lin += ["", f'[tablas."{p}"]', "filas = 2", f'[tablas."{p}".columnas]',
                '"Id" = { serie = true }', '"order" = { ref = "user.id" }']
    return "\n".join(lin) + "\n"


def _esquema(tmp_path, palabras):
    doc = tmp_path / "nombres.toml"
    doc.write_text(_documento(palabras), encoding="utf-8")
    return doc


def _cli(*args, **kw):
    return subprocess.run([CLI, *args], check=True, capture_output=True, **kw).stdout


def test_sqlite_reads_every_keyword_name(tmp_path):
    palabras = _claves_sqlite() | {"user", "order"}
    doc = _esquema(tmp_path, palabras)
    db = tmp_path / "x.db"
    _cli("esquema", str(doc), "--formato", "sqlite", "--salida", str(db))
    con = sqlite3.connect(db)
    cols = [r[1] for r in con.execute('PRAGMA table_info("user")')]
    faltan = sorted((palabras | set(OTROS) | {"id", "order"}) - set(cols))
    assert not faltan, f"columns of \"user\" not named as the document says: {faltan[:20]}"
    for p in sorted(palabras - {"user"}):
        n = con.execute(f'SELECT count(*) FROM "{p}" JOIN "user" ON "user".id = "{p}"."order"').fetchone()[0]
        assert n == 2, f'table "{p}": {n} rows joined to "user", expected 2'
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    # The SQL script of the sqlite dialect, through the engine.
    script = _cli("esquema", str(doc), "--formato", "sql", "--dialecto", "sqlite").decode()
    otra = sqlite3.connect(":memory:")
    otra.executescript(script)
    assert otra.execute('SELECT count(*) FROM "select"').fetchone()[0] == 2
    # datoteca tabla --nombre with a keyword
    tabla = _cli("tabla", "persona", "-n", "3", "--format", "sql", "--dialecto", "sqlite", "--nombre", "order").decode()
    tercera = sqlite3.connect(":memory:")
    tercera.executescript(tabla)
    assert tercera.execute('SELECT count(*) FROM "order"').fetchone()[0] == 3


def test_postgresql_reads_every_keyword_name(postgres, tmp_path):
    palabras = {w for w in _psql(postgres, "SELECT word FROM pg_get_keywords() WHERE catcode <> 'U'").split()}
    assert {"user", "order", "select", "table"} <= palabras, "pg_get_keywords() lacks the words every SQL reserves"
    doc = _esquema(tmp_path, palabras)
    for base in ("nombres_ddl", "nombres_sql", "nombres_tabla"):
        _psql(postgres, f"CREATE DATABASE {base}")
    psql = [_pg_bin("psql"), "-h", postgres, "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-At"]
    # The DDL, then cargar.sql of --formato csv (\copy, run from its directory).
    ddl = _cli("esquema", str(doc), "--formato", "ddl")
    subprocess.run([*psql, "-d", "nombres_ddl"], input=ddl, check=True, capture_output=True)
    _cli("esquema", str(doc), "--formato", "csv", "--salida", str(tmp_path / "csv"))
    subprocess.run([*psql, "-d", "nombres_ddl", "-f", "cargar.sql"], cwd=tmp_path / "csv", check=True, capture_output=True)
    # --formato sql: the DDL and the INSERTs in one script.
    subprocess.run([*psql, "-d", "nombres_sql"], input=_cli("esquema", str(doc), "--formato", "sql"), check=True, capture_output=True)
    for base in ("nombres_ddl", "nombres_sql"):
        cols = subprocess.run([*psql, "-d", base, "-c",
                               "SELECT column_name FROM information_schema.columns WHERE table_name = 'user'"],
                              check=True, capture_output=True).stdout.decode().split("\n")
        faltan = sorted((palabras | set(OTROS) | {"id", "order"}) - set(cols))
        assert not faltan, f'{base}: columns of "user" not named as the document says: {faltan[:20]}'
        tablas = subprocess.run([*psql, "-d", base, "-c",
                                 "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"],
                                check=True, capture_output=True).stdout.decode().split("\n")
        faltan = sorted(palabras - set(tablas))
        assert not faltan, f"{base}: tables not named as the document says: {faltan[:20]}"
        for p in ("select", "table", "authorization", "offset"):
            n = subprocess.run([*psql, "-d", base, "-c", f'SELECT count(*) FROM "{p}" JOIN "user" u ON u.id = "{p}"."order"'],
                               check=True, capture_output=True).stdout.decode().strip()
            assert n == "2", f'{base}: table "{p}": {n} rows joined to "user", expected 2'
        fks = subprocess.run([*psql, "-d", base, "-c", "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"],
                             check=True, capture_output=True).stdout.decode().strip()
        assert int(fks) == len(palabras - {"user"}), f"{base}: {fks} foreign keys, expected {len(palabras - {'user'})}"
    tabla = _cli("tabla", "persona", "-n", "3", "--format", "sql", "--nombre", "user")
    subprocess.run([*psql, "-d", "nombres_tabla"], input=tabla, check=True, capture_output=True)
    n = subprocess.run([*psql, "-d", "nombres_tabla", "-c", 'SELECT count(*) FROM "user"'], check=True, capture_output=True).stdout
    assert n.decode().strip() == "3"


def test_an_ordinary_name_stays_bare_and_others_are_quoted(tmp_path):
    doc = tmp_path / "d.toml"
    doc.write_text('version = 1\n[tablas.clientes]\nfilas = 1\n[tablas.clientes.columnas]\nid = { serie = true }\n'
                   '"Año" = { llamada = "rut" }\n"order" = { llamada = "rut" }\nn1 = { llamada = "rut" }\n', encoding="utf-8")
    ddl = Esquema(str(doc)).ddl("postgresql")
    assert ddl.startswith("CREATE TABLE clientes (\n    id bigint"), f"an ordinary name should stay bare, got:\n{ddl}"
    assert '\n    "Año" text' in ddl and '\n    "order" text' in ddl and "\n    n1 text" in ddl, ddl


@pytest.mark.parametrize("nombre", ["mi tabla", "1clientes", "a" * 64, "tab\u00a0la", "a-b", 'co"mi', "x\u0085y"],
                         ids=["space", "leading-digit", "64-bytes", "no-break-space", "hyphen", "double-quote", "C1-control"])
def test_a_name_sql_cannot_take_safely_is_refused(tmp_path, nombre):
    doc = tmp_path / "d.toml"
    clave = nombre.replace("\\", "\\\\").replace('"', '\\"')
    doc.write_text(f'version = 1\n[tablas."{clave}"]\nfilas = 1\n[tablas."{clave}".columnas]\nid = {{ serie = true }}\n', encoding="utf-8")
    with pytest.raises(InvalidArgumentError, match="a table name must be letters of any alphabet"):
        Esquema(str(doc))
