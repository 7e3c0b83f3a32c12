"""datoteca.faker's Faker provider (issue #42, item 7), used through the real Faker from PyPI.

Expectations come from outside the provider: Python's own random.Random for the 64 bits a Faker seed
gives, the CLI (build-c/datoteca, another path into the C library) for the value of those bits,
python-stdnum for RUTs, c/data/comunas.csv read here for comunas. Failures name the Faker seed and
the call index."""
import csv
import os
import random
import subprocess
import sys

import pytest
from faker import Faker
from stdnum.cl import rut as stdnum_rut

import datoteca
from datoteca import RUT_EMPRESA_MAX, RUT_EMPRESA_MIN, RUT_PERSONA_MAX, RUT_PERSONA_MIN, Datoteca
from datoteca.faker import Proveedor
from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))

# Reviewed by hand on 2026-12-04: random.Random(42).getrandbits(64) six times gave these bits
# (Faker.seed(42) and seed_instance(42) seed a random.Random(42)); `datoteca CALL --seed BITS` gave
# the values. 6.663.342-K: 6663342's mod-11 sum is 133, 11 - 133 % 11 = 10, so K. The liquidación:
# gratificación 145500 = 25 % of 582000, AFP ProVida 11.45 % of 727500 = 83299, FONASA 7 % = 50925,
# no seguro de cesantía for the worker on a plazo fijo contract, líquido 727500 - 134224 = 593276.
SEED = 42
BITS_42 = [2053695854357871005, 13679192365072849617, 4517457392071889495,
           2574020394472462046, 1890702223848595625, 13662908291426823533]
ESPERADO_42 = [
    ("rut", {}, "rut", [], "6.663.342-K"),
    ("comuna", {}, "direccion.comuna", [], "Sierra Gorda"),
    ("telefono_movil", {}, "telefono.movil", [], "+56 9 8253 5582"),
    ("persona_cl", {}, "persona", ["--format", "jsonl"],
     {"nombres": "Javier Ignacio", "apellido_paterno": "Pavez", "apellido_materno": "Díaz",
      "nombre_completo": "Javier Ignacio Pavez Díaz", "sexo": "M", "rut": "13.597.826-4",
      "fecha_nacimiento": "1979-06-03", "email": "javier.pavez737@gmail.com", "telefono": "+56 9 4115 4429",
      "direccion": "Psje. José Manuel Balmaceda 173, Coquimbo, Región de Coquimbo", "comuna": "Coquimbo",
      "region": "Región de Coquimbo", "codigo_comuna": "04102", "codigo_region": "04"}),
    ("liquidacion", {}, "remuneracion.liquidacion", ["--format", "jsonl"],
     {"periodo": "2026-01", "contrato": "plazo_fijo", "afp": "ProVida", "salud": "FONASA", "plan_uf": None,
      "sueldo_base": 582000, "gratificacion": 145500, "total_imponible": 727500, "cotizacion_afp": 83299,
      "cotizacion_salud": 50925, "seguro_cesantia": 0, "base_tributable": 593276, "impuesto_unico": 0,
      "total_haberes": 727500, "total_descuentos": 134224, "liquido": 593276}),
    ("rut", {"formato": "limpio"}, "rut", ["--formato", "limpio"], "190117049"),
]

# Each provider method and the Datoteca call it must equal, with the arguments tried.
METODOS = [
    ("rut", {}, lambda d: d.rut()),
    ("rut", {"tipo": "empresa", "formato": "guion"}, lambda d: d.rut("empresa", "guion")),
    ("rut_empresa", {}, lambda d: d.empresa.rut()),
    ("persona_cl", {"sexo": "F", "edad_min": 30, "edad_max": 40}, lambda d: d.persona.persona("F", 30, 40)),
    ("nombre_completo_cl", {}, lambda d: d.persona.nombre_completo()),
    ("email_cl", {}, lambda d: d.persona.email()),
    ("comuna", {}, lambda d: d.direccion.comuna()),
    ("comuna", {"region": 13}, lambda d: d.direccion.comuna(13)),
    ("region_cl", {}, lambda d: d.direccion.region()),
    ("direccion_cl", {}, lambda d: d.direccion.direccion()),
    ("telefono_movil", {"formato": "e164"}, lambda d: d.telefono.movil("e164")),
    ("telefono_fijo", {}, lambda d: d.telefono.fijo()),
    ("patente", {}, lambda d: d.vehiculo.patente()),
    ("razon_social", {}, lambda d: d.empresa.razon_social()),
    ("empresa_cl", {}, lambda d: d.empresa.empresa()),
    ("sueldo", {}, lambda d: d.dinero.sueldo()),
    ("liquidacion", {"contrato": "indefinido"}, lambda d: d.remuneracion.liquidacion("indefinido")),
    ("datoteca", {"llamada": "banco.cuenta"}, lambda d: d.banco.cuenta()),
]


def _fake(locale="es_CL", seed=None):
    fake = Faker(locale)
    fake.add_provider(Proveedor)
    if seed is not None:
        fake.seed_instance(seed)
    return fake


def _proximos_bits(fake):
    """The 64 bits the next provider call will take, read from a copy of the generator's random."""
    copia = random.Random()
    copia.setstate(fake.random.getstate())
    return copia.getrandbits(64)


def _comunas_csv():
    with open(os.path.join(ROOT, "c", "data", "comunas.csv"), encoding="utf-8", newline="") as f:
        return {fila["nombre"] for fila in csv.DictReader(f)}


def test_the_reviewed_bits_are_what_random_42_gives():
    r = random.Random(SEED)
    assert [r.getrandbits(64) for _ in BITS_42] == BITS_42


@pytest.mark.parametrize("sembrar", ["Faker.seed", "seed_instance"])
def test_seed_42_gives_the_reviewed_values(sembrar):
    fake = _fake()
    if sembrar == "Faker.seed":
        Faker.seed(SEED)
    else:
        fake.seed_instance(SEED)
    for i, (metodo, args, _, _, esperado) in enumerate(ESPERADO_42):
        actual = getattr(fake, metodo)(**args)
        assert actual == esperado, f"{sembrar}({SEED}), call {i} fake.{metodo}({args}): expected {esperado!r}, got {actual!r}"


@pytest.mark.skipif(not os.path.exists(CLI), reason="the CLI is not built (make build)")
def test_the_cli_gives_the_same_values_for_those_bits():
    import json

    for i, ((metodo, _, llamada, opciones, esperado), bits) in enumerate(zip(ESPERADO_42, BITS_42)):
        salida = subprocess.run([CLI, llamada, "--seed", str(bits), *opciones], check=True,
                                capture_output=True, text=True).stdout.strip()
        actual = json.loads(salida) if opciones[:1] == ["--format"] else salida
        assert actual == esperado, f"seed {SEED}, call {i} ({metodo}): `datoteca {llamada} --seed {bits}` gave {actual!r}, expected {esperado!r}"


def test_every_method_is_the_first_value_of_datoteca_seeded_with_the_next_64_bits():
    # Faker's own providers are called in between: they move the same random, and the mapping follows.
    fake = _fake(seed=7)
    for vuelta in range(3):
        for i, (metodo, args, llamar) in enumerate(METODOS):
            fake.name()
            fake.address()
            bits = _proximos_bits(fake)
            actual = getattr(fake, metodo)(**args)
            esperado = llamar(Datoteca(seed=bits))
            assert actual == esperado, (f"seed_instance(7), round {vuelta}, method {i} fake.{metodo}({args}), bits {bits}: "
                                        f"expected Datoteca(seed={bits}) to give {esperado!r}, got {actual!r}")


def test_one_call_takes_exactly_64_bits_of_the_generators_random():
    fake = _fake(seed=5)
    espejo = random.Random(5)
    for i in range(50):
        fake.rut()
        espejo.getrandbits(64)
        assert fake.random.getstate() == espejo.getstate(), f"seed_instance(5), call {i}: the random moved by other than 64 bits"


def test_call_order_is_part_of_the_mapping():
    a = _fake(seed=3)
    b = _fake(seed=3)
    primeros_a = [a.rut() for _ in range(5)]
    b.first_name()  # one Faker call more, first
    primeros_b = [b.rut() for _ in range(5)]
    assert primeros_a != primeros_b, f"seed_instance(3): an extra Faker call before did not shift the RUTs: {primeros_a}"
    c = _fake(seed=3)
    assert [c.rut() for _ in range(5)] == primeros_a, "seed_instance(3) twice, same calls: different RUTs"


def test_seed_instance_leaves_other_instances_and_the_shared_random_alone():
    Faker.seed(11)
    compartido = _fake()
    antes = [compartido.rut() for _ in range(3)]
    Faker.seed(11)
    propio = _fake(seed=99)
    [propio.rut() for _ in range(10)]
    compartido2 = _fake()
    assert [compartido2.rut() for _ in range(3)] == antes, "Faker.seed(11): an instance with its own seed moved the shared random"


def test_ruts_are_valid_for_stdnum_and_in_their_range():
    fake = _fake(seed=2026)
    for i in range(3000):
        persona = fake.rut(formato="limpio")
        empresa = fake.rut_empresa(formato="limpio")
        for cual, rut, lo, hi in (("rut", persona, RUT_PERSONA_MIN, RUT_PERSONA_MAX),
                                  ("rut_empresa", empresa, RUT_EMPRESA_MIN, RUT_EMPRESA_MAX)):
            assert stdnum_rut.is_valid(rut), f"seed_instance(2026), call {i} fake.{cual}(): stdnum refuses {rut!r}"
            assert lo <= int(rut[:-1]) <= hi, f"seed_instance(2026), call {i} fake.{cual}(): {rut!r} outside {lo}..{hi}"


def test_comunas_are_the_librarys_and_records_agree():
    comunas = _comunas_csv()
    assert len(comunas) == 346
    fake = _fake(seed=17)
    for i in range(1000):
        comuna = fake.comuna()
        assert comuna in comunas, f"seed_instance(17), call {2 * i} fake.comuna(): {comuna!r} is not in c/data/comunas.csv"
        persona = fake.persona_cl()
        assert persona["comuna"] in comunas and stdnum_rut.is_valid(persona["rut"]), \
            f"seed_instance(17), call {2 * i + 1} fake.persona_cl(): {persona!r}"


def test_arguments_reach_the_library_and_its_errors_come_back():
    fake = _fake(seed=1)
    with pytest.raises(datoteca.InvalidArgumentError) as e:
        fake.rut(tipo="nadie")
    assert isinstance(e.value, ValueError) and "tipo" in str(e.value), str(e.value)
    with pytest.raises(datoteca.UnknownCallError):
        fake.datoteca("persona.nombrez")


def test_rut_shadows_faker_es_cl_rut_which_stays_reachable():
    solo_faker = Faker("es_CL")
    solo_faker.seed_instance(8)
    suyo = solo_faker.rut()
    fake = Faker("es_CL")
    fake.seed_instance(8)
    faker_rut = fake.rut  # Faker es_CL's own, before ours is added
    fake.add_provider(Proveedor)
    bits = _proximos_bits(fake)
    assert fake.rut() == Datoteca(seed=bits).rut(), "added after es_CL, fake.rut() must be datoteca's (the last added wins)"
    fake.seed_instance(8)
    assert fake.provider("faker.providers.ssn").rut() == suyo, "Faker's own rut() must stay reachable through fake.provider(...)"
    fake.seed_instance(8)
    assert faker_rut() == suyo


def test_a_provider_added_later_wins_over_ours():
    from faker.providers.ssn.es_CL import Provider as SsnEsCl

    fake = _fake(seed=8)
    fake.add_provider(SsnEsCl)
    fake.seed_instance(8)
    solo_faker = Faker("es_CL")
    solo_faker.seed_instance(8)
    assert fake.rut() == solo_faker.rut(), "Faker's es_CL ssn provider added after ours must own rut() again"


def test_unique_proxy_works_on_datoteca_values():
    fake = _fake(seed=21)
    ruts = [fake.unique.rut() for _ in range(500)]
    assert len(set(ruts)) == 500


def test_every_provider_method_is_named_in_the_docs():
    paginas = open(os.path.join(ROOT, "docs", "faker.md"), encoding="utf-8").read()
    propios = [n for n in vars(Proveedor) if not n.startswith("_") and callable(getattr(Proveedor, n))]
    assert len(propios) >= 15
    for n in propios:
        assert f"`{n}(" in paginas, f"docs/faker.md does not name Proveedor.{n}()"


def test_importing_datoteca_needs_no_faker():
    # faker hidden from the import system: datoteca imports, and only datoteca.faker asks for it.
    codigo = (
        "import sys\n"
        "class Oculta:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'faker' or name.startswith('faker.'):\n"
        "            raise ModuleNotFoundError(\"No module named 'faker'\", name='faker')\n"
        "sys.meta_path.insert(0, Oculta())\n"
        "import datoteca, datoteca.hypothesis\n"
        "assert datoteca.Datoteca(seed=42).rut() == '13.354.725-8'\n"
        "assert 'faker' not in sys.modules and 'datoteca.faker' not in sys.modules, sorted(sys.modules)\n"
        "try:\n"
        "    import datoteca.faker\n"
        "except ImportError as e:\n"
        "    print('ImportError:', e)\n"
    )
    r = subprocess.run([sys.executable, "-c", codigo], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ImportError: datoteca.faker needs the faker package: pip install faker" in r.stdout, r.stdout + r.stderr
