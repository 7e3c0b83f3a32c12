#!/usr/bin/env python3
"""Filling an existing PostgreSQL database: `datoteca esquema --hacia` against the CSV files and psql, and
against drizzle-seed, in one run on one throwaway server (issue #40; docs/hacia.md, docs/performance.md).

    python3 bench/hacia_bench.py BUILD_DIR [N]      (make bench-hacia: it installs bench/drizzle first)

The tables are bench/hacia/clientes.sql's (clientes with a serial key, a UNIQUE RUT and a UNIQUE email;
cuentas with a foreign key to them), made once; every path fills the same two tables, emptied by
`TRUNCATE ... RESTART IDENTITY` and followed by a CHECKPOINT before each run (neither timed). N clientes
(default 100,000), 1 to 5 cuentas each, 3 on average:

  - `datoteca esquema bench/hacia/clientes.toml --seed 42 --hacia postgresql://... --jobs 1` and `--jobs 2`;
  - `datoteca esquema ... --formato csv --salida DIR`, then `psql -f cargar.sql` in DIR, timed together;
  - `node bench/drizzle/seed.mjs`: drizzle-seed 0.3.1's `seed(db, { clientes, cuentas }).refine(...)`
    through node-postgres, with drizzle-seed's own generators.

Wall time of the whole client command (process start included), best and median of 3; the rounds are
interleaved (each path once, then again) so the machine's drift falls on every path alike. After each
path's first run the database is read back: row counts, cuentas per cliente, every RUT's check digit
(module 11, computed here), whether the application's next INSERT into clientes gets a key, and for
datoteca's three runs a digest of every row, which must be the same. Prints Markdown."""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from servidor_pg import Servidor

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build-c")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
CLI = os.path.join(BUILD, "datoteca")
DDL = os.path.join(HERE, "hacia", "clientes.sql")
DOC = os.path.join(HERE, "hacia", "clientes.toml")
SEED_MJS = os.path.join(HERE, "drizzle", "seed.mjs")
RUNS = 3


class Server(Servidor):
    """The bench's server (bench/servidor_pg.py)."""

    def __init__(self):
        super().__init__("datoteca-haciabench-")

    def psql(self, sql, ok=True):
        return self.correr_psql(sql, ok=ok)

    def valor(self, sql):
        return self.psql(sql).stdout.decode().strip()



def correr(cmd, cwd=None):
    """Runs cmd; its wall time, peak resident memory (KiB) and CPU time (user + system, s) from wait4, and
    its stdout. Exits on failure."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err)
        _, status, uso = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd[:3])} ... failed (exit {p.returncode}): {err.read().decode()[-2000:]}")
        return dt, uso.ru_maxrss, uso.ru_utime + uso.ru_stime, out.read().decode()


def rut_valido(rut):
    """A Chilean RUT's check digit by module 11, from the text as a user would write it (dots and hyphen
    optional), independently of the library: a body of at most 8 digits, weighted 2, 3, 4, 5, 6, 7, 2, ...
    from the right."""
    m = re.fullmatch(r"(\d{1,2}(?:\.\d{3}){0,2}|\d{1,8})-?([\dkK])", rut)
    if not m:
        return False
    cuerpo = m.group(1).replace(".", "")
    suma = sum(int(d) * (2 + i % 6) for i, d in enumerate(reversed(cuerpo)))
    dv = 11 - suma % 11
    esperado = "0" if dv == 11 else "K" if dv == 10 else str(dv)
    return m.group(2).upper() == esperado


def main():
    if not os.path.exists(CLI):
        sys.exit(f"no CLI at {CLI}: make build first")
    if not os.path.isdir(os.path.join(HERE, "drizzle", "node_modules", "drizzle-seed")):
        sys.exit("bench/drizzle has no node_modules: npm ci --prefix bench/drizzle (make bench-hacia does it)")
    carga_antes = os.getloadavg()
    trabajo = tempfile.mkdtemp(prefix="datoteca-haciabench-files-")
    doc = os.path.join(trabajo, "clientes.toml")
    with open(DOC) as f:
        texto = f.read()
    if "filas = 100000\n" not in texto:
        sys.exit(f"{DOC} no longer says 'filas = 100000': update the bench")
    with open(doc, "w") as f:
        f.write(texto.replace("filas = 100000\n", f"filas = {N}\n"))
    csv_dir = os.path.join(trabajo, "csv")
    solo_archivos = []  # the CSV path's first command alone
    s = Server()
    try:
        with open(DDL) as f:
            s.psql(f.read())
        version = s.valor("SHOW server_version")

        def hacia(jobs):
            return lambda: correr([CLI, "esquema", doc, "--seed", "42", "--hacia", s.url, "--jobs", str(jobs), "--silencio"])

        def archivos():
            shutil.rmtree(csv_dir, ignore_errors=True)  # not timed: the directory is made anew each run
            t0 = time.perf_counter()
            dt_cli, rss_cli, cpu_cli, _ = correr([CLI, "esquema", doc, "--seed", "42", "--formato", "csv", "--salida", csv_dir,
                                                  "--silencio"])
            _, rss_psql, cpu_psql, _ = correr([*s.psql_cmd, "-f", "cargar.sql"], cwd=csv_dir)
            solo_archivos.append(dt_cli)
            return time.perf_counter() - t0, max(rss_cli, rss_psql), cpu_cli + cpu_psql, ""

        def drizzle():
            return correr(["node", SEED_MJS, s.base, "postgres", str(N)])

        caminos = [
            ("hacia1", "`datoteca esquema doc.toml --seed 42 --hacia postgresql://...` (`--jobs 1`)", hacia(1)),
            ("hacia2", "the same, `--jobs 2`", hacia(2)),
            ("csv", "`datoteca esquema doc.toml --seed 42 --formato csv --salida DIR`, then `psql -f cargar.sql`", archivos),
            ("drizzle", "drizzle-seed 0.3.1 `seed(db, {clientes, cuentas}, {count: N}).refine(...)`, node-postgres", drizzle),
        ]
        tiempos = {c[0]: [] for c in caminos}
        cpu = {c[0]: [] for c in caminos}
        rss = {c[0]: 0 for c in caminos}
        seed_ms = []
        revisado = {}
        for ronda in range(RUNS):
            for clave, _, fn in caminos:
                s.psql("TRUNCATE clientes, cuentas RESTART IDENTITY")
                s.psql("CHECKPOINT")
                dt, kib, segundos_cpu, salida = fn()
                tiempos[clave].append(dt)
                cpu[clave].append(segundos_cpu)
                rss[clave] = max(rss[clave], kib)
                if clave == "drizzle":
                    seed_ms.append(int(re.search(r'"seed_ms":(\d+)', salida).group(1)))
                if ronda == 0:
                    revisado[clave] = revisar(s, clave)
                else:
                    filas = (int(s.valor("SELECT count(*) FROM clientes")), int(s.valor("SELECT count(*) FROM cuentas")))
                    if filas != revisado[clave]["filas"]:
                        sys.exit(f"{clave}, run {ronda + 1}: {filas} rows, the first run had {revisado[clave]['filas']}")
                print(f"round {ronda + 1}, {clave}: {dt:.2f} s", file=sys.stderr)
    finally:
        s.stop()
        shutil.rmtree(trabajo, ignore_errors=True)
    carga_despues = os.getloadavg()

    digestos = {revisado[c]["digesto"] for c in ("hacia1", "hacia2", "csv")}
    if len(digestos) != 1:
        sys.exit("datoteca's three runs left different rows in the database (digests differ)")
    for c in ("hacia1", "hacia2", "csv"):
        r = revisado[c]
        if r["filas"][0] != N or r["ruts_validos"] != N:
            sys.exit(f"{c}: {r['filas'][0]} clientes, {r['ruts_validos']} valid RUTs; expected {N} of each")
    if revisado["drizzle"]["filas"][0] != N:
        sys.exit(f"drizzle-seed wrote {revisado['drizzle']['filas'][0]} clientes, not {N}")

    la = lambda t: " / ".join(f"{x:.2f}" for x in t)
    print(f"PostgreSQL {version}, {N:,} clientes with 1 to 5 cuentas each, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} cores, load average {la(carga_antes)} before and {la(carga_despues)} after (1/5/15 min); "
          f"wall time of the client command, best and median of {RUNS}, rounds interleaved\n")
    ref = statistics.median(tiempos["hacia1"])
    print("| path | rows (clientes + cuentas) | best | median | rows/s (median) | time ÷ `--hacia --jobs 1`'s | client's CPU (median) | client's peak RSS |")
    print("|---|---|---|---|---|---|---|---|")
    for clave, nombre, _ in caminos:
        t = tiempos[clave]
        filas = sum(revisado[clave]["filas"])
        med = statistics.median(t)
        print(f"| {nombre} | {filas:,} | {min(t):.2f} s | {med:.2f} s | {filas / med:,.0f} | {med / ref:.2f}× | "
              f"{statistics.median(cpu[clave]):.2f} s | {rss[clave] / 1024:,.0f} MiB |")
    print(f"\nThe client is the generating program (and psql for the CSV path; CPU and memory from wait4, the "
          f"server's not counted). Of the CSV path, `--formato csv` alone took "
          f"{', '.join(f'{x:.2f} s' for x in solo_archivos)}. "
          f"drizzle-seed's `seed()` itself (inside node, without start-up and imports): "
          f"{', '.join(f'{m / 1000:.2f} s' for m in seed_ms)}.\n")
    print("| path | cuentas per cliente (min–max, mean) | RUTs with a valid check digit | next `INSERT INTO clientes (rut, nombre)` | first clientes row |")
    print("|---|---|---|---|---|")
    for clave, nombre, _ in caminos:
        r = revisado[clave]
        print(f"| {nombre} | {r['por_cliente']} | {r['ruts_validos']:,} of {r['filas'][0]:,} "
              f"({100 * r['ruts_validos'] / r['filas'][0]:.1f} %) | {r['siguiente']} | {r['primera']} |")
    print("\ndatoteca's three runs left the same rows (a digest of every row of both tables, ordered by id).")


def revisar(s, clave):
    """What the path left in the database, read back from it."""
    filas = (int(s.valor("SELECT count(*) FROM clientes")), int(s.valor("SELECT count(*) FROM cuentas")))
    por_cliente = s.valor("SELECT min(k) || '–' || max(k) || ', ' || round(avg(k), 2) FROM "
                          "(SELECT count(c.id) AS k FROM clientes l LEFT JOIN cuentas c ON c.cliente_id = l.id GROUP BY l.id) x")
    ruts = s.valor("SELECT rut FROM clientes").split("\n")
    validos = sum(1 for r in ruts if rut_valido(r))
    digesto = s.valor("SELECT (SELECT md5(string_agg(l::text, E'\\n' ORDER BY l.id)) FROM clientes l) || "
                      "(SELECT md5(string_agg(c::text, E'\\n' ORDER BY c.id)) FROM cuentas c)")
    primera = s.valor("SELECT concat_ws(', ', rut, nombre, email, comuna, fecha_nacimiento) FROM clientes ORDER BY id LIMIT 1")
    # The application's next row, its key from the serial's sequence (rolled back; TRUNCATE resets the sequence).
    r = s.psql("BEGIN; INSERT INTO clientes (rut, nombre) VALUES ('x', 'y') RETURNING id; ROLLBACK", ok=False)
    if r.returncode == 0:
        siguiente = f"gets id {int(r.stdout.decode().split()[0]):,}"
    elif b"duplicate key" in r.stderr:
        siguiente = "refused: duplicate key (the sequence was not moved)"
    else:
        siguiente = f"failed: {r.stderr.decode().strip()[:80]}"
    return {"filas": filas, "por_cliente": por_cliente, "ruts_validos": validos, "digesto": digesto,
            "primera": primera.replace("|", "\\|"), "siguiente": siguiente}


if __name__ == "__main__":
    main()
