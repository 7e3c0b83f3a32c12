"""Datasets from Python: slices equal full runs and the CLI's rows, in every option; options are
checked with the library's sentences; 10,000,000 unique persona rows from the CLI repeat nothing."""
import json
import os
import random
import subprocess

import pytest
from stdnum.cl import rut as stdnum_rut

import datoteca
from conftest import ROOT
from datoteca import InvalidArgumentError, Tabla

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))

CASOS = [
    ("persona.persona", {"seed": 11, "unico": ["rut", "email", "telefono"], "nulos": {"comuna": 100}}),
    ("persona.persona", {"seed": "texto", "hoy": "2020-06-30", "edad_min": 0, "edad_max": 17, "campos": ["rut", "email", "fecha_nacimiento"]}),
    ("empresa.empresa", {"seed": 3, "unico": ["rut", "email"], "campos": ["rut", "razon_social", "email", "codigo_comuna"]}),
    ("direccion.direccion", {"seed": 5, "nulos": {"depto": 500}, "region": 13}),
    ("rut", {"seed": 8, "tipo": "empresa", "formato": "guion", "unico": ["rut"]}),
    ("dinero.sueldo", {"seed": 9, "nulos": {"sueldo": 10}}),
]


def _cli_args(call, o):
    args = ["tabla", call]
    for k, v in o.items():
        if k == "seed":
            args += ["--seed-str" if isinstance(v, str) else "--seed", str(v)]
        elif k in ("campos", "unico"):
            args += [f"--{k}", ",".join(v)]
        elif k == "nulos":
            args += ["--nulos", ",".join(f"{c}:{p}" for c, p in v.items())]
        else:
            args += [f"--{k}", str(v)]
    return args


@pytest.mark.parametrize("call,opciones", CASOS, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASOS)])
def test_slices_equal_full_runs_and_the_cli(call, opciones):
    t = Tabla(call, **opciones)
    n = 5000
    todo = t.filas(n)
    rng = random.Random(call)
    for k in range(6):
        desde = rng.randrange(n)
        m = rng.randrange(1, n - desde + 1)
        assert t.filas(m, desde=desde) == todo[desde:desde + m], f"{call} {opciones}: slice {k}, rows {desde}..{desde + m}"
        assert datoteca.tabla(call, m, desde=desde, **opciones) == todo[desde:desde + m]
    for desde, m in ((0, 50), (4321, 7), (n - 1, 1)):
        out = subprocess.run([CLI, *_cli_args(call, opciones), "--desde", str(desde), "-n", str(m)],
                             check=True, capture_output=True, text=True).stdout
        cli = [json.loads(line) for line in out.splitlines()]
        assert cli == todo[desde:desde + m], f"{call} {opciones}: CLI rows {desde}..{desde + m} differ from Python's"


def test_columns_types_and_ddl():
    t = Tabla("direccion.direccion", seed=1, campos=["numero", "linea", "depto"], nulos={"depto": 100})
    assert [(c["nombre"], c["tipo_sql"], c["nulable"]) for c in t.columnas] == [
        ("numero", "integer", False), ("linea", "text", False), ("depto", "text", True)]
    assert isinstance(t.filas(1)[0]["numero"], int)
    assert t.ddl("postgresql", "dir") == "CREATE TABLE dir (\n    numero integer NOT NULL,\n    linea text NOT NULL,\n    depto text\n);\n"
    assert datoteca.ddl("persona.persona", "sqlite", unico=["rut"], campos=["rut"]) == \
        "CREATE TABLE persona (\n    rut TEXT NOT NULL PRIMARY KEY\n);\n"
    assert Tabla("empresa.rut", unico=["rut"]).capacidad == 2_000_000
    assert Tabla("rut").capacidad == 2**63


@pytest.mark.parametrize("kwargs,error,message", [
    ({"unico": ["nombres"]}, InvalidArgumentError, "persona.persona: column 'nombres' cannot be unique; unique columns are rut, email, telefono"),
    ({"campos": ["rut", "nada"]}, InvalidArgumentError, "persona.persona: campos: 'nada' is not a column; its columns are nombres,"),
    ({"nulos": {"email": 1001}}, InvalidArgumentError,
     "persona.persona: nulos: 'email:1001' must be column:per-mille with an integer from 0 to 1000 (\"email:100\")"),
    ({"nulos": {"email": -1}}, InvalidArgumentError,
     "persona.persona: nulos: 'email:-1' must be column:per-mille with an integer from 0 to 1000 (\"email:100\")"),
    ({"unico": ["rut"], "nulos": {"rut": 5}}, InvalidArgumentError, "persona.persona: column 'rut' is unique and cannot also have nulls"),
    ({"edad_min": 50, "edad_max": 20}, InvalidArgumentError, "persona.persona: edad_min must not exceed edad_max, got edad_min=50, edad_max=20"),
    ({"sexo": "X"}, InvalidArgumentError, "persona.persona: sexo must be one of 'cualquiera', 'F', 'M', got 'X'"),
    ({"bogus": 1}, TypeError, "persona.persona() got an unexpected argument 'bogus'"),
    ({"nulos": ["email"]}, TypeError, "nulos must be a mapping"),
    ({"seed": -1}, ValueError, "seed must be an int in [0, 2**64) or a str, got -1"),
])
def test_bad_options_say_what_is_wrong(kwargs, error, message):
    with pytest.raises(error) as e:
        Tabla("persona.persona", **kwargs)
    assert str(e.value).startswith(message), str(e.value)


def test_rows_past_the_capacity_are_refused():
    t = Tabla("empresa.rut", unico=["rut"])
    assert len(t.filas(3, desde=t.capacidad - 3)) == 3
    with pytest.raises(InvalidArgumentError, match="there is room for 2000000 rows"):
        t.filas(2, desde=t.capacidad - 1)


def test_ten_million_unique_personas_from_the_cli():
    """The issue's check: 10,000,000 persona rows with unico=rut,email, no value twice, every RUT
    valid (a mod-11 written here on all of them, python-stdnum on a sample)."""
    proc = subprocess.Popen([CLI, "tabla", "persona", "-n", "10000000", "--seed", "1", "--unico", "rut,email",
                             "--campos", "rut,email", "--format", "plain", "--jobs", "2"], stdout=subprocess.PIPE)
    ruts, emails = set(), set()
    n = 0
    for line in proc.stdout:
        rut, email = line.rstrip(b"\n").split(b"\t")
        ruts.add(rut)
        emails.add(email)
        n += 1
    assert proc.wait() == 0
    assert n == 10_000_000 and len(ruts) == n and len(emails) == n, f"{n} rows, {len(ruts)} RUTs, {len(emails)} emails"
    for i, r in enumerate(ruts):
        cuerpo, dv = r.decode().replace(".", "").split("-")
        s = sum(int(d) * (2 + k % 6) for k, d in enumerate(reversed(cuerpo)))
        esperado = {11: "0", 10: "K"}.get(11 - s % 11, str(11 - s % 11))
        assert dv == esperado, f"RUT {r!r}: check digit {dv}, expected {esperado}"
        if i % 100 == 0:
            assert stdnum_rut.is_valid(r.decode()), r
