/* The CLI's internal header: what cli.c (plain calls) and cli_tabla.c (datoteca tabla) share with
 * cli_comun.c, the output buffer with its JSON and CSV escaping and the argument parsing.
 *
 * These files are compiled into libdatoteca, which exports only dt_cli_main; everything here is
 * therefore prefixed dt__cli_ (hidden in the shared library, and out of a C user's namespace when the
 * static archive is linked), and whatever one file alone uses is static in it. The one exception is
 * cli/cli_sqlite.c, which links SQLite and so goes into the datoteca program only (with main.c).
 *
 * No function here keeps a pointer it was given beyond the call, except where it says so; none takes
 * NULL where a pointer is asked for. Errors for the user are printed on stderr by the function that
 * finds them, so a caller only propagates the exit status (2: bad arguments). */
#ifndef DT_CLI_INTERNO_H
#define DT_CLI_INTERNO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_progreso.h"
#include "datoteca.h"

/* Output assembled in memory: written to `f` whenever it fills when `f` is set (the sequential
 * mode), grown instead when it is NULL (a --jobs worker's block). A failed write sets `error`
 * and later writes are dropped: the caller checks it and exits non-zero, never losing data silently.
 * The buffer owns `data`; `f` stays the caller's. One outbuf belongs to one thread at a time: the
 * --jobs workers each fill their own, and only the main thread writes to a FILE. */
typedef struct outbuf {
    char *data, *p, *end;
    FILE *f;
    int error;
} outbuf;

/* 0 on success; 1 when `cap` bytes could not be allocated, and then dt__cli_ob_free is still safe. */
int dt__cli_ob_init(outbuf *o, size_t cap, FILE *f);
/* Frees `data` (not `f`, and without flushing: call dt__cli_ob_flush first to keep the bytes). */
void dt__cli_ob_free(outbuf *o);
/* Writes what is buffered to `f`, when there is one; a block (f NULL) keeps its bytes. */
void dt__cli_ob_flush(outbuf *o);
/* Append bytes. Running out of memory while growing a block ends the process with a message:
 * a half-written dataset is worse than none. */
void dt__cli_ob_put(outbuf *o, const char *s, size_t n);
void dt__cli_ob_putc(outbuf *o, char c);
/* Room for n more bytes at the returned pointer (o->p): the caller stores up to n bytes there and then
 * moves o->p past them. For a stream (f set) this may write out what is buffered first. */
char *dt__cli_ob_reservar(outbuf *o, size_t n);
/* `s[0..n)` as a quoted JSON string (control characters as \u00XX; `s` need not be NUL-terminated). */
void dt__cli_json_string(outbuf *o, const char *s, size_t n);
/* A CSV cell: quoted when it holds a comma, a quote or a line break. `vacio_entre_comillas`
 * writes an empty text as "" so that PostgreSQL's COPY reads it as empty, not NULL. */
void dt__cli_csv_field(outbuf *o, const char *s, size_t n, int vacio_entre_comillas);
/* enmascarar --csv-seguro (cli_csv_seguro.c): 1 when a spreadsheet would run the cell as a formula;
 * the cell as dt__cli_csv_field, or, when `seguro` and it is one, as "'cell" (quotes doubled). With a
 * `separador` other than ',' (enmascarar --separador), a cell is quoted when it holds that byte, a quote
 * or a line break (a ',' then needs no quotes). */
int dt__cli_csv_formula(const char *s, size_t n);
/* --separador's value (detectar, enmascarar): ",", ";", "tab" (or a tab byte) or "|" into *sep: 0, or 2
 * with a sentence on stderr naming the option, never the value. */
int dt__cli_separador(const char *v, const char *comando, int *sep);
void dt__cli_csv_field_seguro(outbuf *o, const char *s, size_t n, int seguro, char separador);
/* The same JSON string at d, which has room for 6n + 2 bytes; returns the end. */
char *dt__cli_json_texto(char *d, const char *s, size_t n);
/* A whole CSV line of `ncol` cells (ini[j], largo[j]) at d, '\n' included, each as dt__cli_csv_field
 * writes it; a null cell (nulo[j] set; nulo may be NULL) is written as nothing. d has room for
 * 2 * (the texts' lengths) + 3 * ncol + 1 bytes; returns the end. These two and the outbuf functions
 * above are each format's one rule (cli_comun.c): the rows of cli.c and cli_tabla.c are written
 * through them, scanning and copying sixteen or eight bytes at a time, escaping only what needs it. */
char *dt__cli_csv_fila(char *d, const char *const *ini, const size_t *largo, const uint8_t *nulo, size_t ncol, int vacio_entre_comillas);

/* A whole JSON Lines object of `ncol` fields at d, '\n' included: field j's key as given (claves[j],
 * largo_clave[j] bytes: `"name":`, with the comma before every key but the first, already escaped),
 * then null when nulo[j], the text bare when entero[j] (either array may be NULL: none), else the text
 * as dt__cli_json_texto writes it. d has room for 6 * (the texts' lengths) + the keys + 4 * ncol + 3
 * bytes; returns the end. The one JSON row rule of the stream CLI and `datoteca tabla`. */
char *dt__cli_json_fila(char *d, const char *const *claves, const size_t *largo_clave, const char *const *ini,
                        const size_t *largo, const uint8_t *nulo, const uint8_t *entero, size_t ncol);

/* 1 when a column of this PostgreSQL type (dt_columna_info.tipo_sql) holds integers: written bare in SQL
 * and JSON, bound as an integer in SQLite. Any other type goes as text (dates as 'YYYY-MM-DD'). */
int dt__cli_tipo_entero(const char *tipo_sql);

/* `s[0..n)` as a SQL string literal: in single quotes, a quote doubled (the standard's only escape, which
 * PostgreSQL with standard_conforming_strings and SQLite both read). */
void dt__cli_sql_texto(outbuf *o, const char *s, size_t n);

/* Rows [desde, desde + n) made in blocks of `bloque` rows by `jobs` threads (1..64; 1 runs everything on
 * the calling thread) and handed to `usar` on the calling thread in row order, so the output does not
 * depend on the number of jobs. `hacer` runs on the workers, each block with its own outbuf (reset to
 * empty, f NULL) and `scratch` bytes of its own scratch: it must be safe to call on many blocks at
 * once (it reads `ctx`, never writes it). `usar` writes or loads a block; non-zero stops the run (it
 * prints its own reason). `progreso` (NULL: none) is told each block's rows once the block is used, on
 * the calling thread (cli_progreso.h), and its line is erased when the run stops on an error. */
typedef struct dt__cli_lotes {
    unsigned long long desde, n;
    size_t bloque, jobs, scratch;
    void (*hacer)(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *scratch);
    int (*usar)(void *ctx, outbuf *o);
    void *ctx;
    dt__progreso *progreso;
    /* An input read as it goes (datoteca enmascarar), when `llenar` is set: `n` is then only a bound
     * (ULLONG_MAX: until the input ends). Before each block is made, on the calling thread and in row
     * order, llenar(ctx, desde, bloque, scratch, &filas) reads the block's rows into that block's
     * `scratch` (zeroed the first time; it then holds the caller's state for the block, in use until the
     * block's usar returns) and sets how many it read, fewer than `bloque` allowed; it returns 1 when more
     * may follow, 0 when this is the last block (the end of the input, or a refusal it keeps in the
     * scratch for usar to say in row order). `usar_bloque`, when set, is called instead of usar, with the
     * block's scratch; `soltar(ctx, scratch)` frees what the caller kept in a scratch, at the end. */
    int (*llenar)(void *ctx, unsigned long long desde, size_t bloque, char *scratch, size_t *filas);
    int (*usar_bloque)(void *ctx, outbuf *o, char *scratch);
    void (*soltar)(void *ctx, char *scratch);
} dt__cli_lotes;
/* 0; 1 when `usar` stopped the run; -1 when memory ran out (said on stderr). A thread that cannot start
 * ends the process with a message, as a half-made output would be worse. */
int dt__cli_lotes_run(const dt__cli_lotes *l);
/* *p, an array of *cap elements of `tam` bytes, grown (doubling, from 64) to hold at least n: 0, or 1 when memory
 * ran out (then *p and *cap are as they were). For the block slots' buffers of enmascarar and copiar
 * (cli_comun.c). */
int dt__cli_crecer(void **p, size_t *cap, size_t n, size_t tam);

/* Strict unsigned decimal up to `max`: 1 with *out set, or 0 (nothing printed: the caller names the
 * option in its message). */
int dt__cli_parse_u64(const char *s, unsigned long long max, unsigned long long *out);

/* What a command line asks for. Nothing here is specific to a call: the registry describes them.
 * `info` and `key` point into the library's static registry; `seed_str` into argv. */
typedef struct peticion {
    size_t index;
    const dt_call_info *info;
    const char *key; /* the name of a plain value's column: the call's last part */
    unsigned long long seed, count;
    const char *seed_str;
    int seed_given, hoy_given;
    int32_t hoy[3];
    int formato;
    int64_t args[DT_MAX_PARAMS];
    size_t nargs;
    int progreso; /* --progreso / --silencio: DT__PROGRESO_* bits */
} peticion;

/* The call named by `arg` into r->index, r->info and r->key (a namespace alone means its record:
 * persona -> persona.persona). 0, or 2 with the reason printed. */
int dt__cli_parse_call(const char *arg, peticion *r);
/* The options both modes take: --seed, --seed-str, --hoy and the call's own --PARAM VALUE (into
 * r->args); anything else left is an unexpected argument. 0, or 2 with the reason printed.
 * r->info must be set (dt__cli_parse_call). */
int dt__cli_parse_comun(peticion *r, const char *opt, const char *val);
/* argv[i] must be one of the mode's own options (`propias`) or the call's, and have a value after it:
 * 0, or 2 with the reason printed. `modo` is "" or "tabla " for the help it points to. */
int dt__cli_check_opcion(const peticion *r, int argc, char **argv, int i, const char *const *propias, size_t n, const char *modo);
/* 2 (with the reason printed) when both --seed and --seed-str were given, else 0. */
int dt__cli_check_seeds(const peticion *r);
/* Print a call's help (parameters, ranges, defaults, fields, an example) to `f`. */
void dt__cli_call_help(FILE *f, const dt_call_info *c, const char *modo);

/* datoteca tabla CALL …: argv as dt_cli_main got it (argv[1] is "tabla"); the exit status. It keeps
 * its parsed options in static storage, so, like dt_cli_main, it is not reentrant: one call at a time
 * per process. */
int dt__cli_tabla_main(int argc, char **argv);
/* datoteca esquema FILE …: argv as dt_cli_main got it (argv[1] is "esquema"); the exit status (2 for a
 * refused schema or bad arguments, 1 for a write error). */
int dt__cli_esquema_main(int argc, char **argv);
/* datoteca detectar FILE [--filas N]: proposed masking rules for a CSV sample on stdout; the exit
 * status (2 for an unreadable or refused input, naming record and field but no value). */
int dt__cli_detectar_main(int argc, char **argv);
/* datoteca inferir URL [...]: a schema document from a live database's catalog (cli/cli_inferir.c; the
 * connectors are the datoteca program's, cli/conectar.h); the exit status (2 for bad arguments, a URL
 * no connector takes or a database it cannot read, 1 when the document cannot be written). */
int dt__cli_inferir_main(int argc, char **argv);
/* datoteca enmascarar --reglas FILE (--clave-archivo FILE | DATOTECA_CLAVE) [--entrada FILE] [--salida FILE]
 * [--formato csv|jsonl] [--jobs N]: masks a CSV or JSON Lines stream; the exit status (2 for refused rules,
 * key or input, 1 for an I/O error). */
int dt__cli_enmascarar_main(int argc, char **argv);
/* Shared by the commands that hold a masking key (cli_clave.c). A whole small file (the rules) into a new
 * NUL-terminated buffer the caller frees, or NULL with errno set (EFBIG past `max` bytes). */
char *dt__cli_archivo_chico(const char *ruta, size_t max, size_t *len);
/* Whether an argument's last path component holds 64 hexadecimal digits in a row (the key alone, or
 * `<key>.csv`): a key pasted where a path or a name goes, refused before use and never printed. */
int dt__cli_parece_clave(const char *s);
/* What a key looks like where it does not belong (issue 48). _tiene_clave: `s` (n bytes) holds 64
 * hexadecimal digits in a row. _texto_es_clave: `s` is a key file's text, 64 hexadecimal digits with
 * only whitespace around them. _archivo_es_clave: the file at `ruta` (NULL: stdin) is a regular file of
 * at most DT__CLI_CLAVE_ARCHIVO_MAX bytes whose text is a key (read with pread: stdin's position is
 * kept; a FIFO, a device or a file that cannot be opened is 0, for its reader to judge). _rehusar_clave
 * says "datoteca: <orden>: <opcion>: the file given holds a masking key ..., not <que>" and returns 2.
 * _valor_con_clave: 0 when `valor` (NULL: 0) holds no such run, else 2 with "the value given to
 * <opcion> holds 64 hexadecimal digits..." said: never the value. */
#define DT__CLI_CLAVE_ARCHIVO_MAX 4096
int dt__cli_tiene_clave(const char *s, size_t n);
int dt__cli_texto_es_clave(const char *s, size_t n);
int dt__cli_archivo_es_clave(const char *ruta);
int dt__cli_rehusar_clave(const char *orden, const char *opcion, const char *que);
int dt__cli_valor_con_clave(const char *orden, const char *opcion, const char *valor);
/* Where an output given by name may go (cli_salida.c, issue 48): a rename only ever onto a regular file
 * or a free name, never onto a device. _tipo lstat's `ruta` and says what to do, or refuses with a
 * sentence "datoteca: <orden>: <opcion> names ..." on stderr (never the path). `solo_nueva` NULL: the
 * output may replace a regular file; else it is what the command writes ("dump", "database"), new only.
 * NUEVA (a free name) and REGULAR (a regular file, refused when `solo_nueva`) are written through a temporary file and
 * _renombrar; EN_SITIO (a character device or a FIFO, maybe through links; refused when `solo_nueva`)
 * is opened with _en_sitio and written directly; a link to anything else, a directory, a block device
 * or a socket is REHUSADA. _en_sitio opens it for writing, checking on the descriptor that it is still
 * a device or a FIFO (NULL with the reason said). _renombrar judges the path again, then renames `tmp`
 * onto it: 0, or 1 with the reason said (the caller removes tmp). */
enum { DT__SALIDA_REHUSADA = -1, DT__SALIDA_NUEVA = 0, DT__SALIDA_REGULAR = 1, DT__SALIDA_EN_SITIO = 2 };
int dt__cli_salida_tipo(const char *ruta, const char *solo_nueva, const char *orden, const char *opcion);
FILE *dt__cli_salida_en_sitio(const char *ruta, const char *orden, const char *opcion);
int dt__cli_salida_renombrar(const char *tmp, const char *ruta, const char *solo_nueva, const char *orden, const char *opcion);
/* The part of a path after its last '/' or '\\': what sentences name, never the directories typed. */
const char *dt__cli_base(const char *ruta);
/* No core file and, on Linux, not dumpable: called before a key is anywhere in the process. */
void dt__cli_sin_volcado(void);
/* Wipe DATOTECA_CLAVE's bytes where the environment holds them, then remove it (NULL: nothing). */
void dt__cli_olvidar_clave_env(char *valor);
/* The key's own options: 1 when `a` is --clave-de-prueba or --clave-compartida (its bit set in *opciones),
 * 2 when it is any other --clave... but --clave-archivo (a key on the command line: refused, said on
 * stderr as "datoteca: <orden>: ...", never echoed), else 0. */
int dt__cli_opcion_clave(const char *a, const char *orden, unsigned *opciones);
/* 0 when a key is given (the path `ruta`, or a non-empty DATOTECA_CLAVE), else 2 with "datoteca: <orden>: no
 * key: ..." on stderr: asked before anything else is read. */
int dt__cli_clave_dada(const char *ruta, const char *orden);
/* The key from the file `ruta` (dt_mascara_clave_leer) or else DATOTECA_CLAVE, with `opciones`; the variable
 * is wiped from the environment either way. 0 (*out owns the key), or 2 with the library's sentence on
 * stderr naming where the key came from, never the key. */
int dt__cli_clave_leer(const char *ruta, unsigned opciones, const char *orden, dt_mascara_clave **out);
/* datoteca riesgo [--entrada FILE] --qi COLS [--original FILE --enlace A,B --personales COLS]: the risk
 * report of a masked output (cli/cli_riesgo.c); the exit status (2 for refused arguments or input). */
int dt__cli_riesgo_main(int argc, char **argv);
/* `datoteca enmascarar --riesgo QIS [--riesgo-enlace A,B [--riesgo-enlace-modo M]]` (cli/cli_riesgo.c):
 * _opciones takes those options out of argv (so enmascarar's own parsing never sees them) and sets *out
 * (NULL when none was given): 0, 2 refused (said), 1 out of memory. _columnas binds the output's header (the plan's columns) and
 * the input's, _bloque counts a block's rows from the bytes written for them (`jsonl`: JSON Lines,
 * else CSV rows without the header) and the block's input values (row f's value i at
 * texto + vini[f * ncols + i], vlen[...] bytes): 0, or the exit status with the reason said. _fin
 * prints the summary on stderr when `imprimir` and no block failed, and frees (NULL: nothing). */
typedef struct dt__cli_riesgo_enm dt__cli_riesgo_enm;
int dt__cli_riesgo_opciones(int *argc, char **argv, dt__cli_riesgo_enm **out);
int dt__cli_riesgo_enm_columnas(dt__cli_riesgo_enm *q, const dt_mascara_plan *p, size_t ncols, const char *const *ent,
                                const size_t *lent);
int dt__cli_riesgo_enm_bloque(dt__cli_riesgo_enm *q, int jsonl, char separador, const char *salida, size_t n, size_t nfilas,
                              const char *texto, const size_t *vini, const size_t *vlen, size_t ncols);
void dt__cli_riesgo_enm_fin(dt__cli_riesgo_enm *q, int imprimir);

/* What datoteca esquema writes (--formato), and E_FILAS: dt_esquema_filas' own text, for a loader. */
enum { E_DDL, E_CSV, E_SQL, E_SQLITE, E_FILAS };
/* Every row of schema table t, made by `jobs` threads in blocks of 4,096 rows (fewer for a wide table)
 * and handed to usar(ctx, o) in row order, each block formatted as `formato` (E_CSV rows without the
 * header, E_SQL INSERTs of up to 500 rows, E_FILAS as dt_esquema_filas writes them). 0, 1 when usar stopped, -1 out of memory (said). Reads `e`
 * from many threads at once, which dt_esquema_filas allows. Each call is the next table for `prog` (NULL:
 * no progress), which counts the rows as they are used. */
int dt__cli_esquema_lotes(const dt_esquema *e, size_t t, size_t jobs, int formato, int (*usar)(void *ctx, outbuf *o), void *ctx,
                          dt__progreso *prog);
/* What dt__cli_esquema_lotes_modo writes of a column (E_CSV, E_SQL): its value, a NULL, or nothing. */
enum { M_VALOR, M_NULO, M_FUERA };
/* As dt__cli_esquema_lotes, with modo[j] (M_*) for each column j of t (NULL: every value). */
int dt__cli_esquema_lotes_modo(const dt_esquema *e, size_t t, size_t jobs, int formato, const unsigned char *modo,
                               int (*usar)(void *ctx, outbuf *o), void *ctx, dt__progreso *prog);
/* The columns of table t a loader into an existing database writes NULL first and sets once every table
 * is written (--hacia): refs whose parent table is not written before t, which only a deferred ref
 * (`diferida = true`: a cycle, a table pointing at itself) can be. diferida[j] = 1 for each (the array
 * holds dt_esquema_columnas(e, t) bytes); returns how many. */
size_t dt__cli_diferidas(const dt_esquema *e, size_t t, unsigned char *diferida);
/* The column a loader finds table t's rows by to set its deferred refs (diferida: dt__cli_diferidas'):
 * the document's primary key (its first unique NOT NULL column) when it is not deferred itself, or -1. */
long dt__cli_clave_diferidas(const dt_esquema *e, size_t t, const unsigned char *diferida);
/* The first table with a deferred ref and no key to set it by, or -1: a loader refuses it before any row. */
long dt__cli_diferidas_sin_clave(const dt_esquema *e);
/* What a loader's staging of table t's deferred refs needs (the key: dt__cli_clave_diferidas', found):
 * modo[j] M_VALOR for the key and the deferred columns, M_FUERA for the others; `sel` the key's and the
 * deferred columns' quoted names, "k, a, b"; `set` "<prefijo>a = x.a, <prefijo>b = x.b" (prefijo "" or
 * "t."); `clave` (DT__SQL_CITADO_MAX bytes) the key's quoted name. sel and set are initialised here, NUL-terminated, and the caller's
 * to free; 0, or 1 when memory runs out (both freed then). */
int dt__cli_diferidas_listas(const dt_esquema *e, size_t t, const unsigned char *diferida, const char *prefijo,
                             unsigned char *modo, outbuf *sel, outbuf *set, char *clave);
/* --formato sqlite: NULL in the library (npx datoteca, and python -m datoteca where no wheel's program
 * is installed, run the library's CLI, which does not link SQLite); the datoteca program sets it to the
 * writer of cli/cli_sqlite.c before it calls dt_cli_main. It writes the new file `ruta` and returns the exit status (2 when the file exists);
 * `prog` (NULL: none) counts the rows loaded. */
extern int (*dt__cli_esquema_sqlite)(const dt_esquema *e, const char *ruta, size_t jobs, dt__progreso *prog);
int dt__cli_sqlite_escribir(const dt_esquema *e, const char *ruta, size_t jobs, dt__progreso *prog);
/* --hacia URL: every row into the existing database at url (its tables made by the application's own
 * DDL), in dependency order, in one transaction, constraints and triggers on; `vaciar` empties the
 * document's tables first, else a table holding rows stops the run before anything is written. The
 * exit status: 0; 2 when nothing was written (the URL, the connection, a table missing or not empty, a
 * UNIQUE column the document does not keep unique); 1 when the database refused a row (rolled back, the
 * sentence names table, row and column, never a value). NULL in the library, as dt__cli_esquema_sqlite;
 * the datoteca program sets the writers it links (cli/cli_sqlite.c, cli/hacia_pg.c, cli/hacia_mariadb.c). The URL is never
 * printed (it may hold a password). */
typedef int (*dt__cli_hacia)(const dt_esquema *e, const char *url, int vaciar, size_t jobs, dt__progreso *prog);
extern dt__cli_hacia dt__cli_hacia_sqlite;
/* datoteca copiar (cli_copiar.c takes the arguments, the rules text and the key): copy every table of the
 * database at `desde` into a new database at `hacia` (or, o->volcado set, a new SQL dump file at the
 * path `hacia`; o->subconjunto set, the rows cli/subconjunto_sqlite.c keeps), each row masked by its table's rules of the
 * database's rules document (`len` bytes of `reglas`, `formato` DT_MASCARA_TOML or _JSON, `archivo` what
 * sentences call it) under `k`. The exit status: 0; 2 refused before anything was written or a copy
 * undone (one sentence on stderr naming table, row and column, never a value); 1 for an I/O error.
 * NULL in the library; the datoteca program sets dt__cli_copiar_sqlite to dt__cli_sqlite_copiar (cli/copiar_sqlite.c)
 * dt__cli_copiar_pg to dt__cli_pg_copiar (cli/copiar_pg.c: a PostgreSQL source into an empty PostgreSQL
 * database, or a dump for psql) and dt__cli_copiar_mariadb to dt__cli_mariadb_copiar (cli/copiar_mariadb.c). */
typedef struct dt__copiar_opciones {
    int volcado;             /* hacia is a path for an SQL dump, not a URL */
    const char *subconjunto; /* "clientes=10%,...": a smaller copy (NULL: every row) */
    uint64_t semilla;        /* which rows of each root the subset keeps */
    int hijos;               /* the subset keeps the children of kept rows too */
    const char *const *donde; /* --donde "TABLE=CONDITION": roots chosen by a condition (ndonde of them) */
    size_t ndonde;
    size_t jobs;             /* threads masking blocks of rows (1..64; 0 reads as 1): the same output with any */
    int progreso;            /* --progreso / --silencio: DT__PROGRESO_* bits (cli_progreso.h) */
    struct dt__revision *revision; /* the review of what is written (cli_revision.c); NULL: none */
    int sin_rutinas;         /* --sin-rutinas (MariaDB): routines and triggers are not copied, nor required */
} dt__copiar_opciones;
typedef int (*dt__cli_copiar)(const char *desde, const char *hacia, const dt__copiar_opciones *o, const char *reglas,
                              size_t len, int formato, const char *archivo, const dt_mascara_clave *k);
extern dt__cli_copiar dt__cli_copiar_sqlite;
extern dt__cli_copiar dt__cli_copiar_pg;
extern dt__cli_copiar dt__cli_copiar_mariadb;
int dt__cli_mariadb_copiar(const char *desde, const char *hacia, const dt__copiar_opciones *o, const char *reglas, size_t len,
                           int formato, const char *archivo, const dt_mascara_clave *k);
int dt__cli_pg_copiar(const char *desde, const char *hacia, const dt__copiar_opciones *o, const char *reglas, size_t len,
                      int formato, const char *archivo, const dt_mascara_clave *k);
/* s[0..n) as a 64-bit integer: 1, or 0 when it is not one (then a SQLite loader binds the cell as text, and
 * the column's type affinity decides). The datoteca program only (cli/cli_sqlite.c). */
int dt__cli_sqlite_entero(const char *s, size_t n, long long *out);
int dt__cli_sqlite_copiar(const char *desde, const char *hacia, const dt__copiar_opciones *o, const char *reglas, size_t len,
                          int formato, const char *archivo, const dt_mascara_clave *k);
int dt__cli_copiar_main(int argc, char **argv);
/* What the three copiers share (cli_copiar.c). dt__cli_copiar_reglas: table `tabla`'s rules from the database's
 * rules document (len bytes of texto, formato, archivo as sentences name it) into *r: 0, or 2 with the document's
 * sentence said on stderr (its line, or the table it lacks). dt__cli_copiar_plan: the plan of r under k over the
 * table's n columns (cols, largos) into *plan, and in (*de)[i] (allocated, *m entries) the input column of the
 * plan's output column i: 0; 1 out of memory (not said: the caller says it once); 2 refused (a column without a
 * rule), said naming the table. */
/* A file the copy writes before renaming it into place (slot i, 0 or 1): removed if the process is stopped by
 * SIGINT, SIGTERM or SIGHUP meanwhile (the handlers are installed at the first call). NULL forgets slot i:
 * call it once the file is renamed or removed. For the copiers only (one copy per process). */
void dt__cli_copiar_temporal(int i, const char *ruta);
/* A copy that cannot be one transaction (cli/copiar_mariadb.c): dt__cli_copiar_diferir(1) makes SIGINT, SIGTERM and
 * SIGHUP only noted; dt__cli_copiar_detenida() is the signal noted (0: none), which the copy checks between blocks
 * and statements before it drops what it made; dt__cli_copiar_rendirse() ends deferral and, when a signal was
 * noted, ends the process by it (the status a shell expects of an interrupted program). */
void dt__cli_copiar_diferir(int si);
int dt__cli_copiar_detenida(void);
void dt__cli_copiar_rendirse(void);
int dt__cli_copiar_reglas(const char *texto, size_t len, int formato, const char *archivo, const char *tabla,
                          dt_mascara_reglas **r);
int dt__cli_copiar_plan(const dt_mascara_reglas *r, const dt_mascara_clave *k, const char *tabla, size_t n,
                        const char *const *cols, const size_t *largos, dt_mascara_plan **plan, size_t **de, size_t *m);
/* --subconjunto's shared part (cli_subconjunto.c). dt__cli_sub_raices reads spec ("clientes=10%,pedidos=5%")
 * into pct[0..nt) (the share of table tablas[i] kept as a root, 0 for a table that is not one): 0, or 2 said
 * on stderr (no value in it). A root's row identified by the 64-bit `fila` is kept when dt__cli_sub_queda(
 * dt__cli_sub_sal(semilla, table), fila, pct) is 1; dt__cli_sub_fnv hashes an identity that is text (n bytes of
 * s). Integers only: the same seed keeps the same rows on every machine. Pure functions, thread-safe. */
int dt__cli_sub_raices(const char *spec, char *const *tablas, size_t nt, unsigned char *pct);
uint64_t dt__cli_sub_sal(uint64_t semilla, const char *tabla);
int dt__cli_sub_queda(uint64_t sal, uint64_t fila, unsigned pct);
uint64_t dt__cli_sub_fnv(const char *s, size_t n);
/* --donde "clientes=region = 13": the root table (its index in tablas) and the condition, the source's own SQL
 * run as the WHERE of the rows kept, after the '=' (d points into argv). 0, or 2 said on stderr. */
int dt__cli_sub_donde(const char *d, char *const *tablas, size_t nt, size_t *tabla, const char **expr);
/* Any name as SQL reads it quoted ("..." with each " doubled), into a new string the caller frees, or NULL
 * when memory runs out: for the names of a database being copied, which may be anything (cli_comun.c). */
char *dt__cli_sql_citado(const char *s);
extern dt__cli_hacia dt__cli_hacia_pg;
extern dt__cli_hacia dt__cli_hacia_mariadb;
int dt__cli_sqlite_hacia(const dt_esquema *e, const char *url, int vaciar, size_t jobs, dt__progreso *prog);
int dt__cli_pg_hacia(const dt_esquema *e, const char *url, int vaciar, size_t jobs, dt__progreso *prog);
int dt__cli_mariadb_hacia(const dt_esquema *e, const char *url, int vaciar, size_t jobs, dt__progreso *prog);


/* ---- the review of what a run wrote (cli/cli_revision.c; docs/enmascarar.md, docs/copia.md) ----
 * enmascarar and the copiers: dt__cli_revision_opciones takes --estricto and --revision-json FILE out of argv
 * (0, 2 refused, 1 out of memory; said). Per table, before its plan masks a row, dt__cli_revision_tabla (the
 * plan, its n input columns, de[i] the input column of output column i, generada[j] an input column not
 * written, may be NULL): NULL only when r is NULL or memory ran out (then the review says it is incomplete).
 * On a worker, after each row's dt_mascara_plan_fila: dt__cli_revision_fila (row number from 1, the row's
 * input values, the plan), into the slot's *l (made at its first row; dt__cli_revision_lote_free in the slot's
 * soltar). On the calling thread, for each block in row order: dt__cli_revision_bloque. At the end:
 * dt__cli_revision_fin prints the summary (rc 0 only) and returns rc, or 3 under --estricto when personal
 * data was written as it was (then removing the file given to dt__cli_revision_salida). Never a value: table
 * and column names, counts. */
typedef struct dt__revision dt__revision;
typedef struct dt__revision_tabla dt__revision_tabla;
typedef struct dt__revision_lote dt__revision_lote;
int dt__cli_revision_opciones(int *argc, char **argv, const char *orden, dt__revision **out);
void dt__cli_revision_salida(dt__revision *r, const char *salida);
dt__revision_tabla *dt__cli_revision_tabla(dt__revision *r, const char *tabla, dt_mascara_plan *p, size_t n, const size_t *de,
                                           const unsigned char *generada);
void dt__cli_revision_fila(dt__revision_lote **l, const dt__revision_tabla *t, uint64_t fila, const char *const *vals,
                           const size_t *lens, const dt_mascara_plan *p);
void dt__cli_revision_bloque(dt__revision *r, dt__revision_lote *l);
void dt__cli_revision_lote_free(dt__revision_lote *l);
int dt__cli_revision_fin(dt__revision *r, int rc);
void dt__cli_revision_free(dt__revision *r);

#endif
