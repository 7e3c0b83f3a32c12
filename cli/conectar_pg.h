/* A libpq session as datoteca's PostgreSQL connectors open it: `datoteca inferir` reads through it
 * (cli/conectar_pg.c) and `datoteca esquema --hacia` writes through it (cli/hacia_pg.c). Its job is
 * that no password is ever shown: sentences name host, port and database, and any text from libpq
 * goes through dt__pg_limpio first. The URL goes to PQconnectdb as it is, so libpq's own conventions
 * hold (PGPASSWORD, ~/.pgpass, PGSERVICE, sslmode, ...).
 *
 * These files link libpq, so they are compiled into the datoteca program only (CMakeLists.txt).
 * A session is one connection: not for two threads at once. */
#ifndef DT_CONECTAR_PG_H
#define DT_CONECTAR_PG_H

#include <stddef.h>

#include <libpq-fe.h>

typedef struct dt__pg {
    PGconn *con;      /* owned; NULL once closed */
    char *clave;      /* the URL's password (owned), blotted out of any libpq text; NULL when none */
    char donde[600];  /* "host H, port P, database D", for every sentence */
} dt__pg;

/* Connects, with the client encoding UTF8. 0; or 2 with one sentence in why (naming host, port and
 * database, never the password) and nothing left open. s is filled in either case; url not NULL. */
int dt__pg_abrir(dt__pg *s, const char *url, char *why, size_t whycap);

/* msg's first line with the password replaced by ***, into out (cap bytes, always terminated).
 * msg NULL reads as "". */
void dt__pg_limpio(const dt__pg *s, const char *msg, char *out, size_t cap);

/* 1 when PostgreSQL's primary sentence for this SQLSTATE names objects only (integrity, privileges, names,
 * sizes, resources, connections, transactions): it may be printed; 0 when it may quote a row's value
 * (class 22's data exceptions, a trigger's RAISE, any class not known to be safe; NULL). */
int dt__pg_sin_valores(const char *estado);

/* Closes the connection and wipes the password; safe to call twice. */
void dt__pg_cerrar(dt__pg *s);

#endif
