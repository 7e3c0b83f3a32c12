"""datoteca inferir mariadb://... (issue #40, item 1, MariaDB): the reference application of
test_inferir.py, as MariaDB spells it (tests/inferir/app_mariadb.sql: AUTO_INCREMENT, ENUM, BOOLEAN,
JSON, DATETIME, stored and virtual generated columns, column- and table-level CHECKs, a view, a trigger
and an audit trigger), is created on a MariaDB server this module starts (servidor_mariadb.py), the same
rows are planted, and inferir reads it into a schema document. The judges are outside inferir: the
library builds the document (datoteca.Esquema), and a FRESH database made from the source's own DDL
(mariadb-dump --no-data, triggers included) takes the document's rows through `datoteca esquema --hacia`
with every constraint and trigger on; the mariadb client counts them back. A password, right or wrong,
must never appear on stdout, stderr or in the document."""
import os
import subprocess

from conftest import ROOT
from datoteca import Esquema
from servidor_mariadb import _bin, mariadb  # noqa: F401  (a throwaway server of this module)
from test_inferir import CLI, COLUMNAS, _estable, _filas, _inferir, _rut_valido

DDL = os.path.join(ROOT, "tests", "inferir", "app_mariadb.sql")
# what the document cannot say, each named in its head and on stderr
NO_EXPRESADO = ["v_saldos", "cuentas_no_negativas", "cuentas_bitacora", "rut_formato"]
MODO = "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,NO_BACKSLASH_ESCAPES');\n"


def _literal(v):
    if v is None:
        return "NULL"
    if isinstance(v, int):
        return str(v)
    return "'" + str(v).replace("'", "''") + "'"  # NO_BACKSLASH_ESCAPES: a quote doubled is all


def _origen(m, nombre):
    m.sql(f"DROP DATABASE IF EXISTS {nombre}; CREATE DATABASE {nombre}")
    m.sql(MODO + open(DDL, encoding="utf-8").read(), db=nombre)
    sql = [MODO]
    for t, filas in _filas(pg=False).items():  # MariaDB's booleans are 1 and 0, as SQLite's
        valores = ",\n".join("(" + ", ".join(_literal(v) for v in f) + ")" for f in filas)
        sql.append(f'INSERT INTO "{t}" ({COLUMNAS[t]}) VALUES\n{valores};')
    sql.append("""UPDATE perfiles SET preferencias = '{"tema": "oscuro"}' WHERE cliente_id <= 5;""")
    m.sql("\n".join(sql), db=nombre)


def _n(m, db, consulta):
    return int(m.sql(MODO + consulta, db=db).strip())


def _hacia(doc, url, *extra):
    p = subprocess.run([CLI, "esquema", str(doc), "--seed", "42", "--hacia", url, *extra], capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def _copia_vacia(m, origen, nombre):
    """A fresh database from the source's DDL as mariadb-dump writes it (an outside tool): tables, view, triggers."""
    ddl = subprocess.run([_bin("mariadb-dump"), "--no-defaults", "-S", m.socket, "-u", "root", "--no-data", "--triggers",
                          "--skip-comments", origen], check=True, capture_output=True).stdout.decode()
    assert "CREATE TABLE `clientes`" in ddl and "TRIGGER" in ddl and "v_saldos" in ddl, ddl[:400]
    m.sql(f"DROP DATABASE IF EXISTS {nombre}; CREATE DATABASE {nombre}")
    m.sql(ddl, db=nombre)


def test_mariadb_round_trip(mariadb, tmp_path):
    m = mariadb
    _origen(m, "origen")
    rc, doc, err = _inferir(m.url("origen"))
    assert rc == 0, f"inferir {m.url('origen')}: exit {rc}, stderr: {err}"
    cabeza = doc.split("version = 1")[0]
    for nombre in NO_EXPRESADO:
        assert nombre in cabeza, f"the document's head does not list {nombre}:\n{cabeza}"
        assert nombre in err, f"stderr does not list {nombre}: {err}"
    assert f"# datoteca inferir mariadb:///origen?socket={m.socket}: 14 tables read." in cabeza, cabeza
    assert "--hacia mariadb://" in cabeza and "psql" not in cabeza and "setval" not in cabeza, cabeza
    ruta = tmp_path / "app.toml"
    ruta.write_text(doc, encoding="utf-8")
    e = Esquema(str(ruta), seed=42)  # the library judges the syntax and the schema's own rules
    # reviewed expectations of the mapping (docs/inferir.md), not copies of inferir's output
    assert 'rut = { llamada = "persona.persona", campos = { rut = "rut" }, unico = true' in doc
    assert 'tipo = { elegir = { "corriente" = ' in doc and '"abono" = ' in doc, "the ENUM's labels and the CHECK IN-list"
    assert 'activa = { elegir = { "0" = ' in doc and "a boolean (tinyint(1))" in doc
    assert "# monto_iva: a generated column" in doc and "# saldo_uf: a generated column" in doc
    assert 'linea = { posicion = true, tipo_sql = "smallint" }' in doc
    assert 'rut_cliente = { ref = "clientes.rut" }' in doc, "a foreign key to a UNIQUE column that is no key"
    assert 'creado = { llamada = "fecha.fecha_hora"' in doc, "DATETIME"
    cantidad = [l for l in doc.splitlines() if l.startswith("cantidad = ")]
    assert len(cantidad) == 1 and [l for l in cantidad if 'min = 1, max = 5, tipo_sql = "integer" }' in l and "within its CHECK" in l] == cantidad, cantidad
    assert "filas = 0  # 0 rows: trigger cuentas_bitacora on cuentas inserts into it" in doc
    assert "preferencias = " in doc and "type json has no call" in cabeza, "JSON: longtext with json_valid, left null"
    assert "[tablas.user]" in doc and "\norder = " in doc and "\nNombreVisible = " in doc
    assert "json_valid" not in doc, "MariaDB's own JSON CHECK is the column's type, not a note"
    # the observed fan-out, counted here with the mariadb client on the source
    hist = {}
    for linea in m.sql("SELECT n, count(*) FROM (SELECT count(*) AS n FROM cuentas GROUP BY cliente_id) g GROUP BY n",
                       db="origen").splitlines():
        k, v = linea.split("\t")
        hist[int(k)] = int(v)
    hist[0] = _n(m, "origen", "SELECT count(*) FROM clientes") - sum(hist.values())
    ks = [k for k in sorted(hist) if hist[k]]
    pesos = ", ".join(str(hist.get(k, 0)) for k in range(ks[0], ks[-1] + 1))
    cuentas = doc.split("[tablas.cuentas]")[1].split("[tablas.")[0]
    assert 'por = "clientes"' in cuentas and f'min = {ks[0]}, max = {ks[-1]}, distribucion = "pesos", pesos = [{pesos}]' in cuentas, cuentas
    # into a fresh copy of the DDL, every constraint and trigger on
    _copia_vacia(m, "origen", "destino")
    rc, out, err2 = _hacia(ruta, m.url("destino"))
    assert rc == 0 and out == "", f"--hacia into a database with the source's DDL failed (seed 42): {err2}"
    assert _n(m, "destino", "SELECT count(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'destino'") == 2
    for t in COLUMNAS:
        n = _n(m, "destino", f'SELECT count(*) FROM "{t}"')
        assert n == e.total(t), f"{t}: {n} rows written, the document says {e.total(t)}"
        if "por = " not in doc.split(f"[tablas.{t}]")[1].split("[")[0]:
            vivas = _n(m, "origen", f'SELECT count(*) FROM "{t}"')
            assert n == vivas, f"{t}: {n} rows, the source has {vivas}"
    assert _n(m, "destino", "SELECT count(*) FROM bitacora") == e.total("cuentas"), "the audit trigger fills bitacora"
    ruts = m.sql("SELECT rut FROM clientes", db="destino").split()
    assert len(ruts) == e.total("clientes") and all(_rut_valido(r) for r in ruts), "a RUT with a wrong check digit (seed 42)"
    assert _n(m, "destino", "SELECT count(*) FROM movimientos WHERE monto_iva <> monto * 19 DIV 100") == 0
    assert _n(m, "destino", "SELECT count(*) FROM cuentas WHERE saldo_uf <> saldo DIV 38000") == 0
    assert _n(m, "destino", "SELECT count(*) FROM empleados WHERE jefe_id IS NULL") == 0  # deferred, then set
    assert _n(m, "destino", "SELECT count(*) FROM clientes WHERE email NOT LIKE '%_@_%.__%'") == 0
    # the round trip is stable: inferir on the filled copy chooses the same calls
    rc, doc2, err = _inferir(m.url("destino"))
    assert rc == 0, err
    _estable(doc, doc2)


def test_mariadb_types_and_checks(mariadb):
    """MariaDB's spellings read into calls: integer widths bound an amount, a CHECK written with backticks
    or escapes in its texts, a column-level CHECK named after its column, an unreadable CHECK listed, a
    prefix unique index listed, an INVISIBLE column sampled in its place, --esquema another database."""
    m = mariadb
    m.sql("DROP DATABASE IF EXISTS tipos; CREATE DATABASE tipos")
    # default sql_mode here: texts with backslash escapes, as applications write them
    m.sql(r"""CREATE TABLE t (
        id TINYINT UNSIGNED AUTO_INCREMENT PRIMARY KEY,
        monto TINYINT NOT NULL,
        saldo MEDIUMINT NOT NULL,
        precio SMALLINT NOT NULL CHECK (`precio` BETWEEN -5 AND 90),
        c VARCHAR(10) NOT NULL CHECK (c IN ('it''s', 'a\\b', 'q"x')),
        d VARCHAR(20) NOT NULL CHECK (CHAR_LENGTH(d) > 2),
        e INT NOT NULL, CONSTRAINT e_rango CHECK (e >= 3 AND e < 10),
        f VARCHAR(30), UNIQUE KEY f_prefijo (f(5)),
        oculta INT INVISIBLE DEFAULT 7,
        nota VARCHAR(20) NOT NULL,
        fecha DATE NOT NULL
    ) ENGINE=InnoDB;
    INSERT INTO t (monto, saldo, precio, c, d, e, f, nota, fecha) VALUES
        (5, 1000, 10, 'it''s', 'abc', 4, 'x1', 'uno', '2024-03-01'),
        (7, 2000, 20, 'a\\b', 'abcd', 5, 'x2', 'dos', '2024-05-31');""", db="tipos")
    m.sql("CREATE DATABASE IF NOT EXISTS otra")
    rc, doc, err = _inferir(m.url("otra"), "--esquema", "tipos")
    assert rc == 0, err
    assert doc.startswith(f"# datoteca inferir mariadb:///otra?socket={m.socket} --esquema tipos: 1 tables read."), doc[:200]
    fila = {l.split(" = ")[0]: l for l in doc.splitlines() if " = {" in l}
    assert 'serie = true, tipo_sql = "smallint"' in fila["id"], fila["id"]
    assert "min = 5, max = 7" in fila["monto"], fila["monto"]  # the sample's range, inside tinyint's
    assert "min = 1000, max = 2000" in fila["saldo"], fila["saldo"]
    assert "min = 10, max = 20" in fila["precio"] and "within its CHECK" in fila["precio"], fila["precio"]
    assert '{ "it\'s" = 2, "a\\\\b" = 2, "q\\"x" = 1 }' in fila["c"], fila["c"]
    assert "min = 4, max = 5" in fila["e"], fila["e"]
    cabeza = doc.split("version = 1")[0]
    assert "CHECK d: not a simple IN-list" in cabeza, cabeza  # the column-level CHECK is named after its column
    assert "unique index f_prefijo on a prefix" in cabeza, cabeza
    assert "oculta = " in doc, "an INVISIBLE column is a column"
    Esquema(doc)
    # without samples, an amount in a tinyint column stays inside it
    rc, doc, err = _inferir(m.url("tipos"), "--muestra", "0")
    assert rc == 0, err
    fila = {l.split(" = ")[0]: l for l in doc.splitlines() if " = {" in l}
    assert "max = 127" in fila["monto"] and "max = 8388607" not in fila["monto"], fila["monto"]
    assert "max = 1000000" in fila["saldo"], fila["saldo"]  # mediumint holds the default range
    assert "min = 3, max = 9" in fila["e"], fila["e"]  # the table-level CHECK e_rango
    assert "min = 0, max = 90" in fila["precio"], fila["precio"]
    rc, out, err = _inferir(m.url("otra"), "--esquema", "no_existe")
    assert rc == 2 and out == "" and "no_existe" in err and "no such database" in err, err


def test_mariadb_password_never_printed(mariadb, tmp_path):
    m = mariadb
    if "origen" not in m.sql("SHOW DATABASES"):
        _origen(m, "origen")
    clave = "Pw-Lee-7731"
    m.sql(f"CREATE USER IF NOT EXISTS lector@localhost IDENTIFIED BY '{clave}'; GRANT SELECT ON origen.* TO lector@localhost")
    rc, doc, err = _inferir(m.url("origen", "lector", clave))
    assert rc == 0, err
    assert clave not in doc + err and "origen" in doc
    assert doc.split("\n")[0] == f"# datoteca inferir mariadb:///origen?socket={m.socket}: 14 tables read."
    # a database it may not read: one sentence naming it, exit 2, nothing on stdout
    m.sql("CREATE DATABASE IF NOT EXISTS cerrada")
    rc, out, err = _inferir(m.url("origen", "lector", clave), "--esquema", "cerrada")
    assert rc == 2 and out == "" and "cerrada" in err and clave not in err, err
    for mala in ["Pw-Falsa-1290", "p@ss:w/rd"]:
        codificada = mala.replace("@", "%40").replace(":", "%3A").replace("/", "%2F")
        rc, out, err = _inferir(m.url("origen", "lector", codificada))
        assert rc == 2 and out == "", f"a wrong password: exit {rc}"
        assert "Access denied" in err and m.socket in err and "origen" in err, err
        assert mala not in err and codificada not in err, f"the password is in stderr: {err}"
    # the client's option files: ~/.my.cnf's [client] gives user, password and socket
    casa = tmp_path / "casa"
    casa.mkdir()
    (casa / ".my.cnf").write_text(f"[client]\nuser=lector\npassword={clave}\nsocket={m.socket}\n", encoding="utf-8")
    os.chmod(casa / ".my.cnf", 0o600)
    rc, doc, err = _inferir("mariadb:///origen", env=dict(os.environ, HOME=str(casa)))
    assert rc == 0 and clave not in doc + err, err
    # an unreachable server, mysql:// too
    rc, out, err = _inferir("mysql://yo:Pw-Nadie-5531@127.0.0.1:1/app")
    assert rc == 2 and "Pw-Nadie-5531" not in out + err and "127.0.0.1" in err and "app" in err, err
    rc, out, err = _inferir("mariadb://yo:Pw-Nadie-5531@localhost")
    assert rc == 2 and "names no database" in err and "Pw-Nadie-5531" not in err, err
