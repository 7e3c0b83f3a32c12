"""The review of the output in the PostgreSQL and MariaDB copies (test_copiar_revision.py has SQLite's and
enmascarar's): the reference application copied into a dump with clientes.nombre kept by a hand edit of
the proposed rules. The review names clientes.nombre, --estricto exits 3, and the review is the same with
--jobs 1 and 3. These start throwaway servers (test_copiar_pg.py's and test_copiar_mariadb.py's fixtures):
slow, as those files are."""
import json
import re


from test_copiar_mariadb import _copiar as _copiar_mdb
from test_copiar_mariadb import mariadb, prod  # noqa: F401  (the MariaDB server and its prod database)
from test_copiar_pg import _copiar as _copiar_pg
from test_copiar_pg import origen  # noqa: F401  (the PostgreSQL cluster and its prod database)


def _nombre_mantenido(doc, ruta):
    """The proposed rules with clientes.nombre kept (a hand edit a reviewer should not have made)."""
    i = doc.index("[tablas.clientes.columnas]")
    cola = re.sub(r"(?m)^nombre = \{[^\n]*$", 'nombre = { regla = "mantener" }', doc[i:], count=1)
    assert cola != doc[i:], "clientes.nombre: no rule to replace in the proposed rules"
    ruta.write_text(doc[:i] + cola)
    return str(ruta)


def _revisar(copiar, fuente, tmp_path):
    reglas = _nombre_mantenido(fuente["doc"], tmp_path / "reglas.toml")
    vistas = []
    for jobs in ("1", "3"):
        rc, _, err = copiar(fuente, str(tmp_path / f"copia{jobs}.sql"), reglas, "--jobs", jobs, "--estricto",
                            "--revision-json", str(tmp_path / f"rev{jobs}.json"))
        assert rc == 3, f"clientes.nombre kept under --estricto: expected exit 3, got {rc}: {err}"
        linea = next((l for l in err.splitlines() if l.startswith("  clientes.nombre: ")), None)
        assert linea is not None and "kept" in linea and linea.endswith("(personal)"), \
            f"clientes.nombre: expected a kept, personal line, got {err!r}"
        assert "the copy is written and stays" in err, err
        vistas.append((err, (tmp_path / f"rev{jobs}.json").read_text()))
    assert vistas[0] == vistas[1], f"--jobs 1 and 3: expected the same review, got {vistas[0]!r} and {vistas[1]!r}"
    doc = json.loads(vistas[0][1])
    personales = sorted(f"{c['tabla']}.{c['columna']}" for c in doc["columnas"] if c["personal"])
    assert personales == ["clientes.nombre"], f"expected only clientes.nombre personal, got {personales}"


def test_postgresql_copy_reviews_a_kept_name(origen, tmp_path):  # noqa: F811
    _revisar(_copiar_pg, origen, tmp_path)


def test_mariadb_copy_reviews_a_kept_name(prod, tmp_path):  # noqa: F811
    _revisar(_copiar_mdb, prod, tmp_path)
