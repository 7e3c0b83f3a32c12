"""The pytest plugin, run in a throw-away project with pytester."""
import re

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
    result.stdout.fnmatch_lines(["*datoteca seed: '77:test_x.py::test_fails'*", "*replay with: pytest test_x.py::test_fails --datoteca-seed=77*"])


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
    result.stderr.fnmatch_lines(["*--datoteca-seed / DATOTECA_SEED must be an integer in [0, 2**64), got -3*"])
