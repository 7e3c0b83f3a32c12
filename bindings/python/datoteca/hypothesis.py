"""Hypothesis strategies for every datoteca call (optional: pip install hypothesis).

    from hypothesis import given
    from datoteca.hypothesis import personas, ruts

    @given(personas(edad_min=18))
    def test_alta(persona): ...

Each strategy draws a 64-bit seed with Hypothesis's own `integers()` and runs the call on a fresh
Datoteca with that seed, so Hypothesis's example database replays a failure and shrinking works (it
shrinks the seed toward 0, whose values are the simplest it can reach). A call's arguments may be
values or strategies. Values are as the call returns them (dicts for records).
"""
from __future__ import annotations

from typing import Any, Callable, Dict

from hypothesis import strategies as st

from . import Datoteca
from ._lib import CALLS

_SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def llamada(name: str, **argumentos: Any) -> st.SearchStrategy[Any]:
    """Values of any call by name: llamada("direccion.comuna", region=st.integers(1, 16))."""
    if name not in CALLS:
        raise ValueError(f"unknown call {name!r}; see datoteca.calls()")
    fijos = {k: v for k, v in argumentos.items() if not isinstance(v, st.SearchStrategy)}
    variables = {k: v for k, v in argumentos.items() if isinstance(v, st.SearchStrategy)}

    def correr(seed: int, elegidos: Dict[str, Any]) -> Any:
        return Datoteca(seed=seed).call(name, **fijos, **elegidos)  # type: ignore[call-overload]

    return st.builds(correr, _SEEDS, st.fixed_dictionaries(variables))


def _estrategia(name: str) -> Callable[..., st.SearchStrategy[Any]]:
    def f(**argumentos: Any) -> st.SearchStrategy[Any]:
        return llamada(name, **argumentos)

    f.__name__ = f.__qualname__ = name.replace(".", "_")
    f.__doc__ = f"Values of {name} (arguments as the call takes them, or strategies for them)."
    return f


# One strategy per call by its name with "_" (persona_nombre(), tributario_dte(), rut()), and the
# plural names people reach for.
__all__ = ["llamada"]
for _name in CALLS:
    globals()[_name.replace(".", "_")] = _estrategia(_name)
    __all__.append(_name.replace(".", "_"))
_PLURALES = {
    "ruts": "rut", "personas": "persona.persona", "nombres": "persona.nombre_completo", "emails": "persona.email",
    "fechas_nacimiento": "persona.fecha_nacimiento", "direcciones": "direccion.direccion", "comunas": "direccion.comuna",
    "regiones": "direccion.region", "moviles": "telefono.movil", "fijos": "telefono.fijo", "montos": "dinero.monto",
    "sueldos": "dinero.sueldo", "bancos": "banco.banco", "cuentas": "banco.cuenta", "empresas": "empresa.empresa",
    "razones_sociales": "empresa.razon_social", "patentes": "vehiculo.patente", "vehiculos": "vehiculo.vehiculo",
    "previsiones": "prevision.prevision", "dtes": "tributario.dte", "fechas": "fecha.fecha", "fechas_horas": "fecha.fecha_hora",
}
for _plural, _name in _PLURALES.items():
    globals()[_plural] = _estrategia(_name)
    __all__.append(_plural)
