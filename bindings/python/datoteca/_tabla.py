"""Datasets: addressable rows, unique columns, nulls, dirt, column choice and DDL (docs/datasets.md).

Row i depends only on (seed, call, arguments, options, i): any slice equals the same rows of a
full run, in every language and from the CLI (`datoteca tabla`). Everything is generated in C;
this module converts options, calls `dt_tabla_*` and converts rows.
"""
from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Literal, Mapping, Optional, TypedDict, Union

from ._comun_gen import DIALECTOS, FIELD_SEP, FRASE_CAPACIDAD, N_MAX, NULO, SENTENCE_MAX, InvalidArgumentError
from ._lib import check_hoy, check_int, check_seed, en_trozos, ffi, lib, lookup_call, raise_status, type_error

if TYPE_CHECKING:  # pragma: no cover
    from ._arrow import Lotes

Dialecto = Literal["postgresql", "sqlite"]


class Columna(TypedDict):
    """A dataset column: its name, PostgreSQL type, whether it may be null or is unique."""

    nombre: str
    tipo_sql: str
    nulable: bool
    unico: bool
    nulos_por_mil: int


def _lista(value: Optional[Iterable[str]], name: str) -> Optional[bytes]:
    if value is None:
        return None
    if isinstance(value, str):
        items = value.split(",")
    else:
        items = list(value)
    for v in items:
        if not isinstance(v, str):
            raise type_error(f"{name} must be column names (str), got {type(v).__name__}")
    return ",".join(items).encode()


def _tasas(value: Optional[Mapping[str, int]], name: str) -> Optional[bytes]:
    """{column: per mille} of `nulos` or `sucio` as the library's "column:rate,…"."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise type_error(f"{name} must be a mapping of column to per mille, got {type(value).__name__}")
    parts = []
    for k, v in value.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int):
            raise type_error(f"{name} must map column names to integer per mille, got {k!r}: {v!r}")
        # the range (0 to 1000) is the library's to check: its sentence is the one every binding gives
        parts.append(f"{k}:{v}")
    return ",".join(parts).encode()


class Tabla:
    """A dataset of one call: `Tabla("persona.persona", seed=42, unico=["rut", "email"])`.

    seed: an int in [0, 2**64) or a str (as Datoteca). hoy: the reference date.
    campos: the columns, in order (default all). unico: columns made unique (RUT, email,
    phone). nulos: {column: per mille of nulls}. sucio: {column: per mille of dirty values},
    for RUT, name, comuna and phone columns (docs/sucios.md). Other keyword arguments are the
    call's own (edad_min=30). Immutable and thread-safe: `filas` may run on many threads at once.
    """

    __slots__ = ("_t", "call", "columnas", "capacidad", "_enteros")

    def __init__(self, call: str, *, seed: Union[int, str] = 0, hoy: Union[datetime.date, str, None] = None,
                 campos: Optional[Iterable[str]] = None, unico: Optional[Iterable[str]] = None,
                 nulos: Optional[Mapping[str, int]] = None, sucio: Optional[Mapping[str, int]] = None,
                 **kwargs: object) -> None:
        c, args, nargs = lookup_call(call, kwargs)
        keep = []  # cffi buffers must outlive the call
        o = ffi.new("dt_tabla_opciones *")
        o.tamano = ffi.sizeof("dt_tabla_opciones")
        o.llamada = c.index
        if args is not None:
            o.args = args
            o.nargs = nargs
        semilla = check_seed(seed)
        if isinstance(semilla, int):
            o.seed = semilla
        else:
            buf = ffi.new("char[]", semilla)
            keep.append(buf)
            o.seed_texto = buf
            o.seed_texto_len = len(semilla)
        if hoy is not None:
            fecha = check_hoy(hoy)
            o.hoy_anio, o.hoy_mes, o.hoy_dia = fecha.year, fecha.month, fecha.day
        for field, value in (("campos", _lista(campos, "campos")), ("unico", _lista(unico, "unico")),
                             ("nulos", _tasas(nulos, "nulos")), ("sucio", _tasas(sucio, "sucio"))):
            if value is not None:
                buf = ffi.new("char[]", value)
                keep.append(buf)
                setattr(o, field, buf)
        out = ffi.new("dt_tabla **")
        why = ffi.new("char[]", SENTENCE_MAX)
        st = lib.dt_tabla_new(o, out, why, SENTENCE_MAX)
        if st:
            raise_status(st, "Tabla()", why)
        self._t = ffi.gc(out[0], lib.dt_tabla_free)
        self.call = call
        info = ffi.new("dt_columna_info *")
        cols: List[Columna] = []
        for j in range(lib.dt_tabla_columnas(self._t)):
            lib.dt_tabla_columna(self._t, j, info)
            cols.append(Columna(nombre=ffi.string(info.nombre).decode(), tipo_sql=ffi.string(info.tipo_sql).decode(),
                                nulable=bool(info.nulable), unico=bool(info.unico), nulos_por_mil=int(info.nulos_por_mil)))
        self.columnas: List[Columna] = cols
        self.capacidad: int = int(lib.dt_tabla_capacidad(self._t))
        self._enteros = [c["tipo_sql"] in ("integer", "bigint") for c in cols]

    def comprobar_filas(self, n: object, desde: object) -> None:
        """Refuse rows [desde, desde + n) unless both are non-negative ints within the capacity."""
        n = check_int(n, "n", 0, N_MAX)
        desde = check_int(desde, "desde", 0, 2**63 - 1)
        if desde + n > self.capacidad:
            raise InvalidArgumentError(FRASE_CAPACIDAD % (self.call, desde, desde + n, self.capacidad))

    def filas(self, n: int, desde: int = 0) -> List[Dict[str, Any]]:
        """Rows [desde, desde + n) as dicts: None for a null, int for integer columns."""
        self.comprobar_filas(n, desde)
        names = [c["nombre"] for c in self.columnas]
        enteros = self._enteros

        def llenar(hecho: int, k: int, buf: Any, cap: int, length: Any) -> None:
            st = lib.dt_tabla_filas(self._t, desde + hecho, k, buf, cap, length)
            if st:
                raise_status(st, f"{self.call} rows")

        out: List[Dict[str, Any]] = []
        for text in en_trozos(n, llenar):
            for line in text.split("\n"):
                row: Dict[str, Any] = {}
                for name, entero, v in zip(names, enteros, line.split(FIELD_SEP)):
                    row[name] = None if v == NULO else int(v) if entero else v
                out.append(row)
        return out

    def arrow(self, n: int, desde: int = 0, lote: int = 65536, hilos: int = 2) -> "Lotes":
        """Rows [desde, desde + n) as Arrow record batches of `lote` rows, straight from C: an object with
        `__arrow_c_stream__` for pyarrow, polars and DuckDB, and `to_pyarrow()`, `to_pandas()`,
        `to_polars()`, `write_parquet(path)`."""
        from ._arrow import Lotes

        return Lotes(self, n, desde, lote, hilos)

    def __arrow_c_schema__(self) -> object:
        from ._arrow import capsula_schema

        return capsula_schema(self._t)

    def ddl(self, dialecto: Dialecto = "postgresql", nombre: Optional[str] = None) -> str:
        """The CREATE TABLE statement for PostgreSQL or SQLite (default name: the call's last part)."""
        if dialecto not in DIALECTOS:
            raise InvalidArgumentError(f"dialecto must be 'postgresql' or 'sqlite', got {dialecto!r}")
        nombre = self.call.rpartition(".")[2] if nombre is None else nombre
        if not isinstance(nombre, str):
            raise type_error(f"nombre must be a str, got {type(nombre).__name__}")
        buf = ffi.new("char[]", 8192)
        st = lib.dt_tabla_ddl(self._t, DIALECTOS.index(dialecto), nombre.encode(), buf, 8192, ffi.NULL)
        if st:
            raise_status(st, "ddl()", buf)
        texto: str = ffi.string(buf).decode()
        return texto


def tabla(call: str, n: int, *, desde: int = 0, **opciones: Any) -> List[Dict[str, Any]]:
    """Rows [desde, desde + n) of a dataset: `tabla("persona.persona", 1000, seed=42, unico=["rut"])`.
    The options are Tabla's."""
    return Tabla(call, **opciones).filas(n, desde)


def ddl(call: str, dialecto: Dialecto = "postgresql", nombre: Optional[str] = None, **opciones: Any) -> str:
    """The CREATE TABLE of a dataset: `ddl("persona.persona", "sqlite", unico=["rut"])`."""
    return Tabla(call, **opciones).ddl(dialecto, nombre)


def arrow(call: str, n: int, *, desde: int = 0, lote: int = 65536, hilos: int = 2, **opciones: Any) -> "Lotes":
    """Rows of a dataset as Arrow record batches: `pyarrow.table(datoteca.arrow("persona.persona",
    1_000_000, seed=1))`. The options are Tabla's."""
    return Tabla(call, **opciones).arrow(n, desde, lote, hilos)
