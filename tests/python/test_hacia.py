"""datoteca esquema DOC --hacia URL [--vaciar] (issue #40, item 2): the rows of a schema document written
straight into an existing database whose tables the application made. The reference application of
test_inferir.py (tests/inferir/app_*.sql: 13 tables in SQLite, 14 in two PostgreSQL schemas, with
identity, serial and generated columns, an enum, domains, a trigger, a composite key and a composite
foreign key) is created, planted, read by `inferir`, and its document written into a FRESH database
made from the source's own DDL. The judges are the databases themselves (their constraints and
triggers on, SQLite's foreign_key_check and integrity_check), the rows of the CSV path (`--formato csv`
with the same seed, loaded by the databases' own loaders), and the application's next insert, which
must not collide with a written key. Every refusal must leave the database as it was and name table,
row and column without printing a value or a password."""
import os
import sqlite3
import subprocess

import pytest

from datoteca import Esquema
from servidor_pg18 import bindir as _bindir18, postgres18  # noqa: F401  (PostgreSQL 18, from a wheel)
from test_basesdedatos import _pg_bin, postgres  # noqa: F401  (PostgreSQL 15, a throwaway server of this module)
from test_inferir import CLI, COLUMNAS, _cargas, _csv, _generar, _inferir, _pg_origen, _rut_valido, _sqlite_origen

_BINDIR = {}  # a server's socket directory -> its own client programs' directory (PostgreSQL 18's wheel)


def _bin(base, nombre):
    return os.path.join(_BINDIR[base], nombre) if base in _BINDIR else _pg_bin(nombre)


def _psql(base, sql=None, stdin=None, *extra):
    args = [_bin(base, "psql"), "-h", base, "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-At", *extra]
    if sql is not None:
        args += ["-c", sql]
    return subprocess.run(args, input=stdin, check=True, capture_output=True).stdout.decode()


def _hacia(doc_ruta, url, *extra, env=None):
    p = subprocess.run([CLI, "esquema", str(doc_ruta), "--seed", "42", "--hacia", url, *extra], capture_output=True, env=env)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def _valores(csvs, tabla):
    """Every cell of a table's CSV (seed 42) long enough to be recognised in a sentence."""
    _, filas = _csv(open(os.path.join(csvs, f"{tabla}.csv"), encoding="utf-8").read())
    return {v for f in filas for v in f if v is not None and len(v) >= 5}


def _no_imprime(err, valores, que):
    vistos = sorted(v for v in valores if v in err)
    assert not vistos, f"{que}: stderr prints values of the rows ({vistos[:3]}): {err}"


# ---- SQLite ----

def _sqlite_vacia(origen, destino, quitar=()):
    """A database made by the source's own DDL (sqlite_master replayed), with no rows; `quitar` names
    tables left out."""
    fuente = sqlite3.connect(origen)
    ddl = [(n, s) for n, s in fuente.execute("SELECT tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]
    fuente.close()
    con = sqlite3.connect(destino)
    for n, s in ddl:
        if n not in quitar:
            con.execute(s)
    con.commit()
    con.close()


def _sqlite_filas(db):
    con = sqlite3.connect(db)
    out = {t: [tuple(None if v is None else str(v) for v in f) for f in con.execute(f'SELECT * FROM "{t}" ORDER BY rowid')]
           for t in COLUMNAS}
    con.close()
    return out


def _sqlite_doc(tmp_path):
    origen = _sqlite_origen(tmp_path)
    rc, doc, err = _inferir(f"sqlite:{origen}")
    assert rc == 0, err
    ruta = tmp_path / "app.toml"
    ruta.write_text(doc, encoding="utf-8")
    return origen, ruta, doc


def test_sqlite_hacia_fills_the_application_database(tmp_path):
    origen, ruta, doc = _sqlite_doc(tmp_path)
    e, csvs = _generar(doc, tmp_path, "app")
    destino = tmp_path / "destino.db"
    _sqlite_vacia(origen, destino)
    rc, out, err = _hacia(ruta, f"sqlite:{destino}")
    assert rc == 0 and out == "", f"--hacia sqlite: exit {rc} (seed 42): {err}"
    con = sqlite3.connect(destino)
    con.execute("PRAGMA foreign_keys = ON")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == [], "a row pointing at no parent"
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for t in COLUMNAS:
        n = con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        assert n == e.total(t), f"{t}: {n} rows written, the document says {e.total(t)}"
    malos = [v for (v,) in con.execute("SELECT rut FROM clientes") if not _rut_valido(v)]
    assert not malos, f"{len(malos)} RUTs with a wrong check digit (seed 42)"
    # the application's next insert takes the key after the written ones (INTEGER PRIMARY KEY)
    maximo = con.execute("SELECT max(id) FROM cuentas").fetchone()[0]
    nuevo = con.execute("INSERT INTO cuentas (cliente_id, tipo, saldo, abierta, activa) VALUES (1, 'vista', 5, '2020-01-01', 1)"
                        ).lastrowid
    assert nuevo == maximo + 1, f"the next cuentas id is {nuevo}, after {maximo} written"
    con.rollback()
    con.close()
    # the same rows as the CSV path, cell for cell (SQLite's own values, as text)
    escritas = _sqlite_filas(destino)
    for t in _cargas(csvs):
        cab, filas = _csv(open(os.path.join(csvs, f"{t}.csv"), encoding="utf-8").read())
        con = sqlite3.connect(destino)
        cols = ", ".join(f'"{c}"' for c in cab)
        leidas = [tuple(None if v is None else str(v) for v in f) for f in con.execute(f'SELECT {cols} FROM "{t}" ORDER BY rowid')]
        con.close()
        for k, (a, b) in enumerate(zip(leidas, filas)):
            assert a == tuple(b), f"{t} row {k} (seed 42): --hacia wrote {a}, --formato csv has {tuple(b)}"
    # --jobs 3 writes the same database
    destino3 = tmp_path / "destino3.db"
    _sqlite_vacia(origen, destino3)
    rc, _, err = _hacia(ruta, f"sqlite://{destino3}", "--jobs", "3")
    assert rc == 0, err
    assert _sqlite_filas(destino3) == escritas, "--jobs 3 wrote other rows than --jobs 1"


def test_sqlite_hacia_refuses_and_leaves_the_database_as_it_was(tmp_path):
    origen, ruta, doc = _sqlite_doc(tmp_path)
    e, csvs = _generar(doc, tmp_path, "app")
    # a table holding rows: refused before anything is written; --vaciar empties and fills it
    rc, _, err = _hacia(ruta, f"sqlite:{origen}")
    assert rc == 2 and "clientes already holds rows" in err and "--vaciar" in err, err
    antes = _sqlite_filas(origen)
    assert len(antes["clientes"]) == 40, "the source is untouched"
    rc, _, err = _hacia(ruta, f"sqlite:{origen}", "--vaciar")
    assert rc == 0, err
    llenas = _sqlite_filas(origen)
    assert len(llenas["movimientos"]) == e.total("movimientos") and llenas != antes
    # a row the database refuses (a CHECK the document does not know), late in the load: exit 1, the
    # table and row named, no value printed, and every table as it was, the emptying too
    destino = tmp_path / "estricta.db"
    _sqlite_vacia(origen, destino, quitar=["pedidos"])
    con = sqlite3.connect(destino)
    con.execute("CREATE TABLE pedidos (id integer PRIMARY KEY, cliente_id bigint NOT NULL REFERENCES clientes (id), "
                "fecha date NOT NULL, total numeric(12,0) NOT NULL CHECK (total > 0 AND total < 10100))")
    con.execute("INSERT INTO etiquetas VALUES (99, 'antes')")
    con.commit()
    con.close()
    rc, _, err = _hacia(ruta, f"sqlite:{destino}", "--vaciar")
    assert rc == 1, f"a refused row: exit {rc}: {err}"
    assert "refused row" in err and "of pedidos" in err and "CHECK constraint failed" in err and "rolled back" in err, err
    _no_imprime(err, _valores(csvs, "pedidos"), "a refused pedidos row")
    con = sqlite3.connect(destino)
    assert con.execute("SELECT count(*) FROM clientes").fetchone()[0] == 0, "clientes were written before the refusal"
    assert con.execute("SELECT * FROM etiquetas").fetchall() == [(99, "antes")], "--vaciar was not rolled back"
    con.close()
    # a UNIQUE column the document does not keep unique: refused before the first row, naming it
    suelta = tmp_path / "suelta.toml"
    suelta.write_text(doc.replace('campos = { email = "email" }, unico = true', 'campos = { email = "email" }'), encoding="utf-8")
    vacia = tmp_path / "vacia.db"
    _sqlite_vacia(origen, vacia)
    rc, _, err = _hacia(suelta, f"sqlite:{vacia}")
    assert rc == 2 and "clientes.email is unique in the database" in err, err
    # a table the database lacks, a file that does not exist (not created), a URL it does not know
    falta = tmp_path / "falta.db"
    _sqlite_vacia(origen, falta, quitar=["reclamos"])
    rc, _, err = _hacia(ruta, f"sqlite:{falta}")
    assert rc == 2 and "reclamos" in err and "no such table" in err, err
    assert sqlite3.connect(falta).execute("SELECT count(*) FROM clientes").fetchone()[0] == 0
    rc, _, err = _hacia(ruta, f"sqlite:{tmp_path}/no-existe.db")
    assert rc == 2 and "no-existe.db" in err and not (tmp_path / "no-existe.db").exists(), err
    rc, _, err = _hacia(ruta, "oracle://scott:tiger@x/y")
    assert rc == 2 and "--hacia must start with" in err and "tiger" not in err, err
    p = subprocess.run([CLI, "esquema", str(ruta), "--hacia", f"sqlite:{vacia}", "--formato", "csv"], capture_output=True)
    assert p.returncode == 2 and b"one or the other" in p.stderr
    p = subprocess.run([CLI, "esquema", str(ruta), "--formato", "csv", "--vaciar"], capture_output=True)
    assert p.returncode == 2 and b"--vaciar goes with --hacia" in p.stderr


# ---- PostgreSQL ----

def _pg_url(base, db, usuario="postgres"):
    return f"postgresql://{usuario}@/{db}?host={base}&options=-csearch_path%3Dpublic,ventas"


def _pg_vacia(base, nombre, esquema_ddl):
    _psql(base, f"CREATE DATABASE {nombre}")
    _psql(base, None, esquema_ddl, "-d", nombre)


def _pg_huellas(base, db):
    """Each table's rows as one digest, the rows ordered by their text (no column needs to be orderable)."""
    out = {}
    for t in list(COLUMNAS) + ["ventas.facturas"]:
        q = f'"{t}"' if "." not in t else t
        out[t] = _psql(base, f"SELECT count(*) || ' ' || coalesce(md5(string_agg(x::text, E'\\n' ORDER BY x::text)), '') "
                             f"FROM {q} x", None, "-d", db).strip()
    return out


@pytest.fixture(scope="module", params=["15", "18"])
def pg_app(request, tmp_path_factory):
    """inferir's document of the reference application on PostgreSQL 15 (Debian) and 18 (a wheel), and the
    source's DDL by that server's own pg_dump."""
    if request.param == "15":
        base = request.getfixturevalue("postgres")
    else:
        base = request.getfixturevalue("postgres18")
        _BINDIR[base] = _bindir18()
    tmp = tmp_path_factory.mktemp(f"hacia-pg{request.param}")
    _pg_origen(base, "origen")
    rc, doc, err = _inferir(f"postgresql://postgres@/origen?host={base}")
    assert rc == 0, err
    ruta = tmp / "app.toml"
    ruta.write_text(doc, encoding="utf-8")
    ddl = subprocess.run([_bin(base, "pg_dump"), "-s", "-h", base, "-U", "postgres", "origen"], check=True,
                         capture_output=True).stdout
    return base, ruta, doc, ddl, tmp


def test_postgresql_hacia_fills_the_application_database(pg_app):
    base, ruta, doc, ddl, tmp = pg_app
    e, csvs = _generar(doc, tmp, "app")
    _pg_vacia(base, "destino", ddl)
    rc, out, err = _hacia(ruta, _pg_url(base, "destino"))
    assert rc == 0 and out == "", f"--hacia postgresql: exit {rc} (seed 42): {err}"
    for t in COLUMNAS:
        n = int(_psql(base, f'SELECT count(*) FROM "{t}"', None, "-d", "destino"))
        assert n == e.total(t), f"{t}: {n} rows written, the document says {e.total(t)}"
    assert int(_psql(base, "SELECT count(*) FROM ventas.facturas", None, "-d", "destino")) == e.total("facturas")
    ruts = _psql(base, "SELECT rut FROM clientes", None, "-d", "destino").split()
    assert ruts and all(_rut_valido(r) for r in ruts), "a RUT with a wrong check digit (seed 42)"
    iva = _psql(base, "SELECT count(*) FROM movimientos WHERE monto_iva <> monto * 19 / 100", None, "-d", "destino")
    assert iva.strip() == "0", "the generated column is the database's"
    # the trigger ran for every row (app_pg.sql's trigger keeps cuentas.saldo >= 0 by refusing; it is on)
    assert _psql(base, "SELECT count(*) FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'O'", None,
                 "-d", "destino").strip() == "1"
    # every sequence is past the written keys: the application's next inserts take new ones
    for tabla, columnas, valores in [
            ("clientes", "rut, nombre", "'1.111.111-4', 'Nueva Persona'"),  # identity BY DEFAULT
            ("cuentas", "cliente_id, tipo, saldo, abierta", "1, 'vista', 5, '2020-01-01'"),  # serial
            ("movimientos", "cuenta_id, fecha, monto, tipo", "1, '2020-01-01', 5, 'cargo'")]:  # bigserial
        maximo = int(_psql(base, f"SELECT max(id) FROM {tabla}", None, "-d", "destino"))
        nuevo = int(_psql(base, f"INSERT INTO {tabla} ({columnas}) VALUES ({valores}) RETURNING id", None, "-d",
                          "destino").split()[0])
        assert nuevo == maximo + 1, f"{tabla}: the next id is {nuevo}, after {maximo} written"
        _psql(base, f"DELETE FROM {tabla} WHERE id = {nuevo}", None, "-d", "destino")
    # the same rows as the CSV path loaded by psql's \copy
    _pg_vacia(base, "por_csv", ddl)
    p = subprocess.run([_bin(base, "psql"), "-h", base, "-U", "postgres", "-d", "por_csv", "-v", "ON_ERROR_STOP=1", "-q",
                        "-f", "cargar.sql"], cwd=csvs, capture_output=True,
                       env=dict(os.environ, PGOPTIONS="-c search_path=public,ventas"))
    assert p.returncode == 0, p.stderr.decode()
    huellas = _pg_huellas(base, "destino")
    assert huellas == _pg_huellas(base, "por_csv"), "--hacia wrote other rows than the CSV path (seed 42)"
    # --jobs 2 writes the same rows
    _pg_vacia(base, "destino2", ddl)
    rc, _, err = _hacia(ruta, _pg_url(base, "destino2"), "--jobs", "2")
    assert rc == 0, err
    assert _pg_huellas(base, "destino2") == huellas, "--jobs 2 wrote other rows than --jobs 1"


def test_postgresql_hacia_refuses_and_leaves_the_database_as_it_was(pg_app):
    base, ruta, doc, ddl, tmp = pg_app
    e, csvs = _generar(doc, tmp, "app2")
    _pg_vacia(base, "lleno", ddl)
    rc, _, err = _hacia(ruta, _pg_url(base, "lleno"))
    assert rc == 0, err
    huellas = _pg_huellas(base, "lleno")
    # a table holding rows: refused before anything is written
    rc, _, err = _hacia(ruta, _pg_url(base, "lleno"))
    assert rc == 2 and "already holds rows" in err and "--vaciar" in err, err
    assert _pg_huellas(base, "lleno") == huellas
    # --vaciar: TRUNCATE and the same rows again, sequences set again
    rc, _, err = _hacia(ruta, _pg_url(base, "lleno"), "--vaciar")
    assert rc == 0, err
    assert _pg_huellas(base, "lleno") == huellas
    # a row a CHECK refuses (one the document does not know), after earlier tables were copied: exit 1,
    # table, row and constraint named, no value printed, the TRUNCATE rolled back with the rest
    _psql(base, "ALTER TABLE pedidos ADD CONSTRAINT total_chico CHECK (total < 10100) NOT VALID", None, "-d", "lleno")
    rc, _, err = _hacia(ruta, _pg_url(base, "lleno"), "--vaciar")
    assert rc == 1, f"a refused row: exit {rc}: {err}"
    assert "table pedidos, row " in err and "total_chico" in err and "23514" in err and "rolled back" in err, err
    _no_imprime(err, _valores(csvs, "pedidos"), "a refused pedidos row")
    assert _pg_huellas(base, "lleno") == huellas, "the refused run changed the database"
    _psql(base, "ALTER TABLE pedidos DROP CONSTRAINT total_chico", None, "-d", "lleno")
    # a value its column's type refuses (class 22 quotes the value: its sentence is not printed)
    _pg_vacia(base, "tipos", ddl)
    _psql(base, "ALTER TABLE clientes ALTER COLUMN comuna TYPE integer USING NULL", None, "-d", "tipos")
    rc, _, err = _hacia(ruta, _pg_url(base, "tipos"))
    assert rc == 1 and "table clientes, row 0, column comuna" in err and "22P02" in err, err
    _no_imprime(err, _valores(csvs, "clientes"), "a comuna refused by integer")
    # a UNIQUE column the document does not keep unique, and a table missing: refused before any row
    suelta = tmp / "suelta.toml"
    suelta.write_text(doc.replace('campos = { email = "email" }, unico = true', 'campos = { email = "email" }'), encoding="utf-8")
    _pg_vacia(base, "unica", ddl)
    rc, _, err = _hacia(suelta, _pg_url(base, "unica"))
    assert rc == 2 and "clientes.email is unique in the database" in err, err
    _psql(base, "DROP TABLE reclamos", None, "-d", "unica")
    rc, _, err = _hacia(ruta, _pg_url(base, "unica"))
    assert rc == 2 and "table reclamos is not in the database" in err, err
    assert _psql(base, "SELECT count(*) FROM clientes", None, "-d", "unica").strip() == "0"


def test_postgresql_hacia_never_prints_the_password(pg_app):
    base, ruta, doc, ddl, tmp = pg_app
    _pg_vacia(base, "clave", ddl)
    clave = "Pw-Hacia-7719"
    _psql(base, f"CREATE ROLE escritor LOGIN PASSWORD '{clave}'")
    _psql(base, "GRANT ALL ON ALL TABLES IN SCHEMA public TO escritor; GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO "
                "escritor; GRANT USAGE ON SCHEMA ventas TO escritor", None, "-d", "clave")
    hba = os.path.join(base, "datos", "pg_hba.conf")
    viejo = open(hba).read()
    with open(hba, "w") as f:
        f.write("local all escritor scram-sha-256\n" + viejo)
    _psql(base, "SELECT pg_reload_conf()")
    try:
        url = f"postgresql://escritor:{clave}@/clave?host={base}&options=-csearch_path%3Dpublic,ventas"
        # ventas.facturas is not the role's: permission denied, named, nothing written, no password
        rc, out, err = _hacia(ruta, url)
        assert rc == 2 and "facturas" in err and "permission denied" in err and clave not in out + err, err
        assert _psql(base, "SELECT count(*) FROM clientes", None, "-d", "clave").strip() == "0"
        _psql(base, "GRANT ALL ON ventas.facturas TO escritor; GRANT ALL ON ALL SEQUENCES IN SCHEMA ventas TO escritor",
              None, "-d", "clave")
        rc, out, err = _hacia(ruta, url)
        assert rc == 0 and clave not in out + err, err
        # a wrong password, and the right one from PGPASSWORD (libpq's conventions)
        rc, out, err = _hacia(ruta, url.replace(clave, "Pw-Falsa-3301"), "--vaciar")
        assert rc == 2 and "Pw-Falsa-3301" not in out + err and "clave" in err and base in err, err
        rc, out, err = _hacia(ruta, url.replace(f":{clave}", ""), "--vaciar", env=dict(os.environ, PGPASSWORD=clave))
        assert rc == 0 and clave not in out + err, err
        rc, out, err = _hacia(ruta, "postgresql://yo:Pw-Nadie-5531@127.0.0.1:1/app")
        assert rc == 2 and "Pw-Nadie-5531" not in out + err and "127.0.0.1" in err, err
    finally:
        with open(hba, "w") as f:
            f.write(viejo)
        _psql(base, "SELECT pg_reload_conf()")


def test_postgresql_hacia_writes_generated_always_identity(pg_app, tmp_path):
    """COPY writes an identity column's given values, GENERATED ALWAYS too (an INSERT would need
    OVERRIDING SYSTEM VALUE), and the sequence follows; PostgreSQL 18's virtual generated column (its
    default kind there) is left to the server."""
    base = pg_app[0]
    _psql(base, "CREATE DATABASE siempre")
    mayor = int(_psql(base, "SHOW server_version_num")) // 10000
    virtual = ", largo integer GENERATED ALWAYS AS (length(nombre)) VIRTUAL" if mayor >= 18 else ""
    _psql(base, "CREATE TABLE socios (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, rut text NOT NULL UNIQUE, "
                f"nombre text NOT NULL{virtual})", None, "-d", "siempre")
    doc = tmp_path / "socios.toml"
    doc.write_text('version = 1\n\n[tablas.socios]\nfilas = 250\n\n[tablas.socios.columnas]\n'
                   'id = { serie = true }\n'
                   'rut = { llamada = "persona.persona", campos = { rut = "rut" }, unico = true }\n'
                   'nombre = { llamada = "persona.nombre_completo" }\n', encoding="utf-8")
    rc, _, err = _hacia(doc, f"postgresql://postgres@/siempre?host={base}")
    assert rc == 0, err
    assert _psql(base, "SELECT count(*), min(id), max(id) FROM socios", None, "-d", "siempre").strip() == "250|1|250"
    nuevo = _psql(base, "INSERT INTO socios (rut, nombre) VALUES ('1-9', 'X') RETURNING id", None, "-d", "siempre")
    assert nuevo.split()[0] == "251", nuevo
    assert Esquema(str(doc), seed=42).total("socios") == 250
    if virtual:
        assert _psql(base, "SELECT count(*) FROM socios WHERE largo = length(nombre)", None, "-d", "siempre").strip() == "251"
        rc, doc_inferido, err = _inferir(f"postgresql://postgres@/siempre?host={base}")
        assert rc == 0 and "# largo: a generated column" in doc_inferido, err
