"""The extension's upgrade path (tools/gen/postgres_upgrade.py, docs/postgres.md "Upgrades"): a released
version's script kept in postgres/versiones/ gives `datoteca--<old>--<new>.sql`, and `ALTER EXTENSION
datoteca UPDATE` through it ends with exactly the objects of a fresh `CREATE EXTENSION` — judged by the
server's catalogs (every function's signature, result, attributes, symbol, comment and privileges; every
type's columns), not by the script text."""
import os
import re
import sys

import pytest

from conftest import ROOT
from test_basesdedatos import _pg_bin, postgres  # noqa: F401  (the same throwaway server)
from test_postgres_ext import _en, _psql, _run, db, extension  # noqa: F401

sys.path.insert(0, os.path.join(ROOT, "tools", "gen"))
import postgres as gen_pg  # noqa: E402
import postgres_upgrade  # noqa: E402
sys.path.remove(os.path.join(ROOT, "tools", "gen"))

VERSION = gen_pg.version(ROOT)
ACTUAL = open(os.path.join(ROOT, "postgres", f"datoteca--{VERSION}.sql"), encoding="utf-8").read()


def _anterior():
    """A previous minor version as it would have shipped: today's script without the llenar_* functions
    and the masked copy (what this version added), with one function's comment worded otherwise."""
    quitar = re.compile(r"@extschema@\.(llenar_\w+|copiar_enmascarado|copiar_todo_enmascarado|enmascarar_filas|columnas_enmascaradas|reglas_json)\b")
    viejo = "".join(s + ";\n" for s in postgres_upgrade.sentencias(ACTUAL) if not quitar.search(s))
    viejo = viejo.replace("COMMENT ON FUNCTION @extschema@.cargar_esquema IS 'Create", "COMMENT ON FUNCTION @extschema@.cargar_esquema IS 'Make")
    assert viejo.count("llenar_") == 0 and "Make and fill" not in ACTUAL
    return viejo


def test_the_upgrade_script_holds_what_the_new_version_adds(tmp_path):
    viejo = _anterior()
    (tmp_path / "postgres" / "versiones").mkdir(parents=True)
    (tmp_path / "postgres" / "versiones" / "datoteca--0.9.0.sql").write_text(viejo)
    [(ruta, texto)] = postgres_upgrade.outputs(ACTUAL, VERSION, str(tmp_path))
    assert ruta.endswith(f"postgres/datoteca--0.9.0--{VERSION}.sql"), ruta
    nuevas = postgres_upgrade.sentencias(texto)
    llenar = [s for s in nuevas if s.startswith("CREATE FUNCTION @extschema@.llenar_")]
    en_actual = [s for s in postgres_upgrade.sentencias(ACTUAL) if s.startswith("CREATE FUNCTION @extschema@.llenar_")]
    assert len(llenar) == len(en_actual) > 40, f"{len(llenar)} llenar_ functions in the upgrade, {len(en_actual)} in {VERSION}"
    assert any(s.startswith("CREATE PROCEDURE @extschema@.copiar_enmascarado") for s in nuevas)
    assert any(s.startswith("COMMENT ON FUNCTION @extschema@.cargar_esquema IS 'Create") for s in nuevas), "a new comment"
    assert not any(s.startswith("CREATE TYPE") or s.startswith("CREATE FUNCTION @extschema@.persona(") for s in nuevas), \
        "the upgrade repeats an object the old version has"


def test_a_released_object_that_changed_is_refused():
    viejo = ACTUAL.replace("RETURNS bigint\n  AS 'MODULE_PATHNAME', 'datoteca_cargar_esquema' LANGUAGE C VOLATILE",
                           "RETURNS integer\n  AS 'MODULE_PATHNAME', 'datoteca_cargar_esquema' LANGUAGE C VOLATILE")
    assert viejo != ACTUAL
    with pytest.raises(SystemExit, match=r"datoteca--0\.9\.0\.sql: 1 statements of the released version 0\.9\.0 are not in"):
        postgres_upgrade.actualizacion(viejo, ACTUAL, "0.9.0", VERSION)


def test_the_splitter_keeps_bodies_strings_and_identifiers_whole():
    sql = ("\\echo Use CREATE EXTENSION; \\quit\n-- a comment; with a semicolon\nCREATE FUNCTION f() RETURNS text LANGUAGE sql AS $$ SELECT 'a;b' $$;\n"
           "COMMENT ON FUNCTION f IS 'it''s; fine';\nCREATE TABLE \"x;y\" (a int);\n"
           "DO $f$ BEGIN RAISE NOTICE '$$;'; END $f$;\n")
    assert postgres_upgrade.sentencias(sql) == [
        "CREATE FUNCTION f() RETURNS text LANGUAGE sql AS $$ SELECT 'a;b' $$",
        "COMMENT ON FUNCTION f IS 'it''s; fine'", "CREATE TABLE \"x;y\" (a int)",
        "DO $f$ BEGIN RAISE NOTICE '$$;'; END $f$"]


def _catalogo(base, dbname):
    """Every object of the extension as the server describes it, one line each, sorted."""
    q = ("SELECT p.oid::regprocedure::text || ' -> ' || pg_get_function_result(p.oid) || ' ' || p.prokind::text || p.provolatile::text "
         "|| p.proparallel::text || p.proisstrict::text || ' ' || coalesce(p.prosrc, '') || ' ' || coalesce(p.proconfig::text, '') "
         "|| ' ' || coalesce(p.proacl::text, '') || ' ' || coalesce(obj_description(p.oid, 'pg_proc'), '') "
         "FROM pg_proc p WHERE p.pronamespace = 'datoteca'::regnamespace "
         "UNION ALL SELECT t.typname || ' (' || (SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' "
         "ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0) || ')' "
         "FROM pg_type t WHERE t.typnamespace = 'datoteca'::regnamespace AND t.typtype = 'c' "
         "UNION ALL SELECT 'member ' || pg_describe_object(classid, objid, objsubid) FROM pg_depend "
         "WHERE refclassid = 'pg_extension'::regclass AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'datoteca') "
         "ORDER BY 1")
    return _en(base, dbname, q).split("\n")


def test_alter_extension_update_gives_a_fresh_installs_objects(db):
    share = _run(["pg_config", "--sharedir"], check=True).stdout.decode().strip()
    ext = os.path.join(share, "extension")
    if not os.access(ext, os.W_OK):
        pytest.skip(f"cannot write {ext} (run the suite as root, as CI does)")
    viejo, paso = os.path.join(ext, "datoteca--0.9.0.sql"), os.path.join(ext, f"datoteca--0.9.0--{VERSION}.sql")
    with open(viejo, "w", encoding="utf-8") as f:
        f.write(_anterior())
    with open(paso, "w", encoding="utf-8") as f:
        f.write(postgres_upgrade.actualizacion(_anterior(), ACTUAL, "0.9.0", VERSION))
    try:
        _psql(db, "DROP DATABASE IF EXISTS subir")
        _psql(db, "DROP DATABASE IF EXISTS fresca")
        _psql(db, "CREATE DATABASE subir")
        _psql(db, "CREATE DATABASE fresca")
        _en(db, "subir", "CREATE EXTENSION datoteca VERSION '0.9.0'")
        assert _en(db, "subir", "SELECT count(*) FROM pg_proc WHERE proname LIKE 'llenar\\_%'").strip() == "0"
        _en(db, "subir", "ALTER EXTENSION datoteca UPDATE")
        assert _en(db, "subir", "SELECT extversion FROM pg_extension WHERE extname = 'datoteca'").strip() == VERSION
        _en(db, "fresca", "CREATE EXTENSION datoteca")
        a, b = _catalogo(db, "subir"), _catalogo(db, "fresca")
        solo_a, solo_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
        assert not solo_a and not solo_b, \
            f"upgraded and fresh differ: only upgraded {[x[:120] for x in solo_a[:3]]}, only fresh {[x[:120] for x in solo_b[:3]]}"
        assert len(a) > 300, f"{len(a)} catalog lines: the query sees the extension's objects"
        # The upgraded extension works: a function the old version lacked, and one it had.
        _en(db, "subir", "CREATE TABLE r (rut text)")
        assert _en(db, "subir", "SELECT datoteca.llenar_rut('r', 5, 1)").strip() == "5"
        assert _en(db, "subir", "SELECT count(*) FROM r JOIN datoteca.rut(5, 1) USING (rut)").strip() == "5"
    finally:
        os.unlink(viejo)
        os.unlink(paso)
        _psql(db, "DROP DATABASE IF EXISTS subir")
        _psql(db, "DROP DATABASE IF EXISTS fresca")
