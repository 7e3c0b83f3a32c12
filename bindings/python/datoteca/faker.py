"""datoteca's values through Faker, factory_boy and polyfactory (optional: pip install faker).

    from faker import Faker
    from datoteca.faker import Proveedor

    fake = Faker("es_CL")
    fake.add_provider(Proveedor)
    Faker.seed(42)
    fake.rut(), fake.persona_cl(), fake.comuna(), fake.telefono_movil(), fake.liquidacion()

The seed mapping, a contract like the call order of a Datoteca: every value takes the next 64 bits of
the Faker generator's own random (`generator.random.getrandbits(64)`, the random that `Faker.seed(n)`,
`fake.seed_instance(n)` and factory_boy's `reseed_random(n)` set) and is the first value of the
datoteca stream with that seed: `fake.rut()` is `Datoteca(seed=bits).rut()`, and the CLI's
`datoteca rut --seed bits`. So values depend on the Faker seed and on the order of every call that
draws from that random, Faker's own providers included. Nothing here draws or decides a value: the
64 bits are Faker's, the value is the C library's. docs/faker.md has the whole story.

polyfactory: fields annotated with the types below (Rut, Comuna, TelefonoMovil, …, and datoteca's
record types such as PersonaDict) get datoteca values in factories that mix in ConDatoteca, each
value seeded by 64 bits of the factory's own `__random__` (its `__random_seed__` / `seed_random`).
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, NewType, Optional, Protocol, cast

try:
    from faker.providers import BaseProvider
except ImportError:  # pragma: no cover - exercised by test_faker.py in a subprocess
    raise ImportError("datoteca.faker needs the faker package: pip install faker") from None

from . import Datoteca
from ._comun_gen import STATE_SIZE
from ._lib import ffi, lib, raise_status
from ._tipos_gen import (
    Contrato,
    DireccionDict,
    EmpresaDict,
    FormatoPatente,
    FormatoRut,
    FormatoTelefono,
    LiquidacionDict,
    PersonaDict,
    SaludLiquidacion,
    Sexo,
    TipoPatente,
    TipoRut,
)

__all__ = [
    "Proveedor",
    "ConDatoteca",
    "proveedores",
    "Rut",
    "RutEmpresa",
    "NombreCompleto",
    "Email",
    "Comuna",
    "Region",
    "TelefonoMovil",
    "TelefonoFijo",
    "Patente",
    "RazonSocial",
]


class _Aleatorio(Protocol):
    """What is asked of a random source: Python's random.Random, Faker's and polyfactory's alike."""

    def getrandbits(self, k: int, /) -> int: ...


class _Flujo:
    """One datoteca instance set back, for each value, to exactly where Datoteca(seed=s) starts.

    Building a Datoteca per value costs ~17 µs in Python, ten times its RUT; this costs ~4 µs more than
    the value (docs/performance.md). The start state comes out of C (dt_new then dt_state_save, both
    public in datoteca.h) and goes in through restore_state: the seed's mapping to a PCG32 state is
    never computed here. Not thread-safe: one per Faker generator, one per thread for polyfactory.
    """

    __slots__ = ("_d", "_g", "_estado")

    def __init__(self) -> None:
        self._d = Datoteca(0)
        self._g = ffi.new("dt_gen **")
        self._estado = ffi.new("uint8_t[]", STATE_SIZE)

    def sembrar(self, semilla: int) -> Datoteca:
        """The instance, at the start of the stream of `semilla` (an int in [0, 2**64)), hoy the default."""
        st = lib.dt_new(semilla, self._g)
        if st:
            raise_status(st, "seed")
        g = self._g[0]
        try:
            st = lib.dt_state_save(g, self._estado, STATE_SIZE, ffi.NULL)
        finally:
            lib.dt_free(g)
        if st:
            raise_status(st, "save_state()")
        self._d.restore_state(ffi.buffer(self._estado)[:])
        return self._d


class Proveedor(BaseProvider):
    """A Faker provider whose values are datoteca's: fake.add_provider(Proveedor).

    Each method takes 64 bits of the generator's random as the seed of a datoteca stream and returns
    that stream's first value of the call named beside it; its arguments are the call's (None takes
    the library's default) and are checked by the C library, which raises datoteca's own errors.
    `rut` shadows Faker es_CL's own rut() when added after it (Faker's add_provider: the last one
    added wins); Faker's stays reachable as fake.provider("faker.providers.ssn").rut().
    """

    __provider__ = "datoteca"

    def __init__(self, generator: Any) -> None:
        super().__init__(generator)
        self._flujo = _Flujo()

    def _siguiente(self) -> Datoteca:
        return self._flujo.sembrar(self.generator.random.getrandbits(64))

    # Names: datoteca's own where Faker has no such method; a _cl suffix where Faker has a method of
    # that meaning for every locale (name, email, address, company), so neither hides the other.

    def rut(self, tipo: Optional[TipoRut] = None, formato: Optional[FormatoRut] = None) -> str:
        """rut: a RUT with a valid check digit, persona 1.000.000 to 29.999.999 by default."""
        return self._siguiente().rut(tipo, formato)

    def rut_empresa(self, formato: Optional[FormatoRut] = None) -> str:
        """empresa.rut: a company RUT (76 to 77 millions)."""
        return self._siguiente().empresa.rut(formato)

    def persona_cl(
        self, sexo: Optional[Sexo] = None, edad_min: Optional[int] = None, edad_max: Optional[int] = None
    ) -> PersonaDict:
        """persona.persona: the consistent person record, as a dict."""
        return self._siguiente().persona.persona(sexo, edad_min, edad_max)

    def nombre_completo_cl(self, sexo: Optional[Sexo] = None) -> str:
        """persona.nombre_completo: given names and both surnames."""
        return self._siguiente().persona.nombre_completo(sexo)

    def email_cl(self) -> str:
        """persona.email: an email derived from a Chilean name."""
        return self._siguiente().persona.email()

    def comuna(self, region: Optional[int] = None) -> str:
        """direccion.comuna: one of the 346 comunas, by Censo 2017 population (region 1 to 16, 0 any)."""
        return self._siguiente().direccion.comuna(region)

    def region_cl(self) -> str:
        """direccion.region: one of the 16 regions, by population."""
        return self._siguiente().direccion.region()

    def direccion_cl(self, region: Optional[int] = None) -> DireccionDict:
        """direccion.direccion: the consistent address record (its one-line form is ["linea"])."""
        return self._siguiente().direccion.direccion(region)

    def telefono_movil(self, formato: Optional[FormatoTelefono] = None) -> str:
        """telefono.movil: a mobile number of the Chilean numbering plan."""
        return self._siguiente().telefono.movil(formato)

    def telefono_fijo(self, region: Optional[int] = None, formato: Optional[FormatoTelefono] = None) -> str:
        """telefono.fijo: a fixed-line number with its region's area code."""
        return self._siguiente().telefono.fijo(region, formato)

    def patente(self, tipo: Optional[TipoPatente] = None, formato: Optional[FormatoPatente] = None) -> str:
        """vehiculo.patente: a licence plate."""
        return self._siguiente().vehiculo.patente(tipo, formato)

    def razon_social(self) -> str:
        """empresa.razon_social: a company's legal name."""
        return self._siguiente().empresa.razon_social()

    def empresa_cl(self) -> EmpresaDict:
        """empresa.empresa: the consistent company record."""
        return self._siguiente().empresa.empresa()

    def sueldo(self) -> int:
        """dinero.sueldo: a monthly gross salary in CLP."""
        return self._siguiente().dinero.sueldo()

    def liquidacion(self, contrato: Optional[Contrato] = None, salud: Optional[SaludLiquidacion] = None) -> LiquidacionDict:
        """remuneracion.liquidacion: a payslip whose deductions follow the law's rates."""
        return self._siguiente().remuneracion.liquidacion(contrato, salud)

    def datoteca(self, llamada: str, **argumentos: Any) -> Any:
        """Any call by its name, datoteca.calls() lists them: fake.datoteca("banco.cuenta")."""
        return cast(Any, self._siguiente()).call(llamada, **argumentos)


# ---- polyfactory ------------------------------------------------------------------------------

# Types to annotate fields with. At run time each is str (typing.NewType); polyfactory sees the name.
Rut = NewType("Rut", str)
RutEmpresa = NewType("RutEmpresa", str)
NombreCompleto = NewType("NombreCompleto", str)
Email = NewType("Email", str)
Comuna = NewType("Comuna", str)
Region = NewType("Region", str)
TelefonoMovil = NewType("TelefonoMovil", str)
TelefonoFijo = NewType("TelefonoFijo", str)
Patente = NewType("Patente", str)
RazonSocial = NewType("RazonSocial", str)

# Each type and the call that fills it, called with its defaults.
_LLAMADA_POR_TIPO: Dict[Any, Callable[[Datoteca], Any]] = {
    Rut: lambda d: d.rut(),
    RutEmpresa: lambda d: d.empresa.rut(),
    NombreCompleto: lambda d: d.persona.nombre_completo(),
    Email: lambda d: d.persona.email(),
    Comuna: lambda d: d.direccion.comuna(),
    Region: lambda d: d.direccion.region(),
    TelefonoMovil: lambda d: d.telefono.movil(),
    TelefonoFijo: lambda d: d.telefono.fijo(),
    Patente: lambda d: d.vehiculo.patente(),
    RazonSocial: lambda d: d.empresa.razon_social(),
    PersonaDict: lambda d: d.persona.persona(),
    DireccionDict: lambda d: d.direccion.direccion(),
    EmpresaDict: lambda d: d.empresa.empresa(),
    LiquidacionDict: lambda d: d.remuneracion.liquidacion(),
}

_por_hilo = threading.local()


def _flujo_del_hilo() -> _Flujo:
    flujo: Optional[_Flujo] = getattr(_por_hilo, "flujo", None)
    if flujo is None:
        flujo = _por_hilo.flujo = _Flujo()
    return flujo


def proveedores(aleatorio: _Aleatorio) -> Dict[Any, Callable[[], Any]]:
    """polyfactory providers (type -> callable) for this module's types and datoteca's records, each
    value the first of Datoteca(seed=aleatorio.getrandbits(64)). ConDatoteca adds them with the
    factory's own __random__; use this directly in a get_provider_map of your own."""

    def proveedor(llamar: Callable[[Datoteca], Any]) -> Callable[[], Any]:
        return lambda: llamar(_flujo_del_hilo().sembrar(aleatorio.getrandbits(64)))

    return {tipo: proveedor(llamar) for tipo, llamar in _LLAMADA_POR_TIPO.items()}


class ConDatoteca:
    """A polyfactory mixin, first among the bases: class ClienteFactory(ConDatoteca, DataclassFactory[Cliente]).

    Fields annotated with Rut, Comuna, …, PersonaDict, … are filled by datoteca, deterministic under
    the factory's __random_seed__ / seed_random(n) like the rest of the factory's values.
    """

    @classmethod
    def get_provider_map(cls) -> Dict[Any, Callable[[], Any]]:
        mapa: Dict[Any, Callable[[], Any]] = cast(Any, super()).get_provider_map()
        mapa.update(proveedores(getattr(cls, "__random__")))
        return mapa

    @classmethod
    def get_model_fields(cls) -> List[Any]:
        # polyfactory's pydantic factory reads a field's type with NewType unwrapped (Rut becomes str,
        # which no provider can tell from any other str); put ours back, from pydantic's own field info.
        campos: List[Any] = cast(Any, super()).get_model_fields()
        modelo_campos = getattr(getattr(cls, "__model__", None), "model_fields", None)
        if isinstance(modelo_campos, dict) and len(modelo_campos) == len(campos):
            for campo, info in zip(campos, modelo_campos.values()):
                anotacion = getattr(info, "annotation", None)
                if anotacion in _LLAMADA_POR_TIPO:
                    campo.annotation = anotacion
        return campos
