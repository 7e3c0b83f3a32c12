/* Opening and closing a MariaDB session without showing its password (cli/conectar_mariadb.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conectar.h"
#include "conectar_mariadb.h"

/* s[0..n) percent-decoded into a new string, or NULL (out of memory, or a bad %XX). */
static char *decodificar(const char *s, size_t n) {
    char *out = (char *)malloc(n + 1);
    if (out == NULL) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '%') {
            out[k++] = s[i];
            continue;
        }
        int v = 0;
        for (int j = 1; j <= 2; j++) {
            char c = i + (size_t)j < n ? s[i + (size_t)j] : '\0';
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) {
                free(out);
                return NULL;
            }
            v = v * 16 + d;
        }
        out[k++] = (char)v;
        i += 2;
    }
    out[k] = '\0';
    return out;
}

void dt__mdb_limpio(const dt__mdb *s, const char *msg, char *out, size_t cap) { dt__ic_limpio(s->clave, msg, out, cap); }

typedef struct partes {
    char *usuario, *host, *base, *socket;
    unsigned puerto;
} partes;

static void partes_free(partes *p) {
    free(p->usuario), free(p->host), free(p->base), free(p->socket);
}

/* The URL's parts; 0, or 1 with the reason in why (never quoting the URL). */
static int leer_url(dt__mdb *s, const char *url, partes *p, char *why, size_t whycap) {
    const char *q = strstr(url, "://");
    if (q == NULL) {
        snprintf(why, whycap, "MariaDB: the URL must be mariadb://[user@][host][:port]/database (not printed)");
        return 1;
    }
    q += 3;
    const char *fin = q + strcspn(q, "/?");
    const char *arroba = NULL;
    for (const char *r = q; r < fin; r++)
        if (*r == '@') arroba = r; /* the last one: a password may hold an unencoded @ */
    const char *hp = q;
    if (arroba) {
        const char *dos = memchr(q, ':', (size_t)(arroba - q));
        p->usuario = decodificar(q, (size_t)((dos ? dos : arroba) - q));
        if (dos) s->clave = decodificar(dos + 1, (size_t)(arroba - dos - 1));
        if (p->usuario == NULL || (dos && s->clave == NULL)) goto mal;
        hp = arroba + 1;
    }
    const char *dos = memchr(hp, ':', (size_t)(fin - hp));
    p->host = decodificar(hp, (size_t)((dos ? dos : fin) - hp));
    if (p->host == NULL) goto mal;
    if (dos) {
        unsigned long v = 0;
        const char *d = dos + 1;
        if (d == fin) goto mal;
        for (; d < fin; d++) {
            if (*d < '0' || *d > '9' || (v = v * 10 + (unsigned)(*d - '0')) > 65535) goto mal;
        }
        p->puerto = (unsigned)v;
    }
    if (*fin == '/') {
        const char *b = fin + 1, *bf = b + strcspn(b, "?");
        if ((p->base = decodificar(b, (size_t)(bf - b))) == NULL) goto mal;
        fin = bf;
    }
    if (*fin == '?') {
        for (const char *r = fin + 1; *r;) {
            const char *amp = r + strcspn(r, "&");
            if (strncmp(r, "socket=", 7) == 0) {
                free(p->socket);
                if ((p->socket = decodificar(r + 7, (size_t)(amp - r - 7))) == NULL) goto mal;
            } else {
                snprintf(why, whycap, "MariaDB: the URL's only parameter is socket=/path (the client's option files hold the rest)");
                return 1;
            }
            r = *amp ? amp + 1 : amp;
        }
    }
    if (p->base == NULL || p->base[0] == '\0') {
        snprintf(why, whycap, "MariaDB: the URL names no database (mariadb://[user@]host/database)");
        return 1;
    }
    return 0;
mal:
    snprintf(why, whycap, "MariaDB: the URL is not one datoteca reads: mariadb://[user[:password]@][host][:port]/database"
                          "[?socket=/path], percent-encoded (not printed)");
    return 1;
}

int dt__mdb_abrir(dt__mdb *s, const char *url, char *why, size_t whycap) {
    memset(s, 0, sizeof *s);
    partes p;
    memset(&p, 0, sizeof p);
    if (leer_url(s, url, &p, why, whycap)) {
        partes_free(&p);
        dt__mdb_cerrar(s);
        return 2;
    }
    const char *host = p.host[0] ? p.host : NULL;
    if (p.socket)
        snprintf(s->donde, sizeof s->donde, "socket %s, database %s", p.socket, p.base);
    else
        snprintf(s->donde, sizeof s->donde, "host %s, port %u, database %s", host ? host : "localhost", p.puerto ? p.puerto : 3306,
                 p.base);
    s->con = mysql_init(NULL);
    if (s->con == NULL) {
        snprintf(why, whycap, "MariaDB at %s: out of memory", s->donde);
        partes_free(&p);
        dt__mdb_cerrar(s);
        return 2;
    }
    /* the client's own conventions: [client] of the option files gives user, password, socket */
    unsigned int espera = 10;
    mysql_optionsv(s->con, MYSQL_READ_DEFAULT_GROUP, "client");
    mysql_optionsv(s->con, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    mysql_optionsv(s->con, MYSQL_OPT_CONNECT_TIMEOUT, &espera);
    int rc = 0;
    char m[600];
    if (mysql_real_connect(s->con, host, p.usuario, s->clave, p.base, p.puerto, p.socket, 0) == NULL) {
        dt__mdb_limpio(s, mysql_error(s->con), m, sizeof m);
        snprintf(why, whycap, "MariaDB at %s: cannot connect: %s", s->donde, m);
        rc = 2;
    } else if (mysql_query(s->con, "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES,NO_BACKSLASH_ESCAPES'), "
                                   "time_zone = '+00:00'") != 0) {
        dt__mdb_limpio(s, mysql_error(s->con), m, sizeof m);
        snprintf(why, whycap, "MariaDB at %s: cannot set the session's sql_mode: %s", s->donde, m);
        rc = 2;
    }
    partes_free(&p);
    if (rc) dt__mdb_cerrar(s);
    return rc;
}

/* Server errors whose sentence names objects only, never a value of the row. */
static int sin_valores(unsigned int n) {
    static const unsigned int seguros[] = {
        1040, 1044, 1045, 1046, 1048, 1049, 1054, 1142, 1143, 1146, 1205, 1213, 1216, 1217, 1264, 1265,
        1364, 1406, 1451, 1452, 3819, 4025};
    for (size_t i = 0; i < sizeof seguros / sizeof *seguros; i++)
        if (seguros[i] == n) return 1;
    return 0;
}

void dt__mdb_frase(const dt__mdb *s, int en_filas, char *m, size_t cap) {
    unsigned int n = mysql_errno(s->con);
    const char *msg = mysql_error(s->con);
    if (n == 1062) { /* "Duplicate entry 'VALUE' for key 'k'": the key only */
        const char *k = strstr(msg, "for key ");
        char limpio[300];
        dt__mdb_limpio(s, k ? k + 8 : "?", limpio, sizeof limpio);
        snprintf(m, cap, "a duplicate value in unique key %s", limpio);
    } else if (sin_valores(n) || !en_filas) {
        dt__mdb_limpio(s, msg, m, cap);
    } else {
        snprintf(m, cap, "a value the server refuses (its sentence is not printed: it quotes the value)");
    }
}

void dt__mdb_cerrar(dt__mdb *s) {
    if (s->con) mysql_close(s->con);
    s->con = NULL;
    if (s->clave) {
        volatile char *c = s->clave; /* a password does not outlive its use in this process's heap */
        while (*c) *c++ = 0;
        free(s->clave);
    }
    s->clave = NULL;
}
