"""The pytest plugin, run in a throw-away project with pytester."""
import os
import re
import sys

TESTS = """
def test_a(datoteca):
    print("A=" + datoteca.rut())

def test_b(datoteca):
    print("B=" + datoteca.rut())

def test_fails(datoteca):
    assert datoteca.rut() == "no"
"""


def _values(result):
    text = result.stdout.str()
    return dict(re.findall(r"\b([AB])=(\d[\d.]*-[\dK])", text))


def test_header_and_failure_report(pytester):
    pytester.makepyfile(test_x=TESTS)
    result = pytester.runpytest("--datoteca-seed=77", "-s")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["datoteca: base seed 77 (replay with --datoteca-seed=77)"])
    result.stdout.fnmatch_lines(["*datoteca seed: '77:test_x.py::test_fails'*",
                                 "*replay with: cd * && pytest test_x.py::test_fails --datoteca-seed=77*"])


def test_per_test_seeds_do_not_depend_on_order_or_selection(pytester):
    pytester.makepyfile(test_x=TESTS)
    full = _values(pytester.runpytest("-s"))
    only_b = _values(pytester.runpytest("-s", "test_x.py::test_b"))
    assert full["B"] == only_b["B"], (full, only_b)
    assert full["A"] != full["B"]
    other = _values(pytester.runpytest("-s", "--datoteca-seed=5"))
    assert other["A"] != full["A"]


def test_replay_with_the_flag_and_env(pytester, monkeypatch):
    pytester.makepyfile(test_x=TESTS)
    flag = _values(pytester.runpytest("-s", "--datoteca-seed=123"))
    monkeypatch.setenv("DATOTECA_SEED", "123")
    env = _values(pytester.runpytest("-s"))
    assert flag == env


def test_seed_fixture_can_be_overridden(pytester):
    pytester.makeconftest("""
import pytest
@pytest.fixture
def datoteca_seed():
    return 42
""")
    pytester.makepyfile(test_y="""
from datoteca import Datoteca
def test_pinned(datoteca):
    assert datoteca.rut() == Datoteca(seed=42).rut()
""")
    pytester.runpytest().assert_outcomes(passed=1)


def test_bad_base_seed_is_a_usage_error(pytester):
    pytester.makepyfile(test_x=TESTS)
    result = pytester.runpytest("--datoteca-seed=-3")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*--datoteca-seed / DATOTECA_SEED must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got '-3'*"])


# ---- 2.0: seeds from the project root, replay that works pasted, scopes, hex seeds ----------------

PROYECTO = """
import pytest

@pytest.mark.parametrize("caso", ["con espacio", "ñandú(1)", "a[b]"])
def test_alta(datoteca, caso):
    print("VALOR=" + datoteca.rut() + "|" + caso)
    assert False, "fails on purpose"
"""


def _proyecto(pytester):
    pytester.makefile(".toml", pyproject="[project]\nname = 'x'\n")
    tests = pytester.mkdir("tests")
    (tests / "test_alta.py").write_text(PROYECTO, encoding="utf-8")
    return pytester.path, tests


def _valores(text):
    return sorted(re.findall(r"VALOR=(\d[\d.]*-[\dK])\|([^\n]+)", text))


def test_the_same_data_from_every_starting_point(pytester, monkeypatch):
    raiz, tests = _proyecto(pytester)
    vistos = []
    for cwd, target in ((raiz, "tests/test_alta.py"), (tests, "test_alta.py"), (raiz.parent, str(tests / "test_alta.py"))):
        monkeypatch.chdir(cwd)
        r = pytester.runpytest_subprocess("-s", "--tb=no", "-p", "no:cacheprovider", target)
        vistos.append(_valores(r.stdout.str()))
    assert len(vistos[0]) == 3 and vistos[0] == vistos[1] == vistos[2], vistos


def test_the_printed_replay_works_pasted_into_bash(pytester, monkeypatch):
    import subprocess

    raiz, tests = _proyecto(pytester)
    monkeypatch.chdir(raiz.parent)  # started from elsewhere, as an IDE might
    r = pytester.runpytest_subprocess("-s", "--tb=no", "-p", "no:cacheprovider", str(tests / "test_alta.py"),
                                      "--datoteca-seed=0x2a")
    out = r.stdout.str()
    assert "datoteca seeds of the failed tests" in out, out  # the summary survives --tb=no
    comandos = [line.strip() for line in out.splitlines() if line.strip().startswith("cd ")]
    assert len(comandos) == 3, out
    originales = dict((caso, v) for v, caso in _valores(out))
    for comando in comandos:
        # as in a terminal with this environment activated: its pytest first on PATH
        entorno = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
        replay = subprocess.run(["bash", "-c", comando + " -s -p no:cacheprovider"], capture_output=True, text=True,
                                cwd="/", env=entorno)
        valores = _valores(replay.stdout)
        assert len(valores) == 1, (comando, replay.stdout, replay.stderr)
        v, caso = valores[0]
        assert originales[caso] == v, f"{comando}: {v} instead of {originales[caso]}"


def test_junit_xml_carries_the_seed(pytester):
    pytester.makepyfile(test_x=TESTS)
    xml = pytester.path / "junit.xml"
    pytester.runpytest(f"--junitxml={xml}", "--datoteca-seed=77", "-o", "junit_family=xunit1")
    text = xml.read_text(encoding="utf-8")
    assert '<property name="datoteca_seed" value="77:test_x.py::test_fails"' in text, text


def test_hex_seeds_and_the_environment(pytester, monkeypatch):
    pytester.makepyfile(test_x=TESTS)
    dec = _values(pytester.runpytest("-s", "--datoteca-seed=16"))
    hexa = _values(pytester.runpytest("-s", "--datoteca-seed=0x10"))
    monkeypatch.setenv("DATOTECA_SEED", "0X10")
    env = _values(pytester.runpytest("-s"))
    assert dec == hexa == env
    bad = pytester.runpytest("--datoteca-seed=0xZZ")
    assert bad.ret != 0


def test_scoped_fixtures_and_the_alias(pytester):
    pytester.makepyfile(test_s="""
import datoteca
from datoteca import Datoteca

@__import__("pytest").fixture(scope="module")
def clientes(datoteca_modulo):
    return datoteca_modulo.many("persona.persona", 3)

def test_one(clientes, datos, datoteca):
    assert datos is datoteca and isinstance(datoteca, Datoteca)
    assert len(clientes) == 3 and datoteca.__class__.__module__.startswith("datoteca")

def test_two(clientes, datoteca_sesion):
    assert len(clientes) == 3 and datoteca_sesion.rut()
""")
    pytester.runpytest().assert_outcomes(passed=2)
