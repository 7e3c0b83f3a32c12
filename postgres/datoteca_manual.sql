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
