/* datoteca enmascarar --reglas REGLAS (--clave-archivo FILE | DATOTECA_CLAVE) [--salida FILE]
 *                     [--entrada FILE] [--formato csv|jsonl] [--separador C] [--jobs N]:
 * masks a CSV or a JSON Lines stream under the rules and the key (docs/enmascarar.md), in constant
 * memory. The rules and the masking are the library's (dt_mascara_plan); this file reads and writes.
 * Three things it never does: take the key from argv, print any part of the key, or print a value of
 * the input (refusals name the row, the line and the column). With --salida the output goes to a
 * temporary file in the same directory, renamed at the end, so a refused record, a write error or a
 * truncated input leaves no file that looks complete. Exit: 0, 2 for a refused input (rules, key,
 * CSV or JSON, a value), 1 for an I/O error.
 *
 * Rows are read on the main thread in blocks (BLOQUE rows or BLOQUE_BYTES of values, whichever comes
 * first), masked by dt__cli_lotes_run's workers (--jobs, one dt_mascara_plan per block slot; the rules
 * and the key are shared and immutable) and written in input order, so the output does not depend on
 * the number of jobs. A refusal is kept with its block and said when that block's turn to be written
 * comes, so the first bad row is the one named, whatever the jobs. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> /* the input's size, for the progress line */
#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include "cli_csv.h"
#include "cli_interno.h"
#include "cli_jsonl.h"
#include "internal.h"
#include "mascara/prf.h"

#define DT__ENM_ARCHIVO_MAX (1u << 20) /* the rules document's bound (the parser's own) */
enum { BLOQUE = 1024, BLOQUE_BYTES = 256 << 10, MAX_JOBS = 64 };
enum { F_CSV = 1, F_JSONL = 2 };

static int usage_enmascarar(FILE *f) {
    fprintf(f,
            "usage: datoteca enmascarar --reglas REGLAS.toml (--clave-archivo CLAVE.hex | env DATOTECA_CLAVE)\n"
            "                           [--tabla NAME] [--entrada FILE] [--salida FILE] [--formato csv|jsonl] [--jobs N]\n"
            "                           [--separador , | ';' | tab | '|']\n"
            "                           [--clave-de-prueba] [--clave-compartida] [--csv-seguro] [--progreso | --silencio]\n"
            "                           [--riesgo QI,... [--riesgo-enlace COL,COL [--riesgo-enlace-modo M]]]\n"
            "                           [--estricto] [--revision-json FILE]\n"
            "                           < in.csv > out.csv\n"
            "Masks a CSV (a header, then records) or JSON Lines (one flat object per line) from stdin or --entrada\n"
            "under the masking rules REGLAS (TOML, or JSON when the name ends in .json; `datoteca detectar` proposes\n"
            "them) and a secret key, in constant memory; the output has the input's format. With --tabla NAME,\n"
            "REGLAS is a database's document (`datoteca detectar URL` writes it) and NAME's rules are used.\n"
            "The key is 64 hexadecimal digits (32 bytes): read from the file given to --clave-archivo, or else from\n"
            "the environment variable DATOTECA_CLAVE; never from the command line, and never printed.\n"
            "Make one with: (umask 077; openssl rand -hex 32 > clave.hex)\n"
            "The key file must be a regular file that only its owner may read (chmod 600); --clave-compartida\n"
            "accepts one its group or others may read. The published test key (000102...1f) and weak keys (one\n"
            "byte repeated, a block of 2 to 16 bytes repeated, bytes counting by a fixed step, fewer than 16\n"
            "distinct byte values or one more than 8 times) are refused unless --clave-de-prueba (tests only).\n"
            "DATOTECA_CLAVE is removed from the process's environment once read; core dumps are disabled.\n"
            "--formato: csv or jsonl; without it, from the extension of --entrada, else of --salida (.csv; .jsonl,\n"
            ".ndjson), else csv. --jobs N (1 to 64): N threads mask, the output is the same bytes as with one.\n"
            "CSV: a UTF-8 byte-order mark at the start is skipped (never part of the first column's name); records end\n"
            "in LF or CRLF, the last one may lack it; the output has no mark and LF line ends.\n"
            "--separador C: the CSV's field separator, one of , ; tab | (RFC 4180 quoting with it); the output uses\n"
            "the same. Without it: ';' when the header line holds a ';' and no ',' outside double quotes, else ','\n"
            "(data rows are never looked at); a ';' so chosen is said on stderr.\n"
            "--csv-seguro: a CSV cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is written\n"
            "as text, a ' in front (a number or a phone with a sign is left as it is); CSV only.\n"
            "--salida FILE writes FILE through a temporary file renamed at the end (nothing is left on an error); a\n"
            "character device or a FIFO (/dev/null, a pipe) is written directly, and a link, directory or other\n"
            "special file is refused: nothing is ever renamed onto a device.\n"
            "--riesgo QI,...: when the run ends well, the k-anonymity of the output over those columns on stderr\n"
            "(and with --riesgo-enlace A,B the linkage of the pair A, B; `datoteca riesgo --help`).\n"
            "--progreso / --silencio: a progress line on stderr (rows masked, the share of an input file read, rows/s,\n"
            "time elapsed and left) is drawn when stderr is a terminal and the output does not go to that terminal;\n"
            "--progreso draws it anyway, --silencio never. It holds numbers only: never a value, a path or the key.\n"
            "The review: the columns written as they were (mantener) and the masked values written unchanged are\n"
            "checked by the detector (every row up to 5,000, then every 200th) and summed up on stderr when there\n"
            "are any (counts only; --revision-json FILE writes it as JSON). --estricto: exit 3 when personal data\n"
            "(names, RUTs, emails, phones, plates, text with data) was written as it was; the --salida file is removed.\n"
            "Exit status: 0; 2 for refused rules, key or input (naming row and column, never a value); 1 for I/O;\n"
            "3 under --estricto.\n"
            "See docs/enmascarar.md.\n");
    return f == stdout ? 0 : 2;
}

/* The input, and how many bytes the readers took from it (for the progress line's share of the input). */
typedef struct dt__enm_entrada {
    FILE *f;
    uint64_t leidos;
} dt__enm_entrada;

static size_t dt__enm_leer(void *ctx, char *buf, size_t cap) {
    dt__enm_entrada *en = (dt__enm_entrada *)ctx;
    size_t n = fread(buf, 1, cap, en->f);
    if (n == 0 && ferror(en->f)) return (size_t)-1;
    en->leidos += n;
    return n;
}

/* The input's size when it is a regular file (a pipe has none): the progress line's 100 %. */
static uint64_t dt__enm_tamano(FILE *f) {
#ifdef _WIN32
    struct _stat64 st;
    if (_fstat64(_fileno(f), &st) != 0 || !(st.st_mode & _S_IFREG)) return 0;
#else
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
#endif
    return st.st_size > 0 ? (uint64_t)st.st_size : 0;
}
static int dt__enm_termina(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* The format a file name's extension says: F_CSV, F_JSONL, or 0. */
static int dt__enm_formato_de(const char *ruta) {
    if (ruta == NULL) return 0;
    if (dt__enm_termina(ruta, ".csv")) return F_CSV;
    if (dt__enm_termina(ruta, ".jsonl") || dt__enm_termina(ruta, ".ndjson")) return F_JSONL;
    return 0;
}

/* One run: what the workers read (never write) and what the main thread keeps. */
typedef struct enm {
    const dt_mascara_reglas *reglas;
    const dt_mascara_clave *clave;
    int formato;
    int csv_seguro; /* --csv-seguro: formulas written as text (cli_csv_seguro.c) */
    char separador; /* CSV: the input's field separator, the output's too */
    size_t ncols, nsal;
    char **nombre; /* the header (the first JSON line's keys), copied */
    size_t *largo;
    size_t *sal_en; /* output column j is input column sal_en[j] */
    char **clave_json; /* JSONL: output column j's `"name":`, escaped once */
    size_t *clave_json_len;
    dt_mascara_plan *plan0; /* the first plan, handed to the first block slot */
    /* main thread only */
    dt__csv *csv;
    dt__jsonl *jsonl;
    int primera_pendiente; /* JSONL: the first line is the header and row 1 */
    size_t *hash;          /* JSONL: header index + 1 by key, open addressing */
    size_t hash_cap;
    uint64_t *visto;       /* JSONL: per column, the row that last filled it */
    FILE *out;
    int rc;
    dt__cli_riesgo_enm *riesgo; /* --riesgo: the report counted as blocks are written */
    dt__revision *rev;              /* the review of the output (cli_revision.c), counted as blocks are written */
    dt__revision_tabla *rev_tabla;
    dt__enm_entrada entrada;
    dt__progreso prog; /* numbers only: rows written and the input's bytes read (cli_progreso.h) */
} enm;

/* A block slot's state, kept in dt__cli_lotes' scratch. */
typedef struct bloque {
    dt_mascara_plan *plan;
    char *texto;
    size_t largo, cap;
    size_t *vini, *vlen; /* value i of row r: [r * ncols + i] */
    uint8_t *tipo;       /* DT__JSONL_*: what the input value was (CSV: always text) */
    size_t cap_vals;
    uint64_t *fila, *linea;
    size_t cap_filas, nfilas;
    const char **vals; /* the row being masked */
    size_t *lens;
    int rc_entrada, rc_valor; /* a refusal after the rows read / at a row masked */
    uint64_t leidos;          /* the input's bytes read once this block was */
    char why_entrada[DT_SENTENCE_MAX + 64], why_valor[DT_SENTENCE_MAX + 64];
    dt__revision_lote *rev; /* the review's counts of this block's rows (cli_revision.c) */
} bloque;

static void soltar_bloque(void *ctx, char *scratch) {
    (void)ctx;
    bloque *b = (bloque *)(void *)scratch;
    dt_mascara_plan_free(b->plan);
    if (b->texto) dt__borrar(b->texto, b->cap); /* real data: wiped like the plan's buffers */
    free(b->texto);
    free(b->vini);
    free(b->vlen);
    free(b->tipo);
    free(b->fila);
    free(b->linea);
    free(b->vals);
    free(b->lens);
    dt__cli_revision_lote_free(b->rev);
    memset(b, 0, sizeof *b);
}

/* Room for one more row of values (and `bytes` of text) in b: 0, or 1 out of memory. */
static int dt__enm_fila_nueva(const enm *e, bloque *b, size_t bytes) {
    size_t cf = b->cap_filas, cv = b->cap_vals;
    if (dt__cli_crecer((void **)&b->fila, &cf, b->nfilas + 1, sizeof *b->fila)) return 1;
    cf = b->cap_filas;
    if (dt__cli_crecer((void **)&b->linea, &cf, b->nfilas + 1, sizeof *b->linea)) return 1;
    b->cap_filas = cf;
    size_t nv = (b->nfilas + 1) * (e->ncols ? e->ncols : 1);
    cv = b->cap_vals;
    if (dt__cli_crecer((void **)&b->vini, &cv, nv, sizeof *b->vini)) return 1;
    cv = b->cap_vals;
    if (dt__cli_crecer((void **)&b->vlen, &cv, nv, sizeof *b->vlen)) return 1;
    cv = b->cap_vals;
    if (dt__cli_crecer((void **)&b->tipo, &cv, nv, sizeof *b->tipo)) return 1;
    b->cap_vals = cv;
    if (b->largo + bytes > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->largo + bytes) c *= 2;
        char *t = (char *)malloc(c);
        if (t == NULL) return 1;
        if (b->texto) {
            memcpy(t, b->texto, b->largo);
            dt__borrar(b->texto, b->cap);
            free(b->texto);
        }
        b->texto = t;
        b->cap = c;
    }
    return 0;
}

/* A header name in a sentence: at most 60 bytes, control characters as '?' (a name, never a value). */
static void dt__enm_nombre(const char *s, size_t n, char out[64]) {
    if (dt__parece_clave_en(s, n)) { /* a key's digits, or a part of them: not quoted (issue 48) */
        strcpy(out, "[hexadecimal digits, not quoted]");
        return;
    }
    size_t m = n > 60 ? 60 : n;
    while (m > 0 && m < n && ((unsigned char)s[m] & 0xC0) == 0x80) m--; /* between characters */
    for (size_t i = 0; i < m; i++) out[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
    memcpy(out + m, n > m ? "..." : "", n > m ? 4 : 1);
}

static uint64_t dt__enm_fnv(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

/* The header column of key s[0, n), or (size_t)-1. */
static size_t dt__enm_columna(const enm *e, const char *s, size_t n) {
    for (size_t h = (size_t)dt__enm_fnv(s, n) & (e->hash_cap - 1);; h = (h + 1) & (e->hash_cap - 1)) {
        size_t v = e->hash[h];
        if (v == 0) return (size_t)-1;
        if (e->largo[v - 1] == n && memcmp(e->nombre[v - 1], s, n) == 0) return v - 1;
    }
}

/* The current JSON object as row `fila` of b: 0, or 2 (1 out of memory) with the sentence in b. */
static int dt__enm_fila_jsonl(enm *e, bloque *b, uint64_t fila) {
    const dt__jsonl *j = e->jsonl;
    if (dt__enm_fila_nueva(e, b, j->largo_texto)) {
        snprintf(b->why_entrada, sizeof b->why_entrada, "datoteca: out of memory");
        return 1;
    }
    size_t base = b->nfilas * e->ncols;
    for (size_t k = 0; k < j->nmiembros; k++) {
        const dt__jsonl_miembro *m = &j->m[k];
        const char *key = j->texto + m->kini;
        size_t i = k < e->ncols && e->largo[k] == m->klen && memcmp(e->nombre[k], key, m->klen) == 0
                       ? k
                       : dt__enm_columna(e, key, m->klen);
        if (i == (size_t)-1) {
            /* by position: a key that is not the header's could be data */
            snprintf(b->why_entrada, sizeof b->why_entrada,
                     "datoteca: enmascarar: the input: line %llu (row %llu): its key %zu is not a key of the first line "
                     "(every line has the first line's keys)",
                     (unsigned long long)j->linea_num, (unsigned long long)fila, k + 1);
            return 2;
        }
        e->visto[i] = fila;
        b->vini[base + i] = b->largo;
        b->vlen[base + i] = m->vlen;
        b->tipo[base + i] = (uint8_t)m->tipo;
        memcpy(b->texto + b->largo, j->texto + m->vini, m->vlen);
        b->largo += m->vlen;
    }
    if (j->nmiembros != e->ncols) { /* keys are unique on a line, so some column was not filled */
        size_t i = 0;
        while (i < e->ncols && e->visto[i] == fila) i++;
        char nom[64];
        dt__enm_nombre(e->nombre[i], e->largo[i], nom);
        snprintf(b->why_entrada, sizeof b->why_entrada,
                 "datoteca: enmascarar: the input: line %llu (row %llu) lacks the key '%s' of the first line (every "
                 "line has the first line's keys; null for no value)",
                 (unsigned long long)j->linea_num, (unsigned long long)fila, nom);
        return 2;
    }
    b->fila[b->nfilas] = fila;
    b->linea[b->nfilas] = j->linea_num;
    b->nfilas++;
    return 0;
}

/* The current CSV record as row `fila` of b (it starts on line `linea`): 0, or 2 / 1 as above. */
static int dt__enm_fila_csv(enm *e, bloque *b, uint64_t fila, uint64_t linea) {
    const dt__csv *c = e->csv;
    if (c->ncampos != e->ncols) {
        snprintf(b->why_entrada, sizeof b->why_entrada, "datoteca: enmascarar: line %llu: row %llu has %zu fields, the header %zu",
                 (unsigned long long)linea, (unsigned long long)fila, c->ncampos, e->ncols);
        return 2;
    }
    if (dt__enm_fila_nueva(e, b, c->largo_texto)) {
        snprintf(b->why_entrada, sizeof b->why_entrada, "datoteca: out of memory");
        return 1;
    }
    size_t base = b->nfilas * e->ncols;
    for (size_t i = 0; i < e->ncols; i++) {
        size_t n;
        const char *v = dt__csv_campo(c, i, &n);
        b->vini[base + i] = b->largo;
        b->vlen[base + i] = n;
        b->tipo[base + i] = DT__JSONL_TEXTO;
        memcpy(b->texto + b->largo, v, n);
        b->largo += n;
    }
    b->fila[b->nfilas] = fila;
    b->linea[b->nfilas] = linea;
    b->nfilas++;
    return 0;
}

/* dt__cli_lotes' llenar: up to `max` rows (and about BLOQUE_BYTES) from the input into the slot. */
static int llenar_bloque(void *ctx, unsigned long long desde, size_t max, char *scratch, size_t *filas) {
    (void)desde;
    enm *e = (enm *)ctx;
    bloque *b = (bloque *)(void *)scratch;
    b->nfilas = 0;
    b->largo = 0;
    b->rc_entrada = b->rc_valor = 0;
    *filas = 0;
    if (b->plan == NULL) {
        char why[DT_SENTENCE_MAX];
        dt_status st = DT_OK;
        if (e->plan0 != NULL) {
            b->plan = e->plan0;
            e->plan0 = NULL;
        } else {
            st = dt_mascara_plan_new(e->reglas, e->clave, e->ncols, (const char *const *)e->nombre, e->largo, &b->plan, why,
                                     sizeof why);
        }
        b->vals = (const char **)malloc((e->ncols ? e->ncols : 1) * sizeof *b->vals);
        b->lens = (size_t *)malloc((e->ncols ? e->ncols : 1) * sizeof *b->lens);
        if (st != DT_OK || b->vals == NULL || b->lens == NULL) { /* the same header was bound once: memory */
            snprintf(b->why_entrada, sizeof b->why_entrada, "datoteca: out of memory");
            b->rc_entrada = 1;
            return 0;
        }
    }
    char why[DT_SENTENCE_MAX];
    while (b->nfilas < max && b->largo < BLOQUE_BYTES) {
        int rc;
        if (e->formato == F_JSONL) {
            if (e->primera_pendiente) {
                e->primera_pendiente = 0;
            } else {
                int r = dt__jsonl_objeto(e->jsonl, why, sizeof why);
                if (r == 0) break;
                if (r < 0) {
                    snprintf(b->why_entrada, sizeof b->why_entrada, "datoteca: enmascarar: the input: %s", why);
                    b->rc_entrada = strstr(why, "out of memory") || strstr(why, "cannot read") ? 1 : 2;
                    break;
                }
            }
            rc = dt__enm_fila_jsonl(e, b, e->jsonl->linea_num);
        } else {
            uint64_t linea = e->csv->linea;
            int r = dt__csv_registro(e->csv, why, sizeof why);
            if (r == 0) break;
            if (r < 0) {
                snprintf(b->why_entrada, sizeof b->why_entrada, "datoteca: enmascarar: the input: %s", why);
                b->rc_entrada = 2;
                break;
            }
            rc = dt__enm_fila_csv(e, b, e->csv->registros - 1, linea);
        }
        if (rc) {
            b->rc_entrada = rc;
            break;
        }
    }
    *filas = b->nfilas;
    b->leidos = e->entrada.leidos;
    return b->rc_entrada == 0 && b->nfilas == max ? 1 : b->rc_entrada == 0 && b->largo >= BLOQUE_BYTES;
}

/* dt__cli_lotes' hacer, on a worker: the slot's rows masked into o, up to the first refused one. */
static void hacer_bloque(void *ctx, unsigned long long desde, size_t n, outbuf *o, char *scratch) {
    (void)desde;
    (void)n;
    const enm *e = (const enm *)ctx;
    bloque *b = (bloque *)(void *)scratch;
    char why[DT_SENTENCE_MAX];
    for (size_t r = 0; r < b->nfilas; r++) {
        size_t base = r * e->ncols;
        for (size_t i = 0; i < e->ncols; i++) {
            b->vals[i] = b->texto + b->vini[base + i];
            b->lens[i] = b->vlen[base + i];
        }
        dt_status st = dt_mascara_plan_fila(b->plan, b->fila[r], e->ncols, b->vals, b->lens, why, sizeof why);
        if (st != DT_OK) {
            snprintf(b->why_valor, sizeof b->why_valor, "datoteca: enmascarar: line %llu: %s", (unsigned long long)b->linea[r], why);
            b->rc_valor = st == DT_ERR_NO_MEMORY ? 1 : 2;
            return;
        }
        dt__cli_revision_fila(&b->rev, e->rev_tabla, b->fila[r], b->vals, b->lens, b->plan);
        if (e->formato == F_CSV) {
            for (size_t j = 0; j < e->nsal; j++) {
                size_t m;
                const char *s = dt_mascara_plan_valor(b->plan, j, &m);
                if (j) dt__cli_ob_putc(o, e->separador);
                dt__cli_csv_field_seguro(o, s, m, e->csv_seguro, e->separador);
            }
            dt__cli_ob_putc(o, '\n');
            continue;
        }
        dt__cli_ob_putc(o, '{');
        for (size_t j = 0; j < e->nsal; j++) {
            size_t m, i = e->sal_en[j];
            const char *s = dt_mascara_plan_valor(b->plan, j, &m);
            int tipo = b->tipo[base + i] & 3;
            if (j) dt__cli_ob_putc(o, ',');
            dt__cli_ob_put(o, e->clave_json[j], e->clave_json_len[j]);
            if (m == 0 && !(tipo == DT__JSONL_TEXTO && b->lens[i] == 0)) {
                dt__cli_ob_put(o, "null", 4); /* null stays null; a value emptied (nulo) becomes null */
            } else if (tipo == DT__JSONL_CRUDO && s == b->vals[i] && m == b->lens[i]) {
                dt__cli_ob_put(o, s, m); /* a number or a boolean kept as it is (mantener) */
            } else {
                dt__cli_json_string(o, s, m);
            }
        }
        dt__cli_ob_put(o, "}\n", 2);
    }
}

/* dt__cli_lotes' usar_bloque, on the main thread in row order: write, then say the block's refusal. */
static int usar_bloque(void *ctx, outbuf *o, char *scratch) {
    enm *e = (enm *)ctx;
    const bloque *b = (const bloque *)(const void *)scratch;
    size_t n = (size_t)(o->p - o->data);
    e->prog.bytes = b->leidos; /* dt__cli_lotes_run counts the rows once this returns */
    if (n && fwrite(o->data, 1, n, e->out) != n) {
        dt__cli_progreso_limpiar(&e->prog);
        fprintf(stderr, "datoteca: enmascarar: cannot write the output: %s\n", strerror(errno));
        e->rc = 1;
        return 1;
    }
    if (e->riesgo && !b->rc_valor && !b->rc_entrada &&
        (e->rc = dt__cli_riesgo_enm_bloque(e->riesgo, e->formato == F_JSONL, e->separador, o->data, n, b->nfilas, b->texto, b->vini,
                                           b->vlen, e->ncols)) != 0)
        return 1;
    dt__cli_revision_bloque(e->rev, b->rev);
    if (b->rc_valor || b->rc_entrada) {
        dt__cli_progreso_limpiar(&e->prog);
        fprintf(stderr, "%s\n", b->rc_valor ? b->why_valor : b->why_entrada);
        e->rc = b->rc_valor ? b->rc_valor : b->rc_entrada;
        return 1;
    }
    return 0;
}

static int enmascarar(int argc, char **argv, dt__cli_riesgo_enm *riesgo, dt__revision *rev);

int dt__cli_enmascarar_main(int argc, char **argv) {
    dt__cli_sin_volcado(); /* before the key is anywhere in this process */
    dt__cli_riesgo_enm *riesgo = NULL; /* --riesgo and its options, taken out of argv */
    dt__revision *rev = NULL;          /* --estricto, --revision-json FILE: taken out of argv too */
    int rc = dt__cli_riesgo_opciones(&argc, argv, &riesgo);
    if (rc == 0) rc = dt__cli_revision_opciones(&argc, argv, "enmascarar", &rev);
    if (rc == 0) rc = enmascarar(argc, argv, riesgo, rev);
    dt__cli_riesgo_enm_fin(riesgo, rc == 0);
    rc = dt__cli_revision_fin(rev, rc); /* the summary; 3 under --estricto when personal data was written as it was */
    dt__cli_revision_free(rev);
    return rc;
}

static int enmascarar(int argc, char **argv, dt__cli_riesgo_enm *riesgo, dt__revision *rev) {
    const char *reglas_ruta = NULL, *clave_ruta = NULL, *salida = NULL, *entrada = NULL, *formato_txt = NULL, *jobs_txt = NULL,
               *tabla = NULL, *separador_txt = NULL;
    static const char *const opciones[] = {"--reglas", "--clave-archivo", "--salida", "--entrada", "--formato", "--jobs",
                                           "--tabla", "--separador"};
    int csv_seguro = 0, progreso = 0;
    unsigned clave_opciones = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return usage_enmascarar(stdout);
        if (strcmp(a, "--csv-seguro") == 0) {
            csv_seguro = 1;
            continue;
        }
        if (dt__cli_progreso_opcion(a, &progreso)) continue;
        int o = dt__cli_opcion_clave(a, "enmascarar", &clave_opciones);
        if (o == 2) return 2;
        if (o == 1) continue;
        size_t k = 0;
        while (k < sizeof opciones / sizeof opciones[0] && strcmp(a, opciones[k]) != 0) k++;
        if (k < sizeof opciones / sizeof opciones[0] && i + 1 < argc) {
            const char **d[] = {&reglas_ruta, &clave_ruta, &salida, &entrada, &formato_txt, &jobs_txt, &tabla, &separador_txt};
            *d[k] = argv[++i];
        } else {
            /* by position only: a key pasted by mistake must not be printed */
            fprintf(stderr, "datoteca: enmascarar: argument %d is not an option of enmascarar (or lacks its value)\n", i);
            return usage_enmascarar(stderr);
        }
    }
    if (reglas_ruta == NULL) {
        fprintf(stderr, "datoteca: enmascarar: --reglas FILE is required (`datoteca detectar` proposes the rules)\n");
        return 2;
    }
    {
        const char *nombres[] = {"--reglas", "--clave-archivo", "--entrada", "--salida", "--tabla"};
        const char *valores[] = {reglas_ruta, clave_ruta, entrada, salida, tabla};
        for (int i = 0; i < 5; i++)
            if (valores[i] != NULL && dt__cli_parece_clave(valores[i])) {
                fprintf(stderr,
                        "datoteca: enmascarar: the value given to %s is 64 hexadecimal digits, or holds them in a row: it "
                        "looks like a masking key, not a path, and is not used%s\n",
                        nombres[i],
                        i == 1 ? "; put the key in a file only you can read, (umask 077; openssl rand -hex 32 > clave.hex), "
                                 "and give that file's name"
                               : "");
                return 2;
            }
    }
    /* a file whose text is a key, given as the rules or the input (issue 48): refused before a byte of it
     * is parsed, since a parser's sentence quotes what it could not read */
    if (dt__cli_archivo_es_clave(reglas_ruta)) return dt__cli_rehusar_clave("enmascarar", "--reglas", "rules");
    if (dt__cli_archivo_es_clave(entrada)) return dt__cli_rehusar_clave("enmascarar", entrada ? "--entrada" : "stdin",
                                                                        "the data to mask");
    if (dt__cli_progreso_pedido(progreso, "enmascarar: ")) return 2;
    unsigned long long jobs = 1;
    if (jobs_txt != NULL && (!dt__cli_parse_u64(jobs_txt, MAX_JOBS, &jobs) || jobs == 0)) {
        fprintf(stderr, "datoteca: enmascarar: --jobs must be an integer from 1 to %d\n", MAX_JOBS);
        return 2;
    }
    int formato = 0;
    if (formato_txt != NULL) {
        formato = strcmp(formato_txt, "csv") == 0 ? F_CSV : strcmp(formato_txt, "jsonl") == 0 ? F_JSONL : 0;
        if (formato == 0) {
            fprintf(stderr, "datoteca: enmascarar: --formato must be csv or jsonl\n");
            return 2;
        }
    } else {
        int fe = dt__enm_formato_de(entrada), fs = dt__enm_formato_de(salida);
        if (fe && fs && fe != fs) {
            fprintf(stderr, "datoteca: enmascarar: --entrada is %s and --salida %s by their extensions, but the output "
                            "has the input's format: rename one, or give --formato\n",
                    fe == F_CSV ? "CSV" : "JSON Lines", fs == F_CSV ? "CSV" : "JSON Lines");
            return 2;
        }
        formato = fe ? fe : fs ? fs : F_CSV;
    }
    int separador = DT__CSV_SEPARADOR_AUTO;
    if (separador_txt != NULL) {
        if (dt__cli_separador(separador_txt, "enmascarar", &separador)) return 2;
        if (formato != F_CSV) {
            fprintf(stderr, "datoteca: enmascarar: --separador is for CSV (JSON Lines has no separator to choose)\n");
            return 2;
        }
    }
    if (csv_seguro && formato != F_CSV) {
        fprintf(stderr, "datoteca: enmascarar: --csv-seguro is for CSV output (a JSON Lines value is not read by a "
                        "spreadsheet as a formula)\n");
        return 2;
    }
    if (dt__cli_clave_dada(clave_ruta, "enmascarar")) return 2;

    int rc = 0;
    char why[DT_SENTENCE_MAX];
    dt_mascara_reglas *reglas = NULL;
    dt_mascara_clave *clave = NULL;
    enm e;
    memset(&e, 0, sizeof e);
    e.riesgo = riesgo;
    dt__csv c;
    dt__jsonl jl;
    int lector_listo = 0;
    FILE *in = stdin, *out = stdout;
    char *tmp = NULL;
    int en_sitio = 0; /* --salida a device or a FIFO: written directly, never renamed onto (cli_salida.c) */

    size_t n;
    char *texto = dt__cli_archivo_chico(reglas_ruta, DT__ENM_ARCHIVO_MAX, &n);
    if (texto == NULL) {
        fprintf(stderr, "datoteca: enmascarar: cannot read the rules file given (--reglas): %s\n",
                errno == EFBIG ? "longer than 1 MiB" : strerror(errno));
        dt__cli_olvidar_clave_env(getenv("DATOTECA_CLAVE"));
        return 2;
    }
    int formato_reglas = dt__enm_termina(reglas_ruta, ".json") ? DT_MASCARA_JSON : DT_MASCARA_TOML;
    dt_status st = tabla ? dt_mascara_reglas_tabla_new(texto, n, formato_reglas, dt__cli_base(reglas_ruta), tabla, strlen(tabla),
                                                       &reglas, why, sizeof why)
                         : dt_mascara_reglas_new(texto, n, formato_reglas, dt__cli_base(reglas_ruta), &reglas, why, sizeof why);
    free(texto);
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: enmascarar: %s\n", why);
        dt__cli_olvidar_clave_env(getenv("DATOTECA_CLAVE"));
        return st == DT_ERR_NO_MEMORY ? 1 : 2;
    }

    if (dt__cli_clave_leer(clave_ruta, clave_opciones, "enmascarar", &clave)) {
        rc = 2;
        goto fin;
    }
    e.reglas = reglas;
    e.clave = clave;
    e.formato = formato;
    e.csv_seguro = csv_seguro;

    if (entrada != NULL && (in = fopen(entrada, "rb")) == NULL) {
        fprintf(stderr, "datoteca: enmascarar: cannot open the input file given (--entrada): %s\n", strerror(errno));
        in = stdin;
        rc = 2;
        goto fin;
    }
    e.entrada.f = in;
    /* The header: the CSV's first record, or the keys of the first JSON line (which is row 1 too). */
    int r;
    if (formato == F_CSV) {
        if (dt__csv_init(&c, dt__enm_leer, &e.entrada)) goto sin_memoria;
        lector_listo = 1;
        e.csv = &c;
        c.separador = separador;
        r = dt__csv_registro(&c, why, sizeof why);
        if (r <= 0) {
            fprintf(stderr, "datoteca: enmascarar: the input: %s\n", r == 0 ? "no header: the input is empty" : why);
            rc = 2;
            goto fin;
        }
        e.ncols = c.ncampos;
        e.separador = (char)c.separador;
        if (separador == DT__CSV_SEPARADOR_AUTO && c.separador != ',')
            fprintf(stderr, "datoteca: enmascarar: the input's header line holds ';' and no ',' outside quotes: ';' separates "
                            "the fields, of the output too (--separador to choose)\n");
    } else {
        if (dt__jsonl_init(&jl, dt__enm_leer, &e.entrada)) goto sin_memoria;
        lector_listo = 1;
        e.jsonl = &jl;
        r = dt__jsonl_objeto(&jl, why, sizeof why);
        if (r < 0) {
            fprintf(stderr, "datoteca: enmascarar: the input: %s\n", why);
            rc = strstr(why, "out of memory") || strstr(why, "cannot read") ? 1 : 2;
            goto fin;
        }
        e.ncols = r == 0 ? 0 : jl.nmiembros;
        e.primera_pendiente = r == 1;
    }
    size_t m1 = e.ncols ? e.ncols : 1;
    e.nombre = (char **)calloc(m1, sizeof *e.nombre);
    e.largo = (size_t *)calloc(m1, sizeof *e.largo);
    e.sal_en = (size_t *)calloc(m1, sizeof *e.sal_en);
    e.clave_json = (char **)calloc(m1, sizeof *e.clave_json);
    e.clave_json_len = (size_t *)calloc(m1, sizeof *e.clave_json_len);
    e.visto = (uint64_t *)calloc(m1, sizeof *e.visto);
    for (e.hash_cap = 8; e.hash_cap < 2 * m1; e.hash_cap *= 2) {
    }
    e.hash = (size_t *)calloc(e.hash_cap, sizeof *e.hash);
    if (!e.nombre || !e.largo || !e.sal_en || !e.clave_json || !e.clave_json_len || !e.visto || !e.hash) goto sin_memoria;
    for (size_t i = 0; i < e.ncols; i++) {
        const char *s = formato == F_CSV ? dt__csv_campo(&c, i, &n) : (n = jl.m[i].klen, jl.texto + jl.m[i].kini);
        if ((e.nombre[i] = (char *)malloc(n + 1)) == NULL) goto sin_memoria;
        memcpy(e.nombre[i], s, n);
        e.nombre[i][n] = '\0';
        e.largo[i] = n;
        size_t h = (size_t)dt__enm_fnv(s, n) & (e.hash_cap - 1);
        while (e.hash[h]) h = (h + 1) & (e.hash_cap - 1);
        e.hash[h] = i + 1;
    }
    int vacia = formato == F_JSONL && r == 0; /* JSON Lines with no line: no rows, nothing to bind */
    if (!vacia) {
        st = dt_mascara_plan_new(reglas, clave, e.ncols, (const char *const *)e.nombre, e.largo, &e.plan0, why, sizeof why);
        if (st != DT_OK) {
            fprintf(stderr, "datoteca: enmascarar: %s\n", why);
            rc = st == DT_ERR_NO_MEMORY ? 1 : 2;
            goto fin;
        }
        e.nsal = dt_mascara_plan_ncolumnas(e.plan0);
        for (size_t j = 0; j < e.nsal; j++) {
            size_t m;
            const char *s = dt_mascara_plan_columna(e.plan0, j, &m);
            size_t i = dt__enm_columna(&e, s, m);
            e.sal_en[j] = i;
            outbuf kb;
            if (dt__cli_ob_init(&kb, 6 * m + 4, NULL)) goto sin_memoria;
            dt__cli_json_string(&kb, s, m);
            dt__cli_ob_putc(&kb, ':');
            e.clave_json[j] = kb.data; /* the block's bytes, owned from here */
            e.clave_json_len[j] = (size_t)(kb.p - kb.data);
        }
        e.rev = rev;
        dt__cli_revision_salida(rev, salida);
        e.rev_tabla = dt__cli_revision_tabla(rev, NULL, e.plan0, e.ncols, e.sal_en, NULL);
        if (riesgo && (rc = dt__cli_riesgo_enm_columnas(riesgo, e.plan0, e.ncols, (const char *const *)e.nombre, e.largo)) != 0)
            goto fin;
    }

    int tipo_salida = salida != NULL ? dt__cli_salida_tipo(salida, NULL, "enmascarar", "--salida") : DT__SALIDA_NUEVA;
    if (tipo_salida == DT__SALIDA_REHUSADA) {
        rc = 2;
        goto fin;
    }
    if (tipo_salida == DT__SALIDA_EN_SITIO) {
        if ((out = dt__cli_salida_en_sitio(salida, "enmascarar", "--salida")) == NULL) {
            out = stdout;
            rc = 1;
            goto fin;
        }
        en_sitio = 1;
    } else if (salida != NULL) {
        size_t sl = strlen(salida);
        tmp = malloc(sl + 16);
        if (tmp == NULL) goto sin_memoria;
        memcpy(tmp, salida, sl);
        memcpy(tmp + sl, ".tmp-XXXXXX", 12);
#ifdef _WIN32
        out = _mktemp_s(tmp, sl + 12) == 0 ? fopen(tmp, "wb") : NULL;
#else
        int fd = mkstemp(tmp);
        out = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (fd >= 0 && out == NULL) close(fd);
#endif
        if (out == NULL) {
            fprintf(stderr, "datoteca: enmascarar: cannot create a temporary file next to the output file given (--salida): %s\n",
                    strerror(errno));
            free(tmp);
            tmp = NULL;
            out = stdout;
            rc = 1;
            goto fin;
        }
    }
    e.out = out;
    int escrito_mal = 0;
    if (formato == F_CSV) {
        outbuf cab;
        if (dt__cli_ob_init(&cab, 4096, out)) goto sin_memoria;
        for (size_t j = 0; j < e.nsal; j++) {
            size_t m;
            const char *s = dt_mascara_plan_columna(e.plan0, j, &m);
            if (j) dt__cli_ob_putc(&cab, e.separador);
            dt__cli_csv_field_seguro(&cab, s, m, e.csv_seguro, e.separador);
        }
        dt__cli_ob_putc(&cab, '\n');
        dt__cli_ob_flush(&cab);
        escrito_mal = cab.error;
        dt__cli_ob_free(&cab);
    }
    if (!vacia && !escrito_mal) {
        dt__cli_progreso_empezar(&e.prog, "enmascarar", progreso, salida == NULL, 0, 0, dt__enm_tamano(in));
        e.prog.bytes = e.entrada.leidos; /* the header, and what the reader took ahead */
        dt__cli_lotes l = {0, ULLONG_MAX, BLOQUE, (size_t)jobs, sizeof(bloque), hacer_bloque, NULL, &e, &e.prog,
                           llenar_bloque, usar_bloque, soltar_bloque};
        int lr = dt__cli_lotes_run(&l);
        dt__cli_progreso_terminar(&e.prog, lr == 0);
        if (lr < 0) {
            rc = 1;
            goto fin;
        }
        if (lr) {
            rc = e.rc ? e.rc : 1;
            goto fin;
        }
    }
    if (escrito_mal || fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "datoteca: enmascarar: cannot write the output: %s\n", strerror(errno));
        rc = 1;
        goto fin;
    }
    if (tmp != NULL || en_sitio) {
        int err = fclose(out);
        out = en_sitio ? stdout : NULL;
        en_sitio = 0;
        if (err != 0) {
            fprintf(stderr, "datoteca: enmascarar: cannot write the output: %s\n", strerror(errno));
            rc = 1;
            goto fin;
        }
        if (tmp != NULL && dt__cli_salida_renombrar(tmp, salida, NULL, "enmascarar", "--salida") != 0) {
            rc = 1;
            goto fin;
        }
        free(tmp);
        tmp = NULL;
    }
    goto fin;
sin_memoria:
    fprintf(stderr, "datoteca: out of memory\n");
    rc = 1;
fin:
    if (en_sitio) fclose(out);
    if (tmp != NULL) {
        if (out != NULL) fclose(out);
        remove(tmp);
        free(tmp);
    }
    if (in != stdin) fclose(in);
    if (lector_listo) {
        if (formato == F_CSV) dt__csv_free(&c);
        else dt__jsonl_free(&jl);
    }
    for (size_t i = 0; i < e.ncols; i++) {
        if (e.nombre) free(e.nombre[i]);
        if (e.clave_json) free(e.clave_json[i]);
    }
    free(e.nombre);
    free(e.largo);
    free(e.sal_en);
    free(e.clave_json);
    free(e.clave_json_len);
    free(e.visto);
    free(e.hash);
    dt_mascara_plan_free(e.plan0);
    dt_mascara_clave_free(clave);
    dt_mascara_reglas_free(reglas);
    return rc;
}
