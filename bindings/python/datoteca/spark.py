"""A PySpark (>= 4.0) Python Data Source named "datoteca" (docs/scale.md).

    from datoteca.spark import registrar
    registrar(spark)
    df = (spark.read.format("datoteca").option("call", "persona.persona").option("seed", 42)
          .option("filas", 10_000_000).option("particiones", 64).option("unico", "rut,email").load())

Each partition generates its own row range in C and hands Spark Arrow record batches; row i depends
only on (seed, call, options, i), so the DataFrame is the same set of rows for any number of
partitions, and equal to `datoteca tabla` from the CLI. Options: call, seed (an integer, or any other
text as a text seed), filas, particiones (default: Spark's default parallelism), desde, campos,
unico, nulos ("email:100,comuna:25"), sucio ("rut:100", docs/sucios.md), hoy (YYYY-MM-DD), lote
(rows per batch), indice ("true" adds a `fila` column with the row index), and the call's own
arguments by name (edad_min=30, sexo=F).
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.types import DataType, DateType, LongType, StringType, StructField, StructType

from ._lib import CALLS
from ._tabla import Tabla

_PROPIAS = {"call", "seed", "filas", "particiones", "desde", "campos", "unico", "nulos", "sucio", "hoy", "lote", "indice", "path"}
_TIPOS: Dict[str, DataType] = {"text": StringType(), "char(1)": StringType(), "date": DateType(),
                               "integer": LongType(), "bigint": LongType()}


def _entero(opciones: Dict[str, str], clave: str, defecto: Optional[int]) -> Optional[int]:
    v = opciones.get(clave)
    if v is None:
        return defecto
    try:
        return int(v, 0)
    except ValueError:
        raise ValueError(f"datoteca: option {clave} must be an integer, got {v!r}") from None


def tabla_de(opciones: Dict[str, str]) -> Tabla:
    """The dataset the options describe (every value arrives as text)."""
    call = opciones.get("call")
    if call is None or call not in CALLS:
        raise ValueError(f"datoteca: option call must name a call (datoteca.calls()), got {call!r}")
    seed_texto = opciones.get("seed", "0")
    try:
        seed: Any = int(seed_texto, 0)
    except ValueError:
        seed = seed_texto
    argumentos: Dict[str, Any] = {}
    params = {p.name: p for p in CALLS[call].params}
    for k, v in opciones.items():
        if k.lower() in _PROPIAS:
            continue
        if k not in params:
            raise ValueError(f"datoteca: unknown option {k!r} for {call}; it takes {sorted(_PROPIAS)} and {sorted(params)}")
        argumentos[k] = v if params[k].choices is not None else int(v, 0)
    tasas: Dict[str, Optional[Dict[str, int]]] = {"nulos": None, "sucio": None}
    for clave in tasas:
        if opciones.get(clave):
            tasas[clave] = {c: int(p) for c, _, p in (x.partition(":") for x in opciones[clave].split(","))}
    return Tabla(call, seed=seed, hoy=opciones.get("hoy"), campos=opciones.get("campos") or None,
                 unico=opciones.get("unico") or None, nulos=tasas["nulos"], sucio=tasas["sucio"], **argumentos)


class Rango(InputPartition):
    """Rows [desde, desde + n)."""

    def __init__(self, desde: int, n: int) -> None:
        self.desde, self.n = desde, n


class DatotecaDataSource(DataSource):
    @classmethod
    def name(cls) -> str:
        return "datoteca"

    def _indice(self) -> bool:
        return str(self.options.get("indice", "false")).lower() in ("1", "true", "si", "sí", "yes")

    def schema(self) -> StructType:
        t = tabla_de(dict(self.options))
        campos: List[StructField] = [StructField("fila", LongType(), False)] if self._indice() else []
        campos += [StructField(c["nombre"], _TIPOS[c["tipo_sql"]], c["nulable"]) for c in t.columnas]
        return StructType(campos)

    def reader(self, schema: StructType) -> "DatotecaReader":
        return DatotecaReader(dict(self.options), self._indice())


class DatotecaReader(DataSourceReader):
    def __init__(self, opciones: Dict[str, str], indice: bool) -> None:
        self.opciones, self.indice = opciones, indice
        self.desde = _entero(opciones, "desde", 0) or 0
        self.filas = _entero(opciones, "filas", 1000) or 0
        self.lote = _entero(opciones, "lote", 65536) or 65536
        self.particiones = _entero(opciones, "particiones", None)
        tabla_de(opciones)  # refuse bad options on the driver, before any task starts

    def partitions(self) -> List[Rango]:
        k = max(1, min(self.particiones or 2, self.filas or 1))
        base, resto = divmod(self.filas, k)
        out, desde = [], self.desde
        for i in range(k):
            n = base + (1 if i < resto else 0)
            out.append(Rango(desde, n))
            desde += n
        return out

    def read(self, partition: InputPartition) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        assert isinstance(partition, Rango)
        t = tabla_de(self.opciones)
        # one thread per partition: Spark runs partitions side by side on the executors' cores
        lector = pa.RecordBatchReader.from_stream(t.arrow(partition.n, partition.desde, self.lote, hilos=1))
        inicio = partition.desde
        for lote in lector:
            if self.indice:
                fila = pa.array(range(inicio, inicio + lote.num_rows), pa.int64())
                esquema = pa.schema([pa.field("fila", pa.int64(), nullable=False), *lote.schema])
                lote = pa.RecordBatch.from_arrays([fila, *lote.columns], schema=esquema)
            inicio += lote.num_rows
            yield lote


def registrar(spark: Any) -> None:
    """Register the "datoteca" format on a SparkSession."""
    spark.dataSource.register(DatotecaDataSource)
