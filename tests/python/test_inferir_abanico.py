"""datoteca inferir's fan-out histograms (issue #50): a child table's weights are how many parents have
0, 1, 2, ... children, and that histogram must be the source's whatever order the server returns it in.

PostgreSQL once returned it sorted as text ("10" < "100" < "2"); inferir walks the pairs in ascending
order up to the last one, so every count after the first out-of-order one lost its parents. A skewed
child table (1,500 products in two of 34 accounts: 1,200 and 300, "1200" < "300") then got weights that
were all zero but the 0 children's, no rows, and a table referring to it `ref: the table productos has
no rows to refer to`; a spread one (1, 2, 3, 10 and 100 lines per invoice) got about 500 lines instead
of 8,400. The judges here are outside inferir: the true histogram is counted in the test with SQL of
its own (a LEFT JOIN, so the parents without children too), the library builds the document and
`--hacia` writes it into a fresh database made from the same DDL, counted again by the database."""
import os
import sqlite3
import subprocess
import tomllib

import pytest

from conftest import ROOT
from test_basesdedatos import _pg_bin, _psql, postgres  # noqa: F401  (a throwaway server of this module)

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))

DDL_SESGO = """
CREATE TABLE cuentas (id integer PRIMARY KEY, nombre text NOT NULL);
CREATE TABLE productos (id integer PRIMARY KEY, cuenta_id integer NOT NULL REFERENCES cuentas (id), nombre text NOT NULL);
CREATE TABLE resenas (id integer PRIMARY KEY, producto_id integer REFERENCES productos (id), nota integer NOT NULL);
"""
# 34 accounts; 1,200 products in account 1, 300 in account 2, none in the other 32; 60 reviews
SESGO = {
    "cuentas": [(i, f"Cuenta {i}") for i in range(1, 35)],
    "productos": [(i, 1 if i <= 1200 else 2, f"Producto {i}") for i in range(1, 1501)],
    "resenas": [(i, 1 + (i * 37) % 1500, 1 + i % 5) for i in range(1, 61)],
}

DDL_FACTURAS = """
CREATE TABLE facturas (id integer PRIMARY KEY, folio integer NOT NULL);
CREATE TABLE lineas (id integer PRIMARY KEY, factura_id integer NOT NULL REFERENCES facturas (id), monto integer NOT NULL);
"""


def _facturas():
    """2,000 invoices: 100 with 1 line, 1,000 with 2, 100 with 3, 500 with 10, 10 with 100, 290 with none
    (8,400 lines). As text the counts sort 1, 10, 100, 2, 3."""
    cuantas = [1] * 100 + [2] * 1000 + [3] * 100 + [10] * 500 + [100] * 10 + [0] * 290
    facturas = [(i, 1000 + i) for i in range(1, len(cuantas) + 1)]
    lineas, k = [], 0
    for f, n in enumerate(cuantas, 1):
        for _ in range(n):
            k += 1
            lineas.append((k, f, 990 * (1 + k % 17)))
    return {"facturas": facturas, "lineas": lineas}


def _inferir(url):
    p = subprocess.run([CLI, "inferir", url], capture_output=True)
    assert p.returncode == 0, f"inferir {url}: exit {p.returncode}: {p.stderr.decode()}"
    return p.stdout.decode()


def _hacia(doc, tmp_path, url, seed=42):
    ruta = tmp_path / "doc.toml"
    ruta.write_text(doc, encoding="utf-8")
    p = subprocess.run([CLI, "esquema", str(ruta), "--seed", str(seed), "--hacia", url], capture_output=True)
    assert p.returncode == 0, f"--hacia {url} (seed {seed}): exit {p.returncode}: {p.stderr.decode()}\n{doc}"


def _pesos(doc, tabla, padre):
    """The document's fan-out of `tabla` as {children: parents}, the weights that are not 0."""
    t = tomllib.loads(doc)["tablas"][tabla]
    assert t.get("por") == padre, f"{tabla} is not a fan-out of {padre}: {t}"
    c = t["cuantos"]
    assert c["distribucion"] == "pesos" and len(c["pesos"]) == c["max"] - c["min"] + 1, c
    return {c["min"] + i: w for i, w in enumerate(c["pesos"]) if w}


HISTOGRAMA = ("SELECT c, count(*) FROM (SELECT p.id, count(h.id) AS c FROM {padre} p LEFT JOIN {hijo} h "
              "ON h.{fk} = p.id GROUP BY p.id) x GROUP BY c")


# ---- SQLite ----

def _sqlite(ruta, ddl, filas):
    con = sqlite3.connect(ruta)
    con.executescript(ddl)
    for t, fs in filas.items():
        con.executemany(f"INSERT INTO {t} VALUES ({', '.join('?' * len(fs[0]))})", fs)
    con.commit()
    return con


def test_sqlite_skewed_fan_out_keeps_its_mass(tmp_path):
    con = _sqlite(tmp_path / "origen.db", DDL_SESGO, SESGO)
    verdad = dict(con.execute(HISTOGRAMA.format(padre="cuentas", hijo="productos", fk="cuenta_id")).fetchall())
    con.close()
    assert verdad == {0: 32, 300: 1, 1200: 1}
    doc = _inferir(f"sqlite:{tmp_path / 'origen.db'}")
    assert _pesos(doc, "productos", "cuentas") == verdad
    assert "1500 rows over its 34 rows, 44.11 per row on average, 1200 at most" in doc
    destino = tmp_path / "destino.db"
    _sqlite(destino, DDL_SESGO, {}).close()
    _hacia(doc, tmp_path, f"sqlite:{destino}")
    con = sqlite3.connect(destino)
    por_cuenta = dict(con.execute("SELECT cuenta_id, count(*) FROM productos GROUP BY cuenta_id").fetchall())
    assert por_cuenta and set(por_cuenta.values()) <= {300, 1200}, por_cuenta
    assert con.execute("SELECT count(*) FROM resenas").fetchone()[0] > 0
    con.close()


# ---- PostgreSQL ----

def _pg(base, db, ddl, filas):
    _psql(base, f"CREATE DATABASE {db}")
    _psql(base, None, ddl.encode(), "-d", db)
    for t, fs in filas.items():
        datos = "".join("\t".join(str(v) for v in f) + "\n" for f in fs)
        _psql(base, None, f"COPY {t} FROM STDIN;\n{datos}\\.\n".encode(), "-d", db)


def _pg_histograma(base, db, padre, hijo, fk):
    out = _psql(base, HISTOGRAMA.format(padre=padre, hijo=hijo, fk=fk), None, "-d", db)
    return {int(a): int(b) for a, b in (linea.split("|") for linea in out.split())}


def test_postgresql_skewed_fan_out_keeps_its_mass(postgres, tmp_path):
    base = postgres
    _pg(base, "sesgo", DDL_SESGO, SESGO)
    verdad = _pg_histograma(base, "sesgo", "cuentas", "productos", "cuenta_id")
    assert verdad == {0: 32, 300: 1, 1200: 1}
    doc = _inferir(f"postgresql://postgres@/sesgo?host={base}")
    assert _pesos(doc, "productos", "cuentas") == verdad, "the document's fan-out is not the source's"
    _pg(base, "sesgo_destino", DDL_SESGO, {})
    _hacia(doc, tmp_path, f"postgresql://postgres@/sesgo_destino?host={base}")
    out = _psql(base, "SELECT count(*) FROM productos GROUP BY cuenta_id", None, "-d", "sesgo_destino").split()
    assert out and set(map(int, out)) <= {300, 1200}, out
    assert int(_psql(base, "SELECT count(*) FROM resenas", None, "-d", "sesgo_destino")) > 0


def test_postgresql_histogram_in_numeric_order(postgres, tmp_path):
    base = postgres
    filas = _facturas()
    _pg(base, "facturacion", DDL_FACTURAS, filas)
    verdad = _pg_histograma(base, "facturacion", "facturas", "lineas", "factura_id")
    assert verdad == {0: 290, 1: 100, 2: 1000, 3: 100, 10: 500, 100: 10}
    doc = _inferir(f"postgresql://postgres@/facturacion?host={base}")
    assert _pesos(doc, "lineas", "facturas") == verdad, "the document's fan-out is not the source's"
    assert "8400 rows over its 2000 rows, 4.20 per row on average, 100 at most" in doc
    _pg(base, "facturacion_destino", DDL_FACTURAS, {})
    _hacia(doc, tmp_path, f"postgresql://postgres@/facturacion_destino?host={base}")
    facturas = int(_psql(base, "SELECT count(*) FROM facturas", None, "-d", "facturacion_destino"))
    lineas = int(_psql(base, "SELECT count(*) FROM lineas", None, "-d", "facturacion_destino"))
    assert facturas == 2000
    assert abs(lineas - 8400) <= 840, f"{lineas} lines written, the source has 8,400 (seed 42)"
    assert abs(facturas + lineas - 10400) <= 1040
    maximo = int(_psql(base, "SELECT max(c) FROM (SELECT count(*) AS c FROM lineas GROUP BY factura_id) x", None,
                       "-d", "facturacion_destino"))
    assert maximo == 100, "no invoice got the source's 100 lines"
