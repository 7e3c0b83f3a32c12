"""The registry-driven argument cases (tests/casos_argumentos.json, generated from spec/llamadas.toml):
the CLI and Python give the same value for every accepted case, and the library's sentence for
every refused one (Python raises it as InvalidArgumentError). C and Node run the same cases."""
import json
import os
import subprocess

import pytest

from conftest import ROOT
from datoteca import Datoteca, InvalidArgumentError

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
with open(os.path.join(ROOT, "tests", "casos_argumentos.json"), encoding="utf-8") as _f:
    CASES = json.load(_f)["cases"]


def _cli(call, args):
    flags = [x for k, v in args.items() for x in (f"--{k}", str(v))]
    return subprocess.run([CLI, call, "--seed", "7", "-n", "1", "--format", "plain", *flags], capture_output=True, text=True)


def test_there_are_cases_for_every_call():
    import datoteca

    assert {c["call"] for c in CASES} == set(datoteca.calls())
    assert sum(c["expect"] != "ok" for c in CASES) >= 30


@pytest.mark.parametrize("i", range(len(CASES)))
def test_case(i):
    case = CASES[i]
    call, args, expect = case["call"], case["args"], case["expect"]
    where = f"argument case {i + 1}, {call} {args}"
    cli = _cli(call, args)
    if expect == "ok":
        value = Datoteca(seed=7).call(call, **args)
        text = "\t".join("" if v is None else str(v) for v in value.values()) if isinstance(value, dict) else str(value)
        assert cli.returncode == 0, f"{where}: the CLI refused: {cli.stderr}"
        assert cli.stdout == text + "\n", f"{where}: CLI {cli.stdout!r}, Python {text!r}"
    else:
        with pytest.raises(InvalidArgumentError) as info:
            Datoteca(seed=7).call(call, **args)
        assert str(info.value) == expect, f"{where}: Python said {str(info.value)!r}"
        assert cli.returncode == 2 and cli.stderr == f"datoteca: {expect}\n", f"{where}: the CLI said {cli.stderr!r}"


def test_the_declared_examples_are_what_seed_42_gives():
    """spec/llamadas.toml's `ejemplo` of every text or integer call is the first value for seed 42 (the
    README and docs/api.md show it), so the docs cannot drift from the data."""
    import tomllib

    with open(os.path.join(ROOT, "spec", "llamadas.toml"), "rb") as f:
        decl = tomllib.load(f)
    for ll in decl["llamada"]:
        if ll["clase"] != "registro":
            value = str(Datoteca(seed=42).call(ll["nombre"]))
            assert value == ll["ejemplo"], f"{ll['nombre']}: the declaration's example is {ll['ejemplo']!r}, seed 42 gives {value!r}"
