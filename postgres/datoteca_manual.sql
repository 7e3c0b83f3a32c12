-- The hand-written part of the extension's script: what is not a call or a utility of spec/ (tools/gen/postgres.py
-- appends this file to the generated script).

-- A whole example database from one schema document (docs/esquemas.md): its tables created in the first
-- schema of search_path with every key, then filled in dependency order (datoteca_esquema.c). Returns the
-- rows inserted. VOLATILE and PARALLEL UNSAFE: it writes.
CREATE FUNCTION @extschema@.cargar_esquema(documento text, semilla bigint DEFAULT 0, hoy date DEFAULT NULL,
                                           formato text DEFAULT 'toml') RETURNS bigint
  AS 'MODULE_PATHNAME', 'datoteca_cargar_esquema' LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.cargar_esquema IS 'Create and fill the tables of a schema document (TOML or JSON), keys enforced as rows arrive.';

-- Masking scalars. The key comes from the file that datoteca.clave_archivo names
-- (datoteca_mascara.c). STABLE, not IMMUTABLE: the value depends on that setting. PARALLEL RESTRICTED:
-- the key is read in the leader only. EXECUTE is revoked from PUBLIC: whoever may call them holds a
-- masking oracle under the key, so a superuser grants them to the roles that mask.
CREATE FUNCTION @extschema@.enmascarar_rut(rut text) RETURNS text
  AS 'MODULE_PATHNAME', 'datoteca_m_enmascarar_rut' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION @extschema@.enmascarar_email(email text) RETURNS text
  AS 'MODULE_PATHNAME', 'datoteca_m_enmascarar_email' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION @extschema@.enmascarar_telefono(telefono text) RETURNS text
  AS 'MODULE_PATHNAME', 'datoteca_m_enmascarar_telefono' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION @extschema@.enmascarar_patente(patente text) RETURNS text
  AS 'MODULE_PATHNAME', 'datoteca_m_enmascarar_patente' LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION @extschema@.enmascarar_rut IS 'The RUT masked under the key of datoteca.clave_archivo (docs/enmascarar.md, rule rut).';
COMMENT ON FUNCTION @extschema@.enmascarar_email IS 'The email masked under the key of datoteca.clave_archivo (docs/enmascarar.md, rule email).';
COMMENT ON FUNCTION @extschema@.enmascarar_telefono IS 'The phone masked under the key of datoteca.clave_archivo (docs/enmascarar.md, rule telefono).';
COMMENT ON FUNCTION @extschema@.enmascarar_patente IS 'The plate masked under the key of datoteca.clave_archivo (docs/enmascarar.md, rule patente).';
REVOKE ALL ON FUNCTION @extschema@.enmascarar_rut(text), @extschema@.enmascarar_email(text),
  @extschema@.enmascarar_telefono(text), @extschema@.enmascarar_patente(text) FROM PUBLIC;

-- A masked copy (datoteca_copia.c; docs/postgres.md, "A masked copy"). The rules are the JSON form of a
-- rules document (docs/enmascarar.md). STABLE: they read tables and the key's setting. PARALLEL
-- RESTRICTED: the key is read in the leader only. The DateStyle is fixed so a date reaches the rules as
-- ISO text in every session. EXECUTE is revoked from PUBLIC as for the scalars.
CREATE FUNCTION @extschema@.columnas_enmascaradas(origen regclass, reglas jsonb) RETURNS text[]
  AS 'MODULE_PATHNAME', 'datoteca_columnas_enmascaradas' LANGUAGE C STABLE PARALLEL RESTRICTED;
CREATE FUNCTION @extschema@.enmascarar_filas(destino anyelement, origen regclass, reglas jsonb) RETURNS SETOF anyelement
  AS 'MODULE_PATHNAME', 'datoteca_enmascarar_filas' LANGUAGE C STABLE PARALLEL RESTRICTED
  SET datestyle = 'ISO, YMD';
COMMENT ON FUNCTION @extschema@.columnas_enmascaradas IS 'The columns a masked copy of origen keeps under the rules (all but those whose rule is borrar).';
COMMENT ON FUNCTION @extschema@.enmascarar_filas IS 'Every row of origen masked by the rules, as rows of destino''s type (NULL::esquema.tabla).';

-- Copy the tables named by the keys of `reglas` (each a rules document) into schema `destino`: each
-- table created LIKE its original (defaults, checks, indexes, keys, comments; identity and generated
-- columns become plain columns that hold the masked values; a column whose rule is borrar is left out),
-- filled with its masked rows, and then the foreign keys among the copied tables added again, so the
-- database checks that every masked reference still finds its row. One transaction: on any error
-- nothing is left. A foreign key to a table the rules do not copy is refused: its masked values would
-- point at real ones.
CREATE PROCEDURE @extschema@.copiar_enmascarado(reglas jsonb, destino name)
LANGUAGE plpgsql AS $$
DECLARE
  t record;
  k record;
  rels regclass[] := '{}';
  nombres name[] := '{}';
  nombre name;
  sal text[];
BEGIN
  IF reglas IS NULL OR jsonb_typeof(reglas) <> 'object' OR reglas = '{}'::jsonb THEN
    RAISE EXCEPTION 'datoteca.copiar_enmascarado: reglas must be an object naming each table to copy, '
                    'with its rules document as the value' USING ERRCODE = '22023';
  END IF;
  IF destino IS NULL THEN
    RAISE EXCEPTION 'datoteca.copiar_enmascarado: destino must not be null' USING ERRCODE = '22023';
  END IF;
  IF destino = '@extschema@' THEN
    RAISE EXCEPTION 'datoteca.copiar_enmascarado: destino must not be the extension''s schema @extschema@'
      USING ERRCODE = '22023';
  END IF;
  EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', destino);
  FOR t IN SELECT e.key, e.value, e.key::regclass AS rel FROM jsonb_each(reglas) AS e ORDER BY e.key LOOP
    nombre := (SELECT relname FROM pg_class WHERE oid = t.rel);
    IF (SELECT relkind FROM pg_class WHERE oid = t.rel) NOT IN ('r', 'p') THEN
      RAISE EXCEPTION 'datoteca.copiar_enmascarado: % is not a table', t.key USING ERRCODE = '22023';
    END IF;
    IF nombre = ANY (nombres) THEN
      RAISE EXCEPTION 'datoteca.copiar_enmascarado: two tables named % would be copied into %',
        nombre, destino USING ERRCODE = '22023';
    END IF;
    rels := rels || t.rel;
    nombres := nombres || nombre;
    EXECUTE format('CREATE TABLE %I.%I (LIKE %s INCLUDING ALL EXCLUDING IDENTITY EXCLUDING GENERATED)',
                   destino, nombre, t.rel);
    sal := @extschema@.columnas_enmascaradas(t.rel, t.value);
    FOR k IN SELECT attname FROM pg_attribute
             WHERE attrelid = t.rel AND attnum > 0 AND NOT attisdropped AND NOT (attname::text = ANY (sal))
             ORDER BY attnum LOOP
      EXECUTE format('ALTER TABLE %I.%I DROP COLUMN %I CASCADE', destino, nombre, k.attname);
    END LOOP;
    EXECUTE format('INSERT INTO %1$I.%2$I SELECT * FROM @extschema@.enmascarar_filas(NULL::%1$I.%2$I, %3$L::regclass, $1)',
                   destino, nombre, t.rel::text) USING t.value;
  END LOOP;
  FOR k IN SELECT c.conname, c.conrelid::regclass AS rel, c.confrelid::regclass AS ref,
                  (SELECT relname FROM pg_class WHERE oid = c.conrelid) AS tabla,
                  (SELECT relname FROM pg_class WHERE oid = c.confrelid) AS tabla_ref,
                  (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY u.i) FROM unnest(c.conkey) WITH ORDINALITY AS u(n, i)
                     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = u.n) AS cols,
                  (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY u.i) FROM unnest(c.confkey) WITH ORDINALITY AS u(n, i)
                     JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = u.n) AS refcols,
                  c.confupdtype, c.confdeltype, c.confmatchtype, c.condeferrable, c.condeferred
           FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = ANY (rels) ORDER BY c.conrelid::regclass::text, c.conname LOOP
    IF NOT (k.ref = ANY (rels)) THEN
      RAISE EXCEPTION 'datoteca.copiar_enmascarado: the foreign key % of % references %, which reglas does not copy',
        k.conname, k.rel, k.ref USING ERRCODE = '22023';
    END IF;
    EXECUTE format('ALTER TABLE %I.%I ADD CONSTRAINT %I FOREIGN KEY (%s) REFERENCES %I.%I (%s) MATCH %s ON UPDATE %s ON DELETE %s %s',
                   destino, k.tabla, k.conname, k.cols, destino, k.tabla_ref, k.refcols,
                   CASE k.confmatchtype WHEN 'f' THEN 'FULL' ELSE 'SIMPLE' END,
                   CASE k.confupdtype WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL'
                                      WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END,
                   CASE k.confdeltype WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL'
                                      WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END,
                   CASE WHEN k.condeferrable AND k.condeferred THEN 'DEFERRABLE INITIALLY DEFERRED'
                        WHEN k.condeferrable THEN 'DEFERRABLE' ELSE '' END);
  END LOOP;
END $$;
COMMENT ON PROCEDURE @extschema@.copiar_enmascarado IS 'Copy the tables that reglas names into schema destino, masked, with their keys and foreign keys.';
-- A rules document written in TOML as its JSON twin (datoteca_copia.c): what datoteca detectar URL writes,
-- in the form copiar_enmascarado takes. IMMUTABLE: text in, the same JSON out.
CREATE FUNCTION @extschema@.reglas_json(reglas text) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'datoteca_reglas_json' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.reglas_json IS 'A masking rules document written in TOML as its JSON twin.';

-- Every table of the database copied masked into schema `destino`, each by its own section of a database's
-- rules document (`[tablas.<name>.columnas]`: the bare name in public, else schema.name, as datoteca
-- detectar URL writes it; TOML or JSON text). Privacy by default: a table the document lacks stops the
-- copy (the library's sentence names it) and nothing is left. The tables are those of every schema but the
-- system's, the extension's and destino; the copy is copiar_enmascarado's, one transaction.
CREATE PROCEDURE @extschema@.copiar_todo_enmascarado(reglas text, destino name)
LANGUAGE plpgsql AS $$
DECLARE
  doc jsonb;
  mapa jsonb;
BEGIN
  IF reglas IS NULL THEN
    RAISE EXCEPTION 'datoteca.copiar_todo_enmascarado: reglas must not be null' USING ERRCODE = '22023';
  END IF;
  doc := CASE WHEN left(ltrim(reglas), 1) = '{' THEN reglas::jsonb ELSE @extschema@.reglas_json(reglas) END;
  IF jsonb_typeof(doc) <> 'object' OR NOT (doc ? 'tablas') THEN
    RAISE EXCEPTION 'datoteca.copiar_todo_enmascarado: reglas must be a database''s rules document, with a '
                    '[tablas.<name>.columnas] per table (datoteca detectar URL writes it)' USING ERRCODE = '22023';
  END IF;
  SELECT jsonb_object_agg(c.oid::regclass::text, doc ORDER BY c.oid::regclass::text) INTO mapa
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
     AND n.nspname NOT IN ('pg_catalog', 'information_schema', '@extschema@') AND n.nspname <> destino
     AND n.nspname NOT LIKE 'pg\_%';
  IF mapa IS NULL THEN
    RAISE EXCEPTION 'datoteca.copiar_todo_enmascarado: the database has no table to copy' USING ERRCODE = '22023';
  END IF;
  CALL @extschema@.copiar_enmascarado(mapa, destino);
END $$;
COMMENT ON PROCEDURE @extschema@.copiar_todo_enmascarado IS 'Copy every table of the database into schema destino, masked by its section of a database''s rules document.';
REVOKE ALL ON PROCEDURE @extschema@.copiar_todo_enmascarado(text, name) FROM PUBLIC;

REVOKE ALL ON FUNCTION @extschema@.columnas_enmascaradas(regclass, jsonb),
  @extschema@.enmascarar_filas(anyelement, regclass, jsonb) FROM PUBLIC;
REVOKE ALL ON PROCEDURE @extschema@.copiar_enmascarado(jsonb, name) FROM PUBLIC;
