"""Datasets as Arrow from C: validated by pyarrow in full, equal row by row to the CLI's CSV of the
same rows, read by polars and DuckDB from the same object, and round-tripped through Parquet."""
import os
import subprocess

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pacsv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import datoteca  # noqa: E402
from conftest import ROOT  # noqa: E402
from datoteca import InvalidArgumentError, Tabla  # noqa: E402

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
N = 1_000_000
OPCIONES = {"seed": 1, "unico": ["rut", "email"], "nulos": {"comuna": 100}}


def _csv_del_cli(call, n, desde=0, extra=()):
    out = subprocess.run([CLI, "tabla", call, "--seed", "1", "-n", str(n), "--desde", str(desde), "--format", "csv",
                          "--jobs", "2", *extra], check=True, capture_output=True).stdout
    cabecera = out[:out.index(b"\n")].decode().split(",")
    opts = pacsv.ConvertOptions(strings_can_be_null=True, quoted_strings_can_be_null=False,
                                column_types={c: pa.string() for c in cabecera})  # text as written
    return pacsv.read_csv(pa.BufferReader(out), convert_options=opts,
                          read_options=pacsv.ReadOptions(block_size=1 << 26))


def test_a_million_personas_equal_the_cli_csv():
    tabla = pa.table(datoteca.arrow("persona.persona", N, **OPCIONES))
    tabla.validate(full=True)
    assert tabla.num_rows == N
    assert tabla.schema.field("fecha_nacimiento").type == pa.date32()
    assert not tabla.schema.field("rut").nullable and tabla.schema.field("comuna").nullable
    cli = _csv_del_cli("persona.persona", N, extra=["--unico", "rut,email", "--nulos", "comuna:100"])
    assert cli.column_names == tabla.column_names
    for nombre in tabla.column_names:
        a = tabla.column(nombre).cast(pa.string())
        b = cli.column(nombre).cast(pa.string())
        if not a.equals(b):
            i = next(k for k in range(N) if a[k].as_py() != b[k].as_py())
            pytest.fail(f"persona.persona seed 1, row {i}, column {nombre}: Arrow {a[i].as_py()!r}, CLI {b[i].as_py()!r}")
    assert tabla.column("comuna").null_count > 90_000, "comuna:100 gave too few nulls"


def test_slices_and_batches_do_not_change_the_rows():
    t = Tabla("direccion.direccion", seed=3, nulos={"depto": 250})
    todo = t.arrow(10_000, lote=10_000).to_pyarrow()
    for desde, n, lote in ((0, 10_000, 7), (1234, 5000, 333), (9999, 1, 1)):
        parte = t.arrow(n, desde, lote).to_pyarrow().combine_chunks()
        assert parte.equals(todo.slice(desde, n).combine_chunks()), f"rows {desde}..{desde + n} in batches of {lote}"
    assert todo.column("numero").type == pa.int64()
    assert pa.table(t.arrow(3)).to_pylist() == t.filas(3)  # numbers as int, nulls as None, in both


def test_polars_and_duckdb_read_the_same_object():
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    lotes = datoteca.arrow("empresa.empresa", 20_000, seed=5, unico=["rut"])
    esperado = pa.table(lotes)
    df = pl.DataFrame(lotes)
    assert df.shape == (20_000, len(esperado.column_names))
    assert df["rut"].to_list() == esperado.column("rut").to_pylist()
    assert duckdb.sql("SELECT count(*), count(DISTINCT rut) FROM lotes").fetchall() == [(20_000, 20_000)]


def test_parquet_round_trip(tmp_path):
    t = Tabla("tributario.dte", seed=9)
    ruta = tmp_path / "dte.parquet"
    t.arrow(50_000, lote=8192).write_parquet(str(ruta))
    leido = pq.read_table(ruta)
    assert leido.equals(t.arrow(50_000).to_pyarrow().combine_chunks())
    assert leido.column("monto_total").type == pa.int64() and leido.column("fecha_emision").type == pa.date32()


def test_the_stream_outlives_its_dataset_and_refuses_bad_slices():
    lector = pa.RecordBatchReader.from_stream(Tabla("rut", seed=1).arrow(100, lote=10))
    import gc

    gc.collect()  # the Tabla is gone; the stream has its own copy
    assert sum(b.num_rows for b in lector) == 100
    with pytest.raises(InvalidArgumentError, match="room for 2000000 rows"):
        Tabla("empresa.rut", unico=["rut"]).arrow(10, desde=1_999_995)
    with pytest.raises(ValueError, match="lote must be from 1"):
        Tabla("rut").arrow(10, lote=0)


def test_one_or_two_threads_give_the_same_batches():
    t = Tabla("persona.persona", seed=4, unico=["rut"], nulos={"comuna": 200})
    uno = t.arrow(30_000, lote=20_000, hilos=1).to_pyarrow()
    dos = t.arrow(30_000, lote=20_000, hilos=2).to_pyarrow()
    assert uno.equals(dos)
    with pytest.raises(ValueError, match="hilos must be 1 or 2"):
        t.arrow(10, hilos=3)
