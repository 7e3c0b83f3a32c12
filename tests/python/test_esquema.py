"""datoteca.Esquema, the Python face of the C schema core: the same rows as the CLI's CSV, byte for
byte; a dict, its JSON and its TOML give the same tables; SQLite (PRAGMA foreign_keys=ON) loads the
DDL and the rows and foreign_key_check finds nothing; a refused schema raises the library's sentence."""
import csv
import io
import json
import os
import sqlite3
import subprocess

import pytest

import datoteca
from conftest import ROOT
from datoteca import Esquema

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))

BANCO = """
[tablas.clientes]
filas = 300
[tablas.clientes.columnas]
id = { serie = true }
persona = { llamada = "persona.persona", campos = ["rut", "nombre_completo", "email"], unico = ["rut"], edad_min = 21, nulos = { email = 200 } }

[tablas.cuentas]
por = "clientes"
cuantos = { min = 1, max = 3 }
[tablas.cuentas.columnas]
id = { serie = true }
cliente = { ref = "clientes.id" }
titular = { ref = "clientes.rut" }
tipo = { elegir = { corriente = 3, vista = 5, cuentarut = 2 } }

[tablas.movimientos]
filas = 2000
[tablas.movimientos.columnas]
id = { serie = true }
cuenta = { ref = "cuentas.id" }
monto = { llamada = "dinero.monto", min = 1000, max = 500000 }
"""

COMO_DICT = {"tablas": {
    "clientes": {"filas": 300, "columnas": {
        "id": {"serie": True},
        "persona": {"llamada": "persona.persona", "campos": ["rut", "nombre_completo", "email"], "unico": ["rut"],
                    "edad_min": 21, "nulos": {"email": 200}}}},
    "cuentas": {"por": "clientes", "cuantos": {"min": 1, "max": 3}, "columnas": {
        "id": {"serie": True}, "cliente": {"ref": "clientes.id"}, "titular": {"ref": "clientes.rut"},
        "tipo": {"elegir": {"corriente": 3, "vista": 5, "cuentarut": 2}}}},
    "movimientos": {"filas": 2000, "columnas": {
        "id": {"serie": True}, "cuenta": {"ref": "cuentas.id"},
        "monto": {"llamada": "dinero.monto", "min": 1000, "max": 500000}}}}}


@pytest.fixture(scope="module")
def banco(tmp_path_factory):
    ruta = tmp_path_factory.mktemp("esquema") / "banco.toml"
    ruta.write_text(BANCO, encoding="utf-8")
    return ruta


def _csv_cli(ruta, salida, seed):
    subprocess.run([CLI, "esquema", str(ruta), "--seed", str(seed), "--formato", "csv", "--salida", str(salida)],
                   check=True, capture_output=True)
    return {t: (salida / f"{t}.csv").read_text(encoding="utf-8") for t in ("clientes", "cuentas", "movimientos")}


def _como_csv(e, tabla):
    """The rows as the CLI writes them: a header, an unquoted empty cell for a null."""
    nombres = [c["nombre"] for c in e.columnas(tabla)]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(nombres)
    for fila in e.filas(tabla):
        w.writerow(["" if fila[n] is None else fila[n] for n in nombres])
    return out.getvalue()


def test_rows_equal_the_cli_csv(banco, tmp_path):
    e = Esquema(banco, seed=9)
    cli = _csv_cli(banco, tmp_path / "out", 9)
    assert e.tablas == ["clientes", "cuentas", "movimientos"] and e.orden == e.tablas
    for t in e.tablas:
        assert _como_csv(e, t) == cli[t], f"seed 9, table {t}: Python's rows differ from the CLI's CSV"


def test_a_dict_its_json_and_the_toml_give_the_same_tables(banco):
    a, b, c = Esquema(banco, seed=4), Esquema(COMO_DICT, seed=4), Esquema(json.dumps(COMO_DICT), seed=4, formato="json")
    for t in a.tablas:
        assert a.filas(t) == b.filas(t) == c.filas(t), f"seed 4, table {t}: TOML, dict and JSON differ"
    assert a.ddl() == b.ddl() == c.ddl()


def test_slices_equal_the_full_run(banco):
    e = Esquema(banco, seed=2)
    todas = e.filas("cuentas")
    assert len(todas) == e.total("cuentas")
    for desde, n in [(0, 1), (5, 17), (len(todas) - 3, 3)]:
        assert e.filas("cuentas", n, desde) == todas[desde:desde + n], f"seed 2, cuentas rows {desde}..{desde + n}"


def test_sqlite_enforces_every_foreign_key(banco):
    e = Esquema(banco, seed=11)
    db = sqlite3.connect(":memory:")
    db.execute("PRAGMA foreign_keys=ON")
    db.executescript(e.ddl("sqlite"))
    for t in e.orden:
        nombres = [c["nombre"] for c in e.columnas(t)]
        db.executemany(f"INSERT INTO {t} ({', '.join(nombres)}) VALUES ({', '.join('?' * len(nombres))})",
                       [tuple(f[n] for n in nombres) for f in e.filas(t)])
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    # the fan-out: every cliente has 1 to 3 cuentas, and titular is its own cliente's RUT
    por_cliente = db.execute("SELECT COUNT(*) FROM clientes c LEFT JOIN cuentas k ON k.cliente = c.id GROUP BY c.id").fetchall()
    assert {n for (n,) in por_cliente} <= {1, 2, 3}
    assert db.execute("SELECT COUNT(*) FROM cuentas k JOIN clientes c ON c.id = k.cliente WHERE c.rut <> k.titular").fetchone() == (0,)
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO movimientos (id, cuenta, monto) VALUES (999999, 999999, 1)")


@pytest.mark.parametrize("documento,frase", [
    ({"tablas": {"a": {"filas": 1, "columnas": {"x": {"ref": "b.id"}}}}}, "<dict>:1: tablas.a.columnas.x"),
    ({"tablas": {"a": {"filas": 1, "columnas": {"x": {"llamada": "no.existe"}}}}}, "unknown call 'no.existe'"),
])
def test_a_refused_schema_raises_the_library_sentence(documento, frase):
    with pytest.raises(datoteca.InvalidArgumentError) as info:
        Esquema(documento)
    assert frase in str(info.value), f"expected {frase!r} in {str(info.value)!r}"


def test_wrong_types_name_the_argument(banco):
    with pytest.raises(TypeError, match="documento"):
        Esquema(42)  # type: ignore[arg-type]
    e = Esquema(banco)
    with pytest.raises(datoteca.InvalidArgumentError, match="'nada' is not a table"):
        e.filas("nada")


def test_a_row_its_arguments_cannot_make_raises_the_row_sentence():
    """An argument from another column ({ de = ... }) is checked row by row: a source that is not an
    integer, a date or a RUT refuses that row, naming table, column and row, and nothing is returned."""
    e = Esquema('[tablas.t]\nfilas = 50\n[tablas.t.columnas]\nx = { elegir = { uno = 1 } }\n'
                'b = { llamada = "dinero.monto", min = { de = "x" } }\n')
    with pytest.raises(datoteca.InvalidArgumentError) as info:
        e.filas("t", 2, desde=3)
    assert str(info.value) == ("tablas.t.columnas.b: row 3: min takes t.x, whose value is not an integer, "
                               "a date (YYYY-MM-DD) or a RUT")


def test_arguments_from_the_parent_row(tmp_path):
    """The shipped banco schema: every cuenta's holder is its cliente, a CuentaRUT is numbered by the
    cliente's RUT body, no movimiento is dated before its cuenta's opening (checked in SQLite)."""
    e = Esquema(os.path.join(ROOT, "esquemas", "banco.toml"), seed=5)
    clientes = {c["id"]: c for c in e.filas("clientes", 3000)}
    cuentas = [c for c in e.filas("cuentas", 6000) if c["cliente_id"] in clientes]
    assert len(cuentas) > 3000
    for i, c in enumerate(cuentas):
        rut = clientes[c["cliente_id"]]["rut"]
        assert c["rut_titular"] == rut, f"seed 5, cuentas row {i}: holder {c['rut_titular']}, cliente {rut}"
        if c["tipo_cuenta"] == "CuentaRUT":
            assert c["numero"] == rut.split("-")[0].replace(".", ""), f"seed 5, cuentas row {i}: {c}"
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE cuentas (id INTEGER PRIMARY KEY, apertura TEXT)")
    db.execute("CREATE TABLE movimientos (cuenta_id INTEGER, fecha TEXT)")
    db.executemany("INSERT INTO cuentas VALUES (?, ?)", [(c["id"], c["apertura"]) for c in cuentas])
    db.executemany("INSERT INTO movimientos VALUES (?, ?)",
                   [(m["cuenta_id"], m["fecha"]) for m in e.filas("movimientos", 30000)])
    assert db.execute("SELECT COUNT(*) FROM movimientos m JOIN cuentas c ON c.id = m.cuenta_id").fetchone()[0] > 20000
    assert db.execute("SELECT COUNT(*) FROM movimientos m JOIN cuentas c ON c.id = m.cuenta_id "
                      "WHERE m.fecha < c.apertura").fetchone() == (0,)


def test_the_cli_refuses_such_a_row_with_exit_2(tmp_path):
    ruta = tmp_path / "malo.toml"
    ruta.write_text('[tablas.t]\nfilas = 50\n[tablas.t.columnas]\nx = { elegir = { uno = 1 } }\n'
                    'b = { llamada = "dinero.monto", min = { de = "x" } }\n', encoding="utf-8")
    r = subprocess.run([CLI, "esquema", str(ruta), "--formato", "csv", "--salida", str(tmp_path / "out")],
                       capture_output=True, text=True)
    assert r.returncode == 2, r
    assert r.stderr == ("datoteca: tablas.t.columnas.b: row 0: min takes t.x, whose value is not an integer, "
                        "a date (YYYY-MM-DD) or a RUT\n")


@pytest.mark.parametrize("nombre", ["banco", "retail", "rrhh"])
def test_every_shipped_schema_equals_the_cli_csv(nombre, tmp_path):
    """Each shipped schema (every `filas` at 300: the same tables, columns and fan-outs, fewer rows):
    Python's rows as CSV are the CLI's bytes, table by table."""
    import re

    texto = open(os.path.join(ROOT, "esquemas", f"{nombre}.toml"), encoding="utf-8").read()
    ruta = tmp_path / f"{nombre}.toml"
    ruta.write_text(re.sub(r"(?m)^filas = \d+", "filas = 300", texto), encoding="utf-8")
    e = Esquema(ruta, seed=42)
    subprocess.run([CLI, "esquema", str(ruta), "--seed", "42", "--formato", "csv", "--salida", str(tmp_path / "csv")],
                   check=True, capture_output=True)
    assert len(e.tablas) > 1
    for t in e.tablas:
        cli = (tmp_path / "csv" / f"{t}.csv").read_text(encoding="utf-8")
        py = _como_csv(e, t)
        if py != cli:
            i = next(i for i, (a, b) in enumerate(zip(py.split("\n"), cli.split("\n"))) if a != b)
            pytest.fail(f"seed 42, {nombre}.{t}, row {i - 1}: Python {py.split(chr(10))[i]!r}, CLI {cli.split(chr(10))[i]!r}")
