"""Issue 48 (fugas), measured in one run (docs/performance.md, "Masking"): `datoteca enmascarar` on
1,000,000 persona rows under the rules `datoteca detectar` proposes, unedited (the new defaults), beside
the old bench's fixed rules (bench/mascara_bench.py: rut + 6 persona columns) on the old bench's input, and
the review's cost (every run reviews what it wrote as it was; --estricto --revision-json only add the exit
status and the JSON): the same runs through a CLI built from the same sources with the review's per-row
hook turned off (--sin-revision BIN; `make bench-fugas` builds it, see tools below), so the difference is
the review alone. Wall seconds (time.perf_counter around the process) and CPU seconds (os.wait4's rusage:
user + system, every thread), medians of --reps runs, the cases interleaved (rep 1 of every case, then rep
2, ...) so that a change in the machine's load falls on all of them. Prints Markdown tables.
Not a test: nothing asserts a time.

    make bench-fugas
    python bench/fugas_bench.py BUILD [--sin-revision BIN] [--filas N] [--reps N]
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mascara_bench import CAMPOS, CLAVE, REGLAS  # noqa: E402  the old bench's fixed rules and input columns


def correr(cli, reglas, entrada, salida, jobs, extra=(), stdin_stdout=False):
    """One run: (wall seconds, CPU seconds, max RSS MB, exit status)."""
    env = dict(os.environ, DATOTECA_CLAVE=CLAVE)
    args = [cli, "enmascarar", "--reglas", reglas, "--jobs", str(jobs), "--clave-de-prueba", "--silencio", *extra]
    if stdin_stdout:  # as bench/mascara_bench.py runs it: stdin, stdout to /dev/null
        with open(entrada, "rb") as f, open(os.devnull, "wb") as nul:
            t0 = time.perf_counter()
            p = subprocess.Popen(args, stdin=f, stdout=nul, stderr=subprocess.DEVNULL, env=env)
            _, status, uso = os.wait4(p.pid, 0)
    else:
        t0 = time.perf_counter()
        p = subprocess.Popen(args + ["--entrada", entrada, "--salida", salida], stderr=subprocess.DEVNULL, env=env)
        _, status, uso = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    return wall, uso.ru_utime + uso.ru_stime, uso.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--sin-revision", help="a datoteca CLI built from the same sources, the review's hook off")
    ap.add_argument("--filas", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    cli = os.path.join(a.build, "datoteca")
    with tempfile.TemporaryDirectory(prefix="dt-fugas-bench.") as t:
        vieja, persona = os.path.join(t, "vieja.csv"), os.path.join(t, "persona.csv")
        r_fijas, r_detectar = os.path.join(t, "fijas.toml"), os.path.join(t, "reglas.toml")
        r_fijas_mant = os.path.join(t, "fijas_mantener.toml")
        salida, rjson = os.path.join(t, "out.csv"), os.path.join(t, "r.json")
        with open(r_fijas, "w") as f:
            f.write(REGLAS)
        with open(r_fijas_mant, "w") as f:  # the same, the other columns kept as they are
            f.write(REGLAS + '[politica]\nsin_regla = "mantener"\n')
        with open(vieja, "wb") as f:  # bench/mascara_bench.py's input: 7 columns, unique RUTs, seed 1
            subprocess.run([cli, "tabla", "persona", "--seed", "1", "--unico", "rut", "--campos", ",".join(CAMPOS),
                            "-n", str(a.filas), "--format", "csv"], stdout=f, check=True)
        with open(persona, "wb") as f:  # every persona column (14)
            subprocess.run([cli, "tabla", "persona", "--seed", "42", "-n", str(a.filas), "--format", "csv"], stdout=f,
                           check=True)
        with open(r_detectar, "wb") as f:  # the proposal, unedited
            subprocess.run([cli, "detectar", persona], stdout=f, check=True)
        propuestas = [l.split(" = ", 1)[1].split("}")[0] + "}" for l in open(r_detectar, encoding="utf-8")
                      if " = { regla" in l]
        ncols = len(open(persona, encoding="utf-8").readline().split(","))
        rev = ["--estricto", "--revision-json", rjson]
        sin = a.sin_revision
        # (name, binary, rules, input, extra arguments, stdin/stdout, masked values a row)
        casos = [
            ("old bench: its 7 columns, its fixed rules, stdin to /dev/null (as last round)", cli, r_fijas, vieja, (), True, 7),
            ("old bench's input and fixed rules, --entrada/--salida file", cli, r_fijas, vieja, (), False, 7),
            (f"persona, {ncols} columns, `detectar`'s rules unedited", cli, r_detectar, persona, (), False, ncols),
            ("the same + `--estricto --revision-json r.json`", cli, r_detectar, persona, rev, False, ncols),
            (f"persona, {ncols} columns, the old fixed rules (7 masked, {ncols - 7} kept by `sin_regla = 'mantener'`)", cli, r_fijas_mant, persona, (),
             False, 7),
            ("the same + `--estricto --revision-json r.json`", cli, r_fijas_mant, persona, rev, False, 7),
        ]
        if sin:
            casos += [
                (f"persona, {ncols} columns, `detectar`'s rules, **review off**", sin, r_detectar, persona, (), False, ncols),
                ("persona, the old fixed rules (7 kept), **review off**", sin, r_fijas_mant, persona, (), False, 7),
            ]
        cargas = [os.getloadavg()[0]]
        print(f"Issue 48 bench, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()}, "
              f"{os.cpu_count()} CPUs, load average {cargas[0]:.2f} at the start\n")
        print(f"`datoteca detectar` proposed for the {ncols} persona columns: " +
              ", ".join(sorted(set(propuestas))) + "\n")
        res = {}
        for rep in range(a.reps):
            for ci, (_, binario, reglas, entrada, extra, io, _) in enumerate(casos):
                for jobs in (1, 2):
                    res.setdefault((ci, jobs), []).append(correr(binario, reglas, entrada, salida, jobs, extra, io))
            cargas.append(os.getloadavg()[0])
        print(f"{a.filas:,} rows, median of {a.reps} (cases interleaved); load average after each round: " +
              ", ".join(f"{c:.2f}" for c in cargas[1:]) + "\n")
        print("| case | --jobs | wall s | CPU s | rows/s (wall) | rows/s per CPU s | ns per masked value (wall) | max RSS MB | exit |\n"
              "|---|---|---|---|---|---|---|---|---|")
        med = {}
        for ci, (nombre, _, _, _, _, _, nval) in enumerate(casos):
            for jobs in (1, 2):
                rs = res[(ci, jobs)]
                w, c = statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs)
                med[(ci, jobs)] = (w, c)
                salidas = sorted(set(r[3] for r in rs))
                print(f"| {nombre} | {jobs} | {w:.2f} | {c:.2f} | {a.filas / w:,.0f} | {a.filas / c:,.0f} | "
                      f"{w * 1e9 / (a.filas * nval):.0f} | {max(r[2] for r in rs):.0f} | {','.join(map(str, salidas))} |")
        print()
        if sin:
            print("The review's cost (same sources, the hook on against off; + is slower):\n")
            print("| rules | --jobs | wall, on / off | CPU, on / off |\n|---|---|---|---|")
            for on, off, nombre in ((2, 6, "`detectar`'s (nothing kept)"), (4, 7, "old fixed (7 columns kept)")):
                for jobs in (1, 2):
                    (w1, c1), (w0, c0) = med[(on, jobs)], med[(off, jobs)]
                    print(f"| {nombre} | {jobs} | {100 * (w1 / w0 - 1):+.1f} % | {100 * (c1 / c0 - 1):+.1f} % |")
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
