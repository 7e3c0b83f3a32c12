"""The registered property and differential suites (tests/properties.json, docs/testing.md),
each checked against an expectation that does not call the production code."""
import csv
import datetime
import os
import re

import pytest

import datoteca
from datoteca import Datoteca
import props
from props import movil_aceptado, REGISTRY, ROOT, mod11, run_suite

M64 = (1 << 64) - 1
PCG_MULT = 6364136223846793005
SEED_STREAM = 0x6461746F74656361  # "datoteca", as documented in docs/stream.md


class RefPcg32:
    """PCG32 XSH-RR 64/32 from the PCG paper and its minimal C reference."""

    def __init__(self, initstate, initseq):
        self.state = 0
        self.inc = ((initseq << 1) | 1) & M64
        self.next()
        self.state = (self.state + initstate) & M64
        self.next()

    def next(self):
        old = self.state
        self.state = (old * PCG_MULT + self.inc) & M64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & 0xFFFFFFFF

    def below(self, n):  # Lemire, as documented
        m = self.next() * n
        low = m & 0xFFFFFFFF
        if low < n:
            t = (-n % (1 << 32)) % n
            while low < t:
                m = self.next() * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def range(self, lo, hi):
        span = hi - lo + 1
        if span <= 1 << 32:
            return lo + (self.next() if span == 1 << 32 else self.below(span))
        if span == 1 << 64:
            return lo + ((self.next() << 32) | self.next())
        limit = M64 - ((M64 % span) + 1) % span
        while True:
            r = (self.next() << 32) | self.next()
            if r <= limit:
                return lo + r % span


def test_pcg32_differential():
    def body(rng, i):
        seed = rng.u64()
        n = 1 + rng.below(64)
        ref = RefPcg32(seed, SEED_STREAM)
        d = Datoteca(seed=seed)
        for k in range(n):
            want, got = ref.next(), d.next_u32()
            assert got == want, f"seed {seed}, draw {k}: expected {want}, got {got}"

    run_suite("pcg32_differential", body)


def test_bounded_differential():
    def body(rng, i):
        seed = rng.u64()
        ref = RefPcg32(seed, SEED_STREAM)
        d = Datoteca(seed=seed)
        kind = i % 4
        if kind == 0:
            lo, hi = 0, rng.below(10)  # tiny spans
        elif kind == 1:
            lo = rng.next() - (1 << 31)
            hi = lo + rng.next()  # spans up to 2^32
        elif kind == 2:
            lo = -(rng.u64() >> 1)
            hi = lo + (rng.u64() >> 1) + (1 << 32)  # wide spans: the 64-bit method
        else:
            lo, hi = -(1 << 63), (1 << 63) - 1  # the full range: two draws
        for k in range(8):
            want, got = ref.range(lo, hi), d.integer(lo, hi)
            assert got == want, f"seed {seed}, integer({lo}, {hi}) #{k}: expected {want}, got {got}"

    run_suite("bounded_differential", body)


# ---- RUT ------------------------------------------------------------------------------------



# The accepted spellings, from the header's description: ASCII whitespace around, dots in every
# group or none, an optional '-' or pasted dash (U+2010 to U+2015, U+2212), the check digit.
REF_RUT = re.compile(r"^[ \t\n\r\v\f]*([1-9]\d{0,7}|[1-9]\d{0,2}(?:\.\d{3}){1,2})(?:-|[\u2010-\u2015\u2212])?([0-9kK])[ \t\n\r\v\f]*\Z")
DASHES = ["-", "-", "-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212"]
SPACES = [" ", "\t", "  ", "\n", "\r\n", "\v", "\f"]


def ref_valid(text):
    m = REF_RUT.match(text)
    if not m:
        return False
    digits = m.group(1).replace(".", "")
    return len(digits) <= 8 and mod11(int(digits)) == m.group(2).upper()


def spelling(rng):
    body = rng.pick([1 + rng.below(99_999_999), 1 + rng.below(999), 0, 100_000_000 + rng.below(10**8)])
    digits = str(body)
    if rng.below(2) and len(digits) > 3:
        groups = []
        while digits:
            groups.insert(0, digits[-3:])
            digits = digits[:-3]
        digits = ".".join(groups)
    dv = mod11(body) if rng.below(4) else rng.pick("0123456789K")
    if dv == "K" and rng.below(2):
        dv = "k"
    text = digits + (rng.pick(DASHES) if rng.below(3) else "") + dv
    if rng.below(4) == 0:
        text = rng.pick(SPACES) + text + rng.pick([""] + SPACES)
    if rng.below(6) == 0:  # junk somewhere
        pos = rng.below(len(text) + 1)
        text = text[:pos] + rng.pick(["x", ".", "-", "..", " ", "0", "ñ", "\x00", "K", "\u2016", "\u00a0", "\u2013"]) + text[pos:]
    return text


def test_rut():
    def body(rng, i):
        d = Datoteca(seed=rng.u64())
        tipo = rng.pick(["persona", "empresa"])
        formato = rng.pick(["puntos", "guion", "limpio"])
        r = d.rut(tipo, formato)
        digits = r[:-1].replace(".", "").rstrip("-")
        assert mod11(int(digits)) == r[-1], f"generated {r!r} fails mod-11"
        s = spelling(rng)
        assert datoteca.validar_rut(s) == ref_valid(s), f"validator says {datoteca.validar_rut(s)} for {s!r}, reference {ref_valid(s)}"
        if ref_valid(s):
            clean = datoteca.limpiar_rut(s)
            for f in ("puntos", "guion", "limpio"):
                assert datoteca.formatear_rut(clean, f) == datoteca.formatear_rut(s, f), f"format∘clean differs for {s!r}"
            assert datoteca.limpiar_rut(datoteca.formatear_rut(s)) == clean

    run_suite("rut", body)


# ---- geography and telephones ----------------------------------------------------------------

def _csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


COMUNAS = _csv("comunas.csv")
BY_CUT = {c["codigo_cut"]: c for c in COMUNAS}
REGIONES = {r["codigo_cut"]: r["nombre_oficial"] for r in _csv("regiones.csv")}
PROVINCIAS = {p["codigo_cut"]: p for p in _csv("provincias.csv")}
AREAS_BY_REGION = {}
for _c in COMUNAS:
    AREAS_BY_REGION.setdefault(int(_c["codigo_region"]), set()).add(int(_c["codigo_area_telefono"]))


def test_geography():
    def body(rng, i):
        d = Datoteca(seed=rng.u64())
        region = rng.below(17) or None
        a = d.direccion.direccion(region)
        c = BY_CUT.get(a["codigo_comuna"])
        assert c is not None, f"unknown CUT {a['codigo_comuna']}"
        assert c["nombre"] == a["comuna"], f"{a['codigo_comuna']} is {c['nombre']}, got {a['comuna']}"
        assert c["codigo_provincia"] == a["codigo_provincia"] and PROVINCIAS[a["codigo_provincia"]]["nombre"] == a["provincia"]
        assert PROVINCIAS[a["codigo_provincia"]]["codigo_region"] == a["codigo_region"] == c["codigo_region"]
        assert REGIONES[a["codigo_region"]] == a["region"]
        if region:
            assert int(a["codigo_region"]) == region, f"asked region {region}, got {a['codigo_region']}"
            comuna = d.direccion.comuna(region)
            assert any(x["nombre"] == comuna and int(x["codigo_region"]) == region for x in COMUNAS), f"{comuna} not in {region}"

    run_suite("geography", body)


MOVIL = {
    "internacional": re.compile(r"^\+56 9 (\d{4}) (\d{4})$"),
    "e164": re.compile(r"^\+569(\d{4})(\d{4})$"),
    "nacional": re.compile(r"^9 (\d{4}) (\d{4})$"),
}
FIJO = {
    "internacional": re.compile(r"^\+56 (?:(2) (2\d{3}) (\d{4})|(\d\d) (2\d\d) (\d{4}))$"),
    "e164": re.compile(r"^\+56(?:(2)(2\d{3})(\d{4})|(\d\d)(2\d\d)(\d{4}))$"),
    "nacional": re.compile(r"^(?:(2) (2\d{3}) (\d{4})|(\d\d) (2\d\d) (\d{4}))$"),
}


def _area(text, formato):
    m = FIJO[formato].match(text)
    assert m, f"fixed line {text!r} ({formato}) does not follow the plan"
    return int(m.group(1) or m.group(4))


def test_telephone_plan():
    def body(rng, i):
        d = Datoteca(seed=rng.u64())
        formato = rng.pick(list(MOVIL))
        movil = d.telefono.movil(formato)
        assert MOVIL[formato].match(movil) and movil_aceptado(movil), f"mobile {movil!r} does not follow the plan"
        region = 1 + rng.below(16)
        area = _area(d.telefono.fijo(region, formato), formato)
        assert area in AREAS_BY_REGION[region], f"area {area} is not used in region {region}"
        e = d.empresa.empresa()
        comuna = [c for c in COMUNAS if c["nombre"] == e["comuna"] and REGIONES[c["codigo_region"]] == e["region"]]
        assert comuna and _area(e["telefono"], "internacional") == int(comuna[0]["codigo_area_telefono"]), e

    run_suite("telephone_plan", body)


# ---- money --------------------------------------------------------------------------------------

def ref_miles(n):
    s = str(n)
    out = []
    while len(s) > 3:
        out.insert(0, s[-3:])
        s = s[:-3]
    out.insert(0, s)
    return ".".join(out)


MAXM = 999_999_999_999_999


def test_money():
    edges = [0, 1, 999, 1000, 1001, 999_999, 1_000_000, MAXM - 1, MAXM]

    def body(rng, i):
        amount = edges[i] if i < len(edges) else rng.pick([rng.below(10**rng.below(16)), rng.u64() % (MAXM + 1)])
        assert datoteca.formatear_clp(amount) == "$" + ref_miles(amount)
        assert datoteca.formatear_uf(amount) == f"UF {ref_miles(amount // 100)},{amount % 100:02d}"
        d = Datoteca(seed=rng.u64())
        lo = rng.pick([0, 999, 1000, amount // 2])
        hi = rng.pick([lo, lo + 1, amount if amount >= lo else lo, MAXM])
        v = d.dinero.monto(lo, hi)
        assert lo <= v <= hi, f"monto({lo}, {hi}) gave {v}"
        text = d.dinero.clp(lo, hi)
        parsed = int(text[1:].replace(".", ""))
        assert lo <= parsed <= hi and text == "$" + ref_miles(parsed), f"clp({lo}, {hi}) gave {text!r}"
        uf = d.dinero.uf(lo, hi)
        cents = int(uf[3:].replace(".", "").replace(",", ""))
        assert lo <= cents <= hi and uf == f"UF {ref_miles(cents // 100)},{cents % 100:02d}", f"uf({lo}, {hi}) gave {uf!r}"

    run_suite("money", body)


# ---- dates --------------------------------------------------------------------------------------

def test_dates():
    def body(rng, i):
        if i % 5 == 0:
            hoy = datetime.date(rng.pick([2000, 2004, 2024, 2028]), 2, 29)
        else:
            hoy = datetime.date(1990 + rng.below(60), 1, 1) + datetime.timedelta(days=rng.below(366))
        lo = rng.below(100)
        hi = lo + rng.below(21)
        text = Datoteca(seed=rng.u64(), hoy=hoy).persona.fecha_nacimiento(lo, hi)
        born = datetime.date.fromisoformat(text)  # raises on a day that does not exist
        # full years, the birthday compared by (month, day): born on 29 February, one turns a
        # year older on 1 March in common years
        age = hoy.year - born.year - ((hoy.month, hoy.day) < (born.month, born.day))
        assert lo <= age <= hi, f"hoy {hoy}, ages [{lo}, {hi}]: born {text} is {age}"

    run_suite("dates", body)


# ---- streams -------------------------------------------------------------------------------------

BAD_CALLS = [
    lambda d: d.dinero.monto(10, 5),
    lambda d: d.persona.fecha_nacimiento(50, 20),
    lambda d: d.persona.persona(edad_min=90, edad_max=10),
    lambda d: d.direccion.comuna(17),
    lambda d: d.telefono.fijo(17),  # 0 is "any region" since 1.1.0, in every language
    lambda d: d.call("persona.nombre", sexo="X"),
    lambda d: d.restore_state(b"nope"),
]


def test_streams():
    calls = datoteca.calls()

    def body(rng, i):
        seed = rng.u64()
        name = rng.pick(calls)
        a, b = Datoteca(seed=seed), Datoteca(seed=seed)
        assert a.many(name, 3) == b.many(name, 3), f"same seed {seed}, {name}: different data"
        state = a.save_state()
        after = a.many(name, 3)
        c = Datoteca(seed=rng.u64())
        c.restore_state(state)
        assert c.many(name, 3) == after, f"restore of seed {seed} did not continue identically ({name})"
        p, q = Datoteca(seed=seed), Datoteca(seed=seed)
        l1 = f"l{rng.next()}"
        l2 = l1 + "x"
        k1, k2 = p.derive(l1), p.derive(l2)
        assert k1.many("rut", 4) != k2.many("rut", 4), f"children {l1!r} and {l2!r} agree"
        for _ in range(4):
            q.next_u32()
        assert p.next_u32() == q.next_u32(), "two derives did not take exactly four parent draws"
        bad = rng.pick(BAD_CALLS)
        e, f = Datoteca(seed=seed), Datoteca(seed=seed)
        with pytest.raises((TypeError, ValueError)):
            bad(e)
        assert e.many(name, 2) == f.many(name, 2), "a failed call consumed the stream"

    run_suite("streams", body)


def test_registry_is_documented():
    doc = open(os.path.join(ROOT, "docs", "testing.md"), encoding="utf-8").read()
    for s in REGISTRY.values():
        row = f"| `{s['name']}` | `{s['seed']}` | {s['iterations']:,} |"
        assert row in doc, f"docs/testing.md has no row starting {row!r}"


# ---- plates --------------------------------------------------------------------------------------

PLACA = {"auto": re.compile(r"([BCDFGHJKLPRSTVWXYZ]{4})(\d{2})"), "moto": re.compile(r"([BCDFGHJKLPRSTVWXYZ]{3})(\d{2})"),
         "antigua": re.compile(r"([A-Z]{2})(\d{4})")}
SEPARADOR = {"punto": "·", "limpio": "", "guion": "-", "con_dv": "·"}


def test_patentes():
    tipos, formatos = ["auto", "moto", "antigua"], list(SEPARADOR)

    def body(rng, i):
        d = Datoteca(seed=rng.u64())
        tipo, formato = rng.pick(tipos), rng.pick(formatos)
        p = d.vehiculo.patente(tipo, formato)
        shape = PLACA[tipo].pattern.replace(")(", ")" + re.escape(SEPARADOR[formato]) + "(")
        m = re.fullmatch(shape + ("-([0-9K])" if formato == "con_dv" else ""), p)
        assert m, f"{tipo} {formato}: {p!r} does not have the format's shape"
        letras, numero = m.group(1), m.group(2)
        if tipo == "antigua":
            assert letras in props.SERIES_PATENTE, f"{p!r}: series {letras} is not in the table"
        dv = props.ppu_dv(letras, numero)
        if formato == "con_dv":
            assert m.group(3) == dv, f"{p!r}: check digit {m.group(3)}, the reference says {dv}"
        assert datoteca.patente_dv(p) == dv, f"patente_dv({p!r}) = {datoteca.patente_dv(p)}, reference {dv}"
        # spellings people type: case, separators, with the right or a wrong check digit; sometimes a
        # first letter outside the current format's set (or an old series that does not exist)
        if rng.below(10) == 0:
            letras = rng.pick(["A", "E", "Q", "Ñ"]) + letras[1:]
        if tipo == "antigua":
            valida = letras in props.SERIES_PATENTE
        else:
            valida = all(c in props.LETRAS_PATENTE for c in letras)
        dv = props.ppu_dv(letras, numero) if valida else "0"
        sep = rng.pick(["", "·", "-", " ", "."])
        texto = letras + sep + numero
        if rng.below(2):
            texto = texto.lower()
        con = rng.below(3)
        if con == 1:
            texto += rng.pick(["", "-"]) + dv
        elif con == 2:
            texto += "-" + rng.pick([c for c in "0123456789K" if c != dv])
        if rng.below(4) == 0:
            texto = rng.pick([" ", "\t", "\n"]) + texto + rng.pick([" ", "\n"])
        esperado = valida and con != 2 and sep != " "  # a space inside is refused (docs/patentes.md)
        assert datoteca.validar_patente(texto) == esperado, f"validar_patente({texto!r}) != {esperado}"
        if esperado:
            assert datoteca.formatear_patente(texto, "con_dv") == f"{letras}·{numero}-{dv}", texto

    run_suite("patentes", body)


# ---- tax documents ---------------------------------------------------------------------------------

def test_tributario():
    tipos = {r["codigo"]: r for r in props._csv_rows("dte_tipos.csv")}

    def body(rng, i):
        hoy = datetime.date(2000 + rng.below(40), 1, 1) + datetime.timedelta(days=rng.below(366))
        d = Datoteca(seed=rng.u64(), hoy=hoy)
        t = d.tributario.dte()
        neto, exento, iva, total = (int(t[k]) for k in ("monto_neto", "monto_exento", "iva", "monto_total"))
        assert iva == (neto * 19 + 50) // 100, f"{t['tipo']}: IVA {iva} of neto {neto}"
        assert total == neto + exento + iva, f"{t['tipo']}: {neto} + {exento} + {iva} != {total}"
        fila = tipos[str(t["tipo"])]
        assert t["nombre_tipo"] == fila["nombre"]
        if fila["montos"] == "exento":
            assert neto == 0 and iva == 0 and exento > 0, t
        else:
            assert exento == 0 and neto > 0, t
        for campo in ("emisor_rut", "receptor_rut"):
            cuerpo, dv = t[campo].replace(".", "").split("-")
            assert props.mod11(int(cuerpo)) == dv, f"{campo} {t[campo]}"
        persona = int(t["receptor_rut"].replace(".", "").split("-")[0]) < 50_000_000
        assert persona == (fila["receptor"] == "persona"), f"type {t['tipo']}: receptor {t['receptor_rut']}"
        fecha = datetime.date.fromisoformat(t["fecha_emision"])
        assert hoy - datetime.timedelta(days=364) <= fecha <= hoy, f"hoy {hoy}: issued {fecha}"
        assert 1 <= int(t["folio"]) <= 999_999 and 1 <= d.tributario.folio() <= 999_999

    run_suite("tributario", body)


# ---- dates and times -------------------------------------------------------------------------------

def test_fechas():
    def body(rng, i):
        hoy = datetime.date(1950 + rng.below(200), 1, 1) + datetime.timedelta(days=rng.below(366))
        desde = rng.below(73001) - 36500
        hasta = min(36500, desde + rng.pick([0, 1, 30, 365, rng.below(73001)]))
        d = Datoteca(seed=rng.u64(), hoy=hoy)
        f = datetime.date.fromisoformat(d.fecha.fecha(desde, hasta))
        assert hoy + datetime.timedelta(days=desde) <= f <= hoy + datetime.timedelta(days=hasta), (hoy, desde, hasta, f)
        fh = datetime.datetime.fromisoformat(d.fecha.fecha_hora(desde, hasta))
        assert fh.tzinfo is None and hoy + datetime.timedelta(days=desde) <= fh.date() <= hoy + datetime.timedelta(days=hasta)
        h = d.fecha.hora()
        assert re.fullmatch(r"\d\d:\d\d:\d\d", h) and datetime.time.fromisoformat(h), h

    run_suite("fechas", body)
