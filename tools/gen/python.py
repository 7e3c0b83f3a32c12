"""The Python back end: the choice and record types, every call as a method with its namespace and
record builder, the constants, the error classes and the utilities. The loader (_lib.py) and the
generic paths (__init__.py, _tabla.py, _arrow.py) are hand-written."""
from __future__ import annotations

import keyword
import os
from typing import Any, Dict, List, Tuple

from spec import (GENERATED, Spec, cstr, de_espacio, error_de_estado, error_tipo, es_entero, opcion_nombres, param_doc,
                  pascal, sin_espacio, util_enteros, util_texto, utilidad_base)

PKG = ("bindings", "python", "datoteca")


def dict_name(ll: Dict[str, Any]) -> str:
    return pascal(ll["tipo_c"][len("dt_"):]) + "Dict"


def py_type(ll: Dict[str, Any]) -> str:
    return {"texto": "str", "entero": "int"}.get(ll["clase"]) or dict_name(ll)


def _field_type(c: Dict[str, Any]) -> str:
    t = "int" if es_entero(c) else "str"
    return f"Optional[{t}]" if c.get("nulo") else t


def _param_type(p: Dict[str, Any]) -> str:
    return "int" if p["tipo"] == "entero" else pascal(p["tipo"])


def tipos(spec: Spec) -> str:
    t = [f'"""{GENERATED}.', "",
         "The choice types and the records datoteca returns, as TypedDicts: integer fields (sql integer or",
         'bigint in the spec) are int, dates are ISO text, every other field is str."""',
         "from __future__ import annotations", "", "from typing import Literal, Optional, TypedDict", ""]
    names = []
    for name in spec["opciones"]:
        t.append(f"{pascal(name)} = Literal[{', '.join(repr(v) for v in opcion_nombres(spec, name))}]")
        names.append(pascal(name))
    for ll in spec["llamada"]:
        if ll["clase"] != "registro" or dict_name(ll) in names:
            continue  # a record type two calls share is declared once
        t += ["", "", f"class {dict_name(ll)}(TypedDict):", f'    """The record of {ll["nombre"]}."""', ""]
        t += [f"    {c['nombre']}: {_field_type(c)}" for c in ll["campos"]]
        names.append(dict_name(ll))
    t += ["", "", "# Every call's name: call(), many(), Tabla() take only these.",
          "CallName = Literal[" + ", ".join(repr(ll["nombre"]) for ll in spec["llamada"]) + "]"]
    names.append("CallName")
    t += ["", "__all__ = [" + ", ".join(repr(n) for n in names) + "]"]
    return "\n".join(t) + "\n"


def _method(spec: Spec, ll: Dict[str, Any], receiver: str, indent: str = "    ") -> List[str]:
    short = ll["nombre"].rpartition(".")[2]
    params = ll.get("params", [])
    sig = "".join(f", {p['nombre']}: Optional[{_param_type(p)}] = None" for p in params)
    call_args = "".join(f", {p['nombre']}" for p in params)
    doc = [ll["doc"]]
    if params:
        doc += ["", "None (or leaving it out) takes the library's default."] + [param_doc(spec, p) for p in params]
    if ll["clase"] == "registro":
        doc += ["", "Fields: " + ", ".join(c["nombre"] + (" (int)" if es_entero(c) else "") for c in ll["campos"]) + "."]
    doc += ["", f"Example (seed 42): {ll['ejemplo']}"]
    lines = [f"{indent}def {short}(self{sig}) -> {py_type(ll)}:", f'{indent}    """{doc[0]}']
    lines += [f"{indent}    {d}" if d else "" for d in doc[1:]]
    lines += [f'{indent}    """', f"{indent}    return cast({py_type(ll)}, {receiver}._call({ll['nombre']!r}{call_args}))"]
    return lines


def _maker(ll: Dict[str, Any]) -> Tuple[str, str, List[str]]:
    """Two builders per record type: one record's text to its dict, and a chunk's text (every field
    and every record ended by FIELD_SEP but the last) to a list of dicts. Each record is the __dict__
    of an instance of one carrier class, filled by attribute stores in field order: a plain dict, but
    every record of the type shares one table of keys (the names interned once), so building it costs
    no hashing and no key lookups, and it takes less than half a dict display's memory (measured on
    CPython 3.11: ~25 % faster to build than a {'k': v, ...} display; 184 against 464 bytes)."""
    base = ll["nombre"].replace(".", "_")
    f, fs, clase = f"_registro_{base}", f"_registros_{base}", f"_Campos_{base}"
    anot, sets = [], []
    for k, c in enumerate(ll["campos"]):
        if keyword.iskeyword(c["nombre"]) or c["nombre"].startswith("__"):
            raise SystemExit(f"{ll['nombre']}: the field name {c['nombre']!r} cannot be an attribute of the record's carrier class")
        v, t = f"v{k}", "str"
        if es_entero(c):
            v, t = (f"int(v{k}) if v{k} else None", "Optional[int]") if c.get("nulo") else (f"int(v{k})", "int")
        elif c.get("nulo"):
            v, t = f"v{k} or None", "Optional[str]"
        anot.append(f"    {c['nombre']}: {t}")
        sets.append(f"r.{c['nombre']} = {v}")
    n = len(ll["campos"])
    names = ", ".join(f"v{k}" for k in range(n)) + ("," if n == 1 else "")
    fill = "; ".join(sets)
    return f, fs, [f"class {clase}:", f'    """The carrier of a {ll["nombre"]} record: its __dict__ is the record."""', ""] + anot + ["", "",
                   f"def {f}(t: str) -> {dict_name(ll)}:", f"    {names} = t.split(FIELD_SEP)",
                   f"    r = {clase}()", f"    {fill}", "    return r.__dict__  # type: ignore[return-value]", "", "",
                   f"def {fs}(t: str) -> List[{dict_name(ll)}]:", "    p = iter(t.split(FIELD_SEP))",
                   "    out: List[Any] = []", "    append = out.append",
                   f"    for {names} in zip({', '.join(['p'] * n)}):", f"        r = {clase}()", f"        {fill}",
                   "        append(r.__dict__)", "    return out", "", ""]


def llamadas(spec: Spec) -> str:
    L = [f'"""{GENERATED}.', "", "Every call as a method, the namespaces, and the record builders. Arguments left out (None) are",
         "passed to the C library as absent, so defaults live only there; the library checks every value and",
         'its sentence is raised as InvalidArgumentError."""',
         "from __future__ import annotations", "",
         "from typing import TYPE_CHECKING, Any, Callable, Dict, List, Literal, Optional, cast, overload", ""]
    used = sorted({pascal(p["tipo"]) for ll in spec["llamada"] for p in ll.get("params", []) if p["tipo"] != "entero"}
                  | {dict_name(ll) for ll in spec["llamada"] if ll["clase"] == "registro"})
    L += ["from ._comun_gen import FIELD_SEP", f"from ._tipos_gen import {', '.join(used + ['CallName'])}", "", ""]
    makers = []
    for ll in spec["llamada"]:
        if ll["clase"] == "registro":
            f, fs, lines = _maker(ll)
            L += lines
            makers.append((ll["nombre"], f, fs))
    L += ["# Record builders by call: one carrier class per record type, written out here (no code is built",
          "# from strings at run time); each record is the __dict__ of one of its instances.",
          "RECORD_MAKERS: Dict[str, Callable[[str], Any]] = {"]
    L += [f"    {n!r}: {f}," for n, f, _ in makers]
    L += ["}", "# The same for a chunk of records (many()): one split, one loop.",
          "RECORD_LIST_MAKERS: Dict[str, Callable[[str], List[Any]]] = {"]
    L += [f"    {n!r}: {fs}," for n, _, fs in makers]
    L += ["}", "", "", "class _Calls:", '    """What a namespace needs of its Datoteca."""', "", "    __slots__ = ()", "",
          "    def _call(self, name: str, *values: object) -> Any:  # pragma: no cover - Datoteca overrides it",
          "        raise NotImplementedError", "",
          "    # many() and call() typed by call name for type checkers: Datoteca aliases these overloads, so",
          "    # d.many(\"persona.persona\", 10) is List[PersonaDict] and a misspelled name does not type-check.",
          "    if TYPE_CHECKING:  # pragma: no cover"]
    for metodo, envoltura in (("many", "List[{}]"), ("call", "{}")):
        extra = ", n: int" if metodo == "many" else ""
        for ll in spec["llamada"]:
            L += ["        @overload", f"        def _{metodo}_tipado(self, name: Literal[{ll['nombre']!r}]{extra}, **kwargs: object) -> "
                  f"{envoltura.format(py_type(ll))}: ...", ""]
        L += [f"        def _{metodo}_tipado(self, name: CallName{extra}, **kwargs: object) -> Any: ...", ""]
    L += ["", "class _Namespace:", "    __slots__ = ('_d',)", "", "    def __init__(self, d: _Calls) -> None:",
          "        self._d = d", "", ""]
    for ns, nsdoc in spec["espacios"].items():
        L += [f"class {pascal(ns)}(_Namespace):", f'    """{ns}: {nsdoc}."""', "", "    __slots__ = ()"]
        for ll in de_espacio(spec, ns):
            L += [""] + _method(spec, ll, "self._d")
        L += ["", ""]
    L += ["class Llamadas(_Calls):", '    """The generated half of Datoteca: its namespaces and the calls without one."""', "",
          "    __slots__ = (" + " ".join(f"{ns!r}," for ns in spec["espacios"]) + ")", ""]
    L += [f"    {ns}: {pascal(ns)}" for ns in spec["espacios"]]
    L += ["", "    def _init_llamadas(self) -> None:"] + [f"        self.{ns} = {pascal(ns)}(self)" for ns in spec["espacios"]]
    for ll in sin_espacio(spec):
        L += [""] + _method(spec, ll, "self")
    names = ["Llamadas"] + [pascal(ns) for ns in spec["espacios"]]
    L += ["", "", "__all__ = [" + ", ".join(repr(n) for n in names) + "]"]
    return "\n".join(L) + "\n"


def _pyconst(k: Dict[str, Any]) -> str:
    if k.get("tipo") == "texto":
        return cstr(k["valor"])  # the same double-quoted literal in C, Python and JavaScript
    if k.get("tipo") == "caracter":
        return f'"\\x{k["valor"]:02x}"'
    return hex(k["valor"]) if k.get("hex") else str(k["valor"])


def comun(spec: Spec) -> str:
    L = [f'"""{GENERATED}.', "", "The constants, limits and names every runtime shares, and the one error hierarchy",
         '(the same class and sentence for the same input in every language)."""',
         "from __future__ import annotations", "", "from typing import Dict, Tuple, Type", "", "# Each status's C name (the error classes read it).", "CODES: Dict[int, str] = {" + ", ".join(f"{e['valor']}: {e['c']!r}" for e in spec["estado"]) + "}", ""]
    names = []
    for k in spec["constante"]:
        name = k["c"][len("DT_"):]
        if k.get("doc"):
            L.append(f"# {k['doc']}")
        L.append(f"{name} = {_pyconst(k)}")
        names.append(name)
    for name, en in spec["enum"].items():
        const = name[len("dt_"):].upper() + "S"
        L += [f"# {en['doc']} (the index is the C value)", f"{const}: Tuple[str, ...] = ({', '.join(repr(v['nombre']) for v in en['valores'])},)"]
        names.append(const)
    L += ["", ""]
    por_estado = {c: v for v, c in error_de_estado(spec).items()}
    for e in spec["error"]:
        base = "Exception" if e["nombre"] == "DatotecaError" else f"DatotecaError, {e['python']}"
        st = por_estado.get(e["nombre"], 2 if e.get("tipo") else 0)
        L += [f"class {e['nombre']}({base}):", f'    """{e["doc"]}"""', ""]
        if e["nombre"] == "DatotecaError":
            L += ["    status: int", "    code: str", "", "    def __init__(self, message: str, status: int = 0) -> None:",
                  "        super().__init__(message)", "        self.status = status", "        self.code = CODES.get(status, \"\")", "", ""]
        else:
            L += [f"    def __init__(self, message: str, status: int = {st}) -> None:", "        super().__init__(message, status)", "", ""]
        names.append(e["nombre"])
    L.append("# The class a runtime raises for each status.")
    L.append("ERRORS: Dict[int, Type[DatotecaError]] = {" + ", ".join(f"{v}: {c}" for v, c in error_de_estado(spec).items()) + "}")
    L.append(f"TYPE_ERROR = {error_tipo(spec)}")
    names += ["CODES", "ERRORS", "TYPE_ERROR"]
    L += ["", "__all__ = [" + ", ".join(repr(n) for n in names) + "]"]
    return "\n".join(L) + "\n"


def utilidades(spec: Spec) -> str:
    L = [f'"""{GENERATED}.', "", "The utilities (RUT, plates, money): pure functions over the library's utility registry, which",
         'checks their arguments as it checks every call\'s."""', "from __future__ import annotations", "",
         "from typing import cast", "", "from ._lib import util"]
    used = sorted({pascal(p["tipo"]) for u in spec["utilidad"] for p in utilidad_base(spec, u)["params"]
                   if p["tipo"] not in ("texto", "entero")})
    if used:
        L.append(f"from ._tipos_gen import {', '.join(used)}")
    L += ["", ""]
    for u in spec["utilidad"]:
        base = utilidad_base(spec, u)
        fijo = u.get("fijo", {})
        texto = util_texto(base)
        enteros = util_enteros(base)
        sig = []
        if texto:
            sig.append(f"{texto['nombre']}: str")
        for p in enteros:
            if p["nombre"] in fijo:
                continue
            t = _param_type(p)
            sig.append(f"{p['nombre']}: {t} = {p['defecto']!r}" if "defecto" in p else f"{p['nombre']}: {t}")
        ret = "bool" if base["clase"] == "validar" else "str"
        args = ", ".join(repr(fijo[p["nombre"]]) if p["nombre"] in fijo else p["nombre"] for p in enteros)
        tx = texto["nombre"] if texto else "None"
        tn = repr(texto["nombre"]) if texto else "None"
        L += [f"def {u['nombre']}({', '.join(sig)}) -> {ret}:", f'    """{u["doc"]}', "", f"    Example: {u['ejemplo']}.", '    """',
              f"    return cast({ret}, util({base['nombre']!r}, {tn}, {tx}, ({args}{',' if len(enteros) == 1 else ''})))", "", ""]
    L += ["__all__ = [" + ", ".join(repr(u["nombre"]) for u in spec["utilidad"]) + "]"]
    return "\n".join(L).rstrip() + "\n"


def outputs(spec: Spec, root: str) -> List[tuple]:
    d = os.path.join(root, *PKG)
    return [(os.path.join(d, "_tipos_gen.py"), tipos(spec)), (os.path.join(d, "_llamadas_gen.py"), llamadas(spec)),
            (os.path.join(d, "_comun_gen.py"), comun(spec)), (os.path.join(d, "_utilidades_gen.py"), utilidades(spec))]
