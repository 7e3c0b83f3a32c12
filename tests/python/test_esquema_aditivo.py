"""Adding a column or a table to a schema changes nothing else (docs/esquemas.md#determinism): the
shipped esquemas/banco.toml (read from the repository, with every `filas` at 300 for speed) with a
column in the middle of clientes and a table before movimientos gives every other column of every
table value for value. The same test runs in C (tests/c/test_esquema.c) and Node
(tests/node/esquema.test.mjs)."""
import os
import re

import pytest

from conftest import ROOT
from datoteca import Esquema

SEED = 42

with open(os.path.join(ROOT, "esquemas", "banco.toml"), encoding="utf-8") as f:
    BANCO = re.sub(r"(?m)^filas = \d+", "filas = 300", f.read())

COLUMNA = 'vive_en = { llamada = "direccion.comuna" }\n'
TABLA = ('[tablas.seguros]\npor = "clientes"\ncuantos = { min = 0, max = 2 }\n\n[tablas.seguros.columnas]\n'
         'id = { serie = true }\ncliente_id = { ref = "clientes.id" }\nprima = { llamada = "dinero.monto", min = 5000, max = 90000 }\n\n')


def con_agregados(doc: str, columna: bool = True, tabla: bool = True) -> str:
    """The document with COLUMNA right after clientes' first column and/or TABLA before movimientos."""
    cabeza = "[tablas.clientes.columnas]\n"
    a, b = doc.find(cabeza), doc.find("[tablas.movimientos]")
    assert a >= 0 and b > a, "esquemas/banco.toml has no clientes columns or no movimientos table: update this test"
    fin = doc.index("\n", a + len(cabeza)) + 1  # the end of clientes' first column
    return doc[:fin] + (COLUMNA if columna else "") + doc[fin:b] + (TABLA if tabla else "") + doc[b:]


@pytest.mark.parametrize("columna,tabla", [(True, True), (True, False), (False, True)], ids=["both", "column", "table"])
def test_adding_a_column_and_a_table_changes_nothing_else(columna: bool, tabla: bool) -> None:
    a = Esquema(BANCO, seed=SEED)
    b = Esquema(con_agregados(BANCO, columna, tabla), seed=SEED)
    assert len(b.tablas) == len(a.tablas) + tabla
    assert [c["nombre"] for c in b.columnas("clientes")][1:2] == (["vive_en"] if columna else [a.columnas("clientes")[1]["nombre"]])
    if tabla:
        assert b.tablas.index("seguros") == b.tablas.index("movimientos") - 1 and b.total("seguros") > 0
    for t in a.tablas:
        assert b.total(t) == a.total(t), f"seed {SEED}, {t}: {a.total(t)} rows became {b.total(t)}"
        fa, fb = a.filas(t), b.filas(t)
        for c in a.columnas(t):
            n = c["nombre"]
            for r, (x, y) in enumerate(zip(fa, fb)):
                assert x[n] == y[n], f"seed {SEED}, {t}.{n} row {r}: {x[n]!r} became {y[n]!r}"


def test_the_test_can_fail() -> None:
    """A change that does move values (another weight in movimientos.tipo) is seen by the same comparison."""
    a = Esquema(BANCO, seed=SEED)
    otro = BANCO.replace("cargo = 7", "cargo = 6")
    assert otro != BANCO, "esquemas/banco.toml has no `cargo = 7`: update this test"
    b = Esquema(otro, seed=SEED)
    assert [f["tipo"] for f in a.filas("movimientos")] != [f["tipo"] for f in b.filas("movimientos")]
