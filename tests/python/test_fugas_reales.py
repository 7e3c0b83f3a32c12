"""Issue 48's acceptance on real public sample databases (tests/reales/, PROVENANCE.md): Chinook, Northwind
and Sakila, with English headers and people from everywhere (Luís Gonçalves, Frédérique Citeaux,
+55 (12) 3923-5555, Employees' photos as BLOBs). For each: `datoteca detectar sqlite:SRC` writes the rules,
which are used unedited by `datoteca copiar` (the published test key); the copy must not stop on an
ordinary value, must be whole (integrity_check, foreign_key_check, the same rows per table), and an
independent leak search over the whole target (tests/python/reales.py: its own reading of the columns,
never the detector's) must find none of the source's names, surnames, phones, emails, addresses,
documents, IPs, credentials or photos. One test per database and kind, so a failure says which; each
failure lists the first leaked values, where they were in the source and where they are in the target,
with the rule `detectar` proposed for that target column. test_propuesta prints every column's proposed
rule beside this file's own reading of the column (shown with -rA).

SQLite only: the SQL text is loaded by Python's sqlite3 into pytest's tmp_path."""
import gzip
import os
import sqlite3
import subprocess
import tomllib

import pytest

from reales import KINDS, Destino, Fuente, fugas, informe, kind_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
CORPUS = os.path.join(ROOT, "tests", "reales")
DBS = ("chinook", "northwind", "sakila")
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key

_CACHE = {}


def _cargar(nombre, path):
    with gzip.open(os.path.join(CORPUS, f"{nombre}.sql.gz"), "rt", encoding="utf-8-sig") as f:
        sql = f.read()
    con = sqlite3.connect(path)
    con.executescript(sql)
    con.commit()
    con.close()


def _reglas(doc):
    """(table, column) -> the proposed rule as one short string (`persona campo=email`, `texto`)."""
    out = {}
    for t, spec in tomllib.loads(doc).get("tablas", {}).items():
        for c, r in spec.get("columnas", {}).items():
            extra = " ".join(f"{k}={v}" for k, v in r.items() if k != "regla")
            out[(t, c)] = (r.get("regla", "?") + (" " + extra if extra else ""))
    return out


def _corrida(nombre, tmp_path_factory):
    if nombre in _CACHE:
        return _CACHE[nombre]
    if not os.path.exists(CLI):
        pytest.fail(f"the C CLI is not built at {CLI} (set DATOTECA_CLI)")
    d = tmp_path_factory.mktemp(nombre)
    src, dst, reglas = d / "origen.db", d / "destino.db", d / "reglas.toml"
    _cargar(nombre, src)
    r = {"src": src, "dst": dst}
    p = subprocess.run([CLI, "detectar", f"sqlite:{src}"], capture_output=True)
    r["detectar"] = (p.returncode, p.stderr.decode(errors="replace"))
    reglas.write_bytes(p.stdout)
    r["reglas"] = _reglas(p.stdout.decode()) if p.returncode == 0 else {}
    r["copiar"] = None
    if p.returncode == 0:
        env = dict(os.environ, DATOTECA_CLAVE=CLAVE)
        p = subprocess.run([CLI, "copiar", "--desde", f"sqlite:{src}", "--hacia", f"sqlite:{dst}", "--reglas", str(reglas),
                            "--clave-de-prueba", "--silencio"], capture_output=True, env=env)
        r["copiar"] = (p.returncode, p.stderr.decode(errors="replace"))
    r["fuente"] = Fuente(src)
    r["fugas"] = fugas(r["fuente"], Destino(dst)) if r["copiar"] and r["copiar"][0] == 0 and dst.exists() else None
    _CACHE[nombre] = r
    return r


def _tablas(con):
    return [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                      "ORDER BY name")]


@pytest.mark.parametrize("nombre", DBS)
def test_propuesta(nombre, tmp_path_factory):
    """detectar runs, and names every column of every table; its proposal is printed beside this file's
    own reading of each column (the reading the leak search uses)."""
    r = _corrida(nombre, tmp_path_factory)
    rc, err = r["detectar"]
    assert rc == 0, f"datoteca detectar sqlite:{nombre} exited {rc}:\n{err}"
    con = sqlite3.connect(r["src"])
    faltan = []
    print(f"== {nombre}: the rule detectar proposes for each column [this test's reading of the column]")
    for t in _tablas(con):
        for (c,) in con.execute(f'SELECT name FROM pragma_table_info("{t}")'):
            regla = r["reglas"].get((t, c))
            if regla is None:
                faltan.append(f"{t}.{c}")
            k = kind_of(c)
            print(f"  {t}.{c}: {regla}" + (f"  [{k}]" if k else ""))
    con.close()
    assert not faltan, f"columns without a rule: {faltan}"


@pytest.mark.parametrize("nombre", DBS)
def test_copia_entera(nombre, tmp_path_factory):
    """No copy stops on an ordinary value, and the copy is whole: integrity_check ok, foreign_key_check
    empty, every table with the source's number of rows."""
    r = _corrida(nombre, tmp_path_factory)
    assert r["detectar"][0] == 0, f"detectar exited {r['detectar'][0]}:\n{r['detectar'][1]}"
    rc, err = r["copiar"]
    assert rc == 0, f"datoteca copiar of {nombre} stopped (exit {rc}) with the unedited rules:\n{err}"
    src, dst = sqlite3.connect(r["src"]), sqlite3.connect(r["dst"])
    assert dst.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert dst.execute("PRAGMA foreign_key_check").fetchall() == []
    assert _tablas(dst) == _tablas(src)
    for t in _tablas(src):
        n_src = src.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        n_dst = dst.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        assert n_dst == n_src, f"table {t}: {n_src} rows in the source, {n_dst} in the copy"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("nombre", DBS)
def test_sin_fugas(nombre, kind, tmp_path_factory):
    """None of the source's values of this kind anywhere in the copy (reales.py says how each is sought)."""
    r = _corrida(nombre, tmp_path_factory)
    n = r["fuente"].cuantos(kind)
    if n == 0:
        pytest.skip(f"{nombre} has no {kind} by this test's reading")
    if r["fugas"] is None:
        cp = r["copiar"]
        why = f"copiar exited {cp[0]}:\n{cp[1]}" if cp else f"detectar exited {r['detectar'][0]}:\n{r['detectar'][1]}"
        pytest.fail(f"{nombre}: {n} source values of {kind} and no copy to search, {why}")
    res = r["fugas"][kind]
    lines = informe(nombre, r["fugas"], r["reglas"], ejemplos=8, kinds=(kind,))
    assert not res["fugas"], "\n".join(lines)


@pytest.mark.parametrize("nombre", DBS)
def test_informe(nombre, tmp_path_factory):
    """The whole leak report of the copy, every kind and the reported-only ones (printed; shown with -rA)."""
    r = _corrida(nombre, tmp_path_factory)
    if r["fugas"] is None:
        pytest.skip(f"{nombre}: no copy (test_copia_entera says why)")
    print("\n".join(informe(nombre, r["fugas"], r["reglas"])))
