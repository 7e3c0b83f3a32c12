"""datoteca: deterministic, realistic Chilean test data.

>>> from datoteca import Datoteca
>>> d = Datoteca(seed=42)
>>> d.rut()
'13.354.725-8'

Same seed and same sequence of calls give the same data in C, Python and Node, on any
machine, until a new major version. Generation lives in the C library; this package
converts arguments, calls it and converts results.
"""
from __future__ import annotations

import datetime
import importlib.metadata
from typing import TYPE_CHECKING, Any, Dict, List, TypedDict, Union, cast

from . import _comun_gen, _llamadas_gen, _tipos_gen, _utilidades_gen
from ._arrow import Lotes, LotesEsquema
from ._comun_gen import *  # noqa: F403 - the constants and error classes, generated from spec/
from ._comun_gen import FIELD_SEP, MAX_TEXT, N_MAX, DatotecaError, InvalidArgumentError, InvalidStateError
from ._lib import (
    BACKEND,
    CALLS,
    KIND_INT,
    KIND_RECORD,
    Call,
    check_hoy,
    check_int,
    check_seed,
    convert_args,
    en_trozos,
    ffi,
    lib,
    lookup_call,
    raise_status,
    type_error,
    utf8,
)
from ._llamadas_gen import *  # noqa: F403 - the namespaces, generated from spec/
from ._llamadas_gen import Llamadas
from ._detector import proponer_reglas
from ._inferir import Documento, inferir
from ._enmascarar import Enmascarador
from ._riesgo import riesgo
from ._esquema import ColumnaEsquema, Esquema
from ._tabla import Columna, Dialecto, Tabla, arrow, ddl, tabla
from ._tipos_gen import *  # noqa: F403 - the choice and record types, generated from spec/
from ._utilidades_gen import *  # noqa: F403 - validar_rut, formatear_rut, …, generated from spec/

try:  # the installed distribution's version, which the build read from datoteca.h
    __version__ = importlib.metadata.version("datoteca")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
    __version__ = ffi.string(lib.dt_version()).decode()

class TableInfo(TypedDict):
    """One reference table: its name, its number of entries and the digest of its content."""

    name: str
    rows: int
    digest: str


# What this file defines, then what the generated modules define (each lists its own names once).
__all__ = [
    "Datoteca",
    "backend",
    "version",
    "data_version",
    "calls",
    "tables",
    "TableInfo",
    "Tabla",
    "Esquema",
    "Enmascarador",
    "ColumnaEsquema",
    "Columna",
    "Dialecto",
    "tabla",
    "ddl",
    "arrow",
    "Lotes",
    "LotesEsquema",
    "proponer_reglas",
    "riesgo",
    "inferir",
    "Documento",
]
__all__ += _comun_gen.__all__
__all__ += _llamadas_gen.__all__
__all__ += _tipos_gen.__all__
__all__ += _utilidades_gen.__all__

_dt_call = lib.dt_call
_dt_call_many = lib.dt_call_many
_string = ffi.string
_NULL = ffi.NULL
Seed = Union[int, str]
Value = Union[str, int, Dict[str, Any]]


def backend() -> str:
    """Which build of the C core this process runs on: "native" (libdatoteca through CFFI) or "wasm"
    (datoteca.wasm through wasmtime); DATOTECA_BACKEND=native or wasm forces one (docs/wasm.md)."""
    return BACKEND


def version() -> str:
    """The loaded C library's version, e.g. "1.0.0"."""
    return cast(str, ffi.string(lib.dt_version()).decode())


def data_version() -> int:
    """The data version: it changes whenever the same seed and calls would give other data."""
    return int(lib.dt_data_version())


def calls() -> List[str]:
    """Every registered call name ("rut", "persona.nombre", …), usable with Datoteca.call/many."""
    return list(CALLS)


def tables() -> List[TableInfo]:
    """The reference tables the data is drawn from, in their fixed order, each with the
    digest of its whole content (16 hex digits): any change to a table changes its digest.

    >>> tables()[3]["name"], tables()[3]["rows"]
    ('comunas', 346)
    """
    out: List[TableInfo] = []
    info = ffi.new("dt_referencia_info *")
    for i in range(lib.dt_referencia_count()):
        st = lib.dt_referencia_at(i, info)
        if st != 0:
            raise_status(st, "tables()")
        out.append({"name": ffi.string(info.name).decode(), "rows": int(info.rows), "digest": f"{info.digest:016x}"})
    return out


class Datoteca(Llamadas):
    """A generator with one random stream. Not thread-safe: use one per thread.

    seed: an int in [0, 2**64) or a str (hashed with FNV-1a 64, as in C).
    hoy: the reference date for ages (a datetime.date or "YYYY-MM-DD"); default 2026-01-01.
    """

    __slots__ = ("_g", "_buf", "__weakref__")

    def __init__(self, seed: Seed = 0, *, hoy: Union[datetime.date, str, None] = None) -> None:
        out = ffi.new("dt_gen **")
        semilla = check_seed(seed)
        if isinstance(semilla, int):
            st = lib.dt_new(semilla, out)
        else:
            st = lib.dt_new_str(semilla, len(semilla), out)
        if st:
            raise_status(st, "Datoteca()")
        self._init(out[0])
        if hoy is not None:
            self._set_hoy(hoy)

    def _init(self, g: Any) -> None:
        self._g = ffi.gc(g, lib.dt_free)
        self._buf = ffi.new("char[]", MAX_TEXT)
        self._init_llamadas()

    def _set_hoy(self, hoy: Union[datetime.date, str]) -> None:
        fecha = check_hoy(hoy)
        st = lib.dt_set_hoy(self._g, fecha.year, fecha.month, fecha.day)
        if st:
            raise_status(st, "hoy")

    def close(self) -> None:
        """Free the C instance now instead of at garbage collection. Later calls raise
        ClosedError; closing twice is a no-op. Also `with Datoteca(seed=1) as d: ...`."""
        if self._g != _NULL:
            ffi.release(self._g)
            self._g = _NULL

    def __enter__(self) -> "Datoteca":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def hoy(self) -> datetime.date:
        """The reference date used for ages."""
        y = ffi.new("int32_t *")
        m = ffi.new("int32_t *")
        d = ffi.new("int32_t *")
        st = lib.dt_get_hoy(self._g, y, m, d)
        if st:
            raise_status(st, "hoy")
        return datetime.date(y[0], m[0], d[0])

    # ---- the stream -------------------------------------------------------

    def next_u32(self) -> int:
        """The next 32-bit value of the stream (one draw)."""
        out = ffi.new("uint32_t *")
        st = lib.dt_next_u32(self._g, out)
        if st:
            raise_status(st, "next_u32()")
        return int(out[0])

    def integer(self, lo: int, hi: int) -> int:
        """An unbiased integer in [lo, hi] (64-bit signed bounds)."""
        check_int(lo, "lo", -(2**63), 2**63 - 1)
        check_int(hi, "hi", -(2**63), 2**63 - 1)
        if lo > hi:
            raise InvalidArgumentError(f"lo must not exceed hi, got lo={lo}, hi={hi}")
        out = ffi.new("int64_t *")
        st = lib.dt_range(self._g, lo, hi, out)
        if st:
            raise_status(st, "integer()")
        return int(out[0])

    def save_state(self) -> bytes:
        """The complete state (24 bytes); restore_state continues exactly from here."""
        buf = ffi.new("uint8_t[]", lib.DT_STATE_SIZE)
        st = lib.dt_state_save(self._g, buf, lib.DT_STATE_SIZE, ffi.NULL)
        if st:
            raise_status(st, "save_state()")
        return bytes(ffi.buffer(buf))

    def restore_state(self, state: bytes) -> None:
        """Continue from a state made by save_state (in any language)."""
        if not isinstance(state, (bytes, bytearray, memoryview)):
            raise type_error(f"state must be bytes, got {type(state).__name__}")
        data = bytes(state)
        st = lib.dt_state_restore(self._g, data, len(data))
        if st:
            raise_status(st, "state")

    def derive(self, label: str) -> "Datoteca":
        """An independent child generator for `label`; takes two draws from this stream."""
        if not isinstance(label, str):
            raise type_error(f"label must be a str, got {type(label).__name__}")
        data = utf8(label, "label")
        out = ffi.new("dt_gen **")
        st = lib.dt_derive(self._g, data, len(data), out)
        if st:
            raise_status(st, "derive()")
        child = Datoteca.__new__(Datoteca)
        child._init(out[0])
        return child

    # ---- calls ------------------------------------------------------------

    # The hot path: one crossing, the text read up to its NUL, no per-call allocation.
    def _run(self, call: Call, args: Any, nargs: int) -> Value:
        st = _dt_call(self._g, call.index, _NULL if args is None else args, nargs, self._buf, MAX_TEXT, _NULL)
        if st:
            raise_status(st, call.name, self._buf)
        text: str = _string(self._buf).decode()
        kind = call.kind
        if kind == KIND_RECORD:
            record: Dict[str, Any] = call.make(text)
            return record
        if kind == KIND_INT:
            return int(text)
        return text

    def _call(self, name: str, *values: object) -> Value:
        call = CALLS[name]
        if values.count(None) != len(values):
            return self._run(call, convert_args(call, values), len(call.params))
        # Every argument left out (the usual case): _run inlined, one crossing and one frame less.
        st = _dt_call(self._g, call.index, _NULL, 0, self._buf, MAX_TEXT, _NULL)
        if st:
            raise_status(st, call.name, self._buf)
        kind = call.kind
        if kind == KIND_RECORD:
            record: Dict[str, Any] = call.make(_string(self._buf).decode())
            return record
        if kind == KIND_INT:
            return int(_string(self._buf))
        text: str = _string(self._buf).decode()
        return text

    def _call_any(self, name: str, **kwargs: object) -> Value:
        """Run any registered call by name: d.call("persona.nombre", sexo="F")."""
        call, args, nargs = lookup_call(name, kwargs)
        return self._run(call, args, nargs)

    def _many_any(self, name: str, n: int, **kwargs: object) -> List[Any]:
        """n values of one call, crossing into C once per 2,048 values; identical to n
        single calls in the same order: d.many("persona.persona", 1000)."""
        call, args, nargs = lookup_call(name, kwargs)
        check_int(n, "n", 0, N_MAX)
        cargs = args if args is not None else ffi.NULL

        def llenar(hecho: int, k: int, buf: Any, cap: int, length: Any) -> None:
            st = _dt_call_many(self._g, call.index, cargs, nargs, k, buf, cap, length)
            if st:
                raise_status(st, call.name, buf)

        out: List[Any] = []
        for text in en_trozos(n, llenar):
            if call.kind == KIND_RECORD:
                # one split for every field of every record, one generated loop building the dicts
                records = call.make_list(text.replace("\n", FIELD_SEP))
                if not out:
                    out = records
                else:
                    out += records
            elif call.kind == KIND_INT:
                out.extend(map(int, text.split("\n")))
            else:
                out.extend(text.split("\n"))
        return out


    # Type checkers see the generated overloads (the value's type by call name); Python runs these.
    if TYPE_CHECKING:  # pragma: no cover
        call = Llamadas._call_tipado
        many = Llamadas._many_tipado
    else:
        call = _call_any
        many = _many_any
