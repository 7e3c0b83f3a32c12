"""The Spark data sources on local[2]: a dataset with 1, 2 and 7 partitions gives the same rows (by row
index), equal to the CLI's; a schema's fan-out table (banco.toml's cuentas) with 1 and 2 partitions equals
the CLI's CSV, and a slice of movimientos in 3 partitions equals Esquema.filas. Java comes from Debian
(tools/need_java.sh) when missing."""
import json
import os
import re
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


REGLAS_ENMASCARAR = """version = 1

[columnas]
id = { regla = "mantener" }
rut = { regla = "rut" }
nombres = { regla = "persona", campo = "nombres", entidad = "rut" }
email = { regla = "persona", campo = "email", entidad = "rut" }
direccion = { regla = "persona", campo = "direccion", entidad = "rut" }
notas = { regla = "borrar" }
"""
# the published test key: refused since issue 39 unless the caller says it is a test (clave_de_prueba=True,
# --clave-de-prueba); key files are written private (chmod 600), as the library requires.
CLAVE_ENMASCARAR = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def test_enmascarar_a_dataframe_gives_the_cli_rows(spark, tmp_path):
    """datoteca.spark.enmascarar over 1 and 3 partitions: the rows `datoteca enmascarar` gives for the
    same CSV, rules and key, by id (an empty field stays "" through Spark, as in the CLI; a null would be
written as an empty field). mapInArrow needs pandas on the driver (PySpark's own check)."""
    pytest.importorskip("pandas")
    import csv
    import io

    from datoteca import Tabla
    from datoteca.spark import enmascarar

    filas = [[str(i + 1), p["rut"], p["nombres"], p["email"], p["direccion"], f"nota {i}"]
             for i, p in enumerate(Tabla("persona.persona", seed=77, campos=["rut", "nombres", "email", "direccion"],
                                         unico="rut").filas(3000))]
    filas[5][3] = ""  # an empty email
    cols = ["id", "rut", "nombres", "email", "direccion", "notas"]
    entrada = io.StringIO()
    csv.writer(entrada, lineterminator="\n").writerows([cols] + filas)
    (tmp_path / "reglas.toml").write_text(REGLAS_ENMASCARAR)
    (tmp_path / "clave.hex").write_text(CLAVE_ENMASCARAR + "\n")
    (tmp_path / "clave.hex").chmod(0o600)
    env = dict(os.environ)
    env.pop("DATOTECA_CLAVE", None)
    p = subprocess.run([CLI, "enmascarar", "--reglas", str(tmp_path / "reglas.toml"), "--clave-de-prueba", "--clave-archivo",
                        str(tmp_path / "clave.hex")], input=entrada.getvalue().encode(), capture_output=True, env=env)
    assert p.returncode == 0, p.stderr.decode()
    cli = list(csv.reader(io.StringIO(p.stdout.decode())))
    assert cli[0] == ["id", "rut", "nombres", "email", "direccion"]
    esperado = {f[0]: f for f in cli[1:]}
    df = spark.createDataFrame(filas, cols)
    for particiones in (1, 3):
        m = enmascarar(df.repartition(particiones), tmp_path / "reglas.toml", clave_archivo=tmp_path / "clave.hex", clave_de_prueba=True)
        assert m.columns == cli[0]
        got = m.collect()
        assert len(got) == len(filas)
        for fila in got:
            d = ["" if v is None else v for v in fila]
            assert d == esperado[d[0]], f"{particiones} partitions, id {d[0]}: Spark {d}, CLI {esperado[d[0]]}"


def test_enmascarar_refusals_name_the_column_and_never_the_value(spark, tmp_path):
    pytest.importorskip("pandas")
    from datoteca import InvalidArgumentError
    from datoteca.spark import enmascarar

    (tmp_path / "clave.hex").write_text(CLAVE_ENMASCARAR + "\n")
    (tmp_path / "clave.hex").chmod(0o600)
    clave = tmp_path / "clave.hex"
    cols = ["id", "rut", "nombres", "email", "direccion", "notas"]
    df = spark.createDataFrame([["1", "15827394-3", "a", "b", "c", "d"]], cols)
    with pytest.raises(Exception) as info:
        enmascarar(df, REGLAS_ENMASCARAR, clave_archivo=clave, clave_de_prueba=True).collect()
    msg = str(info.value)
    assert re.search(r"partition \d+: row 1, column rut: not a valid RUT", msg), msg
    assert "15827394" not in msg and CLAVE_ENMASCARAR not in msg
    with pytest.raises(InvalidArgumentError, match="column id is bigint, not a string"):
        enmascarar(spark.createDataFrame([[1, "a", "b", "c", "d", "e"]], cols), REGLAS_ENMASCARAR, clave_archivo=clave, clave_de_prueba=True)
    with pytest.raises(InvalidArgumentError, match="has no rule"):
        enmascarar(df.withColumn("extra", df.id), REGLAS_ENMASCARAR, clave_archivo=clave, clave_de_prueba=True)
