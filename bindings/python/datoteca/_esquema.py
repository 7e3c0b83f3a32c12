"""Schemas: several linked tables from one document (docs/esquemas.md).

The document (TOML or JSON text, a file, or a dict that is sent as JSON) is parsed, checked and
generated only in C (`dt_esquema_*`); this module reads the file, converts, calls and converts rows.
"""
from __future__ import annotations

import datetime
import json
import os
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple, TypedDict, Union

from ._comun_gen import DIALECTOS, FIELD_SEP, N_MAX, NULO, SENTENCE_MAX, InvalidArgumentError
from ._lib import check_hoy, check_int, ffi, lib, raise_status, type_error
from ._tabla import Dialecto

if TYPE_CHECKING:  # pragma: no cover
    from ._arrow import LotesEsquema

_TOML, _JSON = lib.DT_ESQUEMA_TOML, lib.DT_ESQUEMA_JSON


class ColumnaEsquema(TypedDict):
    """A schema table's column: name, PostgreSQL type, nullability, uniqueness, key and foreign key."""

    nombre: str
    tipo_sql: str
    nulable: bool
    unico: bool
    clave_primaria: bool
    ref: Optional[str]  # "tabla.columna" of a foreign key, else None


def _documento(documento: Union[str, "os.PathLike[str]", Mapping[str, Any]], formato: Optional[str]) -> Tuple[bytes, int, str]:
    """(bytes, format, name for sentences) of a path, a text or a mapping."""
    if isinstance(documento, Mapping):
        return json.dumps(documento, ensure_ascii=False).encode(), _JSON, "<dict>"
    if isinstance(documento, os.PathLike) or (isinstance(documento, str) and "\n" not in documento
                                               and documento.endswith((".toml", ".json"))):
        ruta = os.fspath(documento)
        with open(ruta, "rb") as f:
            texto = f.read()
        es_json = formato == "json" if formato else ruta.endswith(".json")
        return texto, _JSON if es_json else _TOML, os.path.basename(ruta)
    if isinstance(documento, str):
        return documento.encode(), _JSON if formato == "json" else _TOML, "<texto>"
    raise type_error(f"documento must be a path, a TOML or JSON text or a mapping, got {type(documento).__name__}")


class Esquema:
    """A schema: `Esquema("banco.toml", seed=42)`, or its text, or a dict (sent to C as JSON).

    formato: "toml" or "json" for a text (a path's extension decides otherwise). seed: an int in
    [0, 2**64). hoy: the reference date. Every value depends only on (seed, table, column, row);
    immutable and thread-safe: `filas` may run on many threads at once.
    """

    __slots__ = ("_e", "tablas", "orden", "_columnas", "_fuente")

    def __init__(self, documento: Union[str, "os.PathLike[str]", Mapping[str, Any]], *, seed: int = 0,
                 hoy: Union[datetime.date, str, None] = None, formato: Optional[str] = None) -> None:
        if formato not in (None, "toml", "json"):
            raise InvalidArgumentError(f"formato must be 'toml' or 'json', got {formato!r}")
        texto, fmt, archivo = _documento(documento, formato)
        semilla = check_int(seed, "seed", 0, 2**64 - 1)
        anio = mes = dia = 0
        if hoy is not None:
            fecha = check_hoy(hoy)
            anio, mes, dia = fecha.year, fecha.month, fecha.day
        self._fuente = (texto, fmt, archivo.encode(), semilla, anio, mes, dia)
        self._e = ffi.gc(self._construir(), lib.dt_esquema_free)
        n = lib.dt_esquema_tablas(self._e)
        self.tablas: List[str] = [ffi.string(lib.dt_esquema_tabla(self._e, i)).decode() for i in range(n)]
        self.orden: List[str] = [self.tablas[lib.dt_esquema_orden(self._e, k)] for k in range(n)]
        self._columnas: List[List[ColumnaEsquema]] = []
        info = ffi.new("dt_esquema_columna_info *")
        for i in range(n):
            cols: List[ColumnaEsquema] = []
            for j in range(lib.dt_esquema_columnas(self._e, i)):
                lib.dt_esquema_columna(self._e, i, j, info)
                ref = None
                if info.ref_tabla != ffi.NULL:
                    ref = f"{ffi.string(info.ref_tabla).decode()}.{ffi.string(info.ref_columna).decode()}"
                cols.append(ColumnaEsquema(nombre=ffi.string(info.nombre).decode(), tipo_sql=ffi.string(info.tipo_sql).decode(),
                                           nulable=bool(info.nulable), unico=bool(info.unico),
                                           clave_primaria=bool(info.clave_primaria), ref=ref))
            self._columnas.append(cols)

    def _construir(self) -> Any:
        """A new dt_esquema * from the document, owned by the caller (the same tables and rows each time)."""
        texto, fmt, archivo, semilla, anio, mes, dia = self._fuente
        out = ffi.new("dt_esquema **")
        why = ffi.new("char[]", SENTENCE_MAX)
        st = lib.dt_esquema_new(texto, len(texto), fmt, archivo, semilla, anio, mes, dia, out, why, SENTENCE_MAX)
        if st:
            raise_status(st, "Esquema()", why)
        return out[0]

    def _indice(self, tabla: object) -> int:
        if not isinstance(tabla, str):
            raise type_error(f"tabla must be a str, got {type(tabla).__name__}")
        if tabla not in self.tablas:
            raise InvalidArgumentError(f"tabla: '{tabla}' is not a table of the schema; its tables are {', '.join(self.tablas)}")
        return self.tablas.index(tabla)

    def columnas(self, tabla: str) -> List[ColumnaEsquema]:
        """The columns of a table, in declaration order."""
        return list(self._columnas[self._indice(tabla)])

    def total(self, tabla: str) -> int:
        """How many rows the table has (for a fan-out, the sum of its parents' children)."""
        return int(lib.dt_esquema_tabla_filas(self._e, self._indice(tabla)))

    def filas(self, tabla: str, n: Optional[int] = None, desde: int = 0) -> List[Dict[str, Any]]:
        """Rows [desde, desde + n) of a table (all from desde when n is None) as dicts: None for a null,
        int for integer columns. Any slice equals the same rows of a full run."""
        i = self._indice(tabla)
        total = int(lib.dt_esquema_tabla_filas(self._e, i))
        desde = check_int(desde, "desde", 0, 2**63 - 1)
        n = total - min(desde, total) if n is None else check_int(n, "n", 0, N_MAX)
        cols = self._columnas[i]
        names = [c["nombre"] for c in cols]
        enteros = [c["tipo_sql"] in ("integer", "bigint") for c in cols]

        out: List[Dict[str, Any]] = []
        length = ffi.new("size_t *")
        buf, cap = ffi.NULL, 0
        hecho = 0
        while hecho < n:
            k = min(n - hecho, 1024)
            # the library's size query gives a capacity that always suffices for k rows of this table
            lib.dt_esquema_filas(self._e, i, desde + hecho, k, ffi.NULL, 0, length)
            if int(length[0]) > cap:
                cap = int(length[0])
                buf = ffi.new("char[]", cap)
            st = lib.dt_esquema_filas(self._e, i, desde + hecho, k, buf, cap, length)
            if st:
                raise_status(st, f"{tabla} rows", buf)
            for line in ffi.unpack(buf, length[0] - 1).decode().split("\n"):
                out.append({name: None if v == NULO else int(v) if entero else v
                            for name, entero, v in zip(names, enteros, line.split(FIELD_SEP))})
            hecho += k
        return out

    def comprobar_filas(self, tabla: str, n: object, desde: object) -> Tuple[int, int]:
        """(n, desde) for rows [desde, desde + n) of a table (n None: to its end), refused unless both are
        non-negative ints within its rows."""
        total = self.total(tabla)
        desde = check_int(desde, "desde", 0, 2**63 - 1)
        n = total - min(desde, total) if n is None else check_int(n, "n", 0, 2**63 - 1)
        if desde + n > total:
            raise InvalidArgumentError(f"{tabla}: rows {desde}..{desde + n} are past its {total} rows")
        return n, desde

    def arrow(self, tabla: str, n: Optional[int] = None, desde: int = 0, lote: int = 65536) -> "LotesEsquema":
        """Rows [desde, desde + n) of a table (all from desde when n is None) as Arrow record batches of
        `lote` rows, straight from C: an object with `__arrow_c_stream__` for pyarrow, polars and DuckDB,
        and `to_pyarrow()`, `to_pandas()`, `to_polars()`, `write_parquet(path)`. Text as utf8, integers as
        int64, dates as date32; values equal `filas` and the CLI's CSV."""
        from ._arrow import LotesEsquema

        return LotesEsquema(self, tabla, n, desde, lote)

    def ddl(self, dialecto: Dialecto = "postgresql") -> str:
        """CREATE TABLE statements of every table, in dependency order, with their keys and constraints."""
        if dialecto not in DIALECTOS:
            raise InvalidArgumentError(f"dialecto must be 'postgresql' or 'sqlite', got {dialecto!r}")
        length = ffi.new("size_t *")
        st = lib.dt_esquema_ddl(self._e, DIALECTOS.index(dialecto), ffi.NULL, 0, length)
        buf = ffi.new("char[]", int(length[0]) + 1)
        st = lib.dt_esquema_ddl(self._e, DIALECTOS.index(dialecto), buf, int(length[0]) + 1, length)
        if st:
            raise_status(st, "ddl()", buf)
        texto: str = ffi.string(buf).decode()
        return texto

