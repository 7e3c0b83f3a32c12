"""The Python API as a user calls it: every public call, errors, bulk, state, derive."""
import datetime
import os
import re
import subprocess
import sys

import pytest

import datoteca
from props import mod11, movil_aceptado
from datoteca import Datoteca, InvalidArgumentError, InvalidRutError, InvalidStateError

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))

# Every public generating method, with arguments, and the registered call it maps to.
CALLS = [
    ("rut", lambda d: d.rut(), "rut", {}),
    ("rut empresa limpio", lambda d: d.rut("empresa", "limpio"), "rut", {"tipo": "empresa", "formato": "limpio"}),
    ("persona.nombre", lambda d: d.persona.nombre(), "persona.nombre", {}),
    ("persona.nombre F", lambda d: d.persona.nombre("F"), "persona.nombre", {"sexo": "F"}),
    ("persona.nombres", lambda d: d.persona.nombres("M"), "persona.nombres", {"sexo": "M"}),
    ("persona.apellido", lambda d: d.persona.apellido(), "persona.apellido", {}),
    ("persona.nombre_completo", lambda d: d.persona.nombre_completo(), "persona.nombre_completo", {}),
    ("persona.sexo", lambda d: d.persona.sexo(), "persona.sexo", {}),
    ("persona.fecha_nacimiento", lambda d: d.persona.fecha_nacimiento(0, 5), "persona.fecha_nacimiento", {"edad_min": 0, "edad_max": 5}),
    ("persona.email", lambda d: d.persona.email(), "persona.email", {}),
    ("persona.persona", lambda d: d.persona.persona(sexo="F", edad_min=30, edad_max=40), "persona.persona",
     {"sexo": "F", "edad_min": 30, "edad_max": 40}),
    ("direccion.region", lambda d: d.direccion.region(), "direccion.region", {}),
    ("direccion.comuna", lambda d: d.direccion.comuna(13), "direccion.comuna", {"region": 13}),
    ("direccion.calle", lambda d: d.direccion.calle(), "direccion.calle", {}),
    ("direccion.numero", lambda d: d.direccion.numero(), "direccion.numero", {}),
    ("direccion.direccion", lambda d: d.direccion.direccion(), "direccion.direccion", {}),
    ("telefono.movil", lambda d: d.telefono.movil("e164"), "telefono.movil", {"formato": "e164"}),
    ("telefono.fijo", lambda d: d.telefono.fijo(5, "nacional"), "telefono.fijo", {"region": 5, "formato": "nacional"}),
    ("dinero.monto", lambda d: d.dinero.monto(0, 10), "dinero.monto", {"min": 0, "max": 10}),
    ("dinero.clp", lambda d: d.dinero.clp(), "dinero.clp", {}),
    ("dinero.uf", lambda d: d.dinero.uf(), "dinero.uf", {}),
    ("dinero.sueldo", lambda d: d.dinero.sueldo(), "dinero.sueldo", {}),
    ("banco.banco", lambda d: d.banco.banco(), "banco.banco", {}),
    ("banco.tipo_cuenta", lambda d: d.banco.tipo_cuenta(), "banco.tipo_cuenta", {}),
    ("banco.numero_cuenta", lambda d: d.banco.numero_cuenta(), "banco.numero_cuenta", {}),
    ("banco.cuenta", lambda d: d.banco.cuenta(), "banco.cuenta", {}),
    ("banco.cuenta_titular", lambda d: d.banco.cuenta_titular(titular=12345678), "banco.cuenta_titular", {"titular": 12345678}),
    ("empresa.nombre", lambda d: d.empresa.nombre(), "empresa.nombre", {}),
    ("empresa.razon_social", lambda d: d.empresa.razon_social(), "empresa.razon_social", {}),
    ("empresa.rut", lambda d: d.empresa.rut("guion"), "empresa.rut", {"formato": "guion"}),
    ("empresa.giro", lambda d: d.empresa.giro(), "empresa.giro", {}),
    ("empresa.empresa", lambda d: d.empresa.empresa(), "empresa.empresa", {}),
    ("vehiculo.patente", lambda d: d.vehiculo.patente("moto", "con_dv"), "vehiculo.patente", {"tipo": "moto", "formato": "con_dv"}),
    ("vehiculo.vehiculo", lambda d: d.vehiculo.vehiculo(), "vehiculo.vehiculo", {}),
    ("prevision.afp", lambda d: d.prevision.afp(), "prevision.afp", {}),
    ("prevision.salud", lambda d: d.prevision.salud(), "prevision.salud", {}),
    ("prevision.prevision", lambda d: d.prevision.prevision(), "prevision.prevision", {}),
    ("tributario.folio", lambda d: d.tributario.folio(), "tributario.folio", {}),
    ("tributario.dte", lambda d: d.tributario.dte(), "tributario.dte", {}),
    ("fecha.fecha", lambda d: d.fecha.fecha(-30, 30), "fecha.fecha", {"desde": -30, "hasta": 30}),
    ("fecha.hora", lambda d: d.fecha.hora(), "fecha.hora", {}),
    ("fecha.fecha_hora", lambda d: d.fecha.fecha_hora(hasta=10), "fecha.fecha_hora", {"hasta": 10}),
    ("remuneracion.liquidacion", lambda d: d.remuneracion.liquidacion(salud="isapre"), "remuneracion.liquidacion", {"salud": "isapre"}),
    ("invalido.rut", lambda d: d.invalido.rut("dv", "empresa", "limpio"), "invalido.rut",
     {"defecto": "dv", "tipo": "empresa", "formato": "limpio"}),
    ("invalido.patente", lambda d: d.invalido.patente(), "invalido.patente", {}),
    ("invalido.movil", lambda d: d.invalido.movil(formato="nacional"), "invalido.movil", {"formato": "nacional"}),
    ("invalido.fijo", lambda d: d.invalido.fijo("largo", "e164"), "invalido.fijo", {"defecto": "largo", "formato": "e164"}),
    ("invalido.email", lambda d: d.invalido.email("arroba"), "invalido.email", {"defecto": "arroba"}),
    ("invalido.dte", lambda d: d.invalido.dte(), "invalido.dte", {}),
    ("sucio.rut", lambda d: d.sucio.rut("ceros"), "sucio.rut", {"forma": "ceros"}),
    ("sucio.nombre", lambda d: d.sucio.nombre(), "sucio.nombre", {}),
    ("sucio.comuna", lambda d: d.sucio.comuna(forma="abreviatura"), "sucio.comuna", {"forma": "abreviatura"}),
    ("sucio.movil", lambda d: d.sucio.movil(), "sucio.movil", {}),
    ("sucio.fijo", lambda d: d.sucio.fijo("antiguo"), "sucio.fijo", {"forma": "antiguo"}),
]


def test_every_registered_call_has_a_method():
    assert {c[2] for c in CALLS} == set(datoteca.calls())


@pytest.mark.parametrize("label,method,name,kwargs", CALLS, ids=[c[0] for c in CALLS])
def test_method_equals_generic_call_and_bulk(label, method, name, kwargs):
    a, b, c = Datoteca(seed=42), Datoteca(seed=42), Datoteca(seed=42)
    singles = [method(a) for _ in range(25)]
    generic = [b.call(name, **kwargs) for _ in range(25)]
    bulk = c.many(name, 25, **kwargs)
    for i, (x, y, z) in enumerate(zip(singles, generic, bulk)):
        assert x == y == z, f"seed 42, {label} value {i}: method {x!r}, call {y!r}, many {z!r}"
    assert all(isinstance(v, (str, int, dict)) and v != "" for v in singles), f"{label}: {singles[:3]}"


def test_bulk_crosses_chunks_identically():
    a, b = Datoteca(seed=7), Datoteca(seed=7)
    many = a.many("persona.persona", 5000)
    for i, rec in enumerate(many[:5000]):
        single = b.persona.persona()
        assert rec == single, f"seed 7, persona.persona value {i}: many {rec!r} vs single {single!r}"


def test_values_are_typed():
    d = Datoteca(seed=1)
    assert isinstance(d.dinero.monto(), int)
    assert isinstance(d.direccion.numero(), int)
    rec = d.persona.persona()
    assert set(rec) == set(datoteca.PersonaDict.__annotations__)
    assert re.fullmatch(r"\+56 9 \d{4} \d{4}", rec["telefono"]) and movil_aceptado(rec["telefono"]), rec["telefono"]
    body, dv = rec["rut"].replace(".", "").split("-")
    assert mod11(int(body)) == dv, f"seed 1 persona: {rec['rut']} fails the mod-11 written in the tests"


def test_same_seed_same_data_and_text_seeds():
    assert Datoteca(seed=2**64 - 1).many("rut", 20) == Datoteca(seed=2**64 - 1).many("rut", 20)
    assert Datoteca(seed="José").many("rut", 5) == Datoteca(seed="José").many("rut", 5)
    assert Datoteca(seed="a").many("rut", 5) != Datoteca(seed="b").many("rut", 5)


def test_save_restore_and_derive():
    d = Datoteca(seed=3)
    d.persona.persona()
    state = d.save_state()
    assert isinstance(state, bytes) and len(state) == 24
    after = [d.persona.nombre_completo() for _ in range(10)]
    e = Datoteca(seed=999)
    e.restore_state(state)
    assert [e.persona.nombre_completo() for _ in range(10)] == after
    with pytest.raises(InvalidStateError, match="not a valid datoteca state"):
        e.restore_state(b"\x00" * 24)
    with pytest.raises(TypeError, match="state must be bytes"):
        e.restore_state("x" * 24)  # type: ignore[arg-type]
    p1, p2 = Datoteca(seed=5), Datoteca(seed=5)
    c1 = p1.derive("clientes")
    p2.next_u32()
    p2.next_u32()
    assert p1.next_u32() == p2.next_u32(), "derive must take exactly two draws from the parent"
    assert Datoteca(seed=5).derive("clientes").rut() == Datoteca(seed=5).derive("clientes").rut()
    assert c1.many("rut", 3) != Datoteca(seed=5).derive("facturas").many("rut", 3)


def test_stream_access():
    d = Datoteca(seed=11)
    assert 0 <= d.next_u32() < 2**32
    assert all(-3 <= d.integer(-3, 3) <= 3 for _ in range(200))
    # The full int64 range: exactly two draws, high word first, offset from lo (datoteca.h).
    twin = Datoteca(seed=11)
    twin.restore_state(d.save_state())
    hi_word, lo_word = twin.next_u32(), twin.next_u32()
    unsigned = ((hi_word << 32 | lo_word) - 2**63) % 2**64  # lo + r, wrapped to 64 bits
    expected = unsigned - 2**64 if unsigned >= 2**63 else unsigned
    assert d.integer(-(2**63), 2**63 - 1) == expected
    assert d.next_u32() == twin.next_u32(), "the full-range integer must take exactly two draws"


def test_hoy():
    d = Datoteca(seed=1, hoy="2024-02-29")
    assert d.hoy == datetime.date(2024, 2, 29)
    assert Datoteca(seed=1).hoy == datetime.date(2026, 1, 1)
    born = d.persona.fecha_nacimiento(0, 0)
    assert "2023-03-01" <= born <= "2024-02-29", born


def test_rut_utilities():
    assert datoteca.validar_rut("12.345.678-5")
    assert datoteca.validar_rut(" 60803000k ")
    assert not datoteca.validar_rut("12.345.678-4")
    assert not datoteca.validar_rut("")
    assert not datoteca.validar_rut("12345678-5\x00")
    assert datoteca.rut_dv(12345678) == "5"
    assert datoteca.rut_dv(60803000) == "K"
    assert datoteca.formatear_rut("123456785") == "12.345.678-5"
    assert datoteca.formatear_rut("12.345.678-5", "guion") == "12345678-5"
    assert datoteca.limpiar_rut(" 60.803.000-k") == "60803000K"
    assert datoteca.formatear_clp(1234567) == "$1.234.567"
    assert datoteca.formatear_clp(0) == "$0"
    assert datoteca.formatear_uf(123456) == "UF 1.234,56"
    assert datoteca.version() == datoteca.__version__
    assert datoteca.data_version() >= 1


# bad input -> exact exception type and message
BAD = [
    (lambda: Datoteca(seed=-1), ValueError, "seed must be an int in [0, 2**64) or a str, got -1"),
    (lambda: Datoteca(seed=2**64), ValueError, "seed must be an int in [0, 2**64) or a str, got 18446744073709551616"),
    (lambda: Datoteca(seed=True), TypeError, "seed must be an int in [0, 2**64) or a str, got bool"),
    (lambda: Datoteca(seed=1.5), TypeError, "seed must be an int in [0, 2**64) or a str, got float"),
    (lambda: Datoteca(seed=None), TypeError, "seed must be an int in [0, 2**64) or a str, got NoneType"),
    (lambda: Datoteca(seed=b"x"), TypeError, "seed must be an int in [0, 2**64) or a str, got bytes"),
    (lambda: Datoteca(hoy="2023-02-29"), ValueError, "hoy must be a date or 'YYYY-MM-DD', got '2023-02-29'"),
    (lambda: Datoteca(hoy="1800-01-01"), ValueError, "hoy must be between 1900-01-01 and 2200-12-31, got 1800-01-01"),
    (lambda: Datoteca(hoy=20240101), TypeError, "hoy must be a datetime.date or 'YYYY-MM-DD', got int"),
    (lambda: Datoteca().rut("nadie"), InvalidArgumentError, "rut: tipo must be one of 'persona', 'empresa', got 'nadie'"),
    (lambda: Datoteca().rut(formato=3), TypeError, "rut: formato must be one of 'puntos', 'guion', 'limpio' or None, got int"),
    (lambda: Datoteca().persona.nombre("X"), InvalidArgumentError, "persona.nombre: sexo must be one of 'cualquiera', 'F', 'M', got 'X'"),
    (lambda: Datoteca().persona.fecha_nacimiento(50, 20), InvalidArgumentError,
     "persona.fecha_nacimiento: edad_min must not exceed edad_max, got edad_min=50, edad_max=20"),
    (lambda: Datoteca().persona.fecha_nacimiento(90), InvalidArgumentError,
     "persona.fecha_nacimiento: edad_min must not exceed edad_max, got edad_min=90, edad_max=80"),
    (lambda: Datoteca().persona.fecha_nacimiento(-1, 20), InvalidArgumentError, "persona.fecha_nacimiento: edad_min must be from 0 to 120, got -1"),
    (lambda: Datoteca().persona.fecha_nacimiento(1.0, 20), TypeError, "persona.fecha_nacimiento: edad_min must be an int, got float"),
    (lambda: Datoteca().direccion.comuna(17), InvalidArgumentError, "direccion.comuna: region must be from 0 to 16 (0 = any region), got 17"),
    (lambda: Datoteca().direccion.comuna(2**64), InvalidArgumentError,
     "direccion.comuna: region must be from 0 to 16 (0 = any region), got 18446744073709551616"),
    (lambda: Datoteca().direccion.comuna(-(2**63)), InvalidArgumentError,
     "direccion.comuna: region must be from 0 to 16 (0 = any region), got -9223372036854775808"),
    (lambda: Datoteca().direccion.comuna("13"), TypeError, "direccion.comuna: region must be an int, got str"),
    (lambda: Datoteca().dinero.monto(10, 5), InvalidArgumentError, "dinero.monto: min must not exceed max, got min=10, max=5"),
    (lambda: Datoteca().dinero.clp(-1, 5), InvalidArgumentError, "dinero.clp: min must be from 0 to 999999999999999, got -1"),
    (lambda: Datoteca().dinero.uf(0, 10**15), InvalidArgumentError, "dinero.uf: max must be from 0 to 999999999999999, got 1000000000000000"),
    (lambda: Datoteca().call("nada"), ValueError, "unknown call 'nada'"),
    (lambda: Datoteca().call("rut", color="rojo"), TypeError, "rut() got an unexpected argument 'color'; it takes ['tipo', 'formato']"),
    (lambda: Datoteca().many("rut", -1), ValueError, "n must be from 0 to 4294967295, got -1"),
    (lambda: Datoteca().integer(5, 4), ValueError, "lo must not exceed hi, got lo=5, hi=4"),
    (lambda: Datoteca().integer(0, 2**63), ValueError, "hi must be from -9223372036854775808 to 9223372036854775807, got 9223372036854775808"),
    (lambda: Datoteca().derive(7), TypeError, "label must be a str, got int"),
    (lambda: datoteca.validar_rut(12345678), TypeError, "validar_rut: rut must be a str, got int"),
    (lambda: datoteca.formatear_rut("12.345.678-4"), InvalidRutError, "formatear_rut: rut is not a valid RUT"),
    (lambda: datoteca.formatear_rut("123456785", "x"), ValueError, "formatear_rut: formato must be one of 'puntos', 'guion', 'limpio', got 'x'"),
    (lambda: datoteca.rut_dv(0), ValueError, "rut_dv: cuerpo must be from 1 to 99999999, got 0"),
    (lambda: datoteca.formatear_clp(-5), ValueError, "formatear_clp: monto must be from 0 to 999999999999999, got -5"),
]


def test_region_zero_is_any_region_and_absent_is_the_default():
    """0 means "any region" in C, the CLI, Python and Node alike; None (or leaving an argument
    out) is passed to C as absent, so the library's default applies and nothing is repeated here."""
    d = Datoteca(seed=5)
    assert [d.direccion.comuna(0) for _ in range(20)] == Datoteca(seed=5).many("direccion.comuna", 20, region=0) \
        == Datoteca(seed=5).many("direccion.comuna", 20)
    a, b, c = Datoteca(seed=6), Datoteca(seed=6), Datoteca(seed=6)
    assert [a.persona.fecha_nacimiento() for _ in range(5)] == [b.persona.fecha_nacimiento(None, None) for _ in range(5)] \
        == c.many("persona.fecha_nacimiento", 5, edad_min=18, edad_max=80)


@pytest.mark.parametrize("i", range(len(BAD)))
def test_bad_input(i):
    fn, exc, message = BAD[i]
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == message, f"bad input {i}: expected {message!r}, got {str(info.value)!r}"


def test_a_cached_argument_array_never_admits_another_type():
    d = Datoteca(seed=1)
    d.dinero.monto(1, 5)
    d.persona.fecha_nacimiento(1, 5)
    with pytest.raises(TypeError, match="min must be an int, got bool"):
        d.dinero.monto(True, 5)
    with pytest.raises(TypeError, match="edad_min must be an int, got float"):
        d.persona.fecha_nacimiento(1.0, 5)


def test_a_failed_call_consumes_nothing():
    a, b = Datoteca(seed=9), Datoteca(seed=9)
    for fn in (lambda: a.dinero.monto(10, 5), lambda: a.persona.nombre("X"), lambda: a.direccion.comuna(99),
               lambda: a.persona.fecha_nacimiento(90, 10), lambda: a.call("nada")):
        with pytest.raises((TypeError, ValueError)):
            fn()
    assert a.many("persona.persona", 3) == b.many("persona.persona", 3)


def test_python_equals_the_cli():
    if not os.path.exists(CLI):
        pytest.fail(f"the C CLI is not built at {CLI} (set DATOTECA_CLI)")
    for call, args in [("rut", []), ("persona.persona", ["--sexo", "F"]), ("direccion.comuna", ["--region", "8"]),
                       ("empresa.empresa", []), ("dinero.uf", ["--min", "0", "--max", "99999"])]:
        out = subprocess.run([CLI, call, "--seed", "12345", "-n", "50", "--format", "plain", *args],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        kwargs = {args[i][2:]: (int(args[i + 1]) if args[i + 1].isdigit() else args[i + 1]) for i in range(0, len(args), 2)}
        py = Datoteca(seed=12345).many(call, 50, **kwargs)
        assert len(out) == len(py) == 50, f"seed 12345, {call}: CLI gave {len(out)} values, Python {len(py)}"
        for i, (c, p) in enumerate(zip(out, py)):
            p_text = "\t".join(v or "" for v in p.values()) if isinstance(p, dict) else str(p)
            assert c == p_text, f"seed 12345, {call} value {i}: CLI {c!r} vs Python {p_text!r}"


def test_text_seeds_equal_the_cli():
    for seed in ["ñandú 🇨🇱", "", "mi-suite"]:
        out = subprocess.run([CLI, "persona.nombre_completo", "--seed-str", seed, "-n", "20"],
                             capture_output=True, text=True, check=True).stdout.splitlines()
        assert Datoteca(seed=seed).many("persona.nombre_completo", 20) == out, f"text seed {seed!r}"


def test_cdef_matches_the_header():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen", "ffi.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_memory_is_flat_over_a_million_instances():
    import resource

    def rss_kib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * (resource.getpagesize() // 1024)

    for _ in range(20000):
        Datoteca(seed=1)
    before = rss_kib()
    for i in range(1_000_000):
        Datoteca(seed=i)
    grown = rss_kib() - before
    assert grown < 8 * 1024, f"RSS grew {grown} KiB over 1,000,000 create/free cycles"


def test_mypy_strict_on_the_package(tmp_path):
    pytest.importorskip("mypy")
    package = os.path.join(ROOT, "bindings", "python", "datoteca")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", package],
                       capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_rejects_a_misspelled_call_name(tmp_path):
    pytest.importorskip("mypy")
    bad = tmp_path / "mal.py"
    bad.write_text("from datoteca import Datoteca\nx = Datoteca().many('persona.nombrez', 3)\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(bad)],
                       capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode != 0 and "No overload variant" in r.stdout and "mal.py:2" in r.stdout, r.stdout + r.stderr


def test_mypy_strict_on_a_user_file(tmp_path):
    pytest.importorskip("mypy")
    sample = os.path.join(os.path.dirname(__file__), "typing_sample.py")
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", sample],
                       capture_output=True, text=True, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
