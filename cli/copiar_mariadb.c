/* datoteca copiar --desde mariadb://PROD --hacia mariadb://STAGING|DUMP.sql: a masked copy of a whole
 * MariaDB (or MySQL) database (docs/copia.md).
 *
 *   1. The source is read in one consistent snapshot (START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY).
 *   2. Every table's rules and plan are made before anything is written: a table or a column without a
 *      rule stops the run with nothing written (privacy by default).
 *   3. The schema is the source's own, as the server writes it (SHOW CREATE TABLE, FUNCTION, PROCEDURE,
 *      VIEW, TRIGGER; DEFINER clauses left out, a staging server has other accounts): each table is created
 *      without its foreign keys, the rows are inserted, and then each foreign key is added by ALTER TABLE,
 *      which makes InnoDB check every masked row against it; then routines, views and triggers (after the
 *      rows, so no trigger fires for a copied row). AUTO_INCREMENT counters come with the tables.
 *   4. Rows stream: the source's rows one at a time (mysql_use_result), in blocks of up to FILAS rows each
 *      masked by one of the --jobs threads into one multi-row INSERT, run in row order: memory does not grow
 *      with the table, and the copy is the same with any number of jobs.
 *   5. DDL commits by itself in MariaDB, so the copy cannot be one transaction: the target must be empty;
 *      a table `datoteca_copia_sin_terminar` is created first and dropped last, so an interrupted copy is
 *      marked unfinished; a refused one drops everything it created, and so does one stopped by SIGINT, SIGTERM
 *      or SIGHUP: the signal is only noted (dt__cli_copiar_diferir), the copy sees it between blocks and
 *      statements, drops what it made and the mark, and then ends by that signal.
 *   A dump (--hacia FILE.sql) holds the same statements in the same order, for `mariadb NEW < FILE`.
 *
 * Sentences name the table, the rows and the column, never a value; no password is printed.
 * This file links libmariadb, so it is compiled into the datoteca program only (CMakeLists.txt). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif

#include "cli_interno.h"
#include "mascara/prf.h" /* dt__borrar */
#include "cli_progreso.h"
#include "conectar.h" /* dt__ic_dup */
#include "conectar_mariadb.h"
#include "subconjunto_mariadb.h"

#define FILAS 1000       /* rows per INSERT */
#define BYTES (4u << 20) /* bytes per INSERT, well under max_allowed_packet's 16 MiB default */
#define MARCA "datoteca_copia_sin_terminar"
#define MODO_VOLCADO "SET SESSION sql_mode = 'ANSI_QUOTES,STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'"

typedef struct tabla {
    char *nombre, *citada;   /* as the rules document and the server name it; "t" */
    dt_mascara_reglas *reglas;
    dt_mascara_plan *plan;
    size_t n, m, *de;        /* the source's columns, the plan's output columns, output i is input de[i] */
    unsigned char *generada; /* input column j is computed by the server (GENERATED ALWAYS AS) */
    unsigned char *binaria;  /* input column j holds bytes (BLOB, BINARY, BIT): written as X'..' */
    char *leer;              /* SELECT every column */
    char *cabeza;            /* INSERT INTO "t" ("a", ...) VALUES */
    char **cols;             /* the source's column names, for each block slot's own plan (--jobs) */
    dt__revision_tabla *rev; /* the review of what is written (cli_revision.c) */
} tabla;

/* An object made on the target (or written to the dump), in order: what is dropped when the copy fails. */
typedef struct objeto {
    char *tipo, *citado; /* "TABLE", "VIEW", "FUNCTION", "PROCEDURE"; its quoted name */
} objeto;

typedef struct copia {
    dt__mdb src, dst;
    FILE *f; /* the dump being written, when --hacia is a file */
    tabla *t;
    size_t nt;
    char **fks; /* ALTER TABLE ... ADD CONSTRAINT ... FOREIGN KEY, after the rows */
    size_t nfks;
    objeto *hechos;
    size_t nhechos;
    const char *reglas, *archivo;
    size_t len;
    int formato;
    const dt_mascara_clave *k;
    dt__progreso *prog; /* the progress line (cli_progreso.h), on the calling thread */
    size_t jobs;        /* threads masking blocks of rows (--jobs); the output is the same with any number */
    char *modo; /* the target session's own "SET SESSION sql_mode = '...'", restored after a trigger's */
    dt__revision *rev;  /* the review of what is written (cli_revision.c) */
    int sin_rutinas;    /* --sin-rutinas: routines and triggers are neither copied nor required */
} copia;

static void fallo(const dt__mdb *s, const char *lado, const char *que, const char *lugar, int en_filas) {
    char m[700];
    dt__mdb_frase(s, en_filas, m, sizeof m);
    dt__cli_progreso_cortar();
    fprintf(stderr, "datoteca: copiar: %s: MariaDB at %s: %s: %s%s [error %u, SQLSTATE %s]", lado, s->donde, que, lugar ? lugar : "",
            m, mysql_errno(s->con), mysql_sqlstate(s->con));
    if (mysql_errno(s->con) == 1452 || mysql_errno(s->con) == 1216)
        fprintf(stderr, "; a foreign key's column and the column it references need the same rule");
    fputs(" (nothing was written)\n", stderr);
}

/* A statement of n bytes ((size_t)-1: a C string); 0, or 2 said. */
static int orden(dt__mdb *s, const char *lado, const char *sql, size_t n, const char *que, const char *lugar) {
    if (n == (size_t)-1) n = strlen(sql);
    if (mysql_real_query(s->con, sql, (unsigned long)n) == 0) {
        MYSQL_RES *r = mysql_store_result(s->con);
        if (r) mysql_free_result(r);
        return 0;
    }
    fallo(s, lado, que, lugar, lugar != NULL);
    return 2;
}

static MYSQL_RES *consulta(dt__mdb *s, const char *lado, const char *sql, const char *que) {
    MYSQL_RES *r = mysql_query(s->con, sql) == 0 ? mysql_store_result(s->con) : NULL;
    if (r == NULL) fallo(s, lado, que, NULL, 0);
    return r;
}

/* 4 when a signal asked the copy to stop (SIGINT, SIGTERM, SIGHUP while writing into a server), else 0: checked
 * between blocks and statements, so that what was made is dropped on the normal path. */
#define DETENIDA 4
static int detenida(void) {
    return dt__cli_copiar_detenida() ? DETENIDA : 0;
}

/* s[0..n) as a text literal into o: with quotes doubled for a session with NO_BACKSLASH_ESCAPES (the source's,
 * for information_schema), or the classic one with backslash escapes (volcado): the rows' literals for the
 * target, whose session runs without NO_BACKSLASH_ESCAPES as SHOW CREATE's literals need, and for a dump read by
 * the mariadb client, which splits statements on its own reading of backslashes. */
static void literal(outbuf *o, const char *s, size_t n, int volcado) {
    char *q = dt__cli_ob_reservar(o, 2 * n + 2);
    *q++ = '\'';
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (!volcado) {
            if (ch == '\'') *q++ = '\'';
            *q++ = ch;
        } else if (ch == '\\' || ch == '\'') *q++ = '\\', *q++ = ch;
        else if (ch == '\0') *q++ = '\\', *q++ = '0';
        else if (ch == '\n') *q++ = '\\', *q++ = 'n';
        else if (ch == '\r') *q++ = '\\', *q++ = 'r';
        else if (ch == '\032') *q++ = '\\', *q++ = 'Z';
        else *q++ = ch;
    }
    *q++ = '\'';
    o->p = q;
}

static void hexadecimal(outbuf *o, const char *s, size_t n) {
    static const char H[] = "0123456789ABCDEF";
    char *q = dt__cli_ob_reservar(o, 2 * n + 3);
    *q++ = 'X', *q++ = '\'';
    for (size_t i = 0; i < n; i++) *q++ = H[(unsigned char)s[i] >> 4], *q++ = H[(unsigned char)s[i] & 15];
    *q++ = '\'';
    o->p = q;
}

/* A statement for the target: run there, or written to the dump with its terminator. 0, or 2 said. */
static int hacer(copia *c, const char *sql, const char *que, const char *lugar) {
    if (c->f) return fputs(sql, c->f) < 0 || fputs(";\n", c->f) < 0 ? 1 : 0;
    return orden(&c->dst, "--hacia", sql, strlen(sql), que, lugar);
}

static int recordar(copia *c, const char *tipo, const char *citado) {
    objeto *m = (objeto *)realloc(c->hechos, (c->nhechos + 1) * sizeof *m);
    if (m == NULL) return 1;
    c->hechos = m;
    m[c->nhechos].tipo = dt__ic_dup(tipo);
    m[c->nhechos].citado = dt__ic_dup(citado);
    c->nhechos++;
    return m[c->nhechos - 1].tipo && m[c->nhechos - 1].citado ? 0 : 1;
}

/* The server's CREATE statement without its DEFINER= clause (the source's accounts are not staging's). */
static char *sin_definer(const char *sql) {
    char *out = dt__ic_dup(sql);
    char *d = out ? strstr(out, " DEFINER=") : NULL;
    if (d == NULL) return out;
    const char *p = d + 9;
    char comilla = 0;
    for (; *p && (comilla || *p != ' '); p++) {
        if (comilla && *p == comilla) comilla = 0;
        else if (!comilla && (*p == '"' || *p == '`' || *p == '\'')) comilla = *p;
    }
    memmove(d, p, strlen(p) + 1);
    return out;
}

/* A name as a text literal of this session, for information_schema's WHERE. */
static char *texto_de(const char *nombre) {
    outbuf o;
    if (dt__cli_ob_init(&o, strlen(nombre) * 2 + 8, NULL)) return NULL;
    literal(&o, nombre, strlen(nombre), 0);
    dt__cli_ob_putc(&o, '\0');
    char *r = dt__ic_dup(o.data);
    dt__cli_ob_free(&o);
    return r;
}

/* Table t's plan over its columns and its SELECT and INSERT head; 0, 1 out of memory, 2 said. */
static int plan_de(copia *c, tabla *t) {
    char *lit = texto_de(t->nombre);
    if (lit == NULL) return 1;
    size_t n = strlen(lit) + 400;
    char *q = (char *)malloc(n);
    if (q == NULL) {
        free(lit);
        return 1;
    }
    snprintf(q, n, "SELECT column_name, is_generated = 'ALWAYS', data_type IN ('binary', 'varbinary', 'tinyblob', 'blob', "
                   "'mediumblob', 'longblob', 'bit', 'geometry', 'point', 'linestring', 'polygon') FROM information_schema.columns "
                   "WHERE table_schema = DATABASE() AND table_name = %s ORDER BY ordinal_position", lit);
    free(lit);
    MYSQL_RES *r = consulta(&c->src, "--desde", q, "reading a table's columns");
    free(q);
    if (r == NULL) return 2;
    t->n = (size_t)mysql_num_rows(r);
    const char **cols = (const char **)calloc(t->n + 1, sizeof *cols);
    size_t *largos = (size_t *)calloc(t->n + 1, sizeof *largos);
    t->generada = (unsigned char *)calloc(t->n + 1, 1);
    t->binaria = (unsigned char *)calloc(t->n + 1, 1);
    int rc = cols && largos && t->generada && t->binaria ? 0 : 1;
    MYSQL_ROW fila;
    t->cols = (char **)calloc(t->n + 1, sizeof *t->cols);
    if (t->cols == NULL) rc = 1;
    for (size_t j = 0; rc == 0 && (fila = mysql_fetch_row(r)) != NULL; j++) {
        if ((t->cols[j] = dt__ic_dup(fila[0])) == NULL) rc = 1;
        cols[j] = fila[0];
        largos[j] = strlen(fila[0]);
        t->generada[j] = fila[1] && fila[1][0] == '1';
        t->binaria[j] = fila[2] && fila[2][0] == '1';
    }
    if (rc == 0) rc = dt__cli_copiar_plan(t->reglas, c->k, t->nombre, t->n, cols, largos, &t->plan, &t->de, &t->m);
    if (rc == 0) t->rev = dt__cli_revision_tabla(c->rev, t->nombre, t->plan, t->n, t->de, t->generada);
    outbuf leer, cabeza;
    int ob = dt__cli_ob_init(&leer, 256, NULL) | dt__cli_ob_init(&cabeza, 256, NULL);
    if (rc == 0 && ob) rc = 1;
    dt_status s = rc ? DT_ERR_NO_MEMORY : DT_OK;
    if (s == DT_OK) {
        dt__cli_ob_put(&leer, "SELECT ", 7);
        for (size_t j = 0; j < t->n; j++) {
            char *cq = dt__cli_sql_citado(cols[j]);
            if (cq == NULL) s = DT_ERR_NO_MEMORY;
            else {
                if (j) dt__cli_ob_put(&leer, ", ", 2);
                dt__cli_ob_put(&leer, cq, strlen(cq));
            }
            free(cq);
        }
        dt__cli_ob_put(&leer, " FROM ", 6);
        dt__cli_ob_put(&leer, t->citada, strlen(t->citada) + 1);
        dt__cli_ob_put(&cabeza, "INSERT INTO ", 12);
        dt__cli_ob_put(&cabeza, t->citada, strlen(t->citada));
        dt__cli_ob_put(&cabeza, " (", 2);
        for (size_t i = 0, p = 0; i < t->m; i++) {
            size_t j = t->de[i];
            if (j >= t->n || t->generada[j]) continue;
            char *cq = dt__cli_sql_citado(cols[j]);
            if (cq == NULL) s = DT_ERR_NO_MEMORY;
            else {
                if (p++) dt__cli_ob_put(&cabeza, ", ", 2);
                dt__cli_ob_put(&cabeza, cq, strlen(cq));
            }
            free(cq);
        }
        dt__cli_ob_put(&cabeza, ") VALUES ", 10);
        t->leer = dt__ic_dup(leer.data);
        t->cabeza = dt__ic_dup(cabeza.data);
        if (t->leer == NULL || t->cabeza == NULL) s = DT_ERR_NO_MEMORY;
    }
    dt__cli_ob_free(&leer);
    dt__cli_ob_free(&cabeza);
    mysql_free_result(r);
    free(cols);
    free(largos);
    return rc ? rc : s == DT_OK ? 0 : 1;
}

/* Every table's rules and plan, before anything is written: 0, 1 out of memory, 2 said. */
static int preparar(copia *c) {
    MYSQL_RES *r = consulta(&c->src, "--desde", "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                                                "DATABASE() AND table_type IN ('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY table_name",
                                  "reading its tables");
    if (r == NULL) return 2;
    c->t = (tabla *)calloc((size_t)mysql_num_rows(r) + 1, sizeof *c->t);
    int rc = c->t ? 0 : 1;
    MYSQL_ROW fila;
    while (rc == 0 && (fila = mysql_fetch_row(r)) != NULL) {
        tabla *t = &c->t[c->nt++];
        if ((t->nombre = dt__ic_dup(fila[0])) == NULL || (t->citada = dt__cli_sql_citado(fila[0])) == NULL) {
            rc = 1;
            break;
        }
        if ((rc = dt__cli_copiar_reglas(c->reglas, c->len, c->formato, c->archivo, t->nombre, &t->reglas)) != 0) break;
        rc = plan_de(c, t);
    }
    mysql_free_result(r);
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    return rc;
}

static int contiene(const char *s, size_t n, const char *aguja) {
    size_t k = strlen(aguja);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, aguja, k) == 0) return 1;
    return 0;
}

/* SHOW CREATE TABLE of t, made on the target without its foreign keys, which are kept for after the rows. */
static int crear_tabla(copia *c, tabla *t) {
    size_t n = strlen(t->citada) + 32;
    char *q = (char *)malloc(n);
    if (q == NULL) return 1;
    snprintf(q, n, "SHOW CREATE TABLE %s", t->citada);
    MYSQL_RES *r = consulta(&c->src, "--desde", q, "reading a table's CREATE statement");
    free(q);
    MYSQL_ROW fila = r ? mysql_fetch_row(r) : NULL;
    if (fila == NULL || fila[1] == NULL) {
        if (r) {
            fprintf(stderr, "datoteca: copiar: --desde: MariaDB at %s: cannot read the CREATE statement of table %s (nothing was "
                            "written)\n", c->src.donde, t->nombre);
            mysql_free_result(r);
        }
        return 2;
    }
    char *ddl = dt__ic_dup(fila[1]);
    mysql_free_result(r);
    if (ddl == NULL) return 1;
    /* each "  CONSTRAINT "x" FOREIGN KEY (...) REFERENCES ..." line out, and the comma before it */
    int rc = 0;
    for (char *l = strstr(ddl, "\n  CONSTRAINT "); rc == 0 && l;) {
        char *fin = strchr(l + 1, '\n');
        size_t largo = fin ? (size_t)(fin - l) : strlen(l);
        if (!contiene(l, largo, " FOREIGN KEY ")) {
            l = fin ? strstr(fin, "\n  CONSTRAINT ") : NULL;
            continue;
        }
        size_t lc = largo - 3 - (l[largo - 1] == ',');
        size_t m = strlen(t->citada) + lc + 32;
        char *alter = (char *)malloc(m);
        char **mas = (char **)realloc(c->fks, (c->nfks + 1) * sizeof *mas);
        if (alter == NULL || mas == NULL) {
            free(alter);
            if (mas) c->fks = mas;
            rc = 1;
            break;
        }
        c->fks = mas;
        snprintf(alter, m, "ALTER TABLE %s ADD %.*s", t->citada, (int)lc, l + 3);
        c->fks[c->nfks++] = alter;
        if (l[largo - 1] != ',' && l > ddl && l[-1] == ',') l[-1] = ' '; /* the last line: the one before ends the list */
        memmove(l, l + largo, strlen(l + largo) + 1);
        l = strstr(l, "\n  CONSTRAINT ");
    }
    if (rc == 0) rc = recordar(c, "TABLE", t->citada);
    char lugar[600];
    snprintf(lugar, sizeof lugar, "table %s: ", t->nombre);
    if (rc == 0) rc = hacer(c, ddl, "creating a table", lugar);
    free(ddl);
    return rc;
}

/* A block slot (dt__cli_lotes' scratch): its own plan, the block's rows as read (each value's bytes in texto,
 * NULL marked), and the refusal its worker met. One block is one INSERT of up to FILAS rows. */
typedef struct lote {
    dt_mascara_plan *plan;
    char *texto;
    size_t largo, cap;
    size_t *ini, *lon, capv, capl;   /* value j of row r: [r * n + j]; lon (size_t)-1 for NULL */
    size_t nfilas;
    unsigned long long primera; /* the block's first row, from 1 */
    const char **vals;
    size_t *largos;
    int rc;
    char why[DT_SENTENCE_MAX + 200];
    dt__revision_lote *rev; /* the review's counts of this block's rows (cli_revision.c) */
} lote;

typedef struct tarea {
    copia *c;
    tabla *t;
    MYSQL_RES *r;
    int rc_lectura;
    unsigned long long filas;
} tarea;

static void soltar(void *ctx, char *scratch) {
    (void)ctx;
    lote *b = (lote *)(void *)scratch;
    dt_mascara_plan_free(b->plan);
    if (b->texto) dt__borrar(b->texto, b->cap); /* production's rows: wiped like the plan's buffers */
    free(b->texto), free(b->ini), free(b->lon), free(b->vals), free(b->largos);
    dt__cli_revision_lote_free(b->rev);
    memset(b, 0, sizeof *b);
}

/* dt__cli_lotes' llenar, on the calling thread: up to `max` source rows (about BYTES) into the slot. */
static int llenar(void *ctx, unsigned long long desde, size_t max, char *scratch, size_t *filas) {
    tarea *ta = (tarea *)ctx;
    tabla *t = ta->t;
    lote *b = (lote *)(void *)scratch;
    b->largo = b->nfilas = 0, b->rc = 0, b->primera = desde + 1;
    *filas = 0;
    if (detenida()) { /* between blocks: no more rows; the copy is undone by its caller */
        ta->rc_lectura = DETENIDA;
        return 0;
    }
    if (b->plan == NULL) {
        b->vals = (const char **)calloc(t->n + 1, sizeof *b->vals);
        b->largos = (size_t *)calloc(t->n + 1, sizeof *b->largos);
        const char **cols = (const char **)calloc(t->n + 1, sizeof *cols);
        size_t *lc = (size_t *)calloc(t->n + 1, sizeof *lc);
        char why[DT_SENTENCE_MAX];
        int ok = b->vals && b->largos && cols && lc;
        for (size_t j = 0; ok && j < t->n; j++) cols[j] = t->cols[j], lc[j] = strlen(t->cols[j]);
        ok = ok && dt_mascara_plan_new(t->reglas, ta->c->k, t->n, cols, lc, &b->plan, why, sizeof why) == DT_OK;
        free(cols), free(lc);
        if (!ok) { /* the same rules made the first plan: only memory can fail here */
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: out of memory\n");
            ta->rc_lectura = 1;
            return 0;
        }
    }
    MYSQL_ROW f;
    while (b->nfilas < max && b->largo < BYTES && (f = mysql_fetch_row(ta->r)) != NULL) {
        unsigned long *l = mysql_fetch_lengths(ta->r);
        size_t suma = 0;
        for (size_t j = 0; j < t->n; j++) suma += f[j] ? l[j] : 0;
        if (dt__cli_crecer((void **)&b->texto, &b->cap, b->largo + suma + 1, 1) ||
            dt__cli_crecer((void **)&b->ini, &b->capv, (b->nfilas + 1) * t->n + 1, sizeof *b->ini) ||
            dt__cli_crecer((void **)&b->lon, &b->capl, b->capv, sizeof *b->lon)) {
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: out of memory\n");
            ta->rc_lectura = 1;
            return 0;
        }
        for (size_t j = 0; j < t->n; j++) {
            size_t k = b->nfilas * t->n + j;
            b->ini[k] = b->largo;
            b->lon[k] = f[j] ? l[j] : (size_t)-1;
            if (f[j]) memcpy(b->texto + b->largo, f[j], l[j]), b->largo += l[j];
        }
        b->nfilas++;
        ta->filas++;
    }
    *filas = b->nfilas;
    if (b->nfilas < max && b->largo < BYTES) { /* the rows ended, or the read failed */
        if (mysql_errno(ta->c->src.con)) {
            fallo(&ta->c->src, "--desde", "reading a table", NULL, 0);
            ta->rc_lectura = 2;
        }
        return 0;
    }
    return 1;
}

/* dt__cli_lotes' hacer, on a worker: the slot's rows masked into one INSERT (or, for a dump, its text). */
static void enmascarar_lote(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *scratch) {
    (void)desde;
    (void)n;
    const tarea *ta = (const tarea *)ctx;
    const tabla *t = ta->t;
    lote *b = (lote *)(void *)scratch;
    for (size_t r = 0; r < b->nfilas && b->rc == 0; r++) {
        for (size_t j = 0; j < t->n; j++) {
            size_t k = r * t->n + j;
            b->vals[j] = b->lon[k] == (size_t)-1 ? NULL : b->texto + b->ini[k];
            b->largos[j] = b->lon[k] == (size_t)-1 ? 0 : b->lon[k];
        }
        char why[DT_SENTENCE_MAX];
        dt_status s = dt_mascara_plan_fila(b->plan, b->primera + r, t->n, b->vals, b->largos, why, sizeof why);
        if (s != DT_OK) {
            b->rc = s == DT_ERR_NO_MEMORY ? 1 : 2;
            snprintf(b->why, sizeof b->why, "datoteca: copiar: table %s: %s (nothing was written)", t->nombre, why);
            break;
        }
        dt__cli_revision_fila(&b->rev, t->rev, b->primera + r, b->vals, b->largos, b->plan);
        if (r == 0) dt__cli_ob_put(o, t->cabeza, strlen(t->cabeza));
        else dt__cli_ob_putc(o, ',');
        dt__cli_ob_putc(o, '(');
        for (size_t i = 0, p = 0; i < t->m; i++) {
            size_t lv, j = t->de[i];
            if (j >= t->n || t->generada[j]) continue;
            const char *v = dt_mascara_plan_valor(b->plan, i, &lv);
            if (p++) dt__cli_ob_putc(o, ',');
            if (lv == 0 && (b->vals[j] == NULL || b->largos[j] > 0)) dt__cli_ob_put(o, "NULL", 4); /* null, or emptied by its rule */
            else if (t->binaria[j]) hexadecimal(o, v, lv);
            else literal(o, v, lv, 1); /* backslash escapes: the target session's and the dump's (above) */
        }
        dt__cli_ob_putc(o, ')');
    }
}

/* dt__cli_lotes' usar_bloque, on the calling thread in row order: the block's INSERT run (or written to the
 * dump), then the block's refusal said. */
static int usar(void *ctx, outbuf *o, char *scratch) {
    tarea *ta = (tarea *)ctx;
    copia *c = ta->c;
    const lote *b = (const lote *)(const void *)scratch;
    size_t n = (size_t)(o->p - o->data);
    if (n && c->f) {
        if (fwrite(o->data, 1, n, c->f) != n || fputs(";\n", c->f) < 0) {
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
            ta->rc_lectura = 1;
            return 1;
        }
    } else if (n && mysql_real_query(c->dst.con, o->data, (unsigned long)n) != 0) {
        /* the server's "at row N" counts from the statement's first row */
        const char *at = strstr(mysql_error(c->dst.con), " at row ");
        unsigned long long r = at ? strtoull(at + 8, NULL, 10) : 0, ultima = b->primera + b->nfilas - 1;
        char lugar[600];
        if (r >= 1 && b->primera + r - 1 <= ultima) snprintf(lugar, sizeof lugar, "table %s, row %llu: ", ta->t->nombre, b->primera + r - 1);
        else snprintf(lugar, sizeof lugar, "table %s, one of rows %llu to %llu: ", ta->t->nombre, b->primera, ultima);
        fallo(&c->dst, "--hacia", "inserting rows", lugar, 1);
        ta->rc_lectura = 2;
        return 1;
    }
    dt__cli_revision_bloque(c->rev, b->rev);
    if (b->rc) {
        dt__cli_progreso_cortar();
        if (b->rc == 1) fprintf(stderr, "datoteca: out of memory\n");
        else fprintf(stderr, "%s\n", b->why);
        ta->rc_lectura = b->rc;
        return 1;
    }
    return 0;
}

/* Table t's rows, masked, into the target or the dump: blocks of up to FILAS rows masked by the --jobs threads,
 * each one INSERT, run in row order. 0, 1 out of memory or I/O, 2 said. */
static int filas(copia *c, tabla *t, unsigned long long *total) {
    if (mysql_query(c->src.con, t->leer) != 0) {
        fallo(&c->src, "--desde", "reading a table", NULL, 0);
        return 2;
    }
    MYSQL_RES *r = mysql_use_result(c->src.con);
    if (r == NULL) {
        fallo(&c->src, "--desde", "reading a table", NULL, 0);
        return 2;
    }
    tarea ta = {c, t, r, 0, 0};
    dt__cli_lotes l = {0, ULLONG_MAX, FILAS, c->jobs, sizeof(lote), enmascarar_lote, NULL, &ta, c->prog, llenar, usar, soltar};
    int lr = dt__cli_lotes_run(&l); /* -1: out of memory, said */
    int rc = lr < 0 ? 1 : ta.rc_lectura ? ta.rc_lectura : lr ? 2 : 0;
    while (mysql_fetch_row(r) != NULL) { /* the rest drained, so the connection stays usable */
    }
    mysql_free_result(r);
    if (rc == 0 && c->f == NULL) rc = orden(&c->dst, "--hacia", "COMMIT", (size_t)-1, "committing a table's rows", NULL);
    if (rc == 0 && c->f && fputs("COMMIT;\n", c->f) < 0) {
        fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
        rc = 1;
    }
    *total += ta.filas;
    return rc;
}

/* Routines, then views, then triggers, as SHOW CREATE gives them without DEFINER. A view over another view
 * is made once the one it reads exists: views are tried in passes until a pass makes none. */
static int objetos(copia *c) {
    static const char *const Q[] = {
        "SELECT routine_type, routine_name FROM information_schema.routines WHERE routine_schema = DATABASE() ORDER BY 2",
        "SELECT 'VIEW', table_name FROM information_schema.views WHERE table_schema = DATABASE() ORDER BY 2",
        "SELECT 'TRIGGER', trigger_name FROM information_schema.triggers WHERE trigger_schema = DATABASE() "
        "ORDER BY event_object_table, action_timing, event_manipulation, action_order"};
    int rc = 0;
    for (int k = 0; k < 3 && rc == 0; k++) {
        if (c->sin_rutinas && k != 1) continue; /* views only */
        MYSQL_RES *r = consulta(&c->src, "--desde", Q[k], "reading its routines, views and triggers");
        if (r == NULL) return 2;
        size_t n = (size_t)mysql_num_rows(r), hechos = 0;
        char **tipo = (char **)calloc(n + 1, sizeof *tipo), **ddl = (char **)calloc(n + 1, sizeof *ddl);
        char **citado = (char **)calloc(n + 1, sizeof *citado), **modo = (char **)calloc(n + 1, sizeof *modo);
        if (tipo == NULL || ddl == NULL || citado == NULL || modo == NULL) rc = 1;
        MYSQL_ROW f;
        for (size_t i = 0; rc == 0 && (f = mysql_fetch_row(r)) != NULL; i++) {
            tipo[i] = dt__ic_dup(f[0]);
            citado[i] = dt__cli_sql_citado(f[1]);
            if (tipo[i] == NULL || citado[i] == NULL) rc = 1;
        }
        mysql_free_result(r);
        for (size_t i = 0; rc == 0 && i < n; i++) {
            char q[700];
            if ((rc = detenida()) != 0) break;
            snprintf(q, sizeof q, "SHOW CREATE %s %s", tipo[i], citado[i]);
            MYSQL_RES *s = consulta(&c->src, "--desde", q, "reading a CREATE statement");
            MYSQL_ROW g = s ? mysql_fetch_row(s) : NULL;
            /* the statement's column: 2 for a routine and a trigger, 1 for a view */
            const char *texto = g ? g[k == 1 ? 1 : 2] : NULL;
            if (texto == NULL) {
                if (s) /* a NULL statement: the account may not read that object's definition */
                    fprintf(stderr, "datoteca: copiar: --desde: MariaDB at %s: cannot read the CREATE statement of %s %s (the account "
                                    "may lack the privilege to see it) (nothing was written)\n", c->src.donde, tipo[i], citado[i]);
                rc = 2;
            } else if ((ddl[i] = sin_definer(texto)) == NULL) rc = 1;
            /* a routine's or trigger's body is read under the sql_mode it was made with (column 1): made again under it */
            else if (k != 1 && g[1] != NULL) {
                outbuf m;
                if (dt__cli_ob_init(&m, strlen(g[1]) * 2 + 64, NULL)) rc = 1;
                else {
                    dt__cli_ob_put(&m, "SET SESSION sql_mode = ", 23);
                    literal(&m, g[1], strlen(g[1]), c->f != NULL);
                    dt__cli_ob_putc(&m, '\0');
                    if ((modo[i] = dt__ic_dup(m.data)) == NULL) rc = 1;
                    dt__cli_ob_free(&m);
                }
            }
            if (s) mysql_free_result(s);
        }
        unsigned char *hecho = (unsigned char *)calloc(n + 1, 1);
        if (rc == 0 && hecho == NULL) rc = 1;
        /* the dump: a view is written once no view it names is still to be written (the direct copy learns the
         * order from the server's 1146 instead); when none can go, the rest in name order */
        int forzar = 0;
        for (int otra = 1; rc == 0 && (otra || (c->f && hechos < n && !forzar && (forzar = 1)));) {
            otra = 0;
            for (size_t i = 0; rc == 0 && i < n; i++) {
                if (hecho[i]) continue;
                if ((rc = detenida()) != 0) break;
                if (c->f && k == 1 && !forzar) {
                    int espera = 0;
                    for (size_t j = 0; j < n && !espera; j++) espera = j != i && !hecho[j] && strstr(ddl[i], citado[j]) != NULL;
                    if (espera) continue;
                }
                if (c->f) {
                    int bloque = k != 1; /* a routine's or trigger's body holds ';': the client needs another delimiter */
                    if (fprintf(c->f, "%s%s%s%s%s\n%s%s", modo[i] ? modo[i] : "", modo[i] ? ";\n" : "", bloque ? "DELIMITER ;;\n" : "",
                                ddl[i], bloque ? ";;" : ";", bloque ? "DELIMITER ;\n" : "", modo[i] ? MODO_VOLCADO ";\n" : "") < 0)
                        rc = 1;
                    hecho[i] = 1, hechos++, otra = 1;
                    continue;
                }
                if (modo[i] && (rc = orden(&c->dst, "--hacia", modo[i], (size_t)-1, "setting a trigger's sql_mode", NULL)) != 0) break;
                int hecha = mysql_real_query(c->dst.con, ddl[i], (unsigned long)strlen(ddl[i])) == 0;
                unsigned int err = hecha ? 0 : mysql_errno(c->dst.con);
                char motivo[700];
                if (!hecha) dt__mdb_frase(&c->dst, 0, motivo, sizeof motivo);
                if (modo[i] && (rc = orden(&c->dst, "--hacia", c->modo, (size_t)-1, "restoring the session's sql_mode", NULL)) != 0)
                    break;
                if (hecha) {
                    hecho[i] = 1, hechos++, otra = 1;
                    if (k != 2) rc = recordar(c, tipo[i], citado[i]);
                } else if (k != 1 || err != 1146) { /* 1146: a view over a view not made yet */
                    dt__cli_progreso_cortar();
                    fprintf(stderr, "datoteca: copiar: --hacia: MariaDB at %s: creating the source's routines, views and triggers: "
                                    "%s %s: %s [error %u] (nothing was written)\n", c->dst.donde, tipo[i], citado[i], motivo, err);
                    rc = 2;
                }
            }
        }
        if (rc == 0 && hechos < n) {
            fprintf(stderr, "datoteca: copiar: --hacia: MariaDB at %s: %zu views could not be made (each reads a table or view "
                            "the copy does not have) (nothing was written)\n", c->dst.donde, n - hechos);
            rc = 2;
        }
        for (size_t i = 0; i < n; i++) {
            if (tipo) free(tipo[i]);
            if (ddl) free(ddl[i]);
            if (citado) free(citado[i]);
            if (modo) free(modo[i]);
        }
        free(tipo), free(ddl), free(citado), free(modo), free(hecho);
    }
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    return rc;
}

/* s matches a grant's database pattern p (SHOW GRANTS writes `app`, `app\_x`, `app%`): '%' any run, '_' any one
 * character, '\' makes the next one literal. */
static int como(const char *s, const char *p) {
    for (; *p; p++, s++) {
        if (*p == '%') {
            for (;; s++) {
                if (como(s, p + 1)) return 1;
                if (*s == '\0') return 0;
            }
        }
        if (*p == '\\' && p[1]) p++;
        else if (*p == '_') {
            if (*s == '\0') return 0;
            continue;
        }
        if (*s != *p) return 0;
    }
    return *s == '\0';
}

/* One name of a grant's object: quoted (`app`, or "app" under ANSI_QUOTES, as the source's session runs; a doubled
 * quote is one) or bare up to '.' or ' '; *p moved past it. */
static char *nombre_de_permiso(const char **p) {
    const char *q = *p;
    outbuf o;
    if (dt__cli_ob_init(&o, 64, NULL)) return NULL;
    if (*q == '`' || *q == '"') {
        char c = *q;
        for (q++; *q && !(*q == c && q[1] != c); q++) {
            if (*q == c) q++;
            dt__cli_ob_putc(&o, *q);
        }
        if (*q == c) q++;
    } else
        for (; *q && *q != '.' && *q != ' '; q++) dt__cli_ob_putc(&o, *q);
    dt__cli_ob_putc(&o, '\0');
    char *r = dt__ic_dup(o.data);
    dt__cli_ob_free(&o);
    *p = q;
    return r;
}

/* One line of SHOW GRANTS ("GRANT privileges ON object TO ..."; the active role's lines come with the account's)
 * read for database db: a routine privilege over all of its routines sets *rutinas, TRIGGER over all of its
 * tables *disparadores; TRIGGER on one of its tables adds that table's name to *tablas (n of them). 0, 1. */
static int permiso(const char *g, const char *db, int *rutinas, int *disparadores, char ***tablas, size_t *n) {
    const char *on = strstr(g, " ON ");
    if (strncmp(g, "GRANT ", 6) != 0 || on == NULL) return 0; /* a role granted: its own lines follow */
    char privs[1024];
    size_t k = 0;
    int par = 0;
    for (const char *p = g + 6; p < on && k + 1 < sizeof privs; p++) { /* column lists "(a, b)" left out */
        if (*p == '(') par++;
        else if (*p == ')') par--;
        else if (!par) privs[k++] = *p;
    }
    privs[k] = '\0';
    int todo = strstr(privs, "ALL PRIVILEGES") != NULL;
    int rut = todo || strstr(privs, "EXECUTE") || strstr(privs, "ALTER ROUTINE") || strstr(privs, "CREATE ROUTINE");
    int trg = todo || strstr(privs, "TRIGGER");
    if (!rut && !trg) return 0;
    const char *p = on + 4;
    if (strncmp(p, "FUNCTION ", 9) == 0 || strncmp(p, "PROCEDURE ", 10) == 0 || strncmp(p, "PACKAGE ", 8) == 0) return 0;
    if (strncmp(p, "*.*", 3) == 0) {
        *rutinas |= rut, *disparadores |= trg;
        return 0;
    }
    char *base = nombre_de_permiso(&p), *t = NULL;
    if (base == NULL) return 1;
    int rc = 0;
    if (*p == '.' && como(db, base)) {
        p++;
        if (*p == '*') *rutinas |= rut, *disparadores |= trg;
        else if (trg && (t = nombre_de_permiso(&p)) == NULL) rc = 1;
        else if (t) {
            char **m = (char **)realloc(*tablas, (*n + 1) * sizeof *m);
            if (m == NULL) rc = 1;
            else (*tablas = m)[(*n)++] = t, t = NULL;
        }
    }
    free(base), free(t);
    return rc;
}

/* Whether nombre is one of the n names (a routine listed, a table with TRIGGER granted on it alone). */
static int cubierta(char *const *nombres, size_t n, const char *nombre) {
    for (size_t j = 0; j < n; j++)
        if (strcmp(nombres[j], nombre) == 0) return 1;
    return 0;
}

/* Can this account read every routine and trigger of the source? A routine is listed by information_schema only
 * to an account with a privilege on it (EXECUTE, ALTER ROUTINE, CREATE ROUTINE) or to its definer, and its CREATE
 * statement is shown only to its definer or an account that reads mysql.proc; a trigger is listed and shown only
 * to an account with the TRIGGER privilege on its table. An account without them sees nothing, and the copy would
 * be made without them and without a word: what it cannot read is said (by name when the account can see the
 * name: mysql.proc's list, information_schema's), and the copy refused before anything is written. 0, 1, 2 said. */
static int rutinas_legibles(copia *c) {
    char *db = NULL;
    int rc = 0, prov = 0, rutinas_bd = 0, disparadores_bd = 0;
    size_t nvis = 0, nproc = 0, ncubiertas = 0;
    char **vis = NULL, **proc = NULL, **cubiertas = NULL; /* "PROCEDURE p"; tables with TRIGGER granted */
    unsigned char *oculta = NULL;                         /* visible routine i: its CREATE statement hidden */
    MYSQL_RES *r = consulta(&c->src, "--desde", "SELECT DATABASE()", "reading its name");
    MYSQL_ROW f = r ? mysql_fetch_row(r) : NULL;
    if (f == NULL || f[0] == NULL || (db = dt__ic_dup(f[0])) == NULL) rc = r ? 1 : 2;
    if (r) mysql_free_result(r), r = NULL;
    /* the routines information_schema lists to this account, each with whether its statement is hidden */
    if (rc == 0 && (r = consulta(&c->src, "--desde", "SELECT CONCAT(routine_type, ' ', routine_name), routine_definition IS NULL "
                                                    "FROM information_schema.routines WHERE routine_schema = DATABASE() ORDER BY 1",
                                 "reading its routines")) == NULL) rc = 2;
    if (rc == 0) {
        nvis = (size_t)mysql_num_rows(r);
        vis = (char **)calloc(nvis + 1, sizeof *vis);
        oculta = (unsigned char *)calloc(nvis + 1, 1);
        if (vis == NULL || oculta == NULL) rc = 1;
        for (size_t i = 0; rc == 0 && i < nvis && (f = mysql_fetch_row(r)) != NULL; i++) {
            if ((vis[i] = dt__ic_dup(f[0] ? f[0] : "")) == NULL) rc = 1;
            oculta[i] = f[1] && f[1][0] == '1';
        }
    }
    if (r) mysql_free_result(r), r = NULL;
    /* mysql.proc, when this account reads it, lists every routine of the database (MySQL 8 has none: not read) */
    if (rc == 0 && mysql_query(c->src.con, "SELECT CONCAT(type, ' ', name) FROM mysql.proc WHERE db = DATABASE() ORDER BY 1") == 0 &&
        (r = mysql_store_result(c->src.con)) != NULL) {
        prov = 1;
        nproc = (size_t)mysql_num_rows(r);
        if ((proc = (char **)calloc(nproc + 1, sizeof *proc)) == NULL) rc = 1;
        for (size_t i = 0; rc == 0 && i < nproc && (f = mysql_fetch_row(r)) != NULL; i++)
            if ((proc[i] = dt__ic_dup(f[0] ? f[0] : "")) == NULL) rc = 1;
        mysql_free_result(r), r = NULL;
    }
    /* the account's privileges (SHOW GRANTS: its own and its active role's) over the whole server or the database:
     * a routine one (every routine listed), TRIGGER (every trigger listed and shown); else the tables it holds
     * TRIGGER on */
    if (rc == 0 && (r = consulta(&c->src, "--desde", "SHOW GRANTS", "reading the account's privileges")) == NULL) rc = 2;
    while (rc == 0 && (f = mysql_fetch_row(r)) != NULL)
        if (f[0]) rc = permiso(f[0], db, &rutinas_bd, &disparadores_bd, &cubiertas, &ncubiertas);
    if (r) mysql_free_result(r), r = NULL;
    /* what cannot be read */
    size_t malas = 0, ciegas = 0;
    for (size_t i = 0; rc == 0 && i < nvis; i++) malas += oculta[i];
    for (size_t i = 0; rc == 0 && i < nproc; i++) malas += !cubierta(vis, nvis, proc[i]);
    int ciego_rutinas = rc == 0 && !prov && !rutinas_bd;
    for (size_t i = 0; rc == 0 && !disparadores_bd && i < c->nt; i++) ciegas += !cubierta(cubiertas, ncubiertas, c->t[i].nombre);
    if (rc == 0 && (malas || ciego_rutinas || ciegas)) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: copiar: --desde: MariaDB at %s: this account cannot read every routine and trigger of the "
                        "database, and the copy would be made without them (nothing was written):\n", c->src.donde);
        for (size_t i = 0; i < nvis; i++)
            if (oculta[i])
                fprintf(stderr, "  %s: the account sees it but not its CREATE statement (only its definer and an "
                                "account that reads mysql.proc do)\n", vis[i]);
        for (size_t i = 0; i < nproc; i++)
            if (!cubierta(vis, nvis, proc[i]))
                fprintf(stderr, "  %s: mysql.proc lists it, information_schema does not show it to the account\n", proc[i]);
        if (ciego_rutinas)
            fprintf(stderr, "  routines: the account cannot see whether the database has any it did not define (it holds neither "
                            "SELECT on mysql.proc nor EXECUTE, ALTER ROUTINE or CREATE ROUTINE on the database); %zu listed to it\n", nvis);
        if (ciegas && ciegas == c->nt)
            fprintf(stderr, "  triggers: the account cannot see any trigger of the database's %zu table%s (a trigger is shown only "
                            "with the TRIGGER privilege on its table)\n", c->nt, c->nt == 1 ? "" : "s");
        else if (ciegas) {
            fprintf(stderr, "  triggers: the account cannot see the triggers of table%s", ciegas == 1 ? "" : "s");
            for (size_t i = 0, k = 0; i < c->nt; i++)
                if (!cubierta(cubiertas, ncubiertas, c->t[i].nombre)) fprintf(stderr, "%s %s", k++ ? "," : "", c->t[i].nombre);
            fprintf(stderr, " (a trigger is shown only with the TRIGGER privilege on its table)\n");
        }
        fprintf(stderr, "  grant the account SELECT on mysql.proc and TRIGGER on database %s, or give --sin-rutinas to copy "
                        "without routines and triggers\n", db);
        rc = 2;
    }
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    for (size_t i = 0; vis && i < nvis; i++) free(vis[i]);
    for (size_t i = 0; proc && i < nproc; i++) free(proc[i]);
    for (size_t i = 0; cubiertas && i < ncubiertas; i++) free(cubiertas[i]);
    free(vis), free(proc), free(cubiertas), free(oculta), free(db);
    return rc;
}

/* The target must hold no table, view or routine: copiar creates the source's. 0, or 2 said. */
static int vacio(copia *c) {
    MYSQL_RES *r = consulta(&c->dst, "--hacia", "SELECT (SELECT count(*) FROM information_schema.tables WHERE table_schema = "
                                                "DATABASE()) + (SELECT count(*) FROM information_schema.routines WHERE "
                                                "routine_schema = DATABASE())", "reading its tables");
    if (r == NULL) return 2;
    MYSQL_ROW f = mysql_fetch_row(r);
    int lleno = f == NULL || f[0] == NULL || strcmp(f[0], "0") != 0;
    if (lleno)
        fprintf(stderr, "datoteca: copiar: --hacia: MariaDB at %s holds %s tables, views or routines; copiar writes into an "
                        "empty database (CREATE DATABASE one) (nothing was written)\n", c->dst.donde, f && f[0] ? f[0] : "?");
    mysql_free_result(r);
    return lleno ? 2 : 0;
}

/* After a refusal: every object made, dropped, newest first, then the mark. */
static void deshacer(copia *c) {
    mysql_query(c->dst.con, "ROLLBACK");
    mysql_query(c->dst.con, "SET foreign_key_checks = 0");
    for (size_t i = c->nhechos; i-- > 0;) {
        char q[700];
        snprintf(q, sizeof q, "DROP %s IF EXISTS %s", c->hechos[i].tipo, c->hechos[i].citado);
        if (mysql_query(c->dst.con, q) == 0) {
            MYSQL_RES *r = mysql_store_result(c->dst.con);
            if (r) mysql_free_result(r);
        }
    }
    mysql_query(c->dst.con, "DROP TABLE IF EXISTS " MARCA);
}

/* A smaller copy: the kept rows of each table (cli/subconjunto_mariadb.c), then each table's SELECT reads only
 * those. 0, 1 out of memory, 2 said. */
static int subconjunto(copia *c, const dt__copiar_opciones *o) {
    char **nombres = (char **)calloc(c->nt + 1, sizeof *nombres), **donde = (char **)calloc(c->nt + 1, sizeof *donde);
    int rc = nombres && donde ? 0 : 1;
    for (size_t i = 0; rc == 0 && i < c->nt; i++) nombres[i] = c->t[i].nombre;
    uint64_t raices = 0;
    if (rc == 0) rc = dt__cli_mariadb_subconjunto(&c->src, nombres, c->nt, o->subconjunto, o->semilla, o->hijos, o->donde, o->ndonde,
                                              donde, &raices);
    for (size_t i = 0; rc == 0 && i < c->nt; i++) {
        tabla *t = &c->t[i];
        size_t n = strlen(t->leer) + strlen(donde[i]) + 2;
        char *leer = (char *)malloc(n);
        if (leer == NULL) rc = 1;
        else {
            snprintf(leer, n, "%s %s", t->leer, donde[i]);
            free(t->leer);
            t->leer = leer;
        }
    }
    for (size_t i = 0; donde && i < c->nt; i++) free(donde[i]);
    free(donde);
    free(nombres);
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    return rc;
}

static void liberar(copia *c) {
    for (size_t i = 0; c->t && i < c->nt; i++) {
        tabla *t = &c->t[i];
        free(t->nombre), free(t->citada), free(t->de), free(t->generada), free(t->binaria), free(t->leer), free(t->cabeza);
        for (size_t j = 0; t->cols && j < t->n; j++) free(t->cols[j]);
        free(t->cols);
        dt_mascara_plan_free(t->plan);
        dt_mascara_reglas_free(t->reglas);
    }
    free(c->t);
    for (size_t i = 0; i < c->nfks; i++) free(c->fks[i]);
    free(c->fks);
    for (size_t i = 0; i < c->nhechos; i++) free(c->hechos[i].tipo), free(c->hechos[i].citado);
    free(c->hechos);
    free(c->modo);
}

int dt__cli_mariadb_copiar(const char *desde, const char *hacia, const dt__copiar_opciones *o, const char *reglas, size_t len,
                           int formato, const char *archivo, const dt_mascara_clave *k) {
    copia c;
    memset(&c, 0, sizeof c);
    c.rev = o->revision; /* before preparar: each table's review is made with its plan */
    c.reglas = reglas, c.len = len, c.formato = formato, c.archivo = archivo, c.k = k;
    char why[DT_SENTENCE_MAX];
    if (dt__mdb_abrir(&c.src, desde, why, sizeof why)) {
        fprintf(stderr, "datoteca: copiar: --desde: %s\n", why);
        return 2;
    }
    int rc = orden(&c.src, "--desde", "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ", (size_t)-1, "starting a snapshot", NULL);
    /* (a subset keeps its rows in TEMPORARY tables, which a READ ONLY transaction may not write) */
    if (rc == 0) rc = orden(&c.src, "--desde", o->subconjunto ? "START TRANSACTION WITH CONSISTENT SNAPSHOT" :
                            "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY", (size_t)-1, "starting a snapshot", NULL);
    c.sin_rutinas = o->sin_rutinas;
    if (rc == 0) rc = preparar(&c);
    if (rc == 0 && !c.sin_rutinas) rc = rutinas_legibles(&c);
    if (rc == 0 && o->subconjunto) rc = subconjunto(&c, o);
    char *tmp = NULL;
    int marcado = 0;
    if (rc == 0 && o->volcado) {
        size_t n = strlen(hacia) + 40;
        if ((tmp = (char *)malloc(n)) == NULL) rc = 1;
        else {
            snprintf(tmp, n, "%s.escribiendo-%ld", hacia, (long)getpid());
            dt__cli_copiar_temporal(0, tmp); /* before it exists: a stop right after must not leave it */
            if ((c.f = fopen(tmp, "wx")) == NULL) {
                fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
                rc = 1;
            }
        }
        if (rc == 0 && fputs("-- a masked copy written by datoteca copiar (docs/copia.md): every table's rows masked by its rules.\n"
                             "-- Load it into an empty database: mariadb NEW < THIS_FILE\n"
                             "SET NAMES utf8mb4;\n"
                             MODO_VOLCADO ";\n"
                             "SET autocommit = 0;\n", c.f) < 0)
            rc = 1;
    } else if (rc == 0) {
        if (dt__mdb_abrir(&c.dst, hacia, why, sizeof why)) {
            fprintf(stderr, "datoteca: copiar: --hacia: %s\n", why);
            rc = 2;
        }
        if (rc == 0) rc = vacio(&c);
        /* from here on a signal is only noted: what the copy makes is dropped before the process ends by it */
        if (rc == 0) dt__cli_copiar_diferir(1);
        if (rc == 0) rc = orden(&c.dst, "--hacia", "CREATE TABLE " MARCA " (nota text) COMMENT 'datoteca copiar is writing this "
                                                  "database, or stopped before it ended: do not use it'", (size_t)-1, "marking the copy unfinished", NULL);
        marcado = rc == 0;
        if (rc == 0) rc = orden(&c.dst, "--hacia", "SET autocommit = 0", (size_t)-1, "starting", NULL);
        /* strict for every engine: a masked value that does not fit its column is refused, never cut to fit; and
         * backslash escapes on, as the server writes the literals of SHOW CREATE (a default 'C:\\dir') and as
         * the rows' literals are written here (the dump's way) */
        if (rc == 0)
            rc = orden(&c.dst, "--hacia", "SET SESSION sql_mode = CONCAT(TRIM(BOTH ',' FROM REPLACE(REPLACE(@@sql_mode, "
                                          "'NO_BACKSLASH_ESCAPES', ''), ',,', ',')), ',STRICT_ALL_TABLES')", (size_t)-1, "starting", NULL);
        MYSQL_RES *r = rc == 0 ? consulta(&c.dst, "--hacia", "SELECT CONCAT('SET SESSION sql_mode = ''', @@sql_mode, '''')",
                                          "reading its sql_mode") : NULL;
        MYSQL_ROW f = r ? mysql_fetch_row(r) : NULL;
        if (rc == 0 && (f == NULL || f[0] == NULL || (c.modo = dt__ic_dup(f[0])) == NULL)) rc = 2;
        if (r) mysql_free_result(r);
    }
    for (size_t i = 0; i < c.nt && rc == 0; i++)
        if ((rc = detenida()) == 0) rc = crear_tabla(&c, &c.t[i]);
    unsigned long long total = 0;
    dt__progreso prog;
    c.prog = &prog, c.jobs = o->jobs ? o->jobs : 1;
    dt__cli_progreso_empezar(&prog, "copiar", o->progreso, 0, 0, (uint32_t)c.nt, 0);
    for (size_t i = 0; i < c.nt && rc == 0; i++) {
        prog.tabla = (uint32_t)i + 1;
        rc = filas(&c, &c.t[i], &total);
    }
    dt__cli_progreso_terminar(&prog, rc == 0);
    for (size_t i = 0; i < c.nfks && rc == 0; i++)
        if ((rc = detenida()) == 0) rc = hacer(&c, c.fks[i], "adding a foreign key over the masked rows", NULL);
    if (rc == 0) rc = objetos(&c);
    if (rc == 0) rc = detenida();
    if (rc == 0 && c.f == NULL) rc = orden(&c.dst, "--hacia", "DROP TABLE " MARCA, (size_t)-1, "ending the copy", NULL);
    if (rc != 0 && marcado) deshacer(&c);
    if (rc == DETENIDA) {
        int sig = dt__cli_copiar_detenida();
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: copiar: stopped by %s: everything the copy had made in --hacia (MariaDB at %s) was dropped, "
                        "the unfinished mark too\n", sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal", c.dst.donde);
    }
    if (c.f && fclose(c.f) != 0 && rc == 0) {
        fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
        rc = 1;
    }
    /* judged again before the rename: a device or a link made meanwhile is not replaced (cli_salida.c) */
    if (tmp && rc == 0 && dt__cli_salida_renombrar(tmp, hacia, "dump", "copiar", "--hacia") != 0) rc = 1;
    if (tmp && rc != 0) remove(tmp);
    dt__cli_copiar_temporal(0, NULL);
    if (rc == 0)
        fprintf(stderr, "datoteca copiar: %zu table%s, %llu rows masked%s%s%s\n", c.nt, c.nt == 1 ? "" : "s", total,
                o->subconjunto ? " (a subset)" : "",
                o->volcado ? "; written as an SQL dump for the mariadb client" : ", every foreign key checked by MariaDB",
                c.sin_rutinas ? "; routines and triggers skipped (--sin-rutinas)" : "");
    dt__mdb_cerrar(&c.dst);
    dt__mdb_cerrar(&c.src);
    liberar(&c);
    free(tmp);
    dt__cli_copiar_rendirse(); /* a signal noted: the process ends by it now, its copy undone */
    return rc == DETENIDA ? 2 : rc;
}
