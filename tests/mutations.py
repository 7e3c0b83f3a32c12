#!/usr/bin/env python3
"""The contract checks must fail where they should. In a scratch copy of the sources, each
mutation below is applied, the library is rebuilt (a shared library for Python, the Node addon,
the C contract test), and the contract check of every language must fail naming the right table,
call, or dataset case and row (the dataset mutants must also fail the re-derivation from
docs/stream.md, tests/python/test_tabla_derivacion.py). Then the regeneration script must refuse the shortcuts around the version rules, and
accept an appended call.

    .venv/bin/python tests/mutations.py [BUILD_DIR]      (make test-mutations)

Prints one line per mutation and `mutations: N passed, N failed`; exits 1 on any failure.
"""
from __future__ import annotations

import csv
import glob
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build-mutations"))
SCRATCH = os.path.join(WORK, "src")
OBJ = os.path.join(WORK, "obj")
PY = sys.executable
CC = os.environ.get("CC", "cc")
CXX = os.environ.get("CXX", "c++")
# What the scratch copy needs: the C sources and data, the generators, the fixtures, the three
# runners and the Node binding's JavaScript (the addon is linked into scratch/build/Release).
COPY = ["c", "cli", "spec", "tools", "fixtures", "CHANGELOG.md", "tests/c", "tests/python/golden_runner.py",
        "tests/node/golden_runner.mjs", "bindings/node", "esquemas",
        "tests/properties.json", "tests/node/properties.test.mjs", "tests/node/csv.mjs",
        "tests/python/mascara_runner.py", "tests/mascara", "tests/node/mascara_contrato.test.mjs"]

passed = 0
failed = 0


def sh(cmd: List[str], **kw: object) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    return subprocess.run(cmd, capture_output=True, text=True, **kw)  # type: ignore[call-overload]


def must(cmd: List[str], **kw: object) -> None:
    r = sh(cmd, **kw)
    if r.returncode != 0:
        sys.exit(f"mutations: setup failed: {' '.join(cmd)}\n{r.stdout}{r.stderr}")


# The machine has two cores and every compile, link and contract check below is one process on one
# core: they run two at a time. Results are returned in the order given, so what is printed does not
# depend on which finished first.
POOL = ThreadPoolExecutor(max_workers=2)


def sh_all(cmds: Dict[str, List[str]], **kw: object) -> Dict[str, "subprocess.CompletedProcess[str]"]:
    futures = {k: POOL.submit(sh, c, **kw) for k, c in cmds.items()}
    return {k: f.result() for k, f in futures.items()}


def must_all(cmds: List[List[str]]) -> None:
    for f in [POOL.submit(must, c) for c in cmds]:
        f.result()


def report(ok: bool, line: str) -> None:
    global passed, failed
    print(("ok: " if ok else "FAILED: ") + line, flush=True)
    if ok:
        passed += 1
    else:
        failed += 1


# ---- building the scratch copy --------------------------------------------------------------

def napi_includes() -> List[str]:
    inc = sh(["node", "-p", "require('node-addon-api').include_dir"], cwd=ROOT).stdout.strip().strip('"')
    node = "/usr/include/node"
    if not os.path.exists(os.path.join(node, "node_api.h")):
        found = glob.glob(os.path.expanduser("~/.cache/node-gyp/*/include/node"))
        node = found[0] if found else node
    return ["-I" + os.path.join(ROOT, inc) if not os.path.isabs(inc) else "-I" + inc, "-I" + node]


C_FLAGS = ["-std=c11", "-O1", "-fPIC", "-fvisibility=hidden"]


def obj_name(rel: str) -> str:
    """The object file of a source as c/fuentes.txt names it (c/src/ns/rut.c -> c_src_ns_rut.o)."""
    return rel[:-2].replace("/", "_") + ".o"


def compile_c(src_dir: str, rel: str, out_dir: str) -> str:
    """One of the library's sources (`rel` as c/fuentes.txt lists it) compiled into out_dir."""
    out = os.path.join(out_dir, obj_name(rel))
    must([CC, *C_FLAGS, "-I" + os.path.join(src_dir, "c", "include"), "-I" + os.path.join(src_dir, "c", "src"),
          "-c", os.path.join(src_dir, rel), "-o", out])
    return out


def fuentes() -> List[str]:
    with open(os.path.join(ROOT, "c", "fuentes.txt"), encoding="utf-8") as f:
        return f.read().split()


def base_objects() -> Dict[str, str]:
    """The unmutated library objects and the addon's C++ object, compiled once."""
    base = os.path.join(OBJ, "base")
    os.makedirs(base, exist_ok=True)
    objs = dict(zip(fuentes(), POOL.map(lambda rel: compile_c(ROOT, rel, base), fuentes())))
    must([CXX, "-std=c++17", "-O1", "-fPIC", "-fvisibility=hidden", "-DNAPI_VERSION=8", "-DNAPI_DISABLE_CPP_EXCEPTIONS",
          *napi_includes(), "-I" + os.path.join(ROOT, "c", "include"), "-c",
          os.path.join(ROOT, "bindings", "node", "addon.cc"), "-o", os.path.join(OBJ, "addon.o")])
    return objs


def fresh_scratch() -> None:
    shutil.rmtree(SCRATCH, ignore_errors=True)
    for rel in COPY:
        src, dst = os.path.join(ROOT, rel), os.path.join(SCRATCH, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        (shutil.copytree if os.path.isdir(src) else shutil.copy2)(src, dst)
    os.symlink(os.path.join(ROOT, "node_modules"), os.path.join(SCRATCH, "node_modules"))  # vitest for the copy


def build_scratch(base: Dict[str, str]) -> None:
    """Recompile what the mutation changed (every file when a header changed) and link the
    three consumers: the shared library (Python), the addon (Node), the C contract test."""
    mut = os.path.join(OBJ, "mut")
    shutil.rmtree(mut, ignore_errors=True)
    os.makedirs(mut)

    def same(rel: str) -> bool:
        with open(os.path.join(ROOT, rel), "rb") as a, open(os.path.join(SCRATCH, rel), "rb") as b:
            return a.read() == b.read()

    headers = [os.path.relpath(p, SCRATCH) for p in glob.glob(os.path.join(SCRATCH, "c", "**", "*.h"), recursive=True)
               + glob.glob(os.path.join(SCRATCH, "cli", "*.h")) + glob.glob(os.path.join(SCRATCH, "c", "src", "**", "*.gen.h"), recursive=True)]
    all_new = not all(same(h) for h in headers)
    objs = list(POOL.map(lambda item: compile_c(SCRATCH, item[0], mut) if all_new or not same(item[0]) else item[1],
                         base.items()))
    os.makedirs(os.path.join(SCRATCH, "lib"), exist_ok=True)
    os.makedirs(os.path.join(SCRATCH, "build", "Release"), exist_ok=True)
    must_all([
        [CC, "-shared", *objs, "-o", os.path.join(SCRATCH, "lib", "libdatoteca.so")],
        [CXX, "-shared", os.path.join(OBJ, "addon.o"), *objs, "-o", os.path.join(SCRATCH, "build", "Release", "datoteca.node")],
        [CC, "-std=c11", "-O1", "-I" + os.path.join(SCRATCH, "c", "include"), "-I" + os.path.join(SCRATCH, "tests", "c"),
         f'-DDT_FIXTURES_DIR="{os.path.join(SCRATCH, "fixtures")}"', os.path.join(SCRATCH, "tests", "c", "test_golden.c"),
         *objs, "-o", os.path.join(SCRATCH, "test_golden")],
        [CC, "-std=c11", "-O1", "-I" + os.path.join(SCRATCH, "c", "include"), "-I" + os.path.join(SCRATCH, "tests", "c"),
         f'-DDT_FIXTURES_DIR="{os.path.join(SCRATCH, "fixtures")}"', os.path.join(SCRATCH, "tests", "c", "test_mascara_contrato.c"),
         *objs, "-o", os.path.join(SCRATCH, "test_mascara_contrato")]
    ])


def env_for_scratch() -> Dict[str, str]:
    env = dict(os.environ)
    env["DATOTECA_LIBRARY"] = os.path.join(SCRATCH, "lib", "libdatoteca.so")
    return env


def contract_outputs() -> Dict[str, Tuple[int, str]]:
    """Each language's staged contract check on the scratch copy: (exit code, output)."""
    env = env_for_scratch()
    runs = {
        "c": [os.path.join(SCRATCH, "test_golden"), "--fixtures", os.path.join(SCRATCH, "fixtures")],
        "python": [PY, os.path.join(SCRATCH, "tests", "python", "golden_runner.py"), "--check"],
        "node": ["node", os.path.join(SCRATCH, "tests", "node", "golden_runner.mjs"), "--check"],
    }
    return {lang: (r.returncode, r.stdout + r.stderr) for lang, r in sh_all(runs, env=env, cwd=WORK).items()}


def mascara_outputs() -> Dict[str, Tuple[int, str]]:
    """Each language's masking contract check (fixtures/mascara.json) on the scratch copy."""
    env = env_for_scratch()
    env["PYTHONPATH"] = os.path.join(ROOT, "bindings", "python")
    runs = {
        "c": [os.path.join(SCRATCH, "test_mascara_contrato")],
        "python": [PY, os.path.join(SCRATCH, "tests", "python", "mascara_runner.py"), "--check"],
        "node": ["node", os.path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--root",
                 os.path.join(SCRATCH, "tests", "node"), "mascara_contrato"],
    }
    return {lang: (r.returncode, r.stdout + r.stderr) for lang, r in sh_all(runs, env=env, cwd=WORK).items()}


def mascara_mutation(name: str, apply: Callable[[], None], want: str, base: Dict[str, str]) -> None:
    """Apply, rebuild, and require every language's masking contract check to fail naming `want`
    (a case, a row and a column)."""
    fresh_scratch()
    apply()
    build_scratch(base)
    outs = mascara_outputs()
    bad = [f"{lang} PASSED" if code == 0 else f"{lang} failed without naming '{want}': {text.strip()[-300:]}"
           for lang, (code, text) in outs.items() if code == 0 or want not in text]
    said = next((ln.strip() for ln in outs["c"][1].splitlines() if want in ln), want)
    report(not bad, f"masking mutation '{name}': " + (", ".join(outs) + " fail: " + said if not bad else "; ".join(bad)))


def mutation(name: str, apply: Callable[[], None], want: str, base: Dict[str, str]) -> None:
    """Apply, rebuild, and require every language to fail with `want` in its output."""
    fresh_scratch()
    apply()
    build_scratch(base)
    outs = contract_outputs()
    bad = []
    for lang, (code, text) in outs.items():
        if code == 0:
            bad.append(f"{lang} PASSED")
        elif want not in text:
            bad.append(f"{lang} failed without naming '{want}':\n    " + "\n    ".join(text.strip().splitlines()[-6:]))
    said = next((ln for ln in outs["c"][1].splitlines() if want in ln), want)
    report(not bad, f"mutation '{name}': " + ("c, python and node fail: " + said if not bad else "; ".join(bad)))


# ---- the mutations ----------------------------------------------------------------------------

def edit(rel: str, old: str, new: str, count: int = 1) -> None:
    path = os.path.join(SCRATCH, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(old) < 1:
        sys.exit(f"mutations: the anchor {old!r} is not in {rel}: update the mutation")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text.replace(old, new, count))


def gen_tables_module(data_dir: str):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_tables_scratch", os.path.join(ROOT, "tools", "gen", "tablas.py"))
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    mod.DATA = data_dir
    return mod


def csv_rows(rel: str) -> Tuple[str, List[str]]:
    with open(os.path.join(ROOT, rel), encoding="utf-8", newline="") as f:
        lines = f.read().splitlines(keepends=True)
    return lines[0], lines[1:]


def regenerate_tables() -> None:
    must([PY, os.path.join(SCRATCH, "tools", "gen", "tablas.py")])


# Which table a row of each CSV feeds: the mutation of that CSV must be reported under its name.
CSV_TABLE: Dict[str, Callable[[Dict[str, str]], str]] = {
    "regiones.csv": lambda r: "regiones",
    "provincias.csv": lambda r: "provincias",
    "comunas.csv": lambda r: "comunas",
    "nombres.csv": lambda r: "nombres_f" if r["sexo"] == "F" else "nombres_m",
    "apellidos.csv": lambda r: "apellidos",
    "calles.csv": lambda r: "avenidas_rm" if r["categoria"] == "avenida_santiago" else "calles",
    "direccion_formato.csv": lambda r: "tipos_via",
    "dominios_email.csv": lambda r: "dominios",
    "bancos.csv": lambda r: "bancos",
    "formas_juridicas.csv": lambda r: "formas",
    "giros.csv": lambda r: "giros",
    "telefonos_validos.csv": lambda r: "moviles",
    "patentes_letras.csv": lambda r: "patentes_letras",
    "patentes_series_antiguas.csv": lambda r: "patentes_series",
    "vehiculos_marcas.csv": lambda r: "marcas",
    "vehiculos_modelos.csv": lambda r: "modelos",
    "vehiculos_colores.csv": lambda r: "colores",
    "prevision.csv": lambda r: "afp",
    "salud.csv": lambda r: "salud",
    "dte_tipos.csv": lambda r: "dte",
    "comunas_abreviaturas.csv": lambda r: "abreviaturas",
}
# CSVs joined to a table by a key, or whose order the generator checks: a swap changes nothing or is
# refused (rightly), so
# one changed value stands in for the swap: (table, old text, new text).
KEYED = {"codigos_postales.csv": ("comunas", "01101,Iquique,1100000,", "01101,Iquique,1100001,"),
         "dominios_email_pesos.csv": ("dominios", "gmail.com,60,", "gmail.com,61,"),
         "bancos_peso.csv": ("bancos", "012,BancoEstado,si,si,0.3516,", "012,BancoEstado,si,si,0.3517,"),
         "sueldos.csv": ("minimos", ",539000,,2026-01-01,", ",539001,,2026-01-01,"),
         "edades.csv": ("edades", "2026,30,no,158371,154274,312645,", "2026,30,no,158371,154274,313645,"),
         "indicadores_mensuales.csv": ("indicadores", "2025-07,39179.01,68923,", "2025-07,39179.02,68923,"),
         "afp_comisiones.csv": ("comisiones_afp", "Modelo,2023-10,0.58,", "Modelo,2023-10,0.59,"),
         "topes_imponibles.csv": ("topes_imponibles", "2025-01,87.8,131.9,", "2025-01,87.9,131.9,"),
         # a bracket's rate and rebaja together, so the tax stays continuous (the generator checks it)
         "impuesto_unico.csv": ("impuesto_unico", "310,40,38.82,", "310,41,41.92,"),
         "remuneracion_tasas.csv": ("impuesto_unico", "gratificacion,25,", "gratificacion,26,")}


def csvs_feeding_tables() -> List[str]:
    with open(os.path.join(ROOT, "tools", "gen", "tablas.py"), encoding="utf-8") as f:
        return sorted(set(re.findall(r'read\("([a-z_]+\.csv)"\)', f.read())))


def first_effective_swap(name: str) -> Optional[Tuple[int, str]]:
    """The first pair of adjacent data rows whose swap changes the generated tables (a swap of
    rows the generator filters out changes no data), and the table its first row feeds."""
    header, rows = csv_rows(os.path.join("c", "data", name))
    original = gen_tables_module(os.path.join(ROOT, "c", "data")).build()
    tmp = os.path.join(WORK, "csvprobe")
    for i in range(len(rows) - 1):
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "c", "data"), tmp)
        swapped = rows[:i] + [rows[i + 1], rows[i]] + rows[i + 2:]
        with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="") as f:
            f.write(header + "".join(swapped))
        try:
            result = gen_tables_module(tmp).build()
        except SystemExit:  # the generator refuses this order (comunas grouped by region)
            continue
        if result != original:
            row = next(csv.DictReader(io.StringIO(header + rows[i])))
            return i, CSV_TABLE[name](row)
    return None


def swap_rows(name: str, i: int) -> Callable[[], None]:
    def apply() -> None:
        header, rows = csv_rows(os.path.join("c", "data", name))
        rows[i], rows[i + 1] = rows[i + 1], rows[i]
        with open(os.path.join(SCRATCH, "c", "data", name), "w", encoding="utf-8", newline="") as f:
            f.write(header + "".join(rows))
        regenerate_tables()
    return apply


def change_weight() -> None:
    """The first given name's frequency, 0.05357441 -> 0.05457441, then the tables regenerated."""
    edit("c/data/nombres.csv", "José,M,1,0.05357441,", "José,M,1,0.05457441,")
    regenerate_tables()


def first_call_number(name: str) -> Tuple[int, int]:
    """The 1-based number of the first golden call of `name`, and the number of calls."""
    with open(os.path.join(ROOT, "fixtures", "golden-sequence.json"), encoding="utf-8") as f:
        calls = json.load(f)["calls"]
    return 1 + next(i for i, c in enumerate(calls) if c["call"] == name), len(calls)


def golden_first_value() -> Tuple[str, str]:
    with open(os.path.join(ROOT, "fixtures", "golden.json"), encoding="utf-8") as f:
        v = json.load(f)["runs"][0]["values"][0]["value"]
    return v, v[:-1] + ("0" if v[-1] != "0" else "1")


# ---- the dataset mode: the fingerprint's dataset stage and the independent re-derivation ------------

def dataset_cases() -> Tuple[str, str]:
    """The labels of the fingerprint's first dataset case and of its first case with unique columns,
    as the runners print them."""
    with open(os.path.join(ROOT, "fixtures", "fingerprint.json"), encoding="utf-8") as f:
        cases = json.load(f)["datasets"]
    label = lambda e: f"{e['call']} {json.dumps(e['options'], ensure_ascii=False, separators=(',', ':'))}"  # noqa: E731
    return label(cases[0]), label(next(e for e in cases if "unico" in e["options"]))


def dataset_mutation(name: str, apply: Callable[[], None], want: str, base: Dict[str, str]) -> None:
    """As `mutation` (every language's contract check fails naming the dataset case and row), and the
    re-derivation written from docs/stream.md fails too, naming a seed and a row."""
    mutation(name, apply, want, base)
    r = sh([PY, "-m", "pytest", os.path.join(ROOT, "tests", "python", "test_tabla_derivacion.py"), "-q", "-x",
            "-p", "no:cacheprovider", "-k", "rederivadas"], env=env_for_scratch(), cwd=WORK)
    said = next((ln.strip() for ln in r.stdout.splitlines() if "derived from docs/stream.md" in ln and ln.lstrip().startswith("E")), "")
    ok = r.returncode == 1 and ", row " in said
    report(ok, f"mutation '{name}': the re-derivation from docs/stream.md fails: " + (said[:240] if ok else r.stdout[-600:]))


# ---- the unit tests must not trust the library's own mod-11 ---------------------------------------

def wrong_dv_for_bodies_ending_in_7() -> None:
    """The mutant that the validator, sharing the generator's mod-11, used to accept."""
    edit("c/src/ns/rut.c", "    uint32_t r = 11 - suma % 11;\n",
         "    uint32_t r = 11 - suma % 11;\n    if (d[0] == '7') r = r == 1 ? 2 : r - 1;\n")


def unit_tests_catch(name: str, apply: Callable[[], None], base: Dict[str, str]) -> None:
    """Apply, rebuild, and require the C RUT and data tests, Python's and Node's rut property to fail."""
    fresh_scratch()
    apply()
    build_scratch(base)
    objs = [os.path.join(OBJ, "mut", obj_name(n)) if os.path.exists(os.path.join(OBJ, "mut", obj_name(n))) else o
            for n, o in base.items()]
    env = env_for_scratch()
    bad = []
    for test in ("test_rut", "test_datos", "test_propiedades"):
        exe = os.path.join(SCRATCH, test)
        must([CC, "-std=c11", "-O1", "-I" + os.path.join(SCRATCH, "c", "include"), "-I" + os.path.join(SCRATCH, "tests", "c"),
              f'-DDT_DATA_DIR="{os.path.join(SCRATCH, "c", "data")}"', f'-DDT_FIXTURES_DIR="{os.path.join(SCRATCH, "fixtures")}"',
              f'-DDT_TESTS_DIR="{os.path.join(SCRATCH, "tests")}"', os.path.join(SCRATCH, "tests", "c", test + ".c"), *objs, "-o", exe])
        if sh([exe], env=env).returncode == 0:
            bad.append(f"C {test} passed")
    r = sh([PY, "-m", "pytest", os.path.join(ROOT, "tests", "python", "test_properties.py"), "-k", "test_rut", "-q",
            "-p", "no:cacheprovider"], env=env, cwd=WORK)
    if r.returncode != 1 or "1 failed" not in r.stdout:
        bad.append(f"Python test_properties.py::test_rut did not fail: {r.stdout.strip().splitlines()[-1:]}")
    r = sh(["node", os.path.join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--root",
            os.path.join(SCRATCH, "tests", "node"), "properties", "-t", "^rut$"], env=env, cwd=WORK)
    if r.returncode == 0 or "fails mod-11" not in r.stdout + r.stderr:
        bad.append("Node properties.test.mjs rut did not fail naming mod-11: " + (r.stdout + r.stderr)[-300:])
    report(not bad, f"mutation '{name}': " + ("C test_rut, test_datos, test_propiedades, Python and Node rut properties fail"
                                               if not bad else "; ".join(bad)))


# ---- the regeneration script's rules ------------------------------------------------------------

def regen(expect_code: int, want: str, label: str) -> bool:
    env = env_for_scratch()
    env.pop("CI", None)  # the script refuses in CI; here it only ever writes the scratch copy
    r = sh([PY, os.path.join(SCRATCH, "tools", "regen_fixtures.py")], env=env, cwd=WORK)
    text = r.stdout + r.stderr
    ok = r.returncode == expect_code and want in text
    detail = next((ln for ln in text.splitlines() if want in ln), text.strip().splitlines()[-1] if text.strip() else "")
    report(ok, f"regen {label}: " + (detail if ok else f"exit {r.returncode}, expected {expect_code} with '{want}':\n    "
                                     + "\n    ".join(text.strip().splitlines()[-6:])))
    return ok


def set_version(major: int, minor: int, data: Optional[int] = None) -> None:
    """Edit the scratch header's versions as a developer would for a release."""
    with open(os.path.join(SCRATCH, "c", "include", "datoteca.h"), encoding="utf-8") as f:
        header = f.read()
    header = re.sub(r"#define DT_VERSION_MAJOR \d+", f"#define DT_VERSION_MAJOR {major}", header)
    header = re.sub(r"#define DT_VERSION_MINOR \d+", f"#define DT_VERSION_MINOR {minor}", header)
    header = re.sub(r'#define DT_VERSION_STRING "[0-9.]+"', f'#define DT_VERSION_STRING "{major}.{minor}.0"', header)
    header = re.sub(r"#define DT_VERSION_PATCH \d+", "#define DT_VERSION_PATCH 0", header)
    if data is not None:
        header = re.sub(r"#define DT_DATA_VERSION \d+", f"#define DT_DATA_VERSION {data}", header)
    with open(os.path.join(SCRATCH, "c", "include", "datoteca.h"), "w", encoding="utf-8") as f:
        f.write(header)


def add_data_version(data: int, first: str) -> None:
    path = os.path.join(SCRATCH, "fixtures", "data-versions.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    doc["first_library_version"][str(data)] = first
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)


def extra_draw() -> None:
    edit("c/src/ns/persona.c", "    p = dt__gen_email(g, nombre, (size_t)(fn - nombre), apellido, (size_t)(fa - apellido), p);\n    return p;",
         "    p = dt__gen_email(g, nombre, (size_t)(fn - nombre), apellido, (size_t)(fa - apellido), p);\n"
         "    (void)dt__next(g);\n    return p;")


def header_major() -> int:
    with open(os.path.join(ROOT, "c", "include", "datoteca.h"), encoding="utf-8") as f:
        return int(re.search(r"^#define DT_VERSION_MAJOR (\d+)", f.read(), re.M).group(1))


def header_version() -> str:
    with open(os.path.join(ROOT, "c", "include", "datoteca.h"), encoding="utf-8") as f:
        return re.search(r'^#define DT_VERSION_STRING "([0-9.]+)"', f.read(), re.M).group(1)


def fixtures_written_by_this_version() -> None:
    """As if the fixtures had been written by the library as it is (the usual state after a release)."""
    with open(os.path.join(SCRATCH, "c", "include", "datoteca.h"), encoding="utf-8") as f:
        version = re.search(r'#define DT_VERSION_STRING "([0-9.]+)"', f.read()).group(1)
    path = os.path.join(SCRATCH, "fixtures", "fingerprint.json")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(re.sub(r'"written_by": "[0-9.]+"', f'"written_by": "{version}"', text))


def release_data_version() -> None:
    """As after a release: the CHANGELOG no longer calls the current data version unreleased."""
    path = os.path.join(SCRATCH, "CHANGELOG.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        # the heading may name more after the data version (", mapping version 2") before "(unreleased)"
        f.write(re.sub(r"^(## .*data version \d+.*?) \(unreleased\)", r"\1", text, flags=re.M))


def regen_rules(base: Dict[str, str]) -> None:
    with open(os.path.join(ROOT, "fixtures", "golden.json"), encoding="utf-8") as f:
        recorded = json.load(f)["data_version"]
    with open(os.path.join(ROOT, "fixtures", "data-versions.json"), encoding="utf-8") as f:
        first_version = json.load(f)["first_library_version"][str(recorded)]
    previous_major = int(first_version.split(".")[0])
    major, new = header_major(), recorded + 1
    next_major = max(major, previous_major + 1)
    # 1. Data changed, no new data version: accepted while that data version is unreleased, refused after.
    fresh_scratch(); extra_draw(); release_data_version(); build_scratch(base)
    regen(1, f"DT_DATA_VERSION is still {recorded}", "refuses changed data without a new data version")
    fresh_scratch(); extra_draw(); build_scratch(base)
    with open(os.path.join(SCRATCH, "CHANGELOG.md"), encoding="utf-8") as f:
        # the data version is unreleased while the section of its first library version says so
        if re.search(rf"^## {re.escape(first_version)} .*data version {recorded}\b.*\(unreleased\)", f.read(), re.M):
            regen(0, f"data version {recorded} is unreleased", "accepts a change within the unreleased data version")
    # 2. A new data version with the major version of the previous one.
    fresh_scratch(); extra_draw(); set_version(previous_major, 9, data=new); add_data_version(new, f"{next_major}.0.0")
    build_scratch(base)
    regen(1, f"data version {new} needs a new major version", "refuses a new data version without a new major version")
    # 3. A new data version and major version, no CHANGELOG section for them.
    fresh_scratch(); extra_draw(); set_version(next_major, 0, data=new); add_data_version(new, f"{next_major}.0.0")
    build_scratch(base)
    regen(1, f"CHANGELOG.md needs a section '## {next_major}.0.0 — data version {new}'",
          "refuses a new data version without a CHANGELOG section")
    # 4. A call inserted in the middle of the sequence shifts later values: not additive.
    def insert(at: Optional[int]) -> None:
        path = os.path.join(SCRATCH, "fixtures", "golden-sequence.json")
        with open(path, encoding="utf-8") as f:
            seq = json.load(f)
        step = {"call": "persona.sexo", "args": {}}
        seq["calls"].insert(len(seq["calls"]) if at is None else at, step)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(seq, f, indent=2, ensure_ascii=False)
    fresh_scratch(); insert(1); release_data_version(); build_scratch(base)
    regen(1, f"DT_DATA_VERSION is still {recorded}", "refuses a call inserted before existing ones")
    # 5. Appended at the end: additive, but once the version is released a new minor version with its
    # CHANGELOG section; while it is unreleased the call joins it.
    fresh_scratch(); insert(None); fixtures_written_by_this_version(); release_data_version(); build_scratch(base)
    regen(1, "an added call or table is a new minor version", "refuses an appended call to a released version without a new minor version")
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        current_unreleased = re.search(rf"^## {re.escape(header_version())} .*\(unreleased\)", f.read(), re.M)
    if current_unreleased:
        fresh_scratch(); insert(None); fixtures_written_by_this_version(); build_scratch(base)
        regen(0, "calls and tables may still be added", "accepts an appended call while its version is unreleased")
    # 6. An edited shipped schema: a change once the version that recorded it is released; a revision
    # while that version is the current one and unreleased.
    retail = lambda: edit("esquemas/retail.toml", '"Arroz grado 2, 1 kg" = 8', '"Arroz grado 2, 1 kg" = 9')  # noqa: E731
    fresh_scratch(); retail(); release_data_version(); build_scratch(base)
    regen(1, f"DT_DATA_VERSION is still {recorded}", "refuses an edited shipped schema once its version is released")
    with open(os.path.join(ROOT, "fixtures", "fingerprint.json"), encoding="utf-8") as f:
        retail_since = next(e["since"] for e in json.load(f)["esquemas"] if e["esquema"] == "retail.toml")
    if current_unreleased and retail_since == header_version():  # a revision only by the version that recorded it
        fresh_scratch(); retail(); build_scratch(base)
        if regen(0, "still unreleased", "accepts a revised shipped schema while the version that recorded it is unreleased"):
            outs = contract_outputs()
            bad = [lang for lang, (code, _) in outs.items() if code != 0]
            report(not bad, "after the schema's revision every language passes the contract"
                   + (f" (failed: {bad}: {outs[bad[0]][1][-400:]})" if bad else ""))
    fresh_scratch(); insert(None); fixtures_written_by_this_version(); set_version(major, 99); build_scratch(base)
    edit("CHANGELOG.md", "\n## ", f"\n## {major}.99.0 — data version {recorded}\n\n- persona.sexo appended to the golden sequence.\n\n## ")
    if regen(0, "an additive change", "accepts an appended call with a new minor version and its CHANGELOG section"):
        outs = contract_outputs()
        bad = [lang for lang, (code, _) in outs.items() if code != 0]
        report(not bad, "after the additive regeneration every language passes the contract"
               + (f" (failed: {bad}: {outs[bad[0]][1][-400:]})" if bad else ""))


def main() -> int:
    t0 = time.time()
    os.makedirs(WORK, exist_ok=True)
    base = base_objects()
    # The harness itself: the unmutated copy must pass everywhere, or a failure proves nothing.
    fresh_scratch()
    build_scratch(base)
    outs = contract_outputs()
    bad = {lang: text for lang, (code, text) in outs.items() if code != 0}
    report(not bad, "unmutated copy passes the contract in c, python and node" + (f": {bad}" if bad else ""))
    if bad:
        print(f"mutations: {passed} passed, {failed} failed")
        return 1

    feeding = csvs_feeding_tables()
    missing = [c for c in feeding if c not in CSV_TABLE and c not in KEYED]
    report(not missing, f"every CSV that feeds a table has a swap mutation ({len(feeding)} CSVs)"
           + (f"; missing: {missing}" if missing else ""))
    for name in feeding:
        if name in KEYED:
            table, old, new = KEYED[name]
            def change(name=name, old=old, new=new) -> None:
                edit(f"c/data/{name}", old, new)
                regenerate_tables()
            mutation(f"one value changed in {name} (rows joined by key, or in an order the generator checks: a swap is not the test)", change,
                     f"table {table}: digest", base)
            continue
        if name not in CSV_TABLE:
            continue
        found = first_effective_swap(name)
        if found is None:
            report(False, f"mutation 'swap rows in {name}': no adjacent swap changes the tables")
            continue
        i, table = found
        mutation(f"swap rows {i + 1} and {i + 2} of {name}", swap_rows(name, i), f"table {table}: digest", base)
    header, rows = csv_rows("c/data/comunas.csv")
    santiago = next(i for i, r in enumerate(rows) if r.startswith("13101,Santiago,"))
    mutation("swap Santiago and Cerrillos in comunas.csv", swap_rows("comunas.csv", santiago), "table comunas: digest", base)
    mutation("one weight changed (José in nombres.csv)", change_weight, "table nombres_m: digest", base)
    n, total = first_call_number("persona.email")
    mutation("one extra draw at the end of persona.email (reported at that call, not the next)", extra_draw,
             f"call {n} of {total} (persona.email): same value, but", base)
    mutation("PCG multiplier changed", lambda: edit("c/src/internal.h", "6364136223846793005ULL", "6364136223846793007ULL"),
             "golden: seed 1, call 1 of ", base)
    # The dataset mode shares no digest with the sequence: these two change every dataset row and no
    # sequence value, so only the dataset stage (and the re-derivation from docs/stream.md) can see them.
    first, first_unico = dataset_cases()
    dataset_mutation("row-stream increment changed (DT__TABLA_STREAM)",
                     lambda: edit("c/src/datos/tabla_interno.h", "0x7461626c61ULL", "0x7461626c62ULL"),
                     f"dataset: {first}, rows 0..9999: row 0 differs", base)
    dataset_mutation("Feistel key schedule changed (ronda << 32 -> << 31 in unico.c)",
                     lambda: edit("c/src/datos/unico.c", "(ronda << 32)", "(ronda << 31)"),
                     f"dataset: {first_unico}, rows 0..9999: row 0 differs", base)
    # The shipped schemas: an edited schema file is named as such before its rows; a changed fan-out
    # weight in the library moves a schema's rows and nothing the other stages see.
    mutation("one weight changed in esquemas/retail.toml",
             lambda: edit("esquemas/retail.toml", '"Arroz grado 2, 1 kg" = 8', '"Arroz grado 2, 1 kg" = 9'),
             "esquema: retail.toml (seed 42): the schema file changed", base)
    mutation("geometric fan-out weights changed (reparto.c)",
             lambda: edit("c/src/esquema/reparto.c", "w = w * (uint64_t)(1000 - param) / 1000;", "w = w * (uint64_t)(1001 - param) / 1000;"),
             "esquema: banco.toml (seed 42), table movimientos: ", base)
    old, new = golden_first_value()
    mutation("one character of golden.json changed", lambda: edit("fixtures/golden.json", f'"value": "{old}"', f'"value": "{new}"'),
             f'(rut): expected "{new}", got "{old}"', base)
    with open(os.path.join(ROOT, "fixtures", "fingerprint.json"), encoding="utf-8") as f:
        t0_digest = json.load(f)["tables"][0]
    flipped = t0_digest["digest"][:-1] + ("0" if t0_digest["digest"][-1] != "0" else "1")
    mutation("one character of fingerprint.json changed",
             lambda: edit("fixtures/fingerprint.json", f'"digest": "{t0_digest["digest"]}"', f'"digest": "{flipped}"'),
             f"table {t0_digest['table']}: digest", base)
    # The masking contract: a changed mapping (the RUT permutation, the persona's subkey) or an edited
    # recorded output is named by case, row and column in every language.
    fresh_scratch()
    build_scratch(base)
    outs = mascara_outputs()
    bad = {lang: text for lang, (code, text) in outs.items() if code != 0}
    report(not bad, "unmutated copy passes the masking contract in " + ", ".join(outs) + (f": {bad}" if bad else ""))
    mascara_mutation("Feistel network of nine rounds instead of ten (mascara_rut.c)",
                     lambda: edit("c/src/mascara/mascara_rut.c", "#define DT__MC_RONDAS 10", "#define DT__MC_RONDAS 9"),
                     "case rut_clases_y_formas, row 1, column rut: expected", base)
    mascara_mutation("the persona's subkey label changed (mascara.h)",
                     lambda: edit("c/src/mascara/mascara.h", '#define DT__MC_ETIQUETA_PERSONA "datoteca/persona/v1"', '#define DT__MC_ETIQUETA_PERSONA "datoteca/persona/v9"'),
                     "case persona_todos_los_campos, row 1, column nombres: expected", base)
    with open(os.path.join(ROOT, "fixtures", "mascara.json"), encoding="utf-8") as f:
        recorded = json.load(f)["casos"][0]["salida"]["filas"][0]
    mascara_mutation("one recorded output of fixtures/mascara.json changed",
                     lambda: edit("fixtures/mascara.json", json.dumps(recorded), json.dumps([recorded[0], recorded[1] + "0"])),
                     "case rut_clases_y_formas, row 1, column rut: expected", base)
    unit_tests_catch("wrong check digit for RUT bodies ending in 7 (generator and validator alike)",
                     wrong_dv_for_bodies_ending_in_7, base)
    regen_rules(base)
    print(f"mutations: {passed} passed, {failed} failed ({time.time() - t0:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
