"""datoteca enmascarar's streams (docs/enmascarar.md, "JSON Lines" and "--jobs"): JSON Lines in and out,
and --jobs N. Judged from outside the masking code: the JSONL output is read back with Python's json
module and compared value by value with the CSV output of the same rows read with the csv module (two
readers, two writers, one plan); --jobs 2 and 3 are compared byte for byte with --jobs 1 on 200,000
rows; the refusals name the line (and the row and column) and never hold the value, which is a planted
canary searched for in every byte of stderr. The keys are fixed, so a failure is reproducible."""
import csv
import io
import json
import os
import subprocess

import pytest

import datoteca
from test_enmascarar import CAMPOS, CLAVE_A, CLAVE_B, CLI, PLANTADOS, PRUEBA, REGLAS_CLIENTES

N = 3000
N_GRANDE = 200_000
CANARIO = "Wenceslao Tiburcio Quilodrán Echaurren"  # a planted name: never in any message


def _run(tmp_path, reglas, entrada=b"", extra=(), clave=CLAVE_A, env_clave=None, nombre="reglas.toml"):
    r = tmp_path / nombre
    r.write_text(reglas)
    args = [CLI, "enmascarar", "--reglas", str(r), PRUEBA]  # CLAVE_A is the test key (test_enmascarar.PRUEBA)
    env = dict(os.environ)
    env.pop("DATOTECA_CLAVE", None)
    if env_clave is not None:
        env["DATOTECA_CLAVE"] = env_clave
    else:
        k = tmp_path / "clave.hex"
        k.write_text(clave + "\n")
        k.chmod(0o600)
        args += ["--clave-archivo", str(k)]
    return subprocess.run(args + [str(a) for a in extra], input=entrada, capture_output=True, env=env)


def _jsonl(filas, columnas, ascii_=False):
    return "".join(json.dumps({c: f[c] for c in columnas}, ensure_ascii=ascii_) + "\n" for f in filas).encode()


def _csv(filas, columnas):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columnas)
    for f in filas:
        w.writerow([f[c] for c in columnas])
    return out.getvalue().encode()


COLUMNAS = ["id"] + CAMPOS + ["notas"]


@pytest.fixture(scope="module")
def filas():
    personas = list(datoteca.Tabla("persona.persona", seed=77, campos=CAMPOS).filas(N - len(PLANTADOS))) + PLANTADOS
    # notas holds quotes, commas, a line break and a tab: the two formats escape them differently
    return [dict(p, id=str(i + 1), notas=f'dijo "hola", {p["rut"]}\n\tfin') for i, p in enumerate(personas)]


@pytest.fixture(scope="module")
def grande(tmp_path_factory):
    """200,000 persona rows as CSV and as JSONL (written by Python from the CSV, not by the CLI)."""
    t = tmp_path_factory.mktemp("grande")
    cols = CAMPOS
    tabla = datoteca.Tabla("persona.persona", seed=5, campos=cols)
    csv_p, jsonl_p = t / "g.csv", t / "g.jsonl"
    with open(csv_p, "w", newline="", encoding="utf-8") as fc, open(jsonl_p, "w", encoding="utf-8") as fj:
        w = csv.writer(fc, lineterminator="\n")
        w.writerow(cols)
        for f in tabla.filas(N_GRANDE):
            w.writerow([f[c] for c in cols])
            fj.write(json.dumps(f, ensure_ascii=False) + "\n")
    reglas = "\n".join(l for l in REGLAS_CLIENTES.splitlines() if not l.startswith(("id ", "notas "))) + "\n"
    return {"csv": csv_p, "jsonl": jsonl_p, "reglas": reglas, "dir": t}


def test_jsonl_gives_the_csv_s_values(filas, tmp_path):
    c = _run(tmp_path, REGLAS_CLIENTES, _csv(filas, COLUMNAS))
    assert c.returncode == 0, c.stderr.decode()
    j = _run(tmp_path, REGLAS_CLIENTES, _jsonl(filas, COLUMNAS), extra=["--formato", "jsonl"])
    assert j.returncode == 0 and j.stderr == b"", j.stderr.decode()
    de_csv = list(csv.DictReader(io.StringIO(c.stdout.decode())))
    de_jsonl = [json.loads(l) for l in j.stdout.decode().splitlines()]
    assert len(de_csv) == len(de_jsonl) == len(filas)
    salida = [k for k in COLUMNAS if k != "notas"]  # notas = borrar
    for i, (a, b) in enumerate(zip(de_csv, de_jsonl)):
        assert list(b) == salida, f"row {i + 1}: JSONL keys {list(b)}, expected the input's order {salida}"
        for k in salida:
            assert a[k] == b[k], f"row {i + 1}, column {k}: CSV gave {a[k]!r}, JSONL {b[k]!r}"
        assert b["rut"] != filas[i]["rut"], f"row {i + 1}: the rut passed through"
    # \u escapes and raw UTF-8 are the same text: the same output bytes
    j2 = _run(tmp_path, REGLAS_CLIENTES, _jsonl(filas, COLUMNAS, ascii_=True), extra=["--formato", "jsonl"])
    assert j2.returncode == 0 and j2.stdout == j.stdout, "JSONL with \\u escapes gave other bytes than raw UTF-8"
    assert CANARIO.encode() not in j.stdout


def test_jsonl_key_order_follows_the_first_line_and_values_keep_their_kind(tmp_path):
    reglas = """version = 1
[columnas]
rut = { regla = "rut" }
email = { regla = "persona", campo = "email", entidad = "rut" }
codigo = { regla = "persona", campo = "codigo_comuna", entidad = "rut" }
saldo = { regla = "mantener" }
activo = { regla = "mantener" }
obs = { regla = "nulo" }
vacio = { regla = "mantener" }
num_rut = { regla = "rut" }
"""
    lineas = [
        {"rut": "12.345.678-5", "email": "x@y.cl", "codigo": 13101, "saldo": 12.5, "activo": True, "obs": "secreto",
         "vacio": "", "num_rut": 123456785},
        # another key order: the output keeps the first line's
        {"num_rut": None, "vacio": None, "obs": None, "activo": False, "saldo": -3, "codigo": None, "email": None,
         "rut": None},
        {"rut": "1.000.000-9", "email": "", "codigo": "13101", "saldo": 0, "activo": None, "obs": "", "vacio": "",
         "num_rut": "12345678-5"},
    ]
    p = _run(tmp_path, reglas, "".join(json.dumps(l) + "\n" for l in lineas).encode(), extra=["--formato", "jsonl"])
    assert p.returncode == 0, p.stderr.decode()
    out = [json.loads(l) for l in p.stdout.decode().splitlines()]
    assert [list(o) for o in out] == [list(lineas[0])] * 3
    a, b, c = out
    # 12.345.678-5 -> 1.192.169-8 under the test key (docs/enmascarar.md, known answers)
    # a number under a rule is read as its text; what a rule writes is text (the column keeps one kind)
    assert a["rut"] == "1.192.169-8" and a["num_rut"] == "11921698", a
    assert isinstance(a["codigo"], str) and len(a["codigo"]) == 5 and a["codigo"].isdigit(), a
    assert a["saldo"] == 12.5 and a["activo"] is True and a["vacio"] == "", "mantener keeps the value and its kind"
    assert a["obs"] is None, "nulo: a value emptied is null in JSON"
    assert a["email"] != "x@y.cl" and "@" in a["email"]
    assert all(b[k] is None for k in ("rut", "email", "codigo", "obs", "vacio", "num_rut")), f"null stays null: {b}"
    assert b["saldo"] == -3 and b["activo"] is False
    assert c["rut"] == "3.635.239-6" and c["email"] == "" and isinstance(c["codigo"], str), c
    assert c["activo"] is None and c["obs"] == "" and c["num_rut"] == "1192169-8"


@pytest.mark.parametrize("formato", ["csv", "jsonl"])
def test_jobs_1_2_3_give_the_same_bytes(grande, formato):
    t = grande["dir"]
    r = t / "reglas.toml"
    r.write_text(grande["reglas"])
    env = dict(os.environ, DATOTECA_CLAVE=CLAVE_B)
    salidas = {}
    for jobs in (1, 2, 3):
        dst = t / f"o{jobs}.{formato}"
        p = subprocess.run([CLI, "enmascarar", "--reglas", str(r), PRUEBA, "--entrada", str(grande[formato]), "--salida", str(dst),
                            "--jobs", str(jobs)], capture_output=True, env=env)
        assert p.returncode == 0 and p.stderr == b"", f"{formato}, --jobs {jobs}: exit {p.returncode}: {p.stderr.decode()}"
        salidas[jobs] = dst.read_bytes()
    n = salidas[1].count(b"\n")
    assert n == N_GRANDE + (formato == "csv"), f"{formato}: {n} lines, expected {N_GRANDE} rows"
    for jobs in (2, 3):
        if salidas[jobs] != salidas[1]:
            a, b = salidas[1].splitlines(), salidas[jobs].splitlines()
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            pytest.fail(f"{formato}: --jobs {jobs} differs from --jobs 1 first at output line {i + 1} "
                        f"({len(b)} lines vs {len(a)})")
    # stdout gives the same bytes as --salida
    with open(grande[formato], "rb") as f:
        p = subprocess.run([CLI, "enmascarar", "--reglas", str(r), PRUEBA, "--formato", formato, "--jobs", "2"], stdin=f,
                           capture_output=True, env=env)
    assert p.returncode == 0 and p.stdout == salidas[1], f"{formato}: stdout with --jobs 2 differs from --salida"


@pytest.mark.parametrize("formato", ["csv", "jsonl"])
def test_the_first_bad_row_is_named_whatever_the_jobs(grande, formato, tmp_path):
    """A RUT with a wrong check digit and a malformed line, 7, 1,500 and 30,000 rows apart (in one block, in
    blocks of one round, in other rounds), each first in turn: the first is named with 1, 2 and 3 jobs."""
    r = tmp_path / "reglas.toml"
    r.write_text(grande["reglas"])
    env = dict(os.environ, DATOTECA_CLAVE=CLAVE_A)
    lineas = grande[formato].read_bytes().split(b"\n")
    cab = formato == "csv"  # the CSV's header is line 1: data row f is line f + 1

    def rut_malo_en(lin):
        original = lineas[lin - 1]
        bueno = (json.loads(original)["rut"] if formato == "jsonl"
                 else next(csv.reader([original.decode()]))[CAMPOS.index("rut")])
        cuerpo, dv = bueno.rsplit("-", 1)
        malo = f"{cuerpo}-{'0' if dv != '0' else '1'}"
        return original.replace(bueno.encode(), malo.encode(), 1), malo

    # a cut object / a quote never closed (it runs to the end of the input)
    mala = b'{"rut": "' + CANARIO.encode() + b'", "nombres": ' if formato == "jsonl" else b'"' + CANARIO.encode()
    for primera, segunda in ((50_001, 50_008), (50_001, 51_501), (50_001, 80_001)):
        for rut_primero in (True, False):
            f_rut, f_mala = (primera, segunda) if rut_primero else (segunda, primera)
            con_rut, malo = rut_malo_en(f_rut + cab)
            copia = list(lineas)
            copia[f_rut + cab - 1] = con_rut
            copia[f_mala + cab - 1] = mala
            entrada = b"\n".join(copia)
            esperado = f"row {f_rut}, column rut" if rut_primero else f"line {f_mala + cab}"
            for jobs in (1, 2, 3):
                dst = tmp_path / f"o.{formato}"
                p = subprocess.run([CLI, "enmascarar", "--reglas", str(r), PRUEBA, "--formato", formato, "--salida", str(dst),
                                    "--jobs", str(jobs)], input=entrada, capture_output=True, env=env)
                err = p.stderr.decode()
                donde = f"{formato}, rows {primera} and {segunda}, --jobs {jobs}"
                assert p.returncode == 2, f"{donde}: exit {p.returncode}: {err}"
                assert esperado in err and err.count("\n") == 1, f"{donde}: expected {esperado!r}, got {err!r}"
                assert malo not in err and CANARIO not in err and CLAVE_A not in err, f"{donde}: a value in {err!r}"
                assert not dst.exists() and not list(tmp_path.glob("o.*.tmp-*")), f"{donde}: a refused run left a file"


JSONL_RECHAZOS = [
    (b'{"rut": "1-9", "x": 1}\n{"rut": "1-9"}\n', "line 2 (row 2) lacks the key 'x' of the first line"),
    (b'{"rut": "1-9"}\n{"rut": "1-9", "' + CANARIO.encode() + b'": 1}\n', "line 2 (row 2): its key 2 is not a key"),
    (b'{"rut": "1-9"}\n\n{"rut": "1-9"}\n', "line 2, byte 1: the line is empty"),
    (b'{"rut": "1-9"}\n[1, 2]\n', "line 2, byte 1: the line is not a JSON object"),
    (b'{"rut": "1-9"}\n{"rut": "1-9"} {"rut": "' + CANARIO.encode() + b'"}\n', "line 2, byte 16: text after the object"),
    (b'{"rut": "1-9"}\n{"rut": {"n": "' + CANARIO.encode() + b'"}}\n', "the value of key 1 is an object"),
    (b'{"rut": "1-9"}\n{"rut": ["' + CANARIO.encode() + b'"]}\n', "the value of key 1 is an array"),
    (b'{"rut": "1-9", "rut": "' + CANARIO.encode() + b'"}\n', "key 2 is key 1 again"),
    (b'{"rut": "' + CANARIO.encode() + b'\xff"}\n', "the value of key 1: not valid UTF-8"),
    (b'{"rut": "' + CANARIO.encode() + b'\t"}\n', "a control character (U+0009)"),
    (b'{"rut": "' + CANARIO.encode() + b'\\q"}\n', "an invalid escape"),
    (b'{"rut": "\\ud800' + CANARIO.encode() + b'"}\n', "a lone surrogate"),
    (b'{"rut": 01}\n', "expected ',' or '}' after the value of key 1"),
    (b'{"rut": 1.}\n', "the value of key 1 is not a JSON value"),
    (b'{"rut": nul}\n', "the value of key 1 is not a JSON value"),
    (b'{"rut": "1-9",}\n', "a comma before '}'"),
    (b'{"rut": "' + CANARIO.encode(), "a string is not closed on its line"),
    (b'{"rut": "1-9"', "expected ',' or '}' after the value of key 1, got the end of the line (is the object cut?)"),
    (b'{"rut" "1-9"}\n', "expected ':' after key 1"),
    (b'{"rut": "12.345.678-4"}\n', "line 1: row 1, column rut: not a valid RUT"),
    (b'{"rut": "' + CANARIO.encode() + b'"}\n', "line 1: row 1, column rut: not a valid RUT"),
]


@pytest.mark.parametrize("entrada,esperado", JSONL_RECHAZOS, ids=range(len(JSONL_RECHAZOS)))
def test_jsonl_refusals_name_the_line_never_the_value(tmp_path, entrada, esperado):
    reglas = 'version = 1\n[politica]\nsin_regla = "mantener"\n[columnas]\nrut = { regla = "rut" }\n'
    for jobs in (1, 2):
        p = _run(tmp_path, reglas, entrada, extra=["--formato", "jsonl", "--jobs", jobs, "--salida", tmp_path / "o.jsonl"])
        err = p.stderr.decode("utf-8", "replace")
        assert p.returncode == 2, f"--jobs {jobs}: exit {p.returncode}, stderr {err!r}"
        assert esperado in err, f"--jobs {jobs}: expected {esperado!r} in {err!r}"
        assert CANARIO.encode() not in p.stderr and b"12.345.678-4" not in p.stderr and b"Wences" not in p.stderr
        assert not (tmp_path / "o.jsonl").exists()


def test_format_selection_and_option_refusals(tmp_path):
    reglas = 'version = 1\n[columnas]\na = { regla = "mantener" }\n'
    j = tmp_path / "in.jsonl"
    j.write_bytes(b'{"a": "x"}\n')
    c = tmp_path / "in.csv"
    c.write_bytes(b"a\nx\n")
    # by --entrada's extension, by --salida's, by --formato, and CSV for stdin by default
    assert _run(tmp_path, reglas, extra=["--entrada", j]).stdout == b'{"a":"x"}\n'
    p = _run(tmp_path, reglas, b'{"a": "x"}\n', extra=["--salida", tmp_path / "o.ndjson"])
    assert p.returncode == 0 and (tmp_path / "o.ndjson").read_bytes() == b'{"a":"x"}\n'
    assert _run(tmp_path, reglas, b'{"a": "x"}\n', extra=["--formato", "jsonl"]).stdout == b'{"a":"x"}\n'
    assert _run(tmp_path, reglas, b"a\nx\n").stdout == b"a\nx\n"
    assert _run(tmp_path, reglas, extra=["--entrada", c, "--formato", "csv"]).stdout == b"a\nx\n"
    # an empty JSON Lines input is no rows (nothing to bind the rules to); an empty CSV has no header
    p = _run(tmp_path, reglas, b"", extra=["--formato", "jsonl"])
    assert p.returncode == 0 and p.stdout == b""
    assert _run(tmp_path, reglas, b"").returncode == 2
    for extra, esperado in [
        (["--entrada", j, "--salida", tmp_path / "o.csv"], "the output has the input's format"),
        (["--formato", "xml"], "--formato must be csv or jsonl"),
        (["--jobs", "0"], "--jobs must be an integer from 1 to 64"),
        (["--jobs", "65"], "--jobs must be an integer from 1 to 64"),
        (["--jobs", CLAVE_B], "--jobs must be an integer from 1 to 64"),
        (["--formato", CLAVE_B], "--formato must be csv or jsonl"),
        (["--entrada", tmp_path / "no-existe.jsonl"], "cannot open the input"),
    ]:
        p = _run(tmp_path, reglas, b"a\nx\n", extra=extra)
        err = p.stderr.decode()
        assert p.returncode == 2 and esperado in err, f"{extra}: exit {p.returncode}, {err!r}"
        assert CLAVE_B not in err and CLAVE_A not in err, f"{extra}: a key-like argument echoed: {err!r}"
    assert not (tmp_path / "o.csv").exists()


def test_the_key_is_never_printed(filas, tmp_path):
    entrada = _jsonl(filas, COLUMNAS)
    for extra in (["--formato", "jsonl", "--jobs", "2"], ["--formato", "jsonl", "--jobs", "3", "--salida", tmp_path / "o.jsonl"]):
        p = _run(tmp_path, REGLAS_CLIENTES, entrada, extra=extra, env_clave=CLAVE_B)
        assert p.returncode == 0, p.stderr.decode()
        todo = p.stdout + p.stderr + ((tmp_path / "o.jsonl").read_bytes() if (tmp_path / "o.jsonl").exists() else b"")
        for k in (CLAVE_B, CLAVE_B.upper(), bytes.fromhex(CLAVE_B).hex()[:16]):
            assert k.encode() not in todo, f"{extra}: part of the key in the output"
    mal = entrada.replace(b'"rut": "', b'"rut": "x', 1)
    p = _run(tmp_path, REGLAS_CLIENTES, mal, extra=["--formato", "jsonl", "--jobs", "2"], env_clave=CLAVE_B)
    assert p.returncode == 2 and CLAVE_B.encode()[:16] not in p.stderr + p.stdout


def _rss_kib(args, entrada_path, env):
    with open(entrada_path, "rb") as f, open(os.devnull, "wb") as nul:
        p = subprocess.Popen(args, stdin=f, stdout=nul, stderr=subprocess.PIPE, env=env)
        _, status, uso = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, p.stderr.read().decode()
    return uso.ru_maxrss


@pytest.mark.parametrize("formato,jobs", [("jsonl", 1), ("csv", 2), ("jsonl", 3)])
def test_memory_does_not_grow_with_the_input(filas, tmp_path, formato, jobs):
    r = tmp_path / "reglas.toml"
    r.write_text(REGLAS_CLIENTES)
    env = dict(os.environ, DATOTECA_CLAVE=CLAVE_A)
    if formato == "csv":
        cabecera, _, cuerpo = _csv(filas, COLUMNAS).partition(b"\n")
        cabecera += b"\n"
    else:
        cabecera, cuerpo = b"", _jsonl(filas, COLUMNAS)
    # the small input fills every block slot (two rounds of `jobs` blocks of 1,024 rows): 12,000 rows;
    # the large one is 150,000 rows, about 50 MB
    chico, grande = tmp_path / "chico", tmp_path / "grande"
    for ruta, veces in ((chico, 4), (grande, 50)):
        with open(ruta, "wb") as f:
            f.write(cabecera)
            for _ in range(veces):
                f.write(cuerpo)
    args = [CLI, "enmascarar", "--reglas", str(r), PRUEBA, "--formato", formato, "--jobs", str(jobs)]
    a, b = _rss_kib(args, chico, env), _rss_kib(args, grande, env)
    assert b < a + 2048, f"{formato}, --jobs {jobs}: peak RSS {a} KiB for {4 * N} rows, {b} KiB for {50 * N}: it grows"


def test_a_killed_run_leaves_no_file_that_looks_complete(tmp_path, filas):
    """SIGKILL halfway through a --salida run (the input fed slowly through a pipe): the output file does
    not exist, at most its temporary FILE.tmp-XXXXXX does (mode 0600), and the run's status says killed."""
    import signal
    import time

    r = tmp_path / "reglas.toml"
    r.write_text(REGLAS_CLIENTES)
    k = tmp_path / "clave.hex"
    k.write_text(CLAVE_A + "\n")
    k.chmod(0o600)
    salida = tmp_path / "enmascarado.csv"
    entrada = _csv(filas, COLUMNAS)
    p = subprocess.Popen([CLI, "enmascarar", "--reglas", str(r), PRUEBA, "--clave-archivo", str(k), "--salida", str(salida)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(entrada[: len(entrada) // 2])
    p.stdin.flush()
    time.sleep(0.5)  # it has read and written what it was given, and waits for more
    p.send_signal(signal.SIGKILL)
    p.wait()
    p.stdin.close()
    assert p.returncode == -signal.SIGKILL
    assert not salida.exists(), "a killed run left enmascarado.csv"
    restos = list(tmp_path.glob("enmascarado.csv.tmp-*"))
    assert len(restos) <= 1 and all(oct(x.stat().st_mode & 0o777) == "0o600" for x in restos), restos
