"""The data contract in Python: the table digests, the golden dataset (value by value with the
stream position after each call, then byte for byte) and the digests of the first 10,000 values
of every call (tests/python/golden_runner.py holds the stages). The fixture's values are also
checked against independent expectations (a mod-11 written here, the CSVs read directly), so it
cannot enshrine a bug unnoticed. Nothing here writes a fixture."""
import csv
import datetime
import json
import os
import re
import subprocess
import sys

import pytest

import datoteca
import golden_runner
from datoteca import Datoteca

ROOT = golden_runner.ROOT


def _golden():
    with open(golden_runner.GOLDEN, encoding="utf-8") as f:
        return f.read()


SEQUENCE = golden_runner.load_sequence()
FINGERPRINT = golden_runner.load(golden_runner.FINGERPRINT)


def _no_failures(failures):
    assert not failures, "\n".join(failures)


def test_data_versions_agree():
    _no_failures(golden_runner.check_versions(json.loads(_golden()), FINGERPRINT))


def test_table_digests():
    _no_failures(golden_runner.check_tables(FINGERPRINT))


def test_golden_values_draws_and_bytes():
    """First divergence (seed, 1-based call number, call, field, expected, actual), then the
    stream position after each call, then the canonical bytes."""
    _no_failures(golden_runner.check_golden(SEQUENCE, json.loads(_golden()), _golden()))


def test_call_digests():
    _no_failures(golden_runner.check_calls(FINGERPRINT))


def test_dataset_digests():
    """Rows 0..9,999 and 1,000 far rows of every dataset case (the dataset mode shares no digest
    with the sequence): a failure names the case, the slice and the first row that differs."""
    _no_failures(golden_runner.check_datasets(FINGERPRINT))


def test_dataset_cases_cover_every_call_with_its_unique_null_and_dirty_variants():
    listed = [(e["call"], e["options"]) for e in FINGERPRINT["datasets"]]
    assert listed == golden_runner.dataset_cases()
    for e in FINGERPRINT["datasets"]:
        far = e["slices"][1]["desde"]
        assert [s["desde"] for s in e["slices"]] == [0, golden_runner.far_start(e.get("capacity", 2**63))], e["call"]
        assert far >= 10**9 or far + 1000 == e["capacity"], f"{golden_runner.case_label(e)}: the far slice is not at the end"


def test_esquema_digests():
    """Each shipped schema at seed 42: its file's sha256 (an edited schema is named as such), then each
    table's rows, rows 0..9,999 and its last 1,000: a failure names the file, the table and the row."""
    _no_failures(golden_runner.check_esquemas(FINGERPRINT))


def test_esquemas_cover_every_shipped_schema_and_table():
    """A schema added to esquemas/ (or a table added to one) is recorded by tools/regen_fixtures.py."""
    listed = [e["esquema"] for e in FINGERPRINT["esquemas"]]
    assert listed == golden_runner.shipped_schemas(), "esquemas/ and fingerprint.json differ: run tools/regen_fixtures.py"
    for e in FINGERPRINT["esquemas"]:
        assert e["seed"] == golden_runner.ESQUEMA_SEED, e["esquema"]
        for t in e["tablas"]:
            slices = [(s["desde"], s["n"]) for s in t["slices"]]
            assert slices == golden_runner.esquema_slices(t["filas"]), f"{e['esquema']}, table {t['tabla']}: slices {slices}"


def test_fingerprint_is_in_its_canonical_form():
    """The bytes regen_fixtures.py writes: an edit by hand that reformats the file (and so hides
    what changed in its diff) fails here."""
    with open(golden_runner.FINGERPRINT, encoding="utf-8") as f:
        assert f.read() == golden_runner.canonical_fingerprint(FINGERPRINT)


def test_sequence_covers_every_call():
    calls = [c["call"] for c in SEQUENCE["calls"]]
    assert len(calls) >= 80
    assert set(calls) == set(datoteca.calls())


def test_fingerprint_covers_every_call_and_every_golden_argument_set():
    listed = [(e["call"], e["args"]) for e in FINGERPRINT["calls"]]
    assert listed == golden_runner.arg_sets(SEQUENCE)
    assert all([r["seed"] for r in e["runs"]] == SEQUENCE["seeds"] for e in FINGERPRINT["calls"])
    assert [t["table"] for t in FINGERPRINT["tables"]] == [t["name"] for t in datoteca.tables()]


@pytest.mark.parametrize("k", [0, 1, 2, 3, 31, 1000, 65537])
def test_draws_between_counts_draws(k):
    """The stream position is computed from saved states by an LCG jump-ahead written in the
    test; it must equal the number of draws actually taken."""
    d = Datoteca(seed=99)
    before = d.save_state()
    for _ in range(k):
        d.next_u32()
    assert golden_runner.draws_between(before, d.save_state()) == k, f"after {k} draws"


def test_the_runner_cannot_write_the_fixtures(tmp_path):
    """Only tools/regen_fixtures.py writes fixtures/: the runner refuses a path there (the C and
    Node runners are tested the same way in their suites)."""
    before = _golden()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "python", "golden_runner.py"), golden_runner.GOLDEN],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "regen_fixtures.py" in r.stderr, f"exit {r.returncode}, {r.stderr!r}"
    assert _golden() == before
    out = tmp_path / "golden.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "python", "golden_runner.py"), str(out)], check=True)
    assert out.read_text(encoding="utf-8") == before


# ---- independent review of the fixture's values -------------------------------------------

import props  # noqa: E402
from props import mod11 as _mod11, movil_aceptado  # noqa: E402 - the independent references


def _read_csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


COMUNAS = _read_csv("comunas.csv")
POSTAL = {p["codigo_comuna"]: p["codigo_postal_base"] for p in _read_csv("codigos_postales.csv")}
REGIONES = {r["codigo_cut"]: r for r in _read_csv("regiones.csv")}
REGION_BY_NAME = {r["nombre_oficial"]: c for c, r in REGIONES.items()}
COMUNA_REGION = {(c["nombre"], c["codigo_region"]) for c in COMUNAS}
COMUNA_BY_CUT = {c["codigo_cut"]: c for c in COMUNAS}
AREA_CODES = {int(c["codigo_area_telefono"]) for c in COMUNAS}
DOMINIOS = {d["dominio"] for d in _read_csv("dominios_email.csv")}
BANCOS = {(b["codigo"], b["nombre_comun"]) for b in _read_csv("bancos.csv") if b["estado"] == "vigente"}

RUT_RE = re.compile(r"^(\d{1,3}(?:\.\d{3})*|\d+)-?([\dK])$")
MOVIL_RE = re.compile(r"^(\+56 9 \d{4} \d{4}|\+569\d{8}|9 \d{4} \d{4})$")
FIJO_RE = re.compile(r"^(?:\+56 |\+56|)(2 ?2\d{3} ?\d{4}|(\d\d) ?2\d\d ?\d{4})$")


def _check_rut(where, text):
    m = RUT_RE.match(text)
    assert m, f"{where}: {text!r} is not a RUT"
    body = int(m.group(1).replace(".", ""))
    assert _mod11(body) == m.group(2), f"{where}: {text!r} check digit, mod-11 says {_mod11(body)}"
    return body


def _check_comuna(where, comuna, region_name):
    code = REGION_BY_NAME.get(region_name)
    assert code, f"{where}: unknown region {region_name!r}"
    assert (comuna, code) in COMUNA_REGION, f"{where}: comuna {comuna!r} is not in {region_name!r}"


def _check_email(where, email, *names):
    assert email.isascii() and email == email.lower(), f"{where}: email {email!r} is not lower-case ASCII"
    local, _, domain = email.partition("@")
    assert domain in DOMINIOS or domain.endswith(".cl"), f"{where}: domain of {email!r}"
    assert local and re.fullmatch(r"[a-z0-9._]+", local), f"{where}: local part of {email!r}"


def _check_phone(where, text, fijo=None):
    if fijo is None:
        assert MOVIL_RE.match(text) and movil_aceptado(text), f"{where}: mobile {text!r} (shape, or outside the accepted blocks)"
        return
    m = FIJO_RE.match(text)
    assert m, f"{where}: fixed line {text!r}"
    area = int(m.group(2)) if m.group(2) else 2
    assert area in AREA_CODES, f"{where}: area code {area} of {text!r} does not exist"
    return area


def _check_birth(where, text, hoy, lo=18, hi=80):
    born = datetime.date.fromisoformat(text)
    age = hoy.year - born.year - ((hoy.month, hoy.day) < (born.month, born.day))
    assert lo <= age <= hi, f"{where}: born {text} is {age}, outside [{lo}, {hi}]"


def test_the_fixture_is_valid_by_independent_checks():
    golden = json.loads(_golden())
    sequence = golden_runner.load_sequence()
    hoy = datetime.date.fromisoformat(golden["hoy"])
    for run in golden["runs"]:
        for i, (step, entry) in enumerate(zip(sequence["calls"], run["values"])):
            where = f"seed {run['seed']}, call {i + 1} ({entry['call']})"
            v, args, call = entry["value"], step["args"], entry["call"]
            if call in ("rut", "empresa.rut"):
                body = _check_rut(where, v)
                empresa = call == "empresa.rut" or args.get("tipo") == "empresa"
                assert (76_000_000 <= body <= 77_999_999) if empresa else (1_000_000 <= body <= 29_999_999), f"{where}: body {body}"
            elif call == "persona.persona":
                _check_rut(where, v["rut"])
                _check_comuna(where, v["comuna"], v["region"])
                born = datetime.date.fromisoformat(v["fecha_nacimiento"])
                if hoy.year - born.year - ((hoy.month, hoy.day) < (born.month, born.day)) < 14:  # docs/data.md
                    assert v["email"] is None and v["telefono"] is None, f"{where}: a child with {v['email']!r}, {v['telefono']!r}"
                else:
                    _check_email(where, v["email"])
                    _check_phone(where, v["telefono"])
                _check_birth(where, v["fecha_nacimiento"], hoy, args.get("edad_min", 18), args.get("edad_max", 80))
                assert v["nombre_completo"] == f"{v['nombres']} {v['apellido_paterno']} {v['apellido_materno']}", where
            elif call == "direccion.direccion":
                c = COMUNA_BY_CUT.get(v["codigo_comuna"])
                assert c and c["nombre"] == v["comuna"] and c["codigo_provincia"] == v["codigo_provincia"], f"{where}: {v}"
                assert c["codigo_region"] == v["codigo_region"] and REGIONES[v["codigo_region"]]["nombre_oficial"] == v["region"], f"{where}: {v}"
                if "region" in args:
                    assert int(v["codigo_region"]) == args["region"], where
                assert v["codigo_postal"] == POSTAL[v["codigo_comuna"]], f"{where}: postal code {v['codigo_postal']!r}, the comuna's is {POSTAL[v['codigo_comuna']]!r}"
            elif call == "direccion.comuna" and "region" in args:
                assert (v, f"{args['region']:02d}") in COMUNA_REGION, f"{where}: {v!r} not in region {args['region']}"
            elif call == "telefono.movil":
                _check_phone(where, v)
            elif call == "telefono.fijo":
                area = _check_phone(where, v, fijo=True)
                if "region" in args:
                    codes = {int(c["codigo_area_telefono"]) for c in COMUNAS if int(c["codigo_region"]) == args["region"]}
                    assert area in codes, f"{where}: area {area} is not used in region {args['region']}"
            elif call == "persona.email":
                _check_email(where, v)
            elif call == "persona.fecha_nacimiento":
                _check_birth(where, v, hoy, args.get("edad_min", 18), args.get("edad_max", 80))
            elif call == "dinero.clp":
                assert re.fullmatch(r"\$\d{1,3}(\.\d{3})*", v), f"{where}: {v!r}"
                amount = int(v[1:].replace(".", ""))
                assert args.get("min", 1000) <= amount <= args.get("max", 1_000_000), f"{where}: {v!r}"
            elif call == "dinero.uf":
                assert re.fullmatch(r"UF \d{1,3}(\.\d{3})*,\d\d", v), f"{where}: {v!r}"
                cents = int(v[3:].replace(".", "").replace(",", ""))
                assert args.get("min", 100) <= cents <= args.get("max", 10_000_000), f"{where}: {v!r}"
            elif call == "dinero.monto":
                assert args.get("min", 1000) <= int(v) <= args.get("max", 1_000_000), f"{where}: {v!r}"
            elif call == "banco.banco":
                assert (v["codigo"], v["nombre"]) in BANCOS, f"{where}: {v}"
            elif call == "banco.cuenta":
                body = _check_rut(where, v["rut_titular"])
                assert (v["codigo_banco"], v["banco"]) in BANCOS, f"{where}: {v}"
                if v["tipo_cuenta"] == "CuentaRUT":
                    assert v["codigo_banco"] == "012" and int(v["numero"]) == body, f"{where}: {v}"
            elif call == "empresa.empresa":
                body = _check_rut(where, v["rut"])
                antigua = v["razon_social"].endswith(" S.A.") and 90_000_000 <= body <= 99_999_999  # datoteca.h
                assert 76_000_000 <= body <= 77_999_999 or antigua, f"{where}: body {body} for {v['razon_social']!r}"
                _check_comuna(where, v["comuna"], v["region"])
                area = _check_phone(where, v["telefono"], fijo=True)
                comuna = [c for c in COMUNAS if c["nombre"] == v["comuna"] and c["codigo_region"] == REGION_BY_NAME[v["region"]]][0]
                assert area == int(comuna["codigo_area_telefono"]), f"{where}: phone area {area} vs comuna {comuna['nombre']}"
                _check_email(where, v["email"])
                assert v["razon_social"].startswith(v["nombre_fantasia"]), where
            elif call == "vehiculo.patente":
                m = re.fullmatch(r"([A-Z]{2,4})[·-]?(\d{2,4})(?:-([0-9K]))?", v)
                assert m, f"{where}: {v!r}"
                if m.group(3):
                    assert props.ppu_dv(m.group(1), m.group(2)) == m.group(3), f"{where}: {v!r}, reference {props.ppu_dv(m.group(1), m.group(2))}"
            elif call == "vehiculo.vehiculo":
                letras, numero = v["patente"].split("·")
                assert props.ppu_dv(letras, numero) == v["dv"] and 2008 <= int(v["anio"]) <= hoy.year, f"{where}: {v}"
            elif call == "tributario.dte":
                neto, exento, iva, total = (int(v[k]) for k in ("monto_neto", "monto_exento", "iva", "monto_total"))
                assert iva == (neto * 19 + 50) // 100 and total == neto + exento + iva, f"{where}: {v}"
                _check_rut(where, v["emisor_rut"])
                _check_rut(where, v["receptor_rut"])
                assert datetime.date.fromisoformat(v["fecha_emision"]) <= hoy, f"{where}: {v['fecha_emision']}"
            elif call in ("fecha.fecha", "fecha.fecha_hora"):
                dia = datetime.date.fromisoformat(v[:10])
                lo, hi = args.get("desde", -365), args.get("hasta", 0)
                assert hoy + datetime.timedelta(days=lo) <= dia <= hoy + datetime.timedelta(days=hi), f"{where}: {v}"
