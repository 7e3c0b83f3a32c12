"""The C back end: the generated half of the public header, the call and utility registries with
their rows, runners and typed public functions, the internal generators' prototypes, and the
status texts."""
from __future__ import annotations

from typing import Any, Dict, List

from spec import (CLASES, GENERATED, SQL_TIPOS, SUCIOS, UNICOS, Spec, c_type, columnas, cstr, default_int, de_espacio,
                  ident, opcion_nombres, param_doc, param_range, sin_espacio, util_enteros, util_texto, utilidades)


def _comment(lines: List[str], indent: str = "") -> List[str]:
    lines = [ln for ln in lines]
    if len(lines) == 1 and len(lines[0]) < 100:
        return [f"{indent}/* {lines[0]} */"]
    out = [f"{indent}/* {lines[0]}"] + [f"{indent} * {ln}" if ln else f"{indent} *" for ln in lines[1:]]
    out[-1] += " */"
    return out


def _wrap(text: str, width: int = 96) -> List[str]:
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines


def _cvalue(k: Dict[str, Any]) -> str:
    if k.get("tipo") == "texto":
        return cstr(k["valor"])  # the same double-quoted literal in C, Python and JavaScript
    v = k["valor"]
    if k.get("tipo") == "caracter":
        return f"'\\x{v:02x}'"
    if k.get("hex"):
        return f"0x{v:x}ULL"
    if v > 2**31 - 1:
        return f"{v}LL" if v < 2**63 else f"{v}ULL"
    return str(v)


def header_comun(spec: Spec) -> str:
    out = [f"/* {GENERATED}.", " * Included by datoteca.h: statuses, shared constants and the enums of the generic ABI. */",
           "#ifndef DATOTECA_COMUN_GEN_H", "#define DATOTECA_COMUN_GEN_H", "",
           "/* Statuses. The numbers are pinned forever: new ones are only appended. */", "typedef enum dt_status {"]
    estados = spec["estado"]
    for i, e in enumerate(estados):
        sep = "," if i + 1 < len(estados) else ""
        out.append(f"    {e['c']} = {e['valor']}{sep} /* {e['doc']} */")
    out += ["} dt_status;", "", "/* Constants and limits (every runtime has the same values, generated from the same spec). */"]
    for k in spec["constante"]:
        doc = f" /* {k['doc']} */" if k.get("doc") else ""
        out.append(f"#define {k['c']} {_cvalue(k)}{doc}")
    for name, en in spec["enum"].items():
        out += [""] + _comment(_wrap(en["doc"]))
        out.append(f"typedef enum {name} {{")
        for i, v in enumerate(en["valores"]):
            doc = f" /* {v['doc']} */" if v.get("doc") else ""
            out.append(f"    {v['c']} = {i}{',' if i + 1 < len(en['valores']) else ''}{doc}")
        out.append(f"}} {name};")
    out += ["", "#endif", ""]
    return "\n".join(out)


def _params_c(spec: Spec, ll: Dict[str, Any]) -> str:
    return "".join(f", {c_type(spec, p)} {p['nombre']}" for p in ll.get("params", []))


def _proto(spec: Spec, ll: Dict[str, Any]) -> str:
    ps = _params_c(spec, ll)
    if ll["clase"] == "texto":
        return f"dt_status {ll['funcion']}(dt_gen *g{ps}, char *buf, size_t cap, size_t *len)"
    if ll["clase"] == "entero":
        return f"dt_status {ll['funcion']}(dt_gen *g{ps}, int64_t *out)"
    return f"dt_status {ll['funcion']}(dt_gen *g{ps}, {ll['tipo_c']} *out)"


def _internal_proto(spec: Spec, ll: Dict[str, Any]) -> str:
    ps = _params_c(spec, ll)
    name = "dt__" + ident(ll["nombre"])
    if ll["clase"] == "texto":
        return f"char *{name}(dt_gen *g{ps}, char *p)"
    if ll["clase"] == "entero":
        return f"int64_t {name}(dt_gen *g{ps})"
    return f"void {name}(dt_gen *g{ps}, {ll['tipo_c']} *out)"


def _fecha_int(ll: Dict[str, Any], k: str) -> int:
    """A call's hoy bound as YYYYMMDD (0: none)."""
    return int(ll.get("hoy", {}).get(k, "0").replace("-", ""))


def _call_doc(spec: Spec, ll: Dict[str, Any]) -> List[str]:
    lines = _wrap(f"{ll['nombre']}: {ll['doc']}" + (f" {ll['nota']}" if ll.get("nota") else ""))
    for p in ll.get("params", []):
        lines += _wrap(param_doc(spec, p).replace("'", ""))
    for a, _, b in ll.get("checks", []):
        lines.append(f"{a} must not exceed {b}.")
    lines += _wrap("Draws: " + ll["sorteos"].replace("`", "") + ".")
    if ll.get("hoy"):
        hoy = ll["hoy"]
        cuando = (f"outside {hoy['desde']}..{hoy['hasta']}" if "desde" in hoy and "hasta" in hoy
                  else f"before {hoy['desde']}" if "desde" in hoy else f"after {hoy['hasta']}")
        lines += _wrap(f"A reference date (hoy) {cuando} is refused like an argument out of range ({hoy['porque']}).")
    if ll["clase"] == "texto":
        lines += _wrap("Text out as everywhere (at most DT_MAX_TEXT - 1 bytes). An argument outside its range is "
                       "DT_ERR_INVALID_ARG with the sentence that explains it in buf; nothing is drawn.")
    else:
        what = "*out receives the value" if ll["clase"] == "entero" else "`out` is fully written"
        lines += _wrap(f"{what} on success; NULL g or out is DT_ERR_NULL. An argument outside its range is "
                       "DT_ERR_INVALID_ARG (dt_call_check gives the sentence); nothing is drawn.")
    return lines


def header_llamadas(spec: Spec) -> str:
    out = [f"/* {GENERATED}.",
           " * Included by datoteca.h: the choices, records and typed functions of every call. Each typed function",
           " * is the registry's call with its arguments checked once, by the registry (dt_call_check's rules).",
           " * Not thread-safe on one dt_gen: use one instance per thread. */",
           "#ifndef DATOTECA_LLAMADAS_GEN_H", "#define DATOTECA_LLAMADAS_GEN_H", ""]
    out.append("/* ===================================================================== choices */")
    for name, o in spec["opciones"].items():
        out += [""] + _comment(_wrap(f"{o['doc']} (\"{name}\" in the registry: {', '.join(opcion_nombres(spec, name))})"))
        out.append(f"typedef enum {o['c']} {{")
        for i, v in enumerate(o["valores"]):
            doc = f" /* {v['doc']} */" if v.get("doc") else ""
            out.append(f"    {v['c']} = {i}{',' if i + 1 < len(o['valores']) else ''}{doc}")
        out.append(f"}} {o['c']};")

    structs = set()  # a record type two calls share is declared once

    def calls(lls: List[Dict[str, Any]]) -> None:
        for ll in lls:
            out.append("")
            if ll["clase"] == "registro" and ll["tipo_c"] not in structs:
                structs.add(ll["tipo_c"])
                out.append(f"typedef struct {ll['tipo_c']} {{")
                for c in ll["campos"]:
                    doc = c.get("doc", "")
                    if c.get("nulo") and "no value" not in doc:
                        doc = (doc + "; " if doc else "") + "may be \"\" (no value)"
                    out.append(f"    char {c['nombre']}[{c['ancho']}];" + (f" /* {doc} */" if doc else ""))
                out.append(f"}} {ll['tipo_c']};")
            out.extend(_comment(_call_doc(spec, ll)))
            out.append(f"DT_API {_proto(spec, ll)};")

    if sin_espacio(spec):
        out += ["", "/* ===================================================================== calls without a namespace */"]
        calls(sin_espacio(spec))
    for ns, doc in spec["espacios"].items():
        out += ["", f"/* ===================================================================== {ns}: {doc} */"]
        calls(de_espacio(spec, ns))
    out += ["", "#endif", ""]
    return "\n".join(out)


def internal_header(spec: Spec) -> str:
    out = [f"/* {GENERATED}.",
           " * The generators of the calls, hand-written in c/src/ns/ (their names: dt__ + the call). They take",
           " * arguments the registry has checked and never fail: a text generator writes at p (room for",
           " * DT_MAX_TEXT bytes) and returns the end; an integer one returns the value; a record one fills *out. */",
           "#ifndef DT_GENERADORES_GEN_H", "#define DT_GENERADORES_GEN_H", "", '#include "internal.h"', ""]
    for ll in spec["llamada"]:
        out.append(_internal_proto(spec, ll) + ";")
    out += ["", "/* The utilities, hand-written beside their namespace: text in (s, n), checked integer arguments a,",
            " * the value written at p (end in *end); a status for text they refuse. */"]
    for u in utilidades(spec):
        out.append(f"dt_status dt__util_{u['nombre']}(const char *s, size_t n, const int64_t *a, char *p, char **end);")
    out += ["", "/* Each utility's row in the utility registry. */"]
    for k, u in enumerate(utilidades(spec)):
        out.append(f"#define DT__UTIL_{u['nombre'].upper()} {k}")
    out += ["", "#endif", ""]
    return "\n".join(out)


def _param_rows(spec: Spec, tag: str, params: List[Dict[str, Any]]) -> List[str]:
    if not params:
        return []
    rows = []
    for p in params:
        lo, hi = param_range(spec, p)
        ch = f"ch_{p['tipo']}" if p["tipo"] != "entero" else "NULL"
        dflt = default_int(spec, p) if "defecto" in p or p["tipo"] != "entero" else lo
        rows.append(f"{{{cstr(p['nombre'])}, {dflt}, {lo}, {hi}LL, {ch}}}")
    return [f"static const dt_param_info p_{tag}[] = {{{', '.join(rows)}}};",
            f"static const char *const cero_{tag}[] = {{{', '.join(cstr(p.get('cero', '')) for p in params)}}};"]


def registro(spec: Spec) -> str:
    out: List[str] = [f"/* {GENERATED}.",
                      " * The call registry's rows (parameters, choices, checks, record layouts asserted against the",
                      " * structs), one runner per call, and the typed public functions over the registry's check. */",
                      '#include "internal.h"', '#include "registro/registro.h"', "",]
    for name in spec["opciones"]:
        out.append(f"static const char *const ch_{name}[] = {{{', '.join(cstr(v) for v in opcion_nombres(spec, name))}}};")
    out.append("")
    for ll in spec["llamada"]:
        i = ident(ll["nombre"])
        params = ll.get("params", [])
        out += _param_rows(spec, i, params)
        checks = ll.get("checks", [])
        if checks:
            names = [p["nombre"] for p in params]
            out.append(f"static const dt__check k_{i}[] = {{{', '.join(f'{{{names.index(a)}, {names.index(b)}}}' for a, _, b in checks)}}};")
        if ll["clase"] == "registro":
            t = ll["tipo_c"]
            campos = ll["campos"]
            out.append(f"static const char *const n_{i}[] = {{{', '.join(cstr(c['nombre']) for c in campos)}}};")
            out.append(f"static const size_t o_{i}[] = {{{', '.join('offsetof(%s, %s)' % (t, c['nombre']) for c in campos)}}};")
            out.append(f"static const uint8_t nulo_{i}[] = {{{', '.join('1' if c.get('nulo') else '0' for c in campos)}}};")
            for c in campos:
                out.append(f"_Static_assert(sizeof(({t} *)0)->{c['nombre']} == {c['ancho']}, "
                           f"\"{t}.{c['nombre']}: its size must equal its ancho in spec/llamadas.toml\");")
        cols = columnas(ll)
        out.append(f"static const uint8_t sql_{i}[] = {{{', '.join(str(SQL_TIPOS.index(c.get('sql', 'text'))) for c in cols)}}};")
        out.append(f"static const uint8_t unico_{i}[] = {{{', '.join(str(UNICOS.index(c.get('unico', ''))) for c in cols)}}};")
        out.append(f"static const uint8_t sucio_{i}[] = {{{', '.join(str(SUCIOS.index(c.get('sucio', ''))) for c in cols)}}};")
        cargs = "".join(f"({c_type(spec, p)})a[{k}], " for k, p in enumerate(params))
        unused = ["    (void)a;"] if not params else []
        gen = "dt__" + i
        if ll["clase"] == "registro":
            t = ll["tipo_c"]
            out.append(f"_Static_assert(sizeof({t}) <= DT__REGISTRO_MAX, \"{t} is larger than DT__REGISTRO_MAX\");")
            out.append(f"static void g_{i}(dt_gen *g, const int64_t *a, void *out) {{")
            out += unused
            out += [f"    {gen}(g, {cargs}({t} *)out);", "}"]
        if ll["clase"] == "entero":
            out.append(f"static int64_t e_{i}(dt_gen *g, const int64_t *a) {{")
            out += unused
            out += [f"    return {gen}(g{''.join(f', ({c_type(spec, p)})a[{k}]' for k, p in enumerate(params))});", "}"]
        out.append(f"static char *r_{i}(dt_gen *g, const int64_t *a, char *p) {{")
        if ll["clase"] == "texto":
            out += unused + [f"    return {gen}(g, {cargs}p);"]
        elif ll["clase"] == "entero":
            out += [f"    return dt__put_i64(p, e_{i}(g, a));"]
        else:
            out += [f"    {ll['tipo_c']} r;", f"    g_{i}(g, a, &r);", f"    return dt__serializar(&r, o_{i}, {len(ll['campos'])}, p);"]
        out += ["}", ""]
    out.append("/* Indices are part of the ABI within a major version: append only. */")
    out.append("const dt__llamada dt__llamadas[] = {")
    for ll in spec["llamada"]:
        i = ident(ll["nombre"])
        np = len(ll.get("params", []))
        nf = len(ll.get("campos", []))
        nk = len(ll.get("checks", []))
        info = (f"{{{cstr(ll['nombre'])}, {CLASES[ll['clase']]}, {np}, {f'p_{i}' if np else 'NULL'}, "
                f"{nf}, {f'n_{i}' if nf else 'NULL'}}}")
        out.append(f"    {{{info}, r_{i}, {f'o_{i}' if nf else 'NULL'}, {f'nulo_{i}' if nf else 'NULL'}, "
                   f"{f'cero_{i}' if np else 'NULL'}, {nk}, {f'k_{i}' if nk else 'NULL'}, sql_{i}, unico_{i}, sucio_{i}, "
                   f"{f'g_{i}' if nf else 'NULL'}, {f'e_{i}' if ll['clase'] == 'entero' else 'NULL'}, "
                   f"{_fecha_int(ll, 'desde')}, {_fecha_int(ll, 'hasta')}, {cstr(ll.get('hoy', {}).get('porque', ''))}}},")
    out.append("};")
    out.append("const size_t dt__n_llamadas = sizeof dt__llamadas / sizeof dt__llamadas[0];")
    out.append("")
    out.append("/* The typed public functions: the registry's check, then the generator. */")
    for k, ll in enumerate(spec["llamada"]):
        params = ll.get("params", [])
        arr = "NULL"
        out.append(f"{_proto(spec, ll)} {{")
        if params:
            vals = ", ".join("(int64_t)" + p["nombre"] for p in params)
            out.append(f"    const int64_t a[{len(params)}] = {{{vals}}};")
            arr = "a"
        if ll["clase"] == "texto":
            out.append(f"    return dt__llamar_texto(g, {k}, {arr}, buf, cap, len);")
        elif ll["clase"] == "entero":
            out.append(f"    return dt__llamar_entero(g, {k}, {arr}, out);")
        else:
            out.append(f"    return dt__llamar_registro(g, {k}, {arr}, out);")
        out += ["}", ""]
    return "\n".join(out)


def utilidades_c(spec: Spec) -> str:
    out = [f"/* {GENERATED}.", " * The utility registry's rows: name, kind, integer parameters, and the status a refused text gives. */",
           '#include "internal.h"', '#include "registro/registro.h"', ""]
    for name in spec["opciones"]:
        if any(p["tipo"] == name for u in utilidades(spec) for p in util_enteros(u)):
            out.append(f"static const char *const ch_{name}[] = {{{', '.join(cstr(v) for v in opcion_nombres(spec, name))}}};")
    for u in utilidades(spec):
        out += _param_rows(spec, u["nombre"], util_enteros(u))
    out += ["", "/* Indices are part of the ABI within a major version: append only. */", "const dt__utilidad dt__utilidades[] = {"]
    for u in utilidades(spec):
        ps = util_enteros(u)
        kind = "DT_KIND_TEXT" if u["clase"] == "texto" else "DT_KIND_VALIDAR"
        texto = util_texto(u)
        nom = u["nombre"]
        pp = f"p_{nom}" if ps else "NULL"
        cc = f"cero_{nom}" if ps else "NULL"
        tx = cstr(texto["nombre"]) if texto else "NULL"
        info = f"{{{cstr(nom)}, {kind}, {len(ps)}, {pp}, 0, NULL}}"
        out.append(f"    {{{info}, {cc}, dt__util_{nom}, {tx}, {u.get('estado', 'DT_OK')}}},")
    out += ["};", "const size_t dt__n_utilidades = sizeof dt__utilidades / sizeof dt__utilidades[0];", ""]
    return "\n".join(out)


def estados(spec: Spec) -> str:
    out = [f"/* {GENERATED}. Included once, by nucleo/version.c. */", "const char *dt_status_str(int status) {",
           "    switch (status) {"]
    for e in spec["estado"]:
        out.append(f"    case {e['c']}: return {cstr(e['texto'])};")
    out += ["    default: return \"unknown status\";", "    }", "}", ""]
    return "\n".join(out)


def outputs(spec: Spec, root: str) -> List[tuple]:
    import os
    j = os.path.join
    return [
        (j(root, "c", "include", "datoteca_comun.gen.h"), header_comun(spec)),
        (j(root, "c", "include", "datoteca_llamadas.gen.h"), header_llamadas(spec)),
        (j(root, "c", "src", "registro", "generadores.gen.h"), internal_header(spec)),
        (j(root, "c", "src", "registro", "llamadas.gen.c"), registro(spec)),
        (j(root, "c", "src", "registro", "utilidades.gen.c"), utilidades_c(spec)),
        (j(root, "c", "src", "nucleo", "estados.gen.h"), estados(spec)),
    ]
