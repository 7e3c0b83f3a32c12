/*
 * datoteca.h — deterministic, realistic Chilean test data. The whole public C ABI.
 *
 * Conventions that hold for every function below unless its comment says otherwise:
 *
 *  - Every function returns a dt_status. DT_OK (0) is success; other values are errors
 *    whose numbers are pinned forever (new ones are only appended).
 *  - Text goes into caller memory: `buf` of `cap` bytes. On success the text and a
 *    terminating NUL are written and `*len` receives the length without the NUL. If
 *    the text does not fit (cap < length + 1) the call returns DT_ERR_BUFFER_TOO_SMALL,
 *    stores the needed length (without the NUL) in `*len`, writes buf[0] = '\0' when
 *    cap > 0, never writes past `cap`, and consumes nothing from the stream: calling
 *    again with a larger buffer gives the same value. `buf` may be NULL only when
 *    cap == 0 (a size query); `len` may be NULL when the caller does not need it.
 *    Every text is UTF-8 and at most DT_MAX_TEXT - 1 bytes long, so a buffer of
 *    DT_MAX_TEXT bytes is always enough for one value.
 *  - An argument outside its documented range is DT_ERR_INVALID_ARG. Arguments are checked in one
 *    place, the call registry; a function that writes text then puts the English sentence that
 *    explains the refusal in `buf` (snprintf semantics: truncated to `cap`, NUL-terminated, its
 *    length in `*len`; under DT_SENTENCE_MAX bytes), so a caller never has to ask twice.
 *  - A call that fails for any reason (NULL, invalid argument, small buffer) consumes
 *    no random numbers: the data after it is as if it had not been made.
 *  - A dt_gen is not thread-safe: use one per thread, or a lock around a shared one.
 *    Everything that takes no dt_gen (RUT utilities, formatting, the call registry,
 *    versions, status strings) is pure and safe from any thread. The library keeps no
 *    global mutable state.
 *
 * The random stream: every generating call draws from its instance's one PCG32 stream,
 * in the order documented in docs/stream.md (and in each function's comment: both come from
 * spec/llamadas.toml). The statuses, constants and per-call declarations are generated from spec/
 * into datoteca_comun.gen.h and datoteca_llamadas.gen.h, which this header includes. Same seed and same sequence of calls give
 * the same data on every platform and in every language binding.
 */
#ifndef DATOTECA_H
#define DATOTECA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(DT_BUILDING_SHARED)
#define DT_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define DT_API __attribute__((visibility("default")))
#else
#define DT_API
#endif

/* ===================================================================== versions */

/* Library version (semantic). CMake and the bindings read it from here. */
#define DT_VERSION_MAJOR 3
#define DT_VERSION_MINOR 0
#define DT_VERSION_PATCH 0
#define DT_VERSION_STRING "3.0.0"

/* Data version: changes whenever the same seed and calls would give different data.
 * A change of it is a breaking change and comes with a new major version. */
#define DT_DATA_VERSION 2

/* The library's version string ("2.0.0"); static storage, never NULL. */
DT_API const char *dt_version(void);
/* DT_VERSION_MAJOR * 10000 + DT_VERSION_MINOR * 100 + DT_VERSION_PATCH of the loaded library. */
DT_API uint32_t dt_version_number(void);
/* DT_DATA_VERSION of the loaded library. */
DT_API uint32_t dt_data_version(void);

/* ===================================================================== statuses, constants */

/* dt_status (its numbers pinned forever), the shared constants and limits (DT_MAX_TEXT,
 * DT_SENTENCE_MAX, DT_FIELD_SEP, DT_NULO, the RUT ranges, …), dt_kind and dt_dialecto. */
#include "datoteca_comun.gen.h"

/* A constant English sentence for a status ("buffer too small"); static storage,
 * never NULL ("unknown status" for numbers outside the enum). */
DT_API const char *dt_status_str(int status);

/* ===================================================================== instances */

typedef struct dt_gen dt_gen;

/* Create an instance seeded with an unsigned 64-bit seed.
 * The PCG32 generator is initialised exactly like the reference
 * pcg32_srandom_r(&rng, initstate = seed, initseq = DT_SEED_STREAM ("datoteca" in ASCII)).
 * The reference date ("hoy") starts at DT_HOY_DEFAULT.
 * `out` must not be NULL (DT_ERR_NULL); on success *out owns a new instance, free it
 * with dt_free. On failure *out is set to NULL. */
DT_API dt_status dt_new(uint64_t seed, dt_gen **out);

/* Create an instance seeded exactly like the reference pcg32_srandom_r(&rng, initstate,
 * initseq), for reproducing published PCG vectors or another PCG32 stream.
 * dt_new(seed, out) is dt_new_pcg(seed, DT_SEED_STREAM, out). */
DT_API dt_status dt_new_pcg(uint64_t initstate, uint64_t initseq, dt_gen **out);

/* Create an instance from a text seed: the seed is FNV-1a 64 of the `len` bytes at
 * `seed` (offset basis 0xcbf29ce484222325, prime 0x100000001b3), then as dt_new.
 * The bytes are used as given (UTF-8 expected, not checked). `seed` may be NULL only
 * when len == 0. */
DT_API dt_status dt_new_str(const char *seed, size_t len, dt_gen **out);

/* Free an instance. NULL is a no-op. */
DT_API void dt_free(dt_gen *g);

/* Reference date used for ages ("hoy"): never the clock. Default DT_HOY_DEFAULT_ANIO/MES/DIA
 * (2026-01-01). Setting it consumes nothing from the stream. Valid years are DT_HOY_ANIO_MIN ..
 * DT_HOY_ANIO_MAX and the day must exist (DT_ERR_INVALID_ARG otherwise, instance unchanged). */
DT_API dt_status dt_set_hoy(dt_gen *g, int32_t anio, int32_t mes, int32_t dia);
/* Read the reference date; any of the out pointers may be NULL. */
DT_API dt_status dt_get_hoy(const dt_gen *g, int32_t *anio, int32_t *mes, int32_t *dia);

/* ===================================================================== the stream */

/* The next 32-bit output of the instance's PCG32 stream (one draw). */
DT_API dt_status dt_next_u32(dt_gen *g, uint32_t *out);

/* An unbiased integer in [lo, hi] (lo <= hi, else DT_ERR_INVALID_ARG).
 * Span s = hi - lo + 1. If s <= 2^32: Lemire's multiply-and-reject on one 32-bit draw,
 * one draw plus one per rejection. Otherwise: 64-bit values from two draws (high word
 * first), rejected while >= the largest multiple of s, two draws per attempt; the full
 * int64 range takes exactly two draws. */
DT_API dt_status dt_range(dt_gen *g, int64_t lo, int64_t hi, int64_t *out);

/* The complete state of an instance as DT_STATE_SIZE plain bytes:
 *   0..3   magic "DTS1"
 *   4..11  PCG32 state, little-endian
 *   12..19 PCG32 increment (odd), little-endian
 *   20..21 reference year, little-endian; 22 month; 23 day
 * Saving consumes nothing. Restoring makes `g` continue exactly where the saved
 * instance was; bytes that are not such a state (wrong size or magic, even increment,
 * impossible date) are rejected with DT_ERR_INVALID_STATE and `g` is unchanged. */
DT_API dt_status dt_state_save(const dt_gen *g, uint8_t *buf, size_t cap, size_t *len);
DT_API dt_status dt_state_restore(dt_gen *g, const uint8_t *buf, size_t len);

/* Derive an independent child instance for a label, e.g. one per table or per test.
 * Consumes exactly two draws from the parent (a, then b). With h = FNV-1a 64 of the
 * label bytes, the child is pcg32_srandom_r(initstate = ((a << 32) | b) ^ h,
 * initseq = h) and inherits the parent's reference date. `label` may be NULL only when
 * label_len == 0. On success *out owns a new instance (free with dt_free). */
DT_API dt_status dt_derive(dt_gen *parent, const char *label, size_t label_len, dt_gen **out);


/* ===================================================================== calls */

/* Every generating call, typed: choices (dt_sexo, dt_rut_formato, …), records (dt_persona, …) and
 * one function per call (dt_rut, dt_persona_nombre, …), each documented with its ranges, defaults
 * and draws. The same calls by name are the call registry below. */
#include "datoteca_llamadas.gen.h"

/* ===================================================================== utilities */

/* Pure functions: no instance, no stream, thread-safe. Their arguments are checked by the utility
 * registry (dt_util, below), like the calls' by the call registry. */

/* The mod-11 check digit of a body in [1, DT_RUT_CUERPO_MAX]: '0'..'9' or 'K'. `dv` must not be NULL. */
DT_API dt_status dt_rut_dv(uint32_t cuerpo, char *dv);

/* Read a RUT as people type it: optional ASCII whitespace around it (space, tab, newline,
 * carriage return, vertical tab, form feed); a body of 1 to 8 digits without a leading zero,
 * either without dots or with a dot before every group of three digits from the right; an
 * optional '-', or one of the dashes pasted from documents (U+2010 to U+2015, U+2212); a check
 * digit 0-9, 'k' or 'K' that matches. docs/rut.md lists what is accepted and rejected.
 * On success stores the body and the check digit (upper-case); either out pointer may
 * be NULL. Anything else is DT_ERR_INVALID_RUT. `s` may be NULL only when len == 0
 * (which is invalid). */
DT_API dt_status dt_rut_leer(const char *s, size_t len, uint32_t *cuerpo, char *dv);

/* DT_OK if `s` is a valid RUT (as dt_rut_leer), DT_ERR_INVALID_RUT if not. */
DT_API dt_status dt_rut_validar(const char *s, size_t len);

/* Validate `s` and write it in `formato` (clean = DT_RUT_LIMPIO). Text out as everywhere. */
DT_API dt_status dt_rut_formatear(const char *s, size_t len, dt_rut_formato formato, char *buf, size_t cap, size_t *out_len);

/* Write a body (1..DT_RUT_CUERPO_MAX) with its check digit in `formato`. Text out as everywhere. */
DT_API dt_status dt_rut_formatear_cuerpo(uint32_t cuerpo, dt_rut_formato formato, char *buf, size_t cap, size_t *len);

/* Read a plate as people type it: ASCII whitespace around it, letters in either case, one separator
 * '·' (U+00B7), '.' or '-' between the letters and the digits and one before a check digit (each
 * optional; a space inside is refused, as in a RUT), and optionally its check digit at the end
 * ("PHZF55K", "phzf·55-k"), which must then be right. The letters must be the current format's 18
 * (4 letters + 2 digits from 10 to 99, or 3 + 2 digits for a motorcycle) or an old series (2 letters
 * + 4 digits); docs/patentes.md lists what is accepted and refused. Stores the tipo and the check digit ('0'..'9' or 'K') when not NULL.
 * DT_ERR_INVALID_PATENTE otherwise. The check digit is the Registro Civil's: the plate as a number
 * (letters by their table, a motorcycle's with a 0 before its digits, an old series by its 3-digit
 * code), then the RUT's mod 11 (docs/data.md). */
DT_API dt_status dt_patente_leer(const char *s, size_t len, dt_patente_tipo *tipo, char *dv);
/* DT_OK if `s` is a valid plate (as dt_patente_leer), DT_ERR_INVALID_PATENTE if not. */
DT_API dt_status dt_patente_validar(const char *s, size_t len);
/* Validate `s` and write it in `formato`. Text out as everywhere. */
DT_API dt_status dt_patente_formatear(const char *s, size_t len, dt_patente_formato formato, char *buf, size_t cap,
                                      size_t *out_len);

/* An amount in [0, DT_DINERO_MAX] written "$1.234.567", and hundredths of UF written "UF 1.234,56".
 * DT_ERR_INVALID_ARG (the sentence in buf) outside the range. Text out as everywhere. */
DT_API dt_status dt_dinero_formatear_clp(int64_t monto, char *buf, size_t cap, size_t *len);
DT_API dt_status dt_dinero_formatear_uf(int64_t centesimos, char *buf, size_t cap, size_t *len);

/* ===================================================================== call registry */

/* Every generating call above is also reachable by name, with integer arguments. This is
 * what the CLI, the bindings' bulk paths and the golden tests use. */

typedef struct dt_param_info {
    const char *name;            /* "sexo", "region", "edad_min", … */
    int64_t def, min, max;       /* default and inclusive range */
    const char *const *choices;  /* NULL, or names of the values min..max ("F" for 1) */
} dt_param_info;

typedef struct dt_call_info {
    const char *name;                 /* "persona.nombre", "rut", … */
    int kind;                         /* dt_kind */
    size_t nparams;
    const dt_param_info *params;
    size_t nfields;                   /* records only, else 0 */
    const char *const *fields;        /* records only, else NULL */
} dt_call_info;

/* Number of registered calls; indices are 0..count-1 and stable within a major version. */
DT_API size_t dt_call_count(void);
/* The description of call `index`, or NULL if out of range. Static storage. */
DT_API const dt_call_info *dt_call_at(size_t index);
/* Look a call up by name (`len` bytes). DT_ERR_UNKNOWN_CALL if there is none. */
DT_API dt_status dt_call_find(const char *name, size_t len, size_t *index);

/* 1 if field `field` of record call `index` may have no value, which it gives as an empty text
 * (JSON null, Python None, JavaScript null, an empty CSV cell); 0 otherwise, and for an index or
 * field out of range. Pure and thread-safe. */
DT_API int dt_call_field_nullable(size_t index, size_t field);

/* An argument value meaning "absent": the parameter takes its default (dt_param_info.def).
 * Bindings pass it for arguments the user left out, so defaults live only in the library. */
#define DT_ARG_DEFAULT INT64_MIN
/* A capacity that always suffices for dt_call_many of n values (n < SIZE_MAX / DT_MAX_TEXT). */
#define DT_CALL_MANY_BOUND(n) ((size_t)(n) * (size_t)DT_MAX_TEXT + 1)

/* Check arguments for call `index` without running it: DT_OK when dt_call would accept them
 * (and buf receives ""), DT_ERR_INVALID_ARG when not, with one English sentence in buf that
 * names the call, the parameter, the value and what is accepted:
 *   "direccion.comuna: region must be from 0 to 16 (0 = any region), got 17"
 *   "dinero.monto: min must not exceed max, got min=10, max=5"
 * (the sentence dt_call writes for the same refusal). Text out as everywhere (a sentence is under
 * DT_SENTENCE_MAX bytes); DT_ERR_UNKNOWN_CALL for a bad index. Pure and thread-safe. */
DT_API dt_status dt_call_check(size_t index, const int64_t *args, size_t nargs, char *buf, size_t cap, size_t *len);

/* Run call `index` once. `args` holds `nargs` values for the first parameters (the rest
 * take their defaults, and so does any DT_ARG_DEFAULT); nargs > nparams, a value out of range
 * or a failed cross-parameter check (edad_min <= edad_max, min <= max) is DT_ERR_INVALID_ARG
 * with the sentence that explains it in buf (as dt_call_check). `args` may be NULL when
 * nargs == 0. The value is written as text (see dt_kind). */
DT_API dt_status dt_call(dt_gen *g, size_t index, const int64_t *args, size_t nargs,
                         char *buf, size_t cap, size_t *len);

/* Run call `index` n times, each value followed by '\n'; identical to n dt_call in a
 * row. A refused argument is DT_ERR_INVALID_ARG with its sentence in buf, as dt_call. On success *len is the length written (without the final NUL). If the values do
 * not fit, nothing is consumed, buf[0] = '\0' when cap > 0, and *len receives
 * DT_CALL_MANY_BOUND(n), a capacity that always suffices. */
DT_API dt_status dt_call_many(dt_gen *g, size_t index, const int64_t *args, size_t nargs,
                              size_t n, char *buf, size_t cap, size_t *len);

/* The value of choice `name` (`len` bytes, e.g. "F") of parameter `param` of `info` (a call's or a
 * utility's description): DT_OK and *value, or DT_ERR_INVALID_ARG with the sentence in buf that names
 * the call, the parameter, what is accepted and what was given:
 *   "persona.nombre: sexo must be one of 'cualquiera', 'F', 'M', got 'X'"
 * (at most 40 bytes of the name are repeated). DT_ERR_NULL for NULL info or value, DT_ERR_INVALID_ARG
 * without a sentence for a parameter that has no choices. Text out as everywhere. Pure, thread-safe. */
DT_API dt_status dt_param_choice(const dt_call_info *info, size_t param, const char *name, size_t len, int64_t *value,
                                 char *buf, size_t cap, size_t *out_len);

/* ===================================================================== utility registry */

/* The utilities above (and the runtimes' validar_rut, rut_dv, formatear_rut, …) by name, with their
 * integer and choice parameters described like a call's (dt_call_info: kind DT_KIND_TEXT for a text
 * value, DT_KIND_VALIDAR for a check). Runtimes reach every utility through dt_util. */
DT_API size_t dt_util_count(void);
DT_API const dt_call_info *dt_util_at(size_t index); /* NULL if out of range; static storage */
DT_API dt_status dt_util_find(const char *name, size_t len, size_t *index);

/* Run utility `index` on the text `texto` (`texto_len` bytes; ignored by a utility that takes no
 * text; NULL only when texto_len == 0) and its `nargs` integer arguments (DT_ARG_DEFAULT or absent:
 * the default). DT_OK with the value in buf ("" for DT_KIND_VALIDAR); a refused argument is
 * DT_ERR_INVALID_ARG and a refused text the utility's own status (DT_ERR_INVALID_RUT, …), each with
 * its sentence in buf ("formatear_rut: rut is not a valid RUT"; the text is never repeated).
 * Text out as everywhere; DT_ERR_UNKNOWN_CALL for a bad index. Pure and thread-safe. */
DT_API dt_status dt_util(size_t index, const char *texto, size_t texto_len, const int64_t *args, size_t nargs,
                         char *buf, size_t cap, size_t *len);

/* ===================================================================== reference tables */

/* The reference tables the data is drawn from (comunas, names, banks, …), generated from
 * the CSVs in c/data, in a fixed order. Each has a digest of its whole content (text,
 * codes, weights and alias tables, in table order): any change to a table changes its
 * digest. fixtures/fingerprint.json records them, so a test names the table that changed;
 * the encoding is in docs/determinism.md. Pure and thread-safe; consumes nothing. */
typedef struct dt_referencia_info {
    const char *name; /* "comunas"; static storage */
    uint32_t rows;    /* entries in the table */
    uint64_t digest;  /* FNV-1a 64 of the table's canonical encoding */
} dt_referencia_info;

/* Number of tables; indices are 0..count-1. */
DT_API size_t dt_referencia_count(void);
/* Describe table `index` into *out (computed on each call: a few microseconds).
 * DT_ERR_NULL if `out` is NULL, DT_ERR_INVALID_ARG if `index` is out of range. */
DT_API dt_status dt_referencia_at(size_t index, dt_referencia_info *out);

/* ===================================================================== datasets */

/* A dataset is the second way to generate: row i of a call depends only on (seed, call,
 * arguments, options, i), never on other rows, so any slice [desde, desde + n) equals the same
 * rows of a full run, in any order, on any number of threads. Each row has its own PCG32 stream
 * derived from the seed and i (docs/stream.md); it shares nothing with the sequential stream of
 * dt_new. Options (docs/datasets.md): which columns and in what order, unique columns (RUT,
 * email, phone: a keyed permutation indexed by the row, so no memory grows with the rows), and a
 * null rate per column in per mille, decided per row by a keyed hash without drawing. */

typedef struct dt_tabla dt_tabla;

typedef struct dt_tabla_opciones {
    size_t tamano;           /* sizeof(dt_tabla_opciones): later versions add members at the end only, and a
                              * caller compiled against an older header (2.0.0's ends with nulos) passes
                              * its smaller size: the members it lacks count as NULL */
    size_t llamada;          /* the call's registry index (dt_call_find) */
    const int64_t *args;     /* as dt_call: nargs values, DT_ARG_DEFAULT for a default; NULL if nargs == 0 */
    size_t nargs;
    uint64_t seed;
    const char *seed_texto;  /* when not NULL: a text seed of seed_texto_len bytes (as dt_new_str) */
    size_t seed_texto_len;
    int32_t hoy_anio, hoy_mes, hoy_dia; /* the reference date; all 0 for the default */
    const char *campos;      /* "rut,nombre_completo,email": columns in this order; NULL or "" for all */
    const char *unico;       /* "rut,email": columns made unique; NULL or "" for none */
    const char *nulos;       /* "email:100,telefono:25": per mille of null values; NULL or "" for none */
    const char *sucio;       /* "rut:100,comuna:50": per mille of dirty values (docs/sucios.md); NULL or ""
                              * for none. Since 2.1.0 */
} dt_tabla_opciones;

/* Build a dataset description. On DT_ERR_INVALID_ARG (unknown call or column, an argument out
 * of range, a column that cannot be unique or dirty, a null or dirt rate above 1000, a null rate on
 * a unique column) `why` receives one English sentence naming what is wrong (snprintf semantics;
 * under DT_SENTENCE_MAX bytes).
 * DT_ERR_NULL if `o` or `out` is NULL or tamano is too small. The dataset owns copies of what it
 * needs; free it with dt_tabla_free. Immutable once built: every function below may be called on
 * one dataset from many threads at once. */
DT_API dt_status dt_tabla_new(const dt_tabla_opciones *o, dt_tabla **out, char *why, size_t whycap);
DT_API void dt_tabla_free(dt_tabla *t); /* NULL is a no-op */

typedef struct dt_columna_info {
    const char *nombre;      /* "rut"; valid while the dataset lives */
    const char *tipo_sql;    /* PostgreSQL type: "text", "date", "char(1)", "integer", "bigint" */
    int nulable;             /* 1 if some row may have no value (a null rate, or a field that may be empty) */
    int unico;               /* 1 if made unique */
    uint32_t nulos_por_mil;
} dt_columna_info;

/* Number of columns, and the description of column j (DT_ERR_INVALID_ARG when j is out of range). */
DT_API size_t dt_tabla_columnas(const dt_tabla *t);
DT_API dt_status dt_tabla_columna(const dt_tabla *t, size_t j, dt_columna_info *out);

/* How many rows can be addressed: rows 0..capacity-1. With unique columns it is the smallest of
 * their capacities (docs/datasets.md: e.g. 2,000,000 company RUTs); without, 2^63. */
DT_API uint64_t dt_tabla_capacidad(const dt_tabla *t);

/* Rows [desde, desde + n): each row's columns joined by DT_FIELD_SEP, a null field as the single
 * byte DT_NULO, each row followed by '\n', then a NUL. DT_ERR_INVALID_ARG when desde + n exceeds
 * the capacity; DT_ERR_BUFFER_TOO_SMALL with *len = DT_CALL_MANY_BOUND(n) when the rows do not fit
 * (buf[0] = '\0'). Text out as everywhere. */
DT_API dt_status dt_tabla_filas(const dt_tabla *t, uint64_t desde, size_t n, char *buf, size_t cap, size_t *len);

/* The CREATE TABLE statement of the dataset for a database: proper types, NOT NULL where no
 * null can occur, PRIMARY KEY on the first unique column that cannot be null, UNIQUE on the other
 * unique ones. `nombre` is the table's name: letters, digits and '_' only, not starting with a
 * digit (else DT_ERR_INVALID_ARG, with the sentence in buf). Text out as everywhere. */
DT_API dt_status dt_tabla_ddl(const dt_tabla *t, dt_dialecto dialecto, const char *nombre, char *buf, size_t cap,
                              size_t *len);

/* ===================================================================== schemas */

/* A schema is a whole relational test database from one document (docs/esquemas.md): tables in
 * declaration order, each with a row count or a fan-out per row of a parent table, columns from a
 * serial id, a call (a dataset's fields, unique columns, null and dirt rates), a weighted choice or a
 * foreign key to a parent's unique column. The document (TOML or JSON, docs/esquemas-formato.md) is
 * parsed and checked here, only in C, so every runtime accepts and refuses the same schemas with the
 * same sentences ("banco.toml:12: tablas.cuentas.columnas.cliente: ref: unknown table 'clientez'; …").
 *
 * Every value depends only on (seed, table, column, row) and, for a fan-out table, its parent's row:
 * each column draws from its own key, so adding a table or a column changes no other column's values,
 * and any slice of rows equals the same rows of a full run. Memory: a fan-out table keeps 8 bytes per
 * row of its parent (prefix sums mapping its rows to their parents), and with a distribution other
 * than "uniforme" 8 bytes per count min..max (at most 512 KB a table, 8 MB a schema); a skewed ref
 * (sesgo) at most 23 KB; nothing grows with the rows generated. A built schema is immutable: every function below may be called on one schema from many
 * threads at once, as long as none of them frees it. */

typedef struct dt_esquema dt_esquema;

#define DT_ESQUEMA_TOML 1 /* formato of dt_esquema_new */
#define DT_ESQUEMA_JSON 2

/* Build a schema from `len` bytes of `texto` (TOML or JSON as `formato` says; texto may be NULL only
 * when len == 0). `archivo` names the document in sentences (copied; NULL means "<document>"). `seed`
 * is the schema's seed; hoy_anio/mes/dia the reference date (all 0 for the default, as datasets).
 * DT_OK: *out owns the new schema (free with dt_esquema_free); the text may be freed at once.
 * DT_ERR_INVALID_ARG: the document is refused before any row, *out is NULL, and `why` holds one
 * English sentence "<file>:<line>: <path>: <what is wrong>" (snprintf semantics, under
 * DT_SENTENCE_MAX bytes; why may be NULL or whycap 0 for none). DT_ERR_NO_MEMORY likewise.
 * DT_ERR_NULL when `out` is NULL or texto is NULL with len > 0. Thread-safe (shares nothing). */
DT_API dt_status dt_esquema_new(const char *texto, size_t len, int formato, const char *archivo, uint64_t seed,
                                int32_t hoy_anio, int32_t hoy_mes, int32_t hoy_dia, dt_esquema **out, char *why,
                                size_t whycap);
DT_API void dt_esquema_free(dt_esquema *e); /* NULL is a no-op */

/* Tables are numbered 0..count-1 in declaration order. For NULL `e` or an index out of range: 0 tables,
 * a NULL name, 0 rows, 0 columns. Names are valid while the schema lives. */
DT_API size_t dt_esquema_tablas(const dt_esquema *e);
DT_API const char *dt_esquema_tabla(const dt_esquema *e, size_t tabla);
/* The index of the table named `nombre` (`len` bytes): DT_OK, or DT_ERR_INVALID_ARG when there is none,
 * DT_ERR_NULL for NULL e or tabla. */
DT_API dt_status dt_esquema_buscar(const dt_esquema *e, const char *nombre, size_t len, size_t *tabla);
/* Rows of a table: its filas, or for a fan-out the sum of its parent rows' children. */
DT_API uint64_t dt_esquema_tabla_filas(const dt_esquema *e, size_t tabla);
/* The k-th table in dependency order (every table after the tables it refers to or fans out from;
 * otherwise declaration order): the order of the DDL and of a load. (size_t)-1 out of range. */
DT_API size_t dt_esquema_orden(const dt_esquema *e, size_t k);
DT_API size_t dt_esquema_columnas(const dt_esquema *e, size_t tabla);

typedef struct dt_esquema_columna_info {
    const char *nombre;      /* "rut"; valid while the schema lives */
    const char *tipo_sql;    /* PostgreSQL type, as dt_columna_info ("text", "bigint", …) */
    int nulable;             /* 1 if some row may have no value */
    int unico;               /* 1 for a serie or a call's unico column */
    int clave_primaria;      /* 1 for the table's primary key: its first unique column that cannot be null */
    const char *ref_tabla;   /* a foreign key's parent table and column; NULL otherwise */
    const char *ref_columna;
} dt_esquema_columna_info;

/* Column j of a table, in declaration order (a call's chosen fields in their campos order).
 * DT_ERR_NULL for NULL e or out, DT_ERR_INVALID_ARG for a table or column out of range. */
DT_API dt_status dt_esquema_columna(const dt_esquema *e, size_t tabla, size_t j, dt_esquema_columna_info *out);

/* Rows [desde, desde + n) of a table, in dt_tabla_filas' text form: columns joined by DT_FIELD_SEP, a
 * null as DT_NULO, each row followed by '\n', then a NUL. DT_ERR_INVALID_ARG for a table out of range
 * or desde + n past its rows; DT_ERR_BUFFER_TOO_SMALL (buf[0] = '\0') with *len a capacity that always
 * suffices for n rows of this table (a size query: buf NULL, cap 0, which makes no row). A row whose
 * arguments from other columns ({ de = ... }) its call refuses gives DT_ERR_INVALID_ARG with the sentence
 * in buf ("tablas.t.columnas.c: row 3: ...": the table, column and row) and no rows. Text out as
 * everywhere. Allocates about 24 KB plus 1 KB per column group and 17 bytes per column of scratch per call
 * (16 KB of it keeps cells of parent rows that arguments and repartos read), and 7 KB more while a
 * source column of another row is made, freed before it returns
 * (DT_ERR_NO_MEMORY).
 * Thread-safe: it only reads the schema (its datasets, prefix sums and options are fixed by
 * dt_esquema_new) and keeps its generator states, scratch, kept cells and fan-out cursor in the call,
 * so many threads may make slices of one table, or of different tables, of one shared schema at once,
 * and each slice equals the same rows of one thread's run (`datoteca esquema --jobs N` does exactly
 * this; its outputs are tested byte for byte against --jobs 1, and ThreadSanitizer finds nothing in it). */
DT_API dt_status dt_esquema_filas(const dt_esquema *e, size_t tabla, uint64_t desde, size_t n, char *buf, size_t cap,
                                  size_t *len);

/* The CREATE TABLE statements of every table in dependency order, for `dialecto`: NOT NULL where no
 * null can occur, PRIMARY KEY (the first serie or unique column that cannot be null), UNIQUE on the
 * other unique ones, FOREIGN KEY (col) REFERENCES parent (col) for each ref. Text out as everywhere
 * (DT_ERR_INVALID_ARG with the sentence in buf for an unknown dialect). Thread-safe. */
DT_API dt_status dt_esquema_ddl(const dt_esquema *e, dt_dialecto dialecto, char *buf, size_t cap, size_t *len);

/* ===================================================================== command line */

/* The `datoteca` command (docs in the README and `datoteca --help`), the same code whether it runs as
 * the CMake binary, `python -m datoteca`/the `datoteca` script of the wheel, or `npx datoteca`:
 * argv[0] is the program's name, argv[1..] its arguments. Writes to the process's stdout and stderr
 * (flushed before it returns) and returns the exit status: 0, 1 (a write error, out of memory) or 2
 * (bad arguments). Uses static state: call it once per process, from one thread. */
DT_API int dt_cli_main(int argc, char **argv);

/* ===================================================================== Arrow */

/* Datasets as Arrow columns through the Arrow C Data Interface (a stable ABI, produced here without
 * the Arrow library; docs/scale.md): a record batch is a struct array with one child per column,
 * text as utf8 (int32 offsets and the bytes, written once), integers as int64, dates as date32,
 * nulls as validity bitmaps (only for columns that may be null). Every struct returned owns its
 * memory and has the release callback the specification requires; the consumer calls it. The
 * structure definitions are the specification's, guarded by its macros so a program that also
 * includes Arrow's own abi.h compiles. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};
#endif

/* The schema of the dataset's record batches: a struct ("+s") with one child per column, named as
 * the column, ARROW_FLAG_NULLABLE where a null can occur. */
DT_API dt_status dt_tabla_arrow_schema(const dt_tabla *t, struct ArrowSchema *out);
/* Rows [desde, desde + n) as one record batch (a struct array), filled by `hilos` threads (1 or 2;
 * 2 splits a batch of 4,096 rows or more in halves: the same bytes, about half the time on two free
 * cores). DT_ERR_INVALID_ARG past the capacity or when a text column would exceed 2 GiB in one batch;
 * DT_ERR_NO_MEMORY. On failure out->release is NULL. */
DT_API dt_status dt_tabla_arrow_lote(const dt_tabla *t, uint64_t desde, size_t n, int hilos, struct ArrowArray *out);
/* A stream of record batches of at most `filas_por_lote` rows (1 .. 1,048,576) covering rows
 * [desde, desde + n), each filled by `hilos` threads (1 or 2). The stream keeps its own copy of the
 * dataset: `t` may be freed at once. */
DT_API dt_status dt_tabla_arrow_stream(const dt_tabla *t, uint64_t desde, uint64_t n, size_t filas_por_lote, int hilos,
                                       struct ArrowArrayStream *out);
/* For bindings that hand a stream or schema to a consumer by pointer (Python's PyCapsule): a malloc'd
 * stream as dt_tabla_arrow_stream, or schema as dt_tabla_arrow_schema (NULL on failure), and their
 * disposal: release if not released, then free. Freeing NULL is a no-op. */
DT_API struct ArrowArrayStream *dt_tabla_arrow_stream_new(const dt_tabla *t, uint64_t desde, uint64_t n,
                                                          size_t filas_por_lote, int hilos);
DT_API void dt_arrow_stream_free(struct ArrowArrayStream *s);
DT_API struct ArrowSchema *dt_tabla_arrow_schema_new(const dt_tabla *t);
DT_API void dt_arrow_schema_free(struct ArrowSchema *s);

/* A schema's tables as Arrow, with the datasets' conventions above (utf8 text, int64 for integer and
 * bigint, date32 for date, validity bitmaps only where a column may be null, no metadata, a struct
 * ("+s") per batch named as the table's columns in declaration order). The values are those of
 * dt_esquema_filas (a null there is a null here), so they equal the CLI's CSV. Each batch is filled by
 * one thread; split a table into row ranges for more (any slice equals the same rows of a full run).
 * Thread-safe on one schema, as dt_esquema_filas. Since 2.1.0. */

/* The schema of table `tabla`'s batches. DT_ERR_NULL for NULL e or out, DT_ERR_INVALID_ARG for a table
 * out of range, DT_ERR_NO_MEMORY; on failure out->release is NULL. `out` owns its memory (copies of
 * the names): it may outlive `e`. */
DT_API dt_status dt_esquema_arrow_schema(const dt_esquema *e, size_t tabla, struct ArrowSchema *out);
/* Rows [desde, desde + n) of a table as one record batch, which owns its memory (it may outlive `e`).
 * DT_ERR_INVALID_ARG for a table out of range, desde + n past its rows, or a text column that would
 * exceed 2 GiB in one batch; DT_ERR_NO_MEMORY. On failure out->release is NULL. */
DT_API dt_status dt_esquema_arrow_lote(const dt_esquema *e, size_t tabla, uint64_t desde, size_t n, struct ArrowArray *out);
/* A stream of record batches of at most `filas_por_lote` rows (1 .. 1,048,576) covering rows
 * [desde, desde + n) of a table. Unlike dt_tabla_arrow_stream, the stream BORROWS `e` (a schema may
 * hold 800 MB of prefix sums, too much to copy): `e` must not be freed before the stream is released.
 * The batches it gives own their memory and may outlive both. DT_ERR_NULL, DT_ERR_INVALID_ARG (table,
 * range or filas_por_lote out of range), DT_ERR_NO_MEMORY; on failure out->release is NULL. */
DT_API dt_status dt_esquema_arrow_stream(const dt_esquema *e, size_t tabla, uint64_t desde, uint64_t n,
                                         size_t filas_por_lote, struct ArrowArrayStream *out);
/* For bindings that hand a stream or schema to a consumer that may keep it longer than the binding's
 * own handle (Python's PyCapsule): a malloc'd stream as dt_esquema_arrow_stream, or NULL on any failure;
 * dispose of it with dt_arrow_stream_free. With propio = 1 the stream takes `e` on success and frees it
 * when it is released (a binding builds one schema per stream from the same document: same seed and
 * document, same rows); on failure `e` stays the caller's. With propio = 0 it borrows `e`, as above.
 * The schema as dt_esquema_arrow_schema, malloc'd (NULL on failure), for dt_arrow_schema_free. */
DT_API struct ArrowArrayStream *dt_esquema_arrow_stream_new(dt_esquema *e, size_t tabla, uint64_t desde, uint64_t n,
                                                            size_t filas_por_lote, int propio);
DT_API struct ArrowSchema *dt_esquema_arrow_schema_new(const dt_esquema *e, size_t tabla);

/* ===================================================================== masking */

/* Keyed, deterministic pseudonymization of real data (docs/enmascarar.md): the same key and the
 * same input give the same output in every runtime and version until a new major. It is
 * pseudonymization, not anonymization: whoever holds the key can reverse every RUT mapping (the
 * _inversa functions below do exactly that); without the key, telling a masked RUT's original is as
 * hard as breaking SipHash-2-4 and BLAKE2s as PRFs. No function here ever writes the key, any part
 * of it, or a value it refuses into a sentence. Since 2.1.0. */

/* The masking mapping version: changes whenever the same key, rules and input would give another
 * output (fixtures/mascara.json pins it). A change of it is a breaking change and comes with a new
 * major version, as a change of DT_DATA_VERSION does. */
#define DT_MASCARA_VERSION 2

typedef struct dt_mascara_clave dt_mascara_clave;

/* Build a key from its text: exactly 64 hexadecimal digits (0-9, a-f, A-F: 32 bytes), optionally
 * followed by one '\n' (a key file's last line); anything else (shorter, longer, another character,
 * a second newline, a '\r') is DT_ERR_INVALID_ARG with one English sentence in `why` that names what
 * is wrong by position and length only, never by the characters given (snprintf semantics, under
 * DT_SENTENCE_MAX bytes; why may be NULL or whycap 0 for none; "" on success). The per-purpose
 * subkeys are derived at once, BLAKE2s-256(key = the 32 bytes, message = a label such as
 * "datoteca/rut/persona/v1"), and only they are kept. `hex` may be NULL only when len == 0 (which is
 * refused); DT_ERR_NULL for NULL out (with its sentence); DT_ERR_NO_MEMORY. On success *out owns the key (free with
 * dt_mascara_clave_free); the text may be wiped at once. On failure *out is NULL. Thread-safe; a
 * built key is immutable and may be used from many threads at once. */
DT_API dt_status dt_mascara_clave_new(const char *hex, size_t len, dt_mascara_clave **out, char *why, size_t whycap);
/* Overwrite the key's subkeys with zeros (through a volatile pointer), then free it. NULL is a no-op. */
DT_API void dt_mascara_clave_free(dt_mascara_clave *k);

/* Options of dt_mascara_clave_new_opciones, dt_mascara_clave_leer and dt_mascara_clave_archivo_texto
 * (bits, OR them; 0 is the safe default). Since 3.0.0. */
/* Accept a key anyone can have or guess: the published test key (bytes 0x00, 0x01, ..., 0x1f: the
 * "clave_de_prueba" of fixtures/mascara.json), keys of one byte repeated 32 times (64 zeros, 64 'f'),
 * and since issue 48 the other weak keys: a block of 2 to 16 bytes repeated (deadbeef x 8), bytes
 * counting by a fixed step, fewer than 16 distinct byte values, or one value more than 8 times
 * (docs/enmascarar.md, "What is refused, and why"). A copy masked under such a key is undone by
 * anyone, so they are refused unless this is given: for tests, examples and benchmarks only. */
#define DT_MASCARA_CLAVE_DE_PRUEBA 1u
/* Accept a key file that its group or others may read or write (any of the mode bits 077). Without it
 * such a file is refused: a key readable by every account of the machine is not a secret. */
#define DT_MASCARA_CLAVE_COMPARTIDA 2u
/* The most bytes a key file may hold: 64 hexadecimal digits and one newline fit with room to spare;
 * anything longer is refused before it is read. */
#define DT_MASCARA_CLAVE_ARCHIVO_MAX 128

/* As dt_mascara_clave_new, and then, unless `opciones` has DT_MASCARA_CLAVE_DE_PRUEBA, refuse the
 * published test key and the weak keys of DT_MASCARA_CLAVE_DE_PRUEBA (DT_ERR_INVALID_ARG, a sentence that says which
 * kind of key it is and how to make a real one, never its digits). Other bits of `opciones` are
 * ignored here. dt_mascara_clave_new is this with DT_MASCARA_CLAVE_DE_PRUEBA (it accepts every
 * well-formed key, as before 3.0.0). A key from the environment or from text given by a program goes
 * through this; a key file through dt_mascara_clave_leer. NULL and ownership as dt_mascara_clave_new.
 * Thread-safe. The decoded key bytes on the stack are wiped before return. Since 3.0.0. */
DT_API dt_status dt_mascara_clave_new_opciones(const char *hex, size_t len, unsigned opciones, dt_mascara_clave **out,
                                               char *why, size_t whycap);

/* Read a key file's text into buf (cap >= DT_MASCARA_CLAVE_ARCHIVO_MAX + 1 bytes; NUL-terminated, its
 * length in *len) and check it is a well-formed key (and, without DT_MASCARA_CLAVE_DE_PRUEBA, not a
 * key anyone can have), without building it: for a caller that must hand the text on (datoteca.spark
 * ships it to its tasks). Everything else as dt_mascara_clave_leer, which this is without the build.
 * On any failure buf is wiped (all cap bytes) and *len is 0. DT_ERR_NULL for NULL ruta, buf or len;
 * DT_ERR_BUFFER_TOO_SMALL when cap is under DT_MASCARA_CLAVE_ARCHIVO_MAX + 1 (nothing is opened).
 * The caller wipes buf when done. Thread-safe. Since 3.0.0. */
DT_API dt_status dt_mascara_clave_archivo_texto(const char *ruta, unsigned opciones, char *buf, size_t cap, size_t *len,
                                                char *why, size_t whycap);

/* Build a key from the key file at `ruta` (a NUL-terminated path): the one way every runtime (the CLI,
 * Python, Node, the PostgreSQL extension) reads a key file, so that each refuses the same files with
 * the same sentences. In order:
 *  - open(ruta, O_RDONLY | O_NONBLOCK | O_CLOEXEC). Symbolic links are followed (no O_NOFOLLOW):
 *    mounted secrets (Kubernetes, Docker) are links, and every check below is made with fstat on the
 *    descriptor opened, so it is the file actually read that is judged, whatever the path went
 *    through. O_NONBLOCK so that opening a FIFO with no writer returns at once instead of blocking.
 *  - fstat, and refuse what is not a regular file (a FIFO, a socket, a device, a directory).
 *  - Unless `opciones` has DT_MASCARA_CLAVE_COMPARTIDA, refuse a file whose mode gives its group or
 *    others any permission (mode & 077): chmod 600 (or 400) fixes it.
 *  - Refuse a file longer than DT_MASCARA_CLAVE_ARCHIVO_MAX bytes, then read at most that many.
 *  - Parse as dt_mascara_clave_new_opciones (with `opciones`), then wipe the bytes read.
 * A refusal is DT_ERR_INVALID_ARG (a file that cannot be opened or read too) with one English sentence
 * in `why` (as dt_mascara_clave_new) that says "the key file given", never the path (a key pasted
 * where the path goes must not be printed) nor any byte of the file; the system's reason
 * (strerror) and the file's length or mode may be named. DT_ERR_NULL for NULL ruta or out;
 * DT_ERR_NO_MEMORY. On success *out owns the key (dt_mascara_clave_free); on failure *out is NULL.
 * Thread-safe (uses strerror_r-free wording: the reason is chosen from errno by this function).
 * On Windows the file-type and mode checks are not made (there is no mode & 077 there): the file is
 * read with the same bound and parse. Since 3.0.0. */
DT_API dt_status dt_mascara_clave_leer(const char *ruta, unsigned opciones, dt_mascara_clave **out, char *why,
                                       size_t whycap);

/* The RUT body classes: 1..999,999; DT_RUT_PERSONA_MIN..MAX (1,000,000..29,999,999);
 * 30,000,000..75,999,999; DT_RUT_EMPRESA_MIN..MAX (76,000,000..77,999,999); 78,000,000..89,999,999;
 * DT_RUT_SA_ANTIGUA_MIN..MAX (90,000,000..99,999,999). Every body maps to a body of its own class, by a
 * permutation of that class: stores the class's bounds for `cuerpo` in 1..DT_RUT_CUERPO_MAX (either
 * pointer may be NULL), DT_ERR_INVALID_ARG outside. Pure, thread-safe. */
DT_API dt_status dt_mascara_rut_clase(uint32_t cuerpo, uint32_t *min, uint32_t *max);

/* The masked body of `cuerpo` (1..DT_RUT_CUERPO_MAX, else DT_ERR_INVALID_ARG): a keyed permutation of
 * its class (10-round Feistel network over SipHash-2-4 with cycle-walking, docs/enmascarar.md), so
 * distinct bodies never collide and every image lies in the same class. DT_ERR_NULL for NULL k or out.
 * The _inversa function is its inverse: dt_mascara_rut_cuerpo_inversa(k, masked) == cuerpo. */
DT_API dt_status dt_mascara_rut_cuerpo(const dt_mascara_clave *k, uint32_t cuerpo, uint32_t *out);
DT_API dt_status dt_mascara_rut_cuerpo_inversa(const dt_mascara_clave *k, uint32_t cuerpo, uint32_t *out);

/* Mask a RUT as written (`len` bytes at `in`, read as dt_rut_leer reads it): its body masked as
 * dt_mascara_rut_cuerpo, its check digit recomputed, and its surface form kept: the whitespace around
 * it byte for byte, dots (every group of three) if it had any, the dash it had (none, '-', or the same
 * pasted Unicode dash), and a lower-case 'k' when the input's check digit was 'k' and the output's is
 * K (otherwise 'K'). Text out as everywhere; the output is at most len + 6 bytes (a body below
 * 1,000,000 may gain up to five digits, a persona body one; the other classes keep their digits). A text that is not a valid RUT is
 * DT_ERR_INVALID_RUT with a sentence in `why` naming what is wrong ("rut: the check digit does not
 * match the body") without repeating the value, and buf[0] = '\0' when cap > 0. DT_ERR_NULL for NULL
 * k, or NULL in with len > 0 (with its sentence). `why` as dt_mascara_clave_new ("" on success). `in` and
 * `buf` must not overlap. Thread-safe. */
DT_API dt_status dt_mascara_rut(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                size_t *out_len, char *why, size_t whycap);
/* The inverse: a RUT masked with `k` back to the original, in the same form. */
DT_API dt_status dt_mascara_rut_inversa(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                        size_t *out_len, char *why, size_t whycap);

/* ---- a consistent fake persona per entity ---- */

/* The fake persona that the masked RUT body `cuerpo_enmascarado` (1..DT_RUT_CUERPO_MAX, else
 * DT_ERR_INVALID_ARG) stands for (docs/enmascarar.md, "The persona of an entity"): seed =
 * SipHash-2-4 under the first 16 bytes of BLAKE2s-256(key, "datoteca/persona/v1") of the body as an
 * 8-byte little-endian word; then dt_new(seed), dt_set_hoy(2026, 1, 1) and
 * dt_persona_persona(g, DT_SEXO_CUALQUIERA, 18, 80); its `rut` is then the masked RUT, "NNNNNNNN-D"
 * (no dots). The same key and body give the same persona everywhere. DT_ERR_NULL for NULL k or out.
 * Pure, thread-safe. */
DT_API dt_status dt_mascara_persona(const dt_mascara_clave *k, uint32_t cuerpo_enmascarado, dt_persona *out);

/* The persona of dt_mascara_persona with its sex given: dt_persona_persona(g, sexo, 18, 80) under the
 * same seed and reference date. DT_SEXO_CUALQUIERA is exactly dt_mascara_persona; DT_SEXO_F and
 * DT_SEXO_M give another persona of that sex (docs/enmascarar.md, "The persona of an entity"). A
 * sexo outside dt_sexo is DT_ERR_INVALID_ARG. Pure, thread-safe. Since 2.1.0. */
DT_API dt_status dt_mascara_persona_sexo(const dt_mascara_clave *k, uint32_t cuerpo_enmascarado, dt_sexo sexo,
                                         dt_persona *out);
/* Read an original sex column's value: after trimming ASCII whitespace, and ignoring ASCII case, "f",
 * "femenino" and "mujer" are DT_SEXO_F, "m", "masculino" and "hombre" DT_SEXO_M; anything else
 * (empty too) is DT_ERR_INVALID_ARG with *out = DT_SEXO_CUALQUIERA. DT_ERR_NULL for NULL out or NULL
 * s with len > 0. Pure, thread-safe. */
DT_API dt_status dt_mascara_sexo_leer(const char *s, size_t len, dt_sexo *out);

/* ---- the value rules: dates, amounts, substitution ---- */

#define DT_MASCARA_FECHA_DIAS_MAX 3650      /* the largest shift of the rule fecha, in days */
#define DT_MASCARA_MONTO_PORCENTAJE_MAX 90  /* the largest perturbation of the rule monto, in percent */

/* Shift a date by a keyed offset in {-dias..-1, 1..dias} (dias 1..DT_MASCARA_FECHA_DIAS_MAX, else
 * DT_ERR_INVALID_ARG): docs/enmascarar.md, "fecha", gives the exact derivation. `entidad` is the
 * masked RUT body of the row's entity (1..DT_RUT_CUERPO_MAX): every date of one entity moves by one
 * offset, so its intervals hold across rows and columns; 0 keys the offset by the date itself (the
 * same date moves the same way everywhere, intervals do not hold). `in` is exactly YYYY-MM-DD,
 * DD-MM-YYYY or DD/MM/YYYY of a real day of the years 0001..9999, and the output has its form. A
 * text that is not such a date, or whose shift leaves those years, is DT_ERR_INVALID_ARG with a
 * sentence in `why` that never repeats it. Text out as dt_mascara_rut (the output is 10 bytes);
 * DT_ERR_NULL for NULL k, or NULL in/buf with a length. Pure, thread-safe. With an entidad this is
 * the rule's `conserva = "intervalos"` form, which links a person's rows through their intervals;
 * the rule's default draws per cell and generalises (docs/enmascarar.md, "How much each option
 * links"), through dt_mascara_plan. */
DT_API dt_status dt_mascara_fecha(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad, int32_t dias,
                                  char *buf, size_t cap, size_t *out_len, char *why, size_t whycap);
/* Scale an integer amount by a keyed factor (10000 + f) / 10000, f basis points in {-100p..-1,
 * 1..100p} for porcentaje p (1..DT_MASCARA_MONTO_PORCENTAJE_MAX, else DT_ERR_INVALID_ARG), rounded
 * half up and held within [ceil(v(100-p)/100), floor(v(100+p)/100)] of the magnitude v
 * (docs/enmascarar.md, "monto"). `entidad` as dt_mascara_fecha (0: keyed by v). `in` is an optional
 * '-', an optional '$' (and one space after it), then digits ("1234567") or groups of three with
 * dots ("1.234.567"), no leading zero, at most 14 digits; the prefix is kept byte for byte and the
 * digits written in the input's way (dots if it had any). Anything else is DT_ERR_INVALID_ARG with a
 * sentence that never repeats it. Text out as dt_mascara_rut (under 32 bytes); DT_ERR_NULL as
 * dt_mascara_fecha. Pure, thread-safe. With an entidad this is the rule's `conserva = "proporciones"`
 * form, which links a person's rows through their ratios; the rule's default draws per cell and keeps
 * 2 significant digits, through dt_mascara_plan. */
DT_API dt_status dt_mascara_monto(const dt_mascara_clave *k, const char *in, size_t len, uint32_t entidad,
                                  int32_t porcentaje, char *buf, size_t cap, size_t *out_len, char *why, size_t whycap);
/* The value that call `llamada` (an index of dt_call_find whose kind is DT_KIND_TEXT, else
 * DT_ERR_INVALID_ARG) gives, with its defaults, from dt_new(seed) and the reference date 2026-01-01,
 * seed = SipHash-2-4 under the first 16 bytes of BLAKE2s-256(key, "datoteca/sustituir/v1") of the
 * value normalized (ASCII whitespace trimmed and its inner runs made one space; A-Z and the Latin-1
 * capitals lowered): the same value gives the same output everywhere; two values may give the same
 * output (docs/enmascarar.md, "sustituir"). Text out as dt_mascara_rut (under DT_MAX_TEXT bytes);
 * DT_ERR_NULL as dt_mascara_fecha; DT_ERR_NO_MEMORY. Pure, thread-safe. */
DT_API dt_status dt_mascara_sustituir(const dt_mascara_clave *k, size_t llamada, const char *in, size_t len, char *buf,
                                      size_t cap, size_t *out_len, char *why, size_t whycap);
/* ---- emails, phones, plates and free text, value-keyed (docs/enmascarar.md) ---- */

/* These mask a value by the value alone (no entity): the same key and value give the same output in
 * every column, text, table and run. The text conventions are dt_mascara_rut's: `len` bytes at `in`
 * (NULL only with len 0), the output NUL-terminated in buf (cap bytes, *out_len its length without
 * the NUL, out_len may be NULL), DT_ERR_BUFFER_TOO_SMALL with the needed length when it does not fit,
 * buf[0] = '\0' on any failure when cap > 0; the whitespace around the value kept byte for byte;
 * DT_ERR_NULL for NULL k, NULL in with len > 0, or NULL buf with cap > 0; `why` (NULL or whycap 0
 * for none) gets one sentence naming what is wrong, never a byte of the value ("" on success). `in`
 * and `buf` must not overlap. Pure functions of the key and the value: thread-safe. Since 2.1.0. */

/* An email address: local@domain, the local part 1 to 64 bytes of ASCII letters, digits and . _ % + -,
 * the domain 2 or more labels of letters, digits and hyphens (1 to 63 bytes each, 253 in all) whose last
 * is 2 or more letters; else DT_ERR_INVALID_ARG ("email: it has no '@'"). The output is always 37
 * bytes (and the whitespace): 16 characters of RFC 4648 base32 (a-z, 2-7) of BLAKE2s-256 keyed with
 * BLAKE2s-256(key, "datoteca/email/v1") over the address in ASCII lower case, '@', 8 of the same
 * over the lower-cased domain, ".example.com" (reserved by RFC 2606: no one's mailbox). Case does
 * not matter (Ana@X.cl and ana@x.cl give one output); one domain gives one masked domain. Not a
 * permutation: two addresses share an output with probability 2^-80. */
DT_API dt_status dt_mascara_email(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                  size_t *out_len, char *why, size_t whycap);

/* A Chilean phone as written: 9 digits (or +56 / 56 and 9, or the trunk 0 and 9), with spaces, '-',
 * '.', '(' and ')' anywhere and one '+' before the first digit: a mobile (9 + 8), Santiago (2 + 8) or
 * an area code of a comuna + 7; else DT_ERR_INVALID_ARG. Only the subscriber digits change, by a keyed
 * permutation of the kind's numbers (the Feistel network of the RUT, under BLAKE2s-256(key,
 * "datoteca/telefono/v1")): the numbers the library generates (the mobile blocks libphonenumber
 * accepts, Santiago 2 2XXX XXXX, an area's AA 2XX XXXX) among themselves, the others among
 * themselves; every other byte is kept, so the output has the input's length and form. Distinct
 * numbers never collide. The _inversa function undoes it. */
DT_API dt_status dt_mascara_telefono(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                     size_t *out_len, char *why, size_t whycap);
DT_API dt_status dt_mascara_telefono_inversa(const dt_mascara_clave *k, const char *in, size_t len, char *buf,
                                             size_t cap, size_t *out_len, char *why, size_t whycap);

/* A plate as dt_patente_leer reads it (LLLL·NN, LLL·NN, LL·NNNN; '·', '.', '-' or nothing between;
 * a check digit if given must be right; else DT_ERR_INVALID_PATENTE): a plate of the same format, by a
 * keyed permutation of that format's plates (under BLAKE2s-256(key, "datoteca/patente/v1")), each
 * letter's case and every separator kept, a given check digit recomputed. Same length as the input.
 * The _inversa function undoes it. */
DT_API dt_status dt_mascara_patente(const dt_mascara_clave *k, const char *in, size_t len, char *buf, size_t cap,
                                    size_t *out_len, char *why, size_t whycap);
DT_API dt_status dt_mascara_patente_inversa(const dt_mascara_clave *k, const char *in, size_t len, char *buf,
                                            size_t cap, size_t *out_len, char *why, size_t whycap);

/* One value masked as the value rule `regla` masks a column's (docs/enmascarar.md, "The rules"): "email",
 * "telefono", "patente", "texto" (every kind), "formato", "ip", "coordenada" or "imagen". The rules read
 * more than the functions above and write where nobody answers: "email" takes Unicode addresses,
 * "telefono" a foreign number and writes a Chilean one nobody holds (dt_mascara_telefono's number with its
 * subscriber part starting with 0; a regional one in Santiago's 2 0 block). Arguments, buffers and
 * refusals as dt_mascara_email; `regla` NULL is DT_ERR_NULL, another name DT_ERR_INVALID_ARG. Pure,
 * thread-safe. Since 3.0.0. */
DT_API dt_status dt_mascara_regla(const dt_mascara_clave *k, const char *regla, const char *in, size_t len, char *buf,
                                  size_t cap, size_t *out_len, char *why, size_t whycap);

/* What dt_mascara_texto looks for: a union of these. */
#define DT_MASCARA_BUSCAR_RUT 1u
#define DT_MASCARA_BUSCAR_EMAIL 2u
#define DT_MASCARA_BUSCAR_TELEFONO 4u
#define DT_MASCARA_BUSCAR_PATENTE 8u
#define DT_MASCARA_BUSCAR_NOMBRE 16u    /* names in prose (since 3.0.0) */
#define DT_MASCARA_BUSCAR_DIRECCION 32u /* street addresses (since 3.0.0) */
#define DT_MASCARA_BUSCAR_TODO 63u      /* 15 before 3.0.0: a texto rule without buscar now finds names and addresses */

/* Free text: every RUT, email, phone and plate of the kinds in `buscar` found in `in` (by the grammar of
 * docs/enmascarar.md, "What texto finds") is replaced by exactly what dt_mascara_rut, _email,
 * _telefono and _patente give for it (for a spelling the rule does not read, `12345678 5`,
 * `BB-CL-23`, a mistyped check digit after a dash or a label: for its normal form, a plate written
 * back in the note's shape); with DT_MASCARA_BUSCAR_NOMBRE, names in prose (the library's given-name
 * and surname tables, after an honorific or two in a row) become keyed fake names of the same shape;
 * with _DIRECCION, street addresses a keyed fake street and numbers ("Names in texto", "Addresses in
 * texto"). Every other byte is copied as it is. Any bytes are accepted (invalid UTF-8 and NUL bytes
 * start no token); linear time. The output is at most 7 * len bytes (an email of 6 bytes becomes 37).
 * DT_ERR_INVALID_ARG only for `buscar` 0 or with other bits. */
DT_API dt_status dt_mascara_texto(const dt_mascara_clave *k, unsigned buscar, const char *in, size_t len, char *buf,
                                  size_t cap, size_t *out_len, char *why, size_t whycap);

/* ---- the rules document and a masking plan ---- */

/* A rules document (docs/enmascarar.md, "The rules"): `version = 1`, `[columnas]` with a rule per
 * column (rut, persona, mantener, nulo, borrar; fecha, monto, sustituir), optional `[politica]` (invalido = "error" | "nulo" |
 * "invalido"; sin_regla = "error" | "mantener"). Immutable once built: may be shared by threads. */
typedef struct dt_mascara_reglas dt_mascara_reglas;
#define DT_MASCARA_TOML 1
#define DT_MASCARA_JSON 2

/* Parse and check `len` bytes of TOML (formato DT_MASCARA_TOML) or JSON (DT_MASCARA_JSON) naming
 * `archivo` in every sentence (NULL: "<document>"; copied). DT_OK: *out owns the rules (free with
 * dt_mascara_reglas_free). DT_ERR_INVALID_ARG: refused, *out NULL, one sentence in `why` starting
 * "<archivo>:<line>: " and naming the column ("reglas.toml:7: columnas.notas: the rule texto is not
 * built yet ..."). DT_ERR_NULL for NULL out or NULL texto with len > 0; DT_ERR_NO_MEMORY. `why` with
 * snprintf semantics, under DT_SENTENCE_MAX bytes, may be NULL/0. The text may be freed on return. */
DT_API dt_status dt_mascara_reglas_new(const char *texto, size_t len, int formato, const char *archivo,
                                       dt_mascara_reglas **out, char *why, size_t whycap);
DT_API void dt_mascara_reglas_free(dt_mascara_reglas *r); /* NULL is a no-op */
/* One table's rules from a database's rules document (docs/copia.md: `version = 1`, optional
 * `[politica]`, and `[tablas.<name>.columnas]` per table, what `datoteca detectar URL` writes): the
 * columnas of `tabla` (`tablalen` bytes, matched exactly: "clientes", "ventas.facturas") with the
 * document's politica. Every table of the document is checked, whichever is asked for; a document
 * without `tabla` is refused (DT_ERR_INVALID_ARG, "tablas has no table '<tabla>': ...": no table is
 * masked by assumed rules), as is an empty tabla. DT_ERR_NULL for NULL out or tabla, or NULL texto with
 * len > 0. Everything else (ownership, sentences, `why`) as dt_mascara_reglas_new. Since 3.0.0. */
DT_API dt_status dt_mascara_reglas_tabla_new(const char *texto, size_t len, int formato, const char *archivo,
                                             const char *tabla, size_t tablalen, dt_mascara_reglas **out, char *why,
                                             size_t whycap);

/* The rules bound to an input's header and a key: what a masking run applies one row at a time.
 * A plan holds per-row buffers: one thread at a time (one plan per thread; the rules and the key may
 * be shared). `r` and `k` must outlive the plan. */
typedef struct dt_mascara_plan dt_mascara_plan;

/* Bind `r` and `k` to the header: `n` column names (`columnas[i]`, `largos[i]` bytes). Refused
 * (DT_ERR_INVALID_ARG, sentence in why, *out NULL): two columns with one name; a column with no rule
 * (unless [politica] sin_regla = "mantener"); a rule, or an entidad, naming a column the header does
 * not have (a rut's dv column too, which takes no rule of its own); a header field with no rule that
 * looks like a value (a CSV without its header line: the sentence does not print it). DT_ERR_NULL for NULL r, k, out, or columnas/largos with n > 0; DT_ERR_NO_MEMORY. */
DT_API dt_status dt_mascara_plan_new(const dt_mascara_reglas *r, const dt_mascara_clave *k, size_t n,
                                     const char *const *columnas, const size_t *largos, dt_mascara_plan **out,
                                     char *why, size_t whycap);
DT_API void dt_mascara_plan_free(dt_mascara_plan *p); /* NULL is a no-op */
/* The output's columns (the input's, in order, without those whose rule is borrar): their count, and
 * the name of output column i (its bytes, *len; NULL when i is out of range). */
DT_API size_t dt_mascara_plan_ncolumnas(const dt_mascara_plan *p);
DT_API const char *dt_mascara_plan_columna(const dt_mascara_plan *p, size_t i, size_t *len);
/* Mask one row: `n` values (n must be the header's count, else DT_ERR_INVALID_ARG) of data row `fila`
 * (the number sentences give it). DT_OK: dt_mascara_plan_valor gives the output values until the next
 * call. DT_ERR_INVALID_ARG: a value a rule cannot read under [politica] invalido = "error", with
 * "row N, column C: ..." in why, never the value. DT_ERR_NO_MEMORY. A texto column is masked after the
 * row's other columns: the row's own name, email or phone in it (of persona and sustituir columns)
 * becomes the row's masked value (docs/enmascarar.md, "The row's own values in texto"). */
DT_API dt_status dt_mascara_plan_fila(dt_mascara_plan *p, uint64_t fila, size_t n, const char *const *valores,
                                      const size_t *largos, char *why, size_t whycap);
/* Output value i of the last row masked (i < dt_mascara_plan_ncolumnas): bytes (not NUL-terminated) and
 * *len, NULL when out of range. An emptied value is "" (length 0). A masked value lives in the plan until
 * the next dt_mascara_plan_fila or free; a kept one (mantener) points into the caller's `valores`, so it
 * lives as long as they do. */
DT_API const char *dt_mascara_plan_valor(const dt_mascara_plan *p, size_t i, size_t *len);

/* ---- proposing rules from a sample: what `datoteca detectar` prints ---- */

/* Counts, per column of a sample, how many non-empty values look like each kind of personal data
 * (dt_util "detectar": rut, email, telefono, patente, fecha, comuna, nombre_completo, nombre,
 * apellido, texto), and proposes one masking rule per column from them (docs/enmascarar.md, "Finding
 * the personal data"). It keeps the column names and integer counts only, never a value. One thread
 * at a time per detector. Since 2.1.0. */
typedef struct dt_detector dt_detector;

/* A detector for `n` columns named columnas[i] (largos[i] bytes; names are copied). DT_ERR_NULL for
 * NULL out, or NULL columnas/largos with n > 0; DT_ERR_NO_MEMORY; DT_ERR_INVALID_ARG (and *out NULL)
 * when a name looks like a value rather than a column's name (a number, a RUT, an email, a phone, a
 * plate, a date, a full name: a CSV without its header line), so no value reaches the proposed rules.
 * Free with dt_detector_free. */
DT_API dt_status dt_detector_new(size_t n, const char *const *columnas, const size_t *largos, dt_detector **out);
DT_API void dt_detector_free(dt_detector *d); /* NULL is a no-op */
/* Count one row: `n` values (the detector's column count, else DT_ERR_INVALID_ARG and nothing
 * counted); a NULL value (with any length) or a length of 0 is empty and counted as such.
 * DT_ERR_NULL for NULL d, or NULL valores/largos with n > 0. The values may be freed on return. */
DT_API dt_status dt_detector_fila(dt_detector *d, size_t n, const char *const *valores, const size_t *largos);
/* The rows counted so far (0 for NULL). */
DT_API uint64_t dt_detector_filas(const dt_detector *d);
/* What a database declares column j (0: nothing said, the default): DT_DETECTOR_TIMESTAMP, a timestamp
 * type: a column whose values are mostly dates with a time is proposed a fake timestamp per value
 * (`sustituir` with `fecha.fecha_hora`); DT_DETECTOR_UUID, the uuid type: a generated identifier,
 * proposed `mantener` as integer keys are, unless its values show names, prose or data among words;
 * DT_DETECTOR_NUMERO (integer, numeric, decimal, money), DT_DETECTOR_TEXTO, DT_DETECTOR_BINARIO (BLOB,
 * bytea), DT_DETECTOR_FECHA (date), DT_DETECTOR_BOOLEANO: a proposal never writes what the type
 * refuses, and a column with nothing sampled is proposed by its type and name (docs/enmascarar.md,
 * "Private by default"). Set before dt_detector_reglas. DT_ERR_NULL for NULL d; DT_ERR_INVALID_ARG for
 * j out of range or another tipo. Since 3.0.0 (NUMERO to BOOLEANO since 3.0.0's fugas work). */
#define DT_DETECTOR_TIMESTAMP 1
#define DT_DETECTOR_UUID 2
#define DT_DETECTOR_NUMERO 3
#define DT_DETECTOR_TEXTO 4
#define DT_DETECTOR_BINARIO 5
#define DT_DETECTOR_FECHA 6
#define DT_DETECTOR_BOOLEANO 7
DT_API dt_status dt_detector_tipo(dt_detector *d, size_t j, int tipo);
/* What the database's constraints say of column j (0 by default): DT_DETECTOR_NO_NULO, NOT NULL (the
 * proposal is never `nulo`); DT_DETECTOR_UNICO, part of a PRIMARY KEY or UNIQUE constraint (the
 * proposal keeps distinct values distinct: a bijection, `formato`, or `mantener` said in its comment,
 * never per-cell noise); DT_DETECTOR_CHECK, named in a CHECK constraint (no per-cell noise that could
 * leave the range it allows: kept, and the comment says to review it). Set before dt_detector_reglas.
 * DT_ERR_NULL for NULL d; DT_ERR_INVALID_ARG for j out of range or another bit. Since 3.0.0. */
#define DT_DETECTOR_NO_NULO 1u
#define DT_DETECTOR_UNICO 2u
#define DT_DETECTOR_CHECK 4u
DT_API dt_status dt_detector_restricciones(dt_detector *d, size_t j, unsigned restricciones);
/* One CHECK constraint of the table, as its database writes it (`CHECK (monto_total = monto_neto +
 * monto_exento + iva)`, `neto BETWEEN 1000 AND 900000`; copied, not kept): a CHECK that binds one
 * column to a sum or difference of others makes that column `{ regla = "suma", de = [...], menos =
 * [...] }` (computed from their masked values, so the CHECK holds and the free columns are masked);
 * any other marks every column it names DT_DETECTOR_CHECK (see dt_detector_restricciones, which keeps
 * that mark). Call before dt_detector_reglas, once per CHECK. DT_ERR_NULL for a NULL d or texto;
 * DT_ERR_NO_MEMORY. Since 3.0.0. */
DT_API dt_status dt_detector_check(dt_detector *d, const char *texto);
/* Column j of d is a FOREIGN KEY to column k of `padre` (another table's detector, or d itself), called
 * `referencia` in the comment ("clientes.rut"; copied). When padre's proposal for k masks by the value
 * alone (rut, email, telefono, patente, sustituir, derivado without de, mantener, nulo, texto), column j
 * is proposed that same rule, so the same value masks the same in both tables and the join holds; when
 * it needs a column of its own row (persona, an entidad, de, dv), j keeps its own proposal and its
 * comment says to review it. `padre` must outlive d's last dt_detector_reglas*. DT_ERR_NULL for a NULL
 * pointer; DT_ERR_INVALID_ARG for j or k out of range; DT_ERR_NO_MEMORY. Since 3.0.0. */
DT_API dt_status dt_detector_seguir(dt_detector *d, size_t j, const dt_detector *padre, size_t k, const char *referencia);
/* The proposal as a TOML rules document with a comment per column (its counts), headed
 * "# datoteca detectar <origen>: N records read, M columns." (origen NULL: "<sample>"). Text out as
 * everywhere (DT_ERR_BUFFER_TOO_SMALL with the size in *len). Deterministic: the same counts give the
 * same bytes. DT_ERR_NULL for NULL d; DT_ERR_NO_MEMORY. */
DT_API dt_status dt_detector_reglas(const dt_detector *d, const char *origen, char *buf, size_t cap, size_t *len);
/* One table's part of a database rules document (docs/copia.md): the same rules as dt_detector_reglas
 * under `[tablas.<tabla>.columnas]` (the name quoted when TOML needs it: "ventas.facturas"), with a
 * comment of the rows sampled, and no head or version (the caller writes those once). DT_ERR_NULL for
 * NULL d or NULL tabla; DT_ERR_INVALID_ARG for an empty tabla. Text out and determinism as
 * dt_detector_reglas. Since 3.0.0. */
DT_API dt_status dt_detector_reglas_tabla(const dt_detector *d, const char *tabla, char *buf, size_t cap, size_t *len);
/* ---- the risk report of a masked output: what `datoteca riesgo` prints ---- */

/* An accumulator of the re-identification risk left in a masked table (docs/enmascarar.md, "Measuring
 * the risk: datoteca riesgo"): k-anonymity over named quasi-identifiers (PostgreSQL Anonymizer's
 * k_anonymity, ARX's sample risks), the linkage rate of a pair of columns an attacker knows from the
 * original, and the values of the original's personal columns found anywhere in the masked table.
 * Counts only, integers only; the report never holds a data value, only column names and numbers.
 * Memory: one entry per distinct quasi-identifier tuple, per distinct generalised linkage pair (of
 * either file), and per distinct value of the personal columns; nothing per row. One thread at a time
 * per accumulator. Since 3.0.0. */
typedef struct dt_riesgo dt_riesgo;

/* How the attacker matches the pair of linkage columns: the two values as generalised (equal), the
 * second minus the first (a date's days, an amount's units: what an entity-wide shift keeps), or the
 * second over the first in thousandths (two amounts: what an entity-wide factor keeps, up to rounding). */
#define DT_RIESGO_IGUAL 0
#define DT_RIESGO_DIFERENCIA 1
#define DT_RIESGO_RAZON 2

/* A new accumulator. Each column is named as "name" or, for the quasi-identifiers and the linkage
 * columns of DT_RIESGO_IGUAL, "name:anio" (a date to its year), "name:mes" (to its month) or "name:N"
 * (an amount to the bucket of width N it falls in, N > 0); the names are copied. nqi and npersonales
 * up to 64; nenlace 0 or 2. Refused (DT_ERR_INVALID_ARG, a sentence in why naming the column as
 * given): an empty name, a generalisation where the mode takes none, counts out of range, an unknown
 * modo. DT_ERR_NULL for NULL out or a NULL list or name with a count; DT_ERR_NO_MEMORY. *out NULL on
 * failure; free with dt_riesgo_free. `why` with snprintf semantics, may be NULL/0. */
DT_API dt_status dt_riesgo_new(size_t nqi, const char *const *qi, size_t nenlace, const char *const *enlace, int modo,
                               size_t npersonales, const char *const *personales, dt_riesgo **out, char *why, size_t whycap);
DT_API void dt_riesgo_free(dt_riesgo *r); /* NULL is a no-op */
/* Bind the masked table's header (n names) and the original's (norig names; columnas_orig NULL: no
 * original, which the linkage columns and the personal columns need). Refused (DT_ERR_INVALID_ARG) when
 * a named column is not in the header it must be in; the sentence names the column as the caller gave
 * it, never a header cell; and the report names a masked column by its header only when the original's
 * header has that name too, else as "#N" (its position from 1), so the cells of a file without its
 * header line never reach it. DT_ERR_INVALID_STATE when called twice. The names are copied. */
DT_API dt_status dt_riesgo_columnas(dt_riesgo *r, size_t n, const char *const *columnas, const size_t *largos,
                                    size_t norig, const char *const *columnas_orig, const size_t *largos_orig,
                                    char *why, size_t whycap);
/* One row of the original (its header's count of values, else DT_ERR_INVALID_ARG): its personal
 * columns' values become the needles searched for in the masked rows. Every original row goes before
 * the first dt_riesgo_fila (else DT_ERR_INVALID_STATE). A NULL value is empty. The values may be freed
 * on return. */
DT_API dt_status dt_riesgo_original(dt_riesgo *r, size_t n, const char *const *valores, const size_t *largos,
                                    char *why, size_t whycap);
/* One masked row (n values, the masked header's count) and, when an original was bound, the original
 * row it was masked from (norig values; originales NULL only when no linkage columns were named):
 * counted into its class, its linkage pair, and searched for the needles. DT_ERR_INVALID_ARG for a
 * wrong count ("masked row N has ..."), DT_ERR_NO_MEMORY. A NULL value is empty. */
DT_API dt_status dt_riesgo_fila(dt_riesgo *r, size_t n, const char *const *valores, const size_t *largos, size_t norig,
                                const char *const *originales, const size_t *largos_orig, char *why, size_t whycap);
/* The masked rows counted so far (0 for NULL). */
DT_API uint64_t dt_riesgo_filas(const dt_riesgo *r);
/* The report as one line of JSON (keys in a fixed order, integers only, rates as {"n","de","por_mil"},
 * the per-mille rounded half up), `tabla` naming the table in it (NULL: "entrada"); or as English text
 * for a person (_texto). Text out as everywhere. Deterministic: the same rows in any order give the
 * same bytes. DT_ERR_NULL for NULL r; DT_ERR_NO_MEMORY. The accumulator may take more rows after. */
DT_API dt_status dt_riesgo_informe_json(const dt_riesgo *r, const char *tabla, char *buf, size_t cap, size_t *len);
DT_API dt_status dt_riesgo_informe_texto(const dt_riesgo *r, const char *tabla, char *buf, size_t cap, size_t *len);
/* ---- masking Arrow record batches ---- */

/* The plan of Arrow record batches whose schema is `esquema` (a struct, "+s", of text children: utf8,
 * large_utf8 or utf8_view): dt_mascara_plan_new with the children's names as the header. A child of
 * another type (an integer, a date, a dictionary) is refused naming the column (DT_ERR_INVALID_ARG,
 * "enmascarar: column c is Arrow type \"l\", not text: ..."): cast it to a string first; the rules
 * read text, as the CLI's CSV is. Otherwise as dt_mascara_plan_new (DT_ERR_NULL for NULL r, k, esquema
 * or out). `esquema` is only read (the caller keeps and releases it; it need not outlive the plan).
 * Thread-safe: it only reads r, k and esquema. Since 2.1.0. */
DT_API dt_status dt_mascara_plan_arrow(const dt_mascara_reglas *r, const dt_mascara_clave *k, const struct ArrowSchema *esquema,
                                       dt_mascara_plan **out, char *why, size_t whycap);
/* The schema of the masked batches: a struct of dt_mascara_plan_columna's columns in order (borrar
 * drops), each utf8 and nullable. DT_ERR_NULL for NULL p or out, DT_ERR_NO_MEMORY (out->release NULL);
 * `out` owns its memory (it may outlive the plan). The _new form is malloc'd (NULL on failure), for
 * dt_arrow_schema_free. Reads only the plan's fixed column names. */
DT_API dt_status dt_mascara_arrow_schema(const dt_mascara_plan *p, struct ArrowSchema *out);
DT_API struct ArrowSchema *dt_mascara_arrow_schema_new(const dt_mascara_plan *p);
/* Mask one record batch (`lote`, of schema `esquema`, whose children are the header `p` was bound
 * to; both only read, and still the caller's to release) into a new batch `out` of
 * dt_mascara_arrow_schema's columns, which owns its memory. Row r of the batch is masked as
 * dt_mascara_plan_fila(p, primera + r, ...): `primera` is the number sentences give the batch's first
 * row (1 for the first of a table, as the CLI counts data rows; add the rows of earlier batches).
 * Nulls: a null goes into the rules as "" (the CLI's empty field, so an entity that is null has no
 * persona, as an empty one), and comes out null whatever the rule; a non-empty value that its rule
 * empties (nulo, politica.invalido = "nulo") comes out null; every other value as the plan gives it
 * (an empty string stays ""). So the batch written as CSV (a null as an empty field) is the CLI's
 * output for the same rows. DT_ERR_INVALID_ARG: a value refused under politica.invalido = "error",
 * with dt_mascara_plan_fila's "row N, column C: ..." (never the value); a child that is not text, a
 * batch that does not match the schema or the plan, or a masked column over 2 GiB in one batch.
 * DT_ERR_NULL for NULL p, esquema, lote or out; DT_ERR_NO_MEMORY. On failure out->release is NULL and
 * no row is given. `why` as everywhere in this section. The buffers' contents are trusted as every C
 * Data Interface consumer trusts them (offsets and views within their buffers); their presence, the
 * row counts and the types are checked. One thread at a time per plan, as dt_mascara_plan_fila (many
 * threads: one plan each, the rules and the key shared). */
DT_API dt_status dt_mascara_arrow_lote(dt_mascara_plan *p, const struct ArrowSchema *esquema, const struct ArrowArray *lote,
                                       uint64_t primera, struct ArrowArray *out, char *why, size_t whycap);

#ifdef __cplusplus
}
#endif

#endif /* DATOTECA_H */
