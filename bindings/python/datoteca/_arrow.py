"""Datasets as Arrow record batches, straight from C (docs/scale.md).

The C library fills Arrow C Data Interface structures; this module only wraps them in the PyCapsules
of the Arrow PyCapsule interface (`__arrow_c_stream__`, `__arrow_c_schema__`), so pyarrow, polars,
DuckDB and any other consumer read the columns without a Python object per value. pyarrow is
optional: it is imported only by the conveniences that return its objects.
"""
from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Optional

from ._comun_gen import InvalidArgumentError, OutOfMemoryError
from ._lib import ffi, lib, solo_nativo, type_error

if TYPE_CHECKING:  # pragma: no cover
    from ._esquema import Esquema
    from ._tabla import Tabla

_STREAM = b"arrow_array_stream"
_SCHEMA = b"arrow_schema"
_LOTE_MAX = 1 << 20

_new = ctypes.pythonapi.PyCapsule_New
_new.restype = ctypes.py_object
_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
# The destructor gets the capsule as a raw pointer: turning a dying object into a py_object would
# take a new reference to it and free it twice.
_get = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", ctypes.pythonapi))
_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


# A capsule's destructor: release the structure if the consumer did not take it (a consumer that
# imports it moves it out and leaves release NULL), then free it. Kept referenced for the process.
def _liberar_stream(capsula: int) -> None:
    lib.dt_arrow_stream_free(ffi.cast("struct ArrowArrayStream *", _get(capsula, _STREAM)))


def _liberar_schema(capsula: int) -> None:
    lib.dt_arrow_schema_free(ffi.cast("struct ArrowSchema *", _get(capsula, _SCHEMA)))


_destruir_stream = _DESTRUCTOR(_liberar_stream)
_destruir_schema = _DESTRUCTOR(_liberar_schema)


def capsula_de_schema(ptr: Any) -> object:
    """The PyCapsule of a malloc'd ArrowSchema from the library (dt_*_arrow_schema_new), which the
    capsule frees; NULL (the library's failure) is refused as out of memory."""
    if ptr == ffi.NULL:
        raise OutOfMemoryError("datoteca: no memory for an Arrow schema")
    return _new(int(ffi.cast("uintptr_t", ptr)), _SCHEMA, ctypes.cast(_destruir_schema, ctypes.c_void_p))


def capsula_de_stream(ptr: Any) -> object:
    """The PyCapsule of a malloc'd ArrowArrayStream from the library (dt_*_arrow_stream_new)."""
    if ptr == ffi.NULL:
        raise OutOfMemoryError("datoteca: no memory for an Arrow stream")
    return _new(int(ffi.cast("uintptr_t", ptr)), _STREAM, ctypes.cast(_destruir_stream, ctypes.c_void_p))


def capsula_schema(t: Any) -> object:
    return capsula_de_schema(lib.dt_tabla_arrow_schema_new(t))


def capsula_stream(t: Any, desde: int, n: int, lote: int, hilos: int) -> object:
    return capsula_de_stream(lib.dt_tabla_arrow_stream_new(t, desde, n, lote, hilos))


def comprobar_lote(lote: object) -> int:
    if isinstance(lote, bool) or not isinstance(lote, int):
        raise type_error(f"lote must be an int, got {type(lote).__name__}")
    if not 1 <= lote <= _LOTE_MAX:
        raise InvalidArgumentError(f"lote must be from 1 to {_LOTE_MAX} rows, got {lote}")
    return lote


class _Flujo:
    """What every stream of record batches offers besides `__arrow_c_stream__`."""

    __slots__ = ()

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:  # pragma: no cover
        raise NotImplementedError

    def to_pyarrow(self) -> Any:
        """A pyarrow.Table (pip install 'datoteca[arrow]')."""
        pa = _pyarrow()
        return pa.table(self)

    def to_pandas(self) -> Any:
        return self.to_pyarrow().to_pandas()

    def to_polars(self) -> Any:
        try:
            import polars as pl
        except ImportError:
            raise ImportError("to_polars() needs polars: pip install polars") from None
        return pl.DataFrame(self)

    def write_parquet(self, path: str, **opciones: Any) -> None:
        """Stream the rows to a Parquet file batch by batch (memory bounded by one batch)."""
        pa = _pyarrow()
        import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

        reader = pa.RecordBatchReader.from_stream(self)
        with pq.ParquetWriter(path, reader.schema, **opciones) as w:
            for batch in reader:
                w.write_batch(batch)


class Lotes(_Flujo):
    """Rows [desde, desde + n) of a dataset as a stream of Arrow record batches of `lote` rows:
    `pyarrow.table(t.arrow(1_000_000))`, `polars.DataFrame(t.arrow(n))`, DuckDB's `FROM t.arrow(n)`.
    Each consumer call makes a new stream of the same rows. `hilos` (1 or 2) threads fill each batch:
    the same bytes either way; 2 (the default) is about twice as fast on two free cores."""

    __slots__ = ("tabla", "n", "desde", "lote", "hilos")

    def __init__(self, tabla: "Tabla", n: int, desde: int = 0, lote: int = 65536, hilos: int = 2) -> None:
        solo_nativo("Arrow (Tabla.arrow, datoteca.arrow)")
        comprobar_lote(lote)
        if isinstance(hilos, bool) or not isinstance(hilos, int):
            raise type_error(f"hilos must be an int, got {type(hilos).__name__}")
        if hilos not in (1, 2):
            raise InvalidArgumentError(f"hilos must be 1 or 2, got {hilos}")
        tabla.comprobar_filas(n, desde)
        self.tabla, self.n, self.desde, self.lote, self.hilos = tabla, n, desde, lote, hilos

    def __arrow_c_schema__(self) -> object:
        return capsula_schema(self.tabla._t)

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:
        # requested_schema is a request, not a demand: the batches keep their own types
        return capsula_stream(self.tabla._t, self.desde, self.n, self.lote, self.hilos)


class LotesEsquema(_Flujo):
    """Rows [desde, desde + n) of one table of a schema as a stream of Arrow record batches of `lote`
    rows, with the same conveniences as Lotes. The C stream borrows its schema, and a consumer may keep
    a stream longer than any Python object: so each stream gets a schema of its own, built again from
    the same document and seed (the same rows; milliseconds, plus 8 bytes per row of a fan-out's
    parent), which the stream frees when the consumer releases it. One thread fills each batch."""

    __slots__ = ("esquema", "tabla", "n", "desde", "lote")

    def __init__(self, esquema: "Esquema", tabla: str, n: Optional[int] = None, desde: int = 0, lote: int = 65536) -> None:
        solo_nativo("Arrow (Esquema.arrow)")
        comprobar_lote(lote)
        self.n, self.desde = esquema.comprobar_filas(tabla, n, desde)
        self.esquema, self.tabla, self.lote = esquema, tabla, lote

    def __arrow_c_schema__(self) -> object:
        return capsula_de_schema(lib.dt_esquema_arrow_schema_new(self.esquema._e, self.esquema.tablas.index(self.tabla)))

    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object:
        # requested_schema is a request, not a demand: the batches keep their own types
        propio = self.esquema._construir()
        ptr = lib.dt_esquema_arrow_stream_new(propio, self.esquema.tablas.index(self.tabla), self.desde, self.n, self.lote, 1)
        if ptr == ffi.NULL:
            lib.dt_esquema_free(propio)  # not taken on failure
        return capsula_de_stream(ptr)


def _pyarrow() -> Any:
    try:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise ImportError("this needs pyarrow: pip install 'datoteca[arrow]'") from None
    return pa
