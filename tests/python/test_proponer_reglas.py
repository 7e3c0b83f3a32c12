"""Proposing masking rules (docs/enmascarar.md, "Finding the personal data"): the C detector behind
`datoteca detectar` (CSV) and `datoteca.proponer_reglas` (Arrow, Parquet, rows as dicts) proposes, for
the shipped production-like sample (ejemplos/enmascarar/), the rule a reviewer would choose for every
personal column (written below by hand, column by column); Arrow, Parquet and the CLI propose the same
rules for the same values; and the refusals name the argument."""
import os
import subprocess
import sys

import pytest

import datoteca
from conftest import ROOT

pa = pytest.importorskip("pyarrow")
pc = pytest.importorskip("pyarrow.csv")
pq = pytest.importorskip("pyarrow.parquet")

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
MUESTRA = os.path.join(ROOT, "ejemplos", "enmascarar")

# What a reviewer would choose for every column of the shipped sample that holds personal data.
ESPERADAS = {
    "clientes.csv": {
        "rut": '{ regla = "rut" }',
        "nombres": '{ regla = "persona", campo = "nombres", entidad = "rut" }',
        "apellido_paterno": '{ regla = "persona", campo = "apellido_paterno", entidad = "rut" }',
        "apellido_materno": '{ regla = "persona", campo = "apellido_materno", entidad = "rut" }',
        "email": '{ regla = "persona", campo = "email", entidad = "rut" }',
        "telefono": '{ regla = "persona", campo = "telefono", entidad = "rut" }',
        "direccion": '{ regla = "persona", campo = "direccion", entidad = "rut" }',
        "comuna": '{ regla = "persona", campo = "comuna", entidad = "rut" }',
        "region": '{ regla = "persona", campo = "region", entidad = "rut" }',
        "fecha_nacimiento": '{ regla = "persona", campo = "fecha_nacimiento", entidad = "rut" }',
        "sexo": '{ regla = "persona", campo = "sexo", entidad = "rut" }',
        "fecha_alta": '{ regla = "fecha", dias = 30, entidad = "rut" }',
        # an amount: per-cell noise by default, so a known income links to nobody (issue 48, item 5)
        "ingreso_mensual": '{ regla = "monto", porcentaje = 10 }',
    },
    "cuentas.csv": {
        # a CuentaRUT is numbered by its holder's RUT body (issue 39): every account number as a body
        "numero": '{ regla = "derivado" }',
        "rut_titular": '{ regla = "rut" }',
        "fecha_apertura": '{ regla = "fecha", dias = 30, entidad = "rut_titular" }',
        "saldo": '{ regla = "monto", porcentaje = 10 }',  # issue 48, item 5
    },
    "notas.csv": {
        "numero_cuenta": '{ regla = "derivado" }',  # as cuentas.numero, so a note still finds its cuenta
        "fecha": '{ regla = "fecha", dias = 30 }',
        "texto": '{ regla = "texto" }',
    },
}


def _reglas(toml_text):
    """column -> its proposed rule, the comment after it dropped."""
    out = {}
    for linea in toml_text.splitlines():
        if " = { regla" in linea:
            col, regla = linea.split(" = ", 1)
            out[col] = regla.split("  #", 1)[0]
    return out


def _cli(archivo):
    p = subprocess.run([CLI, "detectar", archivo], capture_output=True, text=True)
    assert p.returncode == 0, f"datoteca detectar {archivo}: exit {p.returncode}: {p.stderr}"
    return p.stdout


def _como_texto(archivo):
    t = pc.read_csv(archivo)
    return pc.read_csv(archivo, convert_options=pc.ConvertOptions(column_types={n: pa.string() for n in t.schema.names},
                                                                  strings_can_be_null=False))


@pytest.mark.parametrize("nombre", list(ESPERADAS))
def test_every_personal_column_of_the_shipped_sample_gets_the_right_rule(nombre):
    propuestas = _reglas(_cli(os.path.join(MUESTRA, nombre)))
    for col, esperada in ESPERADAS[nombre].items():
        assert propuestas.get(col) == esperada, f"{nombre}, column {col}: proposed {propuestas.get(col)!r}, expected {esperada!r}"
    for col, regla in propuestas.items():
        if col not in ESPERADAS[nombre]:
            assert regla == '{ regla = "mantener" }', f"{nombre}, column {col}: {regla!r}, a column with nothing personal"


@pytest.mark.parametrize("nombre", list(ESPERADAS))
def test_arrow_proposes_the_cli_s_bytes(nombre):
    archivo = os.path.join(MUESTRA, nombre)
    assert datoteca.proponer_reglas(_como_texto(archivo), origen=archivo) == _cli(archivo), nombre


@pytest.mark.parametrize("nombre", list(ESPERADAS))
def test_a_typed_parquet_file_proposes_the_same_rules(nombre, tmp_path):
    """pyarrow types the columns (integers, dates): read back as text they propose what the CSV does."""
    archivo = os.path.join(MUESTRA, nombre)
    destino = tmp_path / (nombre[:-4] + ".parquet")
    pq.write_table(pc.read_csv(archivo), destino)
    assert _reglas(datoteca.proponer_reglas(str(destino))) == _reglas(_cli(archivo)), nombre
    p = subprocess.run([sys.executable, "-m", "datoteca", "detectar", str(destino), "--filas", "50"], capture_output=True, text=True)
    assert p.returncode == 0 and "50 records read" in p.stdout, f"python -m datoteca detectar {destino}: {p.returncode} {p.stderr}"


def test_rows_as_dicts_and_their_refusals():
    filas = [{"run": "12.345.678-5", "correo": "ana@correo.cl", "n": 3}, {"run": "11.111.111-1", "correo": None, "n": 4}]
    reglas = _reglas(datoteca.proponer_reglas(filas))
    assert reglas == {"run": '{ regla = "rut" }', "correo": '{ regla = "persona", campo = "email", entidad = "run" }',
                      "n": '{ regla = "mantener" }'}, reglas
    assert "1 records read" in datoteca.proponer_reglas(filas, filas=1)
    with pytest.raises(datoteca.InvalidArgumentError, match=r"filas must be a whole number from 1 to 100000000, got 0"):
        datoteca.proponer_reglas(filas, filas=0)
    with pytest.raises(datoteca.InvalidArgumentError, match=r"row 2 has other keys than row 1"):
        datoteca.proponer_reglas([{"a": "1"}, {"b": "2"}])
    with pytest.raises(datoteca.InvalidArgumentError, match=r"datos has no row"):
        datoteca.proponer_reglas([])
    with pytest.raises(datoteca.InvalidArgumentError, match=r"is not a .parquet file; for a CSV use `datoteca detectar"):
        datoteca.proponer_reglas("muestra.csv")
    with pytest.raises(datoteca.InvalidArgumentError, match=r"row 1 is a str, not a dict"):
        datoteca.proponer_reglas(["a"])


def test_the_proposal_is_a_rules_document_the_library_accepts(tmp_path):
    """What detectar proposes for the shipped sample masks it as it is (datoteca enmascarar accepts it)."""
    clave = tmp_path / "clave.hex"
    clave.write_text("11" * 32 + "\n")
    clave.chmod(0o600)  # a key file must be private (issue 39); one repeated byte is a test key: --clave-de-prueba
    for nombre in ESPERADAS:
        reglas = tmp_path / (nombre + ".toml")
        reglas.write_text(_cli(os.path.join(MUESTRA, nombre)))
        with open(os.path.join(MUESTRA, nombre), "rb") as f:
            p = subprocess.run([CLI, "enmascarar", "--reglas", str(reglas), "--clave-de-prueba", "--clave-archivo", str(clave)],
                               stdin=f, capture_output=True)
        # cuentas.csv has RUTs with a wrong check digit: the default policy refuses them, naming the row
        if nombre == "cuentas.csv":
            assert p.returncode == 2 and b"column rut_titular: not a valid RUT" in p.stderr, p.stderr
        else:
            assert p.returncode == 0, f"{nombre}: {p.stderr.decode()}"


def test_the_c_command_line_points_a_parquet_file_to_the_python_package(tmp_path):
    destino = tmp_path / "m.parquet"
    pq.write_table(pa.table({"rut": ["12.345.678-5"]}), destino)
    p = subprocess.run([CLI, "detectar", str(destino)], capture_output=True, text=True)
    assert p.returncode == 2 and "python -m datoteca detectar" in p.stderr and p.stdout == "", (p.returncode, p.stderr)


@pytest.mark.parametrize("nombre", list(ESPERADAS))
def test_json_lines_propose_the_csv_s_bytes(nombre, tmp_path):
    """The same sample as JSON Lines (the first object's keys the columns; later objects in another key
    order) gives the CSV's proposal byte for byte, but for the file's name in the first line."""
    import csv as _csv
    import json

    archivo = os.path.join(MUESTRA, nombre)
    with open(archivo, encoding="utf-8") as f:
        filas = list(_csv.DictReader(f))
    destino = tmp_path / (nombre[:-4] + ".jsonl")
    with open(destino, "w", encoding="utf-8") as f:
        for i, fila in enumerate(filas):
            orden = list(fila.items()) if i == 0 else list(reversed(fila.items()))
            f.write(json.dumps(dict(orden), ensure_ascii=False) + "\n")
    assert _cli(str(destino)).replace(str(destino), archivo) == _cli(archivo), nombre


def test_json_lines_refusals(tmp_path):
    casos = {
        '{"a": "1"}\n{"b": "2"}\n': "line 2 has no key a (the first line's key 1)",
        '{"a": "1"}\n{"a": "2", "b": "3"}\n': "line 2 has 2 keys, the first line 1",
        '{"a": "12.345.678-5"}\n{"a": [1]}\n': "line 2, byte 7:",
        "": "no object: the file is empty",
    }
    for texto, frase in casos.items():
        p = subprocess.run([CLI, "detectar", "-", "--formato", "jsonl"], input=texto.encode(), capture_output=True)
        assert p.returncode == 2 and frase in p.stderr.decode() and p.stdout == b"", (texto, p.returncode, p.stderr)
        assert b"12.345.678-5" not in p.stderr
