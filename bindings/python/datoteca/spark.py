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

A schema's table (docs/esquemas.md) is the format "datoteca_esquema":

    df = (spark.read.format("datoteca_esquema").option("esquema", "esquemas/banco.toml")
          .option("tabla", "movimientos").option("seed", 42).option("particiones", 8).load())

Options: esquema (a path, read once on the driver, or the document's TOML or JSON text), formato ("toml"
or "json" for a text), tabla, seed (an integer), hoy (YYYY-MM-DD), particiones, desde and filas (a range
of the table's rows; all of them by default), lote, indice. Each partition is a slice of rows
[desde, desde + n) made by its task from its own copy of the schema; any slice equals the same rows of a
full run, so the DataFrame is the CLI's table for any number of partitions.
"""
from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Optional

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.types import DataType, DateType, LongType, StringType, StructField, StructType

from ._esquema import Esquema
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


def _rangos(filas: int, desde: int, particiones: Optional[int]) -> List[Rango]:
    """Rows [desde, desde + filas) in `particiones` consecutive slices (2 by default, never more than
    the rows), the first ones a row longer when they do not divide evenly."""
    k = max(1, min(particiones or 2, filas or 1))
    base, resto = divmod(filas, k)
    out = []
    for i in range(k):
        n = base + (1 if i < resto else 0)
        out.append(Rango(desde, n))
        desde += n
    return out


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
        return _rangos(self.filas, self.desde, self.particiones)

    def read(self, partition: InputPartition) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        assert isinstance(partition, Rango)
        t = tabla_de(self.opciones)
        # one thread per partition: Spark runs partitions side by side on the executors' cores
        lector = pa.RecordBatchReader.from_stream(t.arrow(partition.n, partition.desde, self.lote, hilos=1))
        inicio = partition.desde
        for lote in lector:
            yield _con_indice(lote, inicio) if self.indice else lote
            inicio += lote.num_rows


def _con_indice(lote: Any, inicio: int) -> Any:
    """The batch with a first column `fila`: the row index of each row, from `inicio`."""
    import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

    fila = pa.array(range(inicio, inicio + lote.num_rows), pa.int64())
    esquema = pa.schema([pa.field("fila", pa.int64(), nullable=False), *lote.schema])
    return pa.RecordBatch.from_arrays([fila, *lote.columns], schema=esquema)


_PROPIAS_ESQUEMA = {"esquema", "formato", "tabla", "seed", "hoy", "particiones", "desde", "filas", "lote", "indice", "path"}


def _documento_esquema(opciones: Dict[str, str]) -> Dict[str, Any]:
    """The schema's document as text, its format, seed, date and table, from the options (the driver
    reads a path once, so the tasks need no file)."""
    desconocidas = sorted(k for k in opciones if k.lower() not in _PROPIAS_ESQUEMA)
    if desconocidas:
        raise ValueError(f"datoteca_esquema: unknown option {desconocidas[0]!r}; it takes {sorted(_PROPIAS_ESQUEMA)}")
    doc = opciones.get("esquema") or opciones.get("path")
    if not doc:
        raise ValueError("datoteca_esquema: option esquema must be a schema's path or its TOML or JSON text")
    formato = opciones.get("formato")
    if "\n" not in doc and (doc.endswith((".toml", ".json")) or os.path.isfile(doc)):
        with open(doc, encoding="utf-8") as f:
            texto = f.read()
        formato = formato or ("json" if doc.endswith(".json") else "toml")
    else:
        texto = doc
    tabla = opciones.get("tabla")
    if not tabla:
        raise ValueError("datoteca_esquema: option tabla must name one of the schema's tables")
    return {"texto": texto, "formato": formato, "seed": _entero(opciones, "seed", 0), "hoy": opciones.get("hoy"),
            "tabla": tabla}


def _abrir(d: Dict[str, Any]) -> Esquema:
    return Esquema(d["texto"], seed=d["seed"], hoy=d["hoy"], formato=d["formato"])


class DatotecaEsquemaDataSource(DataSource):
    @classmethod
    def name(cls) -> str:
        return "datoteca_esquema"

    def _indice(self) -> bool:
        return str(self.options.get("indice", "false")).lower() in ("1", "true", "si", "sí", "yes")

    def schema(self) -> StructType:
        d = _documento_esquema(dict(self.options))
        e = _abrir(d)
        campos: List[StructField] = [StructField("fila", LongType(), False)] if self._indice() else []
        campos += [StructField(c["nombre"], _TIPOS.get(c["tipo_sql"], StringType()), c["nulable"]) for c in e.columnas(d["tabla"])]
        return StructType(campos)

    def reader(self, schema: StructType) -> "DatotecaEsquemaReader":
        return DatotecaEsquemaReader(dict(self.options), self._indice())


class DatotecaEsquemaReader(DataSourceReader):
    def __init__(self, opciones: Dict[str, str], indice: bool) -> None:
        self.doc = _documento_esquema(opciones)
        self.indice = indice
        e = _abrir(self.doc)  # refuse a bad schema, table or range on the driver, before any task starts
        self.filas, self.desde = e.comprobar_filas(self.doc["tabla"], _entero(opciones, "filas", None),
                                                    _entero(opciones, "desde", 0) or 0)
        self.lote = _entero(opciones, "lote", 65536) or 65536
        self.particiones = _entero(opciones, "particiones", None)

    def partitions(self) -> List[Rango]:
        return _rangos(self.filas, self.desde, self.particiones)

    def read(self, partition: InputPartition) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped,unused-ignore]

        assert isinstance(partition, Rango)
        e = _abrir(self.doc)
        lector = pa.RecordBatchReader.from_stream(e.arrow(self.doc["tabla"], partition.n, partition.desde, self.lote))
        inicio = partition.desde
        for lote in lector:
            yield _con_indice(lote, inicio) if self.indice else lote
            inicio += lote.num_rows


def registrar(spark: Any) -> None:
    """Register the "datoteca" (a dataset) and "datoteca_esquema" (a schema's table) formats on a SparkSession."""
    spark.dataSource.register(DatotecaDataSource)
    spark.dataSource.register(DatotecaEsquemaDataSource)


def enmascarar(df: Any, reglas: Any, *, clave: Any = None, clave_archivo: Any = None,
               formato: Optional[str] = None, clave_de_prueba: bool = False, clave_compartida: bool = False) -> Any:
    """`df` masked with the rules (docs/enmascarar.md): a new DataFrame of the output columns (each a
    nullable string; borrar drops), made by `mapInArrow`, each partition's Arrow batches masked in C
    by `Enmascarador.lotes`. The rows are those `datoteca enmascarar` gives for the same rows, in any
    number of partitions (a row's output depends only on the row). The rules (a path, text or dict)
    and the key (clave, clave_archivo or DATOTECA_CLAVE, as `Enmascarador`) are read and checked on the
    driver, with the header and the column types (text only: cast others to string first), so a
    refusal comes before any task; the key's text then travels to the tasks inside their closure, as
    any argument of a Spark function does, and is never logged by datoteca. A refused value fails the
    task with the sentence, naming the partition, the row within it and the column, never the value.
    clave_de_prueba and clave_compartida: as `Enmascarador` (the key file is read by the library)."""
    from pyspark.sql.types import StringType, StructField, StructType

    from ._comun_gen import InvalidArgumentError
    from ._enmascarar import Enmascarador, clave_de
    from ._esquema import _documento

    texto, fmt, _ = _documento(reglas, formato)
    fmt_s = "json" if fmt == 2 else "toml"
    k = clave_de(clave, clave_archivo, clave_de_prueba=clave_de_prueba, clave_compartida=clave_compartida)
    salida = Enmascarador(texto.decode(), clave=k, formato=fmt_s, clave_de_prueba=clave_de_prueba).columnas(list(df.columns))
    for f in df.schema.fields:
        if not isinstance(f.dataType, StringType):
            raise InvalidArgumentError(f"enmascarar: column {f.name} is {f.dataType.simpleString()}, not a string: "
                                       "masking reads text (cast it to string first)")
    esquema = StructType([StructField(c, StringType(), True) for c in salida])

    def tarea(lotes: Iterator[Any]) -> Iterator[Any]:
        from pyspark import TaskContext

        from ._comun_gen import DatotecaError

        m = Enmascarador(texto.decode(), clave=k, formato=fmt_s, clave_de_prueba=clave_de_prueba)
        primero = next(lotes, None)
        if primero is None:
            return
        ctx = TaskContext.get()
        try:
            yield from m.lotes(_encadenar(primero, lotes), primero.schema)
        except DatotecaError as e:
            raise type(e)(f"partition {ctx.partitionId() if ctx else '?'}: {e}", e.status) from None

    return df.mapInArrow(tarea, esquema)


def _encadenar(primero: Any, resto: Iterator[Any]) -> Iterator[Any]:
    yield primero
    yield from resto
