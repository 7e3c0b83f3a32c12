#!/usr/bin/env python3
"""RUTs from Faker("es_CL").rut() and from datoteca through Faker (datoteca.faker.Proveedor), in one run:
N values each, the share python-stdnum accepts (stdnum.cl.rut.is_valid), the share in the persona range
(datoteca's RUT_PERSONA_MIN..MAX, 1.000.000 to 29.999.999), and the rate. Beside them, the two ways the
provider could make a value (a Datoteca built per value, and the reseeded instance it uses) and datoteca
alone (one stream, one value at a time and many()), for what the Faker layer costs.

    make bench-python                  (installs Faker first; python-stdnum comes with the test extra)
    .venv/bin/python bench/faker_rut.py [N]

Rates are medians of REPS interleaved repetitions; shares come from the first repetition's values.
Not a test: nothing asserts a time.
"""
import importlib.metadata
import random
import statistics
import sys
import time

from faker import Faker
from stdnum.cl import rut as stdnum_rut

import datoteca
from datoteca import RUT_PERSONA_MAX, RUT_PERSONA_MIN, Datoteca
from datoteca.faker import Proveedor, _Flujo

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
REPS = 3


def caminos():
    solo_faker = Faker("es_CL")
    solo_faker.seed_instance(42)
    con_datoteca = Faker("es_CL")
    con_datoteca.add_provider(Proveedor)
    con_datoteca.seed_instance(42)
    d = Datoteca(seed=42)
    bits = random.Random(42)
    bits2 = random.Random(42)
    flujo = _Flujo()
    return [
        ("Faker es_CL `fake.rut()`", lambda n: [solo_faker.rut() for _ in range(n)]),
        ("datoteca through Faker `fake.rut()` (Proveedor)", lambda n: [con_datoteca.rut() for _ in range(n)]),
        ("the mapping without Faker's dispatch: a new `Datoteca(seed=bits)` per value",
         lambda n: [Datoteca(seed=bits.getrandbits(64)).rut() for _ in range(n)]),
        ("the mapping without Faker's dispatch: the provider's reseeded instance",
         lambda n: [flujo.sembrar(bits2.getrandbits(64)).rut() for _ in range(n)]),
        ("datoteca alone, one stream, `d.rut()`", lambda n: [d.rut() for _ in range(n)]),
        ("datoteca alone, `d.many(\"rut\", n)`", lambda n: d.many("rut", n)),
    ]


def cuerpo(rut):
    return int(rut.replace(".", "").replace("-", "")[:-1])


def main():
    filas = caminos()
    tiempos = {nombre: [] for nombre, _ in filas}
    valores = {}
    for rep in range(REPS):
        for nombre, hacer in filas:
            t0 = time.perf_counter()
            vals = hacer(N)
            tiempos[nombre].append(time.perf_counter() - t0)
            if rep == 0:
                valores[nombre] = vals
    print(f"N = {N:,} RUTs each, medians of {REPS} interleaved runs; Faker {importlib.metadata.version('faker')}, "
          f"python-stdnum {importlib.metadata.version('python-stdnum')}, datoteca {datoteca.__version__} "
          f"(data {datoteca.data_version()}), Python {sys.version.split()[0]}\n")
    print("| RUTs from | valid (stdnum) | persona range | distinct | values/s | µs per value |")
    print("|---|---|---|---|---|---|")
    for nombre, _ in filas:
        vals = valores[nombre]
        validos = sum(1 for r in vals if stdnum_rut.is_valid(r))
        persona = sum(1 for r in vals if RUT_PERSONA_MIN <= cuerpo(r) <= RUT_PERSONA_MAX)
        t = statistics.median(tiempos[nombre])
        print(f"| {nombre} | {validos / N:.2%} ({N - validos:,} refused) | {persona / N:.2%} | {len(set(vals)):,} "
              f"| {N / t:,.0f} | {t / N * 1e6:.2f} |")
    invalidos = [r for r in valores[filas[0][0]] if not stdnum_rut.is_valid(r)]
    if invalidos:
        print(f"\nFaker es_CL values stdnum refuses, e.g. {invalidos[:5]} (shortest body {min(map(cuerpo, invalidos)):,}, "
              f"longest {max(map(cuerpo, invalidos)):,})")


if __name__ == "__main__":
    main()
