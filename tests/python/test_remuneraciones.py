"""remuneracion.liquidacion recomputed by a reference written here: 100,000 payslips over every month the
tables cover, each peso recomputed from the CSVs of c/data/ read directly (not from the library), with
Python integers and the rules of docs/remuneraciones.md. Published figures check the tables from outside:
Previred's tope in pesos for July 2025 and the SII's bracket limits for March 2026."""
import csv
import os
from collections import Counter
from fractions import Fraction

import pytest

import datoteca
from conftest import ROOT
from datoteca import Datoteca


def _csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _dec(text):
    """'36733.04' -> Fraction, exactly."""
    return Fraction(text)


def _round(x):
    """Half up to the peso, as the rules say (x >= 0)."""
    return int(x + Fraction(1, 2)) if x >= 0 else -int(-x + Fraction(1, 2))


INDICADORES = {r["periodo"]: (_dec(r["uf_ultimo_dia"]), int(r["utm"])) for r in _csv("indicadores_mensuales.csv")}
COMISIONES = _csv("afp_comisiones.csv")
TOPES = _csv("topes_imponibles.csv")
TRAMOS = [(_dec(r["desde_utm"]), _dec(r["tasa_pct"]) / 100, _dec(r["rebaja_utm"])) for r in _csv("impuesto_unico.csv")]
TASAS = {r["concepto"]: _dec(r["valor"]) for r in _csv("remuneracion_tasas.csv")}
MINIMOS = [(r["vigente_desde"], int(r["valor_clp"])) for r in _csv("sueldos.csv")
           if r["serie"] == "ingreso_minimo_mensual" and r["grupo"] == "18_a_65_anios"]
ISAPRES = {r["nombre"] for r in _csv("salud.csv") if r["tipo"] == "isapre_abierta"}
AFPS = {r["nombre"] for r in _csv("prevision.csv") if r["tipo"] == "afp"}


def _en_vigor(rows, periodo, key="desde"):
    return [r for r in rows if r[key] <= periodo][-1]


def _minimo(hoy):
    return [clp for desde, clp in MINIMOS if desde <= hoy][-1]


def reference(p, hoy):
    """Every computed field of payslip p from its drawn inputs (base, contract, AFP, insurer, plan)."""
    periodo = hoy[:7]
    uf, utm = INDICADORES[periodo]
    tope = _en_vigor(TOPES, periodo)
    comision = _dec(_en_vigor([r for r in COMISIONES if r["afp"] == p["afp"]], periodo)["comision_pct"])
    base = p["sueldo_base"]
    gratificacion = min(_round(base * TASAS["gratificacion"] / 100), _round(_minimo(hoy) * TASAS["gratificacion_tope_imm"] / 12))
    imponible = base + gratificacion
    tope_afp = _round(_dec(tope["tope_afp_uf"]) * uf)
    tope_ces = _round(_dec(tope["tope_cesantia_uf"]) * uf)
    afp = _round(min(imponible, tope_afp) * (TASAS["afp_obligatoria"] + comision) / 100)
    legal = _round(min(imponible, tope_afp) * TASAS["salud_minima"] / 100)
    salud = legal
    if p["plan_uf"] is not None:
        salud = max(legal, _round(_dec(p["plan_uf"].replace(",", ".")) * uf))
    tasa_ces = TASAS["cesantia_indefinido_trabajador"] if p["contrato"] == "indefinido" else TASAS["cesantia_plazo_fijo_trabajador"]
    cesantia = _round(min(imponible, tope_ces) * tasa_ces / 100)
    tributable = imponible - afp - legal - cesantia
    desde, tasa, rebaja = [t for t in TRAMOS if tributable > t[0] * utm or t[0] == 0][-1]
    impuesto = max(0, _round(tributable * tasa - rebaja * utm))
    descuentos = afp + salud + cesantia + impuesto
    return {"periodo": periodo, "gratificacion": gratificacion, "total_imponible": imponible, "cotizacion_afp": afp,
            "cotizacion_salud": salud, "seguro_cesantia": cesantia, "base_tributable": tributable,
            "impuesto_unico": impuesto, "total_haberes": imponible, "total_descuentos": descuentos,
            "liquido": imponible - descuentos}


# Every covered month, on its first, a middle and its last day; seeds differ by month.
MESES = sorted(INDICADORES)


@pytest.mark.parametrize("periodo", MESES)
def test_payslips_recompute_exactly(periodo):
    n = 100_000 // len(MESES) + 1
    for k, (dia, contrato, salud) in enumerate([("01", "cualquiera", "cualquiera"), ("15", "indefinido", "isapre"),
                                                ("28", "plazo_fijo", "fonasa")]):
        hoy = f"{periodo}-{dia}"
        seed = int(periodo.replace("-", "")) * 10 + k
        for i, p in enumerate(Datoteca(seed=seed, hoy=hoy).many("remuneracion.liquidacion", n // 3 + 1,
                                                                contrato=contrato, salud=salud)):
            where = f"seed {seed}, hoy {hoy}, remuneracion.liquidacion(contrato={contrato}, salud={salud}) value {i + 1}"
            esperado = reference(p, hoy)
            distinto = {c: (v, p[c]) for c, v in esperado.items() if p[c] != v}
            assert not distinto, f"{where}: (expected, actual) {distinto}; payslip {p}"
            assert p["sueldo_base"] >= _minimo(hoy) and p["sueldo_base"] % 1000 == 0, f"{where}: base {p['sueldo_base']}"
            assert p["afp"] in AFPS, f"{where}: AFP {p['afp']}"
            if contrato != "cualquiera":
                assert p["contrato"] == contrato, f"{where}: contract {p['contrato']}"
            if salud == "fonasa" or p["salud"] == "FONASA":
                assert p["salud"] == "FONASA" and p["plan_uf"] is None, f"{where}: {p['salud']} {p['plan_uf']}"
            else:
                assert p["salud"] in ISAPRES and 200 <= int(p["plan_uf"].replace(",", "")) <= 800, f"{where}: {p}"


def test_the_tables_agree_with_published_figures():
    """Previred's July 2025 tope imponible in pesos (87.8 UF at 31-07-2025) and the SII's bracket limits and
    rebaja of March 2026 (UTM 69,889), as their tables print them."""
    uf, _ = INDICADORES["2025-07"]
    assert _round(_dec(_en_vigor(TOPES, "2025-07")["tope_afp_uf"]) * uf) == 3_439_917
    _, utm = INDICADORES["2026-03"]
    assert [t[0] * utm for t in TRAMOS][6:] == [8_386_680, 21_665_590]
    assert TRAMOS[6][2] * utm == Fraction("1629811.48") and TRAMOS[7][2] * utm == Fraction("2713090.98")
    assert TRAMOS[1][0] * utm == Fraction("943501.5")


def test_every_rule_is_exercised():
    """The sample reaches the tope, every tax bracket but the top one's neighbours it cannot reach, both
    contracts and Isapre plans above and below the legal 7 %."""
    ps = Datoteca(seed=11, hoy="2025-07-31").many("remuneracion.liquidacion", 20_000)
    uf, utm = INDICADORES["2025-07"]
    tope = _round(Fraction("87.8") * uf)
    assert any(p["total_imponible"] > tope for p in ps), "no payslip above the tope"
    tramos = Counter(max(i for i, t in enumerate(TRAMOS) if p["base_tributable"] > t[0] * utm or i == 0) for p in ps)
    assert set(range(4)) <= set(tramos), f"brackets reached: {sorted(tramos)}"
    assert {p["contrato"] for p in ps} == {"indefinido", "plazo_fijo"}
    isapre = [p for p in ps if p["plan_uf"] is not None]
    legal = [round(min(p["total_imponible"], tope) * 7 / 100) for p in isapre]
    assert any(p["cotizacion_salud"] > l + 1 for p, l in zip(isapre, legal)) and any(p["cotizacion_salud"] <= l + 1 for p, l in zip(isapre, legal))


@pytest.mark.parametrize("hoy", ["2023-12-31", "2026-04-01", "1999-06-01"])
def test_months_without_sourced_tables_are_refused_without_a_draw(hoy):
    d = Datoteca(seed=5, hoy=hoy)
    antes = d.save_state()
    with pytest.raises(datoteca.InvalidArgumentError, match=r"hoy must be from 2024-01-01 to 2026-03-31"):
        d.remuneracion.liquidacion()
    assert d.save_state() == antes, f"seed 5, hoy {hoy}: the refused call drew numbers"
    with pytest.raises(datoteca.InvalidArgumentError, match=r"hoy must be from 2024-01-01 to 2026-03-31"):
        datoteca.Tabla("remuneracion.liquidacion", hoy=hoy)


def test_a_dataset_of_payslips_recomputes():
    filas = datoteca.Tabla("remuneracion.liquidacion", seed=3, hoy="2025-10-31").filas(2000)
    for i, p in enumerate(filas):
        esperado = reference(p, "2025-10-31")
        assert all(p[c] == v for c, v in esperado.items()), f"seed 3, dataset row {i}: {p} vs {esperado}"
