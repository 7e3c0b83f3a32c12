"""fecha.fecha_hora as a timestamp or timestamptz column (issue #40, item 4; docs/esquemas.md,
tipo_sql): PostgreSQL loads the rows into columns of those types and gives back, as text in the
same zone, exactly the values the CLI writes in its CSV; a `date` is refused for it, with the sentence."""
import csv
import io
import os
import subprocess

import pytest

from datoteca import Esquema, InvalidArgumentError
from test_basesdedatos import _pg_bin, _psql, postgres  # noqa: F401  (the same throwaway server)

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
DOC = """version = 1
hoy = "2025-03-01"

[tablas.eventos]
filas = 2000
[tablas.eventos.columnas]
id = { serie = true }
ocurrido = { llamada = "fecha.fecha_hora", desde = -3650, tipo_sql = "timestamp" }
registrado = { llamada = "fecha.fecha_hora", tipo_sql = "timestamptz" }
texto = { llamada = "fecha.fecha_hora" }
"""


def test_the_ddl_names_the_types():
    ddl = Esquema(DOC).ddl("postgresql")
    assert "ocurrido timestamp NOT NULL" in ddl and "registrado timestamptz NOT NULL" in ddl and "texto text NOT NULL" in ddl, ddl


def test_postgresql_gives_back_the_csv_values(postgres, tmp_path):  # noqa: F811
    doc = tmp_path / "eventos.toml"
    doc.write_text(DOC)
    sql = subprocess.run([CLI, "esquema", str(doc), "--formato", "sql"], check=True, capture_output=True).stdout
    subprocess.run([CLI, "esquema", str(doc), "--formato", "csv", "--salida", str(tmp_path / "csv")], check=True, capture_output=True)
    with open(tmp_path / "csv" / "eventos.csv", encoding="utf-8", newline="") as f:
        filas = list(csv.DictReader(f))
    _psql(postgres, "CREATE DATABASE tiempo")
    psql = [_pg_bin("psql"), "-h", postgres, "-U", "postgres", "-d", "tiempo", "-v", "ON_ERROR_STOP=1", "-q", "-At"]
    # a timestamptz reads a zone-less value in the session's zone: the one the docs tell users to set
    env = dict(os.environ, PGTZ="America/Santiago")
    subprocess.run(psql, input=sql, check=True, capture_output=True, env=env)
    tipos = subprocess.run([*psql, "-c", "SELECT column_name, data_type FROM information_schema.columns "
                            "WHERE table_name = 'eventos' ORDER BY ordinal_position"], check=True, capture_output=True,
                           text=True, env=env).stdout.splitlines()
    assert tipos == ["id|bigint", "ocurrido|timestamp without time zone", "registrado|timestamp with time zone",
                     "texto|text"], tipos
    salida = subprocess.run([*psql, "-F", ",", "-c",
                             "SELECT id, to_char(ocurrido, 'YYYY-MM-DD\"T\"HH24:MI:SS'), "
                             "to_char(registrado, 'YYYY-MM-DD\"T\"HH24:MI:SS'), texto FROM eventos ORDER BY id"],
                            check=True, capture_output=True, text=True, env=env).stdout
    leidas = list(csv.reader(io.StringIO(salida)))
    assert len(leidas) == len(filas) == 2000
    for fila, (pg, c) in enumerate(zip(leidas, filas), 1):
        assert pg == [c["id"], c["ocurrido"], c["registrado"], c["texto"]], f"row {fila}: PostgreSQL {pg}, the CSV {c}"


@pytest.mark.parametrize("tipo", ["date", "bigint"])
def test_a_type_that_cannot_hold_a_time_is_refused(tipo):
    with pytest.raises(InvalidArgumentError) as info:
        Esquema(DOC.replace('desde = -3650, tipo_sql = "timestamp"', f'tipo_sql = "{tipo}"'))
    assert str(info.value).endswith(f"eventos.ocurrido: its values are dates with a time of day (YYYY-MM-DDTHH:MM:SS), which {tipo} "
                                    "cannot hold; it takes timestamp, timestamptz or a text type"), str(info.value)
