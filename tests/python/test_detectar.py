"""datoteca detectar and the detectar utility: which columns of a sample hold personal data, and the
masking rule proposed for each (docs/enmascarar.md). The sample is made by the library (persona
records, amounts, free-text notes with a RUT, an email or a phone planted in some), and every value the
utility calls a RUT, an email or a phone is checked by an outside validator (python-stdnum,
email-validator, phonenumbers)."""
import csv
import io
import os
import subprocess
import tomllib

import phonenumbers
import pytest
from email_validator import EmailNotValidError, validate_email
from stdnum.cl import rut as stdnum_rut

import datoteca
from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
COLUMNAS = ["rut", "nombres", "apellido_paterno", "apellido_materno", "nombre_completo", "email", "telefono",
            "comuna", "fecha_nacimiento"]


def _muestra(n=1000, seed=7):
    personas = datoteca.Tabla("persona.persona", seed=seed, campos=COLUMNAS).filas(n)
    montos = datoteca.Tabla("dinero.monto", seed=seed).filas(n)
    d = datoteca.Datoteca(seed=seed)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["id"] + COLUMNAS + ["saldo", "notas"])
    for i, (p, m) in enumerate(zip(personas, montos)):
        # one note in five names a person's RUT, email or phone inside a sentence
        nota = ["sin novedad", "pidió cambio de dirección", "reclamo resuelto",
                f"cliente {d.rut()} pidió copia", f"escribir a {d.persona.email()} mañana",
                f"llamar al {d.telefono.movil()} después de las 17"][i % 6] if i % 5 == 0 else "sin novedad"
        w.writerow([i + 1] + [p[c] for c in COLUMNAS] + [m["monto"], nota])
    return out.getvalue()


@pytest.fixture(scope="module")
def propuesta(tmp_path_factory):
    ruta = tmp_path_factory.mktemp("detectar") / "clientes.csv"
    ruta.write_text(_muestra(), encoding="utf-8")
    r = subprocess.run([CLI, "detectar", str(ruta)], capture_output=True, text=True, check=True)
    return tomllib.loads(r.stdout)


@pytest.mark.parametrize("columna,regla", [
    ("rut", {"regla": "rut"}),
    ("nombres", {"regla": "persona", "campo": "nombres", "entidad": "rut"}),
    ("apellido_paterno", {"regla": "persona", "campo": "apellido_paterno", "entidad": "rut"}),
    ("apellido_materno", {"regla": "persona", "campo": "apellido_materno", "entidad": "rut"}),
    ("nombre_completo", {"regla": "persona", "campo": "nombre_completo", "entidad": "rut"}),
    ("email", {"regla": "persona", "campo": "email", "entidad": "rut"}),
    ("telefono", {"regla": "persona", "campo": "telefono", "entidad": "rut"}),
    ("comuna", {"regla": "persona", "campo": "comuna", "entidad": "rut"}),
    ("fecha_nacimiento", {"regla": "persona", "campo": "fecha_nacimiento", "entidad": "rut"}),
    ("notas", {"regla": "texto"}),
    ("id", {"regla": "mantener"}),
    ("saldo", {"regla": "monto", "porcentaje": 10}),  # an amount: per-cell noise by default (issue 48, item 5)
])
def test_every_column_gets_its_rule(propuesta, columna, regla):
    assert propuesta["version"] == 1
    assert propuesta["columnas"][columna] == regla, f"column {columna}: proposed {propuesta['columnas'][columna]}"


def test_what_it_calls_personal_data_an_outside_validator_accepts():
    """10,000 values of each kind from the library, and their near misses: every 'rut' passes
    python-stdnum, every 'email' email-validator, every 'telefono' phonenumbers (region CL); the
    library's invalid RUTs and emails are not called so."""
    d = datoteca.Datoteca(seed=11)
    vistos = {"rut": 0, "email": 0, "telefono": 0}
    for i in range(10_000):
        for v in (d.rut(), d.persona.email(), d.telefono.movil(), d.telefono.fijo(), d.empresa.rut()):
            k = datoteca.detectar(v)
            assert k in vistos, f"seed 11, value {i}: {v!r} detected as {k!r}"
            vistos[k] += 1
            if k == "rut":
                assert stdnum_rut.is_valid(v), f"seed 11, value {i}: {v!r}"
            elif k == "email":
                try:
                    validate_email(v, check_deliverability=False)
                except EmailNotValidError as e:
                    pytest.fail(f"seed 11, value {i}: {v!r}: {e}")
            else:
                assert phonenumbers.is_valid_number(phonenumbers.parse(v, "CL")), f"seed 11, value {i}: {v!r}"
        malo = d.invalido.rut()["valor"]
        assert datoteca.detectar(malo) != "rut" or stdnum_rut.is_valid(malo), f"seed 11, value {i}: {malo!r}"
    assert vistos == {"rut": 20_000, "email": 10_000, "telefono": 20_000}


def test_a_bad_sample_is_refused_without_its_values(tmp_path):
    ruta = tmp_path / "malo.csv"
    ruta.write_bytes(b'rut,nota\n12.345.678-5,"CANARIO sin cerrar\n')
    r = subprocess.run([CLI, "detectar", str(ruta)], capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"datoteca: {ruta}: record 2 (line 2), field 2: a quoted field is not closed at the end of "
                        "the input (a truncated file?)\n")
    assert "CANARIO" not in r.stderr and "12.345.678" not in r.stderr
