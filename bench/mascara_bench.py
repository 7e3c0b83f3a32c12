"""Masking, measured in one run (docs/performance.md, "Masking"): the C core (bench/mascara_bench.c:
RUTs and a plan row, values/s), the CLI masking a CSV of persona records with rut, names, email, phone
and address (rows/s, --jobs 1 and 2), and two peers on the same values: @snaplet/copycat's equivalent
calls (bench/mascara_copycat.mjs, Node) and a Faker-based masking loop (Python Faker es_CL, seeded per
value by a keyed BLAKE2s of the RUT, as such loops are written). Prints Markdown tables; medians.
Not a test: nothing asserts a time.

    make bench-mascara            (installs Faker into .venv and copycat 6.0.0 into BUILD/bench-copycat)
    python bench/mascara_bench.py BUILD [--filas N] [--copycat-filas N] [--faker-filas N]
"""
import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

RAIZ = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CAMPOS = ["rut", "nombres", "apellido_paterno", "apellido_materno", "email", "telefono", "direccion"]
REGLAS = "version = 1\n[columnas]\nrut = { regla = \"rut\" }\n" + "".join(
    f'{c} = {{ regla = "persona", campo = "{c}", entidad = "rut" }}\n' for c in CAMPOS[1:])
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key


def miles(x):
    return f"{x:,.0f}"


def cli_run(cli, reglas, entrada, jobs, reps):
    """Median wall seconds and median CPU seconds (user + system, every thread) of `reps` runs."""
    env = dict(os.environ, DATOTECA_CLAVE=CLAVE)
    ts, cpu = [], []
    for _ in range(reps):
        with open(entrada, "rb") as f, open(os.devnull, "wb") as nul:
            t0 = time.perf_counter()
            p = subprocess.Popen([cli, "enmascarar", "--reglas", reglas, "--jobs", str(jobs), "--clave-de-prueba"], stdin=f, stdout=nul, env=env)
            _, status, uso = os.wait4(p.pid, 0)
            ts.append(time.perf_counter() - t0)
            assert os.waitstatus_to_exitcode(status) == 0
            cpu.append(uso.ru_utime + uso.ru_stime)
    return statistics.median(ts), statistics.median(cpu)


def faker_loop(filas, reps):
    """Faker es_CL, seeded per value by a keyed hash of the RUT (deterministic per entity): ns per value."""
    from faker import Faker
    import faker as faker_mod
    fake = Faker("es_CL")
    clave = bytes.fromhex(CLAVE)
    ruts = [f["rut"] for f in filas]
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        for rut in ruts:
            semilla = int.from_bytes(hashlib.blake2s(rut.encode(), key=clave, digest_size=8).digest(), "little")
            fake.seed_instance(semilla)
            _ = (fake.rut(), fake.first_name(), fake.last_name(), fake.last_name(), fake.email(), fake.phone_number(),
                 fake.street_address())
        ts.append((time.perf_counter_ns() - t0) / len(ruts))
    fila = statistics.median(ts)
    return faker_mod.VERSION, fila


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--filas", type=int, default=1_000_000)
    ap.add_argument("--copycat-filas", type=int, default=20_000)
    ap.add_argument("--faker-filas", type=int, default=3_000)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    cli = os.path.join(a.build, "datoteca")
    pares = os.path.join(a.build, "bench-copycat")
    with tempfile.TemporaryDirectory(prefix="dt-mascara-bench.") as t:
        entrada, jsonl, reglas = os.path.join(t, "p.csv"), os.path.join(t, "p.jsonl"), os.path.join(t, "reglas.toml")
        with open(reglas, "w") as f:
            f.write(REGLAS)
        base = [cli, "tabla", "persona", "--seed", "1", "--unico", "rut", "--campos", ",".join(CAMPOS)]
        with open(entrada, "wb") as f:
            subprocess.run(base + ["-n", str(a.filas), "--format", "csv"], stdout=f, check=True)
        n_pares = max(a.copycat_filas, a.faker_filas)
        with open(jsonl, "wb") as f:  # the same first rows (row i depends only on seed, call, options, i)
            subprocess.run(base + ["-n", str(n_pares), "--format", "jsonl"], stdout=f, check=True)
        with open(jsonl, encoding="utf-8") as f:
            filas = [json.loads(l) for l in f]

        print(f"Masking bench, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start\n")
        print("### C core (`bench/mascara_bench.c`)\n")
        c = subprocess.run([os.path.join(a.build, "mascara_bench")], capture_output=True, text=True, check=True).stdout
        print(c)
        fila_c = next(float(l.split("|")[2]) for l in c.splitlines() if "dt_mascara_plan_fila" in l)
        rut_c = next(float(l.split("|")[2]) for l in c.splitlines() if "`dt_mascara_rut` `12.345.678-5`" in l)

        print(f"### CLI: `datoteca enmascarar`, {miles(a.filas)} persona rows, CSV, 7 masked columns "
              f"(rut + 6 persona), to /dev/null, median of {a.reps}\n")
        print("| --jobs | seconds | CPU seconds (all threads) | rows/s | values/s | ns per value | speed-up |\n"
              "|---|---|---|---|---|---|---|")
        cli_ns = {}
        for jobs in (1, 2):
            s, cpu = cli_run(cli, reglas, entrada, jobs, a.reps)
            cli_ns[jobs] = s * 1e9 / (a.filas * 7)
            print(f"| {jobs} | {s:.2f} | {cpu:.2f} | {miles(a.filas / s)} | {miles(7 * a.filas / s)} | {cli_ns[jobs]:.0f} | "
                  f"{cli_ns[1] / cli_ns[jobs]:.2f}× |")
        print()

        cc = json.loads(subprocess.run(["node", os.path.join(RAIZ, "bench", "mascara_copycat.mjs"), pares, jsonl,
                                        str(a.copycat_filas)], capture_output=True, text=True, check=True).stdout)
        fv, fk_fila = faker_loop(filas[:a.faker_filas], a.reps)
        print(f"### The same values: datoteca vs @snaplet/copycat {cc['version']} (Node {cc['node']}, "
              f"{miles(cc['rows'])} rows) and Faker {fv} es_CL (Python {platform.python_version()}, "
              f"{miles(a.faker_filas)} rows)\n")
        print("| masker | ns per row (7 values) | ns per value | copycat / it |\n|---|---|---|---|")
        cc_v = cc["ns_per_value"]
        for nombre, ns in [("datoteca CLI, --jobs 1 (read, mask, write)", cli_ns[1] * 7),
                           ("datoteca CLI, --jobs 2", cli_ns[2] * 7),
                           ("datoteca C plan (`dt_mascara_plan_fila`, no I/O)", fila_c),
                           ("@snaplet/copycat (scramble, firstName, lastName ×2, email, phoneNumber, streetAddress)",
                            cc["ns_per_row"]),
                           ("Faker es_CL, seeded per RUT (rut, first_name, last_name ×2, email, phone_number, "
                            "street_address)", fk_fila)]:
            print(f"| {nombre} | {ns:,.0f} | {ns / 7:,.0f} | {cc_v / (ns / 7):.1f}× |")
        print()
        print("| one RUT | ns per value | copycat / it |\n|---|---|---|")
        print(f"| `dt_mascara_rut` `12.345.678-5` (C) | {rut_c:.0f} | {cc['per_call']['scramble'] / rut_c:.1f}× |")
        print(f"| copycat `scramble(rut, {{preserve: ['.', '-']}})` | {cc['per_call']['scramble']:,.0f} | 1.0× |")
        print()
        print("copycat per call, ns per value: " + ", ".join(f"{k} {v:,.0f}" for k, v in cc["per_call"].items()))
        print(f"\nGoal (issue #27): at least 20× copycat per value. datoteca CLI --jobs 1: "
              f"{cc_v / cli_ns[1]:.0f}×, --jobs 2: {cc_v / cli_ns[2]:.0f}×.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
