/* datoteca copiar --desde postgresql://PROD --hacia postgresql://STAGING|DUMP.sql: a masked copy of a whole
 * PostgreSQL database (docs/copia.md).
 *
 *   1. The source is read in one REPEATABLE READ snapshot, exported so that pg_dump reads the same one.
 *   2. Every table's rules and plan are made before anything is written (dt_mascara_reglas_tabla_new): a
 *      table or a column without a rule stops the run with nothing written (privacy by default).
 *   3. The schema is the source's own, as pg_dump writes it (--schema-only, owners and grants left out): its
 *      pre-data section (schemas, types, functions, tables, sequences, views) before the rows, its post-data
 *      section (keys, UNIQUE and foreign-key constraints, indexes, triggers, rules) after them, so the target
 *      validates every constraint over the masked rows and no trigger fires for a copied row. pg_dump is run,
 *      not re-implemented: it is the one program that knows every kind of object of its server's version.
 *   4. Rows stream: COPY (SELECT ...) TO STDOUT on the source, each line through the table's plan, COPY FROM
 *      STDIN on the target (or into the dump): memory does not grow with the table.
 *   5. Each sequence is set where the source's is (past every copied key), then the post-data, then COMMIT.
 *      The target is written in one transaction: a refusal or an interrupted run leaves it as it was. A dump
 *      is written to a temporary file beside it and renamed only when whole.
 *
 * Sentences name the table, the row and the column, never a value; no password is printed (dt__pg_limpio),
 * and pg_dump gets the connection in its environment, as libpq's own variables, never in its argv.
 *
 * This file links libpq, so it is compiled into the datoteca program only (CMakeLists.txt). */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* fork, setenv, fileno */
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_interno.h"
#include "cli_progreso.h"
#include "mascara/prf.h" /* dt__borrar */
#include "conectar.h" /* dt__ic_dup */
#include "conectar_pg.h"
#include "subconjunto_pg.h"

#define DT__PG_ESQUEMA_MAX (256u << 20) /* pg_dump's schema text: far beyond any real schema */
#define DT__PG_LOTE (256u << 10)        /* COPY data sent to the target in blocks of this size */

/* A table of the source: its rules bound to its columns, and its two COPY statements. */
typedef struct tabla {
    char *nombre;            /* as the rules document names it: t in public, s.t elsewhere */
    char *oid, *citada;      /* its pg_class oid as text; "s"."t" */
    char *origen;            /* how it is read: ONLY "s"."t" for a plain table (see TABLAS) */
    char *leer;              /* COPY (SELECT every column) TO STDOUT */
    char *escribir;          /* COPY "s"."t" (the written columns) FROM STDIN */
    dt_mascara_reglas *reglas;
    dt_mascara_plan *plan;
    size_t n, m;             /* the source's columns, the plan's output columns */
    size_t *de;              /* output column i is input column de[i] */
    unsigned char *generada; /* input column j is GENERATED ALWAYS AS (...) STORED: the target computes it */
    char **cols;             /* the source's column names, for each block slot's own plan (--jobs) */
    size_t *lcols;
    dt__revision_tabla *rev; /* the review of what is written (cli_revision.c) */
} tabla;

typedef struct copia {
    dt__pg src, dst;
    FILE *f; /* the dump being written, when --hacia is a file */
    tabla *t;
    size_t nt;
    const char *reglas, *archivo;
    size_t len;
    int formato;
    const dt_mascara_clave *k;
    size_t jobs;        /* threads masking blocks of rows (--jobs); the output is the same with any number */
    dt__progreso *prog; /* the progress line (cli_progreso.h), on the calling thread */
    dt__revision *rev;  /* the review of what is written (cli_revision.c) */
} copia;

/* One sentence for a failed result on one side ("--desde" or "--hacia"): what was being done, the table and
 * (from COPY's context) the row and column, PostgreSQL's sentence when it cannot hold a value, its SQLSTATE. */
static void fallo(const dt__pg *s, const char *lado, const char *que, const char *nombre, const PGresult *r) {
    const char *estado = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *primario = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    const char *ctx = r ? PQresultErrorField(r, PG_DIAG_CONTEXT) : NULL;
    const char *restr = r ? PQresultErrorField(r, PG_DIAG_CONSTRAINT_NAME) : NULL;
    char m[700], lugar[700] = "";
    if (primario == NULL) dt__pg_limpio(s, s->con ? PQerrorMessage(s->con) : "", m, sizeof m);
    else if (dt__pg_sin_valores(estado)) dt__pg_limpio(s, primario, m, sizeof m);
    else snprintf(m, sizeof m, "a value PostgreSQL refuses (its sentence is not printed: it may quote the value)");
    const char *linea = ctx && strncmp(ctx, "COPY ", 5) == 0 ? strstr(ctx, ", line ") : NULL;
    if (nombre && linea) {
        unsigned long long n = strtoull(linea + 7, NULL, 10);
        /* "COPY t, line N, column c: ..." or "COPY t, line N: \"<the row>\"": the column only before the first ':' */
        const char *dos = strchr(linea, ':'), *col = strstr(linea, ", column ");
        if (col && dos && col > dos) col = NULL;
        int lc = 0;
        if (col) {
            col += 9;
            while (col[lc] && col[lc] != ':' && col[lc] != '\n' && lc < 200) lc++;
        }
        snprintf(lugar, sizeof lugar, "table %s, row %llu%s%.*s: ", nombre, n, col ? ", column " : "", lc, col ? col : "");
    } else if (nombre) snprintf(lugar, sizeof lugar, "table %s: ", nombre);
    dt__cli_progreso_cortar();
    fprintf(stderr, "datoteca: copiar: %s: PostgreSQL at %s: %s: %s%s", lado, s->donde, que, lugar, m);
    if (restr && !strstr(m, restr)) fprintf(stderr, " (constraint %s)", restr);
    if (estado) fprintf(stderr, " [SQLSTATE %s]", estado);
    if (estado && strcmp(estado, "23503") == 0)
        fprintf(stderr, "; a foreign key's column and the column it references need the same rule");
    fputs(" (nothing was written)\n", stderr);
}

/* A statement with no rows to return; 0, or 2 (said). */
static int orden(dt__pg *s, const char *lado, const char *sql, const char *que) {
    PGresult *r = PQexec(s->con, sql);
    int rc = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK ? 0 : 2;
    if (rc) fallo(s, lado, que, NULL, r);
    PQclear(r);
    return rc;
}

static PGresult *consulta(dt__pg *s, const char *lado, const char *sql, int n, const char *const *param, const char *que) {
    PGresult *r = PQexecParams(s->con, sql, n, NULL, param, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK) return r;
    fallo(s, lado, que, NULL, r);
    PQclear(r);
    return NULL;
}

/* The tables of the source, as `datoteca detectar` lists them (partitioned tables whole, not their
 * partitions; no catalog, and no table an extension owns: CREATE EXTENSION in the schema makes it), and how
 * each is read: ONLY a plain table's own rows (a table that INHERITS from it is copied as itself, not twice),
 * a partitioned table with its partitions. */
static const char TABLAS[] =
    "SELECT c.oid::text, CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END, "
    "format('%I.%I', n.nspname, c.relname), CASE WHEN c.relkind = 'r' THEN 'ONLY ' ELSE '' END || format('%I.%I', n.nspname, "
    "c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
    "AND n.nspname NOT LIKE 'pg\\_%' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass "
    "AND d.objid = c.oid AND d.deptype = 'e') ORDER BY n.nspname, c.relname";
static const char COLUMNAS[] =
    "SELECT a.attname, format('%I', a.attname), a.attgenerated <> '' FROM pg_attribute a WHERE a.attrelid = $1::oid "
    "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";

/* Table t's plan over its columns (result r of COLUMNAS) and its two COPY statements; 0, 1 out of memory,
 * 2 said. */
static int plan_de(copia *c, tabla *t, PGresult *r, const char *citada, const char *origen) {
    t->n = (size_t)PQntuples(r);
    const char **cols = (const char **)calloc(t->n ? t->n : 1, sizeof *cols);
    size_t *largos = (size_t *)calloc(t->n ? t->n : 1, sizeof *largos);
    t->generada = (unsigned char *)calloc(t->n ? t->n : 1, 1);
    outbuf leer, escribir;
    int rc = cols && largos && t->generada ? 0 : 1;
    int sin_leer = dt__cli_ob_init(&leer, 256, NULL), sin_escribir = dt__cli_ob_init(&escribir, 256, NULL);
    if (sin_leer || sin_escribir) rc = 1; /* both initialised either way: both freed below */
    t->cols = (char **)calloc(t->n ? t->n : 1, sizeof *t->cols);
    t->lcols = (size_t *)calloc(t->n ? t->n : 1, sizeof *t->lcols);
    if (t->cols == NULL || t->lcols == NULL) rc = 1;
    for (size_t j = 0; rc == 0 && j < t->n; j++) {
        if ((t->cols[j] = dt__ic_dup(PQgetvalue(r, (int)j, 0))) == NULL) rc = 1;
        else cols[j] = t->cols[j], largos[j] = t->lcols[j] = strlen(cols[j]);
        t->generada[j] = PQgetvalue(r, (int)j, 2)[0] == 't';
    }
    if (rc == 0) rc = dt__cli_copiar_plan(t->reglas, c->k, t->nombre, t->n, cols, largos, &t->plan, &t->de, &t->m);
    if (rc == 0) t->rev = dt__cli_revision_tabla(c->rev, t->nombre, t->plan, t->n, t->de, t->generada);
    if (rc == 0) {
        dt__cli_ob_put(&leer, "COPY (SELECT ", 13);
        for (size_t j = 0; j < t->n; j++) {
            const char *q = PQgetvalue(r, (int)j, 1);
            if (j) dt__cli_ob_put(&leer, ", ", 2);
            dt__cli_ob_put(&leer, q, strlen(q));
        }
        dt__cli_ob_put(&leer, " FROM ", 6);
        dt__cli_ob_put(&leer, origen, strlen(origen));
        dt__cli_ob_put(&leer, ") TO STDOUT", 12); /* the NUL too */
        dt__cli_ob_put(&escribir, "COPY ", 5);
        dt__cli_ob_put(&escribir, citada, strlen(citada));
        dt__cli_ob_put(&escribir, " (", 2);
        for (size_t i = 0, p = 0; i < t->m; i++) {
            if (t->de[i] >= t->n || t->generada[t->de[i]]) continue;
            const char *q = PQgetvalue(r, (int)t->de[i], 1);
            if (p++) dt__cli_ob_put(&escribir, ", ", 2);
            dt__cli_ob_put(&escribir, q, strlen(q));
        }
        dt__cli_ob_put(&escribir, ") FROM STDIN", 13);
        t->leer = dt__ic_dup(leer.data);
        t->escribir = dt__ic_dup(escribir.data);
        if (t->leer == NULL || t->escribir == NULL) rc = 1;
    }
    dt__cli_ob_free(&leer);
    dt__cli_ob_free(&escribir);
    free(cols);
    free(largos);
    return rc;
}

/* Every table's rules and plan, before anything is written: 0, 1 out of memory, or 2 said on stderr. */
static int preparar(copia *c) {
    PGresult *r = consulta(&c->src, "--desde", TABLAS, 0, NULL, "reading its tables");
    if (r == NULL) return 2;
    int rc = 0;
    c->t = (tabla *)calloc((size_t)PQntuples(r) + 1, sizeof *c->t);
    if (c->t == NULL) rc = 1;
    for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
        tabla *t = &c->t[c->nt++];
        t->nombre = dt__ic_dup(PQgetvalue(r, i, 1));
        if (t->nombre == NULL) {
            rc = 1;
            break;
        }
        if ((rc = dt__cli_copiar_reglas(c->reglas, c->len, c->formato, c->archivo, t->nombre, &t->reglas)) != 0) break;
        const char *oid = PQgetvalue(r, i, 0);
        if ((t->oid = dt__ic_dup(oid)) == NULL || (t->citada = dt__ic_dup(PQgetvalue(r, i, 2))) == NULL ||
            (t->origen = dt__ic_dup(PQgetvalue(r, i, 3))) == NULL) {
            rc = 1;
            break;
        }
        PGresult *cols = consulta(&c->src, "--desde", COLUMNAS, 1, &oid, "reading a table's columns");
        if (cols == NULL) rc = 2;
        else rc = plan_de(c, t, cols, PQgetvalue(r, i, 2), PQgetvalue(r, i, 3));
        PQclear(cols);
    }
    PQclear(r);
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    return rc;
}

/* pg_dump --schema-only --section=`seccion` of the source in the exported snapshot: its text (NUL-terminated,
 * the caller frees), or NULL said. The connection goes to pg_dump as libpq's environment variables (PGHOST,
 * PGPASSWORD, ...), read from the URL by libpq itself: a password is never in pg_dump's argv. */
static char *pg_dump(copia *c, const char *url, const char *instantanea, const char *seccion) {
    const char *prog = getenv("DATOTECA_PG_DUMP") && getenv("DATOTECA_PG_DUMP")[0] ? getenv("DATOTECA_PG_DUMP") : "pg_dump";
    char sec[64], snap[128];
    snprintf(sec, sizeof sec, "--section=%s", seccion);
    snprintf(snap, sizeof snap, "--snapshot=%s", instantanea);
    int tubo[2];
    FILE *errores = tmpfile();
    if (errores == NULL || pipe(tubo) != 0) {
        fprintf(stderr, "datoteca: copiar: cannot run pg_dump: %s\n", strerror(errno));
        if (errores) fclose(errores);
        return NULL;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(tubo[1], 1);
        dup2(fileno(errores), 2);
        close(tubo[0]);
        close(tubo[1]);
        PQconninfoOption *op = PQconninfoParse(url, NULL);
        for (PQconninfoOption *o = op; o && o->keyword; o++)
            if (o->envvar && o->val && o->val[0]) setenv(o->envvar, o->val, 1);
        char *args[] = {(char *)prog, "--schema-only", sec, snap, "--no-owner", "--no-privileges", "--no-tablespaces",
                        "--no-publications", "--no-subscriptions", "--no-password", NULL};
        execvp(prog, args);
        fprintf(stderr, "%s", strerror(errno));
        _exit(127);
    }
    close(tubo[1]);
    size_t n = 0, cap = 1 << 16;
    char *texto = pid > 0 ? (char *)malloc(cap) : NULL;
    ssize_t leidos = 0;
    while (texto && (leidos = read(tubo[0], texto + n, cap - n - 1)) > 0) {
        n += (size_t)leidos;
        if (cap - n - 1 == 0) {
            char *mas = cap < DT__PG_ESQUEMA_MAX ? (char *)realloc(texto, cap * 2) : NULL;
            if (mas == NULL) {
                free(texto);
                texto = NULL;
                break;
            }
            texto = mas, cap *= 2;
        }
    }
    close(tubo[0]);
    int estado = 0;
    if (pid > 0) waitpid(pid, &estado, 0);
    if (pid > 0 && texto && WIFEXITED(estado) && WEXITSTATUS(estado) == 0) {
        texto[n] = '\0';
        fclose(errores);
        return texto;
    }
    free(texto);
    /* pg_dump's own sentence (it names objects and versions), its password blotted, first line only */
    char dicho[600] = "", m[600];
    rewind(errores);
    if (fgets(dicho, sizeof dicho, errores) == NULL) dicho[0] = '\0';
    fclose(errores);
    dt__pg_limpio(&c->src, dicho, m, sizeof m);
    if (pid > 0 && WIFEXITED(estado) && WEXITSTATUS(estado) == 127)
        fprintf(stderr, "datoteca: copiar: --desde: cannot run pg_dump (%s: %s); copiar reads the source's schema with it: "
                        "install PostgreSQL's client programs, or set DATOTECA_PG_DUMP to its path (nothing was written)\n", prog, m);
    else
        fprintf(stderr, "datoteca: copiar: --desde: pg_dump could not write the source's schema (%s): %s%s(nothing was "
                        "written)\n", seccion, m[0] ? m : "no reason given", m[0] && m[strlen(m) - 1] == '.' ? " " : "; ");
    return NULL;
}

/* The schema text without psql's meta-commands (pg_dump's \restrict and \unrestrict lines, which guard a
 * dump read by psql), for the server itself; in place. */
static void sin_metaordenes(char *sql) {
    char *w = sql;
    for (const char *r = sql; *r;) {
        const char *fin = strchr(r, '\n');
        size_t l = fin ? (size_t)(fin - r) + 1 : strlen(r);
        int meta = r[0] == '\\' && (strncmp(r, "\\restrict ", 10) == 0 || strncmp(r, "\\unrestrict ", 12) == 0 ||
                                    strncmp(r, "\\connect ", 9) == 0);
        if (!meta) {
            memmove(w, r, l);
            w += l;
        }
        r += l;
    }
    *w = '\0';
}

/* One line of COPY's text format (no newline) into n fields, escapes decoded into buf (room for l bytes):
 * 1, or 0 when the line does not hold n fields. \N alone is NULL. */
static int campos(const char *s, size_t l, char *buf, size_t n, const char **vals, size_t *largos) {
    size_t j = 0, i = 0;
    char *w = buf;
    while (j < n) {
        if (i + 1 < l && s[i] == '\\' && s[i + 1] == 'N' && (i + 2 == l || s[i + 2] == '\t')) {
            vals[j] = NULL, largos[j] = 0, i += 2;
        } else {
            char *ini = w;
            while (i < l && s[i] != '\t') {
                char ch = s[i++];
                if (ch == '\\' && i < l) {
                    ch = s[i++];
                    switch (ch) {
                    case 'b': ch = '\b'; break;
                    case 'f': ch = '\f'; break;
                    case 'n': ch = '\n'; break;
                    case 'r': ch = '\r'; break;
                    case 't': ch = '\t'; break;
                    case 'v': ch = '\v'; break;
                    case 'x': {
                        unsigned v = 0, k = 0;
                        while (k < 2 && i < l && strchr("0123456789abcdefABCDEF", s[i]) && s[i]) {
                            char h = s[i++];
                            v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
                            k++;
                        }
                        ch = (char)v;
                        break;
                    }
                    default:
                        if (ch >= '0' && ch <= '7') {
                            unsigned v = (unsigned)(ch - '0'), k = 1;
                            while (k < 3 && i < l && s[i] >= '0' && s[i] <= '7') v = v * 8 + (unsigned)(s[i++] - '0'), k++;
                            ch = (char)v;
                        }
                    }
                }
                *w++ = ch;
            }
            vals[j] = ini, largos[j] = (size_t)(w - ini);
        }
        j++;
        if (i == l) break;
        if (s[i] != '\t') return 0;
        i++;
    }
    return j == n && i == l;
}

/* v[0..l) as a field of COPY's text format. */
static void campo(outbuf *o, const char *v, size_t l) {
    char *d = dt__cli_ob_reservar(o, 2 * l + 1);
    for (size_t i = 0; i < l; i++) {
        char ch = v[i];
        const char *e = ch == '\\' ? "\\\\" : ch == '\n' ? "\\n" : ch == '\r' ? "\\r" : ch == '\t' ? "\\t" : NULL;
        if (e) *d++ = e[0], *d++ = e[1];
        else *d++ = ch;
    }
    o->p = d;
}

#define BLOQUE 4096              /* rows per block a worker masks */
#define BLOQUE_BYTES (1u << 20)   /* and about this many bytes of COPY text */

/* A block slot (dt__cli_lotes' scratch): its own plan (a plan is one thread's), the block's COPY lines as
 * read, and what its worker needs to decode them. */
typedef struct lote {
    dt_mascara_plan *plan;
    char *texto;               /* the rows' COPY lines, each without its '\n' */
    size_t largo, cap;
    size_t *ini, nfilas, capf; /* where row r starts; ini[nfilas] is the end */
    char *buf;                 /* a row's decoded fields (the worker's) */
    size_t capbuf;
    const char **vals;
    size_t *largos;
    int rc;                    /* a refusal at a row masked: 1 out of memory, 2 said in why */
    char why[DT_SENTENCE_MAX + 200];
    dt__revision_lote *rev;    /* the review's counts of this block's rows (cli_revision.c) */
} lote;

/* One table's copy: what the slots share (read only on the workers) and what the main thread keeps. */
typedef struct tarea {
    copia *c;
    tabla *t;
    int rc_lectura;          /* a refusal while reading the source, said when the reader stops */
    unsigned long long filas; /* rows read */
} tarea;

static void soltar(void *ctx, char *scratch) {
    (void)ctx;
    lote *b = (lote *)(void *)scratch;
    dt_mascara_plan_free(b->plan);
    if (b->texto) dt__borrar(b->texto, b->cap); /* production's rows: wiped like the plan's buffers */
    if (b->buf) dt__borrar(b->buf, b->capbuf);
    free(b->texto), free(b->ini), free(b->buf), free(b->vals), free(b->largos);
    dt__cli_revision_lote_free(b->rev);
    memset(b, 0, sizeof *b);
}

/* dt__cli_lotes' llenar, on the calling thread: up to `max` rows of the source's COPY into the slot. 1 when
 * more may follow. */
static int llenar(void *ctx, unsigned long long desde, size_t max, char *scratch, size_t *filas) {
    (void)desde;
    tarea *ta = (tarea *)ctx;
    tabla *t = ta->t;
    lote *b = (lote *)(void *)scratch;
    b->largo = b->nfilas = 0, b->rc = 0;
    *filas = 0;
    if (b->plan == NULL) {
        char why[DT_SENTENCE_MAX];
        b->vals = (const char **)calloc(t->n + 1, sizeof *b->vals);
        b->largos = (size_t *)calloc(t->n + 1, sizeof *b->largos);
        if (b->vals == NULL || b->largos == NULL ||
            dt_mascara_plan_new(t->reglas, ta->c->k, t->n, (const char *const *)t->cols, t->lcols, &b->plan, why, sizeof why) != DT_OK) {
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: out of memory\n"); /* the same rules made the first plan: only memory fails here */
            ta->rc_lectura = 1;
            return 0;
        }
    }
    while (b->nfilas < max && b->largo < BLOQUE_BYTES) {
        char *linea = NULL;
        int l = PQgetCopyData(ta->c->src.con, &linea, 0);
        if (l == -1) return 0; /* the end of the table */
        if (l < 0) {
            fallo(&ta->c->src, "--desde", "reading a table", t->nombre, NULL);
            ta->rc_lectura = 2;
            return 0;
        }
        size_t ll = (size_t)l - (linea[l - 1] == '\n');
        if (dt__cli_crecer((void **)&b->texto, &b->cap, b->largo + ll + 1, 1) || dt__cli_crecer((void **)&b->ini, &b->capf, b->nfilas + 2, sizeof *b->ini)) {
            PQfreemem(linea);
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: out of memory\n");
            ta->rc_lectura = 1;
            return 0;
        }
        b->ini[b->nfilas++] = b->largo;
        memcpy(b->texto + b->largo, linea, ll);
        b->largo += ll;
        b->ini[b->nfilas] = b->largo;
        PQfreemem(linea);
        ta->filas++;
        *filas = b->nfilas;
    }
    return 1;
}

/* dt__cli_lotes' hacer, on a worker: the slot's rows masked into o as COPY text, up to a refused one. */
static void hacer(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *scratch) {
    (void)n;
    const tarea *ta = (const tarea *)ctx;
    const tabla *t = ta->t;
    lote *b = (lote *)(void *)scratch;
    for (size_t r = 0; r < b->nfilas && b->rc == 0; r++) {
        size_t ll = b->ini[r + 1] - b->ini[r];
        unsigned long long fila = desde + r + 1;
        if (dt__cli_crecer((void **)&b->buf, &b->capbuf, ll + 1, 1)) {
            b->rc = 1;
            break;
        }
        if (!campos(b->texto + b->ini[r], ll, b->buf, t->n, b->vals, b->largos)) {
            snprintf(b->why, sizeof b->why, "datoteca: copiar: --desde: table %s, row %llu: a line of COPY's text format that "
                                            "is not %zu fields (nothing was written)", t->nombre, fila, t->n);
            b->rc = 2;
            break;
        }
        char why[DT_SENTENCE_MAX];
        dt_status s = dt_mascara_plan_fila(b->plan, fila, t->n, b->vals, b->largos, why, sizeof why);
        if (s != DT_OK) {
            b->rc = s == DT_ERR_NO_MEMORY ? 1 : 2;
            snprintf(b->why, sizeof b->why, "datoteca: copiar: table %s: %s (nothing was written)", t->nombre, why);
            break;
        }
        dt__cli_revision_fila(&b->rev, t->rev, fila, b->vals, b->largos, b->plan);
        for (size_t i = 0, p = 0; i < t->m; i++) {
            size_t lv, j = t->de[i];
            if (j >= t->n || t->generada[j]) continue;
            const char *v = dt_mascara_plan_valor(b->plan, i, &lv);
            if (p++) dt__cli_ob_putc(o, '\t');
            if (lv == 0 && (b->vals[j] == NULL || b->largos[j] > 0)) dt__cli_ob_put(o, "\\N", 2); /* null, or emptied by its rule */
            else campo(o, v, lv);
        }
        dt__cli_ob_putc(o, '\n');
    }
}

/* dt__cli_lotes' usar_bloque, on the calling thread in row order: the block to the target or the dump, then
 * the block's refusal said. */
static int usar(void *ctx, outbuf *o, char *scratch) {
    tarea *ta = (tarea *)ctx;
    const lote *b = (const lote *)(const void *)scratch;
    size_t n = (size_t)(o->p - o->data);
    if (ta->c->f) {
        if (n && fwrite(o->data, 1, n, ta->c->f) != n) {
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
            ta->rc_lectura = 1;
            return 1;
        }
    } else if (n && PQputCopyData(ta->c->dst.con, o->data, (int)n) != 1) {
        ta->rc_lectura = 3; /* the COPY's result says why */
        return 1;
    }
    dt__cli_revision_bloque(ta->c->rev, b->rev);
    if (b->rc) {
        dt__cli_progreso_cortar();
        if (b->rc == 1) fprintf(stderr, "datoteca: out of memory\n");
        else fprintf(stderr, "%s\n", b->why);
        ta->rc_lectura = b->rc;
        return 1;
    }
    return 0;
}

/* Table t's rows, masked, from the source into the target (or the dump), blocks of rows masked by the --jobs
 * threads and written in row order: 0, 1 out of memory or I/O, 2 said. */
static int filas(copia *c, tabla *t, unsigned long long *total) {
    PGresult *r = PQexec(c->src.con, t->leer);
    if (PQresultStatus(r) != PGRES_COPY_OUT) {
        fallo(&c->src, "--desde", "reading a table", t->nombre, r);
        PQclear(r);
        return 2;
    }
    PQclear(r);
    int rc = 0, entrando = 0; /* entrando: the target's COPY FROM STDIN is open */
    if (c->f) {
        if (fprintf(c->f, "%.*sstdin;\n", (int)(strlen(t->escribir) - 5), t->escribir) < 0) rc = 1;
    } else {
        r = PQexec(c->dst.con, t->escribir);
        if (PQresultStatus(r) != PGRES_COPY_IN) {
            fallo(&c->dst, "--hacia", "writing a table", t->nombre, r);
            rc = 2;
        } else entrando = 1;
        PQclear(r);
    }
    tarea ta = {c, t, 0, 0};
    if (rc == 0) {
        dt__cli_lotes l = {0, ULLONG_MAX, BLOQUE, c->jobs, sizeof(lote), hacer, NULL, &ta, c->prog, llenar, usar, soltar};
        int lr = dt__cli_lotes_run(&l); /* -1: out of memory, said */
        rc = lr < 0 ? 1 : ta.rc_lectura ? ta.rc_lectura : lr ? 2 : 0; /* 3: a PQputCopyData failed, the COPY's result says why */
    }
    /* the rest of the source's COPY read and dropped, so the connection stays usable */
    char *linea = NULL;
    int l;
    while ((l = PQgetCopyData(c->src.con, &linea, 0)) > 0) PQfreemem(linea);
    while ((r = PQgetResult(c->src.con)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
            fallo(&c->src, "--desde", "reading a table", t->nombre, r);
            rc = 2;
        }
        PQclear(r);
    }
    if (c->f && rc == 0 && fputs("\\.\n\n", c->f) < 0) {
        dt__cli_progreso_cortar();
        fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
        rc = 1;
    }
    if (entrando) {
        int dicho = rc != 0 && rc != 3;
        /* an end with an error message makes the server abandon the COPY */
        PQputCopyEnd(c->dst.con, rc ? "datoteca stopped sending rows" : NULL);
        while ((r = PQgetResult(c->dst.con)) != NULL) {
            if (PQresultStatus(r) != PGRES_COMMAND_OK && !dicho) {
                fallo(&c->dst, "--hacia", "writing a table", t->nombre, r);
                dicho = 1, rc = 2;
            }
            PQclear(r);
        }
        if (rc == 3) rc = 2;
    }
    *total += ta.filas;
    return rc;
}

/* Each sequence of the source set on the target where the source's stands (past every key copied from
 * it); a sequence never used is left as pg_dump created it. 0, or 2 said. */
static int secuencias(copia *c) {
    static const char Q[] = "SELECT format('%I.%I', schemaname, sequencename), last_value::text, "
                            "format('SELECT pg_catalog.setval(%L, %s, true);', format('%I.%I', schemaname, sequencename), "
                            "last_value) FROM pg_sequences WHERE last_value IS NOT NULL AND schemaname NOT LIKE 'pg\\_%' "
                            "ORDER BY 1";
    PGresult *r = consulta(&c->src, "--desde", Q, 0, NULL, "reading its sequences");
    if (r == NULL) return 2;
    int rc = 0;
    for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
        if (c->f) {
            fprintf(c->f, "%s\n", PQgetvalue(r, i, 2));
            continue;
        }
        const char *p[2] = {PQgetvalue(r, i, 0), PQgetvalue(r, i, 1)};
        PGresult *s = consulta(&c->dst, "--hacia", "SELECT pg_catalog.setval($1::regclass, $2::bigint, true)", 2, p,
                               "setting a sequence");
        if (s == NULL) rc = 2;
        PQclear(s);
    }
    PQclear(r);
    return rc;
}

/* Each materialized view the source has populated, refreshed on the target over the masked rows (pg_dump's
 * schema creates them WITH NO DATA; their rows are computed, not copied, so they leak nothing the tables do
 * not). In creation order, so that one reading another comes after it. 0, or 2 said. */
static int vistas(copia *c) {
    static const char Q[] = "SELECT format('REFRESH MATERIALIZED VIEW %I.%I', n.nspname, c.relname) FROM pg_class c JOIN "
                            "pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'm' AND c.relispopulated AND "
                            "n.nspname NOT LIKE 'pg\\_%' ORDER BY c.oid";
    PGresult *r = consulta(&c->src, "--desde", Q, 0, NULL, "reading its materialized views");
    if (r == NULL) return 2;
    int rc = 0;
    for (int i = 0; rc == 0 && i < PQntuples(r); i++) {
        if (c->f) rc = fprintf(c->f, "%s;\n", PQgetvalue(r, i, 0)) < 0 ? 1 : 0;
        else rc = orden(&c->dst, "--hacia", PQgetvalue(r, i, 0), "refreshing a materialized view over the masked rows");
    }
    PQclear(r);
    return rc;
}

/* The target must hold no table, view or sequence of its own: copiar creates the source's, and does not
 * merge into another schema. 0, or 2 said. */
static int vacio(copia *c) {
    static const char Q[] = "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN "
                            "('r', 'p', 'v', 'm', 'S', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND "
                            "n.nspname NOT LIKE 'pg\\_%'";
    PGresult *r = consulta(&c->dst, "--hacia", Q, 0, NULL, "reading its tables");
    if (r == NULL) return 2;
    int lleno = strcmp(PQgetvalue(r, 0, 0), "0") != 0;
    if (lleno)
        fprintf(stderr, "datoteca: copiar: --hacia: PostgreSQL at %s holds %s tables, views or sequences; copiar writes into an "
                        "empty database (createdb one) (nothing was written)\n", c->dst.donde, PQgetvalue(r, 0, 0));
    PQclear(r);
    return lleno ? 2 : 0;
}

/* A smaller copy: the kept rows of each table (cli/subconjunto_pg.c), then each table's read takes only
 * those. 0, 1 out of memory, 2 said. */
static int subconjunto(copia *c, const dt__copiar_opciones *o) {
    char **nombres = (char **)calloc(c->nt + 1, sizeof *nombres), **oids = (char **)calloc(c->nt + 1, sizeof *oids);
    char **citadas = (char **)calloc(c->nt + 1, sizeof *citadas);
    int rc = nombres && oids && citadas ? 0 : 1;
    for (size_t i = 0; rc == 0 && i < c->nt; i++) nombres[i] = c->t[i].nombre, oids[i] = c->t[i].oid, citadas[i] = c->t[i].origen;
    uint64_t raices = 0;
    if (rc == 0) rc = dt__cli_pg_subconjunto(&c->src, nombres, oids, citadas, c->nt, o->subconjunto, o->semilla, o->hijos, o->donde,
                                         o->ndonde, &raices);
    free(nombres), free(oids), free(citadas);
    for (size_t i = 0; rc == 0 && i < c->nt; i++) {
        tabla *t = &c->t[i];
        size_t l = strlen(t->leer) - 11, n = l + 120; /* before ") TO STDOUT" */
        char *leer = (char *)malloc(n);
        if (leer == NULL) rc = 1;
        else {
            snprintf(leer, n, "%.*s WHERE (tableoid, ctid) IN (SELECT toid, rid FROM pg_temp.datoteca_sub_%zu)) TO STDOUT", (int)l,
                     t->leer, i);
            free(t->leer);
            t->leer = leer;
        }
    }
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    return rc;
}

static void liberar(copia *c) {
    for (size_t i = 0; c->t && i < c->nt; i++) {
        free(c->t[i].nombre);
        free(c->t[i].oid);
        free(c->t[i].citada);
        free(c->t[i].origen);
        free(c->t[i].leer);
        free(c->t[i].escribir);
        free(c->t[i].de);
        free(c->t[i].generada);
        for (size_t j = 0; c->t[i].cols && j < c->t[i].n; j++) free(c->t[i].cols[j]);
        free(c->t[i].cols);
        free(c->t[i].lcols);
        dt_mascara_plan_free(c->t[i].plan);
        dt_mascara_reglas_free(c->t[i].reglas);
    }
    free(c->t);
}

int dt__cli_pg_copiar(const char *desde, const char *hacia, const dt__copiar_opciones *o, const char *reglas, size_t len,
                      int formato, const char *archivo, const dt_mascara_clave *k) {
    copia c;
    memset(&c, 0, sizeof c);
    c.rev = o->revision; /* before preparar: each table's review is made with its plan */
    c.reglas = reglas, c.len = len, c.formato = formato, c.archivo = archivo, c.k = k;
    char why[DT_SENTENCE_MAX];
    if (dt__pg_abrir(&c.src, desde, why, sizeof why)) {
        fprintf(stderr, "datoteca: copiar: --desde: %s\n", why);
        return 2;
    }
    /* values as text the same way on both sides (pg_dump pins the same), and every row: under row security a
     * policy would hide rows from the copy; off, the server refuses instead of copying fewer */
    static const char AJUSTES[] = "SET DateStyle = ISO; SET IntervalStyle = postgres; SET extra_float_digits = 3; "
                                  "SET row_security = off";
    if (orden(&c.src, "--desde", AJUSTES, "setting the session") != 0) {
        dt__pg_cerrar(&c.src);
        liberar(&c);
        return 2;
    }
    /* one snapshot of the source for the rows, the sequences and pg_dump's schema */
    /* (a subset keeps its rows in TEMP tables, which a READ ONLY transaction may not create) */
    int rc = orden(&c.src, "--desde", o->subconjunto ? "BEGIN ISOLATION LEVEL REPEATABLE READ" :
                                      "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", "starting a snapshot");
    char *instantanea = NULL, *pre = NULL, *post = NULL, *tmp = NULL;
    if (rc == 0) {
        PGresult *r = consulta(&c.src, "--desde", "SELECT pg_export_snapshot()", 0, NULL, "exporting its snapshot");
        if (r == NULL) rc = 2;
        else if ((instantanea = dt__ic_dup(PQgetvalue(r, 0, 0))) == NULL) rc = 1;
        PQclear(r);
    }
    if (rc == 0) rc = preparar(&c);
    if (rc == 0 && o->subconjunto) rc = subconjunto(&c, o);
    if (rc == 0 && (pre = pg_dump(&c, desde, instantanea, "pre-data")) == NULL) rc = 2;
    if (rc == 0 && (post = pg_dump(&c, desde, instantanea, "post-data")) == NULL) rc = 2;
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
        if (rc == 0)
            fprintf(c.f, "-- a masked copy written by datoteca copiar (docs/copia.md): every table's rows masked by its rules.\n"
                         "-- Load it into an empty database: psql -v ON_ERROR_STOP=1 --single-transaction -d NEW -f THIS_FILE\n"
                         "%s\n", pre);
    } else if (rc == 0) {
        if (dt__pg_abrir(&c.dst, hacia, why, sizeof why)) {
            fprintf(stderr, "datoteca: copiar: --hacia: %s\n", why);
            rc = 2;
        }
        if (rc == 0) rc = orden(&c.dst, "--hacia", AJUSTES, "setting the session");
        if (rc == 0) rc = vacio(&c);
        if (rc == 0) rc = orden(&c.dst, "--hacia", "BEGIN", "starting its transaction");
        if (rc == 0) {
            sin_metaordenes(pre);
            rc = orden(&c.dst, "--hacia", pre, "creating the source's tables, types, functions and views (pg_dump's pre-data)");
        }
    }
    unsigned long long total = 0;
    dt__progreso prog;
    c.jobs = o->jobs ? o->jobs : 1, c.prog = &prog;
    dt__cli_progreso_empezar(&prog, "copiar", o->progreso, 0, 0, (uint32_t)c.nt, 0);
    for (size_t i = 0; i < c.nt && rc == 0; i++) {
        prog.tabla = (uint32_t)i + 1;
        rc = filas(&c, &c.t[i], &total);
    }
    dt__cli_progreso_terminar(&prog, rc == 0);
    if (rc == 0) rc = secuencias(&c);
    if (rc == 0 && c.f) {
        fprintf(c.f, "\n%s", post);
        if (vistas(&c) != 0) rc = 2;
        if (fflush(c.f) != 0 || ferror(c.f)) {
            fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
            rc = 1;
        }
    } else if (rc == 0) {
        sin_metaordenes(post);
        rc = orden(&c.dst, "--hacia", post, "adding the source's keys, constraints, indexes and triggers over the masked rows "
                                            "(pg_dump's post-data)");
        if (rc == 0) rc = vistas(&c);
        if (rc == 0) rc = orden(&c.dst, "--hacia", "COMMIT", "committing the copy");
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
        fprintf(stderr, "datoteca copiar: %zu table%s, %llu rows masked%s%s\n", c.nt, c.nt == 1 ? "" : "s", total, o->subconjunto ? " (a subset)" : "",
                o->volcado ? "; written as an SQL dump for psql" : ", every constraint validated by PostgreSQL");
    dt__pg_cerrar(&c.dst); /* an open transaction ends with the connection: rolled back */
    dt__pg_cerrar(&c.src);
    liberar(&c);
    free(tmp);
    free(instantanea);
    free(pre);
    free(post);
    return rc;
}
