"""datoteca.inferir: the schema document of a live database (docs/inferir.md), from Python. The
connectors link client libraries (libpq, libsqlite3, MariaDB Connector/C), which only the `datoteca` program carries, so this
runs that program's `inferir` and returns what it writes; nothing is read or mapped here. The types of
the arguments are checked here, naming the argument; their values are the program's to judge, and its
one-line sentence (which never holds a password) is the exception's text."""
from __future__ import annotations

import subprocess
from fractions import Fraction
from typing import List, Optional, Tuple, Union

from . import _programa
from ._comun_gen import TYPE_ERROR, DatotecaError, InvalidArgumentError

__all__ = ["inferir", "Documento"]

_NOTA = "datoteca inferir: not expressed: "
_STATUS_INVALID_ARG = 2  # DT_ERR_INVALID_ARG, the status of InvalidArgumentError


class Documento(str):
    """The document `datoteca inferir` writes, as text (a str, byte for byte the program's stdout once
    encoded as UTF-8), and `notas`: what it could not express, one sentence each, as the program lists
    them on stderr (`datoteca inferir: not expressed: …`) and in the document's head."""

    notas: Tuple[str, ...]

    def __new__(cls, texto: str, notas: Tuple[str, ...] = ()) -> "Documento":
        doc = super().__new__(cls, texto)
        doc.notas = notas
        return doc


def _texto(valor: object, nombre: str) -> str:
    if not isinstance(valor, str):
        raise TYPE_ERROR(f"inferir: {nombre} must be a str, got {type(valor).__name__}", _STATUS_INVALID_ARG)
    if "\0" in valor:
        raise InvalidArgumentError(f"inferir: {nombre} must not hold a NUL character", _STATUS_INVALID_ARG)
    return valor


def _entero(valor: object, nombre: str) -> str:
    if isinstance(valor, bool) or not isinstance(valor, int):
        raise TYPE_ERROR(f"inferir: {nombre} must be an int, got {type(valor).__name__}", _STATUS_INVALID_ARG)
    return str(valor)


def _escala(valor: object) -> str:
    """N, or N/D: an int, a fractions.Fraction, or the program's own spelling as a str ("1/10")."""
    if isinstance(valor, Fraction):
        return f"{valor.numerator}/{valor.denominator}"
    if isinstance(valor, str):
        return _texto(valor, "escala")
    if isinstance(valor, bool) or not isinstance(valor, int):
        raise TYPE_ERROR(f"inferir: escala must be an int, a Fraction or a str like '1/10', got {type(valor).__name__}",
                         _STATUS_INVALID_ARG)
    return str(valor)


def _argumentos(url: object, esquema: object, escala: object, filas_vacia: object, muestra: object,
                sin_abanico: object) -> List[str]:
    u = _texto(url, "url")
    args = ["inferir", u]
    if u.startswith("-"):
        # it would be read as an option; the URL itself is not repeated (it may hold a password)
        raise InvalidArgumentError("inferir: url must be a database URL (sqlite:…, postgresql://…), and it starts with '-'",
                                   _STATUS_INVALID_ARG)
    if esquema is not None:
        args += ["--esquema", _texto(esquema, "esquema")]
    if escala is not None:
        args += ["--escala", _escala(escala)]
    if filas_vacia is not None:
        args += ["--filas-vacia", _entero(filas_vacia, "filas_vacia")]
    if muestra is not None:
        args += ["--muestra", _entero(muestra, "muestra")]
    if not isinstance(sin_abanico, bool):
        raise TYPE_ERROR(f"inferir: sin_abanico must be a bool, got {type(sin_abanico).__name__}", _STATUS_INVALID_ARG)
    if sin_abanico:
        args.append("--sin-abanico")
    return args


def inferir(url: str, *, esquema: Optional[str] = None, escala: Union[int, Fraction, str, None] = None,
            filas_vacia: Optional[int] = None, muestra: Optional[int] = None, sin_abanico: bool = False) -> Documento:
    """The schema document that fills the database at `url` (docs/inferir.md): `datoteca inferir URL`'s
    output, the same text, with what it could not express in its head and in `.notas`.

    `url` is ``sqlite:app.db`` (relative to the working directory), ``sqlite:///abs/app.db``,
    ``postgresql://user@host:5432/db?...`` (libpq: ``PGPASSWORD``, ``~/.pgpass`` and ``PGSERVICE`` work)
    or ``mariadb://user@host:3306/db`` (``~/.my.cnf`` works), so the URL need hold no password; a URL's
    password is visible in the process list while the program runs. The options are the command's:
    `esquema` (PostgreSQL: one schema), `escala` (an int, a ``Fraction(1, 10)`` or ``"1/10"``),
    `filas_vacia`, `muestra` (0: the catalog only), `sin_abanico`.

    The program run is, first found: ``DATOTECA_CLI``, the one this package carries (a wheel), a
    ``datoteca`` program on ``PATH``. A wrong type raises ArgumentTypeError naming the argument; a value
    the program refuses, a database it cannot read or reach, raises InvalidArgumentError with its
    sentence (``datoteca inferir: URL: ... cannot connect: ...``), which never holds a password; a
    document the library refuses (a fault of inferir) raises DatotecaError.

    Example::

        import datoteca
        doc = datoteca.inferir("sqlite:app.db", filas_vacia=50)
        open("app.toml", "w").write(doc)              # as `datoteca inferir sqlite:app.db --filas-vacia 50 > app.toml`
        e = datoteca.Esquema(doc, seed=42)            # or fill a copy: datoteca esquema app.toml --hacia URL
        doc.notas                                     # ('view v: a view holds no rows of its own; ...',)
    """
    args = _argumentos(url, esquema, escala, filas_vacia, muestra, sin_abanico)
    programa = _programa.para_inferir()
    if programa is None:
        raise DatotecaError("inferir: no datoteca program was found to read the database with: this package carries "
                            "none (a source checkout, or the WebAssembly wheel); set DATOTECA_CLI to one (make build "
                            "writes build-c/datoteca) or put it on PATH")
    try:
        p = subprocess.run([programa, *args], stdin=subprocess.DEVNULL, capture_output=True)
    except OSError as e:
        raise DatotecaError(f"inferir: cannot run {programa}: {e.strerror}") from None
    err = p.stderr.decode("utf-8", "replace").splitlines()
    notas = tuple(linea[len(_NOTA):] for linea in err if linea.startswith(_NOTA))
    if p.returncode == 0:
        return Documento(p.stdout.decode("utf-8"), notas)
    frase = " ".join(linea for linea in err if linea and not linea.startswith(_NOTA))
    if p.returncode < 0:
        raise DatotecaError(f"inferir: {programa} ended by signal {-p.returncode}" + (f": {frase}" if frase else ""))
    if not frase:
        frase = f"inferir: {programa} exited with status {p.returncode} and said nothing"
    if p.returncode == 2:  # bad arguments, an unknown URL form, a database that cannot be read
        raise InvalidArgumentError(frase, _STATUS_INVALID_ARG)
    raise DatotecaError(frase)
