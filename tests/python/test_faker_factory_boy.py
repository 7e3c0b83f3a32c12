"""factory_boy's factory.Faker("rut") through datoteca.faker.Proveedor (issue #42, item 7), with the
real factory-boy from PyPI. factory.random.reseed_random(n) seeds the random Faker draws from, so a
factory's datoteca values are reproducible and equal Datoteca(seed=bits) for the bits Python's own
random.Random(n) gives (test_faker.py reviews seed 42's)."""
import random

import factory
import faker.generator
import factory.random
from stdnum.cl import rut as stdnum_rut

from datoteca import Datoteca
from datoteca.faker import Proveedor

factory.Faker.add_provider(Proveedor)
factory.Faker.add_provider(Proveedor, locale="es_CL")


class ClienteFactory(factory.DictFactory):
    rut = factory.Faker("rut")
    nombre = factory.Faker("nombre_completo_cl")
    comuna = factory.Faker("comuna", region=13)
    movil = factory.Faker("telefono_movil", formato="e164")
    alias = factory.Faker("user_name")  # one of Faker's own, drawing from the same random


class EmpresaFactory(factory.DictFactory):
    rut = factory.Faker("rut", locale="es_CL", tipo="empresa")
    razon_social = factory.Faker("razon_social", locale="es_CL")


def test_reseed_random_42_gives_the_reviewed_first_rut():
    factory.random.reseed_random(42)
    cliente = ClienteFactory()
    assert cliente["rut"] == "6.663.342-K", f"reseed_random(42), client 0: rut {cliente['rut']!r}"


def test_reseed_random_makes_a_batch_reproducible():
    factory.random.reseed_random(2026)
    primera = ClienteFactory.build_batch(50) + EmpresaFactory.build_batch(20)
    factory.random.reseed_random(2026)
    segunda = ClienteFactory.build_batch(50) + EmpresaFactory.build_batch(20)
    for i, (a, b) in enumerate(zip(primera, segunda)):
        assert a == b, f"reseed_random(2026), object {i}: {a!r} then {b!r}"
    factory.random.reseed_random(2027)
    assert ClienteFactory.build_batch(50) != primera[:50], "reseed_random(2027) gave the same clients as 2026"


def test_declaration_order_maps_to_the_next_64_bits():
    # Declarations are evaluated in order: each datoteca field takes the next 64 bits of the random.
    factory.random.reseed_random(5)
    espejo = random.Random(5)
    for i in range(20):
        cliente = ClienteFactory()
        rut = Datoteca(seed=espejo.getrandbits(64)).rut()
        nombre = Datoteca(seed=espejo.getrandbits(64)).persona.nombre_completo()
        comuna = Datoteca(seed=espejo.getrandbits(64)).direccion.comuna(13)
        movil = Datoteca(seed=espejo.getrandbits(64)).telefono.movil("e164")
        assert (cliente["rut"], cliente["nombre"], cliente["comuna"], cliente["movil"]) == (rut, nombre, comuna, movil), \
            f"reseed_random(5), client {i}: {cliente!r}"
        # user_name (Faker's own) draws a number of values of its own choosing: follow the real random
        espejo.setstate(faker.generator.random.getstate())


def test_values_are_valid():
    factory.random.reseed_random(9)
    for i, e in enumerate(EmpresaFactory.build_batch(500)):
        assert stdnum_rut.is_valid(e["rut"]) and 76_000_000 <= int(e["rut"].replace(".", "")[:-2]) <= 77_999_999, \
            f"reseed_random(9), company {i}: {e['rut']!r}"
