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
from itertools import starmap
from typing import TYPE_CHECKING, Any, Dict, List, TypedDict, Union, cast

from ._lib import (
    CALLS,
    FIELD_SEP,
    KIND_INT,
    KIND_RECORD,
    MAX_TEXT,
    Call,
    check_hoy,
    check_seed,
    lookup_call,
    ClosedError,
    DatotecaError,
    InvalidArgumentError,
    InvalidPatenteError,
    InvalidRutError,
    InvalidStateError,
    convert_args,
    en_trozos,
    explain,
    ffi,
    lib,
    raise_status,
)
from ._arrow import Lotes
from ._tabla import Columna, Dialecto, Tabla, arrow, ddl, tabla
from ._llamadas import (
    Banco,
    Direccion,
    Dinero,
    Empresa,
    Fecha,
    Llamadas,
    Persona,
    Prevision,
    Telefono,
    Tributario,
    Vehiculo,
)
from ._tipos import (
    BancoDict,
    CuentaDict,
    DireccionDict,
    DteDict,
    EmpresaDict,
    FormatoPatente,
    FormatoRut,
    FormatoTelefono,
    PersonaDict,
    PrevisionDict,
    Sexo,
    TipoPatente,
    TipoRut,
    VehiculoDict,
)

try:  # the installed distribution's version, which the build read from datoteca.h
    __version__ = importlib.metadata.version("datoteca")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
    __version__ = ffi.string(lib.dt_version()).decode()

class TableInfo(TypedDict):
    """One reference table: its name, its number of entries and the digest of its content."""

    name: str
    rows: int
    digest: str


__all__ = [
    "Datoteca",
    "DatotecaError",
    "ClosedError",
    "InvalidArgumentError",
    "InvalidRutError",
    "InvalidPatenteError",
    "validar_patente",
    "patente_dv",
    "formatear_patente",
    "InvalidStateError",
    "PersonaDict",
    "DireccionDict",
    "BancoDict",
    "CuentaDict",
    "EmpresaDict",
    "VehiculoDict",
    "PrevisionDict",
    "DteDict",
    "TipoPatente",
    "FormatoPatente",
    "Vehiculo",
    "Prevision",
    "Tributario",
    "Fecha",
    "Sexo",
    "TipoRut",
    "FormatoRut",
    "FormatoTelefono",
    "Persona",
    "Direccion",
    "Telefono",
    "Dinero",
    "Banco",
    "Empresa",
    "validar_rut",
    "rut_dv",
    "formatear_rut",
    "limpiar_rut",
    "formatear_clp",
    "formatear_uf",
    "version",
    "data_version",
    "calls",
    "tables",
    "TableInfo",
    "Tabla",
    "Columna",
    "Dialecto",
    "tabla",
    "ddl",
    "arrow",
    "Lotes",
]

_dt_call = lib.dt_call
_dt_call_many = lib.dt_call_many
_string = ffi.string
_NULL = ffi.NULL
Seed = Union[int, str]
Value = Union[str, int, Dict[str, str]]
_U64 = 2**64
_FORMATOS_RUT = ("puntos", "guion", "limpio")


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
    info = ffi.new("dt_table_info *")
    for i in range(lib.dt_table_count()):
        st = lib.dt_table_at(i, info)
        if st != 0:
            raise_status(st, "tables()")
        out.append({"name": ffi.string(info.name).decode(), "rows": int(info.rows), "digest": f"{info.digest:016x}"})
    return out


def _check_str(value: object, name: str) -> bytes:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return _utf8(value, name)


def _rut_bytes(value: object) -> bytes:
    """Text to validate as a RUT: any str, lone surrogates included (never a valid RUT)."""
    if not isinstance(value, str):
        raise TypeError(f"rut must be a str, got {type(value).__name__}")
    return value.encode("utf-8", "surrogatepass")


def _utf8(value: str, name: str) -> bytes:
    """UTF-8 bytes of `value`. A lone surrogate has no UTF-8 form: seeds and labels hash these
    bytes, so it is refused rather than replaced, keeping text seeds equal across languages."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"{name} must be valid Unicode text, got a lone surrogate at index {e.start}") from None


def _check_int(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, got {value}")
    return value


def _formato_rut(formato: object) -> int:
    if formato not in _FORMATOS_RUT:
        if not isinstance(formato, str):
            raise TypeError(f"formato must be 'puntos', 'guion' or 'limpio', got {type(formato).__name__}")
        raise ValueError(f"formato must be 'puntos', 'guion' or 'limpio', got {formato!r}")
    return _FORMATOS_RUT.index(formato)


def validar_rut(rut: str) -> bool:
    """True if `rut` is a valid RUT as people type it ("12.345.678-5", "12345678-5",
    "123456785", k or K, surrounding spaces); False otherwise."""
    data = _rut_bytes(rut)
    return bool(lib.dt_rut_validar(data, len(data)) == lib.DT_OK)


def rut_dv(cuerpo: int) -> str:
    """The mod-11 check digit ("0".."9" or "K") of a RUT body from 1 to 99,999,999."""
    _check_int(cuerpo, "cuerpo", 1, 99_999_999)
    dv = ffi.new("char *")
    lib.dt_rut_dv(cuerpo, dv)
    return cast(bytes, dv[0]).decode()


def _format_rut(rut: str, formato: int) -> str:
    data = _rut_bytes(rut)
    buf = ffi.new("char[32]")
    n = ffi.new("size_t *")
    st = lib.dt_rut_formatear(data, len(data), formato, buf, 32, n)
    if st:
        raise InvalidRutError(f"not a valid RUT: {rut!r}", st)
    return cast(str, ffi.unpack(buf, n[0]).decode())


def formatear_rut(rut: str, formato: FormatoRut = "puntos") -> str:
    """Validate `rut` and write it as "12.345.678-5" (puntos), "12345678-5" (guion) or
    "123456785" (limpio). Raises InvalidRutError (a ValueError) if it is not valid."""
    return _format_rut(rut, _formato_rut(formato))


def limpiar_rut(rut: str) -> str:
    """Validate `rut` and return it without dots or dash, upper-case K: "123456785"."""
    return _format_rut(rut, 2)


_FORMATOS_PATENTE = ("punto", "limpio", "guion", "con_dv")


def validar_patente(patente: str) -> bool:
    """True if `patente` is a valid plate as people type it ("PHZF·55", "phzf55", "BR-1234",
    "BBC 12", with its check digit "PHZF55-K" when it is right); False otherwise."""
    if not isinstance(patente, str):
        raise TypeError(f"patente must be a str, got {type(patente).__name__}")
    data = patente.encode("utf-8", "surrogatepass")
    return bool(lib.dt_patente_validar(data, len(data)) == lib.DT_OK)


def patente_dv(patente: str) -> str:
    """The Registro Civil's check digit ("0".."9" or "K") of a plate: patente_dv("PHZF55") == "K".
    Raises InvalidPatenteError (a ValueError) if it is not a valid plate."""
    if not isinstance(patente, str):
        raise TypeError(f"patente must be a str, got {type(patente).__name__}")
    data = patente.encode("utf-8", "surrogatepass")
    dv = ffi.new("char *")
    st = lib.dt_patente_leer(data, len(data), ffi.NULL, dv)
    if st:
        raise InvalidPatenteError(f"not a valid plate: {patente!r}", st)
    return cast(bytes, dv[0]).decode()


def formatear_patente(patente: str, formato: FormatoPatente = "punto") -> str:
    """Validate `patente` and write it as "PHZF·55" (punto), "PHZF55" (limpio), "PHZF-55"
    (guion) or "PHZF·55-K" (con_dv). Raises InvalidPatenteError (a ValueError) if not valid."""
    if not isinstance(patente, str):
        raise TypeError(f"patente must be a str, got {type(patente).__name__}")
    if formato not in _FORMATOS_PATENTE:
        msg = f"formato must be 'punto', 'limpio', 'guion' or 'con_dv', got {formato!r}"
        raise (ValueError(msg) if isinstance(formato, str) else TypeError(msg))
    data = patente.encode("utf-8", "surrogatepass")
    buf = ffi.new("char[32]")
    n = ffi.new("size_t *")
    st = lib.dt_patente_formatear(data, len(data), _FORMATOS_PATENTE.index(formato), buf, 32, n)
    if st:
        raise InvalidPatenteError(f"not a valid plate: {patente!r}", st)
    return cast(str, ffi.unpack(buf, n[0]).decode())


def _format_money(fn: Any, value: object, name: str) -> str:
    _check_int(value, name, 0, 999_999_999_999_999)
    buf = ffi.new("char[48]")
    n = ffi.new("size_t *")
    fn(value, buf, 48, n)
    return cast(str, ffi.unpack(buf, n[0]).decode())


def formatear_clp(monto: int) -> str:
    """Write a CLP amount the Chilean way: 1234567 -> "$1.234.567"."""
    return _format_money(lib.dt_dinero_formatear_clp, monto, "monto")


def formatear_uf(centesimos: int) -> str:
    """Write an amount of UF held in hundredths: 123456 -> "UF 1.234,56"."""
    return _format_money(lib.dt_dinero_formatear_uf, centesimos, "centesimos")


class Datoteca(Llamadas):
    """A generator with one random stream. Not thread-safe: use one per thread.

    seed: an int in [0, 2**64) or a str (hashed with FNV-1a 64, as in C).
    hoy: the reference date for ages (a datetime.date or "YYYY-MM-DD"); default 2026-01-01.
    """

    __slots__ = ("_g", "_buf", "_len", "__weakref__")

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
        self._len = ffi.new("size_t *")
        self._init_llamadas()

    def _set_hoy(self, hoy: Union[datetime.date, str]) -> None:
        fecha = check_hoy(hoy)
        st = lib.dt_set_hoy(self._g, fecha.year, fecha.month, fecha.day)
        if st:
            raise ValueError(f"hoy must be between 1900-01-01 and 2200-12-31, got {fecha.isoformat()}")

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
        _check_int(lo, "lo", -(2**63), 2**63 - 1)
        _check_int(hi, "hi", -(2**63), 2**63 - 1)
        if lo > hi:
            raise ValueError(f"lo must not exceed hi, got lo={lo}, hi={hi}")
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
            raise TypeError(f"state must be bytes, got {type(state).__name__}")
        data = bytes(state)
        st = lib.dt_state_restore(self._g, data, len(data))
        if st == lib.DT_ERR_NULL:
            raise_status(st, "restore_state()")
        if st:
            raise InvalidStateError("state: not a valid datoteca state (24 bytes from save_state)", st)

    def derive(self, label: str) -> "Datoteca":
        """An independent child generator for `label`; takes two draws from this stream."""
        data = _check_str(label, "label")
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
            _raise_call(st, call, args, nargs)
        text: str = _string(self._buf).decode()
        kind = call.kind
        if kind == KIND_RECORD:
            record: Dict[str, str] = call.make(*text.split(FIELD_SEP))
            return record
        if kind == KIND_INT:
            return int(text)
        return text

    def _call(self, name: str, *values: object) -> Value:
        call = CALLS[name]
        if values.count(None) == len(values):
            return self._run(call, None, 0)
        return self._run(call, convert_args(call, values), len(call.params))

    def _call_any(self, name: str, **kwargs: object) -> Value:
        """Run any registered call by name: d.call("persona.nombre", sexo="F")."""
        call, args, nargs = lookup_call(name, kwargs)
        return self._run(call, args, nargs)

    def _many_any(self, name: str, n: int, **kwargs: object) -> List[Any]:
        """n values of one call, crossing into C once per 2,048 values; identical to n
        single calls in the same order: d.many("persona.persona", 1000)."""
        call, args, nargs = lookup_call(name, kwargs)
        _check_int(n, "n", 0, 2**40)
        cargs = args if args is not None else ffi.NULL

        def llenar(hecho: int, k: int, buf: Any, cap: int, length: Any) -> None:
            st = _dt_call_many(self._g, call.index, cargs, nargs, k, buf, cap, length)
            if st:
                _raise_call(st, call, args, nargs)

        out: List[Any] = []
        for text in en_trozos(n, llenar):
            if call.kind == KIND_RECORD:
                # one split for every field of every record, then fixed-size groups
                parts = iter(text.replace("\n", FIELD_SEP).split(FIELD_SEP))
                out.extend(starmap(call.make, zip(*[parts] * len(call.fields))))
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


def _raise_call(status: int, call: Call, args: Any, nargs: int) -> None:
    """A refused call: the library's own sentence for its arguments, else its status."""
    if status == lib.DT_ERR_INVALID_ARG:
        raise InvalidArgumentError(explain(call, args, nargs), status)
    raise_status(status, call.name)
