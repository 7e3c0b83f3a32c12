/* datoteca inferir: what a connector reads from a live database's catalog (the model), and the one
 * interface every connector has. A connector (cli/conectar_sqlite.c, cli/conectar_pg.c,
 * cli/conectar_mariadb.c) links its
 * client library, so it is compiled into the datoteca program only (CMakeLists.txt), never into
 * libdatoteca: main.c sets the pointers below, and the library's CLI (npx datoteca; python -m datoteca
 * where no wheel's program is installed) finds them NULL and refuses the URL with a sentence naming the
 * missing library. A Python wheel carries this program, connectors and client libraries included.
 * cli/cli_inferir.c turns a model into a schema document; it knows no database.
 *
 * Everything a connector puts into a model is copied (dt__ic_dup) and freed by dt__ic_modelo_free. A
 * connector says what it read, never a value judgement: the mapping to calls is cli_inferir.c's. */
#ifndef DT_CONECTAR_H
#define DT_CONECTAR_H

#include <stddef.h>
#include <stdint.h>

/* A column's type as the mapping needs it; the database's own spelling stays in `tipo`. */
enum { DT__IC_ENTERO, DT__IC_NUMERICO, DT__IC_TEXTO, DT__IC_FECHA, DT__IC_TIMESTAMP, DT__IC_TIMESTAMPTZ,
       DT__IC_BOOL, DT__IC_OTRO };

typedef struct dt__ic_col {
    char *nombre, *tipo;  /* tipo as the database spells it: "integer", "character varying(80)", "TEXT" */
    int clase;            /* DT__IC_* */
    int bits;             /* an integer's width: 16, 32, 64, MariaDB's 8 and 24 (0: unknown, taken as 64) */
    long largo;           /* varchar(n)/char(n): n, 0 for unbounded */
    int es_char;          /* char(n): fixed width */
    int precision, escala; /* numeric(p,s): p > 0 when given */
    int nulable;
    int identidad;        /* 0; 1 serial, BY DEFAULT identity, SQLite's INTEGER PRIMARY KEY; 2 GENERATED ALWAYS */
    int generada;         /* a computed column (GENERATED ALWAYS AS (...)): left to the database */
    char *defecto;        /* the DEFAULT expression, or NULL */
    char *tipo_propio;    /* an enum or domain's name, or NULL */
    char **valores;       /* an enum's labels, in order (nvalores) */
    size_t nvalores;
    char *falso, *verdadero; /* a boolean's spelling in a load: "false"/"true" (PostgreSQL), "0"/"1" (SQLite, MariaDB) */
} dt__ic_col;

typedef struct dt__ic_lista {
    size_t n;
    size_t *cols;
} dt__ic_lista;

typedef struct dt__ic_fk {
    char *nombre;
    dt__ic_lista cols;        /* the child's columns */
    char *ref_esquema, *ref_tabla;
    char **ref_cols;          /* the parent's column names, cols.n of them */
    int diferible;
    /* The observed fan-out (a single-column NOT NULL key of a table with rows): nab pairs, ab_n[i] children
     * for ab_cuenta[i] parent rows, ab_n ascending from 1 (dt__ic_abanico_add keeps them so); parents without children are the parent's rows
     * less the sum of ab_cuenta. nab 0: not read. */
    uint64_t *ab_n, *ab_cuenta;
    size_t nab;
    long padre; /* the parent's index in the model, or -1: cli_inferir.c's, not the connector's */
} dt__ic_fk;

typedef struct dt__ic_check {
    char *texto;   /* the expression, with or without CHECK around it */
    long columna;  /* a domain's check: the column VALUE stands for; -1 for a table's */
    char *origen;  /* what to call it in a note: the constraint's name, or the domain's */
} dt__ic_check;

typedef struct dt__ic_tabla {
    char *esquema, *nombre;
    dt__ic_col *cols;
    size_t ncols;
    uint64_t filas;
    int filas_estimadas; /* filas is the catalog's estimate (reltuples), not a count */
    dt__ic_lista pk;
    dt__ic_lista *unicos;
    size_t nunicos;
    dt__ic_fk *fks;
    size_t nfks;
    dt__ic_check *checks;
    size_t nchecks;
    char *disparada;     /* the first trigger whose body inserts into this table ("trigger T on U"), or NULL */
    char **muestra;      /* nmuestra rows of ncols values as text, row-major; NULL for a null */
    size_t nmuestra;
} dt__ic_tabla;

/* The database a model was read from, for what the document's head says about loading it. */
enum { DT__IC_SQLITE, DT__IC_PG, DT__IC_MARIADB };

typedef struct dt__ic_modelo {
    dt__ic_tabla *tablas;
    size_t ntablas;
    char **notas;        /* what the catalog holds and a document cannot: views, triggers, ... */
    size_t nnotas;
    char *origen;        /* the database as the document names it: no password, ever */
    int dialecto;        /* DT__IC_SQLITE, DT__IC_PG, DT__IC_MARIADB: how the head says to load */
} dt__ic_modelo;

/* A connector: reads every table (of `esquema` only, when not NULL) with up to `muestra` sampled rows
 * each, into `m` (zeroed by the caller; freed by the caller whatever the result). 0, or 2 with one
 * sentence in why that names the database by host, port and name (never the password). */
typedef int (*dt__ic_conector)(const char *url, const char *esquema, size_t muestra, dt__ic_modelo *m, char *why,
                               size_t whycap);

/* NULL in libdatoteca; the datoteca program sets the ones it was built with before dt_cli_main. */
extern dt__ic_conector dt__cli_conectar_sqlite;
extern dt__ic_conector dt__cli_conectar_pg;
extern dt__ic_conector dt__cli_conectar_mariadb;
int dt__conectar_sqlite(const char *url, const char *esquema, size_t muestra, dt__ic_modelo *m, char *why, size_t whycap);
/* The file of a sqlite: URL: sqlite:///abs/path (an empty host, as file: URLs), sqlite://rel/path and
 * sqlite:rel/path; a pointer into url. */
const char *dt__conectar_sqlite_ruta(const char *url);
int dt__conectar_pg(const char *url, const char *esquema, size_t muestra, dt__ic_modelo *m, char *why, size_t whycap);
/* mariadb://... and mysql://... (cli/conectar_mariadb.h's URL); esquema names another database than the URL's. */
int dt__conectar_mariadb(const char *url, const char *esquema, size_t muestra, dt__ic_modelo *m, char *why, size_t whycap);

/* Model helpers (cli_inferir.c). Each returns NULL / non-zero only when memory runs out. */
char *dt__ic_dup(const char *s);
char *dt__ic_dupn(const char *s, size_t n);
dt__ic_tabla *dt__ic_tabla_nueva(dt__ic_modelo *m, const char *esquema, const char *nombre);
dt__ic_col *dt__ic_col_nueva(dt__ic_tabla *t, const char *nombre, const char *tipo);
int dt__ic_lista_add(dt__ic_lista *l, size_t col);
dt__ic_lista *dt__ic_unico_nuevo(dt__ic_tabla *t);
dt__ic_fk *dt__ic_fk_nueva(dt__ic_tabla *t, const char *nombre, const char *ref_esquema, const char *ref_tabla);
int dt__ic_fk_col(dt__ic_fk *f, size_t col, const char *ref_col);
int dt__ic_check_add(dt__ic_tabla *t, const char *texto, long columna, const char *origen);
int dt__ic_valor_add(dt__ic_col *c, const char *v);
int dt__ic_abanico_add(dt__ic_fk *f, uint64_t n, uint64_t cuenta);
/* Whether f's fan-out is worth reading: one NOT NULL column, to another table, of a table with rows. */
int dt__ic_abanico_pedir(const dt__ic_tabla *t, const dt__ic_fk *f);
/* A note for the head and stderr, printf-style. */
int dt__ic_nota(dt__ic_modelo *m, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
long dt__ic_col_indice(const dt__ic_tabla *t, const char *nombre);
/* msg's first line with every copy of clave (NULL: none) replaced by ***, into out (cap bytes, always
 * terminated; msg NULL reads as ""): how a connector shows a client library's text. */
void dt__ic_limpio(const char *clave, const char *msg, char *out, size_t cap);
/* A trigger's body (SQL or PL/pgSQL), by `quien` ("trigger T on U"): each table of the model it names
 * after INSERT INTO (bare, quoted, or schema-qualified) gets quien as its `disparada`, the first one
 * kept. Non-zero only when memory runs out. */
int dt__ic_disparador(dt__ic_modelo *m, const char *cuerpo, const char *quien);
/* The declared type read as SQLite's affinity rules and common spellings read it (INT..., VARCHAR(n),
 * DATE, TIMESTAMP, BOOLEAN, NUMERIC(p,s)) into c->clase and its sizes. PostgreSQL's format_type
 * spellings go through it too. */
void dt__ic_clasificar(dt__ic_col *c, const char *tipo);
void dt__ic_modelo_free(dt__ic_modelo *m);
/* The connector a URL names, and its dialect (cli_inferir.c); NULL, said on stderr as "datoteca <orden>:
 * URL: ..." without the URL, when no connector takes it. */
dt__ic_conector dt__cli_conector(const char *url, const char *orden, int *dialecto);
/* The model of the database at url, read by its connector (every table, or `esquema`'s; up to `muestra`
 * rows each) into *m: 0, or the connector's status with its sentence on stderr ("datoteca <orden>: URL:
 * ...", the password never in it) and *m freed. */
int dt__cli_leer_modelo(const char *url, const char *orden, const char *esquema, size_t muestra, dt__ic_modelo *m);
/* datoteca detectar URL (cli_detectar_url.c): the database's masking rules; the exit status. */
int dt__cli_detectar_url_main(int argc, char **argv);

#endif
