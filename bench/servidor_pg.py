"""A throwaway PostgreSQL server for the benches (bench/postgres_bench.py, bench/hacia_bench.py): Debian's
initdb and postgres in a temporary directory, a Unix socket only, as Debian's postgres user when run as
root (the server refuses root), checkpoints held off so none lands inside a timed run, stopped and
removed by stop()."""
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def pg_bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


class Servidor:
    def __init__(self, prefijo, *ajustes):
        """prefijo names its temporary directory; ajustes are more `-c name=value` settings."""
        self.base = tempfile.mkdtemp(prefix=prefijo)
        os.chmod(self.base, 0o755)
        self.como = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.como:
            shutil.chown(self.base, "postgres")
        datos = os.path.join(self.base, "datos")
        subprocess.run([*self.como, pg_bin("initdb"), "-D", datos, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                        "--locale=C"], check=True, capture_output=True)
        self.log = open(os.path.join(self.base, "log"), "wb")
        # Checkpoints spread over the run would land in whichever path runs when they come.
        opciones = ["-c", "listen_addresses=", "-c", "max_wal_size=8GB", "-c", "checkpoint_timeout=1h"]
        for a in ajustes:
            opciones += ["-c", a]
        self.proc = subprocess.Popen([*self.como, pg_bin("postgres"), "-D", datos, "-k", self.base, *opciones],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(300):
            if os.path.exists(os.path.join(self.base, ".s.PGSQL.5432")):
                break
            time.sleep(0.1)
        self.psql_cmd = [pg_bin("psql"), "-h", self.base, "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                         "-q", "-At"]
        self.url = f"postgresql://postgres@/postgres?host={self.base}"

    def correr_psql(self, sql, stdin=None, ok=True):
        """psql -c sql; its CompletedProcess. A failure ends the bench unless ok is False."""
        r = subprocess.run([*self.psql_cmd, "-c", sql], input=stdin, capture_output=True)
        if ok and r.returncode != 0:
            sys.exit(f"psql failed on {sql[:200]!r}: {r.stderr.decode()}")
        return r

    def stop(self):
        # By the postmaster's own pid: as root the child of Popen is runuser, which may exit first.
        pid = int(open(os.path.join(self.base, "datos", "postmaster.pid")).readline())
        os.kill(pid, signal.SIGINT)  # fast shutdown: a failed run may leave a session behind
        self.proc.wait(timeout=120)
        for _ in range(600):
            if not os.path.exists(f"/proc/{pid}"):
                break
            time.sleep(0.1)
        self.log.close()
        shutil.rmtree(self.base)
