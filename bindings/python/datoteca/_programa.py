"""Where the `datoteca` program is: the copy a wheel carries (datoteca/_bin/datoteca, built by CMake with
its database connectors; auditwheel puts the client libraries it links in datoteca.libs/), else one named
by DATOTECA_CLI or found on PATH. Imports nothing of the library, so `python -m datoteca` can hand over
to the program before anything else happens."""
from __future__ import annotations

import os
import shutil
from typing import Optional

_here = os.path.dirname(os.path.abspath(__file__))


def _ejecutable(ruta: str) -> bool:
    return os.path.isfile(ruta) and os.access(ruta, os.X_OK)


def incluido() -> Optional[str]:
    """The program the wheel carries, or None (a source checkout, the WebAssembly wheel, a wheel built
    without it)."""
    ruta = os.path.join(_here, "_bin", "datoteca.exe" if os.name == "nt" else "datoteca")
    return ruta if _ejecutable(ruta) else None


def _es_guion(ruta: str) -> bool:
    """A script (pip's `datoteca` console script starts with #!): it runs the library's CLI, which has no
    connector, so it is no program to hand inferir to."""
    try:
        with open(ruta, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return True


def para_inferir() -> Optional[str]:
    """The program datoteca.inferir runs, first found: DATOTECA_CLI (set by the user, it wins, as
    DATOTECA_LIBRARY does for the library), the wheel's own, then `datoteca` on PATH that is a program
    rather than a script (a `make install`'s /usr/local/bin/datoteca beside the WebAssembly wheel)."""
    nombrado = os.environ.get("DATOTECA_CLI")
    if nombrado:
        return nombrado
    propio = incluido()
    if propio is not None:
        return propio
    for carpeta in os.environ.get("PATH", "").split(os.pathsep):
        if not carpeta:
            continue
        candidato = shutil.which("datoteca", path=carpeta)
        if candidato is not None and not _es_guion(candidato):
            return candidato
    return None
