/* datoteca copiar --desde sqlite:A --hacia sqlite:B: a masked copy of a whole SQLite database
 * (docs/copia.md). Every table's rules and plan are made before anything is written, so a table or a
 * column without a rule stops the run with nothing written (privacy by default). The copy goes into a
 * new file beside B, renamed to B only when every row is in and every foreign key holds: an interrupted
 * or refused run leaves no B. Tables are created by the source's own CREATE statements; rows streamed
 * one at a time (SELECT * on the source, the library's plan, a prepared INSERT: memory does not grow
 * with the table); then the indexes, views and triggers (after the rows, so a trigger does not fire for
 * a copied row); then PRAGMA foreign_key_check. Sentences name table, row and column, never a value.
 *
 * This file links libsqlite3: the datoteca program only (CMakeLists.txt), as cli_sqlite.c. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <io.h>
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif

#include <sqlite3.h>

#include "cli_interno.h"
#include "mascara/prf.h" /* dt__borrar */
#include "cli_progreso.h"
#include "conectar.h" /* dt__conectar_sqlite_ruta */
#include "subconjunto_sqlite.h"

/* A table of the source: its rules bound to its columns, and what its INSERT needs. */
typedef struct tabla {
    char *nombre;
    dt_mascara_reglas *reglas;
    dt_mascara_plan *plan;
    sqlite3_stmt *sel;   /* SELECT * on the source */
    size_t n, m;         /* the source's columns, the plan's output columns */
    size_t *de;          /* output column i is input column de[i] */
    unsigned char *generada; /* input column j is computed by the database (GENERATED ALWAYS AS): not inserted */
    unsigned char *blob;     /* what a BLOB value of input column j becomes (B_*, blobs() below) */
    dt__revision_tabla *rev; /* the review of what is written (cli_revision.c) */
} tabla;

/* A BLOB in input column j: refused (its rule masks values: bytes are not text), its bytes bound as they are
 * (mantener), NULL (nulo), or not written (borrar: the column is left out of the INSERT). */
enum { B_RECHAZO = 0, B_BYTES, B_NULO, B_FUERA, B_IMAGEN /* imagen: the bytes through the plan, its output bound as a BLOB */ };

typedef struct copia {
    sqlite3 *src, *dst;
    tabla *t;
    size_t nt;
    const char *reglas, *archivo;
    size_t len;
    int formato;
    const dt_mascara_clave *k;
    dt__progreso *prog; /* the progress line (cli_progreso.h), on the calling thread */
    dt__revision *rev;  /* the review of what is written (cli_revision.c) */
    size_t jobs;        /* threads masking blocks of rows (--jobs); the copy is the same with any number */
} copia;

/* Which of t's columns the database computes (PRAGMA table_xinfo's hidden 2 and 3: virtual and stored
 * generated columns): their values are not inserted, the target computes them from the masked ones. */
static dt_status generadas(copia *c, tabla *t, const char **cols) {
    t->generada = (unsigned char *)calloc(t->n ? t->n : 1, 1);
    if (t->generada == NULL) return DT_ERR_NO_MEMORY;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->src, "SELECT name, hidden FROM pragma_table_xinfo(?1)", -1, &st, NULL) != SQLITE_OK)
        return DT_OK; /* an SQLite before 3.26 has no table_xinfo, nor generated columns */
    sqlite3_bind_text(st, 1, t->nombre, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int oculta = sqlite3_column_int(st, 1);
        const char *nom = (const char *)sqlite3_column_text(st, 0);
        for (size_t j = 0; j < t->n && nom; j++)
            if ((oculta == 2 || oculta == 3) && strcmp(cols[j], nom) == 0) t->generada[j] = 1;
    }
    sqlite3_finalize(st);
    return DT_OK;
}

/* What a BLOB becomes in each of t's input columns (B_*), from the plan: a column out of the output is
 * borrar's; a row of empty values but a RUT-looking one in column j is masked once, and column j's output is
 * then the input itself for mantener (the plan hands a kept value back at the caller's address), empty for
 * nulo (and for a rule that empties what it cannot read, politica invalido = "vacio": NULL too), else a
 * value rule, which a BLOB is refused under. The plan forgets each probe at its next row. */
static dt_status blobs(tabla *t) {
    size_t n1 = t->n ? t->n : 1;
    t->blob = (unsigned char *)calloc(n1, 1);
    const char **vals = (const char **)calloc(n1, sizeof *vals);
    size_t *lens = (size_t *)calloc(n1, sizeof *lens);
    char *vacios = (char *)calloc(n1, 1);
    long *sal = (long *)malloc(n1 * sizeof *sal);
    dt_status st = t->blob && vals && lens && vacios && sal ? DT_OK : DT_ERR_NO_MEMORY;
    static const char sonda[] = "12.345.678-5";
    for (size_t j = 0; st == DT_OK && j < t->n; j++) sal[j] = -1;
    for (size_t i = 0; st == DT_OK && i < t->m; i++)
        if (t->de[i] < t->n) sal[t->de[i]] = (long)i;
    for (size_t j = 0; st == DT_OK && j < t->n; j++) {
        if (sal[j] < 0) {
            t->blob[j] = B_FUERA;
            continue;
        }
        for (size_t q = 0; q < t->n; q++) vals[q] = vacios + q, lens[q] = 0;
        vals[j] = sonda, lens[j] = sizeof sonda - 1;
        char why[DT_SENTENCE_MAX];
        dt_status s = dt_mascara_plan_fila(t->plan, 1, t->n, vals, lens, why, sizeof why);
        if (s == DT_ERR_NO_MEMORY) st = s;
        if (s != DT_OK) { /* refused: a value rule; imagen is the one that takes an image's bytes */
            static const char png[8] = {'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};
            vals[j] = png, lens[j] = sizeof png;
            s = dt_mascara_plan_fila(t->plan, 1, t->n, vals, lens, why, sizeof why);
            if (s == DT_ERR_NO_MEMORY) st = s;
            size_t l = 0;
            const char *v = s == DT_OK ? dt_mascara_plan_valor(t->plan, (size_t)sal[j], &l) : NULL;
            if (v && v != png && l > sizeof png && memcmp(v, png, sizeof png) == 0) t->blob[j] = B_IMAGEN;
            continue;
        }
        size_t l;
        const char *v = dt_mascara_plan_valor(t->plan, (size_t)sal[j], &l);
        t->blob[j] = v == sonda ? B_BYTES : l == 0 ? B_NULO : B_RECHAZO;
    }
    free(vals), free(lens), free(vacios), free(sal);
    return st;
}

/* Every table's rules and plan, before anything is written: 0, or 2 said on stderr. */
static int preparar(copia *c) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->src, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
                                   "ESCAPE '\\' ORDER BY rowid", -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "datoteca: copiar: --desde: cannot read its tables: %s\n", sqlite3_errmsg(c->src));
        return 2;
    }
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        tabla *nuevas = (tabla *)realloc(c->t, (c->nt + 1) * sizeof *c->t);
        if (nuevas == NULL) {
            rc = 1;
            break;
        }
        c->t = nuevas;
        tabla *t = &c->t[c->nt++];
        memset(t, 0, sizeof *t);
        t->nombre = dt__ic_dup((const char *)sqlite3_column_text(st, 0));
        if (t->nombre == NULL) {
            rc = 1;
            break;
        }
        if ((rc = dt__cli_copiar_reglas(c->reglas, c->len, c->formato, c->archivo, t->nombre, &t->reglas)) != 0) break;
        char *q = dt__cli_sql_citado(t->nombre), sql[64];
        char *sel = q ? (char *)malloc(strlen(q) + sizeof sql) : NULL;
        if (sel) snprintf(sel, strlen(q) + sizeof sql, "SELECT * FROM %s", q);
        free(q);
        if (sel == NULL) {
            rc = 1;
            break;
        }
        int ok = sqlite3_prepare_v2(c->src, sel, -1, &t->sel, NULL) == SQLITE_OK;
        free(sel);
        if (!ok) {
            fprintf(stderr, "datoteca: copiar: table %s: cannot read it: %s\n", t->nombre, sqlite3_errmsg(c->src));
            rc = 2;
            break;
        }
        t->n = (size_t)sqlite3_column_count(t->sel);
        const char **cols = (const char **)calloc(t->n ? t->n : 1, sizeof *cols);
        size_t *largos = (size_t *)calloc(t->n ? t->n : 1, sizeof *largos);
        if (cols == NULL || largos == NULL) {
            free(cols);
            free(largos);
            rc = 1;
            break;
        }
        for (size_t j = 0; j < t->n; j++) {
            cols[j] = sqlite3_column_name(t->sel, (int)j);
            largos[j] = strlen(cols[j]);
        }
        rc = dt__cli_copiar_plan(t->reglas, c->k, t->nombre, t->n, cols, largos, &t->plan, &t->de, &t->m);
        if (rc == 0 && generadas(c, t, cols) != DT_OK) rc = 1;
        if (rc == 0 && blobs(t) != DT_OK) rc = 1;
        if (rc == 0) t->rev = dt__cli_revision_tabla(c->rev, t->nombre, t->plan, t->n, t->de, t->generada);
        free(cols);
        free(largos);
    }
    sqlite3_finalize(st);
    if (rc == 1) fprintf(stderr, "datoteca: out of memory\n");
    return rc;
}

static int exec(sqlite3 *db, const char *sql, const char *que) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK) return 0;
    fprintf(stderr, "datoteca: copiar: %s: %s\n", que, err ? err : sqlite3_errmsg(db));
    sqlite3_free(err);
    return 2;
}

/* The source's CREATE statements of one kind ('table', 'index', 'view', 'trigger'), in the source's
 * order, run on the target. */
static int crear(copia *c, const char *tipo) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->src, "SELECT name, sql FROM sqlite_master WHERE type = ?1 AND sql IS NOT NULL AND name NOT "
                                   "LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid", -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "datoteca: copiar: --desde: cannot read its schema: %s\n", sqlite3_errmsg(c->src));
        return 2;
    }
    sqlite3_bind_text(st, 1, tipo, -1, SQLITE_STATIC);
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        char que[300];
        snprintf(que, sizeof que, "%s %s", tipo, (const char *)sqlite3_column_text(st, 0));
        rc = exec(c->dst, (const char *)sqlite3_column_text(st, 1), que);
    }
    sqlite3_finalize(st);
    return rc;
}

#define BLOQUE 4096 /* rows per block a worker masks */

/* A block slot (dt__cli_lotes' scratch): its own plan, the block's rows as read (each value's bytes and SQLite
 * type), and the refusal met reading or masking them. Its worker writes each row's values for the INSERT into
 * the block's outbuf as a run of items: 'N' (null), 'I' and 8 bytes (an integer), 'T', 8 bytes of length and the
 * text; the calling thread binds them in row order. */
typedef struct lote {
    dt_mascara_plan *plan;
    char *texto;
    size_t largo, cap;
    size_t *ini, *lon, capv, capl; /* value j of row r: [r * n + j] */
    int *tipo;
    size_t capt;
    size_t nfilas;
    unsigned long long primera;
    const char **vals;
    size_t *largos;
    int rc;                  /* a refusal: 1 out of memory, 2 said in why */
    size_t hasta;            /* the rows before the refusal, inserted before it is said */
    char why[DT_SENTENCE_MAX + 300];
    dt__revision_lote *rev;  /* the review's counts of this block's rows (cli_revision.c) */
} lote;

typedef struct tarea {
    copia *c;
    tabla *t;
    sqlite3_stmt *ins;
    int rc;
    unsigned long long filas;
} tarea;

static void soltar(void *ctx, char *scratch) {
    (void)ctx;
    lote *b = (lote *)(void *)scratch;
    dt_mascara_plan_free(b->plan);
    if (b->texto) dt__borrar(b->texto, b->cap); /* production's rows: wiped like the plan's buffers */
    free(b->texto), free(b->ini), free(b->lon), free(b->tipo), free(b->vals), free(b->largos);
    dt__cli_revision_lote_free(b->rev);
    memset(b, 0, sizeof *b);
}

/* dt__cli_lotes' llenar, on the calling thread: up to `max` source rows into the slot; a BLOB under a rule that
 * masks values ends the block with its refusal kept for its turn. */
static int llenar(void *ctx, unsigned long long desde, size_t max, char *scratch, size_t *filas) {
    tarea *ta = (tarea *)ctx;
    tabla *t = ta->t;
    lote *b = (lote *)(void *)scratch;
    b->largo = b->nfilas = 0, b->rc = 0, b->primera = desde + 1, b->hasta = (size_t)-1;
    *filas = 0;
    if (b->plan == NULL) {
        const char **cols = (const char **)calloc(t->n + 1, sizeof *cols);
        size_t *lc = (size_t *)calloc(t->n + 1, sizeof *lc);
        b->vals = (const char **)calloc(t->n + 1, sizeof *b->vals);
        b->largos = (size_t *)calloc(t->n + 1, sizeof *b->largos);
        char why[DT_SENTENCE_MAX];
        int ok = cols && lc && b->vals && b->largos;
        for (size_t j = 0; ok && j < t->n; j++) cols[j] = sqlite3_column_name(t->sel, (int)j), lc[j] = strlen(cols[j]);
        ok = ok && dt_mascara_plan_new(t->reglas, ta->c->k, t->n, cols, lc, &b->plan, why, sizeof why) == DT_OK;
        free(cols), free(lc);
        if (!ok) { /* the same rules made the first plan: only memory can fail here */
            fprintf(stderr, "datoteca: out of memory\n");
            ta->rc = 1;
            return 0;
        }
    }
    int paso = SQLITE_ROW;
    while (b->nfilas < max && (paso = sqlite3_step(t->sel)) == SQLITE_ROW) {
        unsigned long long fila = desde + b->nfilas + 1;
        size_t base = b->nfilas * t->n;
        if (dt__cli_crecer((void **)&b->ini, &b->capv, base + t->n + 1, sizeof *b->ini) ||
            dt__cli_crecer((void **)&b->lon, &b->capl, b->capv, sizeof *b->lon) ||
            dt__cli_crecer((void **)&b->tipo, &b->capt, base + t->n + 1, sizeof *b->tipo)) {
            fprintf(stderr, "datoteca: out of memory\n");
            ta->rc = 1;
            return 0;
        }
        for (size_t j = 0; j < t->n; j++) {
            int tipo = sqlite3_column_type(t->sel, (int)j);
            if (tipo == SQLITE_BLOB && t->blob[j] == B_RECHAZO) {
                snprintf(b->why, sizeof b->why, "datoteca: copiar: table %s, row %llu, column %s: a BLOB value, and the column's rule "
                                                "masks values (text and numbers); a BLOB column takes mantener, nulo, borrar or imagen "
                                                "(nothing was written)", t->nombre, fila, sqlite3_column_name(t->sel, (int)j));
                b->rc = 2, b->hasta = b->nfilas;
                *filas = b->nfilas;
                return 0;
            }
            if (tipo == SQLITE_BLOB && t->blob[j] != B_BYTES && t->blob[j] != B_IMAGEN) tipo = SQLITE_NULL; /* nulo, borrar */
            const char *v = tipo == SQLITE_NULL ? NULL
                            : tipo == SQLITE_BLOB ? (const char *)sqlite3_column_blob(t->sel, (int)j)
                                                  : (const char *)sqlite3_column_text(t->sel, (int)j);
            if (tipo == SQLITE_BLOB && v == NULL) v = ""; /* a BLOB of no bytes */
            size_t l = v ? (size_t)sqlite3_column_bytes(t->sel, (int)j) : 0;
            if (dt__cli_crecer((void **)&b->texto, &b->cap, b->largo + l + 1, 1)) {
                fprintf(stderr, "datoteca: out of memory\n");
                ta->rc = 1;
                return 0;
            }
            b->tipo[base + j] = tipo, b->ini[base + j] = b->largo, b->lon[base + j] = l;
            if (v) memcpy(b->texto + b->largo, v, l), b->largo += l;
        }
        b->nfilas++;
        ta->filas++;
    }
    *filas = b->nfilas;
    if (paso != SQLITE_ROW && paso != SQLITE_DONE) {
        snprintf(b->why, sizeof b->why, "datoteca: copiar: table %s: reading row %llu: %s", t->nombre, desde + b->nfilas + 1,
                 sqlite3_errmsg(ta->c->src));
        b->rc = 2, b->hasta = b->nfilas;
        return 0;
    }
    return paso == SQLITE_ROW;
}

static void item(outbuf *o, char k, const void *p, size_t n) {
    dt__cli_ob_putc(o, k);
    if (p) dt__cli_ob_put(o, (const char *)p, n);
}

/* dt__cli_lotes' hacer, on a worker: each row masked, its written values as items (above). */
static void enmascarar_lote(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *scratch) {
    (void)desde;
    (void)n;
    const tarea *ta = (const tarea *)ctx;
    const tabla *t = ta->t;
    lote *b = (lote *)(void *)scratch;
    size_t filas = b->hasta == (size_t)-1 ? b->nfilas : b->hasta;
    for (size_t r = 0; r < filas; r++) {
        size_t base = r * t->n;
        for (size_t j = 0; j < t->n; j++) {
            b->vals[j] = b->tipo[base + j] == SQLITE_NULL ? NULL : b->texto + b->ini[base + j];
            b->largos[j] = b->lon[base + j];
        }
        char why[DT_SENTENCE_MAX];
        dt_status s = dt_mascara_plan_fila(b->plan, b->primera + r, t->n, b->vals, b->largos, why, sizeof why);
        if (s != DT_OK) {
            b->rc = s == DT_ERR_NO_MEMORY ? 1 : 2, b->hasta = r;
            snprintf(b->why, sizeof b->why, "datoteca: copiar: table %s: %s (nothing was written)", t->nombre, why);
            return;
        }
        dt__cli_revision_fila(&b->rev, t->rev, b->primera + r, b->vals, b->largos, b->plan);
        for (size_t i = 0; i < t->m; i++) {
            size_t l, j = t->de[i];
            if (t->generada[j]) continue;
            const char *v = dt_mascara_plan_valor(b->plan, i, &l);
            long long e;
            uint64_t ll = l;
            if (b->tipo[base + j] == SQLITE_BLOB && l == 0) item(o, 'N', NULL, 0); /* imagen refused under nulo */
            else if (b->tipo[base + j] == SQLITE_BLOB) { /* mantener's bytes or imagen's placeholder, bound as a BLOB */
                item(o, 'B', &ll, sizeof ll);
                dt__cli_ob_put(o, v, l);
            } else if (l == 0 && (b->vals[j] == NULL || b->largos[j] > 0)) item(o, 'N', NULL, 0); /* null, or emptied by its rule */
            /* an integer stays one; "007" stays text: its zeros are part of it */
            else if (b->tipo[base + j] == SQLITE_INTEGER && !(l > 1 && v[0] == '0') && dt__cli_sqlite_entero(v, l, &e))
                item(o, 'I', &e, sizeof e);
            else {
                item(o, 'T', &ll, sizeof ll);
                dt__cli_ob_put(o, v, l);
            }
        }
    }
}

/* dt__cli_lotes' usar_bloque, on the calling thread in row order: each row's items bound and inserted, then the
 * block's refusal said. */
static int usar(void *ctx, outbuf *o, char *scratch) {
    tarea *ta = (tarea *)ctx;
    const lote *b = (const lote *)(const void *)scratch;
    const char *p = o->data, *fin = o->p;
    for (unsigned long long fila = b->primera; p < fin; fila++) {
        int par = 1;
        for (size_t i = 0; i < ta->t->m; i++) {
            if (ta->t->generada[ta->t->de[i]]) continue;
            char k = *p++;
            if (k == 'N') sqlite3_bind_null(ta->ins, par);
            else if (k == 'I') {
                long long e;
                memcpy(&e, p, sizeof e), p += sizeof e;
                sqlite3_bind_int64(ta->ins, par, (sqlite3_int64)e);
            } else {
                uint64_t l;
                memcpy(&l, p, sizeof l), p += sizeof l;
                if (k == 'B') sqlite3_bind_blob64(ta->ins, par, p, (sqlite3_uint64)l, SQLITE_TRANSIENT);
                else sqlite3_bind_text(ta->ins, par, p, (int)l, SQLITE_TRANSIENT);
                p += l;
            }
            par++;
        }
        int paso = sqlite3_step(ta->ins);
        sqlite3_reset(ta->ins);
        sqlite3_clear_bindings(ta->ins);
        if (paso != SQLITE_DONE) {
            /* SQLite's constraint sentences name the table, column or CHECK, never a value */
            fprintf(stderr, "datoteca: copiar: table %s, row %llu: %s (nothing was written)\n", ta->t->nombre, fila,
                    sqlite3_errmsg(ta->c->dst));
            ta->rc = 2;
            return 1;
        }
    }
    dt__cli_revision_bloque(ta->c->rev, b->rev);
    if (b->rc) {
        if (b->rc == 1) fprintf(stderr, "datoteca: out of memory\n");
        else fprintf(stderr, "%s\n", b->why);
        ta->rc = b->rc;
        return 1;
    }
    return 0;
}

/* Table t's rows, masked, into the target: 0, or 2 said on stderr. */
static int filas(copia *c, tabla *t, unsigned long long *total) {
    size_t cap = 64 + 3 * t->m;
    char *q = dt__cli_sql_citado(t->nombre);
    if (q == NULL) return 1;
    cap += strlen(q);
    for (size_t i = 0; i < t->m; i++) cap += 2 * strlen(sqlite3_column_name(t->sel, (int)t->de[i])) + 3;
    char *sql = (char *)malloc(cap);
    if (sql == NULL) {
        free(q);
        return 1;
    }
    size_t o = (size_t)snprintf(sql, cap, "INSERT INTO %s (", q), p = 0;
    free(q);
    for (size_t i = 0; i < t->m; i++) {
        if (t->generada[t->de[i]]) continue;
        char *cq = dt__cli_sql_citado(sqlite3_column_name(t->sel, (int)t->de[i]));
        if (cq == NULL) {
            free(sql);
            return 1;
        }
        o += (size_t)snprintf(sql + o, cap - o, "%s%s", p++ ? ", " : "", cq);
        free(cq);
    }
    o += (size_t)snprintf(sql + o, cap - o, ") VALUES (");
    for (size_t i = 0; i < p; i++) o += (size_t)snprintf(sql + o, cap - o, "%s?", i ? ", " : "");
    snprintf(sql + o, cap - o, ")");
    sqlite3_stmt *ins = NULL;
    int ok = sqlite3_prepare_v2(c->dst, sql, -1, &ins, NULL) == SQLITE_OK;
    free(sql);
    if (!ok) {
        fprintf(stderr, "datoteca: copiar: table %s: cannot write it: %s\n", t->nombre, sqlite3_errmsg(c->dst));
        return 2;
    }
    tarea ta = {c, t, ins, 0, 0};
    dt__cli_lotes l = {0, ULLONG_MAX, BLOQUE, c->jobs, sizeof(lote), enmascarar_lote, NULL, &ta, c->prog, llenar, usar, soltar};
    int lr = dt__cli_lotes_run(&l); /* -1: out of memory, said */
    int rc = lr < 0 ? 1 : ta.rc ? ta.rc : lr ? 2 : 0;
    *total += ta.filas;
    sqlite3_finalize(ins);
    return rc;
}

/* PRAGMA foreign_key_check on the whole target: 0 when every foreign key holds, else 2 naming the first
 * broken one (its table, rowid and parent table: a foreign key whose two columns had different rules). */
static int claves(copia *c) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(c->dst, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
        return exec(c->dst, "PRAGMA foreign_key_check", "checking the foreign keys");
    int rc = 0;
    if (sqlite3_step(st) == SQLITE_ROW) {
        fprintf(stderr, "datoteca: copiar: table %s, rowid %lld: its foreign key to %s does not hold after masking: the child's "
                        "and the parent's columns need the same rule (nothing was written)\n",
                (const char *)sqlite3_column_text(st, 0), (long long)sqlite3_column_int64(st, 1),
                (const char *)sqlite3_column_text(st, 2));
        rc = 2;
    }
    sqlite3_finalize(st);
    return rc;
}

/* A smaller copy: the kept rowids of each table (cli/subconjunto_sqlite.c), then each table's SELECT
 * reads only those. 0, 1 out of memory, 2 said on stderr. */
static int subconjunto(copia *c, const dt__copiar_opciones *o, uint64_t *raices) {
    char **nombres = (char **)calloc(c->nt ? c->nt : 1, sizeof *nombres);
    if (nombres == NULL) return 1;
    for (size_t i = 0; i < c->nt; i++) nombres[i] = c->t[i].nombre;
    int rc = dt__cli_sqlite_subconjunto(c->src, nombres, c->nt, o->subconjunto, o->semilla, o->hijos, o->donde, o->ndonde, raices);
    free(nombres);
    for (size_t i = 0; i < c->nt && rc == 0; i++) {
        tabla *t = &c->t[i];
        char *q = dt__cli_sql_citado(t->nombre);
        size_t n = q ? strlen(q) + 96 : 0;
        char *sel = q ? (char *)malloc(n) : NULL;
        if (sel == NULL) rc = 1;
        else {
            snprintf(sel, n, "SELECT * FROM %s WHERE rowid IN (SELECT rid FROM temp.datoteca_sub_%zu) ORDER BY rowid", q, i);
            sqlite3_finalize(t->sel);
            t->sel = NULL;
            if (sqlite3_prepare_v2(c->src, sel, -1, &t->sel, NULL) != SQLITE_OK) {
                fprintf(stderr, "datoteca: copiar: --subconjunto: table %s: %s\n", t->nombre, sqlite3_errmsg(c->src));
                rc = 2;
            }
        }
        free(q);
        free(sel);
    }
    return rc;
}

/* The copy at `db` as a plain SQL script into `ruta` (created, never an existing file): the tables' CREATE
 * statements, every row as an INSERT whose values are SQLite's own quote() of each (so an integer, a real
 * and a text load back as they were), then the indexes, views and triggers, in one transaction, so that
 * `sqlite3 new.db < ruta` rebuilds the copy. Generated columns are left to the database. 0, or 1 said. */
static int volcar(const char *db, const char *ruta) {
    sqlite3 *src = NULL;
    FILE *f = NULL;
    sqlite3_stmt *obj = NULL, *cols = NULL, *filas_st = NULL;
    int rc = 1;
    if (sqlite3_open_v2(db, &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) goto fin;
    if ((f = fopen(ruta, "wx")) == NULL) {
        fprintf(stderr, "datoteca: copiar: --hacia: cannot write the dump: %s\n", strerror(errno));
        goto fin;
    }
    fputs("-- a masked copy written by datoteca copiar (docs/copia.md): load it with sqlite3 NEW.db < this file\n"
          "PRAGMA foreign_keys = OFF;\nBEGIN TRANSACTION;\n", f);
    static const char *const tipos[] = {"table", "index", "view", "trigger"};
    for (int ti = 0; ti < 4; ti++) {
        if (sqlite3_prepare_v2(src, "SELECT name, sql FROM sqlite_master WHERE type = ?1 AND sql IS NOT NULL AND name NOT "
                                    "LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid", -1, &obj, NULL) != SQLITE_OK)
            goto fin;
        sqlite3_bind_text(obj, 1, tipos[ti], -1, SQLITE_STATIC);
        while (sqlite3_step(obj) == SQLITE_ROW) {
            const char *nombre = (const char *)sqlite3_column_text(obj, 0);
            fprintf(f, "%s;\n", (const char *)sqlite3_column_text(obj, 1));
            if (ti != 0) continue;
            /* the table's rows: INSERT INTO "t" ("a", "b") VALUES(<quote(a)>,<quote(b)>); */
            char *q = dt__cli_sql_citado(nombre), *lista = NULL, *expr = NULL;
            size_t nl = 0, ne = 0;
            if (q == NULL || sqlite3_prepare_v2(src, "SELECT name FROM pragma_table_xinfo(?1) WHERE hidden NOT IN (2, 3) ORDER BY cid",
                                                -1, &cols, NULL) != SQLITE_OK) {
                free(q);
                goto fin;
            }
            sqlite3_bind_text(cols, 1, nombre, -1, SQLITE_STATIC);
            int ok = 1;
            while (ok && sqlite3_step(cols) == SQLITE_ROW) {
                char *cq = dt__cli_sql_citado((const char *)sqlite3_column_text(cols, 0));
                char *l2 = cq ? (char *)realloc(lista, nl + strlen(cq) + 3) : NULL;
                char *e2 = l2 ? (char *)realloc(expr, ne + strlen(cq) + 20) : NULL;
                if (l2) lista = l2;
                if (e2) expr = e2;
                if (cq == NULL || l2 == NULL || e2 == NULL) ok = 0;
                else {
                    nl += (size_t)sprintf(lista + nl, "%s%s", nl ? ", " : "", cq);
                    ne += (size_t)sprintf(expr + ne, "%squote(%s)", ne ? " || ',' || " : "", cq);
                }
                free(cq);
            }
            sqlite3_finalize(cols);
            cols = NULL;
            char *sel = ok && expr ? (char *)malloc(ne + strlen(q) + 32) : NULL;
            if (sel) sprintf(sel, "SELECT %s FROM %s", expr, q);
            ok = sel && sqlite3_prepare_v2(src, sel, -1, &filas_st, NULL) == SQLITE_OK;
            while (ok && sqlite3_step(filas_st) == SQLITE_ROW)
                fprintf(f, "INSERT INTO %s (%s) VALUES(%s);\n", q, lista, (const char *)sqlite3_column_text(filas_st, 0));
            sqlite3_finalize(filas_st);
            filas_st = NULL;
            free(sel);
            free(q);
            free(lista);
            free(expr);
            if (!ok) goto fin;
        }
        sqlite3_finalize(obj);
        obj = NULL;
    }
    fputs("COMMIT;\n", f);
    rc = ferror(f) ? 1 : 0;
fin:
    if (rc != 0 && (f == NULL || !ferror(f)) && src) fprintf(stderr, "datoteca: copiar: --hacia: the dump: %s\n", sqlite3_errmsg(src));
    if (f && fclose(f) != 0) rc = 1;
    sqlite3_finalize(obj);
    sqlite3_finalize(cols);
    sqlite3_finalize(filas_st);
    sqlite3_close(src);
    return rc;
}

int dt__cli_sqlite_copiar(const char *desde, const char *hacia, const dt__copiar_opciones *o, const char *reglas, size_t len,
                          int formato, const char *archivo, const dt_mascara_clave *k) {
    int volcado = o->volcado;
    const char *ruta_desde = dt__conectar_sqlite_ruta(desde), *ruta_hacia = volcado ? hacia : dt__conectar_sqlite_ruta(hacia);
    copia c;
    memset(&c, 0, sizeof c);
    c.reglas = reglas, c.len = len, c.formato = formato, c.archivo = archivo, c.k = k, c.rev = o->revision;
    /* a new file only: what exists, a device, a FIFO (opening one to look blocked) or a link, is refused
     * by lstat, never opened (cli_salida.c) */
    if (dt__cli_salida_tipo(ruta_hacia, volcado ? "dump" : "database", "copiar", "--hacia") != DT__SALIDA_NUEVA) return 2;
    if (sqlite3_open_v2(ruta_desde, &c.src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "datoteca: copiar: --desde: %s\n", c.src ? sqlite3_errmsg(c.src) : "cannot open it");
        sqlite3_close(c.src);
        return 2;
    }
    int rc = exec(c.src, "BEGIN", "--desde"); /* one snapshot of the source for the whole copy */
    if (rc == 0) rc = preparar(&c);
    uint64_t raices = 0;
    if (rc == 0 && o->subconjunto) rc = subconjunto(&c, o, &raices);
    char *tmp = NULL;
    if (rc == 0) {
        size_t n = strlen(ruta_hacia) + 40;
        tmp = (char *)malloc(n);
        if (tmp == NULL) rc = 1;
        else {
            snprintf(tmp, n, "%s.copiando-%ld", ruta_hacia, (long)getpid());
            dt__cli_copiar_temporal(0, tmp);
        }
    }
    if (rc == 0 && sqlite3_open_v2(tmp, &c.dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXCLUSIVE, NULL) !=
                       SQLITE_OK) {
        fprintf(stderr, "datoteca: copiar: --hacia: cannot create it: %s\n", c.dst ? sqlite3_errmsg(c.dst) : "no memory");
        rc = 2;
    }
    unsigned long long total = 0;
    if (rc == 0) rc = exec(c.dst, "PRAGMA foreign_keys = OFF; PRAGMA journal_mode = OFF; BEGIN", "--hacia");
    if (rc == 0) rc = crear(&c, "table");
    dt__progreso prog;
    c.prog = &prog, c.jobs = o->jobs ? o->jobs : 1;
    dt__cli_progreso_empezar(&prog, "copiar", o->progreso, 0, 0, (uint32_t)c.nt, 0);
    for (size_t i = 0; i < c.nt && rc == 0; i++) {
        prog.tabla = (uint32_t)i + 1;
        rc = filas(&c, &c.t[i], &total);
    }
    dt__cli_progreso_terminar(&prog, rc == 0);
    if (rc == 0) rc = crear(&c, "index");
    if (rc == 0) rc = crear(&c, "view");
    if (rc == 0) rc = crear(&c, "trigger");
    if (rc == 0) rc = claves(&c);
    if (rc == 0) rc = exec(c.dst, "COMMIT", "--hacia");
    for (size_t i = 0; i < c.nt; i++) {
        free(c.t[i].nombre);
        free(c.t[i].de);
        free(c.t[i].generada);
        free(c.t[i].blob);
        dt_mascara_plan_free(c.t[i].plan);
        dt_mascara_reglas_free(c.t[i].reglas);
        sqlite3_finalize(c.t[i].sel);
    }
    free(c.t);
    sqlite3_close(c.src);
    if (c.dst && sqlite3_close(c.dst) != SQLITE_OK && rc == 0) {
        fprintf(stderr, "datoteca: copiar: --hacia: cannot close the copy\n");
        rc = 1;
    }
    if (rc == 0 && volcado) {
        /* the dump is written from the checked copy, into its own temporary file, then renamed */
        size_t n = strlen(ruta_hacia) + 40;
        char *sql = (char *)malloc(n);
        if (sql == NULL) rc = 1;
        else {
            snprintf(sql, n, "%s.escribiendo-%ld", ruta_hacia, (long)getpid());
            dt__cli_copiar_temporal(1, sql);
            rc = volcar(tmp, sql);
            if (rc == 0 && dt__cli_salida_renombrar(sql, ruta_hacia, "dump", "copiar", "--hacia") != 0) rc = 1;
            if (rc != 0) remove(sql);
            dt__cli_copiar_temporal(1, NULL);
            free(sql);
        }
        remove(tmp);
    } else if (rc == 0 && dt__cli_salida_renombrar(tmp, ruta_hacia, "database", "copiar", "--hacia") != 0) {
        rc = 1; /* judged again before the rename: a device or a link made meanwhile is not replaced */
    }
    if (rc != 0 && tmp != NULL) remove(tmp);
    dt__cli_copiar_temporal(0, NULL);
    if (rc == 0)
        fprintf(stderr, "datoteca copiar: %zu table%s, %llu rows masked%s, every foreign key checked%s\n", c.nt, c.nt == 1 ? "" : "s", total,
                o->subconjunto ? " (a subset)" : "", volcado ? "; written as an SQL dump" : "");
    free(tmp);
    return rc;
}
