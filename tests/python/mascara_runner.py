"""The masking contract's runner: the hand-written cases of tests/mascara/casos.json masked under the
published test key by the C library's row plan (dt_mascara_plan_*, through the binding's CFFI
handle), in the form fixtures/mascara.json records them.

tools/regen_fixtures.py writes the fixture with it; tests/python/test_mascara_contrato.py checks the
fixture against it, against the CLI and against the Python API. Nothing here writes a fixture.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASOS = os.path.join(ROOT, "tests", "mascara", "casos.json")
FIXTURE = os.path.join(ROOT, "fixtures", "mascara.json")

# The published test key (docs/enmascarar.md, "The masking contract"): the bytes 0x00..0x1f, as in
# the BLAKE2s and SipHash reference vectors. Anyone can read it, so it must never mask real data.
CLAVE_DE_PRUEBA = bytes(range(32)).hex()

Caso = Dict[str, Any]


def load_casos(path: Optional[str] = None) -> List[Caso]:
    with open(path or CASOS, encoding="utf-8") as f:
        return list(json.load(f)["casos"])


def load_fixture(path: Optional[str] = None) -> Dict[str, Any]:
    with open(path or FIXTURE, encoding="utf-8") as f:
        return dict(json.load(f))


class Refused(Exception):
    """The library refused a case's rules, header or a row: the sentence, which never holds a value."""


def mascarar(caso: Caso, clave_hex: str = CLAVE_DE_PRUEBA) -> Dict[str, Any]:
    """The case's rows masked by the C plan: {"columnas": [...], "filas": [[...], ...]}."""
    from datoteca._lib import ffi, lib

    why = ffi.new("char[]", 512)
    kh = clave_hex.encode()
    kp = ffi.new("dt_mascara_clave **")
    if lib.dt_mascara_clave_new(kh, len(kh), kp, why, 512) != 0:
        raise Refused(ffi.string(why).decode())
    clave = ffi.gc(kp[0], lib.dt_mascara_clave_free)
    texto = caso["reglas"].encode()
    rp = ffi.new("dt_mascara_reglas **")
    if lib.dt_mascara_reglas_new(texto, len(texto), lib.DT_MASCARA_TOML, caso["nombre"].encode(), rp, why, 512) != 0:
        raise Refused(ffi.string(why).decode())
    reglas = ffi.gc(rp[0], lib.dt_mascara_reglas_free)

    def arrays(valores: List[str]) -> Any:
        bs = [ffi.new("char[]", v.encode()) for v in valores]
        ptrs = ffi.new("const char *[]", bs) if bs else ffi.NULL
        lens = ffi.new("size_t[]", [len(v.encode()) for v in valores]) if bs else ffi.NULL
        return bs, ptrs, lens

    keep, cols, lens = arrays(caso["columnas"])
    pp = ffi.new("dt_mascara_plan **")
    if lib.dt_mascara_plan_new(reglas, clave, len(caso["columnas"]), cols, lens, pp, why, 512) != 0:
        raise Refused(ffi.string(why).decode())
    plan = ffi.gc(pp[0], lib.dt_mascara_plan_free)
    n_out = lib.dt_mascara_plan_ncolumnas(plan)
    largo = ffi.new("size_t *")

    def salida(i: int) -> str:
        return bytes(ffi.buffer(lib.dt_mascara_plan_columna(plan, i, largo), largo[0])).decode()

    columnas = [salida(i) for i in range(n_out)]
    filas = []
    for r, fila in enumerate(caso["filas"], start=1):
        keep_r, vals, vlens = arrays(fila)
        if lib.dt_mascara_plan_fila(plan, r, len(fila), vals, vlens, why, 512) != 0:
            raise Refused(ffi.string(why).decode())
        out = []
        for i in range(n_out):
            p = lib.dt_mascara_plan_valor(plan, i, largo)
            out.append(bytes(ffi.buffer(p, largo[0])).decode())
        filas.append(out)
        del keep_r
    del keep
    return {"columnas": columnas, "filas": filas}


def fixture(casos: List[Caso], version: str, mascara_version: int, since: Dict[str, str],
            first: Dict[str, str]) -> Dict[str, Any]:
    """The fixture: each case's inputs beside its outputs, `since` the library version that first
    recorded it, `first` the library version that first shipped each mapping version."""
    return {
        "comentario": [
            "The masking contract, written by tools/regen_fixtures.py only (docs/enmascarar.md).",
            "Each case's rules, header and rows masked under clave_de_prueba; every runtime must give",
            "exactly 'salida'. A changed output is a new mapping version, which needs a new major version.",
        ],
        "mascara_version": mascara_version,
        "primera_version": first,
        "written_by": version,
        "clave_de_prueba": CLAVE_DE_PRUEBA,
        "casos": [
            {
                "nombre": c["nombre"],
                "since": since.get(c["nombre"], version),
                "reglas": c["reglas"],
                "columnas": c["columnas"],
                "filas": c["filas"],
                "salida": mascarar(c),
            }
            for c in casos
        ],
    }


def canonical(fx: Dict[str, Any]) -> str:
    """The bytes regen writes: indented objects, each row on one line, so a diff shows a row."""
    head = {k: v for k, v in fx.items() if k != "casos"}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append('  "casos": [')
    for ci, c in enumerate(fx["casos"]):
        lines.append("    {")
        for k in ("nombre", "since", "reglas", "columnas"):
            lines.append(f"      {json.dumps(k)}: {json.dumps(c[k], ensure_ascii=False)},")
        lines.append('      "filas": [')
        lines.extend(f"        {json.dumps(f, ensure_ascii=False)}{',' if i + 1 < len(c['filas']) else ''}"
                     for i, f in enumerate(c["filas"]))
        lines.append("      ],")
        s = c["salida"]
        lines.append('      "salida": {')
        lines.append(f'        "columnas": {json.dumps(s["columnas"], ensure_ascii=False)},')
        lines.append('        "filas": [')
        lines.extend(f"          {json.dumps(f, ensure_ascii=False)}{',' if i + 1 < len(s['filas']) else ''}"
                     for i, f in enumerate(s["filas"]))
        lines.append("        ]")
        lines.append("      }")
        lines.append("    }" + ("," if ci + 1 < len(fx["casos"]) else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def check(fx: Dict[str, Any]) -> List[str]:
    """Every recorded output compared with what the loaded library gives: one line per difference,
    naming the case, the row and the column."""
    out = []
    for c in fx["casos"]:
        try:
            got = mascarar(c, fx["clave_de_prueba"])
        except Refused as why:
            out.append(f"masking: case {c['nombre']}: refused: {why}")
            continue
        want = c["salida"]
        if got["columnas"] != want["columnas"]:
            out.append(f"masking: case {c['nombre']}: output columns {got['columnas']}, recorded {want['columnas']}")
            continue
        for r, (e, g) in enumerate(zip(want["filas"], got["filas"]), start=1):
            out.extend(f"masking: case {c['nombre']}, row {r}, column {col}: expected {a!r}, got {b!r}"
                       for col, a, b in zip(want["columnas"], e, g) if a != b)
    return out


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--check"]:
        sys.exit("usage: mascara_runner.py --check   (the loaded library against fixtures/mascara.json)")
    fx = load_fixture()
    diffs = check(fx)
    for line in diffs[:20]:
        print(line, file=sys.stderr)
    if diffs:
        sys.exit(f"masking contract: {len(diffs)} differences")
    print(f"masking contract: {len(fx['casos'])} cases as recorded")
