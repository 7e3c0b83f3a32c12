"""The Java back end: the choice enums (Opciones), the records (Registros), every call as a method with
its namespace (Llamadas), the constants (Constantes), the one exception hierarchy and the utilities
(Utilidades). The loader (Enlace, Nativo, NativoJna, NativoFfm, Ruta, Nucleo, Datoteca, Tabla, Esquema) is hand-written.

Java wants one public class per file, named as the class, so these files cannot carry `.gen.` in
their names: each starts with the GENERATED line and .gitattributes lists them."""
from __future__ import annotations

import os
from typing import Any, Dict, List, Tuple

from spec import (GENERATED, Spec, camel, de_espacio, error_de_estado, error_tipo, es_entero, opcion_nombres, param_doc,
                  pascal, sin_espacio, util_enteros, util_texto, utilidad_base)

PKG = ("bindings", "java", "src", "main", "java", "cl", "datoteca")
KEYWORDS = {"abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
            "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
            "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
            "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
            "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "record",
            "var", "yield"}
# The builtin each error class also is, from its Python builtin (spec/comun.toml has no Java key):
# Java has single inheritance and `catch` takes classes only, so the base extends the builtin every
# value error needs and each class's own builtin is named in its doc comment.
JAVA_BASE = "IllegalArgumentException"


def ident(s: str) -> str:
    s = camel(s)
    return s + "_" if s in KEYWORDS else s


def java_error(nombre: str) -> str:
    """DatotecaError -> DatotecaException: Java's suffix for the class the spec names ...Error."""
    return nombre[: -len("Error")] + "Exception" if nombre.endswith("Error") else nombre


def record_name(ll: Dict[str, Any]) -> str:
    return pascal(ll["tipo_c"][len("dt_"):])


def enum_name(tipo: str) -> str:
    return pascal(tipo)


def enum_const(v: str) -> str:
    return v.upper()


def jstr(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def javadoc(lines: List[str], indent: str) -> List[str]:
    body = [ln.replace("*/", "*&#47;").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("*&amp;#47;", "*&#47;") for ln in lines]
    if len(body) == 1:
        return [f"{indent}/** {body[0]} */"]
    return [f"{indent}/**"] + [f"{indent} * {b}".rstrip() for b in body] + [f"{indent} */"]


def header(pkg_doc: List[str]) -> List[str]:
    return [f"// {GENERATED}.", "//"] + [f"// {d}" if d else "//" for d in pkg_doc] + ["package cl.datoteca;", ""]


def _param_type(p: Dict[str, Any]) -> str:
    return "Long" if p["tipo"] == "entero" else f"Opciones.{enum_name(p['tipo'])}"


def _ret_type(ll: Dict[str, Any]) -> str:
    return {"texto": "String", "entero": "long"}.get(ll["clase"]) or f"Registros.{record_name(ll)}"


def _field_type(c: Dict[str, Any]) -> str:
    if es_entero(c):
        return "Long" if c.get("nulo") else "long"
    return "String"


# ---- Opciones: one enum per choice set ---------------------------------------------------------

def opciones(spec: Spec) -> str:
    L = header(["The choice sets of the calls' parameters, one enum each. A constant passes its name to the library,",
                "which turns it into its value (the index lives only in C)."])
    L += ["/** The choice sets, one enum each: {@code Opciones.Sexo.F}. */", "public final class Opciones {",
          "    private Opciones() {}", ""]
    L += ["    /** A choice: the name the library knows it by. */", "    public interface Opcion {",
          "        /** The choice's name as the spec writes it ({@code \"F\"}, {@code \"sin_guion\"}). */",
          "        String nombre();", "    }", ""]
    for name, o in spec["opciones"].items():
        L += javadoc([f"{name} ({o['c']})."], "    ")
        L += [f"    public enum {enum_name(name)} implements Opcion {{"]
        vals = opcion_nombres(spec, name)
        L += [f"        {enum_const(v)}({jstr(v)}){',' if i < len(vals) - 1 else ';'}" for i, v in enumerate(vals)]
        L += ["", "        private final String nombre;", "",
              f"        {enum_name(name)}(String nombre) {{", "            this.nombre = nombre;", "        }", "",
              "        @Override", "        public String nombre() {", "            return nombre;", "        }", "    }", ""]
    L[-1:] = ["}"]
    return "\n".join(L) + "\n"


# ---- Registros: one record per record type -----------------------------------------------------

def registros(spec: Spec) -> str:
    L = header(["The records datoteca returns, one Java record per record type: integer fields (sql integer or",
                "bigint in the spec) are long (Long when they may be null), dates are ISO text, every other field",
                "is a String; a field that may be null is null."])
    L += ["import java.util.LinkedHashMap;", "import java.util.Map;", "import java.util.function.Function;", "",
          "/** The records of the record calls ({@code Registros.Persona}, {@code Registros.Direccion}, ...). */",
          "public final class Registros {", "    private Registros() {}", "",
          "    /** What every record is: its fields by name, in the spec's order (integers as Long). */",
          "    public interface Registro {", "        /** The fields by name in the spec's order; a null field is null. */",
          "        Map<String, Object> campos();", "    }", "",
          "    private static String texto(String v) {", "        return v.isEmpty() ? null : v;", "    }", "",
          "    private static Long entero(String v) {", "        return v.isEmpty() ? null : Long.valueOf(v);", "    }", ""]
    hechos: List[str] = []
    fabricas: List[Tuple[str, str]] = []
    for ll in spec["llamada"]:
        if ll["clase"] != "registro":
            continue
        rn = record_name(ll)
        fabricas.append((ll["nombre"], rn))
        if rn in hechos:
            continue  # a record type two calls share is declared once
        hechos.append(rn)
        campos = ll["campos"]
        comps = ", ".join(f"{_field_type(c)} {ident(c['nombre'])}" for c in campos)
        nulos = [c["nombre"] for c in campos if c.get("nulo")]
        doc = [f"The record of {ll['nombre']}.", "", f"Fields: {', '.join(c['nombre'] for c in campos)}."]
        if nulos:
            doc.append(f"May be null: {', '.join(nulos)}.")
        L += javadoc(doc, "    ")
        L += [f"    public record {rn}({comps}) implements Registro {{"]
        args = []
        for k, c in enumerate(campos):
            v = f"v[{k}]"
            if es_entero(c):
                v = f"entero({v})" if c.get("nulo") else f"Long.parseLong({v})"
            elif c.get("nulo"):
                v = f"texto({v})"
            args.append(v)
        L += ["        /** A record from the library's fields, in order (the text split at DT_FIELD_SEP). */",
              f"        static {rn} de(String[] v) {{", f"            return new {rn}({', '.join(args)});", "        }", "",
              "        @Override", "        public Map<String, Object> campos() {",
              f"            Map<String, Object> m = new LinkedHashMap<>({len(campos) * 2});"]
        L += [f"            m.put({jstr(c['nombre'])}, {ident(c['nombre'])});" for c in campos]
        L += ["            return m;", "        }", "    }", ""]
    L += ["    /** The builder of a record call's record, or null for a call that is not a record. */",
          "    static Function<String[], Registro> fabrica(String llamada) {", "        switch (llamada) {"]
    L += [f"            case {jstr(n)}: return {rn}::de;" for n, rn in fabricas]
    L += ["            default: return null;", "        }", "    }", "}"]
    return "\n".join(L) + "\n"


# ---- Llamadas: every call as a method, in its namespace ----------------------------------------

def _method(spec: Spec, ll: Dict[str, Any], receiver: str, field: str) -> List[str]:
    short = ident(ll["nombre"].rpartition(".")[2])
    params = ll.get("params", [])
    ret = _ret_type(ll)
    doc = [ll["doc"]]
    if params:
        doc += ["", "A null argument (or the overload without it) takes the library's default."]
        doc += [param_doc(spec, p) for p in params]
    if ll["clase"] == "registro":
        doc += ["", "Fields: " + ", ".join(c["nombre"] + (" (long)" if es_entero(c) else "") for c in ll["campos"]) + "."]
    doc += ["", f"Example (seed 42): {ll['ejemplo']}"]
    cast = {"texto": "(String) ", "entero": "(Long) "}.get(ll["clase"], f"({ret}) ")
    L: List[str] = []
    if params:
        sig = ", ".join(f"{_param_type(p)} {ident(p['nombre'])}" for p in params)
        vals = ", ".join(ident(p["nombre"]) for p in params)
        L += [""] + javadoc(doc, "        ")
        L += [f"        public {ret} {short}({sig}) {{",
              f"            return {cast}{receiver}.ejecutar({field}, new Object[] {{{vals}}});", "        }"]
        L += ["", f"        /** {ll['nombre']} with every argument at its default. */"]
    else:
        L += [""] + javadoc(doc, "        ")
    L += [f"        public {ret} {short}() {{", f"            return {cast}{receiver}.ejecutar({field}, null);", "        }"]
    return L


def llamadas(spec: Spec) -> str:
    L = header(["Every call as a method, the namespaces. An argument left out (or null) is passed to the C library",
                "as absent, so defaults live only there; the library checks every value and its sentence is thrown",
                "as InvalidArgumentException."])
    L += ["/** The generated half of {@link Datoteca}: its namespaces and the calls without one. */",
          "public abstract class Llamadas {", ""]
    for i, ll in enumerate(spec["llamada"]):
        L.append(f"    static final Nucleo.Llamada L{i} = Nucleo.llamada({jstr(ll['nombre'])});")
    L += ["", "    /** Run one call with its arguments (null: every one at its default). */",
          "    abstract Object ejecutar(Nucleo.Llamada llamada, Object[] args);", ""]
    idx = {ll["nombre"]: i for i, ll in enumerate(spec["llamada"])}
    for ns in spec["espacios"]:
        L += [f"    /** {ns}: {spec['espacios'][ns]}. */", f"    public final Espacio{pascal(ns)} {ident(ns)} = new Espacio{pascal(ns)}(this);"]
    L.append("")
    for ns, nsdoc in spec["espacios"].items():
        cls = f"Espacio{pascal(ns)}"
        L += javadoc([f"{ns}: {nsdoc}."], "    ")
        L += [f"    public static final class {cls} {{", "        private final Llamadas d;", "",
              f"        {cls}(Llamadas d) {{", "            this.d = d;", "        }"]
        for ll in de_espacio(spec, ns):
            L += _method(spec, ll, "d", f"L{idx[ll['nombre']]}")
        L += ["    }", ""]
    for ll in sin_espacio(spec):
        L += [ln[4:] for ln in _method(spec, ll, "this", f"L{idx[ll['nombre']]}")]
    L += ["}"]
    return "\n".join(L) + "\n"


# ---- Constantes and the errors -----------------------------------------------------------------

def _jconst(k: Dict[str, Any]) -> Tuple[str, str]:
    if k.get("tipo") == "texto":
        return "String", jstr(k["valor"])
    if k.get("tipo") == "caracter":
        return "char", f"'\\u{k['valor']:04x}'"
    v = k["valor"]
    if not -(2**31) <= v < 2**31:
        return "long", (hex(v) if k.get("hex") else str(v)) + "L"
    return "int", hex(v) if k.get("hex") else str(v)


def constantes(spec: Spec) -> str:
    L = header(["The constants, limits and names every runtime shares."])
    L += ["import java.util.List;", "", "/** The constants and limits of spec/comun.toml, and the generic enums' names. */",
          "public final class Constantes {", "    private Constantes() {}", ""]
    for k in spec["constante"]:
        t, v = _jconst(k)
        if k.get("doc"):
            L += javadoc([k["doc"]], "    ")
        L.append(f"    public static final {t} {k['c'][len('DT_'):]} = {v};")
    for e in spec["estado"]:
        L += javadoc([f"Status {e['c']}: {e['doc']}."], "    ")
        L.append(f"    public static final int {e['c'][len('DT_'):]} = {e['valor']};")
    for name, en in spec["enum"].items():
        const = name[len("dt_"):].upper() + "S"
        L += javadoc([f"{en['doc']} (the index is the C value)."], "    ")
        L.append(f"    public static final List<String> {const} = List.of({', '.join(jstr(v['nombre']) for v in en['valores'])});")
    L += ["}"]
    return "\n".join(L) + "\n"


def errores(spec: Spec) -> List[Tuple[str, str]]:
    """One file per class (Java's rule), and Errores: the class of each status, its C name."""
    files = []
    por_estado = {c: v for v, c in error_de_estado(spec).items()}
    for e in spec["error"]:
        jn = java_error(e["nombre"])
        L = header(["One class of the error hierarchy (spec/comun.toml): the same class and sentence for the same",
                    "input in every language."])
        if e["nombre"] == "DatotecaError":
            L += javadoc([e["doc"], "",
                          f"It extends {JAVA_BASE}: Java has single inheritance, and every other class is a value error",
                          "(Python's ValueError/TypeError) a caller catches as one. {@link #errorName()} is the spec's name,",
                          "the same in every runtime; {@link #status()} the C status and {@link #code()} its name."], "")
            L += [f"public class {jn} extends {JAVA_BASE} {{", "    private static final long serialVersionUID = 1L;",
                  "    private final int status;", "",
                  "    /** An error with the library's sentence and the C status (0 when none). */",
                  f"    public {jn}(String message, int status) {{", "        super(message);", "        this.status = status;", "    }", "",
                  "    /** The C status (dt_status) that raised it. */", "    public int status() {", "        return status;", "    }", "",
                  "    /** The status's C name (\"DT_ERR_INVALID_ARG\"), or \"\" for none. */",
                  "    public String code() {", "        return Errores.codigo(status);", "    }", "",
                  "    /** The class's name in the spec, the same in every runtime (\"InvalidArgumentError\"). */",
                  "    public String errorName() {", f"        return {jstr(e['nombre'])};", "    }", "}"]
        else:
            st = por_estado.get(e["nombre"], 2 if e.get("tipo") else 0)
            L += javadoc([e["doc"], "", f"Python raises it as a {e['python']}, Node as a {e['node']}."], "")
            L += [f"public class {jn} extends DatotecaException {{", "    private static final long serialVersionUID = 1L;", "",
                  f"    /** With the library's sentence and status {st}. */", f"    public {jn}(String message) {{",
                  f"        super(message, {st});", "    }", "",
                  "    /** With the library's sentence and the status that raised it. */",
                  f"    public {jn}(String message, int status) {{", "        super(message, status);", "    }", "",
                  "    @Override", "    public String errorName() {", f"        return {jstr(e['nombre'])};", "    }", "}"]
        files.append((f"{jn}.java", "\n".join(L) + "\n"))
    L = header(["The class a runtime throws for each status, and each status's C name."])
    L += ["/** Status to exception: {@link #de(int, String)}. */", "final class Errores {", "    private Errores() {}", "",
          "    /** Each status's C name, or \"\" for an unknown status. */", "    static String codigo(int status) {",
          "        switch (status) {"]
    L += [f"            case {e['valor']}: return {jstr(e['c'])};" for e in spec["estado"]]
    L += ["            default: return \"\";", "        }", "    }", "",
          "    /** The exception for a non-zero status, with the sentence the library wrote. */",
          "    static DatotecaException de(int status, String message) {", "        switch (status) {"]
    L += [f"            case {v}: return new {java_error(c)}(message, status);" for v, c in error_de_estado(spec).items()]
    L += ["            default: return new DatotecaException(message, status);", "        }", "    }", "",
          "    /** A wrong argument type, found while converting (the library never sees it). */",
          "    static DatotecaException tipo(String message) {",
          f"        return new {java_error(error_tipo(spec))}(message);", "    }", "}"]
    files.append(("Errores.java", "\n".join(L) + "\n"))
    return files


# ---- Utilidades --------------------------------------------------------------------------------

def utilidades(spec: Spec) -> str:
    L = header(["The utilities (RUT, plates, money): pure functions over the library's utility registry, which checks",
                "their arguments as it checks every call's."])
    L += ["/** RUT, plate and money utilities: pure and thread-safe. */", "public final class Utilidades {",
          "    private Utilidades() {}", ""]
    bases = [u for u in spec["utilidad"] if "como" not in u]
    for i, u in enumerate(bases):
        L.append(f"    private static final Nucleo.Utilidad U{i} = Nucleo.utilidad({jstr(u['nombre'])});")
    idx = {u["nombre"]: i for i, u in enumerate(bases)}
    for u in spec["utilidad"]:
        base = utilidad_base(spec, u)
        fijo = u.get("fijo", {})
        texto = util_texto(base)
        enteros = util_enteros(base)
        ret = "boolean" if base["clase"] == "validar" else "String"
        libres = [p for p in enteros if p["nombre"] not in fijo]

        def jt(p: Dict[str, Any]) -> str:
            return "long" if p["tipo"] == "entero" else f"Opciones.{enum_name(p['tipo'])}"

        def variant(con: List[Dict[str, Any]]) -> List[str]:
            sig = ([f"String {ident(texto['nombre'])}"] if texto else []) + [f"{jt(p)} {ident(p['nombre'])}" for p in con]
            vals = []
            for p in enteros:
                if p["nombre"] in fijo:
                    vals.append(f"Opciones.{enum_name(p['tipo'])}.{enum_const(fijo[p['nombre']])}" if p["tipo"] != "entero" else str(fijo[p["nombre"]]))
                elif p in con:
                    vals.append(ident(p["nombre"]))
                else:
                    vals.append("null")
            arr = f"new Object[] {{{', '.join(vals)}}}" if vals else "null"
            tx = ident(texto["nombre"]) if texto else "null"
            tn = jstr(texto["nombre"]) if texto else "null"
            call = f"Nucleo.util(U{idx[base['nombre']]}, {tn}, {tx}, {arr})"
            body = f"return (Boolean) {call};" if ret == "boolean" else f"return (String) {call};"
            return [f"    public static {ret} {ident(u['nombre'])}({', '.join(sig)}) {{", f"        {body}", "    }"]

        doc = [u["doc"], "", f"Example: {u['ejemplo']}."]
        con_defecto = [p for p in libres if "defecto" in p]
        L += [""] + javadoc(doc, "    ") + variant(libres)
        if con_defecto:
            sin = [p for p in libres if "defecto" not in p]
            L += ["", f"    /** {u['nombre']} with {', '.join(p['nombre'] for p in con_defecto)} at the library's default. */"]
            L += variant(sin)
    L += ["}"]
    return "\n".join(L) + "\n"


def outputs(spec: Spec, root: str) -> List[tuple]:
    d = os.path.join(root, *PKG)
    files = [("Opciones.java", opciones(spec)), ("Registros.java", registros(spec)), ("Llamadas.java", llamadas(spec)),
             ("Constantes.java", constantes(spec)), ("Utilidades.java", utilidades(spec))] + errores(spec)
    return [(os.path.join(d, n), t) for n, t in files]
