"""serie = "uuid" (issue #40: tables keyed by UUIDs, drizzle-seed #5204's one-to-one key across schemas):
every value must be a UUID that Python's own uuid module reads back as version 4 of RFC 4122's variant,
no two rows may share one, a ref must hold a parent's value, the same seed must give the same UUIDs, and
the column's types and refusals must be those docs/esquemas.md states. The PostgreSQL load (a real `uuid`
column) is test_referencia.py's."""
import uuid

import pyarrow as pa
import pytest

from datoteca import Esquema, DatotecaError

DOC = """version = 1
[tablas.usuarios]
filas = 200000
[tablas.usuarios.columnas]
id = { serie = "uuid" }
rut = { llamada = "persona.persona", campos = { rut = "rut" }, unico = true }
[tablas.perfiles]
por = "usuarios"
cuantos = { min = 0, max = 1 }
[tablas.perfiles.columnas]
usuario_id = { ref = "usuarios.id" }
apodo = { elegir = { "cl" = 1 } }
[tablas.sesiones]
filas = 5000
[tablas.sesiones.columnas]
id = { serie = "uuid", tipo_sql = "varchar(36)" }
usuario_id = { ref = "usuarios.id" }
"""


def test_every_value_is_a_distinct_version_4_uuid():
    e = Esquema(DOC, seed=42)
    ids = [f["id"] for f in e.filas("usuarios", 200_000)]
    for k, v in enumerate(ids):
        u = uuid.UUID(v)
        assert str(u) == v and u.version == 4 and u.variant == uuid.RFC_4122, f"seed 42, usuarios row {k}: {v!r}"
        assert int(v[-12:], 16) == k + 1, f"seed 42, usuarios row {k}: {v!r} does not end in its row number"
    assert len(set(ids)) == len(ids), "two rows share a UUID (seed 42)"
    # the free bits are drawn, not fixed: 200,000 distinct first groups is what random bits give (a
    # repeat among 2^32 values has probability about 0.99 here, so count instead: nearly all distinct)
    assert len({v[:8] for v in ids}) > 199_000
    assert Esquema(DOC, seed=42).filas("usuarios", 3) == e.filas("usuarios", 3), "the same seed, other UUIDs"
    assert Esquema(DOC, seed=43).filas("usuarios", 1)[0]["id"] != ids[0], "another seed, the same first UUID"


def test_refs_hold_a_parents_uuid_and_types_follow_the_docs():
    e = Esquema(DOC, seed=7)
    padres = {f["id"] for f in e.filas("usuarios", 200_000)}
    hijos = e.filas("perfiles", e.total("perfiles"))
    assert hijos and all(f["usuario_id"] in padres for f in hijos), "a perfil points at no usuario (seed 7)"
    assert len({f["usuario_id"] for f in hijos}) == len(hijos), "a 0-or-1 fan-out gave a usuario two perfiles"
    sesiones = e.filas("sesiones", 5000)
    assert all(uuid.UUID(f["id"]).version == 4 for f in sesiones)
    ddl = e.ddl()
    assert "    id uuid NOT NULL PRIMARY KEY" in ddl and "    usuario_id uuid NOT NULL" in ddl
    assert "    id varchar(36) NOT NULL PRIMARY KEY" in ddl
    t = e.arrow("usuarios", 1000).to_pyarrow()
    t.validate(full=True)  # pyarrow's own check of the C-built arrays
    assert t.schema.field("id").type in (pa.string(), pa.large_string())
    assert t.column("id").to_pylist() == [f["id"] for f in e.filas("usuarios", 1000)]


@pytest.mark.parametrize("columna, frase", [
    ('id = { serie = "uuid4" }', "serie must be true or \"uuid\", got 'uuid4'"),
    ('id = { serie = "uuid", tipo_sql = "integer" }', "its values are UUIDs (uuid), which integer cannot hold; it takes uuid or a text type"),
    ('id = { llamada = "persona.nombre", tipo_sql = "uuid" }', "which uuid cannot hold; it takes text, varchar(n) or char(n)"),
])
def test_refusals_say_why(columna, frase):
    with pytest.raises(DatotecaError) as ex:
        Esquema(f"version = 1\n[tablas.t]\nfilas = 3\n[tablas.t.columnas]\n{columna}\n", seed=1)
    assert frase in str(ex.value), str(ex.value)
