"""Judged by code nobody here wrote: python-stdnum for RUTs, Google's libphonenumber (phonenumbers)
for phones, email-validator for emails. 100,000 values of every call that makes a RUT, a phone or
an email, through the bulk path, in every format, record fields included; zero rejections. Phones
must also be of the right kind: mobiles start with 9, a company's fixed line carries its comuna's
area code (c/data/comunas.csv read here)."""
import csv
import os

import phonenumbers
import pytest
from email_validator import EmailNotValidError, validate_email
from stdnum.cl import rut as stdnum_rut

from conftest import ROOT
from datoteca import Datoteca

N = 100_000
SEED = 1


def _read_csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


COMUNAS = _read_csv("comunas.csv")
REGIONES = {r["nombre_oficial"]: r["codigo_cut"] for r in _read_csv("regiones.csv")}
AREA_DE = {(c["nombre"], c["codigo_region"]): int(c["codigo_area_telefono"]) for c in COMUNAS}
AREAS = set(AREA_DE.values())

# (call, args, field of a record or None)
RUTS = [("rut", {"tipo": t, "formato": f}, None) for t in ("persona", "empresa") for f in ("puntos", "guion", "limpio")] + \
       [("empresa.rut", {"formato": f}, None) for f in ("puntos", "guion", "limpio")] + \
       [("persona.persona", {}, "rut"), ("banco.cuenta", {}, "rut_titular"), ("empresa.empresa", {}, "rut"),
        ("tributario.dte", {}, "emisor_rut"), ("tributario.dte", {}, "receptor_rut")]
MOVILES = [("telefono.movil", {"formato": f}, None) for f in ("internacional", "e164", "nacional")] + \
          [("persona.persona", {}, "telefono")]
FIJOS = [("telefono.fijo", {"formato": f}, None) for f in ("internacional", "e164", "nacional")] + \
        [("empresa.empresa", {}, "telefono")]
EMAILS = [("persona.email", {}, None), ("persona.persona", {}, "email"), ("empresa.empresa", {}, "email")]


def _values(call, args, field):
    values = Datoteca(seed=SEED).many(call, N, **args)
    return values if field is None else [v[field] for v in values]


def _national(text):
    """The national significant number of a phone, parsed by libphonenumber itself."""
    parsed = phonenumbers.parse(text if text.startswith("+") else "+56" + text.replace(" ", ""), None)
    return parsed, str(parsed.national_number)


def _fail(what, call, args, field, i, value, why):
    where = f"{call}{args or ''}{'.' + field if field else ''}"
    pytest.fail(f"{what}: seed {SEED}, {where}, value {i + 1} of {N}: {value!r} {why}")


@pytest.mark.parametrize("call,args,field", RUTS, ids=[f"{c}{a}{f or ''}" for c, a, f in RUTS])
def test_ruts_pass_python_stdnum(call, args, field):
    for i, v in enumerate(_values(call, args, field)):
        if not stdnum_rut.is_valid(v):
            _fail("python-stdnum cl.rut", call, args, field, i, v, "is not a valid RUT")


@pytest.mark.parametrize("call,args,field", MOVILES, ids=[f"{c}{a}{f or ''}" for c, a, f in MOVILES])
def test_mobiles_pass_libphonenumber(call, args, field):
    for i, v in enumerate(_values(call, args, field)):
        parsed, national = _national(v)
        if parsed.country_code != 56 or not phonenumbers.is_valid_number(parsed):
            _fail("libphonenumber", call, args, field, i, v, "is not a valid Chilean number")
        if not national.startswith("9") or len(national) != 9:
            _fail("numbering plan", call, args, field, i, v, "is not a mobile (9 and 8 digits)")


@pytest.mark.parametrize("call,args,field", FIJOS, ids=[f"{c}{a}{f or ''}" for c, a, f in FIJOS])
def test_fixed_lines_pass_libphonenumber_with_their_area_code(call, args, field):
    values = Datoteca(seed=SEED).many(call, N, **args)
    for i, rec in enumerate(values):
        v = rec if field is None else rec[field]
        parsed, national = _national(v)
        if parsed.country_code != 56 or not phonenumbers.is_valid_number(parsed):
            _fail("libphonenumber", call, args, field, i, v, "is not a valid Chilean number")
        area = 2 if national.startswith("2") else int(national[:2])
        if field is None:
            if area not in AREAS:
                _fail("area codes", call, args, field, i, v, f"has area code {area}, which no comuna uses")
        else:
            want = AREA_DE[(rec["comuna"], REGIONES[rec["region"]])]
            if area != want:
                _fail("area codes", call, args, field, i, v, f"has area code {area}; {rec['comuna']} uses {want}")


@pytest.mark.parametrize("call,args,field", EMAILS, ids=[f"{c}{a}{f or ''}" for c, a, f in EMAILS])
def test_emails_pass_email_validator(call, args, field):
    for i, v in enumerate(_values(call, args, field)):
        try:
            validate_email(v, check_deliverability=False)
        except EmailNotValidError as e:
            _fail("email-validator", call, args, field, i, v, f"is refused: {e}")
