"""Datasets to Arrow and Parquet, against Faker es_CL and mimesis (es) building the same kind of rows,
all in one run; Spark on local[2] with 1 and 2 partitions. Prints Markdown tables for
docs/performance.md. Usage: .venv/bin/python bench/arrow_bench.py [filas]"""
import os
import resource
import subprocess
import sys
import tempfile
import time

import pyarrow as pa

import datoteca

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
PEERS = 100_000


def rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def medir(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


print(f"| what | rows | seconds | µs per row | peak RSS MiB |\n|---|---|---|---|---|")
# Parquet first, in its own process: a child's peak RSS starts from its parent's.
with tempfile.TemporaryDirectory() as d:
    ruta = os.path.join(d, "p.parquet")
    code = ("import datoteca,resource,time,sys;t=time.perf_counter();"
            f"datoteca.arrow('persona.persona',{N},seed=1).write_parquet(sys.argv[1]);"
            "print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024)")
    out = subprocess.run([sys.executable, "-c", code, ruta], check=True, capture_output=True, text=True).stdout.split()
    s, rss = float(out[0]), float(out[1])
    print(f"| datoteca persona.persona → Parquet, streamed in 65,536-row batches (own process, started first) | {N:,} | {s:.2f} | {s / N * 1e6:.2f} | {rss:.0f} |")
lotes = datoteca.arrow("persona.persona", N, seed=1)
s, tabla = medir(lambda: pa.table(lotes))
print(f"| datoteca persona.persona → pyarrow.Table | {N:,} | {s:.2f} | {s / N * 1e6:.2f} | {rss_mib():.0f} |")
del tabla
s_dt, _ = medir(lambda: pa.table(datoteca.arrow("persona.persona", PEERS, seed=2)))
print(f"| datoteca, {PEERS:,} rows | {PEERS:,} | {s_dt:.3f} | {s_dt / PEERS * 1e6:.2f} | |")

from faker import Faker  # noqa: E402

fake = Faker("es_CL")
Faker.seed(1)


def faker_filas():
    cols = {k: [] for k in ("nombre", "rut", "fecha_nacimiento", "email", "telefono", "direccion", "comuna", "region")}
    for _ in range(PEERS):
        cols["nombre"].append(fake.name())
        cols["rut"].append(fake.rut())
        cols["fecha_nacimiento"].append(fake.date_of_birth(minimum_age=18, maximum_age=80))
        cols["email"].append(fake.email())
        cols["telefono"].append(fake.phone_number())
        cols["direccion"].append(fake.street_address())
        cols["comuna"].append(fake.city())
        cols["region"].append(fake.region())
    return pa.table(cols)


s_fk, _ = medir(faker_filas)
print(f"| Faker es_CL, the same kind of row into pyarrow | {PEERS:,} | {s_fk:.2f} | {s_fk / PEERS * 1e6:.1f} | |")
from mimesis import Address, Datetime, Person  # noqa: E402
from mimesis.locales import Locale  # noqa: E402

p, a, dt = Person(Locale.ES, seed=1), Address(Locale.ES, seed=1), Datetime(Locale.ES, seed=1)


def mimesis_filas():
    cols = {k: [] for k in ("nombre", "fecha_nacimiento", "email", "telefono", "direccion", "ciudad", "region")}
    for _ in range(PEERS):
        cols["nombre"].append(p.full_name())
        cols["fecha_nacimiento"].append(dt.date(start=1946, end=2008))
        cols["email"].append(p.email())
        cols["telefono"].append(p.phone_number())
        cols["direccion"].append(a.address())
        cols["ciudad"].append(a.city())
        cols["region"].append(a.region())
    return pa.table(cols)


s_mm, _ = medir(mimesis_filas)
print(f"| mimesis es, a similar row into pyarrow (no RUT) | {PEERS:,} | {s_mm:.2f} | {s_mm / PEERS * 1e6:.1f} | |")
print(f"\nRatio per row: {s_fk / s_dt:.0f}× Faker es_CL, {s_mm / s_dt:.0f}× mimesis (same run, {PEERS:,} rows each).")



def cpu_ocupada():
    """Seconds of CPU the whole machine spent busy so far (/proc/stat): the JVM and its Python
    workers are other processes, so this is how one run's cores are counted."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


if os.environ.get("SPARK", "1") == "1":
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    from datoteca.spark import registrar

    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    registrar(spark)
    filas = int(os.environ.get("SPARK_FILAS", 20_000_000))

    def contar(k, campos=None):
        r = (spark.read.format("datoteca").option("call", "persona.persona").option("seed", 1)
             .option("filas", filas).option("particiones", k))
        if campos:
            r = r.option("campos", campos)
        c0, t0 = cpu_ocupada(), time.perf_counter()
        r.load().select("rut").where("rut <> ''").count()
        s = time.perf_counter() - t0
        return s, (cpu_ocupada() - c0) / s

    contar(2)  # warm-up: the JVM's JIT and both Python workers
    print(f"\n| Spark local[2], {filas:,} persona rows, count() | partitions | seconds | rows/s | speed-up | cores busy |"
          "\n|---|---|---|---|---|---|")
    for campos, que in ((None, "all 14 columns"), ("rut", "only `rut` (campos=rut)")):
        res = {1: [], 2: []}
        for _ in range(2):  # interleaved, best of two
            for k in (1, 2):
                res[k].append(contar(k, campos))
        base = min(res[1])[0]
        for k in (1, 2):
            s, cores = min(res[k])
            print(f"| {que} | {k} | {s:.1f} | {filas / s:,.0f} | {base / s:.2f}× | {cores:.2f} |")
    spark.stop()
