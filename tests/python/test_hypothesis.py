"""datoteca.hypothesis: strategies driven by Hypothesis's draws, used as a user would."""
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from stdnum.cl import rut as stdnum_rut  # noqa: E402

import datoteca.hypothesis as dh  # noqa: E402
from datoteca import Datoteca  # noqa: E402


@settings(max_examples=200, database=None)
@given(dh.personas(edad_min=18, edad_max=30))
def test_personas_are_adults_with_a_valid_rut(persona):
    assert stdnum_rut.is_valid(persona["rut"])
    assert persona["email"] is not None and "@" in persona["email"]


@settings(max_examples=100, database=None)
@given(dh.llamada("direccion.comuna", region=st.integers(1, 16)), dh.ruts(tipo="empresa"))
def test_arguments_may_be_strategies(comuna, rut):
    assert isinstance(comuna, str) and comuna
    assert 76_000_000 <= int(rut.replace(".", "").split("-")[0]) <= 77_999_999


def test_every_call_has_a_strategy_and_values_come_from_the_seed():
    import datoteca

    for name in datoteca.calls():
        assert callable(getattr(dh, name.replace(".", "_")))
    valores = []

    @settings(max_examples=1, database=None, suppress_health_check=list(HealthCheck))
    @given(dh.dtes())
    def uno(dte):
        valores.append(dte)

    uno()
    assert valores and set(valores[0]) == set(Datoteca().tributario.dte())


def test_a_failure_shrinks_to_the_simplest_seed():
    """Shrinking works on the seed: a property that fails for some persona shrinks to seed 0's."""
    vistos = []

    @settings(max_examples=50, database=None)
    @given(dh.personas())
    def falla(persona):
        vistos.append(persona)
        assert persona["sexo"] == "nunca"

    with pytest.raises(AssertionError):
        falla()
    assert vistos[-1] == Datoteca(seed=0).persona.persona()
