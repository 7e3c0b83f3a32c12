"""Read the Arrow IPC files Node wrote (tests/node/arrow_ipc_runner.mjs) with pyarrow, validate them
fully, and compare each with Python's own Tabla.arrow() of the same case (tests/cross/arrow_casos.json),
then with the CLI's JSON lines of the same rows.

    python arrow_cross_runner.py DIR CLI

What each comparison proves. Node's file against Python's batch: both bindings hand over the C
producer's Arrow columns intact, and two Arrow libraries (apache-arrow writing IPC, pyarrow reading it
with full validation) agree on them; both sides come from the same C producer (c/src/arrow.c), so an
error in it would be on both sides. Node's file against the CLI: the CLI writes rows through
dt_tabla_filas and its JSON writer, a path that never touches the Arrow producer, and Python's json
module reads them; so the Arrow columns (offsets, validity bitmaps, int64, date32 from the date's
text) must say what the text rows say. Neither proves the generated values themselves: the dataset
digests of fixtures/fingerprint.json and tests/python/test_tabla_derivacion.py do.

Prints one line per case; exits 1 naming the case, column and row of the first difference.
"""
from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from typing import Any, Dict, List, Optional

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


def cli_args(caso: Dict[str, Any]) -> List[str]:
    """The case's options as `datoteca tabla` flags (docs/datasets.md, "In each language")."""
    out = [caso["call"], "-n", str(caso["n"]), "--desde", str(caso["desde"]), "--format", "jsonl"]
    for k, v in caso["opciones"].items():
        if k == "seed":
            out += ["--seed-str", v] if isinstance(v, str) else ["--seed", str(v)]
        elif k in ("campos", "unico"):
            out += [f"--{k}", ",".join(v)]
        elif k == "nulos":
            out += ["--nulos", ",".join(f"{c}:{r}" for c, r in v.items())]
        else:
            out += [f"--{k}", str(v)]
    return out


def diferencia_cli(node: pa.Table, caso: Dict[str, Any], cli: str) -> Optional[str]:
    """The first cell where pyarrow's read of Node's file and the CLI's JSON line disagree, or None."""
    r = subprocess.run([cli, "tabla", *cli_args(caso)], capture_output=True, text=True, encoding="utf-8")
    if r.returncode != 0:
        return f"the CLI failed: {r.stderr.strip()}"
    lineas = r.stdout.splitlines()
    if len(lineas) != node.num_rows:
        return f"the CLI wrote {len(lineas)} rows, Node's file has {node.num_rows}"
    for j, (fila_node, linea) in enumerate(zip(node.to_pylist(), lineas)):
        fila_cli = json.loads(linea)
        if list(fila_cli) != list(fila_node):
            return f"row {caso['desde'] + j}: columns {list(fila_node)} in Node's file, {list(fila_cli)} from the CLI"
        for nombre, v in fila_node.items():
            v = v.isoformat() if isinstance(v, datetime.date) else v
            if v != fila_cli[nombre]:
                return f"column {nombre}, row {caso['desde'] + j}: Node's Arrow file {v!r}, the CLI's text {fila_cli[nombre]!r}"
    return None


def main(carpeta: str, cli: str) -> int:
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
            continue
        otra = diferencia_cli(node, c, cli)
        if otra is None:
            print(f"arrow cross: {etiqueta}: and equals the CLI's JSON lines (dt_tabla_filas, no Arrow producer)")
        else:
            print(f"arrow cross: {etiqueta}: DIFFERS from the CLI's text rows: {otra}")
            fallos += 1
    print(f"arrow cross: {len(casos) - fallos} passed, {fallos} failed")
    return 1 if fallos else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
