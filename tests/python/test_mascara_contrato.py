"""The masking contract (docs/enmascarar.md, "The masking contract"): fixtures/mascara.json, the
hand-written cases of tests/mascara/casos.json masked under the published test key, must be what the
library gives through the C plan (the runner regen uses), through the CLI, and through the Python API;
its RUTs and personas are recomputed from the document by a second implementation (tests/c/mascara_ref.py,
hashlib's BLAKE2s, python-stdnum, the library's persona.persona), so the recorded outputs were not just
copied from the code under test; and tools/regen_fixtures.py refuses a changed output without a new
mapping version and a new major version. Failures name the case, the row and the column."""
import copy
import csv
import hashlib
import importlib.util
import io
import json
import os
import subprocess
import sys

import pytest
from stdnum.cl import rut as stdnum_rut

import datoteca
import mascara_runner as mr
from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))

_spec = importlib.util.spec_from_file_location("mascara_ref", os.path.join(ROOT, "tests", "c", "mascara_ref.py"))
mascara_ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mascara_ref)

FX = mr.load_fixture()
CASOS = {c["nombre"]: c for c in FX["casos"]}


def _compare(nombre, esperado, obtenido, donde):
    assert obtenido["columnas"] == esperado["columnas"], f"{donde}: case {nombre}: output columns"
    assert len(obtenido["filas"]) == len(esperado["filas"]), f"{donde}: case {nombre}: row count"
    for r, (e, o) in enumerate(zip(esperado["filas"], obtenido["filas"]), start=1):
        for col, a, b in zip(esperado["columnas"], e, o):
            assert a == b, f"{donde}: case {nombre}, row {r}, column {col}: expected {a!r}, got {b!r}"


def test_the_fixture_records_this_mapping_version_and_every_case():
    from datoteca._lib import lib

    assert FX["mascara_version"] == lib.DT_MASCARA_VERSION, "fixtures/mascara.json and DT_MASCARA_VERSION differ"
    assert FX["clave_de_prueba"] == mr.CLAVE_DE_PRUEBA == bytes(range(32)).hex()
    fuente = mr.load_casos()
    assert [c["nombre"] for c in fuente] == list(CASOS), "tests/mascara/casos.json and the fixture differ: run tools/regen_fixtures.py"
    for c in fuente:
        for k in ("reglas", "columnas", "filas"):
            assert CASOS[c["nombre"]][k] == c[k], f"case {c['nombre']}: its {k} differ from tests/mascara/casos.json"


def test_the_fixture_is_in_its_canonical_form():
    with open(mr.FIXTURE, encoding="utf-8") as f:
        assert f.read() == mr.canonical(FX), "fixtures/mascara.json was edited by hand: only tools/regen_fixtures.py writes it"


@pytest.mark.parametrize("nombre", list(CASOS))
def test_the_c_plan_gives_the_recorded_outputs(nombre):
    _compare(nombre, CASOS[nombre]["salida"], mr.mascarar(CASOS[nombre], FX["clave_de_prueba"]), "C plan")


@pytest.mark.parametrize("nombre", list(CASOS))
def test_the_python_api_gives_the_recorded_outputs(nombre):
    """datoteca.Enmascarador over dicts and over a pyarrow table (an emptied value is None there)."""
    c = CASOS[nombre]
    # the fixture's key is the published test key, refused since issue 39 unless the caller opts in
    e = datoteca.Enmascarador(c["reglas"], clave=FX["clave_de_prueba"], clave_de_prueba=True)
    filas = e.filas([dict(zip(c["columnas"], f)) for f in c["filas"]])
    obtenido = {"columnas": e.columnas(c["columnas"]),
                "filas": [["" if f[col] is None else f[col] for col in c["salida"]["columnas"]] for f in filas]}
    _compare(nombre, c["salida"], obtenido, "Enmascarador.filas")
    pa = pytest.importorskip("pyarrow")
    t = pa.table({col: pa.array([f[i] for f in c["filas"]], pa.string()) for i, col in enumerate(c["columnas"])})
    out = e.tabla(t)
    out.validate(full=True)
    columnas = out.to_pydict()
    obtenido = {"columnas": out.schema.names,
                "filas": [["" if columnas[col][r] is None else columnas[col][r] for col in out.schema.names]
                          for r in range(out.num_rows)]}
    _compare(nombre, c["salida"], obtenido, "Enmascarador.tabla")


def _csv(columnas, filas):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columnas)
    w.writerows(filas)
    return out.getvalue().encode()


@pytest.mark.parametrize("nombre", list(CASOS))
def test_the_cli_gives_the_recorded_outputs(nombre, tmp_path):
    c = CASOS[nombre]
    (tmp_path / "reglas.toml").write_text(c["reglas"], encoding="utf-8")
    (tmp_path / "clave.hex").write_text(FX["clave_de_prueba"] + "\n")
    (tmp_path / "clave.hex").chmod(0o600)
    p = subprocess.run([CLI, "enmascarar", "--reglas", str(tmp_path / "reglas.toml"), "--clave-de-prueba", "--clave-archivo",
                        str(tmp_path / "clave.hex")], input=_csv(c["columnas"], c["filas"]), capture_output=True)
    assert p.returncode == 0, f"CLI: case {nombre}: exit {p.returncode}: {p.stderr.decode()}"
    filas = list(csv.reader(io.StringIO(p.stdout.decode())))
    _compare(nombre, c["salida"], {"columnas": filas[0], "filas": filas[1:]}, "CLI")
    assert p.stdout == _csv(c["salida"]["columnas"], c["salida"]["filas"]), f"CLI: case {nombre}: the CSV's bytes"


def _rut_columns(caso):
    """The columns whose rule is rut, read from the case's TOML with the standard library's reader."""
    import tomllib

    reglas = tomllib.loads(caso["reglas"])
    return [c for c, r in reglas["columnas"].items() if r["regla"] == "rut"], reglas


def test_every_valid_rut_is_the_documented_permutation():
    """Independent of the C code: the body through mascara_ref.py's Feistel, the check digit by
    python-stdnum, the written form kept (spaces, dots, dash)."""
    keys = mascara_ref.subkeys(FX["clave_de_prueba"])
    vistos = 0
    for nombre, c in CASOS.items():
        cols, _ = _rut_columns(c)
        for col in cols:
            i, o = c["columnas"].index(col), c["salida"]["columnas"].index(col)
            for r, (fila, sal) in enumerate(zip(c["filas"], c["salida"]["filas"]), start=1):
                v = fila[i]
                if not v.strip() or not stdnum_rut.is_valid(v.strip()):
                    continue
                cuerpo = int(stdnum_rut.compact(v.strip())[:-1])
                m = mascara_ref.mask_body(keys, cuerpo)
                dv = stdnum_rut.calc_check_digit(str(m))
                nucleo = v.strip()
                cuerpo_txt = f"{m:,}".replace(",", ".") if "." in nucleo else str(m)
                dv_out = "k" if nucleo[-1] == "k" and dv == "K" else dv
                esperado = v[: len(v) - len(v.lstrip())] + cuerpo_txt + ("-" if "-" in nucleo else "") + dv_out + v[len(v.rstrip()):]
                assert sal[o] == esperado, f"case {nombre}, row {r}, column {col}: expected {esperado!r}, recorded {sal[o]!r}"
                vistos += 1
    assert vistos >= 30, f"only {vistos} valid RUTs in the cases"


def _contacto(p, campo, m, realista):
    """docs/enmascarar.md, "Contact data that reaches no one" (mapping version 2): the email's local part
    without its trailing digits, then the masked body, @example.com (realista: the generated domain); the
    phone +56 9 0 and the masked body's last seven digits (realista: the generated phone)."""
    if campo == "email":
        local, dominio = p["email"].split("@")
        return local.rstrip("0123456789") + str(m) + "@" + (dominio if realista else "example.com")
    if campo == "telefono" and not realista:
        siete = f"{m % 10_000_000:07d}"
        return f"+56 9 0{siete[:3]} {siete[3:]}"
    return p[campo]


def test_every_persona_field_is_the_documented_derivation():
    """seed = SipHash-2-4(first 16 bytes of BLAKE2s-256(key, "datoteca/persona/v1"), LE64(masked body)),
    then persona.persona(sexo cualquiera, 18..80) with hoy 2026-01-01, as docs/enmascarar.md says."""
    keys = mascara_ref.subkeys(FX["clave_de_prueba"])
    sub = hashlib.blake2s(b"datoteca/persona/v1", key=bytes.fromhex(FX["clave_de_prueba"]), digest_size=32).digest()[:16]
    vistos = 0
    for nombre, c in CASOS.items():
        _, reglas = _rut_columns(c)
        for col, regla in reglas["columnas"].items():
            if regla["regla"] != "persona":
                continue
            i, o = c["columnas"].index(col), c["salida"]["columnas"].index(col)
            e = c["columnas"].index(regla["entidad"])
            for r, (fila, sal) in enumerate(zip(c["filas"], c["salida"]["filas"]), start=1):
                ent = fila[e].strip()
                if not fila[i] or not ent or not stdnum_rut.is_valid(ent):
                    continue
                m = mascara_ref.mask_body(keys, int(stdnum_rut.compact(ent)[:-1]))
                seed = mascara_ref.siphash24(sub, m.to_bytes(8, "little"))
                sexo = None
                if "sexo" in regla:  # docs/enmascarar.md, "Keeping the original sex"
                    dicho = fila[c["columnas"].index(regla["sexo"])].strip().lower()
                    sexo = {"f": "F", "femenino": "F", "mujer": "F", "m": "M", "masculino": "M", "hombre": "M"}.get(dicho)
                    if sexo is None:
                        continue
                p = datoteca.Datoteca(seed=seed, hoy="2026-01-01").persona.persona(sexo=sexo)
                campo = regla["campo"]
                esperado = _contacto(p, campo, m, regla.get("realista", False))
                assert sal[o] == str(esperado), (
                    f"case {nombre}, row {r}, column {col}: the persona of seed {seed} has {campo} {esperado!r}, recorded {sal[o]!r}")
                vistos += 1
    assert vistos >= 40, f"only {vistos} persona values in the cases"


def _regen():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import regen_fixtures
    finally:
        sys.path.pop(0)
    return regen_fixtures


@pytest.fixture
def regen(tmp_path, monkeypatch):
    """tools/regen_fixtures.py's masking stage pointed at copies of the fixture and the cases."""
    rg = _regen()
    fx, casos = tmp_path / "mascara.json", tmp_path / "casos.json"
    fx.write_text(mr.canonical(FX), encoding="utf-8")
    casos.write_text(json.dumps({"casos": mr.load_casos()}, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(rg.mr, "FIXTURE", str(fx))
    monkeypatch.setattr(rg.mr, "CASOS", str(casos))
    return rg, fx, casos


def test_regen_has_nothing_to_write_for_the_recorded_outputs(regen):
    rg, _, _ = regen
    assert rg.mascara_stage(datoteca.version()) is None


def _as_if_released(fx_path, mutate=None):
    """The fixture as a released 2.1.0 would have left it, with the cases recorded by 2.1.0 and one
    recorded output changed by `mutate`: what a later library that maps differently would meet."""
    fx = json.loads(fx_path.read_text(encoding="utf-8"))
    for c in fx["casos"]:
        c["since"] = "2.0.0"
    fx["written_by"] = "2.0.0"
    fx["primera_version"] = {str(fx["mascara_version"]): "2.0.0"}
    if mutate:
        mutate(fx)
    fx_path.write_text(mr.canonical(fx), encoding="utf-8")


def test_regen_refuses_a_changed_output_without_a_new_mapping_version(regen):
    rg, fx, _ = regen

    def cambia(f):
        f["casos"][0]["salida"]["filas"][3][1] = "1.000.001-7"

    _as_if_released(fx, cambia)
    with pytest.raises(rg.Refusal, match=r"recorded masking outputs changed.*new mapping version.*new major"):
        rg.mascara_stage(datoteca.version())


def test_regen_refuses_a_new_mapping_version_without_a_new_major(regen, monkeypatch):
    rg, fx, _ = regen
    _as_if_released(fx, lambda f: f["casos"][0]["salida"]["filas"][3].__setitem__(1, "x"))
    siguiente = FX["mascara_version"] + 1
    monkeypatch.setattr(rg, "header_mascara_version", lambda path=None: siguiente)
    with pytest.raises(rg.Refusal, match=rf"mapping version {siguiente} needs a new major version"):
        rg.mascara_stage("2.2.0")


def test_regen_revises_an_open_mapping_version_and_not_a_released_one(regen, monkeypatch):
    """A mapping version introduced by the current, unreleased library version takes later changes of
    its round as revisions; once that version is released, the same change needs another mapping version."""
    rg, fx, _ = regen
    recorded = FX["mascara_version"]

    def abierto(f):
        f["primera_version"][str(recorded)] = "9.0.0"
        f["casos"][0]["salida"]["filas"][3][1] = "x"

    fixture = json.loads(fx.read_text(encoding="utf-8"))
    abierto(fixture)
    fx.write_text(mr.canonical(fixture), encoding="utf-8")
    monkeypatch.setattr(rg, "unreleased_version", lambda v: v == "9.0.0")
    assert rg.mascara_stage("9.0.0") is not None  # a revision: accepted
    monkeypatch.setattr(rg, "unreleased_version", lambda v: False)
    with pytest.raises(rg.Refusal, match=r"recorded masking outputs changed"):
        rg.mascara_stage("9.0.0")


def test_regen_refuses_an_edited_or_removed_case(regen):
    rg, fx, casos = regen
    fuente = json.loads(casos.read_text(encoding="utf-8"))
    editado = copy.deepcopy(fuente)
    editado["casos"][0]["filas"][0][1] = "2-7"
    casos.write_text(json.dumps(editado), encoding="utf-8")
    with pytest.raises(rg.Refusal, match=r"were edited; a recorded case is never edited"):
        rg.mascara_stage(datoteca.version())
    del fuente["casos"][1]
    casos.write_text(json.dumps(fuente), encoding="utf-8")
    with pytest.raises(rg.Refusal, match=r"is gone from tests/mascara/casos.json"):
        rg.mascara_stage(datoteca.version())


def test_regen_accepts_an_added_case(regen):
    rg, _, casos = regen
    fuente = json.loads(casos.read_text(encoding="utf-8"))
    fuente["casos"].append({"nombre": "nuevo", "reglas": "version = 1\n[columnas]\nrut = { regla = \"rut\" }\n",
                            "columnas": ["rut"], "filas": [["11.111.111-1"]]})
    casos.write_text(json.dumps(fuente), encoding="utf-8")
    texto = rg.mascara_stage(datoteca.version())
    nuevo = json.loads(texto)["casos"][-1]
    assert nuevo["nombre"] == "nuevo" and nuevo["since"] == datoteca.version()
    assert [c["salida"] for c in json.loads(texto)["casos"][:-1]] == [c["salida"] for c in FX["casos"]]


def _dia(s):
    import datetime
    import re

    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", s) or re.fullmatch(r"(\d{2})[-/](\d{2})[-/](\d{4})", s)
    if not m:
        return None
    a, b, c = m.groups()
    y, mo, d = (a, b, c) if len(a) == 4 else (c, b, a)
    return datetime.date(int(y), int(mo), int(d)).toordinal()


def test_recorded_dates_and_amounts_keep_their_documented_bounds():
    """Read from the recorded outputs, without the masking code (docs/enmascarar.md, "The value rules,
    exactly"). With `conserva` (mapping version 1's per-entity form): a date moves by 1..N days (never 0),
    by the same offset for every date of one entity (the RUT spelled any way); an amount stays within
    +-P %. By default (per cell, then generalised): a date is the first day of its year (`anio`) or month
    (`mes`), or a day (`dia`), reachable by a shift of 1..N days; an amount has at most `cifras` (2)
    significant digits and is within +-P % of the input, give or take half a unit of its last kept digit.
    The sign is kept."""
    import datetime
    import tomllib

    for nombre, c in CASOS.items():
        reglas = tomllib.loads(c["reglas"])["columnas"]
        por_entidad = {}
        for col, regla in reglas.items():
            if regla["regla"] not in ("fecha", "monto"):
                continue
            i, o = c["columnas"].index(col), c["salida"]["columnas"].index(col)
            for r, (fila, sal) in enumerate(zip(c["filas"], c["salida"]["filas"]), start=1):
                donde = f"case {nombre}, row {r}, column {col}"
                if not sal[o]:
                    continue
                ent = fila[c["columnas"].index(regla["entidad"])].strip() if "entidad" in regla else None
                clave = (regla["regla"], stdnum_rut.compact(ent)) if ent else None
                conserva = "conserva" in regla
                if regla["regla"] == "fecha":
                    antes, despues = _dia(fila[i]), _dia(sal[o])
                    if conserva:
                        delta = despues - antes
                        assert 0 < abs(delta) <= regla["dias"], f"{donde}: moved {delta} days"
                        if clave:
                            assert por_entidad.setdefault(clave, delta) == delta, f"{donde}: another offset than the entity's other dates"
                        continue
                    g = regla.get("generalizar", "anio")
                    d = datetime.date.fromordinal(despues)
                    periodo = {"anio": lambda x: x.year, "mes": lambda x: (x.year, x.month), "dia": lambda x: x}[g]
                    if g == "anio":
                        assert (d.month, d.day) == (1, 1), f"{donde}: {sal[o]!r} is not the first day of a year"
                    elif g == "mes":
                        assert d.day == 1, f"{donde}: {sal[o]!r} is not the first day of a month"
                    lejos = [x for x in range(antes - regla["dias"], antes + regla["dias"] + 1)
                             if x != antes and 1 <= x <= datetime.date.max.toordinal()]
                    assert any(periodo(datetime.date.fromordinal(x)) == periodo(d) for x in lejos), (
                        f"{donde}: {fila[i]!r} -> {sal[o]!r}: no shift of 1..{regla['dias']} days reaches that {g}")
                else:
                    v = int("".join(ch for ch in fila[i] if ch.isdigit()))
                    w = int("".join(ch for ch in sal[o] if ch.isdigit()))
                    p = regla["porcentaje"]
                    if conserva:
                        assert v * (100 - p) <= w * 100 <= v * (100 + p), f"{donde}: {fila[i]!r} -> {sal[o]!r} beyond {p} %"
                    else:
                        cifras = regla.get("cifras", 2)
                        assert len(str(w).rstrip("0") or "0") <= cifras, f"{donde}: {sal[o]!r} has more than {cifras} significant digits"
                        media = 10 ** max(len(str(v * (100 + p) // 100)) - cifras, 0) // 2 + 1
                        assert v * (100 - p) - 100 * media <= w * 100 <= v * (100 + p) + 100 * media, (
                            f"{donde}: {fila[i]!r} -> {sal[o]!r} beyond {p} % and the rounding to {cifras} digits")
                assert fila[i].startswith("-") == sal[o].startswith("-"), f"{donde}: the sign changed"
