"""The Spark data sources on local[2]: a dataset with 1, 2 and 7 partitions gives the same rows (by row
index), equal to the CLI's; a schema's fan-out table (banco.toml's cuentas) with 1 and 2 partitions equals
the CLI's CSV, and a slice of movimientos in 3 partitions equals Esquema.filas. Java comes from Debian
(tools/need_java.sh) when missing."""
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


BANCO = os.path.join(ROOT, "esquemas", "banco.toml")


def _esquema(spark, particiones, tabla="cuentas", **extra):
    r = (spark.read.format("datoteca_esquema").option("esquema", BANCO).option("tabla", tabla).option("seed", 42)
         .option("particiones", particiones).option("lote", 7000))
    for k, v in extra.items():
        r = r.option(k, v)
    return r.load()


def test_a_schema_table_with_1_and_2_partitions_equals_the_cli_csv(spark, tmp_path):
    import pyarrow as pa
    import pyarrow.csv as pacsv

    subprocess.run([CLI, "esquema", BANCO, "--seed", "42", "--formato", "csv", "--salida", str(tmp_path)], check=True)
    cabecera = (tmp_path / "cuentas.csv").read_text().split("\n", 1)[0].split(",")
    cli = pacsv.read_csv(tmp_path / "cuentas.csv", convert_options=pacsv.ConvertOptions(
        strings_can_be_null=True, quoted_strings_can_be_null=False, column_types={c: pa.string() for c in cabecera}))
    assert cli.num_rows > 50_000, "banco.toml's cuentas fan out from its clientes"
    for particiones in (1, 2):
        df = _esquema(spark, particiones)
        assert df.rdd.getNumPartitions() == particiones
        tabla = df.orderBy("id").toArrow()
        assert tabla.column_names == cli.column_names and tabla.num_rows == cli.num_rows, (particiones, tabla.schema)
        for nombre in tabla.column_names:
            a, b = tabla.column(nombre).cast(pa.string()), cli.column(nombre)
            if not a.equals(b):
                i = next(k for k in range(cli.num_rows) if a[k].as_py() != b[k].as_py())
                pytest.fail(f"banco.toml seed 42, cuentas, {particiones} partitions, row {i}, column {nombre}: "
                            f"Spark {a[i].as_py()!r}, CLI {b[i].as_py()!r}")


def test_schema_partitions_are_row_slices_and_options_are_checked(spark):
    from datoteca import Esquema

    e = Esquema(BANCO, seed=42)
    esperado = e.filas("movimientos", 500, desde=1000)
    filas = sorted(_esquema(spark, 3, tabla="movimientos", desde="1000", filas="500", indice="true").collect(),
                   key=lambda f: f.fila)
    assert [f.fila for f in filas] == list(range(1000, 1500))
    for f, d in zip(filas, esperado):
        g = f.asDict()
        g.pop("fila")
        g["fecha"] = g["fecha"].isoformat()
        assert g == d, f"movimientos row {f.fila}: Spark {g}, filas() {d}"
    with pytest.raises(Exception, match="is not a table of the schema"):
        _esquema(spark, 1, tabla="nada").collect()
    with pytest.raises(Exception, match="unknown option 'bogus'"):
        _esquema(spark, 1, bogus="1").collect()
    texto = open(BANCO, encoding="utf-8").read()
    por_texto = (spark.read.format("datoteca_esquema").option("esquema", texto).option("tabla", "tarjetas")
                 .option("seed", 42).option("filas", 300).load().orderBy("id").collect())
    assert [f.asDict() for f in por_texto] == e.filas("tarjetas", 300)
