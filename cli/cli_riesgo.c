/* datoteca riesgo: the re-identification risk left in a masked output (docs/enmascarar.md, "Measuring
 * the risk: datoteca riesgo"). The numbers are the library's (dt_riesgo_*, c/src/mascara/riesgo.c);
 * this file only reads the files, CSV or JSON Lines through the same strict readers as `enmascarar`,
 * and hands the rows over.
 *
 *   datoteca riesgo --entrada enmascarado.csv --qi comuna,sexo,fecha_nacimiento:anio
 *   datoteca riesgo --entrada enmascarado.csv --original original.csv --qi comuna,sexo \
 *                   --enlace fecha_nacimiento,fecha_alta --enlace-modo diferencia --personales rut,email
 *
 * A path is never written in a message (a path can be anything a user typed, a key included): the
 * files are "the masked input given" and "the original given". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_csv.h"
#include "cli_interno.h"
#include "cli_jsonl.h"
#include "datoteca.h"

#define RG_MAX_COLS 64

static int usage_riesgo(FILE *f) {
    fprintf(f,
            "usage: datoteca riesgo [--entrada MASKED] --qi COL[,COL...] [--original ORIGINAL]\n"
            "                       [--enlace COL,COL [--enlace-modo igual|diferencia|razon]]\n"
            "                       [--personales COL[,COL...]] [--tabla NAME] [--formato json|texto]\n"
            "                       [--formato-entrada csv|jsonl]\n"
            "The risk left in a masked CSV or JSON Lines (stdin without --entrada): k-anonymity over the\n"
            "quasi-identifiers --qi; with --original (the file it was masked from, row for row), the share of\n"
            "rows an attacker who knows the original values of the two --enlace columns finds uniquely, and the\n"
            "values of the original's --personales columns found anywhere in the masked file.\n"
            "A column may be generalised before it is compared: COL:anio, COL:mes (dates), COL:N (amounts, to\n"
            "buckets of width N).\n"
            "Output: one JSON object on stdout and a summary on stderr; --formato json only the JSON,\n"
            "--formato texto only the summary (on stdout). Integers only: rates as n, de and por_mil.\n"
            "See docs/enmascarar.md, \"Measuring the risk: datoteca riesgo\".\n");
    return f == stdout ? 0 : 2;
}

static size_t rg_leer(void *ctx, char *buf, size_t cap) {
    FILE *f = (FILE *)ctx;
    size_t n = fread(buf, 1, cap, f);
    if (n == 0 && ferror(f)) return (size_t)-1;
    return n;
}

/* One input table: its reader, its header, the current row as (pointer, length) per column. */
typedef struct {
    const char *que; /* "the masked input given", "the original given" */
    FILE *f;
    int jsonl, abierto;
    dt__csv c;
    dt__jsonl j;
    size_t ncols;
    char **nombres;
    size_t *largos;
    const char **val;
    size_t *vlen;
    uint64_t filas;
} rg_tabla;

static int rg_termina(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static void rg_cerrar(rg_tabla *t) {
    if (t->abierto) {
        if (t->jsonl) dt__jsonl_free(&t->j);
        else dt__csv_free(&t->c);
    }
    if (t->f && t->f != stdin) fclose(t->f);
    for (size_t i = 0; i < t->ncols; i++) free(t->nombres[i]);
    free(t->nombres);
    free(t->largos);
    free(t->val);
    free(t->vlen);
    memset(t, 0, sizeof *t);
}

/* Open `ruta` (NULL: stdin) and read its header: 0, or 2 with the reason said. */
static int rg_abrir(rg_tabla *t, const char *ruta, const char *que, int formato) {
    memset(t, 0, sizeof *t);
    t->que = que;
    t->jsonl = formato == 2 || (formato == 0 && ruta && (rg_termina(ruta, ".jsonl") || rg_termina(ruta, ".ndjson")));
    t->f = ruta ? fopen(ruta, "rb") : stdin;
    if (t->f == NULL) {
        fprintf(stderr, "datoteca: riesgo: cannot open %s: %s\n", que, strerror(errno));
        return 2;
    }
    char why[512];
    int r;
    if (t->jsonl) {
        if (dt__jsonl_init(&t->j, rg_leer, t->f)) goto memoria;
        t->abierto = 1;
        r = dt__jsonl_objeto(&t->j, why, sizeof why);
        if (r <= 0) {
            fprintf(stderr, "datoteca: riesgo: %s: %s\n", que, r == 0 ? "it is empty" : why);
            return 2;
        }
        t->ncols = t->j.nmiembros;
    } else {
        if (dt__csv_init(&t->c, rg_leer, t->f)) goto memoria;
        t->abierto = 1;
        r = dt__csv_registro(&t->c, why, sizeof why);
        if (r <= 0) {
            fprintf(stderr, "datoteca: riesgo: %s: %s\n", que, r == 0 ? "no header: it is empty" : why);
            return 2;
        }
        t->ncols = t->c.ncampos;
    }
    size_t n = t->ncols ? t->ncols : 1;
    t->nombres = (char **)calloc(n, sizeof *t->nombres);
    t->largos = (size_t *)calloc(n, sizeof *t->largos);
    t->val = (const char **)calloc(n, sizeof *t->val);
    t->vlen = (size_t *)calloc(n, sizeof *t->vlen);
    if (!t->nombres || !t->largos || !t->val || !t->vlen) goto memoria;
    for (size_t i = 0; i < t->ncols; i++) {
        size_t l;
        const char *s = t->jsonl ? (l = t->j.m[i].klen, t->j.texto + t->j.m[i].kini) : dt__csv_campo(&t->c, i, &l);
        t->nombres[i] = (char *)malloc(l + 1);
        if (t->nombres[i] == NULL) {
            t->ncols = i;
            goto memoria;
        }
        memcpy(t->nombres[i], s, l);
        t->nombres[i][l] = '\0';
        t->largos[i] = l;
    }
    return 0;
memoria:
    fprintf(stderr, "datoteca: out of memory\n");
    return 2;
}

/* The next row into t->val / t->vlen: 1, 0 at the end, -1 refused (said). The first JSON line is both
 * the header and the first row. */
static int rg_fila(rg_tabla *t) {
    char why[512];
    int r;
    if (t->jsonl) {
        if (t->filas > 0 || t->j.linea_num == 0) {
            r = dt__jsonl_objeto(&t->j, why, sizeof why);
            if (r < 0) {
                fprintf(stderr, "datoteca: riesgo: %s: %s\n", t->que, why);
                return -1;
            }
            if (r == 0) return 0;
        }
        if (t->j.nmiembros != t->ncols) goto claves;
        for (size_t i = 0; i < t->ncols; i++) t->val[i] = NULL;
        for (size_t k = 0; k < t->j.nmiembros; k++) {
            const dt__jsonl_miembro *m = &t->j.m[k];
            const char *key = t->j.texto + m->kini;
            size_t i = k;
            if (!(t->largos[k] == m->klen && memcmp(t->nombres[k], key, m->klen) == 0))
                for (i = 0; i < t->ncols && !(t->largos[i] == m->klen && memcmp(t->nombres[i], key, m->klen) == 0); i++) {}
            if (i == t->ncols || t->val[i] != NULL) goto claves;
            t->val[i] = t->j.texto + m->vini;
            t->vlen[i] = m->vlen; /* null is empty (length 0) */
        }
        t->filas++;
        return 1;
    claves:
        fprintf(stderr, "datoteca: riesgo: %s: line %llu does not have the first line's keys\n", t->que,
                (unsigned long long)t->j.linea_num);
        return -1;
    }
    r = dt__csv_registro(&t->c, why, sizeof why);
    if (r < 0) {
        fprintf(stderr, "datoteca: riesgo: %s: %s\n", t->que, why);
        return -1;
    }
    if (r == 0) return 0;
    if (t->c.ncampos != t->ncols) {
        fprintf(stderr, "datoteca: riesgo: %s: record %llu has %zu fields, the header %zu\n", t->que,
                (unsigned long long)t->c.registros, t->c.ncampos, t->ncols);
        return -1;
    }
    for (size_t i = 0; i < t->ncols; i++) t->val[i] = dt__csv_campo(&t->c, i, &t->vlen[i]);
    t->filas++;
    return 1;
}

static char *rg_copia(const char *s) {
    if (s == NULL) return NULL;
    size_t n = strlen(s) + 1;
    char *c = (char *)malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/* "a,b,c" into up to RG_MAX_COLS pieces, in place: the count, or -1 (said). */
static int rg_lista(char *s, const char **out, const char *opcion) {
    int n = 0;
    for (char *p = s;;) {
        char *coma = strchr(p, ',');
        if (coma) *coma = '\0';
        if (n == RG_MAX_COLS) {
            fprintf(stderr, "datoteca: riesgo: %s takes at most %d columns\n", opcion, RG_MAX_COLS);
            return -1;
        }
        out[n++] = p;
        if (!coma) break;
        p = coma + 1;
    }
    return n;
}

int dt__cli_riesgo_main(int argc, char **argv) {
    const char *entrada = NULL, *original = NULL, *tabla = NULL, *formato = NULL, *modo_txt = NULL, *fent = NULL;
    char *qi_txt = NULL, *enl_txt = NULL, *pers_txt = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return usage_riesgo(stdout);
        static const char *const opciones[] = {"--entrada", "--original", "--qi", "--enlace", "--enlace-modo",
                                               "--personales", "--tabla", "--formato", "--formato-entrada"};
        size_t k = 0;
        while (k < sizeof opciones / sizeof opciones[0] && strcmp(a, opciones[k]) != 0) k++;
        if (k == sizeof opciones / sizeof opciones[0] || i + 1 >= argc) {
            /* by position: an unknown argument may be a path or a key */
            fprintf(stderr, "datoteca: riesgo: argument %d is not an option of riesgo (or lacks its value)\n", i);
            return usage_riesgo(stderr);
        }
        char *v = argv[++i];
        switch (k) {
        case 0: entrada = v; break;
        case 1: original = v; break;
        case 2: qi_txt = v; break;
        case 3: enl_txt = v; break;
        case 4: modo_txt = v; break;
        case 5: pers_txt = v; break;
        case 6: tabla = v; break;
        case 7: formato = v; break;
        default: fent = v; break;
        }
    }
    /* a key where a path, a column list or a name goes, or a file whose text is a key (issue 48): refused
     * naming the option, before anything is opened or a column is looked for by a name a sentence would
     * quote. A path is judged by its last component (a hash-named directory on the way passes). */
    {
        const char *rutas[2] = {entrada, original}, *nr[2] = {"--entrada", "--original"};
        for (int i = 0; i < 2; i++)
            if (rutas[i] != NULL && dt__cli_parece_clave(rutas[i]) && dt__cli_valor_con_clave("riesgo", nr[i], rutas[i]))
                return 2;
        const char *vals[5] = {qi_txt, enl_txt, pers_txt, tabla, modo_txt},
                   *nv[5] = {"--qi", "--enlace", "--personales", "--tabla", "--enlace-modo"};
        for (int i = 0; i < 5; i++)
            if (dt__cli_valor_con_clave("riesgo", nv[i], vals[i])) return 2;
        if (dt__cli_archivo_es_clave(entrada != NULL && strcmp(entrada, "-") == 0 ? NULL : entrada))
            return dt__cli_rehusar_clave("riesgo", entrada ? "--entrada" : "stdin", "a masked table");
        if (original != NULL && dt__cli_archivo_es_clave(original))
            return dt__cli_rehusar_clave("riesgo", "--original", "a table");
    }
    int salida = 0; /* 0 both, 1 json, 2 texto */
    if (formato) {
        if (strcmp(formato, "json") == 0) salida = 1;
        else if (strcmp(formato, "texto") == 0) salida = 2;
        else {
            fprintf(stderr, "datoteca: riesgo: --formato must be json or texto\n");
            return 2;
        }
    }
    int fmt_in = 0;
    if (fent) {
        if (strcmp(fent, "csv") == 0) fmt_in = 1;
        else if (strcmp(fent, "jsonl") == 0) fmt_in = 2;
        else {
            fprintf(stderr, "datoteca: riesgo: --formato-entrada must be csv or jsonl\n");
            return 2;
        }
    }
    int modo = DT_RIESGO_IGUAL;
    if (modo_txt) {
        if (strcmp(modo_txt, "igual") == 0) modo = DT_RIESGO_IGUAL;
        else if (strcmp(modo_txt, "diferencia") == 0) modo = DT_RIESGO_DIFERENCIA;
        else if (strcmp(modo_txt, "razon") == 0) modo = DT_RIESGO_RAZON;
        else {
            fprintf(stderr, "datoteca: riesgo: --enlace-modo must be igual, diferencia or razon\n");
            return 2;
        }
    }
    if (qi_txt == NULL && enl_txt == NULL && pers_txt == NULL) {
        fprintf(stderr, "datoteca: riesgo: nothing to measure: give --qi (and, with --original, --enlace or --personales)\n");
        return usage_riesgo(stderr);
    }
    if ((enl_txt || pers_txt) && original == NULL) {
        fprintf(stderr, "datoteca: riesgo: --enlace and --personales need --original (the file the input was masked from)\n");
        return 2;
    }
    if (original != NULL && strcmp(original, "-") == 0) {
        fprintf(stderr, "datoteca: riesgo: the original is read twice, so it must be a file, not stdin\n");
        return 2;
    }
    /* the lists are cut in copies (argv stays as it was) */
    char *copias[3] = {rg_copia(qi_txt), rg_copia(enl_txt), rg_copia(pers_txt)};
    const char *qi[RG_MAX_COLS], *enl[RG_MAX_COLS], *pers[RG_MAX_COLS];
    int nqi = 0, nenl = 0, npers = 0, rc = 2;
    dt_riesgo *r = NULL;
    rg_tabla m, o, o1;
    memset(&m, 0, sizeof m);
    memset(&o, 0, sizeof o);
    memset(&o1, 0, sizeof o1);
    char why[512];
    char *texto = NULL;
    if ((qi_txt && !copias[0]) || (enl_txt && !copias[1]) || (pers_txt && !copias[2])) goto memoria;
    if ((copias[0] && (nqi = rg_lista(copias[0], qi, "--qi")) < 0) || (copias[1] && (nenl = rg_lista(copias[1], enl, "--enlace")) < 0) ||
        (copias[2] && (npers = rg_lista(copias[2], pers, "--personales")) < 0))
        goto fin;
    if (enl_txt && nenl != 2) {
        fprintf(stderr, "datoteca: riesgo: --enlace takes exactly two columns (COL,COL)\n");
        goto fin;
    }
    dt_status st = dt_riesgo_new((size_t)nqi, qi, (size_t)nenl, enl, modo, (size_t)npers, pers, &r, why, sizeof why);
    if (st == DT_ERR_NO_MEMORY) goto memoria;
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: %s\n", why);
        goto fin;
    }
    if (entrada != NULL && strcmp(entrada, "-") == 0) entrada = NULL;
    if (rg_abrir(&m, entrada, "the masked input given", fmt_in)) goto fin;
    if (original && rg_abrir(&o, original, "the original given", fmt_in)) goto fin;
    st = dt_riesgo_columnas(r, m.ncols, (const char *const *)m.nombres, m.largos, o.ncols,
                            original ? (const char *const *)o.nombres : NULL, original ? o.largos : NULL, why, sizeof why);
    if (st == DT_ERR_NO_MEMORY) goto memoria;
    if (st != DT_OK) {
        fprintf(stderr, "datoteca: %s\n", why);
        goto fin;
    }
    if (original && npers > 0) { /* first pass over the original: the needles */
        if (rg_abrir(&o1, original, "the original given", fmt_in)) goto fin;
        int f;
        while ((f = rg_fila(&o1)) == 1) {
            st = dt_riesgo_original(r, o1.ncols, o1.val, o1.vlen, why, sizeof why);
            if (st == DT_ERR_NO_MEMORY) goto memoria;
            if (st != DT_OK) {
                fprintf(stderr, "datoteca: %s\n", why);
                goto fin;
            }
        }
        if (f < 0) goto fin;
        rg_cerrar(&o1);
    }
    for (;;) {
        int fm = rg_fila(&m);
        if (fm < 0) goto fin;
        int fo = original ? rg_fila(&o) : 0;
        if (fo < 0) goto fin;
        if (original && fm != fo) {
            fprintf(stderr, "datoteca: riesgo: the masked input given has %s rows than the original given: they must be "
                            "the same rows in the same order\n", fm ? "more" : "fewer");
            goto fin;
        }
        if (fm == 0) break;
        st = dt_riesgo_fila(r, m.ncols, m.val, m.vlen, original ? o.ncols : 0, original ? o.val : NULL,
                            original ? o.vlen : NULL, why, sizeof why);
        if (st == DT_ERR_NO_MEMORY) goto memoria;
        if (st != DT_OK) {
            fprintf(stderr, "datoteca: %s\n", why);
            goto fin;
        }
    }
    for (int q = 0; q < 2; q++) {
        int json = q == 0;
        if ((json && salida == 2) || (!json && salida == 1)) continue;
        size_t n = 0;
        dt_status (*informe)(const dt_riesgo *, const char *, char *, size_t, size_t *) =
            json ? dt_riesgo_informe_json : dt_riesgo_informe_texto;
        st = informe(r, tabla, NULL, 0, &n);
        if (st != DT_ERR_BUFFER_TOO_SMALL && st != DT_OK) goto memoria;
        free(texto);
        texto = (char *)malloc(n + 1);
        if (texto == NULL || informe(r, tabla, texto, n + 1, &n) != DT_OK) goto memoria;
        FILE *f = json || salida == 2 ? stdout : stderr;
        if (fwrite(texto, 1, n, f) != n) {
            fprintf(stderr, "datoteca: riesgo: cannot write the report: %s\n", strerror(errno));
            rc = 1;
            goto fin;
        }
    }
    rc = fflush(stdout) == 0 ? 0 : 1;
    if (rc) fprintf(stderr, "datoteca: riesgo: cannot write the report: %s\n", strerror(errno));
    goto fin;
memoria:
    fprintf(stderr, "datoteca: out of memory\n");
    rc = 1;
fin:
    free(texto);
    rg_cerrar(&m);
    rg_cerrar(&o);
    rg_cerrar(&o1);
    dt_riesgo_free(r);
    for (int i = 0; i < 3; i++) free(copias[i]);
    return rc;
}

/* ---- `datoteca enmascarar --riesgo QIS [--riesgo-enlace A,B [--riesgo-enlace-modo M]]` ----
 * The report of the output being written, printed on stderr when the run ends well. The masked values
 * are read back from each block's output bytes (the CSV or JSON Lines rows just written, with the
 * same readers) and the original values from the block's input, row for row, on the main thread. The
 * search for original values needs the whole original before the first masked row, so it is only
 * `datoteca riesgo --personales`. */

struct dt__cli_riesgo_enm {
    char *qi, *enl; /* copies of the lists, cut in place */
    int modo;
    dt_riesgo *r;
    int error;
};

typedef struct {
    const char *p;
    size_t n, pos;
} rg_memoria;

static size_t rg_leer_memoria(void *ctx, char *buf, size_t cap) {
    rg_memoria *m = (rg_memoria *)ctx;
    size_t k = m->n - m->pos < cap ? m->n - m->pos : cap;
    memcpy(buf, m->p + m->pos, k);
    m->pos += k;
    return k;
}

int dt__cli_riesgo_opciones(int *argc, char **argv, dt__cli_riesgo_enm **out) {
    *out = NULL;
    const char *qi = NULL, *enl = NULL, *modo = NULL;
    int j = 2;
    for (int i = 2; i < *argc; i++) {
        const char **d = strcmp(argv[i], "--riesgo") == 0               ? &qi
                         : strcmp(argv[i], "--riesgo-enlace") == 0      ? &enl
                         : strcmp(argv[i], "--riesgo-enlace-modo") == 0 ? &modo
                                                                        : NULL;
        if (d == NULL) {
            argv[j++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc) {
            fprintf(stderr, "datoteca: enmascarar: %s lacks its value\n", argv[i]);
            return 2;
        }
        *d = argv[++i];
    }
    *argc = j;
    /* a value that holds a key is neither used nor quoted (issue 48) */
    if (dt__cli_valor_con_clave("enmascarar", "--riesgo", qi) || dt__cli_valor_con_clave("enmascarar", "--riesgo-enlace", enl) ||
        dt__cli_valor_con_clave("enmascarar", "--riesgo-enlace-modo", modo))
        return 2;
    if (qi == NULL && enl == NULL) {
        if (modo) {
            fprintf(stderr, "datoteca: enmascarar: --riesgo-enlace-modo goes with --riesgo-enlace\n");
            return 2;
        }
        return 0;
    }
    dt__cli_riesgo_enm *q = (dt__cli_riesgo_enm *)calloc(1, sizeof *q);
    if (q == NULL) return 1;
    q->modo = DT_RIESGO_IGUAL;
    if (modo) {
        if (strcmp(modo, "diferencia") == 0) q->modo = DT_RIESGO_DIFERENCIA;
        else if (strcmp(modo, "razon") == 0) q->modo = DT_RIESGO_RAZON;
        else if (strcmp(modo, "igual") != 0) {
            fprintf(stderr, "datoteca: enmascarar: --riesgo-enlace-modo must be igual, diferencia or razon\n");
            free(q);
            return 2;
        }
    }
    q->qi = rg_copia(qi);
    q->enl = rg_copia(enl);
    const char *lq[RG_MAX_COLS], *le[RG_MAX_COLS];
    int nq = 0, ne = 0;
    if ((qi && !q->qi) || (enl && !q->enl)) goto mal;
    if ((q->qi && (nq = rg_lista(q->qi, lq, "--riesgo")) < 0) || (q->enl && (ne = rg_lista(q->enl, le, "--riesgo-enlace")) < 0))
        goto mal;
    if (q->enl && ne != 2) {
        fprintf(stderr, "datoteca: enmascarar: --riesgo-enlace takes exactly two columns (COL,COL)\n");
        goto mal;
    }
    char why[512];
    if (dt_riesgo_new((size_t)nq, lq, (size_t)ne, le, q->modo, 0, NULL, &q->r, why, sizeof why) != DT_OK) {
        fprintf(stderr, "datoteca: enmascarar: %s\n", why);
        goto mal;
    }
    *out = q;
    return 0;
mal:
    dt__cli_riesgo_enm_fin(q, 0);
    return 2;
}

int dt__cli_riesgo_enm_columnas(dt__cli_riesgo_enm *q, const dt_mascara_plan *p, size_t ncols, const char *const *ent,
                                const size_t *lent) {
    char why[512];
    size_t nsal = dt_mascara_plan_ncolumnas(p);
    const char **sal = (const char **)malloc((nsal ? nsal : 1) * sizeof *sal);
    size_t *lsal = (size_t *)malloc((nsal ? nsal : 1) * sizeof *lsal);
    dt_status st = DT_ERR_NO_MEMORY;
    if (sal && lsal) {
        for (size_t j = 0; j < nsal; j++) sal[j] = dt_mascara_plan_columna(p, j, &lsal[j]);
        st = dt_riesgo_columnas(q->r, nsal, sal, lsal, ncols, ent, lent, why, sizeof why);
    }
    free(sal);
    free(lsal);
    if (st == DT_OK) return 0;
    fprintf(stderr, "datoteca: enmascarar: --riesgo: %s\n", st == DT_ERR_NO_MEMORY ? "out of memory" : why);
    return st == DT_ERR_NO_MEMORY ? 1 : 2;
}

int dt__cli_riesgo_enm_bloque(dt__cli_riesgo_enm *q, int jsonl, char separador, const char *salida, size_t n, size_t nfilas,
                              const char *texto, const size_t *vini, const size_t *vlen, size_t ncols) {
    rg_memoria m = {salida, n, 0};
    dt__csv c;
    dt__jsonl j;
    int ok = jsonl ? dt__jsonl_init(&j, rg_leer_memoria, &m) == 0 : dt__csv_init(&c, rg_leer_memoria, &m) == 0;
    if (!jsonl) c.separador = separador; /* the output's, which is the input's (enmascarar --separador) */
    const char **vo = (const char **)malloc((ncols ? ncols : 1) * sizeof *vo);
    size_t *lo = (size_t *)malloc((ncols ? ncols : 1) * sizeof *lo);
    const char **vm = NULL;
    size_t *lm = NULL, nm = 0;
    int rc = ok && vo && lo ? 0 : 1;
    char why[512];
    for (size_t f = 0; f < nfilas && rc == 0; f++) {
        int r = jsonl ? dt__jsonl_objeto(&j, why, sizeof why) : dt__csv_registro(&c, why, sizeof why);
        size_t k = r == 1 ? (jsonl ? j.nmiembros : c.ncampos) : 0;
        if (r != 1) { /* the bytes this program just wrote: a bug, say so */
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: enmascarar: --riesgo: internal error: the output of row %zu of a block does not read back\n", f + 1);
            rc = 2;
            break;
        }
        if (k > nm) {
            free(vm);
            free(lm);
            vm = (const char **)malloc(k * sizeof *vm);
            lm = (size_t *)malloc(k * sizeof *lm);
            nm = k;
            if (vm == NULL || lm == NULL) {
                nm = 0;
                rc = 1;
                break;
            }
        }
        for (size_t i = 0; i < k; i++) {
            if (jsonl) {
                vm[i] = j.texto + j.m[i].vini; /* the plan's column order; null is empty */
                lm[i] = j.m[i].vlen;
            } else {
                vm[i] = dt__csv_campo(&c, i, &lm[i]);
            }
        }
        for (size_t i = 0; i < ncols; i++) {
            vo[i] = texto + vini[f * ncols + i];
            lo[i] = vlen[f * ncols + i];
        }
        dt_status st = dt_riesgo_fila(q->r, k, vm, lm, ncols, vo, lo, why, sizeof why);
        if (st != DT_OK) {
            dt__cli_progreso_cortar();
            fprintf(stderr, "datoteca: enmascarar: --riesgo: %s\n", st == DT_ERR_NO_MEMORY ? "out of memory" : why);
            rc = st == DT_ERR_NO_MEMORY ? 1 : 2;
        }
    }
    if (rc == 1 && !ok) fprintf(stderr, "datoteca: out of memory\n");
    if (jsonl) dt__jsonl_free(&j);
    else dt__csv_free(&c);
    free(vo);
    free(lo);
    free(vm);
    free(lm);
    if (rc) q->error = 1;
    return rc;
}

void dt__cli_riesgo_enm_fin(dt__cli_riesgo_enm *q, int imprimir) {
    if (q == NULL) return;
    if (imprimir && !q->error) {
        size_t n = 0;
        dt_riesgo_informe_texto(q->r, "salida", NULL, 0, &n);
        char *t = (char *)malloc(n + 1);
        if (t && dt_riesgo_informe_texto(q->r, "salida", t, n + 1, &n) == DT_OK) fwrite(t, 1, n, stderr);
        else fprintf(stderr, "datoteca: enmascarar: --riesgo: out of memory\n");
        free(t);
    }
    dt_riesgo_free(q->r);
    free(q->qi);
    free(q->enl);
    free(q);
}
