"""`datoteca copiar --desde postgresql://` (docs/copia.md): the reference application (tests/referencia/
app_pg.sql: three schemas, a domain with a CHECK, an identity column, a partial unique index, a view, an
audit trigger, cycles) filled by `inferir` + `--hacia` (seed 42) in one PostgreSQL cluster, with names and
RUTs planted in complaint notes and a name and phone in a jsonb column, copied masked by the rules
`detectar` proposes (no hand edit) into a second cluster, and into a dump that psql loads into a fresh
database.

The judges are not the copy's code: PostgreSQL itself (every constraint of the source present and
validated in the target, pg_dump's view of both), python-stdnum for every masked RUT, and a leak check
written here that searches every cell of every table of the target for every original RUT (formatted,
and its body as a run of digits), email, phone (its digits) and full name."""
import csv
import io
import os
import re
import signal
import subprocess
import time

import pytest
from stdnum.cl import rut as stdnum_rut

import fugas
from test_basesdedatos import _pg_bin, _psql, servidor_pg
from test_inferir import CLI, _inferir

AQUI = os.path.dirname(os.path.abspath(__file__))
DDL_PG = os.path.join(AQUI, "..", "referencia", "app_pg.sql")
CLAVE = "6d3c0e1f8a2b4c5d9e7f00112233445566778899aabbccddeeff102132435465"
TABLAS = "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', " \
         "'information_schema') ORDER BY 1"


def _correr(*args, env=None):
    p = subprocess.run([CLI, *args], capture_output=True, env=env)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def _url(base, db):
    return f"postgresql://postgres@/{db}?host={base}"


def _sql(base, db, sql):
    return _psql(base, sql, None, "-d", db)


def _filas(base, db, tabla):
    """Every row of a table as PostgreSQL's COPY writes it in CSV (NULL as an empty cell)."""
    return list(csv.reader(io.StringIO(_sql(base, db, f"COPY {tabla} TO STDOUT (FORMAT csv)"))))


def _datos(base, db):
    """pg_dump's data-only view of a database (psql's \\restrict guard lines left out): for comparing copies."""
    out = subprocess.run([_pg_bin("pg_dump"), "-h", base, "-U", "postgres", "-d", db, "--data-only", "--no-owner"],
                         check=True, capture_output=True).stdout.decode()
    return [linea for linea in out.splitlines() if not linea.startswith(("\\restrict", "\\unrestrict"))]


@pytest.fixture(scope="module")
def origen():
    """The source cluster, with database prod filled and planted, its proposed rules and a key file."""
    with servidor_pg() as base:
        _sql(base, "postgres", "CREATE DATABASE prod")
        subprocess.run([_pg_bin("psql"), "-h", base, "-U", "postgres", "-d", "prod", "-v", "ON_ERROR_STOP=1", "-q", "-f",
                        DDL_PG], check=True, capture_output=True)
        url = _url(base, "prod")
        rc, doc, err = _inferir(url, "--filas-vacia", "300")
        assert rc == 0, err
        directorio = os.path.join(base, "trabajo")
        os.mkdir(directorio)
        with open(os.path.join(directorio, "app.toml"), "w") as f:
            f.write(doc)
        rc, _, err = _correr("esquema", os.path.join(directorio, "app.toml"), "--seed", "42", "--hacia", url)
        assert rc == 0, err
        # the peers' leaks: a client's name and RUT inside a complaint's note, one in five; a name and a phone in jsonb
        _sql(base, "prod", "UPDATE reclamos r SET detalle = 'Llamó ' || c.nombre || ', RUT ' || c.rut || ', reclama por "
                           "cobro duplicado' FROM (SELECT nombre, rut, row_number() OVER (ORDER BY id) - 1 AS i FROM clientes) c "
                           "WHERE c.i % 5 = 0 AND r.id = c.i + 1")
        _sql(base, "prod", "UPDATE clientes SET preferencias = jsonb_build_object('contacto', nombre || ' al ' || telefono, "
                           "'canal', 'telefono') WHERE telefono IS NOT NULL AND id % 5 = 1")
        # the other shapes, in a table of their own: a RUT split into body and check digit, CuentaRUT
        # numbers (two in three accounts are the holder's body), a plate, and a phone and a plate inside a note
        placas = subprocess.run([CLI, "tabla", "vehiculo.patente", "-n", "300", "--seed", "5", "--format", "csv"],
                                check=True, capture_output=True).stdout
        _sql(base, "prod", "CREATE TABLE placas (patente text)")
        _psql(base, "COPY placas FROM STDIN (FORMAT csv, HEADER)", placas, "-d", "prod")
        _sql(base, "prod", "CREATE TABLE titulares (id int PRIMARY KEY, cliente_id bigint NOT NULL REFERENCES clientes (id), "
                           "rut_numero integer NOT NULL, rut_dv char(1) NOT NULL, cuenta_rut bigint, patente text, nota text)")
        _sql(base, "prod", "INSERT INTO titulares SELECT c.id, c.id, split_part(replace(c.rut, '.', ''), '-', 1)::int, "
                           "split_part(c.rut, '-', 2), CASE WHEN c.id % 3 <> 0 THEN split_part(replace(c.rut, '.', ''), '-', 1)"
                           "::bigint ELSE 100000000 + c.id * 7919 END, p.patente, 'Llamar al ' || coalesce(c.telefono, 'sin "
                           "fono') || ', auto ' || p.patente FROM clientes c JOIN (SELECT patente, row_number() OVER () AS i "
                           "FROM placas) p ON p.i = c.id")
        _sql(base, "prod", "DROP TABLE placas")
        # a table that INHERITS (its rows are copied once, not again through its parent) and a materialized view
        # (refreshed over the masked rows, not left unpopulated)
        _sql(base, "prod", "CREATE TABLE avisos (id int PRIMARY KEY, texto text NOT NULL); CREATE TABLE avisos_urgentes "
                           "(prioridad int NOT NULL) INHERITS (avisos); INSERT INTO avisos SELECT g, 'aviso ' || g FROM "
                           "generate_series(1, 40) g; INSERT INTO avisos_urgentes SELECT g, 'urgente ' || g, g % 3 FROM "
                           "generate_series(41, 50) g; CREATE MATERIALIZED VIEW saldos_por_cliente AS SELECT cliente_id, "
                           "count(*) AS cuentas FROM cuentas GROUP BY cliente_id")
        rc, reglas, err = _correr("detectar", url)
        assert rc == 0, err
        ruta_reglas = os.path.join(directorio, "reglas.toml")
        with open(ruta_reglas, "w") as f:
            f.write(reglas)
        clave = os.path.join(directorio, "clave.hex")
        with open(clave, "w") as f:
            f.write(CLAVE)
        os.chmod(clave, 0o600)
        yield {"base": base, "url": url, "reglas": ruta_reglas, "doc": reglas, "clave": clave, "dir": directorio}


@pytest.fixture(scope="module")
def destino():
    """A second cluster, the staging server."""
    with servidor_pg() as base:
        yield base


def _copiar(origen, hacia, reglas=None, *extra):
    return _correr("copiar", "--desde", origen["url"], "--hacia", hacia, "--reglas", reglas or origen["reglas"],
                   "--clave-archivo", origen["clave"], *extra)


def _originales(base):
    """What must not survive: RUTs (formatted and bodies), emails, phones' digits, full names."""
    col = lambda sql: [r[0] for r in csv.reader(io.StringIO(_sql(base, "prod", f"COPY ({sql}) TO STDOUT (FORMAT csv)")))]
    ruts = col("SELECT rut FROM clientes UNION SELECT rut FROM empleados")
    emails = col("SELECT email FROM clientes WHERE email IS NOT NULL UNION SELECT email FROM auth.accesos")
    tels = col("SELECT telefono FROM clientes WHERE telefono IS NOT NULL UNION SELECT celular FROM empleados "
               "WHERE celular IS NOT NULL")
    nombres = col("SELECT nombre FROM clientes")
    placas = col("SELECT patente FROM titulares")
    assert len(placas) == 300
    assert len(ruts) >= 300 and len(emails) >= 300 and len(tels) >= 100 and len(nombres) >= 300
    plantados = _sql(base, "prod", "SELECT count(*) FROM reclamos WHERE detalle LIKE 'Llamó %'").strip()
    assert int(plantados) >= 50, f"{plantados} notes planted"
    return fugas.originales(ruts, emails, tels, nombres, placas)


def _fugas(base, db, originales):
    """The kinds of planted values found in any cell of any table of db (values never printed)."""
    celdas = [c for (t,) in csv.reader(io.StringIO(_sql(base, db, TABLAS))) for fila in _filas(base, db, t) for c in fila]
    return fugas.buscar(celdas, originales), len(celdas)


def _objetos(base, db):
    """The schema objects PostgreSQL holds, by kind: constraints by type (with their validation), triggers,
    indexes, views, sequences, identity and generated columns, domains."""
    return _sql(base, db, """
        SELECT 'constraint ' || n.nspname || '.' || c.conname || ' ' || c.contype::text || ' ' || c.convalidated::text
          FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
        UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
        UNION ALL SELECT 'index ' || schemaname || '.' || indexname FROM pg_indexes WHERE schemaname NOT IN ('pg_catalog')
        UNION ALL SELECT 'view ' || schemaname || '.' || viewname FROM pg_views WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
        UNION ALL SELECT 'sequence ' || schemaname || '.' || sequencename FROM pg_sequences
        UNION ALL SELECT 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || is_identity || ' ' || is_generated
          FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1""").splitlines()


def test_copiar_pg_into_another_cluster(origen, destino):
    """detectar then copiar into an empty database of a second cluster, no hand edit: every object of the
    source there and every constraint validated by PostgreSQL, the same row counts, every masked RUT valid,
    no planted value in any cell, the sequences past every copied key, and the same key giving the same rows."""
    assert 'detalle = { regla = "texto" }' in origen["doc"] and '[tablas."ventas.facturas".columnas]' in origen["doc"]
    for propuesta in ('rut_numero = { regla = "rut", dv = "rut_dv" }', 'cuenta_rut = { regla = "derivado", otros = "mantener" }',
                      'patente = { regla = "patente" }', 'nota = { regla = "texto" }'):
        assert f"\n{propuesta}  # " in origen["doc"], f"{propuesta} not proposed:\n{origen['doc']}"
    _sql(destino, "postgres", "CREATE DATABASE staging")
    rc, out, err = _copiar(origen, _url(destino, "staging"))
    assert rc == 0, err
    assert out == "" and re.fullmatch(r"datoteca copiar: 28 tables, \d+ rows masked, every constraint validated by "
                                      r"PostgreSQL\n", err), err
    base = origen["base"]
    assert _objetos(destino, "staging") == _objetos(base, "prod")
    assert _sql(destino, "staging", "SELECT count(*) FROM pg_constraint WHERE NOT convalidated").strip() == "0"
    tablas = [t for (t,) in csv.reader(io.StringIO(_sql(base, "prod", TABLAS)))]
    assert len(tablas) == 28
    for t in tablas:
        a, b = (_sql(x, db, f"SELECT count(*) FROM {t}").strip() for x, db in ((base, "prod"), (destino, "staging")))
        assert a == b, f"table {t}: {a} rows in the source, {b} in the copy"
    for t, n in (("ONLY avisos", "40"), ("avisos", "50"), ("avisos_urgentes", "10")):
        assert _sql(destino, "staging", f"SELECT count(*) FROM {t}").strip() == n, t
    assert _sql(destino, "staging", "SELECT count(*), sum(cuentas) FROM saldos_por_cliente") == \
        _sql(base, "prod", "SELECT count(*), sum(cuentas) FROM saldos_por_cliente")
    ruts = [r[0] for r in _filas(destino, "staging", "(SELECT rut FROM clientes UNION ALL SELECT rut_cliente FROM reclamos)")]
    assert len(ruts) >= 600
    malos = [i for i, r in enumerate(ruts) if not stdnum_rut.is_valid(r)]
    assert malos == [], f"masked RUTs failing module 11 at rows {malos[:5]}"
    # a CuentaRUT number is still its holder's (masked) body; the split RUT is still a valid RUT
    assert _sql(base, "prod", "SELECT count(*) FROM titulares WHERE cuenta_rut = rut_numero").strip() == \
        _sql(destino, "staging", "SELECT count(*) FROM titulares WHERE cuenta_rut = rut_numero").strip() != "0"
    partidos = _sql(destino, "staging", "SELECT rut_numero || '-' || rut_dv FROM titulares").split()
    assert len(partidos) == 300 and [r for r in partidos if not stdnum_rut.is_valid(r)] == []
    # the joins hold through the masking: each complaint's RUT is a client's masked RUT
    assert _sql(destino, "staging", "SELECT count(*) FROM reclamos WHERE rut_cliente NOT IN (SELECT rut FROM clientes)").strip() == "0"
    hallados, celdas = _fugas(destino, "staging", _originales(base))
    assert celdas > 20_000
    assert hallados == [], f"planted values found in the copy (kinds; values not printed): {hallados}"
    # the next row the application inserts gets a key past the copied ones (the source's sequence position)
    # (read without nextval, which would move it)
    assert _sql(destino, "staging", "SELECT last_value >= (SELECT max(id) FROM clientes) AND is_called FROM clientes_id_seq").strip() == "t"
    # the check can fail: the notes kept as they are give back the planted RUTs and names
    mantener = os.path.join(origen["dir"], "notas_tal_cual.toml")
    with open(mantener, "w") as f:
        f.write(origen["doc"].replace('detalle = { regla = "texto" }', 'detalle = { regla = "mantener" }')
                .replace('nota = { regla = "texto" }', 'nota = { regla = "mantener" }'))
    _sql(destino, "postgres", "CREATE DATABASE con_notas")
    rc, _, err = _copiar(origen, _url(destino, "con_notas"), mantener)
    assert rc == 0, err
    hallados, _ = _fugas(destino, "con_notas", _originales(base))
    assert {"rut", "full name", "phone", "plate"} <= set(hallados), hallados
    # the same key and rules: the same rows
    _sql(destino, "postgres", "CREATE DATABASE staging2")
    rc, _, err = _copiar(origen, _url(destino, "staging2"))
    assert rc == 0, err
    assert _datos(destino, "staging2") == _datos(destino, "staging")
    # the audit trigger did not fire for the copied rows (the counts above) and fires for the application's
    # next account (in the second copy), whose audit row takes a key past the copied ones
    maximo = int(_sql(destino, "staging2", "SELECT max(id) FROM auditoria"))
    _sql(destino, "staging2", "INSERT INTO cuentas (cliente_id, tipo, saldo, abierta) SELECT min(id), "
                             "(enum_range(NULL::tipo_cuenta))[1], 0, DATE '2026-12-01' FROM clientes")
    assert _sql(destino, "staging2", f"SELECT count(*) FROM auditoria WHERE id > {maximo} AND tabla = 'cuentas'").strip() == "1"


def test_copiar_pg_dump_loads_with_psql_into_a_fresh_cluster(origen, destino):
    """--hacia FILE.sql: a plain dump, written without a target server, that psql -v ON_ERROR_STOP=1 loads into
    an empty database of the other cluster, equal row for row to the direct copy, every constraint validated;
    no temporary file is left, and an existing dump is never written over."""
    if "staging" not in _sql(destino, "postgres", "SELECT datname FROM pg_database"):
        _sql(destino, "postgres", "CREATE DATABASE staging")
        assert _copiar(origen, _url(destino, "staging"))[0] == 0
    volcado = os.path.join(origen["dir"], "staging.sql")
    antes = sorted(os.listdir(origen["dir"]))
    rc, out, err = _copiar(origen, volcado)
    assert rc == 0, err
    assert re.fullmatch(r"datoteca copiar: 28 tables, \d+ rows masked; written as an SQL dump for psql\n", err), err
    assert sorted(os.listdir(origen["dir"])) == sorted(antes + ["staging.sql"])
    _sql(destino, "postgres", "CREATE DATABASE desde_volcado")
    subprocess.run([_pg_bin("psql"), "-h", destino, "-U", "postgres", "-d", "desde_volcado", "-v", "ON_ERROR_STOP=1", "-q",
                    "--single-transaction", "-f", volcado], check=True, capture_output=True)
    assert _datos(destino, "desde_volcado") == _datos(destino, "staging")
    assert _objetos(destino, "desde_volcado") == _objetos(origen["base"], "prod")
    hallados, _ = _fugas(destino, "desde_volcado", _originales(origen["base"]))
    assert hallados == [], hallados
    texto = open(volcado, encoding="utf-8").read()
    assert not any(r in texto for r in _originales(origen["base"])[0]), "an original RUT is in the dump"
    # never over an existing file
    rc, _, err = _copiar(origen, volcado)
    assert rc == 2 and "exists" in err, err


def test_copiar_pg_refusals_write_nothing(origen, destino):
    """A table without rules, a column added after the rules were written, a foreign key whose column has
    another rule than its parent's, a non-empty target: each refused with a sentence naming table and column
    (never a value), and the target left as it was (one transaction); a URL's password never printed."""
    _sql(destino, "postgres", "CREATE DATABASE rechazos")
    hacia = _url(destino, "rechazos")
    vacia = lambda: _sql(destino, "rechazos", "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                               "WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname "
                                               "NOT LIKE 'pg_%'").strip() == "0"
    doc = origen["doc"]
    reglas = os.path.join(origen["dir"], "otras.toml")
    # a table left out of the document
    inicio = doc.index("[tablas.etiquetas.columnas]")
    fin = doc.index("\n[", inicio + 1)
    with open(reglas, "w") as f:
        f.write(doc[:inicio] + doc[fin + 1:])
    rc, _, err = _copiar(origen, hacia, reglas)
    assert rc == 2 and "etiquetas" in err and "nothing was written" in err, err
    assert vacia()
    # a column the source gained after the rules were written (privacy by default)
    _sql(origen["base"], "prod", "ALTER TABLE clientes ADD COLUMN rut_apoderado text")
    try:
        rc, _, err = _copiar(origen, hacia)
        assert rc == 2 and "rut_apoderado" in err and "clientes" in err, err
        assert vacia()
    finally:
        _sql(origen["base"], "prod", "ALTER TABLE clientes DROP COLUMN rut_apoderado")
    # the complaints' RUT masked by another rule than the clients': PostgreSQL's foreign key refuses, all undone
    with open(reglas, "w") as f:
        f.write(doc.replace('rut_cliente = { regla = "rut" }', 'rut_cliente = { regla = "sustituir", llamada = "rut" }'))
    assert 'rut_cliente = { regla = "rut" }' in doc
    rc, _, err = _copiar(origen, hacia, reglas)
    assert rc == 2 and "foreign key" in err and "reclamos" in err and "23503" in err, err
    ruts = {r[0] for r in _filas(origen["base"], "prod", "(SELECT rut FROM clientes)")}
    assert not any(r in err for r in ruts), "a RUT was printed"
    assert vacia()
    # a target that holds tables already
    _sql(destino, "rechazos", "CREATE TABLE ya_estaba (id int)")
    rc, _, err = _copiar(origen, hacia)
    assert rc == 2 and "empty database" in err, err
    assert _sql(destino, "rechazos", "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").strip() == "1"
    # a password in a URL is never printed, whichever side
    rc, out, err = _correr("copiar", "--desde", "postgresql://ana:secreto-5521@127.0.0.1:1/prod?connect_timeout=3",
                           "--hacia", hacia, "--reglas", origen["reglas"], "--clave-archivo", origen["clave"])
    assert rc == 2 and "secreto-5521" not in out + err and "127.0.0.1" in err, err
    # pg_dump missing: said, naming what to install, before anything is written
    rc, _, err = _correr("copiar", "--desde", origen["url"], "--hacia", _url(destino, "postgres"), "--reglas", origen["reglas"],
                         "--clave-archivo", origen["clave"], env={**os.environ, "DATOTECA_PG_DUMP": "/nonexistent/pg_dump"})
    assert rc == 2 and "DATOTECA_PG_DUMP" in err and "nothing was written" in err, err


def _cuenta(base, db, sql):
    return int(_sql(base, db, sql))


def test_copiar_pg_subsets_keep_every_reference(origen, destino):
    """--subconjunto in PostgreSQL, judged by PostgreSQL's own constraints (added after the rows, each
    validated) and by counts read here: 10 % of the clientes within bounds, with --con-hijos exactly the
    source's cuentas of the kept clientes (their ids are kept as they are); roots in the peers' failing
    shapes at once (Greenmask #197 several cycles in one component: proyectos/equipos/empleados and
    sucursales/ejecutivos; #279 a self-reference and a foreign key to a UNIQUE column that is not the key:
    empleados.jefe_id, reclamos.rut_cliente; #403 and pg_sample #66 a composite foreign key: devoluciones to
    lineas_pedido); the same seed the same rows and another seed others."""
    base = origen["base"]
    for db in ("sub1", "sub2", "sub3", "sub4"):
        _sql(destino, "postgres", f"CREATE DATABASE {db}")
    rc, _, err = _copiar(origen, _url(destino, "sub1"), None, "--subconjunto", "clientes=10%", "--semilla", "7", "--con-hijos")
    assert rc == 0, err
    assert re.fullmatch(r"datoteca copiar: 28 tables, \d+ rows masked \(a subset\), every constraint validated by PostgreSQL\n", err), err
    kept = _cuenta(destino, "sub1", "SELECT count(*) FROM clientes")
    assert 15 <= kept <= 45, f"{kept} clientes kept of 300 for 10 %"
    ids = _sql(destino, "sub1", "SELECT string_agg(id::text, ',') FROM clientes").strip()
    assert _cuenta(destino, "sub1", "SELECT count(*) FROM cuentas") == \
        _cuenta(base, "prod", f"SELECT count(*) FROM cuentas WHERE cliente_id IN ({ids})")
    assert _cuenta(destino, "sub1", "SELECT count(*) FROM cuentas") > 0
    assert _sql(destino, "sub1", "SELECT count(*) FROM pg_constraint WHERE NOT convalidated").strip() == "0"
    hallados, _ = _fugas(destino, "sub1", _originales(base))
    assert hallados == [], hallados
    # the same seed: the same rows; another: others
    rc, _, err = _copiar(origen, _url(destino, "sub2"), None, "--subconjunto", "clientes=10%", "--semilla", "7", "--con-hijos")
    assert rc == 0, err
    assert _datos(destino, "sub2") == _datos(destino, "sub1")
    rc, _, err = _copiar(origen, _url(destino, "sub3"), None, "--subconjunto", "clientes=10%", "--semilla", "8", "--con-hijos")
    assert rc == 0, err
    assert _sql(destino, "sub3", "SELECT string_agg(id::text, ',' ORDER BY id) FROM clientes") != \
        _sql(destino, "sub1", "SELECT string_agg(id::text, ',' ORDER BY id) FROM clientes")
    # the peers' bugs, as roots: every kept row's parents there, or PostgreSQL refuses the copy
    raices = "empleados=20%,sucursales=50%,devoluciones=30%,reclamos=10%,proyectos=40%"
    rc, _, err = _copiar(origen, _url(destino, "sub4"), None, "--subconjunto", raices)
    assert rc == 0, err
    for t, minimo in (("empleados", 1), ("devoluciones", 1), ("reclamos", 1), ("lineas_pedido", 1), ("equipos", 1)):
        n = _cuenta(destino, "sub4", f"SELECT count(*) FROM {t}")
        assert n >= minimo, f"table {t}: {n} rows kept"
    # every kept complaint's client (by the masked RUT, the UNIQUE column the key points at) is there
    assert _cuenta(destino, "sub4", "SELECT count(*) FROM reclamos r LEFT JOIN clientes c ON c.rut = r.rut_cliente "
                                    "WHERE c.id IS NULL") == 0
    # a root chosen by a condition (the source's own SQL): exactly those clientes, and with --con-hijos their cuentas
    _sql(destino, "postgres", "CREATE DATABASE sub5")
    rc, _, err = _copiar(origen, _url(destino, "sub5"), None, "--donde", "clientes=id <= 20", "--con-hijos")
    assert rc == 0 and "(a subset)" in err, err
    assert _sql(destino, "sub5", "SELECT string_agg(id::text, ',' ORDER BY id) FROM clientes").strip() == ",".join(map(str, range(1, 21)))
    assert _cuenta(destino, "sub5", "SELECT count(*) FROM cuentas") == _cuenta(base, "prod", "SELECT count(*) FROM cuentas WHERE cliente_id <= 20")
    rc, _, err = _copiar(origen, _url(destino, "sub5"), None, "--donde", "clientes=no_hay > 1")
    assert rc == 2 and 'column "no_hay" does not exist' in err, err
    rc, _, err = _copiar(origen, _url(destino, "sub5"), None, "--donde", "clientas=true")
    assert rc == 2 and "--donde names a table the source does not have: clientas" in err, err
    # a table the source does not have, and a malformed share: refused before anything is written
    rc, _, err = _copiar(origen, _url(destino, "sub4"), None, "--subconjunto", "clientas=10%")
    assert rc == 2 and "clientas" in err, err
    rc, _, err = _copiar(origen, _url(destino, "sub4"), None, "--subconjunto", "clientes=0%")
    assert rc == 2 and "TABLE=N%" in err, err


def test_copiar_pg_awkward_values_round_trip(origen, destino):
    """Tabs, line breaks, backslashes, a text that reads \\N, an empty text next to a NULL and bytea, kept by
    `mantener`, arrive byte for byte through COPY's text format both ways (the direct copy and the dump)."""
    base = origen["base"]
    _sql(base, "postgres", "CREATE DATABASE raro")
    _sql(base, "raro", "CREATE TABLE t (id int PRIMARY KEY, nota text, datos bytea); INSERT INTO t VALUES "
                       "(1, E'a\\tb\\nc\\\\d\\re', '\\x00ff5c0a'), (2, '\\N', NULL), (3, '', ''), (4, NULL, '\\x')")
    reglas = os.path.join(origen["dir"], "raro.toml")
    with open(reglas, "w") as f:
        f.write('version = 1\n[tablas.t.columnas]\nid = { regla = "mantener" }\nnota = { regla = "mantener" }\n'
                'datos = { regla = "mantener" }\n')
    _sql(destino, "postgres", "CREATE DATABASE raro_copia")
    _sql(destino, "postgres", "CREATE DATABASE raro_volcado")
    rc, _, err = _correr("copiar", "--desde", _url(base, "raro"), "--hacia", _url(destino, "raro_copia"), "--reglas", reglas,
                         "--clave-archivo", origen["clave"])
    assert rc == 0, err
    volcado = os.path.join(origen["dir"], "raro.sql")
    rc, _, err = _correr("copiar", "--desde", _url(base, "raro"), "--hacia", volcado, "--reglas", reglas,
                         "--clave-archivo", origen["clave"])
    assert rc == 0, err
    subprocess.run([_pg_bin("psql"), "-h", destino, "-U", "postgres", "-d", "raro_volcado", "-v", "ON_ERROR_STOP=1", "-q",
                    "-f", volcado], check=True, capture_output=True)
    q = "SELECT id, encode(convert_to(nota, 'UTF8'), 'hex'), nota IS NULL, encode(datos, 'hex'), datos IS NULL FROM t ORDER BY id"
    esperado = _sql(base, "raro", q)
    assert "|5c4e|f|" in esperado and "|610962" in esperado, esperado
    assert _sql(destino, "raro_copia", q) == esperado
    assert _sql(destino, "raro_volcado", q) == esperado


def test_copiar_pg_jobs_give_the_same_bytes(origen, destino):
    """--jobs 3 masks blocks of rows on three threads: 200,000 personas (49 blocks) give the same dump, byte for
    byte but pg_dump's random \\restrict key, and the same target rows as one job; --progreso draws numbers only; a
    copy stopped while it writes leaves no file."""
    base = origen["base"]
    _sql(base, "postgres", "CREATE DATABASE grande")
    _sql(base, "grande", "CREATE TABLE personas (rut text PRIMARY KEY, nombre_completo text NOT NULL, email text UNIQUE, "
                         "telefono text, fecha_nacimiento date)")
    csv_ = subprocess.run([CLI, "tabla", "persona", "--seed", "3", "-n", "200000", "--unico", "rut,email", "--format", "csv",
                           "--campos", "rut,nombre_completo,email,telefono,fecha_nacimiento"],
                          check=True, capture_output=True).stdout
    _psql(base, "COPY personas FROM STDIN (FORMAT csv, HEADER)", csv_, "-d", "grande")
    rc, doc, err = _correr("detectar", _url(base, "grande"))
    assert rc == 0, err
    reglas = os.path.join(origen["dir"], "grande.toml")
    with open(reglas, "w") as f:
        f.write(doc)
    copias = []
    for jobs in ("1", "3"):
        volcado = os.path.join(origen["dir"], f"grande-{jobs}.sql")
        rc, _, err = _correr("copiar", "--desde", _url(base, "grande"), "--hacia", volcado, "--reglas", reglas,
                             "--clave-archivo", origen["clave"], "--jobs", jobs)
        assert rc == 0, err
        with open(volcado, encoding="utf-8") as f:
            copias.append([l for l in f if not l.startswith(("\\restrict", "\\unrestrict"))])
        _sql(destino, "postgres", f"CREATE DATABASE grande_{jobs}")
        rc, _, err = _correr("copiar", "--desde", _url(base, "grande"), "--hacia", _url(destino, f"grande_{jobs}"), "--reglas",
                             reglas, "--clave-archivo", origen["clave"], "--jobs", jobs, "--progreso",
                             env={**os.environ, "DATOTECA_PROGRESO_MS": "0"})
        assert rc == 0, err
        lineas = err.strip().splitlines()
        assert lineas[-1] == "datoteca copiar: 1 table, 200000 rows masked, every constraint validated by PostgreSQL", err
        assert any(re.match(r"datoteca copiar: table 1 of 1, 200,000 rows", l) for l in lineas), err
        assert not re.search(r"\d{1,2}\.\d{3}\.\d{3}-[\dK]|@", err), "a value in the progress"
    assert len(copias[0]) > 200_000 and copias[0] == copias[1]
    assert _datos(destino, "grande_3") == _datos(destino, "grande_1")
    # a masked RUT in every row, valid and distinct (the permutation), and not the source's column as it was
    fuente = _sql(base, "grande", "SELECT rut FROM personas ORDER BY rut").split()
    copia = _sql(destino, "grande_3", "SELECT rut FROM personas ORDER BY rut").split()
    assert len(set(copia)) == 200_000 and copia != fuente
    assert [r for r in copia if not stdnum_rut.is_valid(r)] == []
    rc, _, err = _correr("copiar", "--desde", _url(base, "grande"), "--hacia", _url(destino, "grande_1"), "--reglas", reglas,
                         "--clave-archivo", origen["clave"], "--jobs", "0")
    assert rc == 2 and "--jobs must be an integer from 1 to 64" in err, err
    # a copy stopped (SIGTERM) while it writes its dump leaves no file, neither the dump nor its temporary one
    parado = os.path.join(origen["dir"], "parado")
    os.mkdir(parado)
    p = subprocess.Popen([CLI, "copiar", "--desde", _url(base, "grande"), "--hacia", os.path.join(parado, "copia.sql"),
                          "--reglas", reglas, "--clave-archivo", origen["clave"]], stderr=subprocess.PIPE)
    for _ in range(2000):
        if os.listdir(parado) or p.poll() is not None:
            break
        time.sleep(0.005)
    assert os.listdir(parado) and p.poll() is None, f"the copy ended before it could be stopped: {p.stderr.read()}"
    p.terminate()
    assert p.wait(timeout=30) == -signal.SIGTERM
    assert os.listdir(parado) == [], os.listdir(parado)


def test_copiar_pg_gives_pg_dump_no_key_and_no_password_in_argv(origen, destino, tmp_path):
    """pg_dump (here a wrapper that records what it was given, then runs the real one) gets the connection as libpq's
    environment: the URL's password as PGPASSWORD, never in its arguments; and the masking key, given in
    DATOTECA_CLAVE, is out of the environment before pg_dump starts."""
    registro = tmp_path / "pg_dump.txt"
    envoltura = tmp_path / "pg_dump"
    envoltura.write_text(f"#!/bin/sh\n{{ printf 'ARGS'; printf ' %s' \"$@\"; echo; env; }} >> {registro}\n"
                         f"exec {_pg_bin('pg_dump')} \"$@\"\n")
    os.chmod(envoltura, 0o755)
    _sql(destino, "postgres", "CREATE DATABASE por_entorno")
    url = f"postgresql://postgres:secreto-8841@/prod?host={origen['base']}"  # trust: the server ignores it
    env = {**os.environ, "DATOTECA_PG_DUMP": str(envoltura), "DATOTECA_CLAVE": CLAVE}
    p = subprocess.run([CLI, "copiar", "--desde", url, "--hacia", _url(destino, "por_entorno"), "--reglas", origen["reglas"]],
                       capture_output=True, env=env)
    assert p.returncode == 0, p.stderr.decode()
    visto = registro.read_text()
    args = [l for l in visto.splitlines() if l.startswith("ARGS")]
    assert len(args) == 2 and all("--schema-only" in a for a in args), args
    assert "secreto-8841" not in "\n".join(args) and "PGPASSWORD=secreto-8841" in visto
    assert CLAVE not in visto and "DATOTECA_CLAVE" not in visto
    assert "secreto-8841" not in p.stderr.decode() + p.stdout.decode()
