"""datoteca inferir URL (issue #40, items 1 and 6): a reference application (tests/inferir/app_*.sql)
is created in SQLite and in a PostgreSQL 15 server this module starts, some rows are planted, and
inferir reads it into a schema document. The judges are outside inferir: the library builds the
document (datoteca.Esquema), the CLI generates its CSVs, and a FRESH database made from the source's
own DDL (SQLite: its sqlite_master replayed; PostgreSQL: pg_dump -s restored) loads them with every
constraint and trigger on. The load must succeed and each table must hold the rows the document says.
A password given in the URL must never appear on stdout, stderr or in the document, also when it is
wrong."""
import difflib
import os
import re
import sqlite3
import subprocess

import pytest

from conftest import ROOT
from datoteca import Esquema
from test_basesdedatos import _pg_bin, _psql, postgres  # noqa: F401  (a throwaway server of this module)

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
DDL_SQLITE = os.path.join(ROOT, "tests", "inferir", "app_sqlite.sql")
DDL_PG = os.path.join(ROOT, "tests", "inferir", "app_pg.sql")
NO_EXPRESADO = ["v_saldos", "cuentas_no_negativas", "cuentas_una_en_rojo"]


# ---- planted rows: plausible Chilean data, written here (not by datoteca) ----

def _dv(cuerpo):
    s, m = 0, 2
    for d in reversed(str(cuerpo)):
        s += int(d) * m
        m = 2 if m == 7 else m + 1
    r = 11 - s % 11
    return "0" if r == 11 else "K" if r == 10 else str(r)


def _rut(cuerpo):
    t = f"{cuerpo:,}".replace(",", ".")
    return f"{t}-{_dv(cuerpo)}"


def _rut_valido(v):
    cuerpo, dv = v.replace(".", "").split("-")
    return _dv(int(cuerpo)) == dv.upper()


NOMBRES = ["Juan", "María", "José", "Camila", "Pedro", "Valentina", "Luis", "Francisca", "Diego", "Catalina"]
APELLIDOS = ["González", "Muñoz", "Rojas", "Díaz", "Pérez", "Soto", "Contreras", "Silva", "Martínez", "Sepúlveda"]
COMUNAS = ["Santiago", "Providencia", "Ñuñoa", "Maipú", "La Florida", "Puente Alto", "Valparaíso", "Temuco"]


def _filas(pg):
    verdad = ("true", "false") if pg else (1, 0)
    f = {}
    f["clientes"] = [(i, _rut(7_000_000 + i * 91_013), f"{NOMBRES[i % 10]} {APELLIDOS[i % 7]} {APELLIDOS[(i * 3) % 10]}",
                      f"{NOMBRES[i % 10].lower().replace('í', 'i').replace('é', 'e')}.{i}@gmail.com" if i % 5 else None,
                      f"+56 9 {6000 + i:04d} {1000 + i * 7:04d}", COMUNAS[i % 8], f"19{60 + i % 40}-0{1 + i % 9}-1{i % 10}")
                     for i in range(1, 41)]
    f["sucursales"] = [(f"S{i}", COMUNAS[i]) for i in range(1, 6)]
    f["cuentas"] = [(i, 1 + i % 40, f"S{1 + i % 5}" if i % 7 else None, ["corriente", "vista", "ahorro"][i % 3],
                     1000 * i, f"2020-0{1 + i % 9}-0{1 + i % 9}", verdad[i % 4 == 0]) for i in range(1, 61)]
    f["movimientos"] = [(i, 1 + i % 60, f"2025-{1 + i % 12:02d}-1{i % 10}", 500 + 37 * i, ["cargo", "abono"][i % 3 == 0])
                        for i in range(1, 301)]
    f["empleados"] = [(i, f"{NOMBRES[i % 10]} {APELLIDOS[i % 10]}", None if i == 1 else 1) for i in range(1, 11)]
    f["perfiles"] = [(i, f"apodo{i}") for i in range(1, 21)]
    f["pedidos"] = [(i, 1 + i % 40, f"2025-0{1 + i % 9}-2{i % 8}", 10_000 + 13 * i) for i in range(1, 51)]
    f["lineas_pedido"] = [(p, k, 1 + (p + k) % 5) for p in range(1, 51) for k in range(1, 2 + p % 3)]
    f["devoluciones"] = [(i, i, 1, ["fallado", "arrepentido", "otro"][i % 3]) for i in range(1, 11)]
    f["etiquetas"] = [(i, n) for i, n in enumerate(["vip", "moroso", "nuevo", "pyme", "empleado"], 1)]
    f["cliente_etiquetas"] = [(c, 1 + c % 5) for c in range(1, 31)]
    f["reclamos"] = [(i, f["clientes"][i % 7][1], f"reclamo {i}") for i in range(1, 16)]
    f["user"] = [(i, f"orden {i}", None if i % 2 else f"Visible {i}", None if i % 3 == 0 else i) for i in range(1, 9)]
    return f


COLUMNAS = {
    "clientes": "id, rut, nombre, email, telefono, comuna, fecha_nacimiento",
    "sucursales": "codigo, comuna", "cuentas": "id, cliente_id, sucursal, tipo, saldo, abierta, activa",
    "movimientos": "id, cuenta_id, fecha, monto, tipo", "empleados": "id, nombre, jefe_id",
    "perfiles": "cliente_id, apodo", "pedidos": "id, cliente_id, fecha, total",
    "lineas_pedido": "pedido_id, linea, cantidad", "devoluciones": "id, pedido_id, linea, motivo",
    "etiquetas": "id, nombre", "cliente_etiquetas": "cliente_id, etiqueta_id",
    "reclamos": "id, rut_cliente, detalle", "user": 'id, "order", "NombreVisible", cliente_id',
}


def _inferir(url, *extra, env=None):
    p = subprocess.run([CLI, "inferir", url, *extra], capture_output=True, env=env)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


# ---- CSV as the CLI writes it: an empty unquoted cell is NULL, "" is an empty text ----

def _csv(texto):
    filas, fila, celda, i, n = [], [], [], 0, len(texto)
    citada = False
    while i < n:
        c = texto[i]
        if c == '"' and not celda and not citada:
            j, buf = i + 1, []
            while True:
                if texto[j] == '"' and texto[j + 1:j + 2] == '"':
                    buf.append('"')
                    j += 2
                elif texto[j] == '"':
                    break
                else:
                    buf.append(texto[j])
                    j += 1
            celda, citada, i = buf, True, j + 1
            continue
        if c in ",\n":
            fila.append("".join(celda) if (celda or citada) else None)
            celda, citada = [], False
            if c == "\n":
                filas.append(fila)
                fila = []
        else:
            celda.append(c)
        i += 1
    return filas[0], filas[1:]


def _cargas(dirname):
    """The tables in cargar.sql's \\copy order, named by the CSV file each reads (a table with a deferred
    ref is copied into a temporary table first, then inserted)."""
    out = []
    for linea in open(os.path.join(dirname, "cargar.sql"), encoding="utf-8"):
        if linea.startswith("\\copy "):
            out.append(linea.split(" FROM '")[1].split(".csv'")[0])
    return out


def _generar(doc, tmp_path, nombre):
    ruta = tmp_path / f"{nombre}.toml"
    ruta.write_text(doc, encoding="utf-8")
    e = Esquema(str(ruta), seed=42)  # the library judges the syntax and the schema's own rules
    salida = tmp_path / f"{nombre}-csv"
    subprocess.run([CLI, "esquema", str(ruta), "--seed", "42", "--formato", "csv", "--salida", str(salida)],
                   check=True, capture_output=True)
    return e, str(salida)


def _forma(doc, vacias=()):
    """A document without what depends on the rows (comments, counts, weights, ranges): each column's kind
    and call, each table's header and shape keys (but those of `vacias`, tables the source left empty,
    whose shape only the filled copy can show)."""
    out, tabla = [], None
    for linea in doc.splitlines():
        if linea.startswith("#") or not linea.strip():
            continue
        if linea.startswith("[tablas.") and not linea.endswith(".columnas]"):
            tabla = linea[len("[tablas."):-1]
        elif tabla in vacias and re.match(r"(filas|por|cuantos) = ", linea):
            continue
        linea = linea.split("  # ")[0]
        m = re.match(r'(\S+) = \{ (llamada = "[^"]+"|serie|ref = "[^"]+"|elegir|posicion)', linea)
        out.append(m.group(0) if m else re.sub(r"\d+", "N", linea))
    return out


def _estable(doc, doc2, vacias=()):
    """The round trip is stable: inferir on the filled copy chooses the same call for every column."""
    a, b = _forma(doc, vacias), _forma(doc2, vacias)
    assert a == b, "inferir on the filled database chose differently:\n" + "\n".join(difflib.unified_diff(a, b, lineterm=""))


# ---- SQLite ----

def _sqlite_origen(tmp_path):
    db = tmp_path / "app.db"
    con = sqlite3.connect(db)
    con.executescript(open(DDL_SQLITE, encoding="utf-8").read())
    con.execute("PRAGMA foreign_keys = ON")
    for t, filas in _filas(pg=False).items():
        marcas = ", ".join("?" * len(filas[0]))
        con.executemany(f'INSERT INTO "{t}" ({COLUMNAS[t]}) VALUES ({marcas})', filas)
    con.commit()
    con.close()
    return db


def test_sqlite_round_trip(tmp_path):
    origen = _sqlite_origen(tmp_path)
    rc, doc, err = _inferir(f"sqlite://{origen}")
    assert rc == 0, f"inferir sqlite://{origen}: exit {rc}, stderr: {err}"
    cabeza = doc.split("version = 1")[0]
    for nombre in NO_EXPRESADO:
        assert nombre in cabeza, f"the document's head does not list {nombre}:\n{cabeza}"
        assert nombre in err, f"stderr does not list {nombre}: {err}"
    e, csvs = _generar(doc, tmp_path, "app")
    # reviewed expectations of the mapping (docs/inferir.md), not copies of inferir's output
    assert 'rut = { llamada = "persona.persona", campos = { rut = "rut" }, unico = true' in doc
    assert '"corriente" = ' in doc and '"abono" = ' in doc
    assert "# monto_iva: a generated column" in doc
    assert 'linea = { posicion = true' in doc
    # a fresh database from the source's own DDL, every constraint on
    destino = tmp_path / "destino.db"
    fuente = sqlite3.connect(origen)
    ddl = [r[0] for r in fuente.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
    vivas = {t: fuente.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in COLUMNAS}
    # the observed fan-out, counted here in SQL on the source: how many clientes have k cuentas
    hist = dict(fuente.execute("SELECT n, count(*) FROM (SELECT count(*) AS n FROM cuentas GROUP BY cliente_id) GROUP BY n"))
    hist[0] = vivas["clientes"] - sum(hist.values())
    ks = [k for k in sorted(hist) if hist[k]]
    pesos = ", ".join(str(hist.get(k, 0)) for k in range(ks[0], ks[-1] + 1))
    cuentas = doc.split("[tablas.cuentas]")[1].split("[tablas.")[0]
    assert 'por = "clientes"' in cuentas and f'min = {ks[0]}, max = {ks[-1]}, distribucion = "pesos", pesos = [{pesos}]' in cuentas, cuentas
    fuente.close()
    con = sqlite3.connect(destino)
    for s in ddl:
        con.execute(s)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("BEGIN")
    # a deferred ref (empleados.jefe points at later rows of its own table) is checked at COMMIT
    con.execute("PRAGMA defer_foreign_keys = ON")
    for t in _cargas(csvs):
        cab, filas = _csv(open(os.path.join(csvs, f"{t}.csv"), encoding="utf-8").read())
        cols = ", ".join(f'"{c}"' for c in cab)
        marcas = ", ".join("?" * len(cab))
        for k, fila in enumerate(filas):
            try:
                con.execute(f'INSERT INTO "{t}" ({cols}) VALUES ({marcas})', fila)
            except sqlite3.Error as ex:
                pytest.fail(f"SQLite refused {t} row {k} (seed 42): {ex}")
    con.execute("COMMIT")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for t in COLUMNAS:
        n = con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        i = e.tablas.index(t)
        assert n == e.total(t), f"{t}: {n} rows loaded, the document says {e.total(t)}"
        if "por" not in doc.split(f"[tablas.{t}]")[1].split("[")[0]:
            assert n == vivas[t], f"{t}: {n} rows, the source has {vivas[t]}"
        assert i >= 0
    malos = [v for (v,) in con.execute("SELECT rut FROM clientes") if not _rut_valido(v)]
    assert not malos, f"{len(malos)} RUTs with a wrong check digit"
    assert con.execute("SELECT count(*) FROM clientes WHERE email NOT LIKE '%_@_%.__%'").fetchone()[0] == 0
    # the self-reference is deferred: every row names a boss, set after the table was written
    assert con.execute("SELECT count(*) FROM empleados WHERE jefe_id IS NULL").fetchone()[0] == 0
    assert '[tablas.user]' in doc and "\norder = " in doc and "\nNombreVisible = " in doc
    assert 'rut_cliente = { ref = "clientes.rut" }' in doc, "a foreign key to a UNIQUE column that is no key"
    con.close()
    rc, doc2, err = _inferir(f"sqlite://{destino}")
    assert rc == 0, err
    _estable(doc, doc2)


def test_sqlite_scale_and_empty_default(tmp_path):
    origen = _sqlite_origen(tmp_path)
    rc, doc, err = _inferir(f"sqlite:{origen}", "--escala", "5/2", "--filas-vacia", "7", "--muestra", "0", "--sin-abanico")
    assert rc == 0, err
    e = Esquema(doc)
    assert e.total("movimientos") == 750, "300 live rows times 5/2"
    assert e.total("clientes") == 100
    assert "pesos" not in doc and 'cuenta_id = { ref = "cuentas.id" }' in doc
    # with the observed fan-outs, a fan-out table's rows follow its parent's: movimientos are 5 per cuenta there
    rc, doc, err = _inferir(f"sqlite:{origen}", "--escala", "5/2")
    e = Esquema(doc)
    assert rc == 0 and e.total("clientes") == 100 and e.total("movimientos") == 5 * e.total("cuentas"), err


def test_sqlite_serie_key_caps_the_rows(tmp_path):
    """A text key of 2 characters takes a serie of at most 2 digits: 99 rows whatever --filas-vacia asks,
    said in the table's comment and on stderr, and the document fills the database (500 rows of a serie
    would have written '100' into varchar(2), which PostgreSQL refuses)."""
    db = tmp_path / "codigos.db"
    con = sqlite3.connect(db)
    con.executescript("CREATE TABLE zonas (codigo varchar(2) PRIMARY KEY, detalle text NOT NULL);"
                      "CREATE TABLE puntos (id integer PRIMARY KEY, zona varchar(2) NOT NULL REFERENCES zonas (codigo));")
    con.close()
    rc, doc, err = _inferir(f"sqlite:{db}", "--filas-vacia", "500")
    assert rc == 0, err
    e = Esquema(doc)
    assert (e.total("zonas"), e.total("puntos")) == (99, 500), doc
    assert "filas = 99  # empty: 500 rows (--filas-vacia); at most 99: codigo is a serie of at most 2 digits" in doc, doc
    assert "not expressed: zonas: 99 rows, not more: the serie in codigo holds no more in varchar(2)" in err, err
    ruta = tmp_path / "codigos.toml"
    ruta.write_text(doc)
    p = subprocess.run([CLI, "esquema", str(ruta), "--seed", "42", "--hacia", f"sqlite:{db}"], capture_output=True)
    assert p.returncode == 0, p.stderr.decode()
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*), max(length(codigo)) FROM zonas").fetchone() == (99, 2)
    assert con.execute("SELECT count(*) FROM puntos WHERE zona NOT IN (SELECT codigo FROM zonas)").fetchone() == (0,)
    con.close()


def test_sqlite_check_forms(tmp_path):
    """CHECKs a document can say become bounds and choices; any other is listed, never dropped."""
    db = tmp_path / "c.db"
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE t (id INTEGER PRIMARY KEY,
            a INTEGER NOT NULL CHECK (a >= -5 AND a < 10 AND 3 <= a),
            b INTEGER NOT NULL CHECK (b BETWEEN 20 AND 30),
            c TEXT NOT NULL CHECK (c IN ('x', 'y''z')),
            d TEXT NOT NULL CHECK (length(d) > 2),
            e INTEGER NOT NULL CHECK (e = 1 OR e = 2),
            nombre VARCHAR(8) NOT NULL, -- CHECK (b IN ('comentario')) is a comment, no constraint
            /* CHECK (b < 0) neither */
            comuna VARCHAR(40) NOT NULL);""")
    con.close()
    rc, doc, err = _inferir(f"sqlite:{db}")
    assert rc == 0, err
    fila = {l.split(" = ")[0]: l for l in doc.splitlines() if " = {" in l}
    assert "min = 3, max = 9" in fila["a"], fila["a"]
    assert "min = 20, max = 30" in fila["b"], fila["b"]
    assert '{ "x" = 1, "y\'z" = 1 }' in fila["c"], fila["c"]
    # a call whose values outgrow the column is not chosen, and the comment says why
    assert "elegir" in fila["nombre"] and "persona.nombre_completo gives values of up to" in fila["nombre"], fila["nombre"]
    assert "direccion.comuna" in fila["comuna"] and "its values fit VARCHAR(40)" in fila["comuna"], fila["comuna"]
    cabeza = doc.split("version = 1")[0]
    assert "length(d) > 2" in cabeza and "e = 1 OR e = 2" in cabeza, cabeza
    assert "length(d) > 2" in err and "e = 1 OR e = 2" in err


def test_sqlite_errors_name_the_argument(tmp_path):
    rc, out, err = _inferir(f"sqlite://{tmp_path}/no-existe.db")
    assert rc == 2 and out == "" and "no-existe.db" in err, err
    rc, out, err = _inferir("oracle://scott:tiger@x/y")
    assert rc == 2 and "URL" in err and "tiger" not in err, err
    rc, out, err = _inferir("sqlite:x.db", "--escala", "0")
    assert rc == 2 and "--escala" in err, err
    ayuda = subprocess.run([CLI, "inferir", "--help"], capture_output=True, check=True).stdout.decode()
    assert "postgresql://" in ayuda and "sqlite:" in ayuda and "mariadb://" in ayuda and "mysql://" in ayuda
    general = subprocess.run([CLI, "--help"], capture_output=True, check=True).stdout.decode()
    assert "datoteca inferir URL" in general


def test_library_cli_refuses_naming_the_client_library():
    """The library's CLI links no database client (docs/inferir.md): python -m datoteca runs it when
    DATOTECA_LIBRARY is set (else, installed from a wheel, it runs the wheel's program: test_wheel.py)."""
    import sys
    env = {**os.environ, "DATOTECA_LIBRARY": os.environ.get("DATOTECA_LIBRARY") or os.path.join(ROOT, "build-c", "libdatoteca.so.3")}
    for url, paquete in (("sqlite:app.db", "libsqlite3-dev"), ("postgresql://yo:Pw-Lib-4410@h/app", "libpq-dev"),
                         ("mariadb://yo:Pw-Lib-4410@h/app", "libmariadb-dev"), ("mysql://yo:Pw-Lib-4410@h/app", "libmariadb-dev")):
        p = subprocess.run([sys.executable, "-m", "datoteca", "inferir", url], capture_output=True, env=env)
        err = p.stderr.decode()
        assert p.returncode == 2 and paquete in err and "Pw-Lib-4410" not in err, err


def test_datoteca_inferir_runs_the_program_first_found(tmp_path):
    """datoteca.inferir (docs/inferir.md, "From Python"): DATOTECA_CLI, else the wheel's program (an
    installed package; a checkout has none), else a `datoteca` program on PATH that is not a script; the
    document equal to the command's, and none found said in one sentence."""
    import json
    import sys
    origen = _sqlite_origen(tmp_path)
    guiones, programas = tmp_path / "guiones", tmp_path / "programas"
    guiones.mkdir()
    programas.mkdir()
    (guiones / "datoteca").write_text("#!/bin/sh\nexit 3\n")  # as pip's console script would stand first on PATH
    os.chmod(guiones / "datoteca", 0o755)
    os.symlink(os.path.abspath(CLI), programas / "datoteca")
    code = ("import json, datoteca, datoteca._programa as p\n"
            "try:\n    doc, err = datoteca.inferir(%r), None\n"
            "except datoteca.DatotecaError as e:\n    doc, err = None, [type(e).__name__, str(e)]\n"
            "print(json.dumps({'programa': p.para_inferir(), 'incluido': p.incluido(), 'doc': doc, 'err': err}))") % f"sqlite:{origen}"
    base = {k: v for k, v in os.environ.items() if k != "DATOTECA_CLI"}

    def correr(**env):
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**base, **env})
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    rc, esperado, _ = _inferir(f"sqlite:{origen}")
    assert rc == 0
    r = correr(DATOTECA_CLI=os.path.abspath(CLI), PATH=str(guiones))
    assert r["programa"] == os.path.abspath(CLI) and r["doc"] == esperado, r["err"]
    r = correr(PATH=os.pathsep.join([str(guiones), str(programas)]))
    assert r["programa"] == (r["incluido"] or str(programas / "datoteca")), r
    assert r["doc"] == esperado, r["err"]
    r = correr(PATH=str(guiones))
    if r["incluido"] is None:  # a checkout: nothing to run, said so
        assert r["programa"] is None and r["err"][0] == "DatotecaError", r
        assert r["err"][1].startswith("inferir: no datoteca program was found") and "DATOTECA_CLI" in r["err"][1], r
    else:
        assert r["programa"] == r["incluido"] and r["doc"] == esperado, r


# ---- PostgreSQL ----

def _pg_texto(v):
    if v is None:
        return "\\N"
    return str(v).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def _pg_origen(base, nombre):
    _psql(base, f"CREATE DATABASE {nombre}")
    _psql(base, None, open(DDL_PG, "rb").read(), "-d", nombre)
    for t, filas in _filas(pg=True).items():
        datos = "".join("\t".join(_pg_texto(v) for v in f) + "\n" for f in filas)
        _psql(base, None, f'COPY "{t}" ({COLUMNAS[t]}) FROM STDIN;\n{datos}\\.\n'.encode(), "-d", nombre)


def test_postgresql_round_trip(postgres, tmp_path):
    base = postgres
    _pg_origen(base, "origen")
    rc, doc, err = _inferir(f"postgresql://postgres@/origen?host={base}")
    assert rc == 0, f"inferir: exit {rc}, stderr: {err}"
    cabeza = doc.split("version = 1")[0]
    for nombre in NO_EXPRESADO + ["rut_t"]:
        assert nombre in cabeza, f"the document's head does not list {nombre}:\n{cabeza}"
        assert nombre in err, f"stderr does not list {nombre}: {err}"
    assert "setval(pg_get_serial_sequence('cuentas', 'id')" in cabeza
    e, csvs = _generar(doc, tmp_path, "app")
    assert '"corriente" = ' in doc and '"ahorro" = ' in doc, "the enum's labels"
    assert 'creado = { llamada = "fecha.fecha_hora"' in doc and 'tipo_sql = "timestamptz"' in doc
    assert "# monto_iva: a generated column" in doc
    # a fresh database from pg_dump -s of the source: every constraint, trigger and index on
    esquema = subprocess.run([_pg_bin("pg_dump"), "-s", "-h", base, "-U", "postgres", "origen"],
                             check=True, capture_output=True).stdout
    _psql(base, "CREATE DATABASE destino")
    _psql(base, None, esquema, "-d", "destino")
    assert "search_path=public,ventas" in cabeza, "the head says how to reach the second schema"
    assert "[tablas.facturas]" in doc and 'cliente_id = { ref = "clientes.id" }' in doc.split("[tablas.facturas]")[1]
    psql = _pg_bin("psql")
    p = subprocess.run([psql, "-h", base, "-U", "postgres", "-d", "destino", "-v", "ON_ERROR_STOP=1", "-q",
                        "-f", "cargar.sql"], cwd=csvs, capture_output=True,
                       env=dict(os.environ, PGOPTIONS="-c search_path=public,ventas"))
    assert p.returncode == 0, f"the load into a database with the source's DDL failed (seed 42): {p.stderr.decode()}"
    assert _psql(base, "SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal", None, "-d", "destino").strip() == "1"
    for t in COLUMNAS:
        n = int(_psql(base, f'SELECT count(*) FROM "{t}"', None, "-d", "destino"))
        assert n == e.total(t), f"{t}: {n} rows loaded, the document says {e.total(t)}"
    n = int(_psql(base, "SELECT count(*) FROM ventas.facturas", None, "-d", "destino"))
    assert n == e.total("facturas") == 100, f"ventas.facturas: {n} rows (empty in the source: --filas-vacia's 100)"
    ruts = _psql(base, "SELECT rut FROM clientes", None, "-d", "destino").split()
    assert ruts and all(_rut_valido(r) for r in ruts), "a RUT with a wrong check digit"
    iva = _psql(base, "SELECT count(*) FROM movimientos WHERE monto_iva <> monto * 19 / 100", None, "-d", "destino")
    assert iva.strip() == "0", "the generated column is the database's"
    rc, doc2, err = _inferir(f"postgresql://postgres@/destino?host={base}")
    assert rc == 0, err
    _estable(doc, doc2, vacias=["facturas"])


def test_postgresql_password_never_printed(postgres, tmp_path):
    base = postgres
    if "origen" not in _psql(base, "SELECT datname FROM pg_database"):
        _pg_origen(base, "origen")
    clave = "Pw-Verdad-8472"
    _psql(base, f"CREATE ROLE secreto LOGIN PASSWORD '{clave}'")
    _psql(base, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO secreto", None, "-d", "origen")
    hba = os.path.join(base, "datos", "pg_hba.conf")
    viejo = open(hba).read()
    with open(hba, "w") as f:
        f.write("local all secreto scram-sha-256\n" + viejo)
    _psql(base, "SELECT pg_reload_conf()")
    try:
        # a table it may not read: one sentence naming it, exit 2, nothing on stdout
        rc, doc, err = _inferir(f"postgresql://secreto:{clave}@/origen?host={base}")
        assert rc == 2 and doc == "" and "ventas.facturas" in err and "permission denied" in err, err
        assert clave not in err
        _psql(base, "GRANT USAGE ON SCHEMA ventas TO secreto; GRANT SELECT ON ventas.facturas TO secreto", None, "-d", "origen")
        rc, doc, err = _inferir(f"postgresql://secreto:{clave}@/origen?host={base}")
        assert rc == 0, err
        assert clave not in doc and clave not in err
        assert "origen" in doc
        for mala in ["Pw-Falsa-1290", "p@ss:w/rd"]:
            url = f"postgresql://secreto:{mala.replace('@', '%40').replace('/', '%2F').replace(':', '%3A')}@/origen?host={base}"
            rc, out, err = _inferir(url)
            assert rc == 2, f"a wrong password: exit {rc}"
            assert out == "", "nothing written on a failed connection"
            for trozo in (mala, mala.replace('@', '%40').replace('/', '%2F').replace(':', '%3A')):
                assert trozo not in err, f"the password is in stderr: {err}"
            assert "origen" in err and base in err, f"the sentence names host and database: {err}"
        # libpq's own conventions: PGPASSWORD
        env = dict(os.environ, PGPASSWORD=clave)
        rc, doc, err = _inferir(f"postgresql://secreto@/origen?host={base}", env=env)
        assert rc == 0 and clave not in doc + err, err
        # an unreachable server
        rc, out, err = _inferir("postgresql://yo:Pw-Nadie-5531@127.0.0.1:1/app")
        assert rc == 2 and "Pw-Nadie-5531" not in out + err and "127.0.0.1" in err and "app" in err, err
    finally:
        with open(hba, "w") as f:
            f.write(viejo)
        _psql(base, "SELECT pg_reload_conf()")

