"""The data against the figures it is meant to follow (docs/data.md), on 100,000 values with seed 1:
expectations are read from the CSVs here, not from the library."""
import csv
import os
from collections import Counter

from conftest import ROOT
from datoteca import Datoteca

N = 100_000


def _csv(name):
    with open(os.path.join(ROOT, "c", "data", name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


PERSONAS = Datoteca(seed=1).many("persona.persona", N)


def test_persona_emails_are_rarely_shared():
    counts = Counter(p["email"] for p in PERSONAS)
    shared = sum(n for n in counts.values() if n > 1)
    assert shared < N * 0.005, f"seed 1, {N} persona records: {shared} emails are shared ({shared / N:.2%}, limit 0.5 %)"


def test_webmail_domains_follow_their_weights():
    pesos = {r["dominio"]: int(r["peso"]) for r in _csv("dominios_email_pesos.csv")}
    total = sum(pesos.values())
    got = Counter(p["email"].rpartition("@")[2] for p in PERSONAS)
    assert set(got) <= set(pesos), f"domains outside the table: {set(got) - set(pesos)}"
    for dominio, peso in pesos.items():
        share, want = got[dominio] / N, peso / total
        assert abs(share - want) < 0.01, f"seed 1, {N} records: {dominio} at {share:.2%}, its weight is {want:.2%}"


def test_every_postal_code_is_its_comunas():
    postal = {r["codigo_comuna"]: r["codigo_postal_base"] for r in _csv("codigos_postales.csv")}
    for i, d in enumerate(Datoteca(seed=1).many("direccion.direccion", N)):
        assert d["codigo_postal"] == postal[d["codigo_comuna"]], (
            f"seed 1, direccion.direccion value {i + 1}: {d['codigo_postal']!r} in {d['comuna']}, its code is {postal[d['codigo_comuna']]!r}")


def test_persons_accounts_are_at_retail_banks_by_their_weights():
    # the current banks (docs/data.md: estado vigente, a bank or a foreign bank's branch), by code
    peso = {r["codigo"]: r for r in _csv("bancos_peso.csv")}
    vigentes = {b["codigo"]: b["nombre_comun"] for b in _csv("bancos.csv")
                if b["estado"] == "vigente" and b["tipo"] in ("banco", "banco_estatal", "sucursal_banco_extranjero")}
    pesos = {nombre: peso[codigo] for codigo, nombre in vigentes.items()}
    weights = {n: float(r["peso_personas"]) for n, r in pesos.items()}
    total = sum(weights.values())
    cuentas = Datoteca(seed=1).many("banco.cuenta", N)
    got = Counter(c["banco"] for c in cuentas)
    for i, c in enumerate(cuentas):
        assert pesos[c["banco"]]["minorista"] == "si", f"seed 1, banco.cuenta value {i + 1}: a person's account at {c['banco']}"
    for banco, w in weights.items():
        assert abs(got[banco] / N - w / total) < 0.01, f"seed 1, {N} accounts: {banco} at {got[banco] / N:.2%}, its weight is {w / total:.2%}"
    cuenta_rut = sum(c["tipo_cuenta"] == "CuentaRUT" for c in cuentas) / N
    want = weights["BancoEstado"] / total * 0.9  # 9 in 10 of BancoEstado's accounts (docs/data.md)
    assert abs(cuenta_rut - want) < 0.01, f"seed 1: CuentaRUT {cuenta_rut:.2%}, expected {want:.2%}"


def _edad(fecha, hoy=(2026, 1, 1)):
    y, m, d = (int(x) for x in fecha.split("-"))
    return hoy[0] - y - ((hoy[1], hoy[2]) < (m, d))


def test_ages_follow_the_population_pyramid():
    pop = {int(r["edad"]): int(r["total"]) for r in _csv("edades.csv")}
    want = sum(pop[e] for e in range(65, 81)) / sum(pop[e] for e in range(18, 81))
    edades = [_edad(p["fecha_nacimiento"]) for p in PERSONAS]  # the default range, 18 to 80
    assert min(edades) >= 18 and max(edades) <= 80
    share = sum(e >= 65 for e in edades) / N
    assert abs(share - want) < 0.02, f"seed 1, {N} persona records: {share:.2%} aged 65+, INE's pyramid has {want:.2%}"


def test_nobody_past_110_unless_asked():
    edades = [_edad(f) for f in Datoteca(seed=1).many("persona.fecha_nacimiento", N, edad_min=0, edad_max=120)]
    assert max(edades) <= 110, f"seed 1: someone aged {max(edades)} in 0..120"
    asked = [_edad(f) for f in Datoteca(seed=1).many("persona.fecha_nacimiento", 1000, edad_min=115, edad_max=120)]
    assert min(asked) >= 115 and max(asked) <= 120, "ages 115..120 asked for"


def test_no_rut_newer_than_the_reference_date():
    """RUNs are assigned in order: nobody holds one newer than what newborns get in the reference
    year. docs/data.md's anchors (27.0 M around 2020, 31.0 M in 2030, linear between) put that at
    29.4 M in 2026."""
    emitido = 27_000_000 + (2026 - 2020) * (31_000_000 - 27_000_000) // 10
    for i, p in enumerate(Datoteca(seed=1).many("persona.persona", N, edad_min=0, edad_max=17)):
        cuerpo = int(p["rut"].replace(".", "").split("-")[0])
        assert cuerpo <= emitido, f"seed 1, persona.persona(0..17) value {i + 1}: RUT {p['rut']} is newer than {emitido} (hoy 2026-01-01)"


def test_salaries_follow_the_minimum_wage_and_the_esi_median():
    minimos = sorted((r["vigente_desde"], int(r["valor_clp"])) for r in _csv("sueldos.csv")
                     if r["serie"] == "ingreso_minimo_mensual" and r["grupo"] == "18_a_65_anios")
    mediana_neta = next(int(r["valor_clp"]) for r in _csv("sueldos.csv")
                        if (r["serie"], r["anio"], r["grupo"], r["indicador"]) == ("esi", "2024", "total", "mediana"))
    for hoy in ("2026-01-01", "2026-06-01", "2024-01-01"):
        minimo = [clp for desde, clp in minimos if desde <= hoy][-1]
        sueldos = sorted(Datoteca(seed=1, hoy=hoy).many("dinero.sueldo", N))
        assert sueldos[0] >= minimo, f"seed 1, hoy {hoy}: a salary of {sueldos[0]} below the minimum wage {minimo}"
        bruta = mediana_neta / (1 - 0.187)  # the ESI's legal deductions (sueldos.csv)
        assert abs(sueldos[N // 2] - bruta) < 0.02 * bruta, f"seed 1, hoy {hoy}: median {sueldos[N // 2]}, ESI 2024 gross {bruta:.0f}"


def test_children_have_no_email_and_no_mobile():
    """Under 14 (docs/data.md) a person has neither: null in every language; from 14 on, both."""
    for i, p in enumerate(Datoteca(seed=1).many("persona.persona", N, edad_min=0, edad_max=17)):
        edad = _edad(p["fecha_nacimiento"])
        if edad < 14:
            assert p["email"] is None and p["telefono"] is None, f"seed 1, value {i + 1}: aged {edad} with {p['email']!r}, {p['telefono']!r}"
        else:
            assert p["email"] and p["telefono"], f"seed 1, value {i + 1}: aged {edad} without email or mobile"


EMPRESAS = Datoteca(seed=1).many("empresa.empresa", 25_000)


def test_company_emails_are_rarely_shared():
    counts = Counter(e["email"] for e in EMPRESAS)
    shared = sum(n for n in counts.values() if n > 1)
    assert shared < len(EMPRESAS) * 0.01, (
        f"seed 1, {len(EMPRESAS)} empresa records: {shared} emails are shared ({shared / len(EMPRESAS):.2%}, limit 1 %); "
        f"most common {counts.most_common(3)}")
    for i, e in enumerate(EMPRESAS):
        dominio = e["email"].rpartition("@")[2]
        assert dominio.endswith(".cl") and len(dominio) > 12, f"seed 1, empresa.empresa value {i + 1}: {e['email']!r}"


def test_giros_stay_in_their_regions():
    region_codigo = {r["nombre_oficial"]: r["codigo_cut"] for r in _csv("regiones.csv")}
    permitidas = {g["giro"]: set(g["regiones"].split("|")) for g in _csv("giros.csv") if g["regiones"]}
    assert permitidas, "giros.csv restricts no giro"
    vistos = Counter()
    for i, e in enumerate(EMPRESAS):
        if e["giro"] in permitidas:
            vistos[e["giro"]] += 1
            assert region_codigo[e["region"]] in permitidas[e["giro"]], (
                f"seed 1, empresa.empresa value {i + 1}: {e['giro']!r} in {e['region']}")
    assert set(vistos) == set(permitidas), f"restricted giros never drawn: {set(permitidas) - set(vistos)}"


def test_old_ruts_only_for_sociedades_anonimas():
    antiguas = 0
    for i, e in enumerate(EMPRESAS):
        cuerpo = int(e["rut"].replace(".", "").split("-")[0])
        if 90_000_000 <= cuerpo <= 99_999_999:  # datoteca.h DT_RUT_SA_ANTIGUA_*
            antiguas += 1
            assert e["razon_social"].endswith(" S.A."), f"seed 1, empresa.empresa value {i + 1}: {e['rut']} for {e['razon_social']!r}"
        else:
            assert 76_000_000 <= cuerpo <= 77_999_999, f"seed 1, empresa.empresa value {i + 1}: {e['rut']}"
    sa = sum(e["razon_social"].endswith(" S.A.") for e in EMPRESAS)
    # uniform over both ranges: 10 of the 12 million numbers are old
    assert abs(antiguas / sa - 10 / 12) < 0.02, f"seed 1: {antiguas} of {sa} S.A. have an old RUT"


# docs/data.md: deptos only in comunas of at least 50,000 inhabitants (Censo 2017), Santiago's
# avenues only in Gran Santiago (the province of Santiago, Puente Alto, San Bernardo).
URBANA = 50_000


def test_deptos_only_in_urban_comunas_and_avenues_only_in_gran_santiago():
    comunas = {c["codigo_cut"]: c for c in _csv("comunas.csv")}
    calles = _csv("calles.csv")
    generales = {c["nombre"] for c in calles if c["categoria"] != "avenida_santiago"}
    avenidas = {c["nombre"].removeprefix("Avenida ") for c in calles if c["categoria"] == "avenida_santiago"} - generales
    con_depto = urbanas = 0
    for i, d in enumerate(Datoteca(seed=1).many("direccion.direccion", N)):
        c = comunas[d["codigo_comuna"]]
        where = f"seed 1, direccion.direccion value {i + 1}"
        if int(c["poblacion_censo_2017"]) >= URBANA:
            urbanas += 1
            con_depto += bool(d["depto"])
        else:
            assert not d["depto"], f"{where}: {d['depto']!r} in {c['nombre']} ({c['poblacion_censo_2017']} inhabitants)"
        if d["nombre_via"] in avenidas:
            assert c["codigo_provincia"] == "131" or c["codigo_cut"] in ("13201", "13401"), (
                f"{where}: {d['nombre_via']!r} in {c['nombre']}")
    assert abs(con_depto / urbanas - 0.30) < 0.01, f"seed 1: {con_depto} of {urbanas} urban addresses have a depto"


def test_sex_follows_the_census_and_street_numbers_their_bands():
    comunas = _csv("comunas.csv")
    want = sum(int(c["mujeres_censo_2017"]) for c in comunas) / sum(int(c["poblacion_censo_2017"]) for c in comunas)
    share = sum(p["sexo"] == "F" for p in PERSONAS) / N
    assert abs(share - want) < 0.01, f"seed 1, {N} persona records: {share:.2%} women, Censo 2017 has {want:.2%}"
    numeros = Datoteca(seed=1).many("direccion.numero", N)
    bandas = Counter(0 if n <= 999 else 1 if n <= 4999 else 2 for n in numeros)  # docs/data.md: 55 / 35 / 10 %
    assert min(numeros) >= 1 and max(numeros) <= 14_999, f"seed 1: street numbers from {min(numeros)} to {max(numeros)}"
    for banda, want in ((0, 0.55), (1, 0.35), (2, 0.10)):
        assert abs(bandas[banda] / N - want) < 0.01, f"seed 1: band {banda} of street numbers at {bandas[banda] / N:.2%}, {want:.0%} documented"
