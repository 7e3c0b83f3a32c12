"""The Spark data source on local[2]: 1, 2 and 7 partitions give the same rows (by row index), equal
to the CLI's; Java comes from Debian (tools/need_java.sh) when missing."""
import json
import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("pyspark")
from conftest import ROOT  # noqa: E402

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))


@pytest.fixture(scope="module")
def spark():
    if shutil.which("java") is None:
        subprocess.run([os.path.join(ROOT, "tools", "need_java.sh")], check=True)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    from datoteca.spark import registrar

    s = (SparkSession.builder.master("local[2]").appName("datoteca-tests").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    registrar(s)
    yield s
    s.stop()


def _leer(spark, particiones, **extra):
    r = (spark.read.format("datoteca").option("call", "persona.persona").option("seed", 42).option("filas", 6000)
         .option("particiones", particiones).option("unico", "rut,email").option("nulos", "comuna:50")
         .option("indice", "true"))
    for k, v in extra.items():
        r = r.option(k, v)
    return sorted(r.load().collect(), key=lambda fila: fila.fila)


def test_any_number_of_partitions_gives_the_same_rows_as_the_cli(spark):
    uno = _leer(spark, 1)
    assert [f.fila for f in uno] == list(range(6000))
    assert _leer(spark, 2) == uno and _leer(spark, 7) == uno
    out = subprocess.run([CLI, "tabla", "persona", "--seed", "42", "-n", "6000", "--unico", "rut,email",
                          "--nulos", "comuna:50"], check=True, capture_output=True, text=True).stdout
    cli = [json.loads(line) for line in out.splitlines()]
    for fila, esperado in zip(uno, cli):
        d = fila.asDict()
        d.pop("fila")
        d["fecha_nacimiento"] = d["fecha_nacimiento"].isoformat()
        assert d == esperado, f"row {fila.fila}: Spark {d}, CLI {esperado}"


def test_call_arguments_and_bad_options(spark):
    filas = _leer(spark, 3, edad_min="30", edad_max="40", campos="rut,email,fecha_nacimiento,comuna")
    assert len(filas) == 6000 and set(filas[0].asDict()) == {"fila", "rut", "email", "fecha_nacimiento", "comuna"}
    with pytest.raises(Exception, match="unknown option 'bogus'"):
        spark.read.format("datoteca").option("call", "rut").option("bogus", "1").load().collect()
