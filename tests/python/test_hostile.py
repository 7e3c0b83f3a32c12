"""Hostile input through the Python binding: every bad call raises a clear exception, never
crashes, and leaves the instance's stream exactly where it was. Plus threads."""
import json
import os
import threading

import pytest

import datoteca
from datoteca import Datoteca
from datoteca import _lib

BAD_VALUES = [
    ("list", []), ("dict", {}), ("object", object()), ("bytes", b"1"), ("float", 1.5), ("nan", float("nan")),
    ("inf", float("inf")), ("-inf", float("-inf")), ("bool", True), ("complex", 1j), ("-1", -1), ("2**63", 2**63),
    ("2**64", 2**64), ("-2**63-1", -(2**63) - 1), ("10**100", 10**100), ("empty str", ""), ("1 MB str", "9" * 1_000_000),
    ("NUL", "\x00"), ("lone surrogate", "\ud800"),
]

def _method(d, dotted):
    for part in dotted.split("."):
        d = getattr(d, part)
    return d


def _target(entry):
    method, param, position = entry["python"], entry["param"], entry["position"]
    if position == 0:  # positionally, as most people call it
        return (f"{method}({param})", lambda d, v: _method(d, method)(v))
    return (f"{method}({param}=)", lambda d, v: _method(d, method)(**{param: v}))


with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "casos_argumentos.json"),
          encoding="utf-8") as _f:
    _HOSTILE = json.load(_f)["hostile"]

# (method, the argument it receives): every parameter of every generating call, from the registry's
# declaration (tests/casos_argumentos.json), then the hand-written API beside the calls
TARGETS = [_target(e) for e in _HOSTILE] + [
    ("integer(lo)", lambda d, v: d.integer(v, 10)), ("integer(hi)", lambda d, v: d.integer(0, v)),
    ("many(n)", lambda d, v: d.many("rut", v)), ("many(name)", lambda d, v: d.many(v, 1)),
    ("call(name)", lambda d, v: d.call(v)), ("call(kwarg)", lambda d, v: d.call("rut", tipo=v)),
    ("restore_state", lambda d, v: d.restore_state(v)),
]


class EvilInt(int):
    def __hash__(self):
        raise RuntimeError("hash refused")


class EvilStr(str):
    def encode(self, *a, **k):
        raise RuntimeError("encode refused")


# The pairs above that are valid input: integer(-1, 10), and -1 for a parameter whose declared range
# holds it (fecha.fecha's desde and hasta are days relative to hoy; hasta=-1 with desde's default -365).
VALID = {("integer(lo)", "-1")} | {(_target(e)[0], "-1") for e in _HOSTILE if e["call"].startswith("fecha.")}
CASES = [(t, vname, fn, v) for t, fn in TARGETS for vname, v in BAD_VALUES if (t, vname) not in VALID]


def test_table_size():
    assert len(CASES) >= 400


@pytest.mark.parametrize("target,vname,fn,value", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_bad_argument_raises_and_leaves_the_stream(target, vname, fn, value):
    d, ref = Datoteca(seed=31), Datoteca(seed=31)
    if target.startswith("many(n)") and vname in ("-1", "2**63", "2**64", "-2**63-1", "10**100"):
        expected = (ValueError,)
    else:
        expected = (TypeError, ValueError)
    with pytest.raises(expected) as info:
        fn(d, value)
    assert str(info.value), f"{target} with {vname}: empty message"
    assert d.many("persona.persona", 2) == ref.many("persona.persona", 2), f"{target} with {vname} moved the stream"


SEEDS = [("list", []), ("float", 1.0), ("nan", float("nan")), ("bool", False), ("None", None), ("-1", -1),
         ("2**64", 2**64), ("10**100", 10**100), ("bytes", b"x"), ("object", object())]


@pytest.mark.parametrize("vname,value", SEEDS, ids=[s[0] for s in SEEDS])
def test_bad_seed(vname, value):
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        Datoteca(seed=value)


@pytest.mark.parametrize("seed", ["", "x" * 1_000_000, "a\x00b", "ñandú 🇨🇱", 0, 2**64 - 1])
def test_edge_seeds_work(seed):
    assert Datoteca(seed=seed).many("rut", 3) == Datoteca(seed=seed).many("rut", 3)


@pytest.mark.parametrize("text", ["", "x" * 1_000_000, "\x00", "12345678-5\x00", "\ud800", "１２345678-5", " " * 1000])
def test_rut_utilities_on_hostile_text(text):
    assert datoteca.validar_rut(text) is False
    with pytest.raises(datoteca.InvalidRutError):
        datoteca.limpiar_rut(text)


def test_lone_surrogates_are_refused_in_seeds_and_labels():
    with pytest.raises(ValueError, match="seed must be valid Unicode text, got a lone surrogate at index 1"):
        Datoteca(seed="a\ud800")
    with pytest.raises(ValueError, match="label must be valid Unicode text"):
        Datoteca(seed=1).derive("\udfff")


def test_objects_that_throw():
    d, ref = Datoteca(seed=4), Datoteca(seed=4)
    with pytest.raises(RuntimeError, match="hash refused"):
        d.dinero.monto(EvilInt(1), 5)
    with pytest.raises(RuntimeError, match="encode refused"):
        datoteca.validar_rut(EvilStr("1-9"))
    with pytest.raises(RuntimeError, match="encode refused"):
        Datoteca(seed=EvilStr("semilla"))
    assert d.many("rut", 3) == ref.many("rut", 3)


def test_calls_on_foreign_or_uninitialised_objects():
    with pytest.raises(AttributeError):
        Datoteca.rut(object())  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        Datoteca.__new__(Datoteca).rut()
    with pytest.raises(AttributeError):
        datoteca.Persona(None).nombre()  # type: ignore[arg-type]


def test_calls_on_a_closed_instance():
    d = Datoteca(seed=1)
    d.close()
    d.close()  # twice is a no-op
    for fn in (d.rut, d.persona.persona, lambda: d.many("rut", 3), d.next_u32, lambda: d.integer(1, 2), d.save_state,
               lambda: d.restore_state(b"x" * 24), lambda: d.derive("x"), lambda: d.hoy, lambda: d.call("rut")):
        with pytest.raises(datoteca.ClosedError, match="this Datoteca was closed"):
            fn()
    with Datoteca(seed=2) as e:
        value = e.rut()
    assert value == Datoteca(seed=2).rut()
    with pytest.raises(datoteca.ClosedError):
        e.rut()


def test_threads_with_independent_instances_give_the_values_they_give_alone():
    def work(seed):
        d = Datoteca(seed=seed)
        return [d.persona.persona() for _ in range(300)] + d.many("empresa.empresa", 300)

    alone = {k: work(k) for k in range(8)}
    together = {}
    threads = [threading.Thread(target=lambda k=k: together.__setitem__(k, work(k))) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(8):
        assert together[k] == alone[k], f"seed {k}: a thread gave other values"


def test_cffi_module_exposes_no_generation():
    # the binding converts and calls: it holds no generator of its own
    assert not any(n.startswith("pcg") or n == "random" for n in dir(_lib))
