"""Every TOML and JSON block of the README and docs/ is read by the library, so no example can drift
from the language it shows (issue #40, item 4; issue #42, item 6, for these blocks). A schema (a
document with `tablas`) is built with datoteca.Esquema and its first rows made; a masking rules file
(a document with `columnas` whose values have `regla`) with datoteca.Enmascarador; a rules fragment
(lines of `columnas` without their header, as the docs quote them) inside `version = 1` and
`[columnas]`. A block the page marks `<!-- fragmento: ... -->` (a few columns of a larger schema) is
read by Python's own TOML reader and each call it names must be one `datoteca list` knows. Any other
TOML or JSON block fails: a new kind of example needs a way to be checked here."""
import glob
import json
import os
import re
import subprocess
import tomllib

import pytest

import datoteca
from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key
BLOQUE = re.compile(r"^(?P<sangria>[ \t]*)```(?P<lengua>toml|json)[ \t]*\n(?P<texto>.*?)^(?P=sangria)```", re.M | re.S)
FRAGMENTO = re.compile(r"<!--\s*fragmento:[^>]*-->\s*$")


def _bloques():
    paginas = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    out = []
    for p in paginas:
        texto = open(p, encoding="utf-8").read()
        for m in BLOQUE.finditer(texto):
            linea = texto.count("\n", 0, m.start()) + 1
            sangria = m.group("sangria")
            cuerpo = "".join(l[len(sangria):] if l.startswith(sangria) else l for l in m.group("texto").splitlines(True))
            antes = texto[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            out.append(pytest.param(m.group("lengua"), cuerpo, bool(FRAGMENTO.search(antes)),
                                    id=f"{os.path.relpath(p, ROOT)}:{linea}"))
    return out


BLOQUES = _bloques()


def test_the_pages_have_blocks_to_check():
    assert len(BLOQUES) >= 9, f"found {len(BLOQUES)} TOML/JSON blocks in README.md and docs/ (9 on 2026-12-04): the pattern broke?"


def _llamadas():
    salida = subprocess.run([CLI, "list"], check=True, capture_output=True, text=True).stdout
    return {l.split()[0] for l in salida.splitlines() if l.strip()}


def _reglas(doc):
    col = doc.get("columnas")
    return isinstance(col, dict) and col and all(isinstance(v, dict) and "regla" in v for v in col.values())


@pytest.mark.parametrize("lengua, texto, fragmento", BLOQUES)
def test_a_docs_block_is_what_the_library_reads(lengua, texto, fragmento, tmp_path):
    doc = json.loads(texto) if lengua == "json" else tomllib.loads(texto)
    if fragmento:
        nombres = set()

        def recorrer(x):
            if isinstance(x, dict):
                if isinstance(x.get("llamada"), str):
                    nombres.add(x["llamada"])
                for v in x.values():
                    recorrer(v)
        recorrer(doc)
        assert nombres, "a schema fragment that names no call: nothing to check"
        assert nombres <= _llamadas(), f"calls the library does not have: {sorted(nombres - _llamadas())}"
        return
    if "tablas" in doc and all(isinstance(t, dict) and _reglas(t) for t in doc["tablas"].values()):
        # a database's rules (docs/copia.md): each table's rules as `enmascarar --tabla` reads them, over a
        # header of its columns
        archivo = tmp_path / f"reglas.{lengua}"
        archivo.write_text(texto, encoding="utf-8")
        for nombre, t in doc["tablas"].items():
            cabecera = ",".join(c for c, r in t["columnas"].items()) + "\n"
            p = subprocess.run([CLI, "enmascarar", "--reglas", str(archivo), "--tabla", nombre, "--clave-de-prueba"],
                               input=cabecera, capture_output=True, text=True, env={**os.environ, "DATOTECA_CLAVE": CLAVE})
            assert p.returncode == 0 and p.stdout == cabecera, f"table {nombre}: exit {p.returncode}: {p.stderr}"
        return
    if "tablas" in doc:
        archivo = tmp_path / f"ejemplo.{lengua}"
        archivo.write_text(texto, encoding="utf-8")
        e = datoteca.Esquema(str(archivo), seed=1)
        for t in e.orden:
            assert e.total(t) >= 1, f"table {t} has no rows"
        return
    if "columnas" not in doc and "version" not in doc and doc and all(isinstance(v, dict) and "regla" in v for v in doc.values()):
        texto, doc = "version = 1\n[columnas]\n" + texto, {"version": 1, "columnas": doc}
    elif "version" not in doc and _reglas(doc):
        texto, doc = "version = 1\n" + texto, {"version": 1, **doc}
    assert _reglas(doc), f"a {lengua} block that is neither a schema, a rules file nor a marked fragment:\n{texto}"
    datoteca.Enmascarador(texto, clave=CLAVE, clave_de_prueba=True, formato=lengua)


def test_the_two_syntaxes_of_esquemas_formato_build_the_same_rows(tmp_path):
    texto = open(os.path.join(ROOT, "docs", "esquemas-formato.md"), encoding="utf-8").read()
    seccion = texto[texto.index("## An example and its twin"):]
    bloques = {m.group("lengua"): m.group("texto") for m in BLOQUE.finditer(seccion)}
    assert set(bloques) == {"toml", "json"}, f"the twin section should hold one TOML and one JSON block, has {sorted(bloques)}"
    filas = {}
    for lengua, cuerpo in bloques.items():
        archivo = tmp_path / f"banco.{lengua}"
        archivo.write_text(cuerpo, encoding="utf-8")
        e = datoteca.Esquema(str(archivo), seed=7)
        filas[lengua] = {t: e.filas(t) for t in e.orden}
    assert filas["toml"] == filas["json"], "the TOML and JSON twins of docs/esquemas-formato.md build different rows"
