"""Loading libdatoteca, turning status codes into exceptions, and the call and utility registries.

Generation happens only in C, and so does every check of an argument's value: this module converts
arguments (refusing a wrong type), calls, converts results, and raises the library's own sentence.
The constants, error classes and utilities are generated from spec/ (_comun_gen, _utilidades_gen).
"""
from __future__ import annotations

import datetime
import os
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, cast

from ._comun_gen import (
    ABI_MAJOR,
    CHUNK,
    ERRORS,
    FIELD_SEP,
    FRASE_UNKNOWN_CALL,
    HOY_ANIO_MAX,
    HOY_ANIO_MIN,
    KINDS,
    MAX_TEXT,
    SENTENCE_MAX,
    TYPE_ERROR,
    ClosedError,
    DatotecaError,
    InvalidArgumentError,
    UnknownCallError,
)
from ._llamadas_gen import RECORD_LIST_MAKERS, RECORD_MAKERS

_here = os.path.dirname(os.path.abspath(__file__))


def _load_native() -> Tuple[Any, Any]:
    """(ffi, lib) of the native libdatoteca through CFFI. cffi is imported only here: the py3-none-any
    wheel (the WebAssembly build) does not depend on it."""
    try:
        from ._datoteca_ffi import ffi
    except ImportError:  # _cffi_backend missing: the pure wheel, or a broken install
        raise ImportError("datoteca: the native build needs the cffi package (pip install cffi)") from None

    path = os.environ.get("DATOTECA_LIBRARY")
    if not path:
        for name in (f"libdatoteca.so.{ABI_MAJOR}", "libdatoteca.so", "libdatoteca.dylib", "datoteca.dll"):
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
    if major != ABI_MAJOR:
        raise ImportError(
            f"datoteca: {path} is version {ffi.string(lib.dt_version()).decode()}, "
            f"this binding needs major version {ABI_MAJOR}"
        )
    return ffi, lib


def _load_wasm() -> Tuple[Any, Any]:
    """(ffi, lib) of build-wasm/datoteca.wasm through wasmtime (_wasm.py: the same functions over the
    module's memory): DATOTECA_WASM, else the copy next to the package, else a source checkout's."""
    path = os.environ.get("DATOTECA_WASM")
    if not path:
        for candidate in (os.path.join(_here, "datoteca.wasm"),
                          os.path.join(_here, "..", "..", "..", "build-wasm", "datoteca.wasm")):
            if os.path.exists(candidate):
                path = os.path.normpath(candidate)
                break
    if not path:
        raise ImportError("datoteca: datoteca.wasm was not found next to the package; reinstall datoteca "
                          "or set DATOTECA_WASM to the path of a datoteca.wasm (make wasm builds one)")
    from ._wasm import cargar

    ffi, lib = cargar(path)
    major = lib.dt_version_number() // 10000
    if major != ABI_MAJOR:
        raise ImportError(f"datoteca: {path} is version {ffi.string(lib.dt_version()).decode()}, "
                          f"this binding needs major version {ABI_MAJOR}")
    return ffi, lib


def _load() -> Tuple[Any, Any, str]:
    """The build this process runs on, chosen once: the native library when it loads, else the
    WebAssembly build; DATOTECA_BACKEND=native or wasm forces one (docs/wasm.md)."""
    want = os.environ.get("DATOTECA_BACKEND", "")
    if want not in ("", "native", "wasm"):
        raise ImportError(f"datoteca: DATOTECA_BACKEND must be 'native' or 'wasm', got {want!r}")
    native: Optional[BaseException] = None
    if want != "wasm":
        try:
            return (*_load_native(), "native")
        except (ImportError, OSError) as e:
            if want == "native":
                raise ImportError(f"datoteca: DATOTECA_BACKEND=native, but the native library does not load ({e})") from e
            native = e
    try:
        return (*_load_wasm(), "wasm")
    except (ImportError, OSError) as e:
        why = f"the native library does not load ({native}), and " if native is not None else ""
        raise ImportError(f"datoteca: {why}the WebAssembly build does not load ({e})") from e


ffi, lib, BACKEND = _load()  # ffi is re-exported for the package


def solo_nativo(que: str) -> None:
    """Refuse, with one sentence, something the WebAssembly build has not (Arrow, masking, …)."""
    if BACKEND == "wasm":
        from ._wasm import solo_nativo as refusal

        raise refusal(que)

KIND_TEXT, KIND_INT, KIND_RECORD, KIND_VALIDAR = (KINDS.index(k) for k in ("texto", "entero", "registro", "validar"))


def error(status: int, message: str) -> DatotecaError:
    """The exception for a non-zero status, with the sentence the library wrote (or its status text)."""
    return ERRORS.get(status, DatotecaError)(message, status)


def raise_status(status: int, what: str, sentence: Any = None) -> None:
    """Raise the exception for a non-zero C status: the library's sentence when it wrote one (a cffi
    char buffer), else `what: <the status text>`."""
    if status == lib.DT_ERR_NULL:
        raise ClosedError(f"{what}: this Datoteca was closed", status)
    text = ffi.string(sentence).decode() if sentence is not None else ""
    raise error(status, text or f"{what}: {ffi.string(lib.dt_status_str(status)).decode()}")


def type_error(message: str) -> DatotecaError:
    """A wrong argument type, found while converting (the library never sees it)."""
    return TYPE_ERROR(message, lib.DT_ERR_INVALID_ARG)


class Param:
    __slots__ = ("index", "name", "default", "min", "max", "choices")

    def __init__(self, info: Any, index: int) -> None:
        self.index = index
        self.name: str = ffi.string(info.name).decode()
        self.default: int = getattr(info, "def")  # "def" is a Python keyword
        self.min: int = info.min
        self.max: int = info.max
        self.choices: Optional[Dict[str, int]] = None
        if info.choices != ffi.NULL:
            self.choices = {ffi.string(info.choices[i]).decode(): self.min + i for i in range(self.max - self.min + 1)}


class Call:
    """One registered C call or utility: its index, kind, parameters and record fields."""

    __slots__ = ("index", "name", "kind", "params", "fields", "make", "make_list", "converted", "info")

    def __init__(self, index: int, info: Any) -> None:
        self.index = index
        self.info = info
        self.name: str = ffi.string(info.name).decode()
        self.kind: int = info.kind
        self.params: Tuple[Param, ...] = tuple(Param(info.params[i], i) for i in range(info.nparams))
        self.fields: Tuple[str, ...] = tuple(ffi.string(info.fields[i]).decode() for i in range(info.nfields))
        # a record's text -> its dict; a chunk's text (FIELD_SEP between every two fields) -> dicts
        self.make: Any = RECORD_MAKERS.get(self.name) if self.fields else None
        self.make_list: Any = RECORD_LIST_MAKERS.get(self.name) if self.fields else None
        self.converted: Dict[Any, Any] = {}  # (arguments, their types) -> C array, bounded


CALLS: Dict[str, Call] = {c.name: c for c in (Call(i, lib.dt_call_at(i)) for i in range(lib.dt_call_count()))}
UTILS: Dict[str, Call] = {c.name: c for c in (Call(i, lib.dt_util_at(i)) for i in range(lib.dt_util_count()))}


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


def convert_args(call: Call, values: Sequence[object]) -> Optional[Any]:
    """Python arguments (None = absent, a choice name or an int) to a C int64_t array. Wrong types
    raise ArgumentTypeError here; every value is the library's to check, and a choice name it does not
    know is refused with its sentence. Arrays of argument tuples seen before are reused (C only reads them)."""
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


def _choice(call: Call, param: Param, value: str) -> int:
    """A choice name's value, or the library's sentence refusing it."""
    assert param.choices is not None
    k = param.choices.get(value)
    if k is not None:
        return k
    data = utf8(value, param.name)
    out = ffi.new("int64_t *")
    why = ffi.new("char[]", SENTENCE_MAX)
    st = lib.dt_param_choice(call.info, param.index, data, len(data), out, why, SENTENCE_MAX, ffi.NULL)
    if st:
        raise_status(st, call.name, why)
    return int(out[0])


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
            if not isinstance(value, str):
                allowed = ", ".join(repr(c) for c in param.choices)
                raise type_error(f"{call.name}: {param.name} must be one of {allowed} or None, got {type(value).__name__}")
            out.append(_choice(call, param, value))
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise type_error(f"{call.name}: {param.name} must be an int, got {type(value).__name__}")
        if not ARG_DEFAULT < value <= _I64_MAX:
            # Outside int64 (or the DT_ARG_DEFAULT value itself) C cannot see the value: the library
            # explains the nearest value it can see, and the sentence then names the value given.
            oversize = oversize or (len(out), value)
            value = _I64_MAX if value > 0 else ARG_DEFAULT + 1
        out.append(value)
    array = ffi.new("int64_t[]", out)
    if oversize is not None:
        index, given = oversize
        why = ffi.new("char[]", SENTENCE_MAX)
        check = lib.dt_call_check if call.name in CALLS else None
        message = ""
        if check is not None:
            check(call.index, array, len(out), why, SENTENCE_MAX, ffi.NULL)
            message = ffi.string(why).decode()
        else:
            st = lib.dt_util(call.index, ffi.NULL, 0, array, len(out), why, SENTENCE_MAX, ffi.NULL)
            message = ffi.string(why).decode() if st == lib.DT_ERR_INVALID_ARG else ""
        seen = f"got {out[index]}"
        if message.endswith(seen):
            message = message[: -len(seen)] + f"got {given}"
        raise InvalidArgumentError(message, lib.DT_ERR_INVALID_ARG)
    return array


def utf8(value: str, name: str) -> bytes:
    """Text as the library reads it: UTF-8 (a lone surrogate has none, and is refused)."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InvalidArgumentError(f"{name} must be valid Unicode text, got a lone surrogate at index {e.start}",
                                   lib.DT_ERR_INVALID_ARG) from None


def util(name: str, texto_name: Optional[str], texto: object, values: Sequence[object]) -> "str | bool":
    """Run a utility of the library's registry: its text (when it takes one) and its arguments. A
    validar utility answers True or False; the others their text, or raise the library's sentence."""
    u = UTILS[name]
    data = b""
    if texto_name is not None:
        if not isinstance(texto, str):
            raise type_error(f"{name}: {texto_name} must be a str, got {type(texto).__name__}")
        # A lone surrogate passes as the bytes it would be: the library refuses them like any bad text.
        data = texto.encode("utf-8", "surrogatepass")
    args = convert_args(u, values)
    nargs = len(u.params) if args is not None else 0
    # Buffers of this call: utilities are thread-safe, and cffi releases the GIL while C runs.
    buf = ffi.new("char[]", SENTENCE_MAX)  # room for every utility's value and sentence
    length = ffi.new("size_t *")
    st = lib.dt_util(u.index, data, len(data), ffi.NULL if args is None else args, nargs, buf, SENTENCE_MAX, length)
    if u.kind == KIND_VALIDAR and st != lib.DT_ERR_NULL:
        return bool(st == 0)
    if st:
        raise_status(st, name, buf)
    value: str = ffi.unpack(buf, length[0]).decode()
    return value


def check_seed(seed: object) -> "int | bytes":
    """A seed as every constructor takes it: an int in [0, 2**64), or a str as its UTF-8 bytes (a lone
    surrogate has no UTF-8 form and is refused, so a text seed is the same in every language)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise type_error(f"seed must be an int in [0, 2**64) or a str, got {type(seed).__name__}")
    if isinstance(seed, int):
        if not 0 <= seed < 2**64:
            raise InvalidArgumentError(f"seed must be an int in [0, 2**64) or a str, got {seed}", lib.DT_ERR_INVALID_ARG)
        return seed
    return utf8(seed, "seed")


def check_hoy(hoy: object) -> datetime.date:
    """A reference date: a datetime.date or 'YYYY-MM-DD' from HOY_ANIO_MIN to HOY_ANIO_MAX."""
    if isinstance(hoy, str):
        try:
            hoy = datetime.date.fromisoformat(hoy)
        except ValueError:
            raise InvalidArgumentError(f"hoy must be a date or 'YYYY-MM-DD', got {hoy!r}", lib.DT_ERR_INVALID_ARG) from None
    if not isinstance(hoy, datetime.date):
        raise type_error(f"hoy must be a datetime.date or 'YYYY-MM-DD', got {type(hoy).__name__}")
    if not HOY_ANIO_MIN <= hoy.year <= HOY_ANIO_MAX:
        raise InvalidArgumentError(f"hoy must be between {HOY_ANIO_MIN}-01-01 and {HOY_ANIO_MAX}-12-31, got {hoy.isoformat()}",
                                   lib.DT_ERR_INVALID_ARG)
    return hoy


def check_int(value: object, name: str, low: int, high: int) -> int:
    """An int argument the runtime itself bounds (a count, a row): the same sentence in every runtime."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise type_error(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise InvalidArgumentError(f"{name} must be from {low} to {high}, got {value}", lib.DT_ERR_INVALID_ARG)
    return value


def lookup_call(name: object, kwargs: Dict[str, object]) -> Tuple[Call, Optional[Any], int]:
    """A call by name and its keyword arguments as (call, C argument array or None, count): unknown
    names and arguments are refused here; every value is checked by the library."""
    if not isinstance(name, str):
        raise type_error(f"call must be a str, got {type(name).__name__}")
    call = CALLS.get(name)
    if call is None:
        raise UnknownCallError(FRASE_UNKNOWN_CALL % name)
    names = [p.name for p in call.params]
    for key in kwargs:
        if key not in names:
            raise type_error(f"{name}() got an unexpected argument {key!r}; it takes {names}")
    values = [kwargs.get(n) for n in names]
    if all(v is None for v in values):
        return call, None, 0
    return call, convert_args(call, values), len(call.params)
