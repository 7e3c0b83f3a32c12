"""Loading libdatoteca, turning status codes into exceptions, and the call registry.

Generation happens only in C. This module converts arguments, calls, converts results.
"""
from __future__ import annotations

import datetime
import os
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, cast

from ._datoteca_ffi import ffi as ffi  # re-exported for the package
from ._llamadas import RECORD_MAKERS

EXPECTED_MAJOR = 2

_here = os.path.dirname(os.path.abspath(__file__))


def _load() -> Any:
    path = os.environ.get("DATOTECA_LIBRARY")
    if not path:
        for name in ("libdatoteca.so.2", "libdatoteca.so", "libdatoteca.dylib", "datoteca.dll"):
            candidate = os.path.join(_here, name)
            if os.path.exists(candidate):
                path = candidate
                break
    if not path:
        raise ImportError(
            "datoteca: libdatoteca was not found next to the package; reinstall datoteca "
            "or set DATOTECA_LIBRARY to the path of a libdatoteca shared library"
        )
    lib = ffi.dlopen(path)
    major = lib.dt_version_number() // 10000
    if major != EXPECTED_MAJOR:
        raise ImportError(
            f"datoteca: {path} is version {ffi.string(lib.dt_version()).decode()}, "
            f"this binding needs major version {EXPECTED_MAJOR}"
        )
    return lib


lib = _load()


class DatotecaError(Exception):
    """Base class of every error raised by datoteca."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class InvalidArgumentError(DatotecaError, ValueError):
    """An argument is outside its documented range (DT_ERR_INVALID_ARG)."""


class InvalidStateError(DatotecaError, ValueError):
    """Bytes given to restore_state are not a datoteca state (DT_ERR_INVALID_STATE)."""


class InvalidRutError(DatotecaError, ValueError):
    """The text is not a valid RUT (DT_ERR_INVALID_RUT)."""


class InvalidPatenteError(DatotecaError, ValueError):
    """The text is not a valid Chilean plate (DT_ERR_INVALID_PATENTE)."""


class ClosedError(DatotecaError, ValueError):
    """The Datoteca was closed. (The binding passes no other pointer that can be NULL, so
    DT_ERR_NULL from a generating call can only mean this.)"""


_ERRORS = {
    lib.DT_ERR_INVALID_ARG: InvalidArgumentError,
    lib.DT_ERR_INVALID_STATE: InvalidStateError,
    lib.DT_ERR_INVALID_RUT: InvalidRutError,
    lib.DT_ERR_INVALID_PATENTE: InvalidPatenteError,
}


def raise_status(status: int, what: str) -> None:
    """Raise the exception for a non-zero C status, with the C message."""
    if status == lib.DT_ERR_NULL:
        raise ClosedError(f"{what}: this Datoteca was closed", status)
    message = ffi.string(lib.dt_status_str(status)).decode()
    raise _ERRORS.get(status, DatotecaError)(f"{what}: {message}", status)


class Param:
    __slots__ = ("name", "default", "min", "max", "choices")

    def __init__(self, info: Any) -> None:
        self.name: str = ffi.string(info.name).decode()
        self.default: int = getattr(info, "def")  # "def" is a Python keyword
        self.min: int = info.min
        self.max: int = info.max
        self.choices: Optional[List[str]] = None
        if info.choices != ffi.NULL:
            self.choices = [ffi.string(info.choices[i]).decode() for i in range(self.max - self.min + 1)]


class Call:
    """One registered C call: its index, kind, parameters and record fields."""

    __slots__ = ("index", "name", "kind", "params", "fields", "make", "converted")

    def __init__(self, index: int) -> None:
        info = lib.dt_call_at(index)
        self.index = index
        self.name: str = ffi.string(info.name).decode()
        self.kind: int = info.kind
        self.params: Tuple[Param, ...] = tuple(Param(info.params[i]) for i in range(info.nparams))
        self.fields: Tuple[str, ...] = tuple(ffi.string(info.fields[i]).decode() for i in range(info.nfields))
        self.make: Any = RECORD_MAKERS[self.name] if self.fields else None
        self.converted: Dict[Any, Any] = {}  # (arguments, their types) -> C array, bounded


CALLS: Dict[str, Call] = {}
for _i in range(lib.dt_call_count()):
    _c = Call(_i)
    CALLS[_c.name] = _c

KIND_TEXT = lib.DT_KIND_TEXT
KIND_INT = lib.DT_KIND_INT
KIND_RECORD = lib.DT_KIND_RECORD
FIELD_SEP = "\x1f"
MAX_TEXT = lib.DT_MAX_TEXT
CHUNK = 2048  # values per crossing into C in bulk: one buffer of CHUNK * MAX_TEXT bytes


def en_trozos(n: int, llenar: Callable[[int, int, Any, int, Any], None]) -> Iterator[str]:
    """The text of n values, CHUNK at a time, through one reused buffer: llenar(hecho, k, buf, cap,
    length) writes values [hecho, hecho + k) as lines into buf (raising if C refuses); each chunk's text
    is yielded without its final newline."""
    if n == 0:
        return
    chunk = min(n, CHUNK)
    cap = chunk * MAX_TEXT + 1
    buf = ffi.new("char[]", cap)
    length = ffi.new("size_t *")
    hecho = 0
    while hecho < n:
        k = min(n - hecho, chunk)
        llenar(hecho, k, buf, cap, length)
        yield ffi.unpack(buf, length[0] - 1).decode()
        hecho += k


_CONVERTED_MAX = 256
ARG_DEFAULT = -(2**63)  # DT_ARG_DEFAULT: the parameter takes its default, in C
_I64_MAX = 2**63 - 1


def explain(call: Call, args: Any, nargs: int) -> str:
    """The library's sentence for arguments it refuses (dt_call_check)."""
    buf = ffi.new("char[]", 512)
    lib.dt_call_check(call.index, ffi.NULL if args is None else args, nargs, buf, 512, ffi.NULL)
    return cast(str, ffi.string(buf).decode())


def convert_args(call: Call, values: Sequence[object]) -> Optional[Any]:
    """Python arguments (None = absent, a choice name or an int) to a C int64_t array. Wrong
    types raise TypeError and unknown choice names InvalidArgumentError here; every range and
    cross-parameter check is the library's. Arrays of argument tuples seen before are reused
    (the C side only reads them)."""
    # The key carries the types: True == 1 and 1.0 == 1 must not hit an int's entry.
    key = (tuple(values), tuple(map(type, values)))
    try:
        return call.converted[key]
    except (KeyError, TypeError):  # TypeError: an unhashable argument, refused below
        pass
    array = _convert_args(call, values)
    if len(call.converted) < _CONVERTED_MAX and all(t in (int, str, type(None)) for t in key[1]):
        call.converted[key] = array
    return array


def _convert_args(call: Call, values: Sequence[object]) -> Optional[Any]:
    if not call.params:
        return None
    out: List[int] = []
    oversize = None
    for param, value in zip(call.params, values):
        if value is None:
            out.append(ARG_DEFAULT)
            continue
        if param.choices is not None:
            if isinstance(value, str) and value in param.choices:
                out.append(param.min + param.choices.index(value))
                continue
            allowed = ", ".join(repr(c) for c in param.choices)
            message = f"{call.name}: {param.name} must be one of {allowed} or None, got "
            if isinstance(value, str):
                raise InvalidArgumentError(message + repr(value), lib.DT_ERR_INVALID_ARG)
            raise TypeError(message + type(value).__name__)
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{call.name}: {param.name} must be an int, got {type(value).__name__}")
        if not ARG_DEFAULT < value <= _I64_MAX:
            # Outside int64 (or the DT_ARG_DEFAULT value itself): the library explains the nearest
            # value it can see, and the sentence then names the value that was given.
            oversize = oversize or (len(out), value)
            value = _I64_MAX if value > 0 else ARG_DEFAULT + 1
        out.append(value)
    array = ffi.new("int64_t[]", out)
    if oversize is not None:
        index, given = oversize
        message = explain(call, array, len(out))
        seen = f"got {out[index]}"
        if message.endswith(seen):
            message = message[: -len(seen)] + f"got {given}"
        raise InvalidArgumentError(message, lib.DT_ERR_INVALID_ARG)
    return array


def check_seed(seed: object) -> "int | bytes":
    """A seed as every constructor takes it: an int in [0, 2**64), or a str as its UTF-8 bytes (a lone
    surrogate has no UTF-8 form and is refused, so a text seed is the same in every language)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise TypeError(f"seed must be an int in [0, 2**64) or a str, got {type(seed).__name__}")
    if isinstance(seed, int):
        if not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an int in [0, 2**64) or a str, got {seed}")
        return seed
    try:
        return seed.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"seed must be valid Unicode text, got a lone surrogate at index {e.start}") from None


def check_hoy(hoy: object) -> datetime.date:
    """A reference date: a datetime.date or 'YYYY-MM-DD'."""
    if isinstance(hoy, str):
        try:
            hoy = datetime.date.fromisoformat(hoy)
        except ValueError:
            raise ValueError(f"hoy must be a date or 'YYYY-MM-DD', got {hoy!r}") from None
    if not isinstance(hoy, datetime.date):
        raise TypeError(f"hoy must be a datetime.date or 'YYYY-MM-DD', got {type(hoy).__name__}")
    return hoy


def lookup_call(name: object, kwargs: Dict[str, object]) -> Tuple[Call, Optional[Any], int]:
    """A call by name and its keyword arguments as (call, C argument array or None, count): unknown
    names and arguments are refused here; every value is checked by the library."""
    if not isinstance(name, str):
        raise TypeError(f"call must be a str, got {type(name).__name__}")
    call = CALLS.get(name)
    if call is None:
        raise ValueError(f"unknown call {name!r}; see datoteca.calls()")
    names = [p.name for p in call.params]
    for key in kwargs:
        if key not in names:
            raise TypeError(f"{name}() got an unexpected argument {key!r}; it takes {names}")
    values = [kwargs.get(n) for n in names]
    if all(v is None for v in values):
        return call, None, 0
    return call, convert_args(call, values), len(call.params)
