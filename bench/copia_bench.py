#!/usr/bin/env python3
"""A masked copy of a whole database (issue #41; docs/copia.md, docs/performance.md), against the unmasked
copy of the same database by the database's own tools, in one run:

    python3 bench/copia_bench.py BUILD_DIR [N]      (make bench-copia: as root, it installs the extension)

The database is the reference application (tests/referencia/app_*.sql: 25 tables, three schemas in
PostgreSQL) filled by `datoteca inferir --filas-vacia N` + `esquema --seed 42 --hacia` (N = 20,000 by
default: about 480,000 rows), its rules written by `datoteca detectar URL` with no hand edit. Paths:

  SQLite, into a new file each run (removed before the next, not timed):
  - `sqlite3 prod.db .dump | sqlite3 copy.db`: the floor, unmasked;
  - `datoteca copiar --desde sqlite:prod.db --hacia sqlite:copy.db --reglas ...`: masked, every row;
  - the same with `--subconjunto clientes=10% --con-hijos`;
  - the same into `--hacia copy.sql` (the anonymous dump; loading it is not timed);
  PostgreSQL 15, one throwaway server, into a fresh database or schema each run:
  - `pg_dump app | psql copy`: the floor, unmasked;
  - `CALL datoteca.copiar_todo_enmascarado(reglas, 'staging')`: masked, inside the server;
  - `datoteca copiar --desde postgresql://.../app --hacia postgresql://.../copy`: masked, every row, through
    the client (pg_dump's schema, COPY out, the plan, COPY in), with one job and with two;
  - the same with `--subconjunto clientes=10% --con-hijos`, one job and two;
  - the same into `--hacia copy.sql` (the anonymous dump; loading it is not timed).
  The target database is in the same server as the source (the issue's two clusters share this machine's
  two cores either way).

Wall time of the whole command, best and median of 3, interleaved; rows are those of the source (the
full copies) or counted in the copy (the subset). Prints Markdown."""
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

from servidor_pg import Servidor, pg_bin

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build-c")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
CLI = os.path.join(BUILD, "datoteca")
RUNS = 3
CLAVE = "6d3c0e1f8a2b4c5d9e7f00112233445566778899aabbccddeeff102132435465"


def correr(cmd, shell=False, env=None):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, shell=shell, capture_output=True, env=env)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{cmd if shell else ' '.join(cmd[:3])} ... failed: {r.stderr.decode()[-1500:]}")
    return dt, r.stdout


def filas_sqlite(ruta):
    con = sqlite3.connect(ruta)
    n = sum(con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
            for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
    con.close()
    return n


def main():
    trabajo = tempfile.mkdtemp(prefix="datoteca-copiabench-")
    os.chmod(trabajo, 0o755)  # the server (as postgres) reads the key file inside it
    clave = os.path.join(trabajo, "clave.hex")
    with open(clave, "w") as f:
        f.write(CLAVE)
    os.chmod(clave, 0o600)
    resultados = []  # (path, rows, times)

    # ---- SQLite ----
    prod = os.path.join(trabajo, "prod.db")
    con = sqlite3.connect(prod)
    con.executescript(open(os.path.join(ROOT, "tests", "referencia", "app_sqlite.sql")).read())
    con.close()
    _, doc = correr([CLI, "inferir", f"sqlite:{prod}", "--filas-vacia", str(N)])
    with open(os.path.join(trabajo, "app.toml"), "wb") as f:
        f.write(doc)
    correr([CLI, "esquema", os.path.join(trabajo, "app.toml"), "--seed", "42", "--hacia", f"sqlite:{prod}"])
    _, reglas = correr([CLI, "detectar", f"sqlite:{prod}"])
    reglas_ruta = os.path.join(trabajo, "reglas.toml")
    with open(reglas_ruta, "wb") as f:
        f.write(reglas)
    total = filas_sqlite(prod)
    copia, dump = os.path.join(trabajo, "copia.db"), os.path.join(trabajo, "copia.sql")
    base = [CLI, "copiar", "--desde", f"sqlite:{prod}", "--reglas", reglas_ruta, "--clave-archivo", clave]
    caminos = {
        "SQLite: `sqlite3 prod.db .dump` piped into `sqlite3 copy.db` (unmasked, the floor)":
            lambda: correr(f"sqlite3 {prod} .dump | sqlite3 {copia}", shell=True),
        "SQLite: `datoteca copiar` (masked, every row)": lambda: correr(base + ["--hacia", f"sqlite:{copia}"]),
        "SQLite: `datoteca copiar --subconjunto clientes=10% --con-hijos`":
            lambda: correr(base + ["--hacia", f"sqlite:{copia}", "--subconjunto", "clientes=10%", "--con-hijos"]),
        "SQLite: `datoteca copiar --hacia copy.sql` (the anonymous dump)": lambda: correr(base + ["--hacia", dump]),
    }
    if shutil.which("sqlite3") is None:
        del caminos[next(iter(caminos))]
    tiempos = {k: [] for k in caminos}
    filas = {}
    for _ in range(RUNS):
        for k, f in caminos.items():
            for p in (copia, dump):
                if os.path.exists(p):
                    os.remove(p)
            tiempos[k].append(f()[0])
            if k not in filas:
                filas[k] = filas_sqlite(copia) if os.path.exists(copia) else total
    for k in caminos:
        resultados.append((k, filas[k], tiempos[k]))

    # ---- PostgreSQL ----
    s = Servidor("datoteca-copiabench-pg-")
    try:
        psql = [pg_bin("psql"), "-h", s.base, "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-At"]
        correr(psql + ["-d", "postgres", "-c", "CREATE DATABASE app"])
        correr(psql + ["-d", "app", "-f", os.path.join(ROOT, "tests", "referencia", "app_pg.sql")])
        url = f"postgresql://postgres@/app?host={s.base}"
        _, doc = correr([CLI, "inferir", url, "--filas-vacia", str(N)])
        with open(os.path.join(trabajo, "app_pg.toml"), "wb") as f:
            f.write(doc)
        correr([CLI, "esquema", os.path.join(trabajo, "app_pg.toml"), "--seed", "42", "--hacia", url])
        _, reglas_pg = correr([CLI, "detectar", url])
        correr(psql + ["-d", "app", "-c", "CREATE EXTENSION datoteca"])
        total_pg = int(correr(psql + ["-d", "app", "-c", "SELECT sum(n_live_tup) FROM pg_stat_user_tables"])[1].decode().strip() or 0)
        llamada = (f"SET datoteca.clave_archivo = '{clave}'; CALL datoteca.copiar_todo_enmascarado($r${reglas_pg.decode()}$r$, 'staging')")
        if os.geteuid() == 0:
            shutil.chown(clave, "postgres")
        destino = f"postgresql://postgres@/copia?host={s.base}"
        base_pg = [CLI, "copiar", "--desde", url, "--reglas", os.path.join(trabajo, "reglas_pg.toml"), "--clave-archivo", clave]
        with open(os.path.join(trabajo, "reglas_pg.toml"), "wb") as f:
            f.write(reglas_pg)
        dump_pg = os.path.join(trabajo, "copia_pg.sql")

        def nueva():
            # copiar_todo_enmascarado's schema in the source is a table set the rules do not name: copiar would refuse it
            correr(psql + ["-d", "app", "-c", "DROP SCHEMA IF EXISTS staging CASCADE"])
            if os.path.exists(dump_pg):
                os.remove(dump_pg)
            correr(psql + ["-d", "postgres", "-c", "DROP DATABASE IF EXISTS copia"])
            correr(psql + ["-d", "postgres", "-c", "CREATE DATABASE copia"])

        caminos_pg = {
            "PostgreSQL 15: `pg_dump app` piped into `psql copy` (unmasked, the floor)": (
                lambda: correr(psql + ["-d", "postgres", "-c", "DROP DATABASE IF EXISTS copia"]),
                lambda: correr(f"{pg_bin('createdb')} -h {s.base} -U postgres copia && {pg_bin('pg_dump')} -h {s.base} -U postgres app "
                               f"| {pg_bin('psql')} -h {s.base} -U postgres -q -v ON_ERROR_STOP=1 -d copia", shell=True)),
            "PostgreSQL 15: `CALL datoteca.copiar_todo_enmascarado(...)` (masked, in the server)": (
                lambda: correr(psql + ["-d", "app", "-c", "DROP SCHEMA IF EXISTS staging CASCADE"]),
                lambda: correr(psql + ["-d", "app", "-c", llamada])),
            "PostgreSQL 15: `datoteca copiar` into another database (masked, every row)": (
                nueva, lambda: correr(base_pg + ["--hacia", destino])),
            "PostgreSQL 15: `datoteca copiar --jobs 2`": (nueva, lambda: correr(base_pg + ["--hacia", destino, "--jobs", "2"])),
            "PostgreSQL 15: `datoteca copiar --subconjunto clientes=10% --con-hijos`": (
                nueva, lambda: correr(base_pg + ["--hacia", destino, "--subconjunto", "clientes=10%", "--con-hijos"])),
            "PostgreSQL 15: `datoteca copiar --subconjunto clientes=10% --con-hijos --jobs 2`": (
                nueva, lambda: correr(base_pg + ["--hacia", destino, "--subconjunto", "clientes=10%", "--con-hijos", "--jobs", "2"])),
            "PostgreSQL 15: `datoteca copiar --hacia copy.sql` (the anonymous dump)": (
                nueva, lambda: correr(base_pg + ["--hacia", dump_pg])),
        }
        # rows counted in the copy by the server (a subset's are fewer than the source's)
        contar = ("SELECT sum((xpath('/row/c/text()', query_to_xml(format('SELECT count(*) AS c FROM %I.%I', schemaname, "
                  "tablename), false, true, '')))[1]::text::bigint) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', "
                  "'information_schema')")
        filas_pg = {}
        tiempos_pg = {k: [] for k in caminos_pg}
        for _ in range(RUNS):
            for k, (antes, f) in caminos_pg.items():
                antes()
                correr(psql + ["-d", "postgres", "-c", "CHECKPOINT"])
                tiempos_pg[k].append(f()[0])
                if k not in filas_pg and "subconjunto" in k:
                    filas_pg[k] = int(correr(psql + ["-d", "copia", "-c", contar])[1].decode().strip())
        for k in caminos_pg:
            resultados.append((k, filas_pg.get(k, total_pg), tiempos_pg[k]))
    finally:
        s.stop()
        shutil.rmtree(trabajo, ignore_errors=True)

    print(f"# A masked copy of the reference application, N = {N:,} rows per empty table\n")
    print("| path | rows | best | median | rows/s (median) |")
    print("|---|---|---|---|---|")
    for k, n, ts in resultados:
        med = statistics.median(ts)
        print(f"| {k} | {n:,} | {min(ts):.2f} s | {med:.2f} s | {n / med:,.0f} |")


if __name__ == "__main__":
    main()
