"""The front end: spec/llamadas.toml and spec/comun.toml read, checked and turned into one model
that every back end (c.py, python.py, node.py, docs.py, casos.py) reads. A back end never opens
the TOML itself, so a rule about the declaration lives here once."""
from __future__ import annotations

import os
import re
import tomllib
from typing import Any, Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LLAMADAS = os.path.join(ROOT, "spec", "llamadas.toml")
COMUN = os.path.join(ROOT, "spec", "comun.toml")

CLASES = {"texto": "DT_KIND_TEXT", "entero": "DT_KIND_INT", "registro": "DT_KIND_RECORD"}
ENTEROS_C = {"int32_t", "int64_t", "uint32_t"}
# Column types of a dataset's DDL and the kinds of unique column (their C codes: the list index).
SQL_TIPOS = ["text", "date", "char1", "integer", "bigint"]
UNICOS = ["", "rut", "email", "movil", "fijo"]
# The kinds of dirt a dataset column can take (`sucio`, docs/sucios.md): one C transform each, in
# c/src/ns/sucio.c; the list index is the C code (DT__SUCIO_* in registro.h).
SUCIOS = ["", "rut", "nombre", "comuna", "telefono"]
SQL_ENTEROS = {"integer", "bigint"}


class DeclError(SystemExit):
    pass


Spec = Dict[str, Any]


def load() -> Spec:
    with open(LLAMADAS, "rb") as f:
        spec = tomllib.load(f)
    with open(COMUN, "rb") as f:
        spec.update(tomllib.load(f))
    validate(spec)
    return spec


def constante(spec: Spec, c: str) -> int:
    for k in spec["constante"]:
        if k["c"] == c:
            return int(k["valor"])
    raise DeclError(f"spec/comun.toml: no constante {c}")


def validate(spec: Spec) -> None:
    """Refuse a declaration the generators cannot honour, naming the file, the entry and the key."""
    opciones = spec["opciones"]
    max_params = constante(spec, "DT_MAX_PARAMS")
    max_fields = constante(spec, "DT_MAX_FIELDS")
    for name, o in opciones.items():
        if not o.get("c") or not o.get("valores"):
            raise DeclError(f"spec/llamadas.toml: opciones.{name} needs c and valores")
    seen = set()
    registros: Dict[str, List[Tuple[str, int]]] = {}
    for i, ll in enumerate(spec["llamada"]):
        where = f"spec/llamadas.toml: llamada {i + 1} ({ll.get('nombre', '?')})"
        for key in ("nombre", "funcion", "clase", "doc", "ejemplo", "sorteos"):
            if key not in ll:
                raise DeclError(f"{where}: missing '{key}'")
        if ll["nombre"] in seen:
            raise DeclError(f"{where}: declared twice")
        seen.add(ll["nombre"])
        if ll["funcion"] != "dt_" + ident(ll["nombre"]):
            raise DeclError(f"{where}: funcion must be dt_ + the name with '_' for '.'")
        if ll["clase"] not in CLASES:
            raise DeclError(f"{where}: clase must be one of {sorted(CLASES)}")
        if (ll["clase"] == "registro") != ("campos" in ll and "tipo_c" in ll):
            raise DeclError(f"{where}: a registro has tipo_c and campos, and only a registro does")
        if ll["clase"] == "registro":
            # Two calls may share a record type (banco.cuenta_titular is banco.cuenta's record): its
            # struct is declared once, from the first, so the fields must be the same ones.
            forma = [(c["nombre"], c["ancho"]) for c in ll["campos"]]
            if registros.setdefault(ll["tipo_c"], forma) != forma:
                raise DeclError(f"{where}: tipo_c {ll['tipo_c']} is another call's record with other fields (names and anchos must match)")
        if ll["nombre"].partition(".")[0] not in spec["espacios"] and "." in ll["nombre"]:
            raise DeclError(f"{where}: namespace not in [espacios]")
        params = ll.get("params", [])
        if len(params) > max_params:
            raise DeclError(f"{where}: {len(params)} params, DT_MAX_PARAMS is {max_params}")
        _check_params(spec, where, params)
        names = [p["nombre"] for p in params]
        for a, op, b in ll.get("checks", []):
            if op != "<=" or a not in names or b not in names:
                raise DeclError(f"{where}: check [{a!r}, {op!r}, {b!r}] must compare two of its params with '<='")
        if len(ll.get("campos", [])) > max_fields:
            raise DeclError(f"{where}: {len(ll['campos'])} campos, DT_MAX_FIELDS is {max_fields}")
        for c in ll.get("campos", []):
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", c["nombre"]) or not isinstance(c.get("ancho"), int):
                raise DeclError(f"{where}: campo {c!r} needs an identifier nombre and an integer ancho")
        for c in ll.get("campos", []) + [ll]:
            if c.get("sql", "text") not in SQL_TIPOS:
                raise DeclError(f"{where}: sql {c['sql']!r} must be one of {list(SQL_TIPOS)}")
            if c.get("unico", "") not in UNICOS:
                raise DeclError(f"{where}: unico {c['unico']!r} must be one of {[u for u in UNICOS if u]}")
            if c.get("sucio", "") not in SUCIOS:
                raise DeclError(f"{where}: sucio {c['sucio']!r} must be one of {[u for u in SUCIOS if u]}")
            if c.get("sucio") and c.get("sql", "text") != "text":
                raise DeclError(f"{where}: sucio {c['sucio']!r} on a {c['sql']} column: dirt is text, and a dirty column stays text")
        hoy = ll.get("hoy")
        if hoy is not None:
            fechas = [hoy.get(k) for k in ("desde", "hasta") if k in hoy]
            if not fechas or not hoy.get("porque") or set(hoy) - {"desde", "hasta", "porque"} or not all(
                    isinstance(f, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", f) for f in fechas):
                raise DeclError(f"{where}: hoy needs desde and/or hasta ('YYYY-MM-DD') and a porque")
        if ll["clase"] == "registro" and ("sql" in ll or "unico" in ll or "sucio" in ll):
            raise DeclError(f"{where}: a registro gives sql, unico and sucio per campo")
    errores = {e["nombre"] for e in spec["error"]}
    if "DatotecaError" not in errores or sum(1 for e in spec["error"] if e.get("tipo")) != 1:
        raise DeclError("spec/comun.toml: [[error]] needs DatotecaError and exactly one class with tipo = true")
    valores = set()
    for e in spec["estado"]:
        if e["valor"] in valores:
            raise DeclError(f"spec/comun.toml: estado {e['c']}: valor {e['valor']} used twice")
        valores.add(e["valor"])
        if e["valor"] and e.get("error") not in errores:
            raise DeclError(f"spec/comun.toml: estado {e['c']}: error {e.get('error')!r} is not an [[error]]")
    estados = {e["c"] for e in spec["estado"]}
    utilidades = {u["nombre"]: u for u in spec["utilidad"]}
    for u in spec["utilidad"]:
        where = f"spec/comun.toml: utilidad {u['nombre']}"
        if "como" in u:
            base = utilidades.get(u["como"])
            if base is None or "como" in base:
                raise DeclError(f"{where}: como must name a utility that is not itself an alias")
            for k in u.get("fijo", {}):
                if k not in [p["nombre"] for p in base["params"]]:
                    raise DeclError(f"{where}: fijo {k!r} is not a param of {u['como']}")
            continue
        if u.get("clase") not in ("texto", "validar"):
            raise DeclError(f"{where}: clase must be texto or validar")
        if u.get("estado", "DT_OK") not in estados:
            raise DeclError(f"{where}: estado {u['estado']!r} is not a [[estado]]")
        textos = [p for p in u["params"] if p["tipo"] == "texto"]
        if len(textos) > 1 or (textos and u["params"][0]["tipo"] != "texto"):
            raise DeclError(f"{where}: at most one texto param, and first")
        _check_params(spec, where, [p for p in u["params"] if p["tipo"] != "texto"])


def _check_params(spec: Spec, where: str, params: List[Dict[str, Any]]) -> None:
    for p in params:
        pw = f"{where}, param {p.get('nombre', '?')}"
        if p["tipo"] == "entero":
            if p.get("c") not in ENTEROS_C:
                raise DeclError(f"{pw}: an entero's c must be one of {sorted(ENTEROS_C)}")
            if not (isinstance(p.get("min"), int) and isinstance(p.get("max"), int) and p["min"] <= p.get("defecto", p["min"]) <= p["max"]):
                raise DeclError(f"{pw}: an entero needs integer min <= defecto <= max")
        elif p["tipo"] in spec["opciones"]:
            if p.get("defecto") not in opcion_nombres(spec, p["tipo"]):
                raise DeclError(f"{pw}: defecto {p.get('defecto')!r} is not one of {opcion_nombres(spec, p['tipo'])}")
        else:
            raise DeclError(f"{pw}: tipo {p['tipo']!r} is neither entero nor an [opciones] set")


# ---- what every back end asks of the model ----------------------------------------------------

def ident(nombre: str) -> str:
    return nombre.replace(".", "_")


def camel(s: str) -> str:
    head, *rest = s.split("_")
    return head + "".join(w.capitalize() for w in rest)


def pascal(s: str) -> str:
    return "".join(w.capitalize() for w in s.split("_"))


def cstr(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def opcion_nombres(spec: Spec, tipo: str) -> List[str]:
    return [v["nombre"] for v in spec["opciones"][tipo]["valores"]]


def c_type(spec: Spec, p: Dict[str, Any]) -> str:
    return p["c"] if p["tipo"] == "entero" else spec["opciones"][p["tipo"]]["c"]


def default_int(spec: Spec, p: Dict[str, Any]) -> int:
    return p["defecto"] if p["tipo"] == "entero" else opcion_nombres(spec, p["tipo"]).index(p["defecto"])


def param_range(spec: Spec, p: Dict[str, Any]) -> Tuple[int, int]:
    if p["tipo"] == "entero":
        return p["min"], p["max"]
    return 0, len(spec["opciones"][p["tipo"]]["valores"]) - 1


def columnas(ll: Dict[str, Any]) -> List[Dict[str, Any]]:
    """A call's dataset columns: a registro's campos, or the one value of a texto/entero."""
    if ll["clase"] == "registro":
        return ll["campos"]
    key = ll["nombre"].rpartition(".")[2]
    return [{"nombre": key, "sql": ll.get("sql", "bigint" if ll["clase"] == "entero" else "text"), "unico": ll.get("unico", ""),
             "sucio": ll.get("sucio", "")}]


def es_entero(campo: Dict[str, Any]) -> bool:
    """An integer field: an integer in every runtime's records (sequence and dataset alike)."""
    return campo.get("sql", "text") in SQL_ENTEROS


def de_espacio(spec: Spec, ns: str) -> List[Dict[str, Any]]:
    return [ll for ll in spec["llamada"] if "." in ll["nombre"] and ll["nombre"].partition(".")[0] == ns]


def sin_espacio(spec: Spec) -> List[Dict[str, Any]]:
    return [ll for ll in spec["llamada"] if "." not in ll["nombre"]]


def utilidades(spec: Spec) -> List[Dict[str, Any]]:
    """The utilities with a row of their own in the C registry (aliases use their base's row)."""
    return [u for u in spec["utilidad"] if "como" not in u]


def utilidad_base(spec: Spec, u: Dict[str, Any]) -> Dict[str, Any]:
    return next(b for b in spec["utilidad"] if b["nombre"] == u["como"]) if "como" in u else u


def util_enteros(u: Dict[str, Any]) -> List[Dict[str, Any]]:
    """A utility's integer and choice params: the args of dt_util (its texto param is apart)."""
    return [p for p in u["params"] if p["tipo"] != "texto"]


def util_texto(u: Dict[str, Any]) -> Any:
    return next((p for p in u["params"] if p["tipo"] == "texto"), None)


def error_de_estado(spec: Spec) -> Dict[int, str]:
    return {e["valor"]: e["error"] for e in spec["estado"] if e["valor"]}


def error_tipo(spec: Spec) -> str:
    return next(e["nombre"] for e in spec["error"] if e.get("tipo"))


def param_doc(spec: Spec, p: Dict[str, Any]) -> str:
    if p["tipo"] == "entero":
        cero = f"; 0 = {p['cero']}" if p.get("cero") else ""
        dflt = f", default {p['defecto']}" if "defecto" in p else ""
        return f"{p['nombre']}: {p['min']} to {p['max']}{dflt}{cero}"
    return f"{p['nombre']}: {', '.join(repr(v) for v in opcion_nombres(spec, p['tipo']))}; default {p['defecto']!r}"


GENERATED = "GENERATED by tools/gen from spec/: do not edit (change the spec and run make generate)"
