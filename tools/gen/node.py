"""The Node back end: every call as a method with its namespace and record builder (llamadas.gen.js),
the constants, error classes and utilities (comun.gen.js), their types (the GENERATED block of
index.d.ts) and the ESM export list (index.mjs). The loader (index.js) and the addon are hand-written."""
from __future__ import annotations

import os
from typing import Any, Dict, List, Tuple

from spec import (GENERATED, Spec, cstr, camel, de_espacio, error_de_estado, error_tipo, es_entero, opcion_nombres,
                  param_doc, pascal, sin_espacio, util_enteros, util_texto, utilidad_base)

DIR = ("bindings", "node")
BEGIN_TS = f"// {GENERATED}"
END_TS = "// END GENERATED"
# What index.js writes by hand and exports besides the generated names (the loader's own surface).
HAND_EXPORTS = ["Datoteca", "Tabla", "Esquema", "Enmascarador", "ColumnaArrow", "ColumnaTexto", "ColumnaEntero", "ColumnaFecha", "tabla", "ddl",
                "inferir", "inferirConNotas", "cliMain", "calls", "utilidades", "backend", "version", "dataVersion", "tables"]


def ts_param_type(p: Dict[str, Any]) -> str:
    return "number" if p["tipo"] == "entero" else pascal(p["tipo"])


def ts_record(ll: Dict[str, Any]) -> str:
    return pascal(ll["tipo_c"][len("dt_"):])


def ts_return(ll: Dict[str, Any]) -> str:
    return {"texto": "string", "entero": "number"}.get(ll["clase"]) or ts_record(ll)


def js_doc(spec: Spec, doc: str, params: List[Dict[str, Any]], ejemplo: str, indent: str) -> List[str]:
    lines = [f"{indent}/**", f"{indent} * {doc}"]
    for p in params:
        lines.append(f"{indent} * @param {camel(p['nombre'])} {param_doc(spec, p)}")
    lines += [f"{indent} * @example {ejemplo}", f"{indent} */"]
    return lines


def llamadas(spec: Spec) -> str:
    L = ["'use strict';", f"// {GENERATED}.",
         "// Every call as a method, the namespaces and the record builders. A method takes its arguments in",
         "// order, or one options object with camelCase or snake_case names; index.js converts them and the",
         "// C library checks them.", "",
         "// Record builders: an object literal per record type, written out here, gives V8 one shape for",
         "// every record, and no code is built from strings at run time. Integer fields are numbers. The",
         "// fields are cut out of the text with indexOf and slice, which V8 inlines, instead of split's",
         "// array: RECORD_MAKERS takes one record's text, RECORD_LIST_MAKERS a chunk of records each ended",
         "// by '\\n' (dt_call_many's text) and pushes them onto out.",
         "const SEP = require('./comun.gen').FIELD_SEP;", "const RECORD_MAKERS = {"]
    listas = []
    for ll in spec["llamada"]:
        if ll["clase"] == "registro":
            fields = []
            n = len(ll["campos"])
            for k, c in enumerate(ll["campos"]):
                v = f"v{k}"
                if es_entero(c):
                    v = f"(v{k} === '' ? null : Number(v{k}))" if c.get("nulo") else f"Number({v})"
                elif c.get("nulo"):
                    v += " || null"
                fields.append(f"{c['nombre']}: {v}")
            corte = "".join(f"    j = t.indexOf(SEP, i); const v{k} = t.slice(i, j); i = j + 1;\n" for k in range(n - 1))
            objeto = f"{{ {', '.join(fields)} }}"
            L.append(f"  '{ll['nombre']}': (t) => {{\n    let i = 0, j;\n{corte}    const v{n - 1} = t.slice(i);\n"
                     f"    return {objeto};\n  }},")
            listas.append(f"  '{ll['nombre']}': (t, out) => {{\n    for (let i = 0, j; i < t.length;) {{\n"
                          + corte.replace("    j =", "      j =")
                          + f"      j = t.indexOf('\\n', i); const v{n - 1} = t.slice(i, j); i = j + 1;\n"
                          f"      out.push({objeto});\n    }}\n  }},")
    L += ["};", "", "const RECORD_LIST_MAKERS = {"] + listas
    L += ["};", "", "class Namespace {", "  constructor(d) {", "    Object.defineProperty(this, '_d', { value: d });", "  }", "}", ""]
    for ns, nsdoc in spec["espacios"].items():
        L += [f"/** {ns}: {nsdoc}. */", f"class {pascal(ns)} extends Namespace {{"]
        for ll in de_espacio(spec, ns):
            L += js_doc(spec, ll["doc"], ll.get("params", []), ll["ejemplo"], "  ")
            L.append(f"  {camel(ll['nombre'].partition('.')[2])}(...args) {{ return this._d._method('{ll['nombre']}', args); }}")
        L += ["}", ""]
    L.append("const NAMESPACES = { " + ", ".join(f"{ns}: {pascal(ns)}" for ns in spec["espacios"]) + " };")
    L.append("// Calls without a namespace are methods of Datoteca itself: method name -> call.")
    L.append("const TOP_LEVEL = { " + ", ".join(f"{camel(ll['nombre'])}: '{ll['nombre']}'" for ll in sin_espacio(spec)) + " };")
    L += ["", "module.exports = { RECORD_MAKERS, RECORD_LIST_MAKERS, NAMESPACES, TOP_LEVEL };"]
    return "\n".join(L) + "\n"


def _jsconst(k: Dict[str, Any]) -> str:
    if k.get("tipo") == "texto":
        return cstr(k["valor"])  # the same double-quoted literal in C, Python and JavaScript
    if k.get("tipo") == "caracter":
        return f"'\\x{k['valor']:02x}'"
    if k["valor"] > 2**53:
        return f"{k['valor']}n"
    return hex(k["valor"]) if k.get("hex") else str(k["valor"])


def comun(spec: Spec) -> str:
    L = ["'use strict';", f"// {GENERATED}.",
         "// The constants, limits and names every runtime shares; the one error hierarchy (the same class and",
         "// sentence for the same input in every language); the utilities over the library's utility registry.", ""]
    consts = []
    for k in spec["constante"]:
        if k.get("doc"):
            L.append(f"/** {k['doc']} */")
        L.append(f"const {k['c'][len('DT_'):]} = {_jsconst(k)};")
        consts.append(k["c"][len("DT_"):])
    for name, en in spec["enum"].items():
        const = name[len("dt_"):].upper() + "S"
        L += [f"/** {en['doc']} (the index is the C value) */",
              f"const {const} = Object.freeze([{', '.join(repr(v['nombre']) for v in en['valores'])}]);"]
        consts.append(const)
    L += ["", "/** Each status's C name. */", "const CODES = Object.freeze({ " + ", ".join(f"{e['valor']}: '{e['c']}'" for e in spec["estado"]) + " });", "",
          "// Every datoteca error carries this brand: `instanceof DatotecaError` holds for each class, which",
          "// also extends the builtin a user would catch (RangeError, TypeError).",
          "const MARCA = Symbol.for('datoteca.error');",
          "function marcar(e, name, status) {",
          "  Object.defineProperty(e, 'name', { value: name, configurable: true, writable: true });",
          "  e.status = status;",
          "  e.code = CODES[status] || '';",
          "  Object.defineProperty(e, MARCA, { value: true });",
          "}", ""]
    por_estado = {c: v for v, c in error_de_estado(spec).items()}
    for e in spec["error"]:
        st = por_estado.get(e["nombre"], 2 if e.get("tipo") else 0)
        L.append(f"/** {e['doc']} */")
        if e["nombre"] == "DatotecaError":
            L += ["class DatotecaError extends Error {", "  constructor(message, status = 0) {", "    super(message);",
                  "    marcar(this, 'DatotecaError', status);", "  }", "",
                  "  static [Symbol.hasInstance](x) {", "    return x !== null && typeof x === 'object' && x[MARCA] === true;", "  }", "}"]
        else:
            L += [f"class {e['nombre']} extends {e['node']} {{", f"  constructor(message, status = {st}) {{", "    super(message);",
                  f"    marcar(this, '{e['nombre']}', status);", "  }", "}"]
    L += ["", "/** The class a runtime raises for each status. */",
          "const ERRORS = Object.freeze({ " + ", ".join(f"{v}: {c}" for v, c in error_de_estado(spec).items()) + " });",
          f"const TYPE_ERROR = {error_tipo(spec)};", ""]
    L += ["// Utilities: util(name, textParam, text, args) runs the library's utility registry (index.js).",
          "function crearUtilidades(util) {", "  return {"]
    for u in spec["utilidad"]:
        base = utilidad_base(spec, u)
        fijo = u.get("fijo", {})
        texto = util_texto(base)
        enteros = util_enteros(base)
        params = ([camel(texto["nombre"])] if texto else []) + [
            f"{camel(p['nombre'])} = {p['defecto']!r}" if "defecto" in p else camel(p["nombre"]) for p in enteros if p["nombre"] not in fijo]
        args = ", ".join(repr(fijo[p["nombre"]]) if p["nombre"] in fijo else camel(p["nombre"]) for p in enteros)
        tn = f"'{texto['nombre']}'" if texto else "null"
        tv = camel(texto["nombre"]) if texto else "null"
        L.append(f"    /** {u['doc']} @example {u['ejemplo']} */")
        L.append(f"    {camel(u['nombre'])}: ({', '.join(params)}) => util('{base['nombre']}', {tn}, {tv}, [{args}]),")
    L += ["  };", "}", ""]
    names = consts + ["CODES"] + [e["nombre"] for e in spec["error"]] + ["ERRORS", "TYPE_ERROR", "crearUtilidades"]
    L.append("module.exports = { " + ", ".join(names) + " };")
    return "\n".join(L) + "\n"


def _ts_methods(spec: Spec, ll: Dict[str, Any], name: str, indent: str) -> List[str]:
    params = ll.get("params", [])
    out = js_doc(spec, ll["doc"], params, ll["ejemplo"], indent)
    pos = ", ".join(f"{camel(p['nombre'])}?: {ts_param_type(p)}" for p in params)
    out.append(f"{indent}{name}({pos}): {ts_return(ll)};")
    if params:
        opts = "; ".join(f"{camel(p['nombre'])}?: {ts_param_type(p)}; {p['nombre']}?: {ts_param_type(p)}" if camel(p["nombre"]) != p["nombre"]
                         else f"{p['nombre']}?: {ts_param_type(p)}" for p in params)
        out.append(f"{indent}{name}(options: {{ {opts} }}): {ts_return(ll)};")
    return out


def tipos(spec: Spec) -> str:
    T = [BEGIN_TS]
    for name in spec["opciones"]:
        T.append(f"export type {pascal(name)} = {' | '.join(repr(v) for v in opcion_nombres(spec, name))};")
    records = set()  # a record type two calls share is declared once
    for ll in spec["llamada"]:
        if ll["clase"] == "registro" and ts_record(ll) not in records:
            records.add(ts_record(ll))
            def ft(c: Dict[str, Any]) -> str:
                t = "number" if es_entero(c) else "string"
                return f"{t} | null" if c.get("nulo") else t
            T.append(f"/** The record of {ll['nombre']}: integer fields are numbers, dates ISO text. */")
            T.append(f"export interface {ts_record(ll)} {{ " + " ".join(f"{c['nombre']}: {ft(c)};" for c in ll["campos"]) + " }")
    for ns, nsdoc in spec["espacios"].items():
        T += [f"/** {ns}: {nsdoc}. */", f"export interface {pascal(ns)}Namespace {{"]
        for ll in de_espacio(spec, ns):
            T += _ts_methods(spec, ll, camel(ll["nombre"].partition(".")[2]), "  ")
        T.append("}")
    T += ["/** The generated half of Datoteca: its namespaces and the calls without one. */", "export interface Llamadas {"]
    T += [f"  readonly {ns}: {pascal(ns)}Namespace;" for ns in spec["espacios"]]
    for ll in sin_espacio(spec):
        T += _ts_methods(spec, ll, camel(ll["nombre"]), "  ")
    T += ["}", "/** The value of each call, by name: what call() and many() return. */", "export interface CallValues {"]
    T += [f"  '{ll['nombre']}': {ts_return(ll)};" for ll in spec["llamada"]]
    T += ["}", "/** The arguments of each call, by name, in snake_case (camelCase is accepted too). */", "export interface CallArgs {"]
    for ll in spec["llamada"]:
        body = " ".join(f"{p['nombre']}?: {ts_param_type(p)};" + (f" {camel(p['nombre'])}?: {ts_param_type(p)};" if camel(p["nombre"]) != p["nombre"] else "")
                        for p in ll.get("params", []))
        T.append(f"  '{ll['nombre']}': {{ {body} }};" if body else f"  '{ll['nombre']}': Record<string, never>;")
    T.append("}")
    for k in spec["constante"]:
        t = "string" if k.get("tipo") in ("caracter", "texto") else ("bigint" if k["valor"] > 2**53 else "number")
        T.append(f"export const {k['c'][len('DT_'):]}: {t};")
    for name, en in spec["enum"].items():
        T.append(f"export const {name[len('dt_'):].upper()}S: readonly [{', '.join(repr(v['nombre']) for v in en['valores'])}];")
    T.append("export const CODES: Readonly<Record<number, string>>;")
    T += ["/** Every error datoteca throws: `instanceof DatotecaError` holds for each class below. */",
          "export class DatotecaError extends Error { constructor(message: string, status?: number); readonly status: number; readonly code: string; }"]
    for e in spec["error"]:
        if e["nombre"] != "DatotecaError":
            T.append(f"/** {e['doc']} */")
            T.append(f"export class {e['nombre']} extends {e['node']} {{ constructor(message: string, status?: number); readonly status: number; readonly code: string; }}")
    for u in spec["utilidad"]:
        base = utilidad_base(spec, u)
        fijo = u.get("fijo", {})
        texto = util_texto(base)
        ps = ([f"{camel(texto['nombre'])}: string"] if texto else []) + [
            f"{camel(p['nombre'])}{'?' if 'defecto' in p else ''}: {ts_param_type(p)}" for p in util_enteros(base) if p["nombre"] not in fijo]
        ret = "boolean" if base["clase"] == "validar" else "string"
        T += [f"/** {u['doc']} @example {u['ejemplo']} */", f"export function {camel(u['nombre'])}({', '.join(ps)}): {ret};"]
    T.append(END_TS)
    return "\n".join(T)


def exports(spec: Spec) -> List[str]:
    return (HAND_EXPORTS + [k["c"][len("DT_"):] for k in spec["constante"]] + [n[len("dt_"):].upper() + "S" for n in spec["enum"]]
            + ["CODES"] + [e["nombre"] for e in spec["error"]] + ["ERRORS", "TYPE_ERROR"] + [camel(u["nombre"]) for u in spec["utilidad"]])


def mjs(spec: Spec) -> str:
    return "\n".join([f"// {GENERATED}.", "// ESM entry: the same module as index.js.", "import { createRequire } from 'module';", "",
                      "const require = createRequire(import.meta.url);", "const m = require('./index.js');", "",
                      "export const { " + ", ".join(exports(spec)) + " } = m;", "export default m;", ""])


def with_block(text: str, block: str, path: str) -> str:
    if BEGIN_TS not in text and "// GENERATED by tools/gen_llamadas.py" in text:  # the block's former marker
        text = text.replace(text[text.index("// GENERATED by tools/gen_llamadas.py"):].split("\n", 1)[0], BEGIN_TS, 1)
    if BEGIN_TS not in text or END_TS not in text:
        raise SystemExit(f"{path}: no {BEGIN_TS} ... {END_TS} block")
    a = text.index(BEGIN_TS)
    b = text.index(END_TS) + len(END_TS)
    return text[:a] + block + text[b:]


def outputs(spec: Spec, root: str) -> List[Tuple[str, str]]:
    d = os.path.join(root, *DIR)
    ts_path = os.path.join(d, "index.d.ts")
    with open(ts_path, encoding="utf-8") as f:
        ts = with_block(f.read(), tipos(spec), ts_path)
    return [(os.path.join(d, "llamadas.gen.js"), llamadas(spec)), (os.path.join(d, "comun.gen.js"), comun(spec)),
            (ts_path, ts), (os.path.join(d, "index.mjs"), mjs(spec))]
