#!/usr/bin/env python3
"""Filling the reference application (tests/referencia/app_pg.sql: 25 tables in three schemas, every
constraint and its trigger on) in PostgreSQL: `datoteca inferir` then `datoteca esquema --hacia`, against
drizzle-seed through its own Drizzle definitions of the same tables, and against the extension's
`llenar_*`, in one run on one throwaway server (issue #40; docs/performance.md).

    python3 bench/referencia_bench.py BUILD_DIR [N]      (make bench-referencia: it installs bench/drizzle
                                                          and the extension first)

Each run starts from a fresh copy of the empty application (`CREATE DATABASE ... TEMPLATE`, then a
CHECKPOINT; neither timed). N rows per empty table (default 100,000; `--filas-vacia N`):

  - `datoteca inferir URL --filas-vacia N` on the empty database: the document every datoteca run uses;
  - `datoteca esquema doc.toml --seed 42 --hacia URL`: all 25 tables (auditoria by its trigger);
  - `node bench/drizzle/referencia.mjs`: drizzle-seed 0.3.1 on its Drizzle definitions of the 24 tables
    (bench/drizzle/referencia_schema.mjs), refined so the CHECKs can hold. It does not finish on the whole
    application (its error is printed), so it is timed on the tables it does fill: LEFT_OUT below names
    what is left out and why;
  - `SELECT datoteca.llenar_persona(...)`: asked to fill `clientes` (its refusal is printed); it fills a
    table with no foreign key, so it is timed on `personas` (rut, nombres, email, fecha_nacimiento; rut and
    email unique) against `--hacia` into the same table.

Wall time of the whole client command (process start included), best and median of 3, rounds interleaved.
Rows are counted in the database after each path's first run (`count(*)` of every table); every RUT
written by datoteca is checked by module 11 here. Prints Markdown."""
import json
import os
import statistics
import subprocess
import sys
import tempfile

from hacia_bench import correr, rut_valido
from servidor_pg import Servidor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build-c")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
CLI = os.path.join(BUILD, "datoteca")
DDL = os.path.join(ROOT, "tests", "referencia", "app_pg.sql")
DRIZZLE = os.path.join(HERE, "drizzle", "referencia.mjs")
RUNS = 3

# What drizzle-seed 0.3.1 does not fill, found by running it on the whole application and then without
# what each error pointed at (2026-12-05); Drizzle's names, with the reason.
LEFT_OUT = {
    "perfilesUsuario": "a UUID key that is a foreign key to another schema's table (drizzle-seed #5204): "
                       "\"Cannot read properties of undefined (reading 'rows')\"",
    "proyectos": "the three-table cycle proyectos → empleados → equipos: the same error",
    "equipos": "the three-table cycle",
    "empleados": "the three-table cycle",
    "ejecutivos": "a self-reference inside a two-table cycle with sucursales: the same error",
    "sucursales": "the cycle with ejecutivos (cuentas.sucursal_codigo then left NULL, drizzle-seed warns)",
    "imagenesProducto": "the cycle with productos fails among the other tables (alone, the two fill): "
                        "productos.imagen_principal_id then left NULL",
    "lineasPedido": "the composite key (pedido_id, linea): at 100,000 rows drizzle-seed writes a duplicate pair "
                    "(\"duplicate key value violates unique constraint lineas_pedido_pkey\"); it draws each column "
                    "alone, and isUnique on the smallint linea holds at most 32,767 rows",
    "devoluciones": "its composite foreign key to lineas_pedido, left out above",
}
PERSONAS_SQL = "CREATE TABLE personas (rut text PRIMARY KEY, nombres text, email text UNIQUE, fecha_nacimiento date)"
PERSONAS_DOC = """version = 1
[tablas.personas]
filas = {n}
[tablas.personas.columnas]
persona = {{ llamada = "persona.persona", campos = {{ rut = "rut", nombres = "nombres", email = "email", fecha_nacimiento = "fecha_nacimiento" }}, unico = ["rut", "email"] }}
"""


class Server(Servidor):
    def __init__(self):
        super().__init__("datoteca-refbench-")

    def sql(self, db, sql, ok=True):
        r = subprocess.run([self.psql_cmd[0], "-h", self.base, "-U", "postgres", "-d", db, "-v", "ON_ERROR_STOP=1",
                            "-q", "-At", "-c", sql], capture_output=True)
        if ok and r.returncode != 0:
            sys.exit(f"psql failed on {sql[:200]!r}: {r.stderr.decode()}")
        return r

    def url_de(self, db):
        return f"postgresql://postgres@/{db}?host={self.base}"

    def fresco(self, plantilla, db):
        """db as a fresh copy of plantilla, checkpointed: the state every timed run starts from."""
        self.sql("postgres", f"DROP DATABASE IF EXISTS {db}")
        self.sql("postgres", f"CREATE DATABASE {db} TEMPLATE {plantilla}")
        self.sql("postgres", "CHECKPOINT")

    def filas(self, db):
        """{schema.table: count(*)} of every table of the application."""
        lista = self.sql(db, "SELECT quote_ident(schemaname) || '.' || quote_ident(relname) FROM pg_stat_user_tables"
                             " ORDER BY 1").stdout.decode().split()
        union = " UNION ALL ".join(f"SELECT '{t}', count(*) FROM {t}" for t in lista)
        return {t: int(c) for t, c in (l.split("|") for l in self.sql(db, union).stdout.decode().split())}


def ruts_invalidos(s, db):
    malos = total = 0
    for col in ("clientes.rut", "empleados.rut", "reclamos.rut_cliente"):
        t, c = col.split(".")
        for v in s.sql(db, f"SELECT {c} FROM {t}").stdout.decode().split():
            total += 1
            malos += not rut_valido(v)
    return malos, total


def main():
    s = Server()
    try:
        s.sql("postgres", "CREATE DATABASE ref_vacia")
        subprocess.run([s.psql_cmd[0], "-h", s.base, "-U", "postgres", "-d", "ref_vacia", "-v", "ON_ERROR_STOP=1", "-q",
                        "-f", DDL], check=True, capture_output=True)
        s.sql("postgres", "CREATE DATABASE personas_vacia")
        s.sql("personas_vacia", PERSONAS_SQL)
        s.sql("personas_vacia", "CREATE EXTENSION datoteca")
        trabajo = tempfile.mkdtemp(prefix="datoteca-refbench-doc-")
        doc = os.path.join(trabajo, "app.toml")
        doc_personas = os.path.join(trabajo, "personas.toml")
        with open(doc_personas, "w") as f:
            f.write(PERSONAS_DOC.format(n=N))

        t_inferir = []
        for _ in range(RUNS):
            dt, _, _, texto = correr([CLI, "inferir", s.url_de("ref_vacia"), "--filas-vacia", str(N)])
            t_inferir.append(dt)
        with open(doc, "w") as f:
            f.write(texto)

        # drizzle-seed on the whole application, once: where it stops, and what it leaves behind
        s.fresco("ref_vacia", "ref")
        _, _, _, salida = correr(["node", DRIZZLE, s.base, "ref", str(N)])
        entero = json.loads(salida)
        dejadas = sum(s.filas("ref").values())

        # llenar_* asked to fill an application table, once
        s.fresco("ref_vacia", "ref")
        s.sql("ref", "CREATE EXTENSION datoteca")
        r = s.sql("ref", f"SELECT datoteca.llenar_persona('clientes', n => {N}, semilla => 42)", ok=False)
        llenar_clientes = r.stderr.decode().strip().splitlines()[0] if r.returncode else "filled it"

        caminos = {
            "hacia": ("ref", [CLI, "esquema", doc, "--seed", "42", "--hacia", s.url_de("ref")]),
            "drizzle": ("ref", ["node", DRIZZLE, s.base, "ref", str(N), *LEFT_OUT]),
            "hacia_personas": ("personas", [CLI, "esquema", doc_personas, "--seed", "42", "--hacia", s.url_de("personas")]),
            "llenar_personas": ("personas", [s.psql_cmd[0], "-h", s.base, "-U", "postgres", "-d", "personas", "-v",
                                             "ON_ERROR_STOP=1", "-q", "-c",
                                             f"SELECT datoteca.llenar_persona('personas', n => {N}, semilla => 42, "
                                             "unico => '{rut,email}')"]),
        }
        tiempos = {k: [] for k in caminos}
        filas = {}
        extra = {}
        for ronda in range(RUNS):
            for k, (db, cmd) in caminos.items():
                s.fresco(f"{db}_vacia", db)
                dt, rss, cpu, out = correr(cmd)
                if k == "drizzle" and "error" in json.loads(out):
                    sys.exit(f"drizzle-seed failed on the tables it filled before: {out}")
                tiempos[k].append((dt, rss, cpu))
                if ronda == 0:
                    filas[k] = s.filas(db)
                    if k == "hacia":
                        extra["ruts"] = ruts_invalidos(s, db)
                        extra["siguiente"] = s.sql(db, "INSERT INTO clientes (rut, nombre) VALUES ('1.000.000-9', 'x') "
                                                       "RETURNING id", ok=False)
        print(f"# The reference application, N = {N:,} rows per empty table\n")
        print(f"`datoteca inferir --filas-vacia {N}` on the empty application: best {min(t_inferir):.3f} s, "
              f"median {statistics.median(t_inferir):.3f} s\n")
        base = statistics.median(t[0] for t in tiempos["hacia"])
        print("| path | tables filled | rows | best | median | rows/s (median) | client's CPU (median) | client's peak RSS |")
        print("|---|---|---|---|---|---|---|---|")
        for k in caminos:
            ts = [t[0] for t in tiempos[k]]
            med = statistics.median(ts)
            n = sum(filas[k].values())
            llenas = sum(1 for v in filas[k].values() if v)
            cpu = statistics.median(t[2] for t in tiempos[k])
            rss = max(t[1] for t in tiempos[k]) // 1024
            print(f"| {k} | {llenas} of {len(filas[k])} | {n:,} | {min(ts):.2f} s | {med:.2f} s | {n / med:,.0f} | "
                  f"{cpu:.2f} s | {rss} MiB |")
        print(f"\n`--hacia` median ÷ drizzle-seed's (per row): "
              f"{(statistics.median(t[0] for t in tiempos['drizzle']) / sum(filas['drizzle'].values())) / (base / sum(filas['hacia'].values())):.2f}×")
        print(f"\nPer table after `--hacia`: {json.dumps(filas['hacia'])}")
        print(f"\nPer table after drizzle-seed (without {', '.join(LEFT_OUT)}): {json.dumps(filas['drizzle'])}")
        malos, total = extra["ruts"]
        print(f"\nRUTs written by `--hacia` failing module 11: {malos} of {total:,}")
        sig = extra["siguiente"]
        print(f"\nThe application's next INSERT into clientes after `--hacia`: "
              f"{'gets id ' + sig.stdout.decode().strip() if sig.returncode == 0 else sig.stderr.decode().strip()}")
        print(f"\ndrizzle-seed on the whole application: {entero} (rows it left behind: {dejadas:,}; no rollback)")
        print(f"\n`llenar_persona('clientes', ...)`: {llenar_clientes}")
    finally:
        s.stop()


if __name__ == "__main__":
    main()
