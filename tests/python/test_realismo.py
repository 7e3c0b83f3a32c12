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
