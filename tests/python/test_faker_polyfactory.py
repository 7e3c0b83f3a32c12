"""polyfactory fills fields typed with datoteca.faker's types (Rut, Comuna, …) and datoteca's records
with datoteca values (issue #42, item 7), with the real polyfactory (and pydantic) from PyPI. Each value
is the first of Datoteca(seed=bits), bits the next 64 of the factory's own __random__, so
__random_seed__ and seed_random(n) make a factory reproducible."""
import csv
import os
import random
from dataclasses import dataclass
from typing import Optional

from polyfactory.factories import DataclassFactory, TypedDictFactory
from polyfactory.factories.pydantic_factory import ModelFactory
from pydantic import BaseModel
from stdnum.cl import rut as stdnum_rut
from typing_extensions import TypedDict

from datoteca import Datoteca, LiquidacionDict, PersonaDict
from datoteca.faker import (
    Comuna,
    ConDatoteca,
    Email,
    NombreCompleto,
    Patente,
    RazonSocial,
    Region,
    Rut,
    RutEmpresa,
    TelefonoFijo,
    TelefonoMovil,
    proveedores,
)
from conftest import ROOT


@dataclass
class Cliente:
    rut: Rut
    nombre: NombreCompleto
    email: Email
    comuna: Comuna
    region: Region
    movil: TelefonoMovil
    fijo: TelefonoFijo
    patente: Patente
    empresa: RazonSocial
    rut_empresa: RutEmpresa
    titular: PersonaDict
    sueldo: LiquidacionDict


# Each field and the call that must give its value, in the order polyfactory fills them.
LLAMADAS = [
    ("rut", lambda d: d.rut()), ("nombre", lambda d: d.persona.nombre_completo()), ("email", lambda d: d.persona.email()),
    ("comuna", lambda d: d.direccion.comuna()), ("region", lambda d: d.direccion.region()),
    ("movil", lambda d: d.telefono.movil()), ("fijo", lambda d: d.telefono.fijo()), ("patente", lambda d: d.vehiculo.patente()),
    ("empresa", lambda d: d.empresa.razon_social()), ("rut_empresa", lambda d: d.empresa.rut()),
    ("titular", lambda d: d.persona.persona()), ("sueldo", lambda d: d.remuneracion.liquidacion()),
]


class ClienteFactory(ConDatoteca, DataclassFactory[Cliente]):
    __random_seed__ = 7


class Cuenta(BaseModel):
    rut: Rut
    comuna: Comuna
    alias: str
    nota: Optional[str] = None


class CuentaFactory(ConDatoteca, ModelFactory[Cuenta]):
    __random_seed__ = 7


class Fila(TypedDict):
    rut: Rut
    movil: TelefonoMovil


class FilaFactory(ConDatoteca, TypedDictFactory[Fila]):
    __random_seed__ = 3


def _comunas():
    with open(os.path.join(ROOT, "c", "data", "comunas.csv"), encoding="utf-8", newline="") as f:
        return {fila["nombre"] for fila in csv.DictReader(f)}


def test_each_field_is_datoteca_seeded_by_the_factorys_random():
    ClienteFactory.seed_random(7)
    espejo = random.Random(7)
    for i in range(30):
        cliente = ClienteFactory.build()
        for campo, llamar in LLAMADAS:
            bits = espejo.getrandbits(64)
            esperado = llamar(Datoteca(seed=bits))
            actual = getattr(cliente, campo)
            assert actual == esperado, f"seed_random(7), object {i}, field {campo}, bits {bits}: expected {esperado!r}, got {actual!r}"


def test_random_seed_and_seed_random_reproduce():
    ClienteFactory.seed_random(7)
    a = ClienteFactory.batch(20)
    ClienteFactory.seed_random(7)
    assert ClienteFactory.batch(20) == a, "seed_random(7) twice: different clients"
    ClienteFactory.seed_random(8)
    assert ClienteFactory.batch(20) != a, "seed_random(8) gave seed 7's clients"


def test_values_are_valid():
    comunas = _comunas()
    ClienteFactory.seed_random(11)
    for i, c in enumerate(ClienteFactory.batch(300)):
        for campo in ("rut", "rut_empresa"):
            assert stdnum_rut.is_valid(getattr(c, campo)), f"seed_random(11), object {i}: {campo} {getattr(c, campo)!r}"
        assert stdnum_rut.is_valid(c.titular["rut"]), f"seed_random(11), object {i}: titular {c.titular!r}"
        assert c.comuna in comunas and c.titular["comuna"] in comunas, f"seed_random(11), object {i}: {c.comuna!r}"


def test_pydantic_model_fields_typed_rut_and_comuna():
    # pydantic's field info keeps the NewType that polyfactory's own reading drops: ConDatoteca puts it back.
    CuentaFactory.seed_random(7)
    espejo = random.Random(7)
    for i in range(20):
        cuenta = CuentaFactory.build()
        assert isinstance(cuenta, Cuenta)
        assert stdnum_rut.is_valid(cuenta.rut), f"seed_random(7), object {i}: rut {cuenta.rut!r}"
        assert cuenta.comuna in _comunas(), f"seed_random(7), object {i}: comuna {cuenta.comuna!r}"
    CuentaFactory.seed_random(7)
    primera = CuentaFactory.build()
    assert primera.rut == Datoteca(seed=espejo.getrandbits(64)).rut(), f"seed_random(7), object 0: {primera!r}"


def test_typed_dict_factory():
    FilaFactory.seed_random(3)
    espejo = random.Random(3)
    fila = FilaFactory.build()
    assert fila == {"rut": Datoteca(seed=espejo.getrandbits(64)).rut(),
                    "movil": Datoteca(seed=espejo.getrandbits(64)).telefono.movil()}, f"seed_random(3): {fila!r}"


def test_factories_without_the_mixin_are_untouched():
    class Sin(DataclassFactory[Cliente]):
        __random_seed__ = 7

    assert Rut not in Sin.get_provider_map()
    assert Rut in ClienteFactory.get_provider_map()


def test_proveedores_uses_the_random_it_is_given():
    mapa = proveedores(random.Random(1))
    espejo = random.Random(1)
    assert mapa[Rut]() == Datoteca(seed=espejo.getrandbits(64)).rut()
    assert mapa[PersonaDict]() == Datoteca(seed=espejo.getrandbits(64)).persona.persona()
