"""Read the Arrow IPC files Node wrote (tests/node/arrow_ipc_runner.mjs) with pyarrow, validate them
fully, and compare each with Python's own Tabla.arrow() of the same case (tests/cross/arrow_casos.json).

    python arrow_cross_runner.py DIR

Prints one line per case; exits 1 naming the case, column and row of the first difference.
"""
from __future__ import annotations

import json
import os
import sys

import pyarrow as pa
import pyarrow.ipc as ipc

import datoteca

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def primera_diferencia(a: pa.Table, b: pa.Table) -> str:
    if a.schema != b.schema:
        return f"schema: Node {a.schema} / Python {b.schema}"
    for nombre in a.column_names:
        x, y = a.column(nombre).to_pylist(), b.column(nombre).to_pylist()
        for i, (u, v) in enumerate(zip(x, y)):
            if u != v:
                return f"column {nombre}, row {i}: Node {u!r}, Python {v!r}"
    return "rows differ in number"


def main(carpeta: str) -> int:
    with open(os.path.join(ROOT, "tests", "cross", "arrow_casos.json"), encoding="utf-8") as f:
        casos = json.load(f)["casos"]
    fallos = 0
    for k, c in enumerate(casos):
        etiqueta = f"case {k} ({c['call']}, n={c['n']}, desde={c['desde']}, {json.dumps(c['opciones'])})"
        node = ipc.open_file(os.path.join(carpeta, f"{k}.arrow")).read_all()
        node.validate(full=True)
        python = pa.table(datoteca.Tabla(c["call"], **c["opciones"]).arrow(c["n"], c["desde"]))
        if node.num_rows == python.num_rows and node.equals(python):
            print(f"arrow cross: {etiqueta}: Node's file equals Python's batch ({node.num_rows} rows, {node.num_columns} columns)")
        else:
            print(f"arrow cross: {etiqueta}: DIFFERS: {primera_diferencia(node, python)}")
            fallos += 1
    print(f"arrow cross: {len(casos) - fallos} passed, {fallos} failed")
    return 1 if fallos else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
