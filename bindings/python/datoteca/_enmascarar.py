"""Masking from Python (docs/enmascarar.md, "From Python, Node and Spark").

The rules are parsed and checked, and every value masked, only in C (`dt_mascara_*`): this module
reads the rules and the key, hands Arrow record batches to `dt_mascara_arrow_lote` through the Arrow C
Data Interface (or rows to `dt_mascara_plan_fila`), and raises the library's sentence. The key is
kept only inside the C key object; it is never in a repr, a message or an attribute.
"""
from __future__ import annotations

import ctypes
import os
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from ._comun_gen import SENTENCE_MAX, InvalidArgumentError, OutOfMemoryError
from ._esquema import _documento
from ._lib import ffi, lib, raise_status, solo_nativo, type_error

_LOTE = 65536
Reglas = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def _opciones(clave_de_prueba: bool, clave_compartida: bool) -> int:
    """The library's key options (DT_MASCARA_CLAVE_*) from the two opt-ins, both off by default."""
    return ((lib.DT_MASCARA_CLAVE_DE_PRUEBA if clave_de_prueba else 0)
            | (lib.DT_MASCARA_CLAVE_COMPARTIDA if clave_compartida else 0))


def _ruta_de_clave(clave_archivo: Any) -> bytes:
    """A key file's path as bytes for C. Never part of a message: a key pasted where the path goes was
    printed back this way (issue 39)."""
    if not isinstance(clave_archivo, (str, bytes, os.PathLike)):
        raise type_error(f"clave_archivo must be a path, got {type(clave_archivo).__name__}")
    ruta = os.fsencode(clave_archivo)
    if b"\0" in ruta:
        raise InvalidArgumentError("clave_archivo: the path given holds a NUL byte")
    return ruta


def _texto_de_clave(clave: Union[str, bytes, None]) -> bytearray:
    """The key's text (64 hex digits, maybe one '\\n') from `clave` or DATOTECA_CLAVE, in a bytearray the
    caller wipes. Messages name the source, never the key."""
    if clave is None:
        env = os.environ.get("DATOTECA_CLAVE")
        if env is None:
            raise InvalidArgumentError("Enmascarador: no key: give clave=, clave_archivo= or set DATOTECA_CLAVE")
        return bytearray(env.encode())
    if isinstance(clave, str):
        return bytearray(clave.encode())
    if isinstance(clave, (bytes, bytearray)):
        # 32 bytes are the key itself (os.urandom(32)); anything else is its hex text
        return bytearray(clave.hex().encode()) if len(clave) == 32 else bytearray(clave)
    raise type_error(f"clave must be a hex str or bytes, got {type(clave).__name__}")


def _nueva_clave(clave: Union[str, bytes, None], clave_archivo: Any, opciones: int) -> Any:
    """The C key object from exactly one source. A key file is opened, judged and read by the library
    (dt_mascara_clave_leer: a regular private file only, the same sentences as the CLI's); text (clave=
    or DATOTECA_CLAVE) goes through dt_mascara_clave_new_opciones, which refuses the keys anyone can
    have as the file path does."""
    if clave is not None and clave_archivo is not None:
        raise InvalidArgumentError("Enmascarador: give clave or clave_archivo, not both")
    out = ffi.new("dt_mascara_clave **")
    why = ffi.new("char[]", SENTENCE_MAX)
    if clave_archivo is not None:
        st = lib.dt_mascara_clave_leer(_ruta_de_clave(clave_archivo), opciones, out, why, SENTENCE_MAX)
    else:
        texto = _texto_de_clave(clave)
        try:
            st = lib.dt_mascara_clave_new_opciones(ffi.from_buffer(texto), len(texto), opciones, out, why, SENTENCE_MAX)
        finally:
            texto[:] = bytes(len(texto))
    if st:
        raise_status(st, "clave", why)
    return ffi.gc(out[0], lib.dt_mascara_clave_free)


_puntero = ctypes.pythonapi.PyCapsule_GetPointer
_puntero.restype = ctypes.c_void_p
_puntero.argtypes = [ctypes.py_object, ctypes.c_char_p]
_ARRAY_BYTES = 80  # sizeof(struct ArrowArray) on 64-bit targets, an upper bound elsewhere


def _direccion(p: Any) -> int:
    return int(ffi.cast("uintptr_t", p))


def _capsulas(lote: Any) -> Tuple[Any, Any, Any]:
    """The batch's schema and array capsules (pyarrow's __arrow_c_array__: they release what they hold
    when collected) and the two pointers, as the library's types."""
    cs, ca = lote.__arrow_c_array__()
    return ((cs, ca), ffi.cast("struct ArrowSchema *", _puntero(cs, b"arrow_schema")),
            ffi.cast("struct ArrowArray *", _puntero(ca, b"arrow_array")))


def _esquema_salida(plan: Any) -> Any:
    """The masked batches' pyarrow Schema (moved out of the library's malloc'd schema, then freed)."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    sal = lib.dt_mascara_arrow_schema_new(plan)
    if sal == ffi.NULL:
        raise OutOfMemoryError("datoteca: no memory for an Arrow schema")
    try:
        return pa.Schema._import_from_c(_direccion(sal))
    finally:
        lib.dt_arrow_schema_free(sal)


def _enmascarar_lote(plan: Any, lote: Any, fila: int, esquema_out: Any, why: Any, que: str) -> Any:
    """One pyarrow RecordBatch masked by the plan into a new one (the library's batch, moved into pyarrow)."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    capsulas, es, arr = _capsulas(lote)
    res = ffi.new("char[]", _ARRAY_BYTES)
    res_p = ffi.cast("struct ArrowArray *", res)
    st = lib.dt_mascara_arrow_lote(plan, es, arr, fila, res_p, why, SENTENCE_MAX)
    del capsulas
    if st:
        raise_status(st, que, why)
    return pa.RecordBatch._import_from_c(_direccion(res_p), esquema_out)


def _plan_arrow(r: Any, k: Any, esquema: Any) -> Any:
    """A plan bound to a pyarrow Schema's column names (refused when a column is not text)."""
    cs = esquema.__arrow_c_schema__()
    out = ffi.new("dt_mascara_plan **")
    why = ffi.new("char[]", SENTENCE_MAX)
    st = lib.dt_mascara_plan_arrow(r, k, ffi.cast("struct ArrowSchema *", _puntero(cs, b"arrow_schema")), out, why,
                                   SENTENCE_MAX)
    del cs
    if st:
        raise_status(st, "plan", why)
    return ffi.gc(out[0], lib.dt_mascara_plan_free)


class Enmascarador:
    """Keyed, deterministic masking with a rules document: the same key, rules and values give the
    bytes `datoteca enmascarar` gives, in every runtime.

    reglas: a path (.toml or .json), the document's TOML or JSON text, or a dict (sent to C as JSON).
    The key, 64 hexadecimal digits (32 bytes), from exactly one of: `clave` (the hex text as str or
    bytes, or the 32 raw bytes), `clave_archivo` (a path to a key file), or the environment variable
    DATOTECA_CLAVE. The key is never shown in repr(), str() or any error, nor is the path given. A key
    file must be a regular file only its owner may read or write (chmod 600); `clave_compartida=True`
    accepts one its group or others may. The published test key (000102...1f) and keys of one repeated
    byte are refused from any source unless `clave_de_prueba=True` (tests only: anyone can undo such a
    masking). The rules and the key are immutable; an Enmascarador may be shared by threads (each call
    binds its own plan).
    """

    __slots__ = ("_r", "_k", "_nombre")

    def __init__(self, reglas: Reglas, *, clave: Union[str, bytes, None] = None,
                 clave_archivo: Union[str, "os.PathLike[str]", None] = None, formato: Optional[str] = None,
                 clave_de_prueba: bool = False, clave_compartida: bool = False) -> None:
        solo_nativo("masking (Enmascarador)")
        if formato not in (None, "toml", "json"):
            raise InvalidArgumentError(f"formato must be 'toml' or 'json', got {formato!r}")
        texto, fmt, archivo = _documento(reglas, formato)
        out = ffi.new("dt_mascara_reglas **")
        why = ffi.new("char[]", SENTENCE_MAX)
        fmt_c = lib.DT_MASCARA_JSON if fmt == lib.DT_ESQUEMA_JSON else lib.DT_MASCARA_TOML
        st = lib.dt_mascara_reglas_new(texto, len(texto), fmt_c, archivo.encode(), out, why, SENTENCE_MAX)
        if st:
            raise_status(st, "reglas", why)
        self._r = ffi.gc(out[0], lib.dt_mascara_reglas_free)
        self._nombre = archivo
        self._k = _nueva_clave(clave, clave_archivo, _opciones(clave_de_prueba, clave_compartida))

    def __repr__(self) -> str:
        return f"Enmascarador(reglas={self._nombre!r}, clave=<hidden>)"

    __str__ = __repr__

    def __reduce__(self) -> Any:  # the key must not travel by pickle
        raise TypeError("an Enmascarador cannot be pickled (it holds the key); build one where it is used")

    # ---- plans ----

    def _plan(self, columnas: Sequence[str]) -> Any:
        nombres = [c.encode() if isinstance(c, str) else c for c in columnas]
        for c in nombres:
            if not isinstance(c, bytes):
                raise type_error(f"a column name must be a str, got {type(c).__name__}")
        n = len(nombres)
        keep = [ffi.new("char[]", c) for c in nombres]
        cols = ffi.new("const char *[]", keep) if n else ffi.NULL
        largos = ffi.new("size_t[]", [len(c) for c in nombres]) if n else ffi.NULL
        out = ffi.new("dt_mascara_plan **")
        why = ffi.new("char[]", SENTENCE_MAX)
        st = lib.dt_mascara_plan_new(self._r, self._k, n, cols, largos, out, why, SENTENCE_MAX)
        if st:
            raise_status(st, "plan", why)
        return ffi.gc(out[0], lib.dt_mascara_plan_free)

    @staticmethod
    def _salida(plan: Any) -> List[str]:
        largo = ffi.new("size_t *")
        out = []
        for i in range(lib.dt_mascara_plan_ncolumnas(plan)):
            s = lib.dt_mascara_plan_columna(plan, i, largo)
            out.append(ffi.unpack(s, largo[0]).decode())
        return out

    def columnas(self, entrada: Sequence[str]) -> List[str]:
        """The output's columns for an input with these columns (borrar drops), or the rules' refusal of
        that header (a column with no rule, a rule naming a column it does not have)."""
        return self._salida(self._plan(list(entrada)))

    # ---- Arrow ----

    def tabla(self, datos: Any, *, primera: int = 1) -> Any:
        """Mask `datos` (a pyarrow Table or RecordBatch, or anything with `__arrow_c_stream__` or
        `__arrow_c_array__`: polars and pandas DataFrames, DuckDB results) into a new pyarrow Table of
        the output columns, each a nullable string. Text columns only (utf8, large_utf8, string_view,
        or a dictionary of them, decoded here); another type is refused naming the column. A null stays null and a value its rule empties
        comes out null, so the table written as CSV is `datoteca enmascarar`'s output. `primera` is the
        number an error gives the first row (1, as the CLI counts data rows)."""
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        t = _a_pyarrow(datos)
        plan = _plan_arrow(self._r, self._k, t.schema)
        esquema_out = _esquema_salida(plan)
        why = ffi.new("char[]", SENTENCE_MAX)
        hechos: List[Any] = []
        fila = primera
        for lote in t.to_batches(max_chunksize=_LOTE):
            hechos.append(_enmascarar_lote(plan, lote, fila, esquema_out, why, "Enmascarador.tabla()"))
            fila += lote.num_rows
        return pa.Table.from_batches(hechos, schema=esquema_out)

    def lotes(self, lotes: Iterable[Any], esquema: Any, *, primera: int = 1) -> Iterator[Any]:
        """Mask an iterator of pyarrow RecordBatches of `esquema` (a pyarrow Schema) one by one, yielding
        masked RecordBatches (constant memory: what Spark's mapInArrow hands a partition)."""
        plan = _plan_arrow(self._r, self._k, esquema)
        esquema_out = _esquema_salida(plan)
        why = ffi.new("char[]", SENTENCE_MAX)
        fila = primera
        for lote in lotes:
            if lote.schema.names != esquema.names:
                raise InvalidArgumentError("Enmascarador.lotes(): a batch's columns are not the schema's")
            yield _enmascarar_lote(plan, lote, fila, esquema_out, why, "Enmascarador.lotes()")
            fila += lote.num_rows

    # ---- rows ----

    def filas(self, filas: Iterable[Mapping[str, Optional[str]]], *, primera: int = 1) -> List[Dict[str, Optional[str]]]:
        """Mask rows given as dicts of str (or None for a null), all with the first row's keys in its
        order, into dicts of the output columns, with the nulls of `tabla`. No pyarrow needed."""
        it = iter(filas)
        out: List[Dict[str, Optional[str]]] = []
        primero = next(it, None)
        if primero is None:
            return out
        if not isinstance(primero, Mapping):
            raise type_error(f"a row must be a dict, got {type(primero).__name__}")
        header = list(primero.keys())
        plan = self._plan(header)
        salida = self._salida(plan)
        de = [header.index(c) for c in salida]
        n = len(header)
        vals = ffi.new("const char *[]", max(n, 1))
        lens = ffi.new("size_t[]", max(n, 1))
        why = ffi.new("char[]", SENTENCE_MAX)
        largo = ffi.new("size_t *")
        fila = primera
        for f in _cadena(primero, it):
            if not isinstance(f, Mapping):
                raise type_error(f"row {fila}: a row must be a dict, got {type(f).__name__}")
            if len(f) != n or any(c not in f for c in header):
                raise InvalidArgumentError(f"row {fila}: its keys are not the first row's")
            keep: List[Any] = []
            nulos = []
            for j, c in enumerate(header):
                v = f[c]
                if v is None:
                    b = b""
                elif isinstance(v, str):
                    b = v.encode()
                else:
                    raise type_error(f"row {fila}, column {c}: a value must be a str or None, got {type(v).__name__}")
                nulos.append(v is None)
                cb = ffi.from_buffer(b)
                keep.append((b, cb))
                vals[j] = cb
                lens[j] = len(b)
            st = lib.dt_mascara_plan_fila(plan, fila, n, vals, lens, why, SENTENCE_MAX)
            if st:
                raise_status(st, "Enmascarador.filas()", why)
            d: Dict[str, Optional[str]] = {}
            for i, nombre in enumerate(salida):
                s = lib.dt_mascara_plan_valor(plan, i, largo)
                j = de[i]
                m = int(largo[0])
                d[nombre] = None if nulos[j] or (m == 0 and lens[j] > 0) else ffi.unpack(s, m).decode()
            out.append(d)
            fila += 1
        return out


def _cadena(primero: Any, resto: Iterator[Any]) -> Iterator[Any]:
    yield primero
    yield from resto


def _a_pyarrow(datos: Any) -> Any:
    """A pyarrow Table of `datos`, through the Arrow PyCapsule interface when it is not one; a
    dictionary-encoded text column (a pandas or polars categorical) decoded to its text, since the
    values are what the rules read (any other type goes to C, which refuses it naming the column)."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    if isinstance(datos, pa.Table):
        t = datos
    elif isinstance(datos, pa.RecordBatch):
        t = pa.Table.from_batches([datos])
    elif hasattr(datos, "__arrow_c_stream__"):
        t = pa.table(datos)
    elif hasattr(datos, "__arrow_c_array__"):
        t = pa.Table.from_batches([pa.record_batch(datos)])
    elif type(datos).__module__.startswith("pandas"):
        t = pa.Table.from_pandas(datos, preserve_index=False)
    else:
        raise type_error(f"datos must be a pyarrow Table or RecordBatch or have __arrow_c_stream__, got {type(datos).__name__}")
    texto = (pa.types.is_string, pa.types.is_large_string, pa.types.is_string_view)
    for i, f in enumerate(t.schema):
        if pa.types.is_dictionary(f.type) and any(es(f.type.value_type) for es in texto):
            # decoded by take(); pyarrow neither casts a dictionary of string_view nor takes from string_view
            # (polars' Categorical), so those values become large_string first
            tipo = pa.large_string() if pa.types.is_string_view(f.type.value_type) else f.type.value_type
            valores = pa.chunked_array([c.dictionary.cast(tipo).take(c.indices) for c in t.column(i).chunks], tipo)
            t = t.set_column(i, pa.field(f.name, tipo, f.nullable), valores)
    return t


def clave_de(clave: Union[str, bytes, None], clave_archivo: Union[str, "os.PathLike[str]", None], *,
             clave_de_prueba: bool = False, clave_compartida: bool = False) -> bytes:
    """The key's text from one source, for a caller that must hand it on (datoteca.spark ships it to its
    tasks inside their closure); checked here, by the library, so a bad key fails on the driver. A key
    file is read by dt_mascara_clave_archivo_texto (the checks of dt_mascara_clave_leer)."""
    opciones = _opciones(clave_de_prueba, clave_compartida)
    if clave is not None and clave_archivo is not None:
        raise InvalidArgumentError("Enmascarador: give clave or clave_archivo, not both")
    if clave_archivo is None:
        _nueva_clave(clave, None, opciones)
        texto = _texto_de_clave(clave)
        copia = bytes(texto)
        texto[:] = bytes(len(texto))
        return copia
    buf = ffi.new("char[]", lib.DT_MASCARA_CLAVE_ARCHIVO_MAX + 1)  # wiped below; the library wipes it on a refusal
    n = ffi.new("size_t *")
    why = ffi.new("char[]", SENTENCE_MAX)
    cap = lib.DT_MASCARA_CLAVE_ARCHIVO_MAX + 1
    st = lib.dt_mascara_clave_archivo_texto(_ruta_de_clave(clave_archivo), opciones, buf, cap, n, why, SENTENCE_MAX)
    if st:
        raise_status(st, "clave", why)
    copia = bytes(ffi.buffer(buf, n[0]))
    ffi.memmove(buf, bytes(cap), cap)
    return copia
