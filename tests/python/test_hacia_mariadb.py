"""datoteca esquema DOC --hacia mariadb://... (issue #40, item 2, MariaDB): a schema document's rows
written into an existing MariaDB database whose tables were made by the application's DDL below
(AUTO_INCREMENT keys, UNIQUE, a foreign key, CHECK, a trigger, a generated column, a table `user` with a
column `order` and a mixed-case column), on a server this module starts (servidor_mariadb.py). The
judges are the server (InnoDB's foreign keys, UNIQUE and CHECK on, the trigger firing), the mariadb
client reading the rows back, the CSV path's rows (`--formato csv`, same seed) cell for cell, and the
application's next insert. Each refusal must leave the database as it was and print neither a row's
value nor the password."""
import os
import subprocess

from servidor_mariadb import mariadb  # noqa: F401  (a throwaway server of this module)
from test_inferir import CLI, _csv, _rut_valido

DDL = """
CREATE TABLE clientes (
    id INT AUTO_INCREMENT PRIMARY KEY,
    rut VARCHAR(12) NOT NULL UNIQUE,
    nombre VARCHAR(120) NOT NULL,
    email VARCHAR(120) UNIQUE,
    comuna VARCHAR(40),
    fecha_nacimiento DATE,
    nota TEXT
) ENGINE=InnoDB;
CREATE TABLE cuentas (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    cliente_id INT NOT NULL,
    tipo ENUM('corriente', 'vista', 'ahorro') NOT NULL,
    saldo BIGINT NOT NULL CHECK (saldo >= 0),
    abierta DATE NOT NULL,
    saldo_uf BIGINT AS (saldo DIV 38000) VIRTUAL,
    CONSTRAINT cuentas_cliente FOREIGN KEY (cliente_id) REFERENCES clientes (id)
) ENGINE=InnoDB;
CREATE TABLE "user" (
    id INT AUTO_INCREMENT PRIMARY KEY,
    "order" VARCHAR(20) NOT NULL,
    "NombreVisible" VARCHAR(120),
    cliente_id INT,
    FOREIGN KEY (cliente_id) REFERENCES clientes (id)
) ENGINE=InnoDB;
CREATE TABLE bitacora (cuenta BIGINT NOT NULL) ENGINE=InnoDB;
CREATE TRIGGER cuentas_bitacora AFTER INSERT ON cuentas FOR EACH ROW INSERT INTO bitacora VALUES (NEW.id);
"""

# Reviewed by hand: the calls a user would give these columns (docs/esquemas.md), the nota column with
# a quote, a double quote and a backslash, which the server must store as they are.
DOC = """version = 1

[tablas.clientes]
filas = 2000

[tablas.clientes.columnas]
id = { serie = true, tipo_sql = "integer" }
rut = { llamada = "persona.persona", campos = { rut = "rut", email = "email" }, unico = true }
nombre = { llamada = "persona.nombre_completo" }
comuna = { llamada = "direccion.comuna", nulos = { comuna = 150 } }
fecha_nacimiento = { llamada = "persona.fecha_nacimiento" }
nota = { elegir = { "sin nota" = 3, "dijo 'pásame' \\\\ \\"ya\\"" = 1 } }

[tablas.cuentas]
por = "clientes"
cuantos = { min = 0, max = 4 }

[tablas.cuentas.columnas]
id = { serie = true, tipo_sql = "bigint" }
cliente_id = { ref = "clientes.id" }
tipo = { elegir = { "corriente" = 2, "vista" = 5, "ahorro" = 1 } }
saldo = { llamada = "dinero.monto", min = 0, max = 5000000, tipo_sql = "bigint" }
abierta = { llamada = "fecha.fecha" }

[tablas.user]
filas = 300

[tablas.user.columnas]
id = { serie = true, tipo_sql = "integer" }
order = { elegir = { "primero" = 1, "segundo" = 1 } }
NombreVisible = { llamada = "persona.nombre" }
cliente_id = { ref = "clientes.id" }
"""

TABLAS = ["clientes", "cuentas", "user"]


def _hacia(doc, url, *extra, env=None):
    p = subprocess.run([CLI, "esquema", str(doc), "--seed", "42", "--hacia", url, *extra], capture_output=True, env=env)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def _base(m, nombre, ddl=DDL):
    m.sql(f"DROP DATABASE IF EXISTS {nombre}; CREATE DATABASE {nombre}")
    m.sql("SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES');" + ddl, db=nombre)


def _filas(m, db, tabla, cols):
    lista = ", ".join(f'"{c}"' for c in cols)
    texto = m.sql(f"SET SESSION sql_mode = 'ANSI_QUOTES'; SELECT {lista} FROM \"{tabla}\" ORDER BY id", db=db)
    # --raw writes a null as NULL (no text of these documents is the word NULL)
    return [tuple(None if v == "NULL" else v for v in linea.split("\t")) for linea in texto.splitlines()]


def _csvs(tmp_path, doc):
    salida = tmp_path / "csv"
    subprocess.run([CLI, "esquema", str(doc), "--seed", "42", "--formato", "csv", "--salida", str(salida)], check=True,
                   capture_output=True)
    return {t: _csv(open(salida / f"{t}.csv", encoding="utf-8").read()) for t in TABLAS}


def _doc(tmp_path, texto=DOC):
    ruta = tmp_path / "app.toml"
    ruta.write_text(texto, encoding="utf-8")
    return ruta


def test_mariadb_hacia_fills_the_application_database(mariadb, tmp_path):
    m = mariadb
    doc = _doc(tmp_path)
    _base(m, "app")
    rc, out, err = _hacia(doc, m.url("app"))
    assert rc == 0 and out == "", f"--hacia mariadb: exit {rc} (seed 42): {err}"
    csvs = _csvs(tmp_path, doc)
    for t in TABLAS:
        cab, esperadas = csvs[t]
        leidas = _filas(m, "app", t, cab)
        assert len(leidas) == len(esperadas), f"{t}: {len(leidas)} rows written, the CSV path has {len(esperadas)}"
        for k, (a, b) in enumerate(zip(leidas, esperadas)):
            assert a == tuple(b), f"{t} row {k} (seed 42): the server holds {a}, --formato csv has {tuple(b)}"
    ruts = [f[0] for f in _filas(m, "app", "clientes", ["rut"])]
    assert ruts and all(_rut_valido(r) for r in ruts), "a RUT with a wrong check digit (seed 42)"
    # the trigger ran for every cuenta; the virtual column is the server's
    assert m.sql("SELECT (SELECT count(*) FROM bitacora) = (SELECT count(*) FROM cuentas)", db="app").strip() == "1"
    assert m.sql("SELECT count(*) FROM cuentas WHERE saldo_uf <> saldo DIV 38000", db="app").strip() == "0"
    # the application's next insert takes the key after the written ones
    for tabla, cols, valores in [("clientes", "rut, nombre", "'1.111.111-4', 'Nueva Persona'"),
                                 ("cuentas", "cliente_id, tipo, saldo, abierta", "1, 'vista', 5, '2020-01-01'")]:
        maximo = int(m.sql(f"SELECT max(id) FROM {tabla}", db="app"))
        nuevo = int(m.sql(f"INSERT INTO {tabla} ({cols}) VALUES ({valores}); SELECT LAST_INSERT_ID()", db="app"))
        assert nuevo == maximo + 1, f"{tabla}: the next id is {nuevo}, after {maximo} written"
        m.sql(f"DELETE FROM {tabla} WHERE id = {nuevo}", db="app")
    # --jobs 2 writes the same rows
    _base(m, "app2")
    rc, _, err = _hacia(doc, m.url("app2"), "--jobs", "2")
    assert rc == 0, err
    for t in TABLAS:
        cab = csvs[t][0]
        assert _filas(m, "app2", t, cab) == _filas(m, "app", t, cab), f"{t}: --jobs 2 wrote other rows than --jobs 1"


def _suma(m, db, tablas=("clientes", "cuentas", "user", "bitacora")):
    """The server's own checksum of each table's rows."""
    lista = ", ".join(f'"{t}"' for t in tablas)
    return m.sql(f"SET SESSION sql_mode = 'ANSI_QUOTES'; CHECKSUM TABLE {lista} EXTENDED", db=db)


def test_mariadb_hacia_refuses_and_leaves_the_database_as_it_was(mariadb, tmp_path):
    m = mariadb
    doc = _doc(tmp_path)
    csvs = _csvs(tmp_path, doc)
    valores = {v for t in TABLAS for f in csvs[t][1] for v in f if v is not None and len(v) >= 5}
    _base(m, "lleno")
    rc, _, err = _hacia(doc, m.url("lleno"))
    assert rc == 0, err
    antes = _suma(m, "lleno", TABLAS)
    # a table holding rows: refused before anything is written; --vaciar empties (DELETE) and fills
    rc, _, err = _hacia(doc, m.url("lleno"))
    assert rc == 2 and "clientes already holds rows" in err and "--vaciar" in err, err
    rc, _, err = _hacia(doc, m.url("lleno"), "--vaciar")
    assert rc == 0, err
    # a CHECK the document does not know, on the last table: exit 1, table, row and constraint named,
    # nothing printed of the row, every table (and the emptying) rolled back
    # (check_constraint_checks = 0: the rows already there need not meet it, as PostgreSQL's NOT VALID)
    m.sql('SET SESSION sql_mode = CONCAT(@@sql_mode, \',ANSI_QUOTES\'), check_constraint_checks = 0; ALTER TABLE "user" '
          'ADD CONSTRAINT orden_permitido CHECK ("order" = \'primero\')', db="lleno")
    estado = _suma(m, "lleno")
    rc, _, err = _hacia(doc, m.url("lleno"), "--vaciar")
    assert rc == 1, f"a refused row: exit {rc}: {err}"
    assert "table user, row " in err and "orden_permitido" in err and "rolled back" in err, err
    assert not [v for v in valores if v in err], f"stderr prints a value: {err}"
    assert _suma(m, "lleno") == estado, "the refused run changed the database"
    # (bitacora is outside the document: its trigger logged both runs' cuentas)
    assert _suma(m, "lleno", TABLAS) == antes, "the --vaciar run wrote other rows than the first"
    # a value its column's type refuses (the server's sentence quotes it: only its number is printed)
    _base(m, "tipos", DDL.replace("comuna VARCHAR(40)", "comuna INT"))
    rc, _, err = _hacia(doc, m.url("tipos"))
    assert rc == 1 and "table clientes, row 0, column comuna" in err and "error 1366" in err, err
    assert not [v for v in valores if v in err], f"stderr prints a value: {err}"
    assert m.sql("SELECT count(*) FROM clientes", db="tipos").strip() == "0"
    # a duplicate in a two-column UNIQUE key (the pre-check reads single columns): the key's name only
    _base(m, "dup", DDL.replace("nota TEXT\n)", "nota VARCHAR(40),\n    UNIQUE KEY nota_comuna (nota, comuna)\n)"))
    rc, _, err = _hacia(doc, m.url("dup"))
    assert rc == 1 and "a duplicate value in unique key 'nota_comuna'" in err and "table clientes, row " in err, err
    assert not [v for v in valores if v in err], f"stderr prints a value: {err}"
    # refused before the first row: a unique column the document leaves loose, a table missing, MyISAM
    suelta = tmp_path / "suelta.toml"
    suelta.write_text(DOC.replace('campos = { rut = "rut", email = "email" }, unico = true', 'campos = { rut = "rut", email = "email" }'),
                      encoding="utf-8")
    _base(m, "reglas")
    rc, _, err = _hacia(suelta, m.url("reglas"))
    assert rc == 2 and "clientes.email is unique in the database" in err, err  # the first unique index by name
    m.sql('SET SESSION sql_mode = \'ANSI_QUOTES\'; DROP TABLE "user"', db="reglas")
    rc, _, err = _hacia(doc, m.url("reglas"))
    assert rc == 2 and "table user is not in the database" in err, err
    _base(m, "myisam", DDL.replace('    FOREIGN KEY (cliente_id) REFERENCES clientes (id)\n) ENGINE=InnoDB;\nCREATE TABLE bitacora',
                                   '    KEY (cliente_id)\n) ENGINE=MyISAM;\nCREATE TABLE bitacora'))
    rc, _, err = _hacia(doc, m.url("myisam"))
    assert rc == 2 and "table user uses the engine MyISAM" in err, err
    assert m.sql("SELECT count(*) FROM clientes", db="myisam").strip() == "0"


def test_mariadb_hacia_credentials(mariadb, tmp_path):
    m = mariadb
    doc = _doc(tmp_path)
    _base(m, "clave")
    clave = "Pw-Maria-4411"
    m.sql(f"CREATE USER escritor@localhost IDENTIFIED BY '{clave}'; GRANT ALL ON clave.* TO escritor@localhost")
    rc, out, err = _hacia(doc, m.url("clave", "escritor", clave))
    assert rc == 0 and clave not in out + err, err
    # a wrong password, percent-encoded characters in it: exit 2, the password nowhere
    for mala in ["Pw-Falsa-8812", "p@ss:w/rd"]:
        codificada = mala.replace("@", "%40").replace(":", "%3A").replace("/", "%2F")
        rc, out, err = _hacia(doc, m.url("clave", "escritor", codificada), "--vaciar")
        assert rc == 2 and "Access denied" in err and m.socket in err, err
        assert mala not in out + err and codificada not in out + err, f"the password is in stderr: {err}"
    # the client's option files: ~/.my.cnf's [client] gives user, password and socket
    casa = tmp_path / "casa"
    casa.mkdir()
    (casa / ".my.cnf").write_text(f"[client]\nuser=escritor\npassword={clave}\nsocket={m.socket}\n", encoding="utf-8")
    os.chmod(casa / ".my.cnf", 0o600)
    rc, out, err = _hacia(doc, "mariadb:///clave", "--vaciar", env=dict(os.environ, HOME=str(casa)))
    assert rc == 0 and clave not in out + err, err
    # an unreachable server, a URL without a database, a parameter it does not know
    rc, out, err = _hacia(doc, "mysql://yo:Pw-Nadie-5531@127.0.0.1:1/app")
    assert rc == 2 and "Pw-Nadie-5531" not in out + err and "127.0.0.1" in err, err
    rc, _, err = _hacia(doc, "mariadb://yo:Pw-Nadie-5531@localhost")
    assert rc == 2 and "names no database" in err and "Pw-Nadie-5531" not in err, err
    rc, _, err = _hacia(doc, "mariadb://yo:Pw-Nadie-5531@localhost/app?ssl=1")
    assert rc == 2 and "socket=" in err and "Pw-Nadie-5531" not in err, err
