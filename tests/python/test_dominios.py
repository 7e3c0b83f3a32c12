"""The new domains against their sources, on 100,000 values with seed 1: plates' check digits by the
test's own reference and the worked examples of c/data/patentes_ejemplos.csv; DTE amounts; dates up to
hoy; AFP and health shares against their CSVs."""
import csv
import datetime
import os
from collections import Counter

import pytest

import datoteca
import props
from conftest import ROOT
from datoteca import Datoteca

N = 100_000


def _csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


# The worked examples of patentes_dv.md (PHZF·55 is cl-forge's published example; BR·1234's number
# 0871234 is its published conversion; BBC·12 is the motorcycle example of the note, its check digit
# computed by hand: 1 1 2 0 1 2 -> 2·2 + 1·3 + 0·4 + 2·5 + 1·6 + 1·7 = 30, 11 - 30 mod 11 = 3).
@pytest.mark.parametrize("patente,dv", [("PHZF55", "K"), ("PHZF·55", "K"), ("BR1234", "4"), ("BBC·12", "3")])
def test_worked_examples(patente, dv):
    assert datoteca.patente_dv(patente) == dv
    assert datoteca.validar_patente(f"{patente}-{dv}")
    assert not datoteca.validar_patente(f"{patente}-{'0' if dv != '0' else '1'}")


def test_the_examples_file_agrees():
    for row in _csv("patentes_ejemplos.csv"):
        assert datoteca.patente_dv(row["ppu"]) == row["dv_calculado"], row["ppu"]
        if row["dv_publicado"]:
            assert row["dv_publicado"] == row["dv_calculado"], row["ppu"]


@pytest.mark.parametrize("tipo", ["auto", "moto", "antigua"])
def test_a_hundred_thousand_plates_have_the_reference_check_digit(tipo):
    for i, p in enumerate(Datoteca(seed=1).many("vehiculo.patente", N, tipo=tipo, formato="con_dv")):
        base, dv = p.split("-")
        letras, numero = base.split("·")
        assert props.ppu_dv(letras, numero) == dv, f"seed 1, vehiculo.patente({tipo}) value {i + 1}: {p}"


def test_vehicles_follow_their_tables():
    marcas = {r["marca"]: int(r["unidades"]) for r in _csv("vehiculos_marcas.csv")}
    modelos = {(r["marca"], r["modelo"]): r["tipo"] for r in _csv("vehiculos_modelos.csv")}
    vs = Datoteca(seed=1).many("vehiculo.vehiculo", N)
    for i, v in enumerate(vs):
        letras, numero = v["patente"].split("·")
        assert props.ppu_dv(letras, numero) == v["dv"] and len(letras) == 4, f"value {i + 1}: {v}"
        assert modelos[(v["marca"], v["modelo"])] == v["tipo"] and 2008 <= int(v["anio"]) <= 2026, f"value {i + 1}: {v}"
    got = Counter(v["marca"] for v in vs)
    total = sum(marcas.values())
    for m, u in marcas.items():
        assert abs(got[m] / N - u / total) < 0.01, f"seed 1: {m} at {got[m] / N:.2%}, ANAC's share {u / total:.2%}"


@pytest.mark.parametrize("hoy", ["1985-01-01", "1996-06-30", "2005-06-01", "2014-12-31", "2021-03-01", "2026-01-01"])
def test_vehicles_are_of_models_on_sale_by_hoy(hoy):
    """A model year is never before the model's first on sale (vehiculos_modelos.csv's desde, each with
    its source), nor before its plate's format (2008 current, 1985 old), nor after hoy; makes keep
    ANAC's proportions among the makes with a model on sale; every model on sale appears."""
    anio_hoy = int(hoy[:4])
    piso = 2008 if anio_hoy >= 2008 else 1985
    desde = {(r["marca"], r["modelo"]): int(r["desde"]) for r in _csv("vehiculos_modelos.csv")}
    en_venta = {k for k, d in desde.items() if d <= anio_hoy}
    unidades = {r["marca"]: int(r["unidades"]) for r in _csv("vehiculos_marcas.csv") if any(k[0] == r["marca"] for k in en_venta)}
    n = 20_000
    vs = Datoteca(seed=7, hoy=hoy).many("vehiculo.vehiculo", n)
    for i, v in enumerate(vs):
        where = f"seed 7, hoy {hoy}, vehiculo.vehiculo value {i + 1}: {v}"
        k = (v["marca"], v["modelo"])
        assert k in en_venta, f"{where}: {k} is first on sale in {desde[k]}"
        assert max(desde[k], piso) <= int(v["anio"]) <= anio_hoy, f"{where}: year outside {max(desde[k], piso)}..{anio_hoy}"
        assert len(v["patente"].split("·")[0]) == (4 if anio_hoy >= 2008 else 2), f"{where}: plate format"
    assert {(v["marca"], v["modelo"]) for v in vs} == en_venta, f"hoy {hoy}: models on sale never drawn"
    got = Counter(v["marca"] for v in vs)
    total = sum(unidades.values())
    for m, u in unidades.items():
        assert abs(got[m] / n - u / total) < 0.015, f"seed 7, hoy {hoy}: {m} at {got[m] / n:.2%}, expected {u / total:.2%}"


def test_a_vehicle_before_the_first_plates_is_refused_without_a_draw():
    d = Datoteca(seed=3, hoy="1984-12-31")
    antes = d.save_state()
    with pytest.raises(datoteca.InvalidArgumentError, match=r"hoy must be 1985-01-01 or later"):
        d.vehiculo.vehiculo()
    assert d.save_state() == antes, "seed 3: the refused call drew numbers"


def test_a_hundred_thousand_dtes_add_up():
    hoy = datetime.date(2026, 1, 1)
    for i, t in enumerate(Datoteca(seed=1).many("tributario.dte", N)):
        where = f"seed 1, tributario.dte value {i + 1}"
        neto, exento, iva, total = (int(t[k]) for k in ("monto_neto", "monto_exento", "iva", "monto_total"))
        assert iva == (neto * 19 + 50) // 100 and total == neto + exento + iva, f"{where}: {t}"
        if t["tipo"] == "39":
            assert int(t["receptor_rut"].replace(".", "").split("-")[0]) < 50_000_000, f"{where}: a boleta to {t['receptor_rut']}"
        assert datetime.date.fromisoformat(t["fecha_emision"]) <= hoy, f"{where}: issued {t['fecha_emision']}"


def test_afp_and_health_shares():
    afp = {r["nombre"]: int(r["cotizantes"]) for r in _csv("prevision.csv") if r["tipo"] == "afp"}
    got = Counter(Datoteca(seed=1).many("prevision.afp", N))
    for nombre, w in afp.items():
        want = w / sum(afp.values())
        assert abs(got[nombre] / N - want) < 0.01, f"seed 1: AFP {nombre} at {got[nombre] / N:.2%}, contributors' share {want:.2%}"
    salud = Counter(p["salud"] for p in Datoteca(seed=1).many("prevision.prevision", N))
    filas = _csv("salud.csv")
    fonasa = next(int(r["afiliados_o_beneficiarios"]) for r in filas if r["tipo"] == "fonasa")
    isapres = sum(int(r["afiliados_o_beneficiarios"]) for r in filas if r["tipo"] in ("isapre_abierta", "isapre_abierta_residuo")
                  and r["afiliados_o_beneficiarios"])
    want = fonasa / (fonasa + isapres)
    assert abs(salud["FONASA"] / N - want) < 0.01, f"seed 1: FONASA at {salud['FONASA'] / N:.2%}, beneficiaries' share {want:.2%}"


def test_dates_up_to_hoy():
    hoy = datetime.date(2026, 1, 1)
    for f in Datoteca(seed=1).many("fecha.fecha", N):
        assert hoy - datetime.timedelta(days=365) <= datetime.date.fromisoformat(f) <= hoy, f
