"""A throwaway MariaDB server for the tests that write into or read from MariaDB: Debian's mariadbd
(installed by tools/need_mariadb.sh when missing), its data directory made by mariadb-install-db in a
temporary directory, listening on a unix socket there and nowhere else, stopped and removed after the
module. The server refuses to run as root: as root, it runs as Debian's mysql user. `root` connects
through the socket without a password (the tests' own server; no network)."""
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from conftest import ROOT


def _bin(nombre):
    for d in ("/usr/sbin", "/usr/bin"):
        if os.path.exists(os.path.join(d, nombre)):
            return os.path.join(d, nombre)
    return shutil.which(nombre)


class MariaDB:
    def __init__(self, base):
        self.base = base
        self.socket = os.path.join(base, "sock")

    def url(self, db, usuario="root", clave=None):
        cred = usuario + (f":{clave}" if clave else "")
        return f"mariadb://{cred}@/{db}?socket={self.socket}"

    def sql(self, texto, db=None, usuario="root"):
        """Runs statements with the mariadb client (an outside tool); its tab-separated rows (--raw: a null is NULL)."""
        args = [_bin("mariadb"), "--no-defaults", "-S", self.socket, "-u", usuario, "-N", "-B", "--raw"]
        if db:
            args.append(db)
        p = subprocess.run(args, input=texto.encode(), capture_output=True)
        assert p.returncode == 0, f"mariadb: {p.stderr.decode()}\n{texto[:400]}"
        return p.stdout.decode()


@pytest.fixture(scope="module")
def mariadb():
    if _bin("mariadbd") is None:
        subprocess.run([os.path.join(ROOT, "tools", "need_mariadb.sh")], check=True)
    servidor, instalar = _bin("mariadbd"), _bin("mariadb-install-db")
    assert servidor and instalar, "MariaDB's server is not installed and tools/need_mariadb.sh could not install it"
    base = tempfile.mkdtemp(prefix="datoteca-mariadb-")
    os.chmod(base, 0o755)
    como = ["runuser", "-u", "mysql", "--"] if os.geteuid() == 0 else []
    if como:
        shutil.chown(base, "mysql")
    datos = os.path.join(base, "datos")
    subprocess.run([*como, instalar, "--no-defaults", f"--datadir={datos}", "--auth-root-authentication-method=normal",
                    "--skip-test-db"], check=True, capture_output=True)
    log = os.path.join(base, "log")
    proc = subprocess.Popen([*como, servidor, "--no-defaults", f"--datadir={datos}", f"--socket={base}/sock",
                             "--skip-networking", f"--pid-file={base}/pid", f"--log-error={log}",
                             # Debian's own server settings (50-server.cnf): utf8mb4, its default case- and
                             # accent-insensitive collation, under which UNIQUE compares as applications see it
                             "--innodb-buffer-pool-size=64M", "--character-set-server=utf8mb4",
                             "--collation-server=utf8mb4_general_ci"])
    m = MariaDB(base)
    for _ in range(300):
        if os.path.exists(m.socket) and subprocess.run([_bin("mariadb"), "--no-defaults", "-S", m.socket, "-u", "root",
                                                        "-e", "SELECT 1"], capture_output=True).returncode == 0:
            break
        assert proc.poll() is None, f"mariadbd exited: {open(log).read() if os.path.exists(log) else ''}"
        time.sleep(0.1)
    try:
        yield m
    finally:
        os.kill(proc.pid if not como else int(open(os.path.join(base, "pid")).read()), signal.SIGTERM)
        proc.wait(timeout=60)
        shutil.rmtree(base)
        assert not os.path.exists(base), f"{base} left behind"
