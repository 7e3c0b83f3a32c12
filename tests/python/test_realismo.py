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
