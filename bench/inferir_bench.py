"""`datoteca inferir` on a generated PostgreSQL database of many tables (issue #40, item 1: "a 500-table
database is read in seconds"). Starts a throwaway PostgreSQL server (trust auth, a unix socket in a temp
directory), creates TABLAS tables chained by foreign keys, each with a serial key, a UNIQUE RUT, a name,
an email, an amount with a CHECK range, a date, a CHECK IN-list and FILAS planted rows, then times
`datoteca inferir` reading it (catalog, counts, 200-row samples, the detector, the document built by
the library) REPETICIONES times and prints the best and the median.

    python3 bench/inferir_bench.py [TABLAS] [FILAS]        (defaults 500 and 200)

DATOTECA_CLI names the program (default build-c/datoteca). Run as root, the server runs as the
postgres user, as tests/python/test_basesdedatos.py does."""
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


def main():
    tablas = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    filas = int(sys.argv[2]) if len(sys.argv) > 2 else 200
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
        url = f"postgresql://postgres@/muchas?host={base}"
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
    finally:
        pid = int(open(os.path.join(datos, "postmaster.pid")).readline())
        os.kill(pid, signal.SIGTERM)
        server.wait(timeout=60)
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
