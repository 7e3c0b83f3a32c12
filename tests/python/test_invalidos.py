"""The near misses of the invalido namespace (docs/invalidos.md), 20,000 values per call, reason and
format (seed 1). Every value must be refused by the outside validators where one exists (python-stdnum
for RUTs, Google's libphonenumber for phones, email-validator for emails), by the library's own
validators (validar_rut, validar_patente), and for the reason its record names: a reference written
here (a mod 11, the plate letters, area codes, mobile blocks and mail domains read from c/data/)
finds that one defect and the rest valid. Under defecto="cualquiera" each reason's share is 1/k
within 1.5 points."""
import bisect
import csv
import os
import re
from collections import Counter

import phonenumbers
import pytest
from email_validator import EmailNotValidError, validate_email
from stdnum.cl import rut as stdnum_rut

import datoteca
from conftest import ROOT
from props import mod11
from datoteca import Datoteca

N = 20_000
SEED = 1
TOLERANCIA = 0.015


def _csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


LETRAS = {r["letra"]: int(r["valor"]) for r in _csv("patentes_letras.csv")}  # the current format's 18
AREAS = {int(r["codigo_area"]) for r in _csv("codigos_area.csv")}
BLOQUES = sorted((int(r["desde"]), int(r["hasta"])) for r in _csv("telefonos_validos.csv") if r["categoria"] == "movil")
DESDES = [a for a, _ in BLOQUES]
DOMINIOS = {r["dominio"] for r in _csv("dominios_email.csv")[:10]}  # the ten webmail domains persons get
RESERVADOS = ("invalid", "test", "local", "localhost", "onion")
LOCAL = re.compile(r"[a-z0-9._]+")  # what persona.email writes before the @


def _values(call, n=N, **args):
    return Datoteca(seed=SEED).many(call, n, **args)


class Fallo(AssertionError):
    pass


def _check(call, args, values, judge):
    """judge(rec) returns None, or (expected, actual): the first failure names its place."""
    for i, rec in enumerate(values):
        bad = judge(rec)
        if bad:
            raise Fallo(f"seed {SEED}, {call}{args}, value {i + 1} of {len(values)}: {rec!r}: "
                        f"expected {bad[0]}, got {bad[1]}")


def _share_test(call, k, **args):
    values = _values(call, **args)
    counts = Counter(v["defecto"] for v in values)
    assert len(counts) == k, f"seed {SEED}, {call}: reasons {sorted(counts)}, expected {k}"
    for reason, c in sorted(counts.items()):
        share = c / len(values)
        assert abs(share - 1 / k) <= TOLERANCIA, \
            f"seed {SEED}, {call}(defecto='cualquiera'), {len(values)} values: {reason} share {share:.4f}, expected {1 / k:.4f} ± {TOLERANCIA}"
    return counts


# ---- RUT ---------------------------------------------------------------------------------------

RANGO = {"persona": (1_000_000, 29_999_999), "empresa": (76_000_000, 77_999_999)}
AJENOS_RUT = set("ABCDEFGHIJLMNOPQRSTUVWXYZ,/_#*+")


def _rut_texto(body, dv, formato):
    """A body and check digit written as formato says (rut.md), by this test."""
    s = str(body)
    if formato == "puntos":
        groups = []
        while len(s) > 3:
            groups.insert(0, s[-3:])
            s = s[:-3]
        return ".".join([s] + groups) + "-" + dv
    return s + ("-" if formato == "guion" else "") + dv


def _rut_partes(v, formato):
    """(body, dv) if v is written exactly as formato writes some digits and a check digit, else None."""
    m = re.fullmatch(r"([1-9][0-9.]*?)-?([0-9K])", v)
    if not m:
        return None
    body = int(m.group(1).replace(".", "")) if m.group(1).replace(".", "").isdigit() else None
    if body is None or _rut_texto(body, m.group(2), formato) != v:
        return None
    return body, m.group(2)


def _rut_valido(v, formato, tipo):
    p = _rut_partes(v, formato)
    return p is not None and RANGO[tipo][0] <= p[0] <= RANGO[tipo][1] and mod11(p[0]) == p[1]


def _juez_rut(defecto, tipo, formato, wrong_dvs):
    lo, hi = RANGO[tipo]

    def judge(rec):
        v = rec["valor"]
        if rec["defecto"] != defecto:
            return f"defecto {defecto!r}", repr(rec["defecto"])
        if stdnum_rut.is_valid(v):
            return "python-stdnum to refuse it", "accepted"
        if datoteca.validar_rut(v):
            return "validar_rut to refuse it", "accepted"
        p = _rut_partes(v, formato)
        if defecto == "dv":
            if p is None or not lo <= p[0] <= hi:
                return f"a {tipo} body in {formato} with a check digit", v
            if mod11(p[0]) == p[1]:
                return "a check digit other than the mod 11", f"the mod 11 {p[1]}"
            wrong_dvs.add((mod11(p[0]), p[1]))
        elif defecto == "largo":
            if p is None or len(str(p[0])) != 9:
                return f"a 9-digit body in {formato}", v
            if mod11(p[0]) != p[1]:
                return f"the 9-digit body's own mod 11 {mod11(p[0])}", p[1]
            s = str(p[0])
            sources = {int(s[:i] + s[i + 1:]) for i in range(8) if s[i] == s[i + 1]}
            lo8 = max(lo, 10_000_000)
            if not any(lo8 <= b <= hi for b in sources):
                return f"an 8-digit {tipo} body with one digit written twice", s
        else:
            slots = [i for i, c in enumerate(v) if c not in ".-"]
            odd = [i for i in slots if v[i] in AJENOS_RUT]
            if len(odd) != 1 or any(not (v[i].isdigit() or (v[i] == "K" and i == slots[-1])) for i in slots if i != odd[0]):
                return "exactly one letter other than K or symbol in place of a digit", v
            i = odd[0]
            if not any(_rut_valido(v[:i] + c + v[i + 1:], formato, tipo) for c in "0123456789K"):
                return f"a valid {tipo} RUT in {formato} once that character is a digit again", v
        return None

    return judge


RUT_CASOS = [(d, "persona", f) for d in ("dv", "largo", "caracteres") for f in ("puntos", "guion", "limpio")] + \
            [(d, "empresa", "puntos") for d in ("dv", "largo", "caracteres")]


@pytest.mark.parametrize("defecto,tipo,formato", RUT_CASOS)
def test_ruts_are_refused_for_their_reason(defecto, tipo, formato):
    args = {"defecto": defecto, "tipo": tipo, "formato": formato}
    wrong = set()
    _check("invalido.rut", args, _values("invalido.rut", **args), _juez_rut(defecto, tipo, formato, wrong))
    if defecto == "dv":  # each of the ten wrong digits appears; the right one never does (checked above)
        by_right = Counter(right for right, _ in wrong)
        assert all(by_right[r] == 10 for r in by_right) and len(by_right) == 11, \
            f"seed {SEED}, invalido.rut{args}: wrong check digits seen per right one {dict(by_right)}, expected 10 each of 11"


def test_rut_reasons_share():
    _share_test("invalido.rut", 3)


# ---- plates ------------------------------------------------------------------------------------

AJENAS_PATENTE = set("AEIOUMNÑQ")


def ppu_dv(letras, numero):
    return mod11(int("".join(str(LETRAS[c]) for c in letras) + numero))


def _juez_patente(defecto):
    def judge(rec):
        v = rec["valor"]
        if rec["defecto"] != defecto:
            return f"defecto {defecto!r}", repr(rec["defecto"])
        if datoteca.validar_patente(v):
            return "validar_patente to refuse it", "accepted"
        ok = lambda s: all(c in LETRAS for c in s)  # noqa: E731
        if defecto == "dv":
            m = re.fullmatch(r"([A-Z]{4})·([1-9][0-9])-([0-9K])", v)
            if not m or not ok(m.group(1)):
                return "a current plate LLLL·NN (10-99) and a check digit", v
            if ppu_dv(m.group(1), m.group(2)) == m.group(3):
                return "a check digit other than the Registro Civil's", "the right one"
        elif defecto == "numero":
            m = re.fullmatch(r"([A-Z]{4})·(0[0-9])", v)
            if not m or not ok(m.group(1)):
                return "plate letters and digits 00-09", v
        elif defecto == "letras":
            m = re.fullmatch(r"(.{4})·([1-9][0-9])", v)
            if not m or sum(c in AJENAS_PATENTE for c in m.group(1)) != 1 or \
                    not all(c in LETRAS or c in AJENAS_PATENTE for c in m.group(1)):
                return "one of A E I O U M N Ñ Q among plate letters, digits 10-99", v
        else:
            m5 = re.fullmatch(r"([A-Z]{5})·([1-9][0-9])", v)
            m1 = re.fullmatch(r"([A-Z]{4})·([0-9])", v)
            if not ((m5 and ok(m5.group(1))) or (m1 and ok(m1.group(1)))):
                return "five plate letters and 10-99, or four and one digit", v
        return None

    return judge


@pytest.mark.parametrize("defecto", ["dv", "numero", "letras", "largo"])
def test_plates_are_refused_for_their_reason(defecto):
    _check("invalido.patente", {"defecto": defecto}, _values("invalido.patente", defecto=defecto), _juez_patente(defecto))


def test_plate_reasons_share():
    _share_test("invalido.patente", 4)


# ---- phones ------------------------------------------------------------------------------------

def _aceptado(n):
    """A 9-digit 9-number inside a block libphonenumber accepts (telefonos_validos.csv)."""
    i = bisect.bisect_right(DESDES, n) - 1
    return i >= 0 and BLOQUES[i][0] <= n <= BLOQUES[i][1]


def _libphonenumber_refuses(v):
    try:
        return not phonenumbers.is_valid_number(phonenumbers.parse(v, "CL"))
    except phonenumbers.NumberParseException:
        return True


def _partes_tel(v, formato):
    """(area, subscriber digits) as the value writes them, or None when it is not in formato's layout."""
    pats = {"internacional": r"\+56 ([0-9]+) ([0-9]+) ([0-9]+)", "nacional": r"([0-9]+) ([0-9]+) ([0-9]+)",
            "e164": r"\+56([0-9]+)"}
    m = re.fullmatch(pats[formato], v)
    if not m:
        return None
    if formato == "e164":
        d = m.group(1)
        k = 2 if d.startswith("09") else 1 if d[0] in "29" else 2
        return d[:k], d[k:]
    area, a, b = m.groups()
    if len(a) != (4 if len(area) == 1 or area == "09" else 3):
        return None
    return area, a + b


def _uno_menos(s):
    return {s[:i] + s[i + 1:] for i in range(len(s))}


def _uno_mas(s):
    return {s[:i] + c + s[i:] for i in range(len(s) + 1) for c in "0123456789"}


def _juez_movil(defecto, formato):
    def judge(rec):
        v = rec["valor"]
        if rec["defecto"] != defecto:
            return f"defecto {defecto!r}", repr(rec["defecto"])
        if not _libphonenumber_refuses(v):
            return "libphonenumber to refuse it", "valid"
        p = _partes_tel(v, formato)
        if p is None:
            return f"a number written {formato}", v
        area, sub = p
        if defecto == "largo":
            if area != "9" or len(sub) not in (7, 9):
                return "9 and 7 or 9 digits", f"{area} and {len(sub)} digits"
            fixes = _uno_mas(sub) if len(sub) == 7 else _uno_menos(sub)
            if not any(_aceptado(int("9" + f)) for f in fixes):
                return "an accepted mobile one digit away", v
        elif defecto == "bloque":
            if area != "9" or len(sub) != 8:
                return "9 and 8 digits", v
            if _aceptado(int("9" + sub)):
                return "a number outside the accepted blocks", "inside one"
        else:
            if area != "09" or len(sub) != 8 or not _aceptado(int("9" + sub)):
                return "0 before an accepted mobile", v
        return None

    return judge


MOVIL_CASOS = [(d, f) for d in ("largo", "bloque", "prefijo") for f in ("internacional", "e164", "nacional")]


@pytest.mark.parametrize("defecto,formato", MOVIL_CASOS)
def test_mobiles_are_refused_for_their_reason(defecto, formato):
    args = {"defecto": defecto, "formato": formato}
    _check("invalido.movil", args, _values("invalido.movil", **args), _juez_movil(defecto, formato))


def test_mobile_blocks_cover_the_refused_ones_evenly():
    """bloque is uniform over the 20,970,000 refused 9-numbers: the share starting 90 (10,000,000 of them)
    and 911-919 (9,000,000) follow."""
    subs = [v["valor"].replace(" ", "")[3:] for v in _values("invalido.movil", defecto="bloque", formato="e164")]
    for pref, count in (("90", 10_000_000), ("91", 9_700_000)):
        share = sum(s.startswith(pref) for s in subs) / len(subs)
        assert abs(share - count / 20_970_000) <= TOLERANCIA, f"seed {SEED}, bloque: {pref} share {share:.4f}"


def test_mobile_reasons_share():
    _share_test("invalido.movil", 3)


def _juez_fijo(defecto, formato):
    def judge(rec):
        v = rec["valor"]
        if rec["defecto"] != defecto:
            return f"defecto {defecto!r}", repr(rec["defecto"])
        if not _libphonenumber_refuses(v):
            return "libphonenumber to refuse it", "valid"
        p = _partes_tel(v, formato)
        if p is None:
            return f"a number written {formato}", v
        area, sub = p
        if defecto == "area":
            if len(area) != 2 or int(area) in AREAS or len(sub) != 7 or sub[0] != "2":
                return "a two-digit code codigos_area.csv does not list and 2XX XXXX", v
        else:
            if int(area) not in AREAS:
                return "an area code of codigos_area.csv", area
            want = 8 if area == "2" else 7
            if abs(len(sub) - want) != 1:
                return f"{want} ± 1 subscriber digits", len(sub)
            fixes = _uno_mas(sub) if len(sub) < want else _uno_menos(sub)
            if not any(f[0] == "2" for f in fixes):
                return "a subscriber 2… one digit away", sub
        return None

    return judge


FIJO_CASOS = [(d, f) for d in ("area", "largo") for f in ("internacional", "e164", "nacional")]


@pytest.mark.parametrize("defecto,formato", FIJO_CASOS)
def test_fixed_lines_are_refused_for_their_reason(defecto, formato):
    args = {"defecto": defecto, "formato": formato}
    _check("invalido.fijo", args, _values("invalido.fijo", **args), _juez_fijo(defecto, formato))


def test_fixed_reasons_share():
    _share_test("invalido.fijo", 2)


# ---- email -------------------------------------------------------------------------------------

AJENOS_EMAIL = set(" ,;:()[]")
DOMINIOS_ROTOS = {d.replace(".", "") for d in DOMINIOS} | {"." + d for d in DOMINIOS} | {d + "." for d in DOMINIOS} | \
                 {d.replace(".", "..") for d in DOMINIOS} | {d.split(".")[0] + "." + t for d in DOMINIOS for t in RESERVADOS}


def _juez_email(defecto):
    def judge(rec):
        v = rec["valor"]
        if rec["defecto"] != defecto:
            return f"defecto {defecto!r}", repr(rec["defecto"])
        try:
            validate_email(v, check_deliverability=False)
            return "email-validator to refuse it", "accepted"
        except EmailNotValidError:
            pass
        if defecto == "arroba":
            if v.count("@") == 0:
                if not any(v.endswith(d) and LOCAL.fullmatch(v[:-len(d)]) for d in DOMINIOS):
                    return "a person's address without its @", v
            elif v.count("@") == 2:
                fixes = [v[:i] + v[i + 1:] for i, c in enumerate(v) if c == "@"]
                if not any(f.count("@") == 1 and LOCAL.fullmatch(f.split("@")[0]) and f.split("@")[1] in DOMINIOS for f in fixes):
                    return "a person's address with a second @", v
            else:
                return "no @ or two", v.count("@")
        elif defecto == "dominio":
            if v.count("@") != 1 or not LOCAL.fullmatch(v.split("@")[0]) or v.split("@")[1] not in DOMINIOS_ROTOS:
                return "a person's local part and a domain without its dot, with a stray dot or a reserved TLD", v
        else:
            if v.count("@") != 1:
                return "one @", v
            local, dominio = v.split("@")
            odd = [i for i, c in enumerate(local) if c in AJENOS_EMAIL]
            if dominio not in DOMINIOS or len(odd) != 1 or odd[0] in (0, len(local) - 1) or \
                    not LOCAL.fullmatch(local[:odd[0]] + local[odd[0] + 1:]):
                return "one space or character the local part does not allow, inside it", v
        return None

    return judge


@pytest.mark.parametrize("defecto", ["arroba", "dominio", "caracteres"])
def test_emails_are_refused_for_their_reason(defecto):
    _check("invalido.email", {"defecto": defecto}, _values("invalido.email", defecto=defecto), _juez_email(defecto))


def test_email_reasons_share():
    _share_test("invalido.email", 3)


# ---- DTE ---------------------------------------------------------------------------------------

def _juez_dte(defecto):
    def judge(d):
        if d["defecto"] != defecto:
            return f"defecto {defecto!r}", repr(d["defecto"])
        neto, exento, iva, total = d["monto_neto"], d["monto_exento"], d["iva"], d["monto_total"]
        iva_bien = (neto * 19 + 50) // 100
        if not stdnum_rut.is_valid(d["receptor_rut"]):
            return "a valid receptor RUT", d["receptor_rut"]
        rut_ok = stdnum_rut.is_valid(d["emisor_rut"])
        if defecto == "iva":
            if abs(iva - iva_bien) != 1 or total != neto + exento + iva:
                return f"IVA {iva_bien} ± 1 and the total adding it up", f"IVA {iva}, total {total}"
        elif defecto == "total":
            if iva != iva_bien or abs(total - (neto + exento + iva)) != 1:
                return f"IVA {iva_bien}, total {neto + exento + iva} ± 1", f"IVA {iva}, total {total}"
        elif iva != iva_bien or total != neto + exento + iva:
            return "amounts that add up", f"neto {neto}, exento {exento}, IVA {iva}, total {total}"
        if defecto == "rut":
            body = int(d["emisor_rut"][:-2].replace(".", ""))
            if rut_ok or datoteca.validar_rut(d["emisor_rut"]) or mod11(body) == d["emisor_rut"][-1] or \
                    not 76_000_000 <= body <= 99_999_999:
                return "a company body with a wrong check digit, refused by python-stdnum", d["emisor_rut"]
        elif not rut_ok:
            return "a valid emisor RUT", d["emisor_rut"]
        if (d["folio"] == 0) != (defecto == "folio") or not 0 <= d["folio"] <= 999_999:
            return "folio 0 for the reason folio only, else 1-999,999", d["folio"]
        return None

    return judge


@pytest.mark.parametrize("defecto", ["iva", "total", "rut", "folio"])
def test_dtes_break_one_rule(defecto):
    _check("invalido.dte", {"defecto": defecto}, _values("invalido.dte", defecto=defecto), _juez_dte(defecto))


def test_dte_reasons_share():
    _share_test("invalido.dte", 4)


# ---- the judges can fail -------------------------------------------------------------------------

def test_the_judges_refuse_valid_values_and_other_reasons():
    """Fed valid values, or a near miss labelled with another reason, every judge complains."""
    d = Datoteca(seed=SEED)
    casos = [
        (_juez_rut("dv", "persona", "puntos", set()), {"valor": d.rut(), "defecto": "dv"}),
        (_juez_rut("largo", "persona", "puntos", set()), {"valor": d.invalido.rut(defecto="dv")["valor"], "defecto": "largo"}),
        (_juez_rut("caracteres", "persona", "puntos", set()), {"valor": d.invalido.rut(defecto="dv")["valor"], "defecto": "caracteres"}),
        (_juez_patente("dv"), {"valor": d.vehiculo.patente(formato="con_dv"), "defecto": "dv"}),
        (_juez_patente("numero"), {"valor": "BBBB·05-1", "defecto": "numero"}),
        (_juez_movil("bloque", "internacional"), {"valor": d.telefono.movil(), "defecto": "bloque"}),
        (_juez_movil("largo", "internacional"), {"valor": "+56 9 9000 0000", "defecto": "largo"}),
        (_juez_fijo("area", "internacional"), {"valor": "+56 81 234 5678", "defecto": "area"}),
        (_juez_email("dominio"), {"valor": d.persona.email(), "defecto": "dominio"}),
        (_juez_email("caracteres"), {"valor": "a@b.cl", "defecto": "caracteres"}),
        (_juez_dte("iva"), dict(d.tributario.dte(), defecto="iva")),
        (_juez_dte("total"), dict(d.invalido.dte(defecto="iva"), defecto="total")),
    ]
    for i, (judge, rec) in enumerate(casos):
        assert judge(rec), f"case {i}: {rec!r} passed a judge it should fail"


def test_a_refused_reason_draws_nothing():
    d = Datoteca(seed=SEED)
    before = d.save_state()
    with pytest.raises(datoteca.InvalidArgumentError, match="invalido.rut: defecto must be one of"):
        d.invalido.rut(defecto="rango")
    assert d.save_state() == before


def test_a_near_miss_is_the_valid_calls_value_with_one_defect():
    """Where a reason starts from the valid call's draws, the value is that call's value at the same
    point of the stream, broken once: 1,000 fresh seeds, compared field by field with the valid call."""
    for seed in range(1000):
        def pair(call, valid, **args):
            return getattr(Datoteca(seed=seed).invalido, call)(**args), valid(Datoteca(seed=seed))

        casos = []
        bad, good = pair("rut", lambda d: d.rut(), defecto="dv")
        casos.append(("invalido.rut dv", bad["valor"][:-1], good[:-1]))
        bad, good = pair("patente", lambda d: d.vehiculo.patente(), defecto="dv")
        casos.append(("invalido.patente dv", bad["valor"][:-2], good))
        bad, good = pair("patente", lambda d: d.vehiculo.patente(), defecto="numero")
        casos.append(("invalido.patente numero", bad["valor"][:5], good[:5]))
        bad, good = pair("movil", lambda d: d.telefono.movil(), defecto="prefijo")
        casos.append(("invalido.movil prefijo", bad["valor"].replace(" 09 ", " 9 "), good))
        bad, good = pair("email", lambda d: d.persona.email(), defecto="caracteres")
        casos.append(("invalido.email caracteres", "".join(c for c in bad["valor"] if c not in AJENOS_EMAIL), good))
        for defecto, rotos in (("iva", {"iva", "monto_total"}), ("total", {"monto_total"}), ("rut", {"emisor_rut"}),
                               ("folio", {"folio"})):
            bad, good = pair("dte", lambda d: d.tributario.dte(), defecto=defecto)
            casos.append((f"invalido.dte {defecto}", {k: v for k, v in bad.items() if k not in rotos | {"defecto"}},
                          {k: v for k, v in good.items() if k not in rotos}))
        for what, got, want in casos:
            assert got == want, f"seed {seed}, {what}: expected {want!r} (the valid call's), got {got!r}"
