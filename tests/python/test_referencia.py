"""The reference application of issue #40 (tests/referencia/app_*.sql: 25 tables, three schemas in
PostgreSQL, UUID, identity, serial and natural keys, a one-to-one UUID key across schemas, a composite key
and a composite foreign key, a junction table, a foreign key to a UNIQUE non-key column, a self-reference,
a two-table cycle through a DEFERRABLE foreign key, drizzle-seed #3635's two-table cycle, a three-table
cycle, enums, domains, CHECKs, a generated column, a table `user` with a column `order`, a mixed-case
column, jsonb, a view, a trigger, a partial unique index) filled as a new user would:

    datoteca inferir URL > app.toml
    datoteca esquema app.toml --seed 42 --hacia URL'

into an empty database made by the application's own DDL (PostgreSQL: the source's `pg_dump -s`, on 15
and on 18; SQLite and MariaDB 10.11: the same DDL), every constraint and trigger on. The judges: the database (it refuses a
row that breaks a constraint, so a committed load has 0 violations; SQLite's foreign_key_check too),
python-stdnum for every RUT, libphonenumber for every phone, email-validator for every email, and
`inferir` on the filled database, which must choose the same call for every column."""
import os
import sqlite3
import subprocess

import phonenumbers
import pytest
from email_validator import EmailNotValidError, validate_email
from stdnum.cl import rut as stdnum_rut

from datoteca import Esquema
from servidor_mariadb import mariadb  # noqa: F401
from servidor_pg18 import bindir as _bindir18, postgres18  # noqa: F401
from test_basesdedatos import _pg_bin, postgres  # noqa: F401
from test_inferir import CLI, _estable, _inferir

AQUI = os.path.dirname(os.path.abspath(__file__))
DDL_PG = os.path.join(AQUI, "..", "referencia", "app_pg.sql")
DDL_SQLITE = os.path.join(AQUI, "..", "referencia", "app_sqlite.sql")
DDL_MARIADB = os.path.join(AQUI, "..", "referencia", "app_mariadb.sql")
# Reviewed from the DDL: what a document cannot say, which inferir must list (head and stderr)
NO_EXPRESADO_PG = ["v_saldos", "cuentas_auditadas", "cuentas_una_en_rojo", "rut_t"]
NO_EXPRESADO_SQLITE = ["v_saldos", "cuentas_auditadas", "cuentas_una_en_rojo"]
NO_EXPRESADO_MARIADB = ["v_saldos", "cuentas_auditadas", "rut_formato"]

_BINDIR = {}


def _bin(base, nombre):
    return os.path.join(_BINDIR[base], nombre) if base in _BINDIR else _pg_bin(nombre)


def _psql(base, sql, db="postgres", stdin=None):
    args = [_bin(base, "psql"), "-h", base, "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1", "-q", "-At"]
    if sql is not None:
        args += ["-c", sql]
    return subprocess.run(args, input=stdin, check=True, capture_output=True).stdout.decode()


def _tablas(doc):
    return [l[len("[tablas."):-1] for l in doc.splitlines() if l.startswith("[tablas.") and not l.endswith(".columnas]")]


# The foreign keys inferir defers (reviewed from the DDL): the self-reference, the DEFERRABLE two-table
# cycle's nullable edge, drizzle-seed #3635's main picture, the three-table cycle's nullable leader.
DIFERIDAS = {("ejecutivos", "jefe_id"), ("ejecutivos", "sucursal_codigo"), ("productos", "imagen_principal_id"),
             ("proyectos", "lider_id")}


def _diferidas(doc, nulos):
    """The document's deferred refs are the reviewed ones, and the load set every one: nulos(tabla, columna)
    counts the column's NULLs in the filled database."""
    vistas, tabla = set(), None
    for linea in doc.splitlines():
        if linea.startswith("[tablas.") and not linea.endswith(".columnas]"):
            tabla = linea[len("[tablas."):-1]
        elif "diferida = true" in linea:
            vistas.add((tabla, linea.split(" = ", 1)[0]))
    assert vistas == DIFERIDAS, f"deferred refs {sorted(vistas)}, reviewed {sorted(DIFERIDAS)}"
    for t, c in sorted(vistas):
        assert nulos(t, c) == 0, f"{t}.{c}: a deferred ref left NULL (seed 42)"


def _hacia(ruta, url, *extra):
    p = subprocess.run([CLI, "esquema", str(ruta), "--seed", "42", "--hacia", url, *extra], capture_output=True)
    return p.returncode, p.stderr.decode()


def _valida_valores(ruts, telefonos, emails, donde):
    assert ruts, f"{donde}: no RUT written"
    malos = [r for r in ruts if not stdnum_rut.is_valid(r)]
    assert not malos, f"{donde} (seed 42): {len(malos)} of {len(ruts)} RUTs python-stdnum refuses, e.g. {malos[:3]}"
    assert telefonos, f"{donde}: no phone written"
    malos = [t for t in telefonos if not phonenumbers.is_valid_number(phonenumbers.parse(t, "CL"))]
    assert not malos, f"{donde} (seed 42): {len(malos)} of {len(telefonos)} phones libphonenumber refuses, e.g. {malos[:3]}"
    malos = []
    for e in emails:
        try:
            validate_email(e, check_deliverability=False)
        except EmailNotValidError:
            malos.append(e)
    assert not malos, f"{donde} (seed 42): {len(malos)} of {len(emails)} emails email-validator refuses, e.g. {malos[:3]}"


def _cabeza(doc, err, nombres):
    cabeza = doc.split("version = 1")[0]
    for nombre in nombres:
        assert nombre in cabeza, f"the document's head does not list {nombre}:\n{cabeza}"
        assert nombre in err, f"stderr does not list {nombre}: {err}"


# ---- PostgreSQL, two majors ----

@pytest.fixture(scope="module", params=["15", "18"])
def servidor(request):
    if request.param == "15":
        return request.getfixturevalue("postgres")
    base = request.getfixturevalue("postgres18")
    _BINDIR[base] = _bindir18()
    return base


def test_postgresql_reference_application_fills_and_round_trips(servidor, tmp_path):
    base = servidor
    _psql(base, "CREATE DATABASE ref_origen")
    _psql(base, None, "ref_origen", open(DDL_PG, "rb").read())
    rc, doc, err = _inferir(f"postgresql://postgres@/ref_origen?host={base}")
    assert rc == 0, f"inferir: exit {rc}: {err}"
    tablas = _tablas(doc)
    assert len(tablas) == 25, f"{len(tablas)} tables in the document: {tablas}"
    _cabeza(doc, err, NO_EXPRESADO_PG)
    ruta = tmp_path / "app.toml"
    ruta.write_text(doc, encoding="utf-8")
    e = Esquema(str(ruta), seed=42)
    ddl = subprocess.run([_bin(base, "pg_dump"), "-s", "-h", base, "-U", "postgres", "ref_origen"], check=True,
                         capture_output=True).stdout
    _psql(base, "CREATE DATABASE ref_destino")
    _psql(base, None, "ref_destino", ddl)
    rc, err = _hacia(ruta, f"postgresql://postgres@/ref_destino?host={base}")
    assert rc == 0, f"--hacia into the application's own DDL (seed 42): exit {rc}: {err}"
    # every table holds the document's rows (qualified where the schema is not public)
    nombres = dict(l.split("|") for l in _psql(base, "SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON "
                                                   "n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN "
                                                   "('public', 'auth', 'ventas')", "ref_destino").split())
    for t in tablas:
        n = int(_psql(base, f'SELECT count(*) FROM "{nombres[t]}"."{t}"', "ref_destino"))
        esperadas = e.total(t) + (e.total("cuentas") if t == "auditoria" else 0)  # the trigger's rows
        assert n == esperadas, f"{t}: {n} rows, the document says {e.total(t)}"
    # the database's own checks once more, after the load: every constraint validated
    pendientes = _psql(base, "SELECT count(*) FROM pg_constraint WHERE NOT convalidated", "ref_destino").strip()
    assert pendientes == "0", f"{pendientes} constraints not validated"
    consulta = lambda q: [v for v in _psql(base, q, "ref_destino").split("\n") if v]  # noqa: E731
    _valida_valores(consulta("SELECT rut FROM clientes UNION ALL SELECT rut FROM empleados"),
                    consulta("SELECT telefono FROM clientes WHERE telefono IS NOT NULL UNION ALL "
                             "SELECT celular FROM empleados WHERE celular IS NOT NULL"),
                    consulta("SELECT email FROM clientes WHERE email IS NOT NULL UNION ALL SELECT email FROM auth.accesos"),
                    f"PostgreSQL {_psql(base, 'SHOW server_version').strip()}")
    _diferidas(doc, lambda t, c: int(_psql(base, f'SELECT count(*) FROM "{nombres[t]}"."{t}" WHERE "{c}" IS NULL', "ref_destino")))
    # the one-to-one UUID key across schemas: each perfil is an acceso, none twice
    huerfanos = _psql(base, "SELECT count(*) FROM perfiles_usuario p LEFT JOIN auth.accesos a ON a.id = p.id "
                            "WHERE a.id IS NULL", "ref_destino").strip()
    assert huerfanos == "0" and int(_psql(base, "SELECT count(*) FROM perfiles_usuario", "ref_destino")) > 0
    # the round trip: inferir on the filled database chooses the same call for every column
    rc, doc2, err = _inferir(f"postgresql://postgres@/ref_destino?host={base}")
    assert rc == 0, err
    _estable(doc, doc2, vacias=tablas)


# ---- SQLite ----

def test_sqlite_reference_application_fills_and_round_trips(tmp_path):
    ddl = open(DDL_SQLITE, encoding="utf-8").read()
    origen, destino = tmp_path / "origen.db", tmp_path / "destino.db"
    for db in (origen, destino):
        con = sqlite3.connect(db)
        con.executescript(ddl)
        con.close()
    rc, doc, err = _inferir(f"sqlite:{origen}")
    assert rc == 0, f"inferir: exit {rc}: {err}"
    tablas = _tablas(doc)
    assert len(tablas) == 25, f"{len(tablas)} tables in the document: {tablas}"
    _cabeza(doc, err, NO_EXPRESADO_SQLITE)
    ruta = tmp_path / "app.toml"
    ruta.write_text(doc, encoding="utf-8")
    e = Esquema(str(ruta), seed=42)
    rc, err = _hacia(ruta, f"sqlite:{destino}")
    assert rc == 0, f"--hacia into the application's own DDL (seed 42): exit {rc}: {err}"
    con = sqlite3.connect(destino)
    con.execute("PRAGMA foreign_keys = ON")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == [], "a row pointing at no parent"
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for t in tablas:
        n = con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        esperadas = e.total(t) + (e.total("cuentas") if t == "auditoria" else 0)
        assert n == esperadas, f"{t}: {n} rows, the document says {e.total(t)}"
    col = lambda q: [r[0] for r in con.execute(q)]  # noqa: E731
    _valida_valores(col("SELECT rut FROM clientes UNION ALL SELECT rut FROM empleados"),
                    col("SELECT telefono FROM clientes WHERE telefono IS NOT NULL UNION ALL "
                        "SELECT celular FROM empleados WHERE celular IS NOT NULL"),
                    col("SELECT email FROM clientes WHERE email IS NOT NULL UNION ALL SELECT email FROM accesos"),
                    "SQLite")
    _diferidas(doc, lambda t, c: con.execute(f'SELECT count(*) FROM "{t}" WHERE "{c}" IS NULL').fetchone()[0])
    con.close()
    rc, doc2, err = _inferir(f"sqlite:{destino}")
    assert rc == 0, err
    _estable(doc, doc2, vacias=tablas)


# ---- MariaDB ----

def test_mariadb_reference_application_fills_and_round_trips(mariadb, tmp_path):
    m = mariadb
    ddl = "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES');\n" + open(DDL_MARIADB, encoding="utf-8").read()
    for db in ("ref_origen", "ref_destino"):
        m.sql(f"CREATE DATABASE {db}")
        m.sql(ddl, db=db)
    rc, doc, err = _inferir(m.url("ref_origen"))
    assert rc == 0, f"inferir: exit {rc}: {err}"
    tablas = _tablas(doc)
    assert len(tablas) == 25, f"{len(tablas)} tables in the document: {tablas}"
    _cabeza(doc, err, NO_EXPRESADO_MARIADB)
    ruta = tmp_path / "app.toml"
    ruta.write_text(doc, encoding="utf-8")
    e = Esquema(str(ruta), seed=42)
    rc, err = _hacia(ruta, m.url("ref_destino"))
    assert rc == 0, f"--hacia into the application's own DDL (seed 42): exit {rc}: {err}"
    for t in tablas:
        n = int(m.sql(f'SET SESSION sql_mode = \'ANSI_QUOTES\'; SELECT count(*) FROM "{t}"', db="ref_destino"))
        esperadas = e.total(t) + (e.total("cuentas") if t == "auditoria" else 0)
        assert n == esperadas, f"{t}: {n} rows, the document says {e.total(t)}"
    col = lambda q: [v for v in m.sql(q, db="ref_destino").split("\n") if v and v != "NULL"]  # noqa: E731
    _valida_valores(col("SELECT rut FROM clientes UNION ALL SELECT rut FROM empleados"),
                    col("SELECT telefono FROM clientes UNION ALL SELECT celular FROM empleados"),
                    col("SELECT email FROM clientes UNION ALL SELECT email FROM accesos"),
                    "MariaDB " + m.sql("SELECT version()").strip())
    huerfanos = m.sql("SELECT count(*) FROM perfiles_usuario p LEFT JOIN accesos a ON a.id = p.id WHERE a.id IS NULL",
                      db="ref_destino").strip()
    assert huerfanos == "0"
    _diferidas(doc, lambda t, c: int(m.sql(f"SELECT count(*) FROM `{t}` WHERE `{c}` IS NULL", db="ref_destino")))
    rc, doc2, err = _inferir(m.url("ref_destino"))
    assert rc == 0, err
    _estable(doc, doc2, vacias=tablas)
    # the masking rules of the filled database (docs/copia.md): a section per table, the RUT columns rut, the
    # complaint's RUT taking its client's rule by its foreign key
    p = subprocess.run([CLI, "detectar", m.url("ref_destino")], capture_output=True)
    reglas, err = p.stdout.decode(), p.stderr.decode()
    assert p.returncode == 0, err
    assert reglas.count("\n[tablas.") == 25, reglas
    assert "\nrut = { regla = \"rut\" }" in reglas and "rut_cliente = { regla = \"rut\" }" in reglas, reglas
    assert "a FOREIGN KEY to clientes.rut, so its rule (the join holds)" in reglas, reglas
