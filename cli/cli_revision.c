/* The review of what a run wrote (issue 48, docs/enmascarar.md and docs/copia.md, "The review of the output"):
 * `enmascarar` and the three copiers hand every block of output rows here, and at the end of the run one
 * summary is printed on stderr (and, with --revision-json FILE, written as JSON):
 *
 *  - every column written as it was (its rule is mantener, or there is none under sin_regla = "mantener"):
 *    its output values are counted by the library's detector, as dt_detector_fila counts a value (its class
 *    by dt__detectar: RUT, email, phone, plate, date, comuna, names, text with data; its signals by
 *    dt__detectar_senales: names, dates, data among words);
 *  - every masked column: how many of its non-empty original values were written unchanged at their own
 *    row (a rule that passed values through: otros = "mantener", an invalid value kept by the policy), and
 *    what those unchanged values look like, by the same detector.
 *
 * Which rows: every row up to DT__REV_TODAS, then every DT__REV_CADA-th (by the row's number, so the sample
 * is the same on every run and with any --jobs). Counts are added in row order on the calling thread, but they
 * are sums, so the summary does not depend on the number of threads either. Nothing of a value's text is kept
 * beyond the row being checked (a slot remembers, per column, up to MEMO * 3 / 4 values' unkeyed 64-bit hashes
 * with the class they showed, so that a column of few distinct values is judged once per value; freed at the
 * end), and nothing of a value is printed: table and column names and counts only.
 *
 * An original is looked for at its own row: a value a rule passed through. Not among all the column's output
 * values: a substitution draws from the same lists real data is made of (names, comunas), so a masked name
 * that is some other row's real name says nothing about the rule.
 *
 * --estricto: exit DT__REV_SALIDA (3) when a column wrote, as they were, values that look personal: names,
 * RUTs, emails, phones, plates or text with data inside, in at least DT__REV_MINIMO values and 1 % of the
 * column's non-empty values checked (or in all of them when fewer); RUTs so when written with a hyphen, else
 * (bare numbers, which pass a RUT's check 1 time in 11: an integer key) in more than half of them. A
 * UUID's text is not judged (dt__rev_uuid). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_interno.h"
#include "internal.h"

#define DT__REV_TODAS 5000ULL  /* every row up to this one is checked */
#define DT__REV_CADA 200ULL     /* ... then every 200th */
#define DT__REV_MINIMO 5        /* values of one kind that make a column personal */
#define DT__REV_SALIDA 3        /* --estricto's exit status */

/* The detector's classes (dt__detectar, in dt_detector's order) and signals (dt__detectar_senales' bits). */
#define NCLASES 10
#define NSENALES 5
static const char *const dt__rev_clases[NCLASES] = {"rut", "email", "telefono", "patente", "fecha", "comuna",
                                                    "nombre_completo", "nombre", "apellido", "texto"};
/* Each slot remembers what a value it saw looked like, by the value's unkeyed 64-bit hash (never the value):
 * a column of few distinct values (a sex, a comuna, a status) is judged once per value and slot. */
#define C_RUT_GUION NCLASES /* a RUT with its check digit after a hyphen: not a bare number passing the check */
#define MEMO 2048 /* entries per column and slot, a power of two; once 3/4 full, new values are judged each time */

/* The kinds a summary counts, from the classes and signals. */
enum { K_NOMBRES, K_RUT, K_EMAIL, K_TELEFONO, K_PATENTE, K_TEXTO, K_FECHA, K_COMUNA, K_N };
static const char *const dt__rev_kinds[K_N] = {"names", "RUTs", "emails", "phones", "plates", "text with data", "dates", "comunas"};
static const char *const dt__rev_json[K_N] = {"nombres", "rut", "email", "telefono", "patente", "texto", "fecha", "comuna"};
#define K_PERSONALES 6 /* the first six are personal; dates and comunas are said, not counted against --estricto */

struct dt__revision_tabla {
    char *nombre; /* NULL: enmascarar's one table */
    size_t n, m;  /* input columns, output columns */
    char **col;   /* output column names */
    size_t *de;   /* output column i is input column de[i] */
    unsigned char *mantenida, *fuera; /* output i kept as it was; not written (a generated column) */
    size_t nk, nx;
    size_t *k, *x; /* the kept output columns, the masked ones */
    int sonda_fallida;
    uint64_t filas, revisadas;
    uint64_t *llenos, *iguales; /* per output column: non-empty values checked, written unchanged */
    uint64_t (*clase)[NCLASES + 1], (*senal)[NSENALES]; /* [NCLASES]: RUTs written with a hyphen (C_RUT_GUION) */
};

typedef struct dt__rev_memo {
    uint64_t *h;       /* MEMO hashes, 0 empty */
    unsigned char *kc; /* the class index (NCLASES: none) and the signal bits, per entry */
    size_t usados;
} dt__rev_memo;

struct dt__revision_lote {
    const dt__revision_tabla *t;
    uint64_t filas, revisadas;
    uint64_t *llenos, *iguales;            /* per output column, since the last block was added */
    uint64_t (*clase)[NCLASES + 1], (*senal)[NSENALES]; /* [NCLASES]: RUTs written with a hyphen (C_RUT_GUION) */
    dt__rev_memo *memo;                    /* per output column, kept across the slot's blocks */
    int sin_memoria;
};

struct dt__revision {
    const char *orden; /* "enmascarar", "copiar" */
    int estricto;
    const char *json, *salida;
    dt__revision_tabla **t;
    size_t nt;
    int sin_memoria;
};

int dt__cli_revision_opciones(int *argc, char **argv, const char *orden, dt__revision **out) {
    *out = NULL;
    dt__revision *r = (dt__revision *)calloc(1, sizeof *r);
    if (r == NULL) {
        fprintf(stderr, "datoteca: out of memory\n");
        return 1;
    }
    r->orden = orden;
    int j = 0;
    for (int i = 0; i < *argc; i++) {
        if (i >= 2 && strcmp(argv[i], "--estricto") == 0) {
            r->estricto = 1;
            continue;
        }
        if (i >= 2 && strcmp(argv[i], "--revision-json") == 0) {
            if (i + 1 >= *argc) {
                fprintf(stderr, "datoteca: %s: --revision-json needs a FILE\n", orden);
                free(r);
                return 2;
            }
            r->json = argv[++i];
            continue;
        }
        argv[j++] = argv[i];
    }
    *argc = j;
    *out = r;
    return 0;
}

void dt__cli_revision_salida(dt__revision *r, const char *salida) {
    if (r) r->salida = salida;
}

static void dt__rev_tabla_free(dt__revision_tabla *t) {
    if (t == NULL) return;
    for (size_t i = 0; t->col && i < t->m; i++) free(t->col[i]);
    free(t->nombre), free(t->col), free(t->de), free(t->mantenida), free(t->fuera), free(t->k), free(t->x);
    free(t->llenos), free(t->iguales), free(t->clase), free(t->senal);
    free(t);
}

void dt__cli_revision_free(dt__revision *r) {
    if (r == NULL) return;
    for (size_t i = 0; i < r->nt; i++) dt__rev_tabla_free(r->t[i]);
    free(r->t);
    free(r);
}

static char *dt__rev_dup(const char *s, size_t n) {
    char *d = (char *)malloc(n + 1);
    if (d) memcpy(d, s, n), d[n] = '\0';
    return d;
}

dt__revision_tabla *dt__cli_revision_tabla(dt__revision *r, const char *tabla, dt_mascara_plan *p, size_t n, const size_t *de,
                                           const unsigned char *generada) {
    if (r == NULL) return NULL;
    size_t m = dt_mascara_plan_ncolumnas(p), m1 = m ? m : 1, n1 = n ? n : 1;
    dt__revision_tabla *t = (dt__revision_tabla *)calloc(1, sizeof *t);
    dt__revision_tabla **nuevas = t ? (dt__revision_tabla **)realloc(r->t, (r->nt + 1) * sizeof *r->t) : NULL;
    if (nuevas == NULL) {
        free(t);
        r->sin_memoria = 1;
        return NULL;
    }
    r->t = nuevas;
    r->t[r->nt++] = t;
    t->n = n, t->m = m;
    t->nombre = tabla ? dt__rev_dup(tabla, strlen(tabla)) : NULL;
    t->col = (char **)calloc(m1, sizeof *t->col);
    t->de = (size_t *)calloc(m1, sizeof *t->de);
    t->mantenida = (unsigned char *)calloc(m1, 1);
    t->fuera = (unsigned char *)calloc(m1, 1);
    t->k = (size_t *)calloc(m1, sizeof *t->k);
    t->x = (size_t *)calloc(m1, sizeof *t->x);
    t->llenos = (uint64_t *)calloc(m1, sizeof *t->llenos);
    t->iguales = (uint64_t *)calloc(m1, sizeof *t->iguales);
    t->clase = calloc(m1, sizeof *t->clase);
    t->senal = calloc(m1, sizeof *t->senal);
    const char **vals = (const char **)calloc(n1, sizeof *vals);
    size_t *lens = (size_t *)calloc(n1, sizeof *lens);
    char *sonda = (char *)calloc(n1, 1);
    int ok = (tabla == NULL || t->nombre) && t->col && t->de && t->mantenida && t->fuera && t->k && t->x && t->llenos && t->iguales &&
             t->clase && t->senal && vals && lens && sonda;
    for (size_t i = 0; ok && i < m; i++) {
        size_t l;
        const char *s = dt_mascara_plan_columna(p, i, &l);
        ok = (t->col[i] = dt__rev_dup(s, l)) != NULL;
        t->de[i] = de[i];
        t->fuera[i] = generada && de[i] < n && generada[de[i]];
    }
    /* Which output columns the plan writes as they were: a row of empty values, each at its own address, is
     * masked once; a kept value is handed back at the caller's address (dt_mascara_plan_valor), an emptied
     * or masked one never is. The plan forgets the row at the next one. */
    if (ok) {
        for (size_t j = 0; j < n; j++) vals[j] = sonda + j;
        char why[DT_SENTENCE_MAX];
        dt_status st = dt_mascara_plan_fila(p, 1, n, vals, lens, why, sizeof why);
        if (st == DT_ERR_NO_MEMORY) ok = 0;
        else if (st != DT_OK) t->sonda_fallida = 1;
        for (size_t i = 0; ok && st == DT_OK && i < m; i++) {
            size_t l;
            const char *v = dt_mascara_plan_valor(p, i, &l);
            t->mantenida[i] = de[i] < n && v == vals[de[i]];
        }
        for (size_t i = 0; ok && i < m; i++) {
            if (t->fuera[i]) continue;
            if (t->mantenida[i]) t->k[t->nk++] = i;
            else t->x[t->nx++] = i;
        }
    }
    free(vals), free(lens), free(sonda);
    if (!ok) {
        r->sin_memoria = 1;
        t->nk = t->nx = 0;
    }
    return t;
}

static void dt__rev_lote_vaciar(dt__revision_lote *l) {
    l->filas = l->revisadas = 0;
    size_t m = l->t ? l->t->m : 0;
    if (l->llenos) memset(l->llenos, 0, m * sizeof *l->llenos);
    if (l->iguales) memset(l->iguales, 0, m * sizeof *l->iguales);
    if (l->clase) memset(l->clase, 0, m * sizeof *l->clase);
    if (l->senal) memset(l->senal, 0, m * sizeof *l->senal);
}

void dt__cli_revision_lote_free(dt__revision_lote *l) {
    if (l == NULL) return;
    for (size_t i = 0; l->memo && l->t && i < l->t->m; i++) free(l->memo[i].h), free(l->memo[i].kc);
    free(l->llenos), free(l->iguales), free(l->clase), free(l->senal), free(l->memo);
    free(l);
}

static uint64_t dt__rev_hash(const char *s, size_t n) { /* FNV-1a, then mixed: unkeyed, never 0 */
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h | 1;
}

/* A UUID's canonical text (8-4-4-4-12 hexadecimal digits): a generated identifier. The detector reads one in
 * about 45 as words holding a RUT or a phone (a run of 7 or 8 decimal digits among the hexadecimal ones), so a
 * kept uuid key would look like text with data; it is counted as checked, not judged. */
static int dt__rev_uuid(const char *v, size_t n) {
    if (n != 36) return 0;
    for (size_t i = 0; i < 36; i++) {
        unsigned char c = (unsigned char)v[i];
        int guion = i == 8 || i == 13 || i == 18 || i == 23;
        if (guion ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return 0;
    }
    return 1;
}

/* One non-empty value of output column i, counted by its class and signals (judged by the library's detector
 * functions, dt__detectar and dt__detectar_senales, which dt_detector_fila counts too; or remembered). */
static void dt__rev_contar(dt__revision_lote *l, size_t i, const char *v, size_t n) {
    if (dt__rev_uuid(v, n)) return;
    dt__rev_memo *m = &l->memo[i];
    uint64_t h = dt__rev_hash(v, n);
    size_t p = 0;
    int hallado = 0;
    unsigned clase = 255, senales = 0; /* 255: none */
    if (m->h == NULL && !l->sin_memoria) {
        m->h = (uint64_t *)calloc(MEMO, sizeof *m->h);
        m->kc = (unsigned char *)calloc(MEMO, 2);
        if (m->h == NULL || m->kc == NULL) free(m->h), free(m->kc), m->h = NULL, m->kc = NULL, l->sin_memoria = 1;
    }
    if (m->h) {
        for (p = (size_t)h & (MEMO - 1); m->h[p] != 0 && m->h[p] != h; p = (p + 1) & (MEMO - 1)) {
        }
        if (m->h[p] == h) hallado = 1, clase = m->kc[2 * p], senales = m->kc[2 * p + 1];
    }
    if (!hallado) {
        const char *k = dt__detectar(v, n);
        for (clase = 0; clase < NCLASES && strcmp(k, dt__rev_clases[clase]) != 0; clase++) {
        }
        if (clase == NCLASES) clase = 255;
        senales = dt__detectar_senales(v, n) & 31u;
        if (m->h && m->usados < MEMO / 4 * 3) m->h[p] = h, m->kc[2 * p] = (unsigned char)clase, m->kc[2 * p + 1] = (unsigned char)senales, m->usados++;
    }
    if (clase < NCLASES) l->clase[i][clase]++;
    if (clase == 0 && memchr(v, '-', n) != NULL) l->clase[i][C_RUT_GUION]++;
    for (unsigned q = 0; q < NSENALES; q++) l->senal[i][q] += (senales >> q) & 1u;
}

void dt__cli_revision_fila(dt__revision_lote **pl, const dt__revision_tabla *t, uint64_t fila, const char *const *vals,
                           const size_t *lens, const dt_mascara_plan *p) {
    if (t == NULL || (t->nk == 0 && t->nx == 0)) return;
    dt__revision_lote *l = *pl;
    if (l == NULL || l->t != t) {
        dt__cli_revision_lote_free(l); /* a slot of another table's run: not expected (the copiers' slots are per table) */
        if ((l = *pl = (dt__revision_lote *)calloc(1, sizeof *l)) == NULL) return; /* the block is then not counted */
        l->t = t;
        size_t m1 = t->m ? t->m : 1;
        l->llenos = (uint64_t *)calloc(m1, sizeof *l->llenos);
        l->iguales = (uint64_t *)calloc(m1, sizeof *l->iguales);
        l->clase = calloc(m1, sizeof *l->clase);
        l->senal = calloc(m1, sizeof *l->senal);
        l->memo = (dt__rev_memo *)calloc(m1, sizeof *l->memo);
        if (!l->llenos || !l->iguales || !l->clase || !l->senal || !l->memo) l->sin_memoria = 1;
    }
    l->filas++;
    if (l->sin_memoria || !(fila <= DT__REV_TODAS || fila % DT__REV_CADA == 0)) return;
    l->revisadas++;
    for (size_t q = 0; q < t->nk; q++) {
        size_t i = t->k[q], n;
        const char *v = dt_mascara_plan_valor(p, i, &n);
        if (v == NULL || n == 0) continue;
        l->llenos[i]++;
        dt__rev_contar(l, i, v, n);
    }
    for (size_t q = 0; q < t->nx; q++) {
        size_t i = t->x[q], j = t->de[i], n;
        if (j >= t->n || vals[j] == NULL || lens[j] == 0) continue;
        l->llenos[i]++;
        const char *v = dt_mascara_plan_valor(p, i, &n);
        if (v != NULL && n == lens[j] && (v == vals[j] || memcmp(v, vals[j], n) == 0)) {
            l->iguales[i]++;
            dt__rev_contar(l, i, v, n);
        }
    }
}

void dt__cli_revision_bloque(dt__revision *r, dt__revision_lote *l) {
    if (r == NULL || l == NULL || l->t == NULL) return;
    dt__revision_tabla *t = (dt__revision_tabla *)l->t;
    if (l->sin_memoria) r->sin_memoria = 1;
    t->filas += l->filas;
    t->revisadas += l->revisadas;
    for (size_t i = 0; !l->sin_memoria && i < t->m; i++) {
        t->llenos[i] += l->llenos[i], t->iguales[i] += l->iguales[i];
        for (size_t z = 0; z <= NCLASES; z++) t->clase[i][z] += l->clase[i][z];
        for (size_t z = 0; z < NSENALES; z++) t->senal[i][z] += l->senal[i][z];
    }
    dt__rev_lote_vaciar(l);
}

/* Output column i's counts of each kind (K_*): the detector's classes, and its signals where a value of
 * free text shows the kind among words (the larger of the two: a value counts once). */
static void dt__rev_kinds_de(const dt__revision_tabla *t, size_t i, uint64_t k[K_N]) {
    const uint64_t *c = t->clase[i], *s = t->senal[i];
    /* classes: rut 0, email 1, telefono 2, patente 3, fecha 4, comuna 5, nombre_completo 6, nombre 7, apellido 8, texto 9;
     * signals: names 0, dates 1, digit runs 2, data in text 3, prose 4 */
    uint64_t nombres = c[6] + c[7] + c[8];
    k[K_NOMBRES] = nombres > s[0] ? nombres : s[0];
    k[K_RUT] = c[0], k[K_EMAIL] = c[1], k[K_TELEFONO] = c[2], k[K_PATENTE] = c[3];
    k[K_TEXTO] = c[9] > s[3] ? c[9] : s[3];
    k[K_FECHA] = c[4] > s[1] ? c[4] : s[1];
    k[K_COMUNA] = c[5];
}

/* Whether `cuantos` of a kind among `de` values checked make the column personal: at least DT__REV_MINIMO and
 * 1 % of them, or all of them when fewer were checked. RUTs: those written with a hyphen so; any RUT (a bare
 * number passing the check too, as 1 in 11 numbers do: an integer key) only in more than half the values. */
static int dt__rev_personal(const dt__revision_tabla *t, size_t i, int kind, uint64_t cuantos, uint64_t de) {
    if (kind >= K_PERSONALES || cuantos == 0) return 0;
    if (kind == K_RUT) {
        uint64_t g = t->clase[i][C_RUT_GUION];
        if (g > 0 && (g >= DT__REV_MINIMO ? g * 100 >= de : g == de)) return 1;
        return cuantos >= DT__REV_MINIMO ? cuantos * 2 > de : cuantos == de;
    }
    return cuantos >= DT__REV_MINIMO ? cuantos * 100 >= de : cuantos == de;
}

/* A name in a sentence: control characters as '?' (a name, never a value). */
static void dt__rev_nombre(FILE *f, const char *s) {
    for (; *s; s++) fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
}

static void dt__rev_json_texto(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* Column i of t: what it says (kept, or masked with values unchanged), the counts, and whether it is personal. */
static int dt__rev_columna(const dt__revision_tabla *t, size_t i, uint64_t k[K_N], uint64_t *de) {
    dt__rev_kinds_de(t, i, k);
    *de = t->mantenida[i] ? t->llenos[i] : t->iguales[i];
    int personal = 0; /* kept: among its values; masked: its unchanged values, against all it checked */
    for (int q = 0; q < K_N; q++) personal |= dt__rev_personal(t, i, q, k[q], t->llenos[i]);
    return personal;
}

int dt__cli_revision_fin(dt__revision *r, int rc) {
    if (r == NULL || rc != 0) return rc;
    uint64_t filas = 0, revisadas = 0;
    size_t kept = 0, masked = 0, con_iguales = 0, personales = 0;
    int sonda = 0;
    for (size_t a = 0; a < r->nt; a++) {
        const dt__revision_tabla *t = r->t[a];
        filas += t->filas, revisadas += t->revisadas;
        sonda |= t->sonda_fallida;
        kept += t->nk, masked += t->nx;
        for (size_t q = 0; q < t->nx; q++) con_iguales += t->iguales[t->x[q]] > 0;
        for (size_t i = 0; i < t->m; i++) {
            uint64_t k[K_N], de;
            if (!t->fuera[i] && (t->mantenida[i] || t->iguales[i]) && dt__rev_columna(t, i, k, &de)) personales++;
        }
    }
    int falla = r->estricto && (personales > 0 || r->sin_memoria || sonda);
    /* on stderr when something personal was written as it was, or the review is incomplete, or under
     * --estricto: a line for the run, one per column kept, one per masked column whose unchanged values look
     * personal (a rule's chance repeats, a sex masked to the same sex, are in --revision-json only) */
    if (personales || r->sin_memoria || sonda || r->estricto) {
        fprintf(stderr, "datoteca %s: review of the output: %llu rows, %llu checked (every row up to %llu, then every %lluth); "
                        "%zu column%s kept as %s, %zu masked, %zu of them with values written as they were, %zu column%s personal\n",
                r->orden, (unsigned long long)filas, (unsigned long long)revisadas, DT__REV_TODAS, DT__REV_CADA, kept,
                kept == 1 ? "" : "s", kept == 1 ? "it was" : "they were", masked, con_iguales, personales,
                personales == 1 ? "" : "s");
        for (size_t a = 0; a < r->nt; a++) {
            const dt__revision_tabla *t = r->t[a];
            for (size_t i = 0; i < t->m; i++) {
                if (t->fuera[i] || !(t->mantenida[i] || t->iguales[i])) continue;
                uint64_t k[K_N], de;
                int personal = dt__rev_columna(t, i, k, &de);
                if (!t->mantenida[i] && !personal) continue;
                fputs("  ", stderr);
                if (t->nombre) dt__rev_nombre(stderr, t->nombre), fputc('.', stderr);
                dt__rev_nombre(stderr, t->col[i]);
                if (t->mantenida[i]) fprintf(stderr, ": kept; %llu non-empty values checked", (unsigned long long)t->llenos[i]);
                else
                    fprintf(stderr, ": masked, but %llu of %llu non-empty values checked were written as they were",
                            (unsigned long long)t->iguales[i], (unsigned long long)t->llenos[i]);
                int primero = 1;
                for (int q = 0; q < K_N; q++) {
                    if (k[q] == 0) continue;
                    if (primero)
                        fprintf(stderr, "; %llu of %llu look like %s", (unsigned long long)k[q], (unsigned long long)de, dt__rev_kinds[q]);
                    else fprintf(stderr, ", %llu like %s", (unsigned long long)k[q], dt__rev_kinds[q]);
                    primero = 0;
                }
                if (primero && t->mantenida[i]) fputs("; nothing personal seen", stderr);
                fputs(personal ? " (personal)\n" : "\n", stderr);
            }
        }
        if (sonda) fprintf(stderr, "datoteca %s: review: which columns are kept could not be told for a table\n", r->orden);
        if (r->sin_memoria) fprintf(stderr, "datoteca %s: review: out of memory, the review is incomplete\n", r->orden);
    }
    if (r->json) {
        FILE *f = fopen(r->json, "wb");
        if (f == NULL) {
            fprintf(stderr, "datoteca: %s: --revision-json: cannot write it\n", r->orden);
            if (rc == 0) rc = 1;
        } else {
            fprintf(f, "{\"filas\":%llu,\"revisadas\":%llu,\"todas_hasta\":%llu,\"cada\":%llu,\"completa\":%s,\"personal\":%s,\"columnas\":[",
                    (unsigned long long)filas, (unsigned long long)revisadas, DT__REV_TODAS, DT__REV_CADA,
                    r->sin_memoria || sonda ? "false" : "true", personales ? "true" : "false");
            int coma = 0;
            for (size_t a = 0; a < r->nt; a++) {
                const dt__revision_tabla *t = r->t[a];
                for (size_t i = 0; i < t->m; i++) {
                    if (t->fuera[i]) continue;
                    uint64_t k[K_N], de;
                    int personal = dt__rev_columna(t, i, k, &de);
                    fputs(coma ? ",\n{\"tabla\":" : "\n{\"tabla\":", f);
                    coma = 1;
                    if (t->nombre) dt__rev_json_texto(f, t->nombre);
                    else fputs("null", f);
                    fputs(",\"columna\":", f);
                    dt__rev_json_texto(f, t->col[i]);
                    fprintf(f, ",\"mantenida\":%s,\"llenos\":%llu,\"iguales\":%llu,\"personal\":%s,\"parecen\":{",
                            t->mantenida[i] ? "true" : "false", (unsigned long long)t->llenos[i],
                            (unsigned long long)(t->mantenida[i] ? t->llenos[i] : t->iguales[i]),
                            (t->mantenida[i] || t->iguales[i]) && personal ? "true" : "false");
                    for (int q = 0; q < K_N; q++) fprintf(f, "%s\"%s\":%llu", q ? "," : "", dt__rev_json[q], (unsigned long long)k[q]);
                    fputs("}}", f);
                }
            }
            fputs("\n]}\n", f);
            if (fclose(f) != 0 && rc == 0) {
                fprintf(stderr, "datoteca: %s: --revision-json: cannot write it\n", r->orden);
                rc = 1;
            }
        }
    }
    if (falla) {
        int quitado = r->salida != NULL && remove(r->salida) == 0;
        fprintf(stderr, "datoteca %s: --estricto: %s (exit %d)\n", r->orden,
                r->salida ? (quitado ? "personal data written as it was: the output file was removed"
                                     : "personal data written as it was, and the output file could not be removed")
                : strcmp(r->orden, "copiar") == 0
                    ? "personal data written as it was: the copy is written and stays (the review reports, it does not undo)"
                    : (personales ? "personal data written as it was: the output was written (to stdout)"
                                  : "the review is incomplete"),
                DT__REV_SALIDA);
        return DT__REV_SALIDA;
    }
    return rc;
}
