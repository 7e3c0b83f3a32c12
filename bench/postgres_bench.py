#!/usr/bin/env python3
"""The PostgreSQL extension against the COPY path, in one run on one throwaway server (docs/postgres.md).

    python3 bench/postgres_bench.py BUILD_DIR [ROWS]      (make bench-postgres; the extension installed)

Seeding: `INSERT INTO t SELECT * FROM datoteca.persona(ROWS, 42)` and `SELECT datoteca.llenar_persona('t',
ROWS, 42)` (batched inserts, as COPY's) against `datoteca tabla persona --seed 42
-n ROWS --format csv | psql -c "COPY t FROM STDIN (FORMAT csv, HEADER)"` (generation included: two
processes, so the COPY path may use both cores), into the same table made from the CLI's DDL, truncated
between runs; and `SELECT count(*) FROM datoteca.persona(ROWS, 42)`, the function alone.
Masking: `CALL datoteca.copiar_enmascarado(...)` of that table (ROWS persona rows, every personal column
masked) against the export path: COPY it out, `datoteca enmascarar`, COPY the result into a new table.
Wall time, best and median of 3 runs each; the tables are checked equal (EXCEPT) once. Prints Markdown."""
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import time

from servidor_pg import Servidor

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build-c")
ROWS = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
CLI = os.path.join(BUILD, "datoteca")
RUNS = 3


class Server(Servidor):
    def __init__(self):
        super().__init__("datoteca-pgbench-", "session_preload_libraries=datoteca")

    def psql(self, sql, stdin=None):
        return self.correr_psql(sql, stdin).stdout.decode()

    def distintas(self, a, b):
        """How many rows one table has that the other lacks, both ways (0: the same rows)."""
        return int(self.psql(f"SELECT (SELECT count(*) FROM (TABLE {a} EXCEPT ALL TABLE {b}) x) + "
                             f"(SELECT count(*) FROM (TABLE {b} EXCEPT ALL TABLE {a}) y)").strip())


def timed(fn, prepare=None):
    times = []
    for _ in range(RUNS):
        if prepare:
            prepare()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main():
    if not os.path.exists(CLI):
        sys.exit(f"no CLI at {CLI}: make build first")
    s = Server()
    try:
        s.psql("CREATE EXTENSION datoteca")
        ddl = subprocess.run([CLI, "tabla", "persona", "-n", "0", "--format", "ddl", "--nombre", "t"], check=True,
                             capture_output=True).stdout.decode()
        s.psql(ddl)
        s.psql(ddl.replace("CREATE TABLE t ", "CREATE TABLE c ", 1))
        n = f"{ROWS:,}"

        def por_funcion():
            s.psql(f"INSERT INTO t SELECT * FROM datoteca.persona({ROWS}, 42)")

        def por_copy():
            cli = subprocess.Popen([CLI, "tabla", "persona", "--seed", "42", "-n", str(ROWS), "--format", "csv"],
                                   stdout=subprocess.PIPE)
            r = subprocess.run([*s.psql_cmd, "-c", "COPY c FROM STDIN (FORMAT csv, HEADER)"], stdin=cli.stdout,
                               capture_output=True)
            cli.stdout.close()
            if cli.wait() != 0 or r.returncode != 0:
                print(f"the COPY path failed: {r.stderr.decode()}", file=sys.stderr)
                sys.exit(1)

        def por_llenar():
            s.psql(f"SELECT datoteca.llenar_persona('t', {ROWS}, 42)")

        contar = timed(lambda: s.psql(f"SELECT count(*) FROM datoteca.persona({ROWS}, 42)"))
        llenar = timed(por_llenar, lambda: s.psql("TRUNCATE t"))
        s.psql("TRUNCATE c")
        por_copy()
        distintas = s.distintas("t", "c")
        if distintas:
            sys.exit(f"llenar_persona and the COPY path gave different rows: {distintas} rows differ")
        funcion = timed(por_funcion, lambda: s.psql("TRUNCATE t"))
        copia = timed(por_copy, lambda: s.psql("TRUNCATE c"))
        distintas = s.distintas("t", "c")
        if distintas:
            sys.exit(f"the two paths gave different rows: {distintas} rows differ")

        clave = os.path.join(s.base, "clave.hex")
        with open(clave, "w") as f:
            f.write(secrets.token_hex(32) + "\n")
        os.chmod(clave, 0o600)
        if s.como:
            shutil.chown(clave, "postgres")
        s.psql(f"ALTER SYSTEM SET datoteca.clave_archivo = '{clave}'; ")
        s.psql("SELECT pg_reload_conf()")
        time.sleep(0.3)
        columnas = {"rut": {"regla": "rut"}, "email": {"regla": "email"}, "telefono": {"regla": "telefono"},
                    "fecha_nacimiento": {"regla": "fecha", "dias": 30, "entidad": "rut"}}
        for campo in ("nombres", "apellido_paterno", "apellido_materno", "nombre_completo", "direccion"):
            columnas[campo] = {"regla": "persona", "campo": campo, "entidad": "rut"}
        for keep in ("sexo", "comuna", "region", "codigo_comuna", "codigo_region"):
            columnas[keep] = {"regla": "mantener"}
        reglas = {"version": 1, "columnas": columnas}
        rj = json.dumps({"t": reglas}).replace("'", "''")

        def enmascarar_sql():
            s.psql(f"CALL datoteca.copiar_enmascarado('{rj}', 'enmascarado')")

        reglas_path = os.path.join(s.base, "reglas.json")
        with open(reglas_path, "w") as f:
            json.dump(reglas, f)

        def enmascarar_export():
            salida = subprocess.Popen([*s.psql_cmd, "-c", "COPY t TO STDOUT (FORMAT csv, HEADER)"], stdout=subprocess.PIPE)
            cli = subprocess.Popen([CLI, "enmascarar", "--reglas", reglas_path, "--clave-archivo", clave], stdin=salida.stdout,
                                   stdout=subprocess.PIPE)
            salida.stdout.close()
            r = subprocess.run([*s.psql_cmd, "-c", "COPY c FROM STDIN (FORMAT csv, HEADER)"], stdin=cli.stdout,
                               capture_output=True)
            cli.stdout.close()
            if salida.wait() != 0 or cli.wait() != 0 or r.returncode != 0:
                sys.exit(f"the export path failed: {r.stderr.decode()}")

        mascara = timed(enmascarar_sql, lambda: s.psql("DROP SCHEMA IF EXISTS enmascarado CASCADE"))
        exporte = timed(enmascarar_export, lambda: s.psql("TRUNCATE c"))
        distintas = s.distintas("enmascarado.t", "c")
        if distintas:
            sys.exit(f"the masked copy and the export path differ in {distintas} rows")
        version = s.psql("SHOW server_version").strip()
    finally:
        s.stop()

    def fila(nombre, t, ref=None):
        veces = f" | {ref[1] / t[1]:.2f}×" if ref else " | "
        return f"| {nombre} | {t[0]:.2f} s | {t[1]:.2f} s | {ROWS / t[1]:,.0f}{veces} |"

    print(f"PostgreSQL {version}, {n} persona rows, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, best and median of {RUNS}\n")
    print("| path | best | median | rows/s (median) | vs COPY path |")
    print("|---|---|---|---|---|")
    print(fila("`COPY t FROM` the CLI's CSV (generation included)", copia))
    print(fila("`INSERT INTO t SELECT * FROM datoteca.persona(n, 42)`", funcion, copia))
    print(fila("`SELECT datoteca.llenar_persona('t', n, 42)`", llenar, copia))
    print(fila("`SELECT count(*) FROM datoteca.persona(n, 42)` (no insert)", contar, copia))
    print(fila("export, `datoteca enmascarar`, `COPY` back in", exporte))
    print(fila("`CALL datoteca.copiar_enmascarado(...)` (14 columns, 9 masked)", mascara, exporte))


if __name__ == "__main__":
    main()
