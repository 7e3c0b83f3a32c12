/* Opening and closing a libpq session without showing its password (cli/conectar_pg.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conectar.h"
#include "conectar_pg.h"

/* The password of a postgresql://user:password@host URL, or NULL. */
static char *clave_de(const char *url) {
    const char *p = strstr(url, "://");
    if (p == NULL) return NULL;
    p += 3;
    const char *arroba = strchr(p, '@'), *barra = strchr(p, '/');
    if (arroba == NULL || (barra && barra < arroba)) return NULL;
    const char *dos = memchr(p, ':', (size_t)(arroba - p));
    if (dos == NULL || dos + 1 == arroba) return NULL;
    return dt__ic_dupn(dos + 1, (size_t)(arroba - dos - 1));
}

/* Whether PostgreSQL's primary sentence for this SQLSTATE can quote a value of a row: class 22 (data
 * exceptions: "invalid input syntax for type integer: \"...\""), a trigger's RAISE (P0), and any class
 * not listed here may; integrity (23), privileges and names (42), sizes (22001), resources (53), the
 * operator (57), connections (08), transactions (25, 40) and unsupported features (0A) name objects only. */
int dt__pg_sin_valores(const char *estado) {
    static const char *const seguras[] = {"23", "42", "53", "57", "08", "25", "40", "0A", "55"};
    if (estado == NULL) return 0;
    if (strcmp(estado, "22001") == 0) return 1; /* value too long for type character varying(n) */
    for (size_t i = 0; i < sizeof seguras / sizeof *seguras; i++)
        if (strncmp(estado, seguras[i], 2) == 0) return 1;
    return 0;
}

void dt__pg_limpio(const dt__pg *s, const char *msg, char *out, size_t cap) { dt__ic_limpio(s->clave, msg, out, cap); }

static int fallo(dt__pg *s, const char *que, const char *msg, char *why, size_t whycap) {
    char m[600];
    dt__pg_limpio(s, msg, m, sizeof m);
    snprintf(why, whycap, "PostgreSQL at %s: %s: %s", s->donde, que, m);
    return 2;
}

int dt__pg_abrir(dt__pg *s, const char *url, char *why, size_t whycap) {
    memset(s, 0, sizeof *s);
    s->clave = clave_de(url);
    /* host, port and database as libpq reads them from the URL (defaults: libpq's, from the environment) */
    char *err = NULL;
    PQconninfoOption *op = PQconninfoParse(url, &err);
    const char *host = NULL, *port = NULL, *db = NULL;
    for (PQconninfoOption *o = op; o && o->keyword; o++) {
        if (strcmp(o->keyword, "password") == 0 && o->val && o->val[0] && s->clave == NULL) s->clave = dt__ic_dup(o->val);
        if (strcmp(o->keyword, "host") == 0) host = o->val;
        if (strcmp(o->keyword, "port") == 0) port = o->val;
        if (strcmp(o->keyword, "dbname") == 0) db = o->val;
    }
    snprintf(s->donde, sizeof s->donde, "host %s, port %s, database %s",
             host && host[0] ? host : getenv("PGHOST") ? getenv("PGHOST") : "(libpq's default)",
             port && port[0] ? port : getenv("PGPORT") ? getenv("PGPORT") : "5432",
             db && db[0] ? db : getenv("PGDATABASE") ? getenv("PGDATABASE") : "(libpq's default)");
    if (op == NULL) {
        int rc = fallo(s, "the URL is not one libpq reads", err ? err : "", why, whycap);
        PQfreemem(err);
        dt__pg_cerrar(s);
        return rc;
    }
    int sin_host = !(host && host[0]);
    PQconninfoFree(op); /* host, port and db point into it: not used past here */
    s->con = PQconnectdb(url);
    if (PQstatus(s->con) != CONNECTION_OK) {
        /* the server may have filled in what the URL left out */
        if (sin_host && PQhost(s->con))
            snprintf(s->donde, sizeof s->donde, "host %s, port %s, database %s", PQhost(s->con),
                     PQport(s->con) ? PQport(s->con) : "?", PQdb(s->con) ? PQdb(s->con) : "?");
        int rc = fallo(s, "cannot connect", PQerrorMessage(s->con), why, whycap);
        dt__pg_cerrar(s);
        return rc;
    }
    snprintf(s->donde, sizeof s->donde, "host %s, port %s, database %s", PQhost(s->con), PQport(s->con), PQdb(s->con));
    if (PQsetClientEncoding(s->con, "UTF8") != 0) {
        int rc = fallo(s, "cannot set the client encoding to UTF8", PQerrorMessage(s->con), why, whycap);
        dt__pg_cerrar(s);
        return rc;
    }
    return 0;
}

void dt__pg_cerrar(dt__pg *s) {
    if (s->con) PQfinish(s->con);
    s->con = NULL;
    if (s->clave) {
        volatile char *p = s->clave; /* a password does not outlive its use in this process's heap */
        while (*p) *p++ = 0;
        free(s->clave);
    }
    s->clave = NULL;
}
