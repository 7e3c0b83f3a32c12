#!/usr/bin/env python3
"""datoteca vs Faker('es_CL'), seedfaker (locale "cl") and mimesis (es: it has no Chilean locale), measured
in the same run, interleaved, medians of several repetitions. Prints Markdown tables with µs per value and
the ratio peer / datoteca.

    make bench-python             (installs Faker, seedfaker and mimesis into .venv first)
    .venv/bin/python bench/python_bench.py [--quick]

Not a test: nothing asserts a time.
"""
import statistics
import sys
import time

from faker import Faker
from mimesis import Address, Datetime, Person
from mimesis import __version__ as mimesis_version
from mimesis.locales import Locale
from seedfaker import SeedFaker

import datoteca
from datoteca import Datoteca

QUICK = "--quick" in sys.argv
REPS = 5 if QUICK else 7


def per_call(fn, n):
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def per_value_bulk(fn, n):
    t0 = time.perf_counter()
    fn(n)
    return (time.perf_counter() - t0) / n * 1e6


def main():
    d = Datoteca(seed=42)
    fake = Faker("es_CL")
    Faker.seed(42)

    def faker_person():
        return {"name": fake.name(), "rut": fake.rut(), "address": fake.address(), "phone": fake.phone_number(), "email": fake.email()}

    rows = [
        # label, datoteca (single), n, faker (single), n
        ("rut", d.rut, 20000, fake.rut, 5000),
        ("nombre completo", d.persona.nombre_completo, 20000, fake.name, 500),
        ("dirección (datoteca: full record)", d.direccion.direccion, 20000, fake.address, 1000),
        ("teléfono", d.telefono.movil, 20000, fake.phone_number, 2000),
        ("email", d.persona.email, 20000, fake.email, 500),
        ("empresa", d.empresa.razon_social, 20000, fake.company, 500),
        ("persona record (datoteca: 14 fields)", d.persona.persona, 20000, faker_person, 200),
    ]
    bulk_rows = [
        ("rut, bulk", lambda n: d.many("rut", n), 100000),
        ("nombre completo, bulk", lambda n: d.many("persona.nombre_completo", n), 100000),
        ("persona record, bulk", lambda n: d.many("persona.persona", n), 50000),
    ]
    results = {label: ([], []) for label, *_ in rows}
    bulk_results = {label: [] for label, *_ in bulk_rows}
    for _ in range(REPS):  # interleaved: datoteca and Faker share the machine's state
        for label, dfn, dn, ffn, fn in rows:
            results[label][0].append(per_call(dfn, dn // (4 if QUICK else 1)))
            results[label][1].append(per_call(ffn, max(20, fn // (4 if QUICK else 1))))
        for label, bfn, n in bulk_rows:
            bulk_results[label].append(per_value_bulk(bfn, n // (4 if QUICK else 1)))

    print(f"datoteca {datoteca.version()} (data {datoteca.data_version()}) vs Faker es_CL; medians of {REPS} interleaved runs\n")
    print("| call | datoteca µs | Faker es_CL µs | Faker / datoteca |")
    print("|---|---|---|---|")
    single = {}
    for label, (ds, fs) in results.items():
        dm, fm = statistics.median(ds), statistics.median(fs)
        single[label] = fm
        print(f"| {label} | {dm:.3f} | {fm:.1f} | {fm / dm:,.0f}× |")
    for label, vs in bulk_results.items():
        bm = statistics.median(vs)
        ref = {"rut, bulk": "rut", "nombre completo, bulk": "nombre completo", "persona record, bulk": "persona record (datoteca: 14 fields)"}[label]
        print(f"| {label} (per value) | {bm:.3f} | {single[ref]:.1f} | {single[ref] / bm:,.0f}× |")

    seedfaker_table(d)
    mimesis_table(d)

    n = 10000 if QUICK else 100000
    t0 = time.perf_counter()
    records = d.many("persona.persona", n)
    dt_s = time.perf_counter() - t0
    assert len(records) == n
    fn = n // 10 if QUICK else n
    t0 = time.perf_counter()
    for _ in range(fn):
        faker_person()
    fk_s = (time.perf_counter() - t0) * (n / fn)
    note = "" if fn == n else f" (Faker measured on {fn:,} and scaled)"
    print(f"\n{n:,} person records end to end: datoteca {dt_s:.2f} s, Faker es_CL {fk_s:.1f} s{note}: {fk_s / dt_s:,.0f}×")


# seedfaker's fields nearest to persona.persona's 14 (names, sex, RUT, birth date, email, phone,
# address, comuna, region, postal code), so both sides build 14-field dicts of str.
SEEDFAKER_14 = ["first-name", "last-name", "middle-name", "name", "gender", "rut", "birthdate", "email", "phone",
                "street-address", "city", "state", "postal-code", "address"]


def seedfaker_table(d):
    """datoteca records against seedfaker's, like with like: dicts with 14 fields, every one built."""
    sf = SeedFaker(seed="42", locale="cl")
    assert len(d.persona.persona()) == len(SEEDFAKER_14) == len(sf.record(SEEDFAKER_14))
    n_bulk, n_one = (12500, 5000) if QUICK else (50000, 20000)
    paths = [
        ("14-field dicts, bulk: `d.many('persona.persona', n)` / `records(fields, n=n)`",
         lambda n: d.many("persona.persona", n), lambda n: sf.records(SEEDFAKER_14, n=n), n_bulk),
        ("14-field dict, one at a time: `d.persona.persona()` / `record(fields)`",
         lambda n: [d.persona.persona() for _ in range(n)], lambda n: [sf.record(SEEDFAKER_14) for _ in range(n)], n_one),
    ]
    times = {label: ([], []) for label, *_ in paths}
    for _ in range(REPS):
        for label, dfn, sfn, n in paths:
            times[label][0].append(per_value_bulk(dfn, n))
            times[label][1].append(per_value_bulk(sfn, n))
    print("\n| records (seedfaker 0.4, `SeedFaker(seed=\"42\", locale=\"cl\")`) | datoteca µs | seedfaker µs | seedfaker / datoteca |")
    print("|---|---|---|---|")
    for label, (ds, ss) in times.items():
        dm, sm = statistics.median(ds), statistics.median(ss)
        print(f"| {label} | {dm:.3f} | {sm:.3f} | {sm / dm:.2f}× |")
    print("\nseedfaker's `cl` RUTs are mostly invalid (measured: 18,224 of 20,000 rejected by python-stdnum, a random "
          "check digit), its phones are written +57 and its emails do not follow the name: faster would not mean equal.")


def mimesis_table(d):
    """datoteca's one persona record against mimesis building a dict of the nearest 14 fields (it has no
    RUT: `identifier()` stands in), one at a time, both sides keeping every field."""
    p, a, t = Person(Locale.ES, seed=42), Address(Locale.ES, seed=42), Datetime(Locale.ES, seed=42)

    def mimesis_persona():
        return {"nombres": p.first_name(), "apellido_paterno": p.last_name(), "apellido_materno": p.last_name(),
                "nombre_completo": p.full_name(), "sexo": p.gender(), "rut": p.identifier(),
                "fecha_nacimiento": t.date(start=1946, end=2008).isoformat(), "email": p.email(),
                "telefono": p.phone_number(), "direccion": a.address(), "comuna": a.city(), "region": a.region(),
                "codigo_comuna": a.postal_code(), "codigo_region": a.region(abbr=True)}

    assert len(mimesis_persona()) == len(d.persona.persona())
    n = 2000 if QUICK else 10000
    ds, ms = [], []
    for _ in range(REPS):
        ds.append(per_value_bulk(lambda n: [d.persona.persona() for _ in range(n)], n))
        ms.append(per_value_bulk(lambda n: [mimesis_persona() for _ in range(n)], n))
    dm, mm = statistics.median(ds), statistics.median(ms)
    print(f"\n| records (mimesis {mimesis_version}, `Locale.ES`) | datoteca µs | mimesis µs | mimesis / datoteca |")
    print("|---|---|---|---|")
    print(f"| 14-field dict, one at a time: `d.persona.persona()` / a dict of 14 provider calls | {dm:.3f} | {mm:.3f} | {mm / dm:.1f}× |")


if __name__ == "__main__":
    main()
