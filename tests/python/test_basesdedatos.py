"""Datasets loaded into real databases, as a user would: a PostgreSQL server started here from
Debian's packages (initdb in a temporary directory, a Unix socket only, no TCP port) and SQLite
through Python's sqlite3. The CLI writes the DDL and the CSV; the database enforces the keys."""
import csv
import contextlib
import glob
import io
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time

import pytest

from conftest import ROOT
from datoteca import Tabla

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
N = 1_000_000
OPCIONES = ["--seed", "20261130", "--unico", "rut,email"]


def _cli(*args):
    return subprocess.run([CLI, "tabla", "persona", *OPCIONES, *args], check=True, capture_output=True).stdout


def _pg_bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


@pytest.fixture(scope="module")
def postgres():
    with servidor_pg() as base:
        yield base


@contextlib.contextmanager
def servidor_pg():
    """A PostgreSQL server of its own (initdb in a temporary directory, a Unix socket there, no TCP port):
    the directory, which is the socket's host; stopped and removed on leaving. Two can run at once."""
    if _pg_bin("initdb") is None:
        subprocess.run([os.path.join(ROOT, "tools", "need_postgres.sh")], check=True)
    initdb, postgres_bin = _pg_bin("initdb"), _pg_bin("postgres")
    assert initdb and postgres_bin, "PostgreSQL's server is not installed and tools/need_postgres.sh could not install it"
    base = tempfile.mkdtemp(prefix="datoteca-pg-")
    os.chmod(base, 0o755)
    datos = os.path.join(base, "datos")
    # The server refuses to run as root: as root, run it as Debian's postgres user.
    como = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if como:
        shutil.chown(base, "postgres")
    subprocess.run([*como, initdb, "-D", datos, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"],
                   check=True, capture_output=True)
    log = open(os.path.join(base, "log"), "wb")
    server = subprocess.Popen([*como, postgres_bin, "-D", datos, "-k", base, "-c", "listen_addresses="],
                              stdout=log, stderr=subprocess.STDOUT)
    pid_file = os.path.join(datos, "postmaster.pid")
    for _ in range(300):
        if os.path.exists(os.path.join(base, ".s.PGSQL.5432")):
            break
        assert server.poll() is None, f"postgres exited: {open(os.path.join(base, 'log')).read()}"
        time.sleep(0.1)
    # The socket exists before the server accepts connections ("the database system is starting up").
    for _ in range(300):
        if subprocess.run([_pg_bin("pg_isready"), "-q", "-h", base, "-U", "postgres"]).returncode == 0:
            break
        assert server.poll() is None, f"postgres exited: {open(os.path.join(base, 'log')).read()}"
        time.sleep(0.1)
    pid = int(open(pid_file).readline())
    try:
        yield base
    finally:
        os.kill(pid, signal.SIGTERM)  # smart shutdown, by the server's own pid
        server.wait(timeout=60)
        log.close()
        shutil.rmtree(base)
        time.sleep(0.2)
        assert not os.path.exists(f"/proc/{pid}"), f"postgres pid {pid} still running"
        assert not os.path.exists(base), f"{base} left behind"


def _psql(base, sql=None, stdin=None, *extra):
    psql = _pg_bin("psql")
    args = [psql, "-h", base, "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-At", *extra]
    if sql is not None:
        args += ["-c", sql]
    out = subprocess.run(args, input=stdin, check=True, capture_output=True)
    return out.stdout.decode()


def _muestra(k=100):
    rng = random.Random(7)
    return sorted(rng.sample(range(N), k))


def _fila_cli(i):
    text = _cli("--desde", str(i), "-n", "1", "--format", "csv").decode()
    return next(csv.DictReader(io.StringIO(text)))


def test_postgresql_loads_a_million_unique_personas(postgres):
    ddl = _cli("--format", "ddl", "--nombre", "personas").decode()
    assert "rut text NOT NULL PRIMARY KEY" in ddl and "email text UNIQUE" in ddl, ddl
    _psql(postgres, ddl)
    data = _cli("-n", str(N), "--format", "csv", "--jobs", "2")
    _psql(postgres, "COPY personas FROM STDIN (FORMAT csv, HEADER)", data)
    count, ruts, emails = _psql(postgres, "SELECT count(*), count(DISTINCT rut), count(DISTINCT email) FROM personas").strip().split("|")
    assert int(count) == N, f"{count} rows loaded of {N}"
    assert int(ruts) == N and int(emails) == N, f"distinct rut {ruts}, email {emails} of {N}"
    tipos = _psql(postgres, "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'personas'")
    assert "fecha_nacimiento|date" in tipos and "sexo|character" in tipos, tipos
    cols = [c for c in ddl.split("\n")[1:-2]]
    nombres = [c.split()[0] for c in cols]
    for i in _muestra():
        esperado = _fila_cli(i)
        fila = _psql(postgres, f"SELECT {', '.join(nombres)} FROM personas WHERE rut = '{esperado['rut']}'").rstrip("\n")
        assert fila.split("|") == [esperado[n] for n in nombres], f"row {i}: database {fila!r}, CLI {esperado}"


def test_sqlite_loads_a_million_unique_personas(tmp_path):
    t = Tabla("persona.persona", seed=20261130, unico=["rut", "email"])
    db = sqlite3.connect(tmp_path / "personas.db")
    db.execute(t.ddl("sqlite", "personas"))
    nombres = [c["nombre"] for c in t.columnas]
    data = _cli("-n", str(N), "--format", "csv", "--jobs", "2").decode()
    lector = csv.reader(io.StringIO(data))
    assert next(lector) == nombres
    db.executemany(f"INSERT INTO personas VALUES ({', '.join('?' * len(nombres))})", lector)
    db.commit()
    assert db.execute("SELECT count(*), count(DISTINCT rut), count(DISTINCT email) FROM personas").fetchone() == (N, N, N)
    info = {r[1]: (r[2], r[3], r[5]) for r in db.execute("PRAGMA table_info(personas)")}
    assert info["rut"] == ("TEXT", 1, 1) and info["fecha_nacimiento"] == ("TEXT", 1, 0), info
    with pytest.raises(sqlite3.IntegrityError):  # the key holds
        db.execute("INSERT INTO personas SELECT * FROM personas LIMIT 1")
    for i in _muestra():
        esperado = t.filas(1, desde=i)[0]
        fila = db.execute(f"SELECT {', '.join(nombres)} FROM personas WHERE rut = ?", (esperado["rut"],)).fetchone()
        assert list(fila) == [esperado[n] for n in nombres], f"row {i}: database {fila}, Python {esperado}"
    db.close()
