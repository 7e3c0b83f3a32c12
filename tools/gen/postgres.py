"""Back end: the PostgreSQL extension's SQL script, control file and C glue (postgres/, docs/postgres.md).

One set-returning function per dataset call and one scalar per utility. The glue only says which call
or utility a function is and how its SQL arguments map onto the registry's; the hand-written
postgres/datoteca_pg.c converts, calls the library and raises (no rule of the library lives here).

A dataset function is named after its call ('.' as '_', and 'ns.ns' as plain 'ns': persona.persona is
datoteca.persona, as `datoteca tabla persona`), returns SETOF a composite type <name>_fila whose columns
are the spec's sql types (the library's DDL types: the C glue checks them against dt_tabla_columna at
the first call), and takes (n, semilla, desde, the call's params, unico, nulos, sucio, hoy,
semilla_texto). A call param named like one of those fixed arguments would clash, so every param of
such a call is prefixed with the call's last name (fecha.fecha's desde and hasta are fecha_desde and
fecha_hasta).
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Tuple

import postgres_upgrade
from spec import GENERATED, ROOT, Spec, cstr, default_int, utilidad_base, util_enteros, util_texto

FIJOS = ["n", "semilla", "desde", "unico", "nulos", "sucio", "hoy", "semilla_texto"]
TIPOS_SQL = {"text": "text", "date": "date", "char1": "char(1)", "integer": "integer", "bigint": "bigint"}
ENTERO_SQL = {"int32_t": "integer", "int64_t": "bigint", "uint32_t": "bigint"}
# How the C glue reads each SQL argument of a call param: 'i' int4, 'l' int8, 'o' a choice's name.
ENTERO_C = {"int32_t": "i", "int64_t": "l", "uint32_t": "l"}


def version(root: str) -> str:
    with open(os.path.join(root, "c", "include", "datoteca.h"), encoding="utf-8") as f:
        h = f.read()
    parts = [re.search(rf"#define DT_VERSION_{k} (\d+)", h).group(1) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def funcion(ll: Dict[str, Any]) -> str:
    ns, _, nombre = ll["nombre"].rpartition(".")
    return nombre if ns == nombre else ll["nombre"].replace(".", "_")


def columnas(ll: Dict[str, Any]) -> List[Tuple[str, str]]:
    if ll["clase"] == "registro":
        return [(c["nombre"], TIPOS_SQL[c.get("sql", "text")]) for c in ll["campos"]]
    nombre = ll["nombre"].rpartition(".")[2]
    return [(nombre, TIPOS_SQL[ll.get("sql", "bigint" if ll["clase"] == "entero" else "text")])]


def params(spec: Spec, ll: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The call's params as SQL arguments: name, SQL type, default literal, glue kind."""
    ps = ll.get("params", [])
    choca = any(p["nombre"] in FIJOS for p in ps)
    pref = ll["nombre"].rpartition(".")[2] + "_" if choca else ""
    out = []
    for p in ps:
        if p["tipo"] == "entero":
            d = {"sql": ENTERO_SQL[p["c"]], "kind": ENTERO_C[p["c"]],
                 "defecto": str(p["defecto"]) if "defecto" in p else "NULL"}
        else:
            d = {"sql": "text", "kind": "o", "defecto": "'" + p["defecto"].replace("'", "''") + "'"}
        d["nombre"] = pref + p["nombre"]
        out.append(d)
    return out


def _ident(s: str) -> str:
    return '"' + s + '"'


def gen_sql(spec: Spec, ver: str) -> str:
    out = [f"-- {GENERATED}: tools/gen/postgres.py.",
           "-- The datoteca extension: one set-returning function per dataset call, one scalar per utility.",
           "-- docs/postgres.md says how to install and use it.",
           "",
           "\\echo Use \"CREATE EXTENSION datoteca\" to load this file. \\quit",
           ""]
    nombres = set()
    for ll in spec["llamada"]:
        f = funcion(ll)
        assert f not in nombres, f"two calls map to datoteca.{f}"
        nombres.add(f)
        cols = columnas(ll)
        out.append(f"CREATE TYPE @extschema@.{f}_fila AS (")
        out.append(",\n".join(f"  {_ident(c)} {t}" for c, t in cols))
        out.append(");")
        args = ["n bigint", "semilla bigint DEFAULT 0", "desde bigint DEFAULT 0"]
        args += [f"{_ident(p['nombre'])} {p['sql']} DEFAULT {p['defecto']}" for p in params(spec, ll)]
        args += ["unico text[] DEFAULT NULL", "nulos text DEFAULT NULL", "sucio text DEFAULT NULL",
                 "hoy date DEFAULT NULL", "semilla_texto text DEFAULT NULL"]
        # IMMUTABLE: a dataset's rows are a pure function of its arguments (no clock, no locale, no
        # setting); the reference date defaults to a constant, not to today.
        out.append(f"CREATE FUNCTION @extschema@.{f}(\n  " + ",\n  ".join(args) + f"\n) RETURNS SETOF @extschema@.{f}_fila")
        out.append(f"  AS 'MODULE_PATHNAME', 'datoteca_t_{f}' LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 1000;")
        doc = ll["doc"].replace("'", "''")
        out.append(f"COMMENT ON FUNCTION @extschema@.{f} IS 'Rows [desde, desde + n) of the dataset {ll['nombre']}: {doc}';")
        # The same rows inserted into a table as COPY does (datoteca_llenar.c): it writes, so VOLATILE and
        # PARALLEL UNSAFE.
        assert f"llenar_{f}" not in nombres, f"datoteca.llenar_{f} clashes"
        nombres.add(f"llenar_{f}")
        out.append(f"CREATE FUNCTION @extschema@.llenar_{f}(\n  tabla regclass,\n  " + ",\n  ".join(args) + "\n) RETURNS bigint")
        out.append(f"  AS 'MODULE_PATHNAME', 'datoteca_l_{f}' LANGUAGE C VOLATILE PARALLEL UNSAFE;")
        out.append(f"COMMENT ON FUNCTION @extschema@.llenar_{f} IS 'Insert rows [desde, desde + n) of the dataset "
                   f"{ll['nombre']} into tabla, in batches as COPY does; returns the rows inserted.';")
        out.append("")
    for u in spec["utilidad"]:
        f = u["nombre"]
        assert f not in nombres, f"utility {f} clashes with a dataset function"
        nombres.add(f)
        base = utilidad_base(spec, u)
        fijo = u.get("fijo", {})
        args = []
        t = util_texto(base)
        if t:
            args.append(f"{_ident(t['nombre'])} text")
        for p in util_enteros(base):
            if p["nombre"] in fijo:
                continue
            if p["tipo"] == "entero":
                args.append(f"{_ident(p['nombre'])} {ENTERO_SQL[p['c']]}")
            else:
                args.append(f"{_ident(p['nombre'])} text DEFAULT '{p['defecto']}'")
        ret = "boolean" if base["clase"] == "validar" else "text"
        # STRICT: a NULL in is a NULL out, as SQL's own functions; nothing is drawn, so IMMUTABLE.
        out.append(f"CREATE FUNCTION @extschema@.{f}(" + ", ".join(args) + f") RETURNS {ret}")
        out.append(f"  AS 'MODULE_PATHNAME', 'datoteca_u_{f}' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;")
        out.append(f"COMMENT ON FUNCTION @extschema@.{f} IS '{u['doc'].replace(chr(39), chr(39) * 2)}';")
        out.append("")
    with open(os.path.join(ROOT, "postgres", "datoteca_manual.sql"), encoding="utf-8") as f:
        out.append("-- ---- from postgres/datoteca_manual.sql (hand-written) ----")
        out.append(f.read())
    return "\n".join(out)


def gen_glue(spec: Spec) -> str:
    out = [f"/* {GENERATED}: tools/gen/postgres.py. */",
           "/* Which call or utility each SQL function of postgres/datoteca--*.sql is, and how its SQL",
           " * arguments map onto the registry's; postgres/datoteca_pg.c does the work. */",
           '#include "datoteca_pg.h"', ""]
    for ll in spec["llamada"]:
        f = funcion(ll)
        ps = params(spec, ll)
        cols = columnas(ll)
        out.append(f"static const dt_pg_columna col_{f}[] = {{" + ", ".join(
            f"{{{cstr(c)}, {cstr(t)}}}" for c, t in cols) + "};")
        out.append(f"static dt_pg_llamada ll_{f} = {{{cstr(ll['nombre'])}, {cstr('datoteca.' + f)}, {len(ps)}, "
                   f"{cstr(''.join(p['kind'] for p in ps))}, {len(cols)}, col_{f}, 0, 0}};")
        out.append(f"PG_FUNCTION_INFO_V1(datoteca_t_{f});")
        out.append(f"Datum datoteca_t_{f}(PG_FUNCTION_ARGS) {{ return dt_pg_tabla(fcinfo, &ll_{f}); }}")
        out.append(f"static dt_pg_llamada ll_llenar_{f} = {{{cstr(ll['nombre'])}, {cstr('datoteca.llenar_' + f)}, {len(ps)}, "
                   f"{cstr(''.join(p['kind'] for p in ps))}, {len(cols)}, col_{f}, 0, 0}};")
        out.append(f"PG_FUNCTION_INFO_V1(datoteca_l_{f});")
        out.append(f"Datum datoteca_l_{f}(PG_FUNCTION_ARGS) {{ return dt_pg_llenar(fcinfo, &ll_llenar_{f}); }}")
        out.append("")
    for u in spec["utilidad"]:
        f = u["nombre"]
        base = utilidad_base(spec, u)
        fijo = u.get("fijo", {})
        kinds, fijos = [], []
        for p in util_enteros(base):
            if p["nombre"] in fijo:
                kinds.append("f")
                fijos.append(str(default_int(spec, dict(p, defecto=fijo[p["nombre"]]))))
            else:
                kinds.append("o" if p["tipo"] != "entero" else ENTERO_C[p["c"]])
                fijos.append("0")
        arr = "{" + ", ".join(fijos or ["0"]) + "}"
        out.append(f"static dt_pg_utilidad ut_{f} = {{{cstr(base['nombre'])}, {cstr('datoteca.' + f)}, "
                   f"{1 if util_texto(base) else 0}, {1 if base['clase'] == 'validar' else 0}, "
                   f"{cstr(''.join(kinds))}, {arr}, 0, 0}};")
        out.append(f"PG_FUNCTION_INFO_V1(datoteca_u_{f});")
        out.append(f"Datum datoteca_u_{f}(PG_FUNCTION_ARGS) {{ return dt_pg_util(fcinfo, &ut_{f}); }}")
        out.append("")
    return "\n".join(out)


def gen_control(ver: str) -> str:
    return (f"# {GENERATED}: tools/gen/postgres.py.\n"
            "comment = 'deterministic Chilean test data (datasets and utilities of libdatoteca)'\n"
            f"default_version = '{ver}'\n"
            "module_pathname = '$libdir/datoteca'\n"
            "relocatable = false\n"
            "schema = datoteca\n"
            "superuser = true\n"
            "trusted = false\n")


def outputs(spec: Spec, root: str) -> List[tuple]:
    ver = version(root)
    d = os.path.join(root, "postgres")
    sql = gen_sql(spec, ver)
    return [(os.path.join(d, f"datoteca--{ver}.sql"), sql),
            (os.path.join(d, "datoteca_glue.gen.c"), gen_glue(spec)),
            (os.path.join(d, "datoteca.control"), gen_control(ver))] + postgres_upgrade.outputs(sql, ver, root)
