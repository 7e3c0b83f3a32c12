"""A schema's tables as Arrow from C (Esquema.arrow): every table of esquemas/banco.toml equal value by value
to the CLI's CSV of the same schema and seed, validated by pyarrow in full, slices and batch sizes that do
not change the rows, a stream that outlives its Esquema, Parquet round trips, polars and DuckDB reading
the same object, and the refusals."""
import gc
import os
import subprocess

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pacsv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from conftest import ROOT  # noqa: E402
from datoteca import Esquema, InvalidArgumentError  # noqa: E402

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
BANCO = os.path.join(ROOT, "esquemas", "banco.toml")
SEED = 42

# A small schema with what banco.toml may lack: nulls in text columns, a table of 0 rows, a fan-out of
# 0 to 2, a date column, a ref to a call's unique column.
PEQUENO = """
[tablas.clientes]
filas = 500
[tablas.clientes.columnas]
id = { serie = true }
persona = { llamada = "persona.persona", campos = ["rut", "fecha_nacimiento", "email", "telefono"], unico = ["rut"], nulos = { email = 400, telefono = 100 } }
[tablas.cuentas]
por = "clientes"
cuantos = { min = 0, max = 2 }
[tablas.cuentas.columnas]
id = { serie = true }
titular = { ref = "clientes.rut" }
tipo = { elegir = { corriente = 3, "cuenta RUT" = 2 } }
[tablas.vacia]
filas = 0
[tablas.vacia.columnas]
id = { serie = true }
"""


@pytest.fixture(scope="module")
def csv_banco(tmp_path_factory):
    """Every table of banco.toml as the CLI writes it (seed 42), read back as text."""
    salida = tmp_path_factory.mktemp("banco")
    subprocess.run([CLI, "esquema", BANCO, "--seed", str(SEED), "--formato", "csv", "--salida", str(salida)], check=True)
    return salida


def _leer_csv(ruta):
    with open(ruta, "rb") as f:
        cabecera = f.readline().decode().rstrip("\n").split(",")
    # a null is an empty unquoted cell, an empty text "": read every column as the text it is
    opts = pacsv.ConvertOptions(strings_can_be_null=True, quoted_strings_can_be_null=False,
                                column_types={c: pa.string() for c in cabecera})
    return pacsv.read_csv(ruta, convert_options=opts, read_options=pacsv.ReadOptions(block_size=1 << 26))


def _igual_al_csv(tabla, cli, que):
    assert tabla.column_names == cli.column_names, f"{que}: columns {tabla.column_names}, CLI {cli.column_names}"
    assert tabla.num_rows == cli.num_rows, f"{que}: {tabla.num_rows} rows, CLI {cli.num_rows}"
    for nombre in tabla.column_names:
        a = tabla.column(nombre).cast(pa.string())
        b = cli.column(nombre)
        if not a.equals(b):
            i = next(k for k in range(tabla.num_rows) if a[k].as_py() != b[k].as_py())
            pytest.fail(f"{que}, row {i}, column {nombre}: Arrow {a[i].as_py()!r}, CLI {b[i].as_py()!r}")


def test_every_banco_table_equals_the_cli_csv_and_validates(csv_banco):
    e = Esquema(BANCO, seed=SEED)
    for t in e.tablas:
        tabla = e.arrow(t).to_pyarrow()
        tabla.validate(full=True)
        assert tabla.num_rows == e.total(t)
        for c in e.columnas(t):
            f = tabla.schema.field(c["nombre"])
            esperado = {"date": pa.date32(), "integer": pa.int64(), "bigint": pa.int64()}.get(c["tipo_sql"], pa.string())
            assert f.type == esperado and f.nullable == c["nulable"], f"{t}.{c['nombre']}: {f} for {c}"
        _igual_al_csv(tabla, _leer_csv(csv_banco / f"{t}.csv"), f"banco.toml seed {SEED}, table {t}")


def test_nulls_empty_tables_and_a_ref_to_a_call_column(tmp_path):
    doc = tmp_path / "pequeno.toml"
    doc.write_text(PEQUENO)
    subprocess.run([CLI, "esquema", str(doc), "--seed", "5", "--formato", "csv", "--salida", str(tmp_path)], check=True)
    e = Esquema(str(doc), seed=5)
    for t in e.tablas:
        tabla = pa.table(e.arrow(t, lote=37))
        tabla.validate(full=True)
        _igual_al_csv(tabla, _leer_csv(tmp_path / f"{t}.csv"), f"pequeno.toml seed 5, table {t}")
    clientes = pa.table(e.arrow("clientes"))
    assert 150 < clientes.column("email").null_count < 250, "email at 400 per mille"
    assert clientes.column("rut").null_count == 0 and not clientes.schema.field("rut").nullable
    assert pa.table(e.arrow("vacia")).num_rows == 0
    # the rows are the rows of filas(): ints as int, nulls as None, dates as the same day
    filas = e.filas("cuentas", 50, desde=20)
    assert pa.table(e.arrow("cuentas", 50, desde=20)).to_pylist() == filas
    for a, b in zip(clientes.slice(0, 50).to_pylist(), e.filas("clientes", 50)):
        a["fecha_nacimiento"] = a["fecha_nacimiento"].isoformat()
        assert a == b


def test_slices_and_batch_sizes_do_not_change_the_rows():
    e = Esquema(BANCO, seed=7)
    todo = e.arrow("cuentas").to_pyarrow().combine_chunks()
    total = e.total("cuentas")
    for desde, n, lote in ((0, 5000, 1), (12345, 10000, 999), (total - 3, 3, 65536), (total, 0, 10), (1, None, 1 << 20)):
        parte = e.arrow("cuentas", n, desde, lote).to_pyarrow()
        k = total - desde if n is None else n
        assert parte.num_rows == k
        assert all(b.num_rows <= lote for b in parte.to_batches()), f"a batch above {lote} rows"
        assert parte.combine_chunks().equals(todo.slice(desde, k)), f"cuentas rows {desde}..{desde + k} in batches of {lote}"


def test_a_stream_outlives_its_esquema():
    e = Esquema(BANCO, seed=3)
    esperado = e.arrow("movimientos", 3000, 100, lote=500).to_pyarrow()
    lector = pa.RecordBatchReader.from_stream(e.arrow("movimientos", 3000, 100, lote=500))
    schema_capsula = e.arrow("movimientos").__arrow_c_schema__()
    del e
    gc.collect()
    assert lector.read_all().equals(esperado)
    assert pa.schema(type("S", (), {"__arrow_c_schema__": lambda self: schema_capsula})()) == esperado.schema


def test_parquet_round_trip(tmp_path):
    e = Esquema(BANCO, seed=11)
    for t in ("clientes", "tarjetas"):
        ruta = tmp_path / f"{t}.parquet"
        e.arrow(t, lote=10_000).write_parquet(str(ruta))
        leido = pq.read_table(ruta)
        original = e.arrow(t).to_pyarrow()
        assert leido.schema.equals(original.schema), f"{t}: {leido.schema} != {original.schema}"
        assert leido.equals(original), f"{t}: the Parquet file gives other rows"


def test_polars_and_duckdb_read_the_same_object():
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    e = Esquema(BANCO, seed=1)
    lotes = e.arrow("cuentas", 20_000, lote=4096)
    df = pl.DataFrame(lotes)
    assert df.shape == (20_000, len(e.columnas("cuentas")))
    assert df["apertura"].dtype == pl.Date and df["id"].dtype == pl.Int64
    assert df.equals(pl.from_arrow(lotes.to_pyarrow())), "polars read other rows than pyarrow"
    assert duckdb.sql("SELECT count(*), count(DISTINCT id), min(id), max(id) FROM lotes").fetchall() == [(20_000, 20_000, 1, 20_000)]
    # the fan-out's keys: every cuenta's cliente_id is a cliente of the same schema
    clientes = e.arrow("clientes")  # noqa: F841 (read by DuckDB by name)
    huerfanas = duckdb.sql("SELECT count(*) FROM lotes c LEFT JOIN clientes p ON c.cliente_id = p.id WHERE p.id IS NULL")
    assert huerfanas.fetchall() == [(0,)]


def test_refusals_name_the_argument():
    e = Esquema(PEQUENO, seed=1)
    with pytest.raises(InvalidArgumentError, match="tabla: 'nada' is not a table of the schema"):
        e.arrow("nada")
    with pytest.raises(InvalidArgumentError, match="lote must be from 1 to 1048576 rows, got 0"):
        e.arrow("clientes", lote=0)
    with pytest.raises(InvalidArgumentError, match=r"clientes: rows 490\.\.510 are past its 500 rows"):
        e.arrow("clientes", 20, desde=490)
    with pytest.raises(TypeError, match="lote must be an int"):
        e.arrow("clientes", lote="10")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tabla must be a str"):
        e.arrow(3)  # type: ignore[arg-type]
    with pytest.raises((InvalidArgumentError, TypeError), match="desde"):
        e.arrow("clientes", desde=-1)
