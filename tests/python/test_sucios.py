"""Dirty data (docs/sucios.md), against expectations computed here, not by the library: every dirty
RUT cleans back to its clean value through python-stdnum and through the library's own cleaners,
every dirty phone parses with phonenumbers (region CL) to the clean E.164 number (the pre-2016
spelling once its trunk 0 is dropped: phonenumbers no longer knows it), every dirty name
folds (NFD, marks out, upper, spaces collapsed) to the clean one and is the form's transform written
here, every dirty comuna maps back through c/data/comunas_abreviaturas.csv or the accent rule to a
real comuna of c/data/comunas.csv. 20,000 values per call and form; under `cualquiera` each form's
share is 1/5 ± 1.5 %. Datasets: 100,000 persona rows with sucio={"rut": 100} are 10 % ± 0.5 %
dirty, each dirty cell cleans back to the same seed's clean cell, and every other cell is the clean
table's. A failure names the seed, the value or row index, the call, expected and actual."""
import csv
import os
import subprocess
import unicodedata
from collections import Counter

import phonenumbers
import pytest
from stdnum.cl import rut as stdnum_rut

import datoteca
from conftest import ROOT
from datoteca import Datoteca, Tabla

N = 20_000
SEED = 2025
FORMAS = {
    "sucio.rut": ["sin_puntos", "minuscula", "espacios", "ceros", "sin_guion"],
    "sucio.nombre": ["mayusculas_sin_tildes", "mayusculas", "minusculas", "minusculas_sin_tildes", "espacios"],
    "sucio.comuna": ["sin_tildes", "mayusculas", "mayusculas_sin_tildes", "minusculas", "abreviatura"],
    "sucio.movil": ["antiguo", "parentesis", "internacional", "junto", "sin_mas"],
    "sucio.fijo": ["antiguo", "parentesis", "internacional", "junto", "sin_mas"],
}


def _csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


COMUNAS = {r["nombre"]: r["codigo_cut"] for r in _csv("comunas.csv")}
ABREVIATURAS = {r["abreviatura"]: r["comuna"] for r in _csv("comunas_abreviaturas.csv")}


def sin_marcas(s):
    """The reference accent rule: NFD, combining marks dropped (Ñ -> N, á -> a)."""
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))


def plegar(s):
    """How a cleaning pipeline compares names: no accents, upper case, single spaces."""
    return " ".join(sin_marcas(s).upper().split())


CLAVES = {plegar(c): c for c in COMUNAS}
assert len(CLAVES) == len(COMUNAS), "two comunas fold to the same key: the accent rule could not map back"


# ---- the cleaners, as a pipeline would write them -------------------------------------------

def rut_por_stdnum(v):
    """stdnum's compact drops spaces, dots and dashes; leading zeros are stripped by hand (stdnum
    keeps them and then finds the length wrong), then its format."""
    c = stdnum_rut.compact(v).lstrip("0")
    if not stdnum_rut.is_valid(c):
        return None
    return stdnum_rut.format(c)


def rut_por_datoteca(v):
    """The library's validator trims ASCII whitespace itself and refuses leading zeros on purpose
    (docs/rut.md): the pipeline strips them first."""
    return datoteca.formatear_rut(v.strip().lstrip("0"))


def e164(v):
    """phonenumbers (9.0.43) has no national prefix for Chile any more: the trunk 0 of the numbers
    written before 2016 ("09-1234 5678", "02-2345 6789") would be read as a digit of the number, so
    the pipeline drops one leading 0 first (docs/sucios.md); every other form is parsed as it is."""
    v = v.strip()
    if v.startswith("0"):
        v = v[1:]
    return phonenumbers.format_number(phonenumbers.parse(v, "CL"), phonenumbers.PhoneNumberFormat.E164)


def comuna_de(v):
    """A dirty comuna back to a comuna of comunas.csv: an abbreviation of the CSV, else by its folded key."""
    if v in ABREVIATURAS:
        return ABREVIATURAS[v]
    return CLAVES.get(plegar(v))


# ---- each form's own shape, written here from docs/sucios.md -----------------------------------

FORMA_RUT = {
    "sin_puntos": lambda v, limpio: v == limpio.replace(".", ""),
    "minuscula": lambda v, limpio: limpio.endswith("K") and v == limpio[:-1] + "k",
    "espacios": lambda v, limpio: v == f" {limpio} ",
    "ceros": lambda v, limpio: v == limpio.replace(".", "").split("-")[0].zfill(9) + "-" + limpio[-1],
    "sin_guion": lambda v, limpio: v == limpio.replace(".", "").replace("-", ""),
}
FORMA_NOMBRE = {
    "mayusculas_sin_tildes": lambda limpio: sin_marcas(limpio).upper(),
    "mayusculas": lambda limpio: limpio.upper(),
    "minusculas": lambda limpio: limpio.lower(),
    "minusculas_sin_tildes": lambda limpio: sin_marcas(limpio).lower(),
    "espacios": lambda limpio: limpio.replace(" ", "  ") + " ",
}
FORMA_COMUNA = {
    "sin_tildes": lambda limpio: sin_marcas(limpio),
    "mayusculas": lambda limpio: limpio.upper(),
    "mayusculas_sin_tildes": lambda limpio: sin_marcas(limpio).upper(),
    "minusculas": lambda limpio: limpio.lower(),
    "abreviatura": lambda limpio: next((a for a, c in ABREVIATURAS.items() if c == limpio), None),
}


def _partes(nacional):
    """A 9-digit national number as (area, subscriber grouped): 9 and 2 have one digit."""
    area = nacional[:1] if nacional[0] in "92" else nacional[:2]
    sub = nacional[len(area):]
    k = 4 if len(sub) == 8 else 3
    return area, f"{sub[:k]} {sub[k:]}"


FORMA_TEL = {
    "antiguo": lambda n: "0{}-{}".format(*_partes(n)),
    "parentesis": lambda n: "({}) {}".format(*_partes(n)),
    "internacional": lambda n: "+56 {} {}".format(*_partes(n)),
    "junto": lambda n: n,
    "sin_mas": lambda n: "56" + n,
}


def revisar(call, forma, v, i):
    """The failures of one value of `call` asked in `forma` (None for cualquiera)."""
    s, limpio, dada = v["sucio"], v["limpio"], v["forma"]
    where = f"seed {SEED}, value {i}, {call}(forma={forma or 'cualquiera'})"
    out = []
    if forma is not None and dada != forma:
        out.append(f"{where}: forma {dada!r}, expected {forma!r}")
    if dada not in FORMAS[call]:
        return out + [f"{where}: forma {dada!r} is not one of {FORMAS[call]}"]
    if s == limpio:
        out.append(f"{where}: the dirty value {s!r} equals the clean one")
    if call == "sucio.rut":
        if not stdnum_rut.is_valid(limpio) or rut_por_stdnum(limpio) != limpio:
            out.append(f"{where}: limpio {limpio!r} is not a RUT in the library's format")
        for quien, limpiar in (("stdnum", rut_por_stdnum), ("datoteca", rut_por_datoteca)):
            try:
                got = limpiar(s)
            except datoteca.DatotecaError as e:
                got = f"refused: {e}"
            if got != limpio:
                out.append(f"{where}: {quien} cleans {s!r} to {got!r}, expected {limpio!r}")
        if datoteca.limpiar_rut(s.strip().lstrip("0")) != datoteca.limpiar_rut(limpio):
            out.append(f"{where}: limpiar_rut of {s!r} is not limpiar_rut of {limpio!r}")
        if not FORMA_RUT[dada](s, limpio):
            out.append(f"{where}: {s!r} is not {limpio!r} in the form {dada}")
    elif call == "sucio.nombre":
        if plegar(s) != plegar(limpio):
            out.append(f"{where}: {s!r} folds to {plegar(s)!r}, expected {plegar(limpio)!r} (from {limpio!r})")
        if s != FORMA_NOMBRE[dada](limpio):
            out.append(f"{where}: form {dada} of {limpio!r} is {FORMA_NOMBRE[dada](limpio)!r}, got {s!r}")
    elif call == "sucio.comuna":
        if limpio not in COMUNAS or COMUNAS[limpio] != v["codigo_comuna"]:
            out.append(f"{where}: limpio {limpio!r} {v['codigo_comuna']} is not a comuna of comunas.csv with its code")
        if comuna_de(s) != limpio:
            out.append(f"{where}: {s!r} maps back to {comuna_de(s)!r}, expected {limpio!r}")
        if s != FORMA_COMUNA[dada](limpio):
            out.append(f"{where}: form {dada} of {limpio!r} is {FORMA_COMUNA[dada](limpio)!r}, got {s!r}")
    else:
        try:
            got = e164(s)
        except phonenumbers.NumberParseException as e:
            got = f"unparsed: {e}"
        if got != limpio:
            out.append(f"{where}: phonenumbers parses {s!r} to {got!r}, expected {limpio!r}")
        if dada == "antiguo" and phonenumbers.is_valid_number(phonenumbers.parse(s, "CL")):
            out.append(f"{where}: phonenumbers now reads the trunk 0 of {s!r} itself: docs/sucios.md and e164() here "
                       "can drop the step that removes it")
        n = phonenumbers.parse(limpio, "CL")
        movil = call == "sucio.movil"
        if not phonenumbers.is_valid_number(n) or (str(n.national_number)[0] == "9") != movil:
            out.append(f"{where}: limpio {limpio!r} is not a valid {'mobile' if movil else 'fixed line'}")
        elif s != FORMA_TEL[dada](str(n.national_number)):
            out.append(f"{where}: form {dada} of {limpio!r} is {FORMA_TEL[dada](str(n.national_number))!r}, got {s!r}")
    return out


CASOS = [(call, forma) for call, formas in FORMAS.items() for forma in formas + [None]]


@pytest.mark.parametrize("call,forma", CASOS, ids=[f"{c}-{f or 'cualquiera'}" for c, f in CASOS])
def test_every_dirty_value_cleans_back(call, forma):
    args = {"forma": forma} if forma else {}
    values = Datoteca(seed=SEED).many(call, N, **args)
    failures = []
    for i, v in enumerate(values):
        failures += revisar(call, forma, v, i)
        if len(failures) >= 10:
            break
    assert not failures, "\n".join(failures)
    if forma is None:
        counts = Counter(v["forma"] for v in values)
        for f in FORMAS[call]:
            share = counts[f] / N
            assert abs(share - 1 / 5) <= 0.015, (
                f"seed {SEED}, {N} values of {call}(forma='cualquiera'): {f} at {share:.2%}, expected 20.00 % ± 1.5 %")


def test_the_transform_is_a_function_of_the_clean_value_and_the_form():
    """The same clean text and form give the same dirty text, whichever call or dataset made it: a
    dataset's dirty cells are the calls' spellings (docs/sucios.md)."""
    pares = {}
    for v in Datoteca(seed=SEED).many("sucio.comuna", 5000):
        key = (v["limpio"], v["forma"])
        assert pares.setdefault(key, v["sucio"]) == v["sucio"], f"seed {SEED}: {key} gave {pares[key]!r} and {v['sucio']!r}"


# ---- datasets ------------------------------------------------------------------------------

FILAS = 100_000
SEED_TABLA = 77


@pytest.fixture(scope="module")
def personas():
    limpia = Tabla("persona.persona", seed=SEED_TABLA).filas(FILAS)
    sucia = Tabla("persona.persona", seed=SEED_TABLA, sucio={"rut": 100}).filas(FILAS)
    return limpia, sucia


def test_a_dirty_rut_column_is_dirty_at_its_rate_and_cleans_back(personas):
    limpia, sucia = personas
    failures, sucias = [], 0
    for i, (a, b) in enumerate(zip(limpia, sucia)):
        where = f"seed {SEED_TABLA}, persona.persona sucio={{'rut': 100}}, row {i}"
        otras = {k: (a[k], b[k]) for k in a if k != "rut" and a[k] != b[k]}
        if otras:
            failures.append(f"{where}: other columns changed (clean, dirty): {otras}")
        if a["rut"] != b["rut"]:
            sucias += 1
            for quien, limpiar in (("stdnum", rut_por_stdnum), ("datoteca", rut_por_datoteca)):
                got = limpiar(b["rut"])
                if got != a["rut"]:
                    failures.append(f"{where}: {quien} cleans {b['rut']!r} to {got!r}, expected the clean cell {a['rut']!r}")
        if len(failures) >= 10:
            break
    assert not failures, "\n".join(failures)
    assert abs(sucias / FILAS - 0.10) <= 0.005, f"seed {SEED_TABLA}, {FILAS} rows, sucio rut:100: {sucias / FILAS:.2%} dirty, expected 10 % ± 0.5 %"


def test_every_kind_of_dirty_column_cleans_back_in_a_dataset():
    """Every dirty-capable column of a persona at 300 per mille: each dirty cell is one form of its
    kind of the clean cell; no-value phones of minors stay null; no cell equals its clean value
    and is counted dirty."""
    n = 20_000
    cols = ["nombres", "apellido_paterno", "apellido_materno", "nombre_completo", "rut", "telefono", "comuna"]
    opciones = dict(seed=SEED_TABLA, edad_min=0, edad_max=90)
    limpia = Tabla("persona.persona", **opciones).filas(n)
    sucia = Tabla("persona.persona", sucio={c: 300 for c in cols}, **opciones).filas(n)
    failures, sucias = [], Counter()
    for i, (a, b) in enumerate(zip(limpia, sucia)):
        where = f"seed {SEED_TABLA}, persona.persona every dirty column at 300, row {i}"
        for c in a:
            x, y = a[c], b[c]
            if x == y:
                continue
            sucias[c] += 1
            if c not in cols or x is None or y is None:
                failures.append(f"{where}: column {c} is {y!r}, the clean table has {x!r}")
            elif c == "rut" and rut_por_stdnum(y) != x:
                failures.append(f"{where}: rut {y!r} cleans to {rut_por_stdnum(y)!r}, expected {x!r}")
            elif c == "telefono" and e164(y) != e164(x):
                failures.append(f"{where}: telefono {y!r} parses to {e164(y)!r}, expected {e164(x)!r}")
            elif c == "comuna" and comuna_de(y) != x:
                failures.append(f"{where}: comuna {y!r} maps back to {comuna_de(y)!r}, expected {x!r}")
            elif c not in ("rut", "telefono", "comuna") and plegar(y) != plegar(x):
                failures.append(f"{where}: {c} {y!r} folds to {plegar(y)!r}, expected {plegar(x)!r}")
        if len(failures) >= 10:
            break
    assert not failures, "\n".join(failures)
    for c in cols:
        con_valor = sum(1 for a in limpia if a[c] is not None)
        assert abs(sucias[c] / con_valor - 0.30) <= 0.02, f"seed {SEED_TABLA}, {c}: {sucias[c]} dirty of {con_valor} cells with a value"


def test_dirty_slices_equal_full_runs_and_keep_their_types():
    t = Tabla("persona.persona", seed=5, sucio={"rut": 500, "comuna": 500}, campos=["rut", "comuna", "sexo"])
    todo = t.filas(3000)
    assert t.filas(100, desde=1234) == todo[1234:1334], "seed 5: rows 1234..1333 differ from the same rows of a full run"
    assert "rut text NOT NULL" in t.ddl() and "comuna text NOT NULL" in t.ddl(), t.ddl()
    pa = pytest.importorskip("pyarrow")
    tabla = t.arrow(3000).to_pyarrow()
    assert tabla.schema.field("rut").type == pa.string() and tabla.schema.field("comuna").type == pa.string()
    assert tabla.column("rut").to_pylist() == [r["rut"] for r in todo], "seed 5: Arrow's dirty ruts differ from filas'"


def test_unique_dirty_ruts_stay_unique():
    """Dirt keeps a RUT's body, so a unique column stays unique in value and in text."""
    filas = Tabla("persona.persona", seed=9, unico=["rut"], sucio={"rut": 500}, campos=["rut"]).filas(50_000)
    textos = [r["rut"] for r in filas]
    cuerpos = [datoteca.limpiar_rut(v.strip().lstrip("0")) for v in textos]
    assert len(set(textos)) == len(textos) and len(set(cuerpos)) == len(cuerpos), "seed 9: a unique dirty rut repeats"


def test_the_cli_writes_the_same_dirty_rows():
    cli = os.environ.get("DATOTECA_CLI", "datoteca")
    r = subprocess.run([cli, "tabla", "persona.persona", "--seed", "3", "-n", "50", "--campos", "rut,comuna",
                        "--sucio", "rut:400,comuna:400", "--format", "csv"], capture_output=True, text=True, check=True)
    want = Tabla("persona.persona", seed=3, campos=["rut", "comuna"], sucio={"rut": 400, "comuna": 400}).filas(50)
    got = list(csv.DictReader(r.stdout.splitlines()))
    assert got == want, "seed 3: the CLI's dirty rows differ from Python's"
