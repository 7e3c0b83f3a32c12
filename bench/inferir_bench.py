"""`datoteca inferir` on a generated PostgreSQL or MariaDB database of many tables (issue #40, item 1: "a
500-table database is read in seconds"). Starts a throwaway server (PostgreSQL with trust auth, or
MariaDB with root on its socket; a unix socket in a temp directory), creates TABLAS tables chained by
foreign keys, each with a serial (AUTO_INCREMENT) key, a UNIQUE RUT, a name, an email, an amount with a
CHECK range, a date, a CHECK IN-list and FILAS planted rows, then times `datoteca inferir` reading it
(catalog, counts, 200-row samples, the detector, the document built by the library) REPETICIONES times
and prints the best and the median.

    python3 bench/inferir_bench.py [--mariadb] [TABLAS] [FILAS]        (defaults 500 and 200)

DATOTECA_CLI names the program (default build-c/datoteca). Run as root, the server runs as the
postgres (mysql) user, as tests/python/test_basesdedatos.py (servidor_mariadb.py) does."""
import glob
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
REPETICIONES = 5


def pg_bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def dv(cuerpo):
    s, m = 0, 2
    for d in reversed(str(cuerpo)):
        s, m = s + int(d) * m, 2 if m == 7 else m + 1
    r = 11 - s % 11
    return "0" if r == 11 else "K" if r == 10 else str(r)


def ddl_y_datos(tablas, filas):
    out = []
    for t in range(tablas):
        ref = f",\n padre_id integer NOT NULL REFERENCES t{t - 1:03d} (id)" if t % 2 else ""
        out.append(f"CREATE TABLE t{t:03d} (\n id serial PRIMARY KEY,\n rut varchar(12) NOT NULL UNIQUE,\n"
                   f" nombre text NOT NULL,\n email text,\n monto bigint NOT NULL CHECK (monto BETWEEN 1 AND 9000000),\n"
                   f" fecha date NOT NULL,\n estado text NOT NULL CHECK (estado IN ('activo', 'inactivo', 'moroso')){ref}\n);")
        cols = "id, rut, nombre, email, monto, fecha, estado" + (", padre_id" if t % 2 else "")
        out.append(f"COPY t{t:03d} ({cols}) FROM STDIN;")
        for i in range(1, filas + 1):
            c = 5_000_000 + t * 10_007 + i * 17
            r = f"{c:,}".replace(",", ".") + "-" + dv(c)
            fila = [str(i), r, f"Persona {i} Apellido{t}", f"p{i}.t{t}@gmail.com", str(1000 + i * 3),
                    f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}", ["activo", "inactivo", "moroso"][i % 3]]
            if t % 2:
                fila.append(str(1 + i % filas))
            out.append("\t".join(fila))
        out.append("\\.")
    return "\n".join(out) + "\n"


def ddl_y_datos_mariadb(tablas, filas):
    """The same tables and rows as ddl_y_datos, as MariaDB spells them (multi-row INSERTs)."""
    out = ["SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES');"]
    for t in range(tablas):
        ref = f",\n padre_id int NOT NULL,\n FOREIGN KEY (padre_id) REFERENCES t{t - 1:03d} (id)" if t % 2 else ""
        out.append(f"CREATE TABLE t{t:03d} (\n id int AUTO_INCREMENT PRIMARY KEY,\n rut varchar(12) NOT NULL UNIQUE,\n"
                   f" nombre varchar(120) NOT NULL,\n email varchar(120),\n monto bigint NOT NULL CHECK (monto BETWEEN 1 AND 9000000),\n"
                   f" fecha date NOT NULL,\n estado varchar(10) NOT NULL CHECK (estado IN ('activo', 'inactivo', 'moroso')){ref}\n"
                   f") ENGINE=InnoDB;")
        cols = "id, rut, nombre, email, monto, fecha, estado" + (", padre_id" if t % 2 else "")
        valores = []
        for i in range(1, filas + 1):
            c = 5_000_000 + t * 10_007 + i * 17
            r = f"{c:,}".replace(",", ".") + "-" + dv(c)
            fila = [str(i), f"'{r}'", f"'Persona {i} Apellido{t}'", f"'p{i}.t{t}@gmail.com'", str(1000 + i * 3),
                    f"'2025-{1 + i % 12:02d}-{1 + i % 28:02d}'", "'" + ["activo", "inactivo", "moroso"][i % 3] + "'"]
            if t % 2:
                fila.append(str(1 + i % filas))
            valores.append("(" + ", ".join(fila) + ")")
        out.append(f"INSERT INTO t{t:03d} ({cols}) VALUES\n" + ",\n".join(valores) + ";")
    out.append("ANALYZE TABLE " + ", ".join(f"t{t:03d}" for t in range(tablas)) + ";")
    return "\n".join(out) + "\n"


def medir(url, tablas):
    tiempos = []
    for _ in range(REPETICIONES):
        t0 = time.perf_counter()
        p = subprocess.run([CLI, "inferir", url], capture_output=True)
        tiempos.append(time.perf_counter() - t0)
        assert p.returncode == 0, p.stderr.decode()
    doc = p.stdout.decode()
    print(f"datoteca inferir: {tablas} tables, {doc.count(chr(10))} lines of document; "
          f"best {min(tiempos):.2f} s, median {statistics.median(tiempos):.2f} s of {REPETICIONES}")
    t0 = time.perf_counter()
    subprocess.run([CLI, "inferir", url, "--muestra", "0"], capture_output=True, check=True)
    print(f"--muestra 0 (catalog and counts only): {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    subprocess.run([CLI, "inferir", url, "--muestra", "0", "--sin-abanico"], capture_output=True, check=True)
    print(f"--muestra 0 --sin-abanico (no GROUP BY per foreign key): {time.perf_counter() - t0:.2f} s")


def mdb_bin(name):
    for d in ("/usr/sbin", "/usr/bin"):
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    return shutil.which(name)


def main_mariadb(tablas, filas):
    base = tempfile.mkdtemp(prefix="datoteca-inferir-bench-")
    os.chmod(base, 0o755)
    como = ["runuser", "-u", "mysql", "--"] if os.geteuid() == 0 else []
    if como:
        shutil.chown(base, "mysql")
    datos, sock = os.path.join(base, "datos"), os.path.join(base, "sock")
    subprocess.run([*como, mdb_bin("mariadb-install-db"), "--no-defaults", f"--datadir={datos}",
                    "--auth-root-authentication-method=normal", "--skip-test-db"], check=True, capture_output=True)
    server = subprocess.Popen([*como, mdb_bin("mariadbd"), "--no-defaults", f"--datadir={datos}", f"--socket={sock}",
                               "--skip-networking", f"--pid-file={base}/pid", f"--log-error={base}/log",
                               "--innodb-buffer-pool-size=128M", "--innodb-flush-log-at-trx-commit=0",
                               "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci"])
    cliente = [mdb_bin("mariadb"), "--no-defaults", "-S", sock, "-u", "root"]
    try:
        for _ in range(300):
            if os.path.exists(sock) and subprocess.run([*cliente, "-e", "SELECT 1"], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        subprocess.run([*cliente, "-e", "CREATE DATABASE muchas"], check=True)
        t0 = time.perf_counter()
        subprocess.run([*cliente, "muchas"], input=ddl_y_datos_mariadb(tablas, filas).encode(), check=True,
                       stdout=subprocess.DEVNULL)
        print(f"created {tablas} tables of {filas} rows in {time.perf_counter() - t0:.1f} s")
        medir(f"mariadb://root@/muchas?socket={sock}", tablas)
    finally:
        os.kill(int(open(os.path.join(base, "pid")).read()) if como else server.pid, signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(base)


def main():
    args = sys.argv[1:]
    mariadb = "--mariadb" in args
    args = [a for a in args if a != "--mariadb"]
    tablas = int(args[0]) if len(args) > 0 else 500
    filas = int(args[1]) if len(args) > 1 else 200
    if mariadb:
        main_mariadb(tablas, filas)
        return
    base = tempfile.mkdtemp(prefix="datoteca-inferir-bench-")
    os.chmod(base, 0o755)
    como = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if como:
        shutil.chown(base, "postgres")
    datos = os.path.join(base, "datos")
    subprocess.run([*como, pg_bin("initdb"), "-D", datos, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"],
                   check=True, capture_output=True)
    server = subprocess.Popen([*como, pg_bin("postgres"), "-D", datos, "-k", base, "-c", "listen_addresses=",
                               "-c", "fsync=off"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            if subprocess.run([pg_bin("pg_isready"), "-q", "-h", base, "-U", "postgres"]).returncode == 0:
                break
            time.sleep(0.1)
        psql = [pg_bin("psql"), "-h", base, "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-q"]
        subprocess.run([*psql, "-c", "CREATE DATABASE muchas"], check=True)
        t0 = time.perf_counter()
        subprocess.run([*psql, "-d", "muchas"], input=ddl_y_datos(tablas, filas).encode(), check=True)
        subprocess.run([*psql, "-d", "muchas", "-c", "ANALYZE"], check=True)
        print(f"created {tablas} tables of {filas} rows in {time.perf_counter() - t0:.1f} s")
        medir(f"postgresql://postgres@/muchas?host={base}", tablas)
    finally:
        pid = int(open(os.path.join(datos, "postmaster.pid")).readline())
        os.kill(pid, signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
