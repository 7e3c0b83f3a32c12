"""The one table of bad inputs (tests/casos_errores.json), in Python and through the CLI: each gives the
error class of the table (a DatotecaError that also is the builtin a user would catch) and the very
sentence C gives (tests/c/test_errores.c) and Node gives (tests/node/errores.test.mjs)."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import tempfile
from typing import Any, Callable, Dict

import pytest

import datoteca
from datoteca import Datoteca

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "tests", "casos_errores.json"), encoding="utf-8") as f:
    CASES = json.load(f)["cases"]
CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
BUILTIN = {"InvalidArgumentError": ValueError, "UnknownCallError": ValueError, "InvalidRutError": ValueError,
           "InvalidPatenteError": ValueError, "InvalidStateError": ValueError}


def _documento(case: Dict[str, Any], carpeta: str) -> str:
    """A schema case's document written to a file of its name (sentences name the file as given)."""
    ruta = os.path.join(carpeta, case["nombre"])
    pathlib.Path(ruta).write_bytes(case["texto"].encode())
    return ruta


def _run(case: Dict[str, Any]) -> Callable[[], object]:
    de, nombre, args = case["de"], case["nombre"], case.get("args", {})
    if de == "esquema":
        def esquema() -> None:
            with tempfile.TemporaryDirectory() as carpeta:
                datoteca.Esquema(_documento(case, carpeta), seed=case.get("seed", 0), hoy=case.get("hoy"))
        return esquema
    if de == "llamada":
        return lambda: Datoteca(seed=1, hoy=case.get("hoy")).call(nombre, **args)
    if de == "utilidad":
        fn = getattr(datoteca, nombre)
        texto = [case["texto"]] if "texto" in case else []
        return lambda: fn(*texto, **args)
    if de == "tabla":
        return lambda: datoteca.Tabla(nombre, hoy=case.get("hoy"), **case["opciones"], **args)
    return lambda: Datoteca(seed=1).restore_state(bytes(24))


def _cli_args(case: Dict[str, Any]) -> list:
    argv = ["tabla"] if case["de"] == "tabla" else []
    argv.append(case["nombre"])
    for k, v in case["args"].items():
        argv += [f"--{k}", str(v)]
    for k, v in case.get("opciones", {}).items():
        argv += [f"--{k}", ",".join(v) if isinstance(v, list) else ",".join(f"{c}:{n}" for c, n in v.items())]
    if "hoy" in case:
        argv += ["--hoy", case["hoy"]]
    return argv + ["-n", "1"]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_the_same_class_and_sentence(i: int) -> None:
    case = CASES[i]
    where = f"error case {i + 1} ({case['de']} {case['nombre']} {case.get('args', case.get('texto'))!r})"
    with pytest.raises(datoteca.DatotecaError) as info:
        _run(case)()
    e = info.value
    assert type(e).__name__ == case["error"], f"{where}: expected {case['error']}, got {type(e).__name__}"
    assert isinstance(e, BUILTIN[case["error"]]), f"{where}: not a {BUILTIN[case['error']].__name__}"
    assert str(e) == case["frase"], f"{where}: expected {case['frase']!r}, got {str(e)!r}"
    assert e.code == case["estado"], f"{where}: status {e.code}, expected {case['estado']}"


@pytest.mark.parametrize("i", [i for i, c in enumerate(CASES) if c.get("cli", True)])
def test_the_cli_says_the_same(i: int, tmp_path: pathlib.Path) -> None:
    case = CASES[i]
    salida = tmp_path / "salida"
    if case["de"] == "esquema":
        argv = ["esquema", _documento(case, str(tmp_path)), "--seed", str(case.get("seed", 0)), "--formato", "csv", "--salida", str(salida)]
        argv += ["--hoy", case["hoy"]] if "hoy" in case else []
    else:
        argv = _cli_args(case)
    r = subprocess.run([CLI, *argv], capture_output=True, text=True)
    assert r.returncode == 2, f"error case {i + 1}: the CLI exited {r.returncode}: {r.stderr!r}"
    assert r.stderr == f"datoteca: {case['frase']}\n", f"error case {i + 1}: the CLI said {r.stderr!r}"
    assert not salida.exists(), f"error case {i + 1}: the CLI refused the schema but wrote {salida}"
