"""The risk report of a masked table from Python (docs/enmascarar.md, "Measuring the risk: datoteca
riesgo"): rows go to the C accumulator (dt_riesgo_*), the one `datoteca riesgo` uses, and its JSON comes
back as a dict. Nothing is counted here: the values are only converted to text."""
from __future__ import annotations

import datetime
import json
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

from ._comun_gen import InvalidArgumentError
from ._lib import ffi, lib, raise_status, solo_nativo

__all__ = ["riesgo"]

_MODOS = {"igual": 0, "diferencia": 1, "razon": 2}


def _texto(v: object) -> Optional[bytes]:
    if v is None:
        return None
    if isinstance(v, bytes):
        return v
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat().encode()
    return str(v).encode("utf-8", "surrogateescape")


def _filas(datos: Any, que: str) -> List[Mapping[str, Any]]:
    if hasattr(datos, "to_pylist"):  # a pyarrow Table or RecordBatch
        datos = datos.to_pylist()
    if isinstance(datos, (str, bytes)) or not isinstance(datos, Iterable):
        raise InvalidArgumentError(f"riesgo: {que} must be rows as dicts (or a pyarrow Table), got {type(datos).__name__}", 2)
    filas = list(datos)
    for i, f in enumerate(filas):
        if not isinstance(f, Mapping):
            raise InvalidArgumentError(f"riesgo: {que} row {i + 1} is a {type(f).__name__}, not a dict", 2)
    return filas


class _Lista:
    """A list of texts as C wants it, kept alive as long as this object."""

    def __init__(self, textos: Sequence[Optional[bytes]]) -> None:
        self.n = len(textos)
        self._keep = [ffi.new("char[]", t) if t is not None else ffi.NULL for t in textos]
        self.ptr = ffi.new("const char *[]", self._keep) if self.n else ffi.NULL
        self.len = ffi.new("size_t[]", [len(t) if t is not None else 0 for t in textos]) if self.n else ffi.NULL


def _nombres(cols: Sequence[str]) -> _Lista:
    return _Lista([str(c).encode("utf-8", "surrogateescape") for c in cols])


def riesgo(enmascarado: Any, *, qi: Sequence[str] = (), original: Any = None, enlace: Optional[Sequence[str]] = None,
           modo: str = "igual", personales: Sequence[str] = (), tabla: Optional[str] = None) -> Dict[str, Any]:
    """The re-identification risk left in a masked table, as the dict of `datoteca riesgo`'s JSON:
    ``k_anonimato`` over the quasi-identifiers `qi`; with `original` (the rows it was masked from, in the
    same order) the linkage of the pair `enlace` (mode "igual", "diferencia" or "razon") and the values of
    the original's `personales` columns found in it. A column may be written "col:anio", "col:mes" or
    "col:N" to generalise it first. Rows are dicts (the first one's keys are the columns) or a pyarrow
    Table. The report holds counts and column names only, never a value.

    Example::

        r = datoteca.riesgo(filas_enmascaradas, qi=["comuna", "sexo", "fecha_nacimiento:anio"])
        r["k_anonimato"]["k_min"], r["k_anonimato"]["filas_unicas"]["por_mil"]
    """
    solo_nativo("riesgo()")
    if modo not in _MODOS:
        raise InvalidArgumentError(f"riesgo: modo must be igual, diferencia or razon, got {modo!r}", 2)
    masc = _filas(enmascarado, "enmascarado")
    orig = _filas(original, "original") if original is not None else None
    if orig is not None and len(orig) != len(masc):
        raise InvalidArgumentError(f"riesgo: the original has {len(orig)} rows and the masked table {len(masc)}: they "
                                   f"must be the same rows in the same order", 2)
    q, e, p = _nombres(list(qi)), _nombres(list(enlace or [])), _nombres(list(personales))
    why = ffi.new("char[]", 512)
    out = ffi.new("dt_riesgo **")
    st = lib.dt_riesgo_new(q.n, q.ptr, e.n, e.ptr, _MODOS[modo], p.n, p.ptr, out, why, 512)
    if st != 0:
        raise_status(st, "riesgo", why)
    r = ffi.gc(out[0], lib.dt_riesgo_free)
    cols_m = list(masc[0].keys()) if masc else list(qi)
    cols_o = (list(orig[0].keys()) if orig else cols_m) if orig is not None else None
    cm = _nombres(cols_m)
    co = _nombres(cols_o) if cols_o is not None else None
    st = lib.dt_riesgo_columnas(r, cm.n, cm.ptr, cm.len, co.n if co else 0, co.ptr if co else ffi.NULL,
                                co.len if co else ffi.NULL, why, 512)
    if st != 0:
        raise_status(st, "riesgo", why)
    if orig is not None and p.n:
        for f in orig:
            v = _Lista([_texto(f.get(c)) for c in cols_o or []])
            st = lib.dt_riesgo_original(r, v.n, v.ptr, v.len, why, 512)
            if st != 0:
                raise_status(st, "riesgo", why)
    for i, f in enumerate(masc):
        v = _Lista([_texto(f.get(c)) for c in cols_m])
        vo = _Lista([_texto(orig[i].get(c)) for c in cols_o or []]) if orig is not None else None
        st = lib.dt_riesgo_fila(r, v.n, v.ptr, v.len, vo.n if vo else 0, vo.ptr if vo else ffi.NULL,
                                vo.len if vo else ffi.NULL, why, 512)
        if st != 0:
            raise_status(st, "riesgo", why)
    t = tabla.encode("utf-8", "surrogateescape") if tabla is not None else ffi.NULL
    n = ffi.new("size_t *")
    lib.dt_riesgo_informe_json(r, t, ffi.NULL, 0, n)
    buf = ffi.new("char[]", n[0] + 1)
    st = lib.dt_riesgo_informe_json(r, t, buf, n[0] + 1, n)
    if st != 0:
        raise_status(st, "riesgo")
    informe: Dict[str, Any] = json.loads(bytes(ffi.buffer(buf, n[0])).decode("utf-8", "surrogateescape"))
    return informe
