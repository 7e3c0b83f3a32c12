"""Proposing masking rules from a sample that is not a CSV file: Arrow data (pyarrow tables and batches,
polars and pandas through the Arrow PyCapsule interface), Parquet files, or rows as dicts. The values
are only converted to text here; counting them and choosing the rules is the C detector's
(dt_detector_*), the same one `datoteca detectar` uses on a CSV, so both propose the same rules for the
same values (docs/enmascarar.md, "Finding the personal data")."""
from __future__ import annotations

import datetime
import os
from typing import Any, Iterable, List, Mapping, Optional, Sequence

from ._comun_gen import InvalidArgumentError
from ._lib import ffi, lib, raise_status, solo_nativo

__all__ = ["proponer_reglas"]


def _texto(v: object) -> Optional[bytes]:
    """A value as the detector reads it: None (a null) stays empty; a date is ISO text, as in a CSV."""
    if v is None:
        return None
    if isinstance(v, bytes):
        return v
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat().encode()
    return str(v).encode("utf-8", "surrogateescape")


class _Detector:
    def __init__(self, columnas: Sequence[str]) -> None:
        nombres = [str(c).encode("utf-8", "surrogateescape") for c in columnas]
        self.n = len(nombres)
        keep = [ffi.new("char[]", c) for c in nombres]
        out = ffi.new("dt_detector **")
        st = lib.dt_detector_new(self.n, ffi.new("const char *[]", keep) if keep else ffi.NULL,
                                 ffi.new("size_t[]", [len(c) for c in nombres]) if keep else ffi.NULL, out)
        if st == lib.DT_ERR_INVALID_ARG:  # the library refuses a name that looks like a value
            raise InvalidArgumentError("proponer_reglas: a column name looks like a value (a number, a RUT, an email, a "
                                       "phone, a date or a name), not a column's name: is the header missing? (the "
                                       "name is not printed)", st)
        if st != 0:
            raise_status(st, "proponer_reglas")
        self._d = ffi.gc(out[0], lib.dt_detector_free)
        self._valores = ffi.new("const char *[]", max(self.n, 1))
        self._largos = ffi.new("size_t[]", max(self.n, 1))

    def fila(self, valores: Sequence[Optional[bytes]]) -> None:
        keep = []
        for j, v in enumerate(valores):
            if v is None:
                self._valores[j] = ffi.NULL
                self._largos[j] = 0
            else:
                b = ffi.new("char[]", v)
                keep.append(b)
                self._valores[j] = b
                self._largos[j] = len(v)
        lib.dt_detector_fila(self._d, self.n, self._valores, self._largos)

    @property
    def filas(self) -> int:
        return int(lib.dt_detector_filas(self._d))

    def reglas(self, origen: str) -> str:
        o = origen.encode("utf-8", "surrogateescape")
        n = ffi.new("size_t *")
        lib.dt_detector_reglas(self._d, o, ffi.NULL, 0, n)
        buf = ffi.new("char[]", n[0] + 1)
        st = lib.dt_detector_reglas(self._d, o, buf, n[0] + 1, n)
        if st != 0:
            raise_status(st, "proponer_reglas")
        return bytes(ffi.buffer(buf, n[0])).decode("utf-8", "surrogateescape")


def _tabla_arrow(datos: Any, filas: int) -> Any:
    """The first `filas` rows of Arrow data as a pyarrow Table, read as Enmascarador reads its input."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]  # Arrow inputs only

    from ._enmascarar import _a_pyarrow

    if not (isinstance(datos, (pa.Table, pa.RecordBatch)) or hasattr(datos, "__arrow_c_stream__")
            or hasattr(datos, "__arrow_c_array__")):
        raise InvalidArgumentError(f"proponer_reglas: datos must be Arrow data (a pyarrow Table or RecordBatch, "
                                   f"or an object with __arrow_c_stream__), a path or rows as dicts, got {type(datos).__name__}", 2)
    return _a_pyarrow(datos).slice(0, filas)


def proponer_reglas(datos: Any, *, filas: int = 1000, origen: Optional[str] = None) -> str:
    """Masking rules for a sample, as the TOML text `datoteca detectar` prints: one rule per column,
    each with the counts of what its non-empty values look like. Review them before masking.

    `datos` is a path to a Parquet (``.parquet``) file, Arrow data (a pyarrow Table or RecordBatch,
    or any object with ``__arrow_c_stream__``/``__arrow_c_array__``, such as a polars or pandas frame),
    or an iterable of dicts (the first one's keys are the columns). Only the first `filas` rows are read
    (1 to 100,000,000). A non-text value is read as its text (a date in ISO form); a null is empty.

    Example::

        reglas = datoteca.proponer_reglas("clientes.parquet")
        print(reglas)   # rut = { regla = "rut" }, nombres = { regla = "persona", ... }, ...
    """
    solo_nativo("proponer_reglas()")
    if isinstance(filas, bool) or not isinstance(filas, int) or not 1 <= filas <= 100_000_000:
        raise InvalidArgumentError(f"proponer_reglas: filas must be a whole number from 1 to 100000000, got {filas!r}", 2)
    if isinstance(datos, (str, os.PathLike)):
        ruta = os.fspath(datos)
        if not ruta.endswith(".parquet"):
            raise InvalidArgumentError(f"proponer_reglas: {ruta} is not a .parquet file; for a CSV use "
                                       f"`datoteca detectar {ruta}`", 2)
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

        archivo = pq.ParquetFile(ruta)
        lotes = archivo.iter_batches(batch_size=min(filas, 65536))
        tomados: List[Any] = []
        n = 0
        for lote in lotes:
            tomados.append(lote)
            n += lote.num_rows
            if n >= filas:
                break
        t = pa.Table.from_batches(tomados, schema=archivo.schema_arrow).slice(0, filas)
        return _desde_tabla(t, origen or ruta)
    if isinstance(datos, Iterable) and not hasattr(datos, "__arrow_c_stream__") and not hasattr(datos, "__arrow_c_array__"):
        return _desde_dicts(datos, filas, origen or "<rows>")
    return _desde_tabla(_tabla_arrow(datos, filas), origen or "<arrow>")


def _desde_tabla(t: Any, origen: str) -> str:
    d = _Detector(t.schema.names)
    columnas = [c.to_pylist() for c in t.columns]
    for i in range(t.num_rows):
        d.fila([_texto(col[i]) for col in columnas])
    return d.reglas(origen)


def _desde_dicts(filas_dicts: Iterable[Mapping[str, object]], filas: int, origen: str) -> str:
    d: Optional[_Detector] = None
    claves: List[str] = []
    for i, fila in enumerate(filas_dicts, start=1):
        if not isinstance(fila, Mapping):
            raise InvalidArgumentError(f"proponer_reglas: row {i} is a {type(fila).__name__}, not a dict", 2)
        if d is None:
            claves = list(fila)
            d = _Detector(claves)
        elif list(fila) != claves:
            raise InvalidArgumentError(f"proponer_reglas: row {i} has other keys than row 1", 2)
        d.fila([_texto(fila[k]) for k in claves])
        if d.filas >= filas:
            break
    if d is None:
        raise InvalidArgumentError("proponer_reglas: datos has no row: the first row's keys name the columns", 2)
    return d.reglas(origen)
