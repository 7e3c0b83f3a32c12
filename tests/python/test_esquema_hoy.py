"""A schema document's own `hoy` (docs/esquemas.md, "The reference date"): the date its calls count
days from, so a document alone says what it makes. The caller's hoy (--hoy, Esquema(hoy=)) overrides
it; a bad one is refused with the document's line, whatever the caller passes."""
import datetime
import os
import subprocess

import pytest

import datoteca

CLI = os.environ.get("DATOTECA_CLI", os.path.join(os.path.dirname(__file__), "..", "..", "build-c", "datoteca"))

DOC = """version = 1
hoy = @HOY@

[tablas.eventos]
filas = 200
[tablas.eventos.columnas]
dia = { llamada = "fecha.fecha" }
"""
SIN_HOY = DOC.replace("hoy = @HOY@\n", "")


def _con_hoy(fecha: str) -> str:
    return DOC.replace("@HOY@", f'"{fecha}"')


def _dias(esquema: datoteca.Esquema) -> list:
    return [datetime.date.fromisoformat(f["dia"]) for f in esquema.filas("eventos")]


def test_document_hoy_bounds_every_date():
    # fecha.fecha draws from 365 days before hoy to hoy (datoteca list): checked with Python's dates,
    # not with the library's, on a leap day so a wrong day count shows.
    hoy = datetime.date(2020, 2, 29)
    dias = _dias(datoteca.Esquema(_con_hoy(hoy.isoformat())))
    for fila, d in enumerate(dias):
        assert hoy - datetime.timedelta(days=365) <= d <= hoy, f"row {fila}: {d} outside [{hoy} - 365 days, {hoy}]"
    assert max(dias) > datetime.date(2019, 12, 31), "no date in the last two months before the document's hoy"


def test_document_hoy_equals_the_same_date_given_by_the_caller():
    del_documento = _dias(datoteca.Esquema(_con_hoy("2020-02-29")))
    del_llamador = _dias(datoteca.Esquema(SIN_HOY, hoy="2020-02-29"))
    por_defecto = _dias(datoteca.Esquema(SIN_HOY))
    assert del_documento == del_llamador
    assert del_documento != por_defecto


def test_callers_hoy_overrides_the_document():
    doc = _con_hoy("2020-02-29")
    assert _dias(datoteca.Esquema(doc, hoy="2025-01-01")) == _dias(datoteca.Esquema(SIN_HOY, hoy="2025-01-01"))


def test_cli_reads_the_document_hoy(tmp_path):
    doc = tmp_path / "eventos.toml"
    doc.write_text(_con_hoy("2020-02-29"))
    sin = tmp_path / "sin.toml"
    sin.write_text(SIN_HOY)
    a = subprocess.run([CLI, "esquema", str(doc), "--formato", "sql"], capture_output=True, text=True, check=True).stdout
    b = subprocess.run([CLI, "esquema", str(sin), "--hoy", "2020-02-29", "--formato", "sql"],
                       capture_output=True, text=True, check=True).stdout
    assert a == b and "INSERT INTO eventos" in a


@pytest.mark.parametrize("valor,sentencia", [
    ('"2021-02-29"', "hoy: must be a real day YYYY-MM-DD from 1900-01-01 to 2200-12-31, got '2021-02-29'"),
    ('"1899-12-31"', "hoy: must be a real day YYYY-MM-DD from 1900-01-01 to 2200-12-31, got '1899-12-31'"),
    ('"2020-2-29"', "hoy: must be a real day YYYY-MM-DD from 1900-01-01 to 2200-12-31, got '2020-2-29'"),
    ("20200229", "hoy must be a string, got an integer"),
])
@pytest.mark.parametrize("hoy_del_llamador", [None, "2025-01-01"])
def test_bad_document_hoy_is_refused_even_when_the_caller_gives_one(valor, sentencia, hoy_del_llamador):
    doc = DOC.replace("@HOY@", valor)
    with pytest.raises(datoteca.InvalidArgumentError) as info:
        datoteca.Esquema(doc, hoy=hoy_del_llamador)
    assert str(info.value) == f"<texto>:2: {sentencia}", f"hoy = {valor}, caller's hoy {hoy_del_llamador}"


def test_unknown_top_level_key_names_hoy():
    with pytest.raises(datoteca.InvalidArgumentError, match=r"a schema takes version, hoy and tablas"):
        datoteca.Esquema("fecha = \"2020-01-01\"\n" + SIN_HOY)
