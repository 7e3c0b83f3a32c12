/* A MariaDB Connector/C session as datoteca's MariaDB/MySQL connectors open it: `datoteca inferir
 * mariadb://...` reads through it (cli/conectar_mariadb.c) and `datoteca esquema --hacia mariadb://...`
 * writes through it (cli/hacia_mariadb.c). As for PostgreSQL (cli/conectar_pg.h), no password is ever
 * shown: sentences name host and port (or socket) and database, and any text from the server goes
 * through dt__mdb_limpio first.
 *
 * URL: mariadb://[user[:password]@][host][:port]/database[?socket=/path/to.sock], or mysql://...; user,
 * password, database and socket may be percent-encoded. An empty host (or localhost) with no port goes
 * through the default unix socket. The client's option files are read ([client] of /etc/mysql/my.cnf,
 * ~/.my.cnf, ...), so user, password and socket need not be in the URL.
 *
 * The session's sql_mode adds ANSI_QUOTES (a "name" is a name, as PostgreSQL and SQLite spell it) and
 * NO_BACKSLASH_ESCAPES (a backslash in a text is a backslash), and its character set is utf8mb4.
 *
 * These files link libmariadb, so they are compiled into the datoteca program only (CMakeLists.txt).
 * A session is one connection: not for two threads at once. */
#ifndef DT_CONECTAR_MARIADB_H
#define DT_CONECTAR_MARIADB_H

#include <stddef.h>

#include <mysql.h>

typedef struct dt__mdb {
    MYSQL *con;      /* owned; NULL once closed */
    char *clave;     /* the URL's password (owned), blotted out of any server text; NULL when none */
    char donde[600]; /* "host H, port P, database D" or "socket S, database D", for every sentence */
} dt__mdb;

/* Connects and sets the session as above. 0; or 2 with one sentence in why (naming where, never the
 * password) and nothing left open. s is filled in either case; url not NULL. */
int dt__mdb_abrir(dt__mdb *s, const char *url, char *why, size_t whycap);

/* msg's first line with the password replaced by ***, into out (cap bytes, always terminated).
 * msg NULL reads as "". */
void dt__mdb_limpio(const dt__mdb *s, const char *msg, char *out, size_t cap);

/* The server's last error as a sentence that may be printed, into m (cap bytes): its text, the password
 * blotted, when it names objects only or when no row was being written (en_filas 0); a duplicate told by its
 * key's name only; otherwise a sentence that says a value was refused without quoting it. */
void dt__mdb_frase(const dt__mdb *s, int en_filas, char *m, size_t cap);

/* Closes the connection and wipes the password; safe to call twice. */
void dt__mdb_cerrar(dt__mdb *s);

#endif
