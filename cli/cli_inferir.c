/* datoteca inferir URL: reads a live database's catalog through a connector (cli/conectar.h) and writes
 * a schema document (docs/esquemas.md) that fills exactly that database (docs/inferir.md):
 *
 *   datoteca inferir sqlite:///srv/app.db > app.toml
 *   datoteca inferir postgresql://yo@localhost/app --escala 1/10 --salida app.toml
 *
 * Each column gets a call chosen from its type, its name, its CHECK and enum values and, where the
 * table has rows, the library's detector (dt_detector_*) over a sample of them; a TOML comment after
 * it says why. Sampled values decide only counts and ranges: no value of the database is ever written
 * into the document. What the document cannot say is listed in its head and on stderr. The document
 * is built with dt_esquema_new before it is written, so what inferir prints the library accepts.
 *
 * This file knows no database: the connectors link their client libraries and live in the datoteca
 * program only, which sets dt__cli_conectar_* before dt_cli_main (main.c). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_inferir.h"
#include "cli_interno.h"

/* ---- text assembled in memory ---- */

typedef struct txt {
    char *p;
    size_t n, cap;
} txt;

static void tx(txt *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void tx(txt *t, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) return;
        if (t->p && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = (t->cap ? t->cap * 2 : 256) + (size_t)k;
        char *q = (char *)realloc(t->p, cap);
        if (q == NULL) {
            fputs("datoteca inferir: out of memory\n", stderr);
            exit(1);
        }
        t->p = q, t->cap = cap;
    }
}

/* A TOML basic string's body: quotes, backslashes and control characters escaped. */
static void tx_cadena(txt *t, const char *s) {
    tx(t, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') tx(t, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) tx(t, "\\u%04x", *p);
        else tx(t, "%c", *p);
    }
    tx(t, "\"");
}

/* A key, bare when TOML takes it bare. */
static void tx_clave(txt *t, const char *s) {
    const char *p = s;
    for (; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-') || (unsigned char)*p >= 0x80) break;
    if (*p == '\0' && *s) tx(t, "%s", s);
    else tx_cadena(t, s);
}

/* A comment's text: one line, no control characters. */
static void tx_comentario(txt *t, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) tx(t, "%c", *p < 0x20 || *p == 0x7f ? ' ' : *p);
}

/* ---- names ---- */

/* A name the schema language takes: letters of any alphabet, digits and _, not starting with a digit,
 * at most 63 bytes (docs/esquemas.md). */
static int nombre_valido(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > 63 || isdigit((unsigned char)s[0])) return 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!(isalnum(*p) || *p == '_' || *p >= 0x80)) return 0;
    return 1;
}

static int contiene(const char *s, const char *sub) {
    size_t m = strlen(sub);
    for (; *s; s++) {
        size_t i = 0;
        while (i < m && s[i] && tolower((unsigned char)s[i]) == sub[i]) i++;
        if (i == m) return 1;
    }
    return 0;
}

/* ---- what a column becomes ---- */

enum { K_NADA, K_SERIE, K_LLAMADA, K_ELEGIR, K_REF, K_POSICION, K_OMITIR };

/* The kinds of values inferir knows a call for: from the detector's proposal or the column's name. */
enum { D_NINGUNO, D_RUT, D_EMAIL, D_TELEFONO, D_NOMBRE_COMPLETO, D_NOMBRES, D_APELLIDO, D_COMUNA, D_REGION,
       D_DIRECCION, D_CALLE, D_FECHA_NAC, D_FECHA, D_PATENTE, D_RAZON_SOCIAL, D_EMPRESA, D_GIRO, D_BANCO, D_SEXO,
       D_MONTO, D_AFP, D_SALUD, D_CUENTA, D_N };

/* The call for each kind: a record's field (campo) or a plain call (campo NULL, its field is the
 * call's last part); `valor` what it gives: 'T' text, 'D' a date, 'I' an integer. */
static const struct {
    const char *llamada, *campo, *que;
    char valor;
} LLAMADAS[D_N] = {
    [D_RUT] = {"persona.persona", "rut", "a RUT", 'T'},
    [D_EMAIL] = {"persona.persona", "email", "an email", 'T'},
    [D_TELEFONO] = {"persona.persona", "telefono", "a phone", 'T'},
    [D_NOMBRE_COMPLETO] = {"persona.nombre_completo", NULL, "a full name", 'T'},
    [D_NOMBRES] = {"persona.nombres", NULL, "given names", 'T'},
    [D_APELLIDO] = {"persona.apellido", NULL, "a surname", 'T'},
    [D_COMUNA] = {"direccion.comuna", NULL, "a comuna", 'T'},
    [D_REGION] = {"direccion.region", NULL, "a region", 'T'},
    [D_DIRECCION] = {"direccion.direccion", "linea", "an address", 'T'},
    [D_CALLE] = {"direccion.calle", NULL, "a street", 'T'},
    [D_FECHA_NAC] = {"persona.fecha_nacimiento", NULL, "a birth date", 'D'},
    [D_FECHA] = {"fecha.fecha", NULL, "a date", 'D'},
    [D_PATENTE] = {"vehiculo.patente", NULL, "a licence plate", 'T'},
    [D_RAZON_SOCIAL] = {"empresa.razon_social", NULL, "a company's legal name", 'T'},
    [D_EMPRESA] = {"empresa.nombre", NULL, "a company's name", 'T'},
    [D_GIRO] = {"empresa.giro", NULL, "a line of business", 'T'},
    [D_BANCO] = {"banco.banco", "nombre", "a bank", 'T'},
    [D_SEXO] = {"persona.sexo", NULL, "a sex", 'T'},
    [D_MONTO] = {"dinero.monto", NULL, "an amount", 'I'},
    [D_AFP] = {"prevision.afp", NULL, "an AFP", 'T'},
    [D_SALUD] = {"prevision.salud", NULL, "a health insurer", 'T'},
    [D_CUENTA] = {"banco.numero_cuenta", NULL, "an account number", 'T'},
};

/* The kind a column's name says (ASCII, any case), or D_NINGUNO. Order matters: fecha_nacimiento
 * before fecha, razon_social before nombre. */
static int por_nombre(const char *n) {
    static const struct {
        const char *sub;
        int d;
    } R[] = {{"rut", D_RUT}, {"email", D_EMAIL}, {"correo", D_EMAIL}, {"mail", D_EMAIL}, {"telefono", D_TELEFONO},
             {"fono", D_TELEFONO}, {"celular", D_TELEFONO}, {"movil", D_TELEFONO}, {"nacimiento", D_FECHA_NAC},
             {"fecha_nac", D_FECHA_NAC}, {"razon_social", D_RAZON_SOCIAL}, {"nombre_fantasia", D_EMPRESA},
             {"empresa", D_EMPRESA}, {"apellido", D_APELLIDO}, {"nombres", D_NOMBRES}, {"nombre", D_NOMBRE_COMPLETO},
             {"comuna", D_COMUNA}, {"region", D_REGION}, {"direccion", D_DIRECCION}, {"domicilio", D_DIRECCION},
             {"calle", D_CALLE}, {"patente", D_PATENTE}, {"giro", D_GIRO}, {"banco", D_BANCO}, {"sexo", D_SEXO},
             {"genero", D_SEXO}, {"afp", D_AFP}, {"isapre", D_SALUD}, {"salud", D_SALUD}, {"numero_cuenta", D_CUENTA},
             {"monto", D_MONTO}, {"saldo", D_MONTO}, {"precio", D_MONTO}, {"total", D_MONTO}, {"sueldo", D_MONTO},
             {"importe", D_MONTO}, {"valor", D_MONTO}, {"pago", D_MONTO}, {"deuda", D_MONTO}, {"cupo", D_MONTO},
             {"fecha", D_FECHA}};
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++)
        if (contiene(n, R[i].sub)) return R[i].d;
    return D_NINGUNO;
}

typedef struct dcol {
    int kind;
    int unico;       /* UNIQUE or the primary key on this column alone */
    int en_clave;    /* part of a composite key inferir could not keep unique */
    int referible;   /* a ref may point at it: a serie or a call's unico column */
    int detectado;   /* the detector's kind, D_* */
    char *cuentas;   /* the detector's counts for the comment */
    char rechazo[160]; /* why the library refused the call inferir tried first (unique), for the comment */
    txt valor, porque;
    /* the sample */
    size_t nulos, llenos, enteros, fechas;
    int64_t emin, emax, fmin, fmax; /* integers; dates as days from 2026-01-01 */
} dcol;

typedef struct dtab {
    dcol *c;
    dt__inf_check *chk;
    char *clave;      /* the table's name in the document */
    long por;         /* a fan-out's parent table, or -1 */
    long cmin, cmax;
    txt pesos;        /* a fan-out's observed distribution: ", distribucion = \"pesos\", pesos = [...]" */
    uint64_t filas;
    txt porque;
    int fuera;        /* not in the document */
} dtab;

typedef struct inferir {
    dt__ic_modelo *m;
    dtab *t;
    uint64_t esc_num, esc_den, vacia;
    int sin_abanico; /* --sin-abanico: live counts and uniform refs, no observed fan-outs */
    struct { char *valor; long max; } *largos; /* largo_max's answers so far */
    size_t nlargos;
    txt notas, secuencias;
    size_t nnotas;
} inferir;

static void nota(inferir *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void nota(inferir *x, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    tx(&x->notas, "#   - ");
    tx_comentario(&x->notas, buf);
    tx(&x->notas, "\n");
    fprintf(stderr, "datoteca inferir: not expressed: %s\n", buf);
    x->nnotas++;
}

/* ---- dates as days from the documents' default hoy, 2026-01-01 (integers only) ---- */

static int64_t dias_civiles(int64_t y, int64_t m, int64_t d) { /* days since 1970-01-01 (H. Hinnant) */
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int fecha_de(const char *s, int64_t *dias) {
    if (strlen(s) < 10 || s[4] != '-' || s[7] != '-') return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i])) return 0;
    if (s[10] && s[10] != ' ' && s[10] != 'T') return 0;
    int64_t y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    if (m < 1 || m > 12 || d < 1 || d > 31) return 0;
    *dias = dias_civiles(y, m, d) - dias_civiles(2026, 1, 1);
    return 1;
}

static int entero_de(const char *s, int64_t *v) {
    const char *p = s + (*s == '-');
    if (!*p || strlen(p) > 18) return 0;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q)) return 0;
    *v = strtoll(s, NULL, 10);
    return 1;
}

/* ---- the detector over a table's sample ---- */

static int detector_clase(const char *regla, const char *campo, const char *llamada) {
    if (strcmp(regla, "rut") == 0) return D_RUT;
    if (strcmp(regla, "email") == 0) return D_EMAIL;
    if (strcmp(regla, "telefono") == 0) return D_TELEFONO;
    if (strcmp(regla, "patente") == 0) return D_PATENTE;
    if (strcmp(regla, "fecha") == 0) return D_FECHA;
    const char *k = campo[0] ? campo : llamada;
    if (contiene(k, "email")) return D_EMAIL;
    if (contiene(k, "telefono")) return D_TELEFONO;
    if (contiene(k, "nombre_completo")) return D_NOMBRE_COMPLETO;
    if (contiene(k, "nombres")) return D_NOMBRES;
    if (contiene(k, "apellido")) return D_APELLIDO;
    if (contiene(k, "comuna")) return D_COMUNA;
    if (contiene(k, "fecha_nacimiento")) return D_FECHA_NAC;
    return D_NINGUNO;
}

/* The value of key `k` in an inline table line (`k = "v"`), into out ("" when absent). */
static void valor_de(const char *linea, const char *fin, const char *k, char *out, size_t cap) {
    out[0] = '\0';
    size_t kl = strlen(k);
    for (const char *p = linea; p + kl + 4 < fin; p++)
        if ((p[-1] == ' ' || p[-1] == '{') && strncmp(p, k, kl) == 0 && strncmp(p + kl, " = \"", 4) == 0) {
            const char *v = p + kl + 4, *q = v;
            while (q < fin && *q != '"') q++;
            size_t n = (size_t)(q - v) < cap - 1 ? (size_t)(q - v) : cap - 1;
            memcpy(out, v, n);
            out[n] = '\0';
            return;
        }
}

static void detectar(dt__ic_tabla *t, dtab *d) {
    if (t->nmuestra == 0 || t->ncols == 0) return;
    const char **nombres = (const char **)malloc(t->ncols * sizeof *nombres);
    size_t *largos = (size_t *)malloc(t->ncols * sizeof *largos);
    dt_detector *det = NULL;
    char *buf = NULL;
    if (nombres == NULL || largos == NULL) goto fin;
    for (size_t j = 0; j < t->ncols; j++) nombres[j] = t->cols[j].nombre, largos[j] = strlen(t->cols[j].nombre);
    if (dt_detector_new(t->ncols, nombres, largos, &det) != DT_OK) goto fin; /* names that look like values */
    for (size_t r = 0; r < t->nmuestra; r++) {
        char **fila = t->muestra + r * t->ncols;
        for (size_t j = 0; j < t->ncols; j++) largos[j] = fila[j] ? strlen(fila[j]) : 0;
        dt_detector_fila(det, t->ncols, (const char *const *)fila, largos);
    }
    size_t len = 0;
    if (dt_detector_reglas(det, NULL, NULL, 0, &len) != DT_ERR_BUFFER_TOO_SMALL) goto fin;
    buf = (char *)malloc(len + 1);
    if (buf == NULL || dt_detector_reglas(det, NULL, buf, len + 1, &len) != DT_OK) goto fin;
    /* one line per column after [columnas], in the columns' order */
    const char *p = strstr(buf, "\n[columnas]\n");
    size_t j = 0;
    for (p = p ? strchr(p + 1, '\n') + 1 : NULL; p && *p && j < t->ncols; j++) {
        const char *fin = strchr(p, '\n');
        if (fin == NULL) fin = p + strlen(p);
        char regla[64], campo[64], llamada[64];
        valor_de(p, fin, "regla", regla, sizeof regla);
        valor_de(p, fin, "campo", campo, sizeof campo);
        valor_de(p, fin, "llamada", llamada, sizeof llamada);
        d->c[j].detectado = detector_clase(regla, campo, llamada);
        const char *hash = strstr(p, "  # ");
        if (hash && hash < fin) d->c[j].cuentas = dt__ic_dupn(hash + 4, (size_t)(fin - hash - 4));
        p = *fin ? fin + 1 : fin;
    }
fin:
    free(buf);
    dt_detector_free(det);
    free(nombres);
    free(largos);
}

/* Counts and ranges of each column's sample (nulls, integers, dates): numbers only, never a value. */
static void estadisticas(const dt__ic_tabla *t, dtab *d) {
    for (size_t r = 0; r < t->nmuestra; r++)
        for (size_t j = 0; j < t->ncols; j++) {
            const char *v = t->muestra[r * t->ncols + j];
            dcol *c = &d->c[j];
            if (v == NULL) {
                c->nulos++;
                continue;
            }
            c->llenos++;
            int64_t x;
            if (entero_de(v, &x)) {
                if (c->enteros == 0 || x < c->emin) c->emin = x;
                if (c->enteros == 0 || x > c->emax) c->emax = x;
                c->enteros++;
            }
            if (fecha_de(v, &x)) {
                if (c->fechas == 0 || x < c->fmin) c->fmin = x;
                if (c->fechas == 0 || x > c->fmax) c->fmax = x;
                c->fechas++;
            }
        }
}

/* ---- types ---- */

/* The whitelisted type (docs/esquemas.md, tipo_sql) that is the column's own, or "" when it has none. */
static void tipo_sql(const dt__ic_col *c, char *out, size_t cap) {
    out[0] = '\0';
    switch (c->clase) {
    case DT__IC_ENTERO: /* MariaDB's tinyint (8) and mediumint (24) as the whitelist's next wider type */
        snprintf(out, cap, "%s", c->bits == 8 || c->bits == 16 ? "smallint" : c->bits == 24 || c->bits == 32 ? "integer" : "bigint");
        break;
    case DT__IC_NUMERICO:
        if (c->precision > 0 && c->precision <= 1000 && c->escala <= c->precision)
            snprintf(out, cap, c->escala ? "numeric(%d,%d)" : "numeric(%d)", c->precision, c->escala);
        else snprintf(out, cap, "numeric");
        break;
    case DT__IC_TEXTO:
        if (c->largo > 0 && c->largo <= 10485760) snprintf(out, cap, "%s(%ld)", c->es_char ? "char" : "varchar", c->largo);
        else snprintf(out, cap, "text");
        break;
    case DT__IC_FECHA: snprintf(out, cap, "date"); break;
    case DT__IC_TIMESTAMP: snprintf(out, cap, "timestamp"); break;
    case DT__IC_TIMESTAMPTZ: snprintf(out, cap, "timestamptz"); break;
    default: break;
    }
}

/* Whether a call's values ('T', 'D', 'I', 'S' a serie or posicion, 'E' elegir) may go into the column,
 * both for the database and for tipo_sql's rule. */
static int cabe(const dt__ic_col *c, char valor) {
    switch (valor) {
    case 'T': return c->clase == DT__IC_TEXTO;
    case 'D': return c->clase == DT__IC_FECHA || c->clase == DT__IC_TIMESTAMP || c->clase == DT__IC_TIMESTAMPTZ || c->clase == DT__IC_TEXTO;
    case 'I':
    case 'S': return c->clase == DT__IC_ENTERO || c->clase == DT__IC_NUMERICO || (valor == 'S' && c->clase == DT__IC_TEXTO);
    default: return 1;
    }
}

static void tx_tipo(txt *v, const dt__ic_col *c, char valor) {
    char ts[64];
    tipo_sql(c, ts, sizeof ts);
    if (ts[0] && (valor == 'E' ? c->clase == DT__IC_TEXTO : cabe(c, valor))) tx(v, ", tipo_sql = \"%s\"", ts);
}

/* The largest integer the column holds, for dinero.monto's max (at most 999,999,999,999,999). */
static int64_t tope(const dt__ic_col *c) {
    int64_t t = 999999999999999LL;
    if (c->clase == DT__IC_ENTERO && c->bits == 8) t = 127;
    else if (c->clase == DT__IC_ENTERO && c->bits == 16) t = 32767;
    else if (c->clase == DT__IC_ENTERO && c->bits == 24) t = 8388607;
    else if (c->clase == DT__IC_ENTERO && c->bits == 32) t = 2147483647;
    else if (c->clase == DT__IC_NUMERICO && c->precision > 0 && c->precision - c->escala < 15) {
        t = 1;
        for (int i = 0; i < c->precision - c->escala; i++) t *= 10;
        t -= 1;
    }
    return t;
}

static void tx_nulos(txt *v, const dt__ic_col *col, const dcol *c, const char *campo) {
    if (!col->nulable || c->nulos == 0) return;
    uint64_t pm = (uint64_t)c->nulos * 1000 / (c->nulos + c->llenos);
    if (pm == 0) pm = 1;
    tx(v, ", nulos = { %s = %llu }", campo, (unsigned long long)pm);
}

/* Whether the library takes `valor` as a column of a table of `filas` rows (a unique call's capacity, a
 * parameter's range): the library is the judge of what a call can do, so inferir keeps no copy of it. */
static int prueba(const char *valor, uint64_t filas, char *why, size_t whycap) {
    txt d = {0};
    tx(&d, "version = 1\n[tablas.t]\nfilas = %llu\n[tablas.t.columnas]\nc = %s\n", (unsigned long long)(filas ? filas : 1), valor);
    dt_esquema *e = NULL;
    int ok = dt_esquema_new(d.p, d.n, DT_ESQUEMA_TOML, "<prueba>", 0, 0, 0, 0, &e, why, whycap) == DT_OK;
    dt_esquema_free(e);
    free(d.p);
    return ok;
}

/* The longest value, in characters, of the first rows (at most 2,000) the library makes for a column
 * `valor`, or -1 when it cannot say. A varchar(n) or char(n) column refuses longer text, so a call whose
 * values outgrow it is not chosen. A bound seen over 2,000 rows, not a proof: the comment says so. */
static long largo_max_hecho(const char *valor);

/* largo_max, remembered per column text: 500 tables with the same RUT column make their values once. */
static long largo_max(inferir *x, const char *valor) {
    for (size_t i = 0; i < x->nlargos; i++)
        if (strcmp(x->largos[i].valor, valor) == 0) return x->largos[i].max;
    long max = largo_max_hecho(valor);
    void *q = realloc(x->largos, (x->nlargos + 1) * sizeof *x->largos);
    char *v = dt__ic_dup(valor);
    if (q == NULL || v == NULL) {
        fputs("datoteca inferir: out of memory\n", stderr);
        exit(1);
    }
    x->largos = q;
    x->largos[x->nlargos].valor = v, x->largos[x->nlargos].max = max;
    x->nlargos++;
    return max;
}

static long largo_max_hecho(const char *valor) {
    txt d = {0};
    tx(&d, "version = 1\n[tablas.t]\nfilas = 2000\n[tablas.t.columnas]\nc = %s\n", valor);
    dt_esquema *e = NULL;
    long max = -1;
    if (dt_esquema_new(d.p, d.n, DT_ESQUEMA_TOML, "<prueba>", 0, 0, 0, 0, &e, NULL, 0) == DT_OK) {
        size_t cap = 0, len = 0;
        dt_esquema_filas(e, 0, 0, 2000, NULL, 0, &cap);
        char *buf = cap ? (char *)malloc(cap) : NULL;
        if (buf && dt_esquema_filas(e, 0, 0, 2000, buf, cap, &len) == DT_OK) {
            long n = 0;
            max = 0;
            for (size_t i = 0; i < len; i++) {
                unsigned char b = (unsigned char)buf[i];
                if (b == '\n') {
                    if (n > max) max = n;
                    n = 0;
                } else if ((b & 0xC0) != 0x80 && b != (unsigned char)DT_NULO)
                    n++;
            }
        }
        free(buf);
    }
    dt_esquema_free(e);
    free(d.p);
    return max;
}

/* A call for kind d into column j; 0 when it does not fit the column's type, its values outgrow the
 * column's length, or (unique) the library cannot make its values unique for the table's rows. */
static int llamada(inferir *x, const dt__ic_tabla *t, size_t j, int d, const char *porque) {
    const dt__ic_col *col = &t->cols[j];
    dcol *c = &x->t[t - x->m->tablas].c[j];
    const char *llam = LLAMADAS[d].llamada, *campo = LLAMADAS[d].campo;
    if (!cabe(col, LLAMADAS[d].valor)) return 0;
    const char *f = campo ? campo : strrchr(llam, '.') ? strrchr(llam, '.') + 1 : llam;
    c->kind = K_LLAMADA;
    tx(&c->valor, "{ llamada = \"%s\"", llam);
    if (campo) {
        tx(&c->valor, ", campos = { %s = ", campo);
        tx_cadena(&c->valor, col->nombre);
        tx(&c->valor, " }");
    }
    if (d == D_MONTO) {
        const dt__inf_check *k = &x->t[t - x->m->tablas].chk[j];
        int64_t lo = 0, hi = tope(col);
        if (k->con_min && k->min > lo) lo = k->min;
        if (k->con_max && k->max < hi) hi = k->max;
        if (hi < lo) {
            nota(x, "%s.%s: its CHECK allows no integer from 0 to %lld; it gets 0", t->nombre, col->nombre, (long long)hi);
            hi = lo = 0;
        }
        int64_t a = c->enteros ? (c->emin > lo ? c->emin : lo) : (1000 > lo ? 1000 : lo);
        int64_t b = c->enteros ? (c->emax < hi ? c->emax : hi) : (1000000 < hi ? 1000000 : hi);
        const char *de = c->enteros ? "the sample's range" : "the default range";
        if (a > b) a = lo, b = hi, de = "the type's and CHECK's range";
        tx(&c->valor, ", min = %lld, max = %lld", (long long)a, (long long)b);
        tx(&c->porque, "%s; %s %lld..%lld%s", porque, de, (long long)a, (long long)b,
           k->con_min || k->con_max ? " within its CHECK" : "");
    } else if (d == D_FECHA && c->fechas) {
        int64_t a = c->fmin < -36500 ? -36500 : c->fmin, b = c->fmax > 36500 ? 36500 : c->fmax;
        if (a > 36500) a = 36500;
        if (b < -36500) b = -36500;
        tx(&c->valor, ", desde = %lld, hasta = %lld", (long long)a, (long long)b);
        tx(&c->porque, "%s; the sample's dates (days %lld..%lld from 2026-01-01)", porque, (long long)a, (long long)b);
    } else
        tx(&c->porque, "%s", porque);
    if (c->unico) tx(&c->valor, ", unico = true"); /* a unique field cannot also have nulls: always filled */
    else tx_nulos(&c->valor, col, c, f);
    tx_tipo(&c->valor, col, LLAMADAS[d].valor);
    tx(&c->valor, " }");
    char why[DT_SENTENCE_MAX];
    /* a unique call the library refuses first, so the comment quotes its reason (its values would not
     * be measured either) */
    if (c->unico && !prueba(c->valor.p, x->t[t - x->m->tablas].filas, why, sizeof why)) {
        const char *w = strstr(why, llam);
        snprintf(c->rechazo, sizeof c->rechazo, "%.150s", w ? w : why);
        c->kind = K_NADA, c->valor.n = 0, c->porque.n = 0;
        c->valor.p[0] = '\0';
        if (c->porque.p) c->porque.p[0] = '\0';
        return 0;
    }
    if (col->clase == DT__IC_TEXTO && col->largo > 0 && LLAMADAS[d].valor != 'I') {
        long l = largo_max(x, c->valor.p);
        if (l < 0 || l > col->largo) {
            if (l < 0)
                snprintf(c->rechazo, sizeof c->rechazo, "%s: the library made no 2,000 rows of it to measure against %s", llam, col->tipo);
            else
                snprintf(c->rechazo, sizeof c->rechazo, "%s gives values of up to %ld characters, more than %s holds", llam, l, col->tipo);
            c->kind = K_NADA, c->valor.n = 0, c->porque.n = 0;
            c->valor.p[0] = '\0';
            if (c->porque.p) c->porque.p[0] = '\0';
            return 0;
        }
        tx(&c->porque, "; its values fit %s (at most %ld characters in 2,000 rows)", col->tipo, l);
    }
    c->referible = c->unico;
    return 1;
}

static char *NEUTRAS_LARGAS[] = {"valor_1", "valor_2", "valor_3"}, *NEUTRAS_CORTAS[] = {"a", "b", "c"};

static void elegir(inferir *x, const dt__ic_tabla *t, size_t j, char **vals, size_t n, const char *porque) {
    const dt__ic_col *col = &t->cols[j];
    dcol *c = &x->t[t - x->m->tablas].c[j];
    c->kind = K_ELEGIR;
    tx(&c->valor, "{ elegir = { ");
    for (size_t i = 0; i < n; i++) {
        size_t w = 1;
        for (size_t r = 0; r < t->nmuestra; r++) {
            const char *v = t->muestra[r * t->ncols + j];
            if (v && strcmp(v, vals[i]) == 0) w++;
        }
        tx(&c->valor, "%s", i ? ", " : "");
        tx_cadena(&c->valor, vals[i]);
        tx(&c->valor, " = %zu", w);
    }
    tx(&c->valor, " }");
    tx_tipo(&c->valor, col, 'E');
    tx(&c->valor, " }");
    tx(&c->porque, "%s", porque);
    if (t->nmuestra && vals != NEUTRAS_LARGAS && vals != NEUTRAS_CORTAS)
        tx(&c->porque, "; weights: 1 + each value's count in %zu sampled rows", t->nmuestra);
    if (col->nulable) tx(&c->porque, "; nullable, but elegir draws no nulls");
}

static void serie(inferir *x, const dt__ic_tabla *t, size_t j, const char *porque) {
    dcol *c = &x->t[t - x->m->tablas].c[j];
    const dt__ic_col *col = &t->cols[j];
    if (col->clase == DT__IC_TEXTO && col->largo > 0) {
        long digitos = 1;
        for (uint64_t n = x->t[t - x->m->tablas].filas; n >= 10; n /= 10) digitos++;
        dtab *d = &x->t[t - x->m->tablas];
        if (digitos > col->largo && d->por < 0 && col->largo <= 18) {
            /* a serie is 1, 2, 3, ...: the table holds no more rows than the column has numbers */
            uint64_t cabe = 1;
            for (long k = 0; k < col->largo; k++) cabe *= 10;
            d->filas = cabe - 1;
            tx(&d->porque, "; at most %llu: %s is a serie of at most %ld digits (%s)", (unsigned long long)d->filas,
               col->nombre, col->largo, col->tipo);
            nota(x, "%s: %llu rows, not more: the serie in %s holds no more in %s", t->nombre,
                 (unsigned long long)d->filas, col->nombre, col->tipo);
        } else if (digitos > col->largo)
            nota(x, "%s.%s: a serie of %ld digits does not fit %s", t->nombre, col->nombre, digitos, col->tipo);
    }
    c->kind = K_SERIE;
    c->referible = 1;
    tx(&c->valor, "{ serie = true");
    tx_tipo(&c->valor, &t->cols[j], 'S');
    tx(&c->valor, " }");
    tx(&c->porque, "%s", porque);
}

/* A uuid key: the library's serie = "uuid", whose values a ref can follow (the column's own type,
 * uuid, is the serie's). */
static void serie_uuid(inferir *x, const dt__ic_tabla *t, size_t j, const char *porque) {
    dcol *c = &x->t[t - x->m->tablas].c[j];
    c->kind = K_SERIE;
    c->referible = 1;
    tx(&c->valor, "{ serie = \"uuid\" }");
    tx(&c->porque, "%s: a serie of UUIDs", porque);
}

/* Always null: a nullable column inferir cannot fill otherwise. Any call will do, as a null cell
 * loads into any type. */
static void siempre_nulo(inferir *x, const dt__ic_tabla *t, size_t j, const char *porque) {
    dcol *c = &x->t[t - x->m->tablas].c[j];
    c->kind = K_LLAMADA;
    tx(&c->valor, "{ llamada = \"dinero.monto\", min = 0, max = 0, nulos = { monto = 1000 } }");
    tx(&c->porque, "always null: %s", porque);
}

/* The neutral value of a column no call fits: typed, and said so. */
static void neutral(inferir *x, const dt__ic_tabla *t, size_t j, const char *porque_) {
    const dt__ic_col *col = &t->cols[j];
    dcol *c = &x->t[t - x->m->tablas].c[j];
    char por[768], porque[600];
    snprintf(porque, sizeof porque, "%s%s%s", porque_, c->rechazo[0] ? "; not its call: " : "", c->rechazo);
    switch (col->clase) {
    case DT__IC_ENTERO:
    case DT__IC_NUMERICO:
        snprintf(por, sizeof por, "%s: a neutral integer", porque);
        if (c->unico) serie(x, t, j, por);
        else llamada(x, t, j, D_MONTO, por);
        return;
    case DT__IC_FECHA:
    case DT__IC_TIMESTAMP:
    case DT__IC_TIMESTAMPTZ:
        snprintf(por, sizeof por, "%s: a neutral date", porque);
        if (col->clase == DT__IC_FECHA) {
            llamada(x, t, j, D_FECHA, por);
        } else {
            c->kind = K_LLAMADA;
            tx(&c->valor, "{ llamada = \"fecha.fecha_hora\"");
            tx_nulos(&c->valor, col, c, "fecha_hora");
            tx_tipo(&c->valor, col, 'D');
            tx(&c->valor, " }");
            tx(&c->porque, "%s", por);
        }
        if (c->unico) nota(x, "%s.%s: UNIQUE on a date: the document's dates may repeat", t->nombre, col->nombre);
        return;
    case DT__IC_TEXTO: {
        snprintf(por, sizeof por, "%s: %s", porque, c->unico ? "a neutral serie, as text (it is UNIQUE)" : "neutral words");
        if (c->unico) {
            serie(x, t, j, por);
            return;
        }
        elegir(x, t, j, col->largo > 0 && col->largo < 7 ? NEUTRAS_CORTAS : NEUTRAS_LARGAS, 3, por);
        return;
    }
    case DT__IC_BOOL: {
        char *v[2] = {col->falso ? col->falso : (char *)"false", col->verdadero ? col->verdadero : (char *)"true"};
        snprintf(por, sizeof por, "%s: a boolean (%s)", porque, col->tipo);
        elegir(x, t, j, v, 2, por);
        return;
    }
    default:
        if (col->nulable) {
            snprintf(por, sizeof por, "its type %s has no call", col->tipo);
            siempre_nulo(x, t, j, por);
            nota(x, "%s.%s: type %s has no call: left null", t->nombre, col->nombre, col->tipo);
            return;
        }
        if (contiene(col->tipo, "json")) {
            static char *json[] = {"{}"};
            snprintf(por, sizeof por, "%s: an empty JSON object (%s)", porque, col->tipo);
            elegir(x, t, j, json, 1, por);
            return;
        }
        if (contiene(col->tipo, "uuid") && c->unico) {
            serie_uuid(x, t, j, porque);
            return;
        }
        if (contiene(col->tipo, "uuid") && !c->unico) {
            static char *u[] = {"00000000-0000-4000-8000-000000000000"};
            snprintf(por, sizeof por, "%s: one fixed UUID", porque);
            elegir(x, t, j, u, 1, por);
            return;
        }
        snprintf(por, sizeof por, "%s: its type %s has no call", porque, col->tipo);
        static char *nada[] = {"?"};
        elegir(x, t, j, nada, 1, por);
        nota(x, "%s.%s: type %s NOT NULL%s has no call; the document writes '?', which the database may refuse",
             t->nombre, col->nombre, col->tipo, c->unico ? " UNIQUE" : "");
    }
}

/* A column that is no key: its CHECK or enum values, a boolean, the detector's kind, its name's kind,
 * else a neutral value of its type. */
static void columna(inferir *x, const dt__ic_tabla *t, size_t j) {
    const dt__ic_col *col = &t->cols[j];
    dtab *d = &x->t[t - x->m->tablas];
    dcol *c = &d->c[j];
    char por[512];
    if (col->nvalores) {
        snprintf(por, sizeof por, "the %zu labels of enum %s", col->nvalores, col->tipo_propio ? col->tipo_propio : col->tipo);
        if (c->unico) nota(x, "%s.%s: UNIQUE on an enum: its values repeat", t->nombre, col->nombre);
        elegir(x, t, j, col->valores, col->nvalores, por);
        return;
    }
    if (d->chk[j].nin) {
        snprintf(por, sizeof por, "its CHECK IN-list of %zu values", d->chk[j].nin);
        if (c->unico) nota(x, "%s.%s: UNIQUE with a CHECK IN-list: its values repeat", t->nombre, col->nombre);
        elegir(x, t, j, d->chk[j].in, d->chk[j].nin, por);
        return;
    }
    if (col->clase == DT__IC_BOOL) {
        neutral(x, t, j, "no call");
        return;
    }
    if (c->detectado != D_NINGUNO) {
        snprintf(por, sizeof por, "the detector saw %s in the sample (%s)", LLAMADAS[c->detectado].que,
                 c->cuentas ? c->cuentas : "");
        int dd = c->detectado;
        if (dd == D_FECHA && por_nombre(col->nombre) == D_FECHA_NAC) dd = D_FECHA_NAC;
        if (llamada(x, t, j, dd, por)) return;
    }
    int n = por_nombre(col->nombre);
    if (n != D_NINGUNO) {
        snprintf(por, sizeof por, "its name says %s (%s)%s%s", LLAMADAS[n].que, col->tipo,
                 t->nmuestra ? "; the sample did not contradict it" : "", c->cuentas ? "" : "");
        if (t->nmuestra && c->cuentas) snprintf(por, sizeof por, "its name says %s (%s); sample: %s", LLAMADAS[n].que, col->tipo, c->cuentas);
        if (llamada(x, t, j, n, por)) return;
    }
    if (col->clase == DT__IC_FECHA || col->clase == DT__IC_TEXTO) {
        /* dates by type; text that is neither: neutral */
    }
    snprintf(por, sizeof por, "no call fits its name or sample (%s%s%s)", col->tipo, c->cuentas ? "; " : "",
             c->cuentas ? c->cuentas : "");
    neutral(x, t, j, por);
}

/* ---- keys and references ---- */

static long tabla_de(const dt__ic_modelo *m, const char *esquema, const char *nombre) {
    for (size_t i = 0; i < m->ntablas; i++)
        if (strcmp(m->tablas[i].nombre, nombre) == 0 && (!esquema || !esquema[0] || strcmp(m->tablas[i].esquema, esquema) == 0))
            return (long)i;
    return -1;
}

/* The single-column foreign key on column j, or NULL. */
static const dt__ic_fk *fk_de(const dt__ic_tabla *t, size_t j) {
    for (size_t i = 0; i < t->nfks; i++)
        if (t->fks[i].cols.n == 1 && t->fks[i].cols.cols[0] == j) return &t->fks[i];
    return NULL;
}

/* A fan-out's count per parent row, from the live rows of child and parent: min..max with the same mean. */
static void cuantos(dtab *d, uint64_t hijos, uint64_t padres, const char *padre) {
    if (padres == 0) {
        d->cmin = 1, d->cmax = 3;
        tx(&d->porque, "1 to 3 per %s (the parent has no rows)", padre);
        return;
    }
    uint64_t m2 = (2 * hijos + padres / 2) / padres; /* twice the mean, rounded */
    if (m2 > 2000000) m2 = 2000000;
    if (m2 >= 2) d->cmin = 1, d->cmax = (long)m2 - 1;
    else d->cmin = 0, d->cmax = 1;
    tx(&d->porque, "%ld to %ld per %s: about %llu rows, the live table's ratio of %llu to %llu", d->cmin, d->cmax, padre,
       (unsigned long long)(padres * (uint64_t)(d->cmin + d->cmax) / 2), (unsigned long long)hijos, (unsigned long long)padres);
}

static uint64_t escalar(const inferir *x, uint64_t n) {
    if (n == 0) return 0;
    const uint64_t tope_filas = (uint64_t)1 << 62;
    uint64_t q = n / x->esc_den, r = n % x->esc_den; /* n * num / den without overflow, capped at 2^62 */
    if (q > tope_filas / x->esc_num) return tope_filas;
    uint64_t v = q * x->esc_num + r * x->esc_num / x->esc_den;
    if (v == 0) v = 1;
    return v > tope_filas ? tope_filas : v;
}

/* The fan-out f's parent table p as read (f->ab_*), at most `tope` children per parent row, into d's
 * cuantos and pesos: 1 when set, 0 when f was not read or does not fit the language's limits. */
static int observado(inferir *x, dtab *d, const dt__ic_fk *f, size_t p, uint64_t tope, const char *prefijo) {
    dt__ic_modelo *m = x->m;
    if (f == NULL || f->nab == 0 || x->sin_abanico) return 0;
    uint64_t con_hijos = 0, hijos = 0, padres = m->tablas[p].filas;
    int grande = 0;
    for (size_t i = 0; i < f->nab; i++) {
        con_hijos += f->ab_cuenta[i], hijos += f->ab_n[i] * f->ab_cuenta[i];
        grande |= f->ab_cuenta[i] > 1000000000 || f->ab_n[i] > 1000000;
    }
    if (grande || padres < con_hijos || padres == 0) return 0;
    uint64_t ceros = padres - con_hijos;
    uint64_t lo = ceros ? 0 : f->ab_n[0], hi = f->ab_n[f->nab - 1];
    if (hi - lo > 65535 || ceros > 1000000000 || hi > tope) return 0;
    d->por = (long)p;
    d->cmin = (long)lo, d->cmax = (long)hi;
    tx(&d->pesos, ", distribucion = \"pesos\", pesos = [");
    size_t i = 0;
    for (uint64_t n = lo; n <= hi; n++) {
        uint64_t w = n == 0 ? ceros : (i < f->nab && f->ab_n[i] == n ? f->ab_cuenta[i++] : 0);
        tx(&d->pesos, "%s%llu", n == lo ? "" : ", ", (unsigned long long)w);
    }
    tx(&d->pesos, "]");
    d->porque.n = 0;
    tx(&d->porque, "%sa fan-out of %s as observed: %llu rows over its %llu rows, %llu.%02llu per row on average, %llu at most, "
                   "weighted by how many have each count (--sin-abanico: the live count and uniform refs)",
           prefijo, m->tablas[p].nombre, (unsigned long long)hijos, (unsigned long long)padres, (unsigned long long)(hijos / padres),
           (unsigned long long)(hijos % padres * 100 / padres), (unsigned long long)hi);
    return 1;
}

/* Whether a foreign key of another table points at table ti. */
static int referida(const inferir *x, size_t ti) {
    for (size_t i = 0; i < x->m->ntablas; i++)
        for (size_t k = 0; i != ti && k < x->m->tablas[i].nfks; k++)
            if (x->m->tablas[i].fks[k].padre == (long)ti) return 1;
    return 0;
}

/* The table's shape: its rows, and a fan-out where a key needs one (a key that is a foreign key, a
 * composite key of a foreign key and a position or a second foreign key). */
static void forma(inferir *x, size_t ti) {
    dt__ic_modelo *m = x->m;
    dt__ic_tabla *t = &m->tablas[ti];
    dtab *d = &x->t[ti];
    uint64_t vivas = t->filas;
    d->por = -1;
    if (t->disparada && !referida(x, ti)) {
        /* an audit table: the trigger writes its rows as the load fills the trigger's table, and rows of
         * the document's own would take the keys the trigger's sequence gives next */
        d->filas = 0;
        tx(&d->porque, "0 rows: %s inserts into it, so the load fills it", t->disparada);
        return;
    }
    d->filas = t->filas ? escalar(x, t->filas) : x->vacia;
    if (t->filas) tx(&d->porque, "%s: %llu%s", t->filas_estimadas ? "the catalog's estimate of its rows" : "its live rows",
                     (unsigned long long)t->filas, x->esc_num != x->esc_den ? ", scaled by --escala" : "");
    else tx(&d->porque, "empty: %llu rows (--filas-vacia)", (unsigned long long)x->vacia);
    if (!t->filas) vivas = x->vacia;
    d->por = -1;
    if (t->pk.n == 0 || t->pk.n > 2) {
        if (t->pk.n > 2) nota(x, "%s: its %zu-column PRIMARY KEY: the document keeps none of its columns unique", t->nombre, t->pk.n);
        return;
    }
    size_t a = t->pk.cols[0];
    const dt__ic_fk *fa = fk_de(t, a);
    long pa = fa ? fa->padre : -1;
    if (t->pk.n == 2 && (pa < 0 || pa == (long)ti)) {
        a = t->pk.cols[1];
        fa = fk_de(t, a);
        pa = fa ? fa->padre : -1;
    }
    if (pa < 0 || pa == (long)ti) {
        if (t->pk.n == 2) {
            nota(x, "%s: PRIMARY KEY (%s, %s) with no foreign key to another table: the pair may repeat", t->nombre,
                 t->cols[t->pk.cols[0]].nombre, t->cols[t->pk.cols[1]].nombre);
            d->c[t->pk.cols[0]].en_clave = d->c[t->pk.cols[1]].en_clave = 1;
        }
        return;
    }
    uint64_t padres = m->tablas[pa].filas ? m->tablas[pa].filas : x->vacia;
    d->por = pa;
    d->porque.n = 0; /* a fan-out's rows follow from its parent's, not from filas */
    tx(&d->porque, "%s", "");
    if (t->pk.n == 1) { /* a key that is a foreign key: at most one row per parent */
        if (observado(x, d, fa, (size_t)pa, 1, "its key is a foreign key: ")) return;
        d->cmin = vivas >= padres ? 1 : 0, d->cmax = 1;
        tx(&d->porque, "its key %s is a foreign key to %s, so a fan-out of %ld to 1 per %s row", t->cols[a].nombre,
           m->tablas[pa].nombre, d->cmin, m->tablas[pa].nombre);
        return;
    }
    size_t b = t->pk.cols[0] == a ? t->pk.cols[1] : t->pk.cols[0];
    if (fk_de(t, b)) { /* a junction table: one row per parent keeps the pair unique */
        d->cmin = vivas >= padres ? 1 : 0, d->cmax = 1;
        tx(&d->porque, "PRIMARY KEY (%s, %s) of two foreign keys: %ld to 1 row per %s keeps the pair unique",
           t->cols[t->pk.cols[0]].nombre, t->cols[t->pk.cols[1]].nombre, d->cmin, m->tablas[pa].nombre);
        return;
    }
    if (t->cols[b].clase == DT__IC_ENTERO) {
        d->c[b].kind = K_POSICION;
        tx(&d->c[b].valor, "{ posicion = true");
        tx_tipo(&d->c[b].valor, &t->cols[b], 'S');
        tx(&d->c[b].valor, " }");
        tx(&d->c[b].porque, "PRIMARY KEY (%s, %s): its place 1..k among the %s row's children", t->cols[a].nombre,
           t->cols[b].nombre, m->tablas[pa].nombre);
        char pre[300];
        snprintf(pre, sizeof pre, "PRIMARY KEY (%s, %s), a foreign key and a position: ", t->cols[a].nombre, t->cols[b].nombre);
        if (observado(x, d, fa, (size_t)pa, 1000000, pre)) return;
        tx(&d->porque, "%s", pre);
        cuantos(d, vivas, padres, m->tablas[pa].nombre);
        return;
    }
    d->por = -1;
    nota(x, "%s: PRIMARY KEY (%s, %s): the pair may repeat", t->nombre, t->cols[a].nombre, t->cols[b].nombre);
}

/* A composite foreign key to a fan-out table keyed (foreign key, posicion): this table fans out from it,
 * each column taking the parent row's value. 1 when done. */
static int fk_compuesta(inferir *x, size_t ti, const dt__ic_fk *f) {
    dt__ic_modelo *m = x->m;
    dt__ic_tabla *t = &m->tablas[ti];
    dtab *d = &x->t[ti];
    long p = f->padre;
    if (p < 0 || p == (long)ti || f->cols.n != 2 || d->por >= 0 || x->t[p].por < 0) return 0;
    const dt__ic_tabla *pt = &m->tablas[p];
    long abuelo = x->t[p].por;
    for (size_t k = 0; k < 2; k++) {
        long pc = dt__ic_col_indice(pt, f->ref_cols[k]);
        if (pc < 0) return 0;
        if (x->t[p].c[pc].kind != K_POSICION) {
            const dt__ic_fk *g = fk_de(pt, (size_t)pc);
            if (g == NULL || g->padre != abuelo) return 0;
        }
    }
    d->por = p;
    d->porque.n = 0;
    tx(&d->porque, "a fan-out of %s for its FOREIGN KEY (%s, %s): ", pt->nombre, t->cols[f->cols.cols[0]].nombre,
       t->cols[f->cols.cols[1]].nombre);
    cuantos(d, t->filas ? t->filas : x->vacia, pt->filas ? pt->filas : x->vacia, pt->nombre);
    for (size_t k = 0; k < 2; k++) {
        size_t j = f->cols.cols[k];
        long pc = dt__ic_col_indice(pt, f->ref_cols[k]);
        dcol *c = &d->c[j];
        c->kind = K_REF;
        if (x->t[p].c[pc].kind == K_POSICION) {
            c->kind = K_LLAMADA;
            tx(&c->valor, "{ llamada = \"dinero.monto\", min = { de = \"%s.%s\" }, max = { de = \"%s.%s\" }", x->t[p].clave,
               pt->cols[pc].nombre, x->t[p].clave, pt->cols[pc].nombre);
            tx_tipo(&c->valor, &t->cols[j], 'I');
            tx(&c->valor, " }");
            tx(&c->porque, "FOREIGN KEY (%s, %s) to %s: the %s row's %s", t->cols[f->cols.cols[0]].nombre,
               t->cols[f->cols.cols[1]].nombre, pt->nombre, pt->nombre, pt->cols[pc].nombre);
        } else {
            const dt__ic_fk *g = fk_de(pt, (size_t)pc);
            long gc = dt__ic_col_indice(&m->tablas[abuelo], g->ref_cols[0]);
            if (gc < 0) return 0;
            tx(&c->valor, "{ ref = \"%s.%s\" }", x->t[abuelo].clave, m->tablas[abuelo].cols[gc].nombre);
            tx(&c->porque, "FOREIGN KEY (%s, %s) to %s: the %s row's %s, up the fan-out", t->cols[f->cols.cols[0]].nombre,
               t->cols[f->cols.cols[1]].nombre, pt->nombre, pt->nombre, pt->cols[pc].nombre);
        }
    }
    return 1;
}

/* Whether table `desde` reaches table `hasta` through single-column foreign keys and fan-outs. */
static int alcanza(const inferir *x, size_t desde, size_t hasta) {
    const dt__ic_modelo *m = x->m;
    unsigned char *visto = (unsigned char *)calloc(m->ntablas, 1);
    size_t *pila = (size_t *)malloc(m->ntablas * sizeof *pila), h = 0;
    int si = 0;
    if (!visto || !pila) {
        fputs("datoteca inferir: out of memory\n", stderr);
        exit(1);
    }
    pila[h++] = desde, visto[desde] = 1;
    while (h && !si) {
        size_t v = pila[--h];
        const dt__ic_tabla *t = &m->tablas[v];
        for (size_t k = 0; k <= t->nfks && !si; k++) {
            long p = k == t->nfks ? x->t[v].por
                     : t->fks[k].cols.n == 1 ? t->fks[k].padre : -1;
            if (p < 0 || visto[p]) continue;
            if ((size_t)p == hasta) si = 1;
            visto[p] = 1, pila[h++] = (size_t)p;
        }
    }
    free(visto);
    free(pila);
    return si;
}

/* A table of rows whose first NOT NULL foreign key was read with its children per parent row becomes a
 * fan-out of that parent with those counts as weights ("pesos"), so each parent has as many children as
 * production's parents have, in the same proportions (mean and skew), and the table's rows follow. */
static void abanico(inferir *x, size_t ti) {
    dt__ic_modelo *m = x->m;
    dt__ic_tabla *t = &m->tablas[ti];
    dtab *d = &x->t[ti];
    if (x->sin_abanico || d->fuera || d->por >= 0 || t->filas == 0) return;
    for (size_t k = 0; k < t->nfks; k++) {
        const dt__ic_fk *f = &t->fks[k];
        if (f->nab == 0 || f->cols.n != 1) continue;
        long p = f->padre;
        long pc = p >= 0 ? dt__ic_col_indice(&m->tablas[p], f->ref_cols[0]) : -1;
        if (p < 0 || p == (long)ti || pc < 0 || x->t[p].fuera || !x->t[p].c[pc].referible || alcanza(x, (size_t)p, ti)) continue;
        if (observado(x, d, f, (size_t)p, 1000000, "")) return;
    }
}

/* Column j's single-column foreign key f, as a ref when its parent column can be one. */
static void referencia(inferir *x, size_t ti, size_t j, const dt__ic_fk *f, int rota) {
    dt__ic_modelo *m = x->m;
    dt__ic_tabla *t = &m->tablas[ti];
    dcol *c = &x->t[ti].c[j];
    long p = f->padre;
    long pc = p >= 0 ? dt__ic_col_indice(&m->tablas[p], f->ref_cols[0]) : -1;
    char por[512];
    if (p < 0 || pc < 0 || x->t[p].fuera) {
        snprintf(por, sizeof por, "FOREIGN KEY to %s.%s, a table not read", f->ref_tabla, f->ref_cols[0]);
    } else if (rota || p == (long)ti) {
        if (t->cols[j].nulable && x->t[p].c[pc].referible) {
            /* written NULL with its row, set once every table is written: a cycle's nullable edge, or a
             * row pointing at its own table (drizzle-seed #3635; Greenmask #279's self-reference) */
            c->kind = K_REF;
            tx(&c->valor, "{ ref = \"%s.%s\", diferida = true }", x->t[p].clave, m->tablas[p].cols[pc].nombre);
            tx(&c->porque, "nullable FOREIGN KEY to %s.%s %s: deferred, set after every table is written", m->tablas[p].nombre,
               m->tablas[p].cols[pc].nombre, p == (long)ti ? "of its own table" : "closing a cycle");
            return;
        }
        if (t->cols[j].nulable) {
            snprintf(por, sizeof por, "FOREIGN KEY to %s.%s %s, which the document cannot make unique", m->tablas[p].nombre,
                     m->tablas[p].cols[pc].nombre, p == (long)ti ? "of its own table" : "closing a cycle");
            siempre_nulo(x, t, j, por);
            return;
        }
        if (p == (long)ti && x->t[p].c[pc].kind == K_SERIE) {
            c->kind = K_LLAMADA;
            tx(&c->valor, "{ llamada = \"dinero.monto\", min = 1, max = 1");
            tx_tipo(&c->valor, &t->cols[j], 'I');
            tx(&c->valor, " }");
            tx(&c->porque, "NOT NULL FOREIGN KEY to its own table's %s: every row points at row 1 (a ref cannot point at "
                           "its own table)", m->tablas[p].cols[pc].nombre);
            return;
        }
        snprintf(por, sizeof por, "NOT NULL FOREIGN KEY to %s.%s in a cycle", m->tablas[p].nombre, m->tablas[p].cols[pc].nombre);
        nota(x, "%s.%s: a NOT NULL foreign key in a cycle of tables: not expressed, the load will break it", t->nombre,
             t->cols[j].nombre);
        neutral(x, t, j, por);
        return;
    } else if (x->t[p].c[pc].referible) {
        c->kind = K_REF;
        tx(&c->valor, "{ ref = \"%s.%s\" }", x->t[p].clave, m->tablas[p].cols[pc].nombre);
        tx(&c->porque, "FOREIGN KEY to %s.%s%s%s", m->tablas[p].nombre, m->tablas[p].cols[pc].nombre,
           x->t[ti].por == p ? ", the row it fans out from" : "",
           t->cols[j].nulable ? "; nullable, but a ref is always filled" : "");
        if (c->unico && x->t[ti].por != p)
            nota(x, "%s.%s: UNIQUE foreign key: a ref may repeat its parent", t->nombre, t->cols[j].nombre);
        return;
    } else {
        snprintf(por, sizeof por, "FOREIGN KEY to %s.%s, which the document cannot make unique", m->tablas[p].nombre,
                 m->tablas[p].cols[pc].nombre);
    }
    if (t->cols[j].nulable) {
        siempre_nulo(x, t, j, por);
        nota(x, "%s.%s: %s: left null", t->nombre, t->cols[j].nombre, por);
    } else {
        nota(x, "%s.%s: %s: not expressed", t->nombre, t->cols[j].nombre, por);
        neutral(x, t, j, por);
    }
}

/* The parent table of table v's edge k (k == ncols: its fan-out's parent; else column k's
 * single-column foreign key, while the column is still undecided), or -1. */
static long arista(const inferir *x, size_t v, size_t k) {
    const dt__ic_tabla *t = &x->m->tablas[v];
    if (k == t->ncols) return x->t[v].por;
    if (x->t[v].c[k].kind != K_NADA) return -1;
    const dt__ic_fk *f = fk_de(t, k);
    return f ? f->padre : -1;
}

/* Whether table `hasta` is reached from `desde` over the edges kept so far: every edge that is not cut
 * (rota) and is NOT NULL, a fan-out's, or a nullable one already accepted (acepta). */
static int llega(const inferir *x, unsigned char **rota, unsigned char **acepta, size_t desde, size_t hasta) {
    const dt__ic_modelo *m = x->m;
    unsigned char *visto = (unsigned char *)calloc(m->ntablas, 1);
    size_t *pila = (size_t *)malloc(m->ntablas * sizeof *pila), h = 0;
    int si = desde == hasta;
    if (!visto || !pila) {
        fputs("datoteca inferir: out of memory\n", stderr);
        exit(1);
    }
    pila[h++] = desde, visto[desde] = 1;
    while (h && !si) {
        size_t v = pila[--h];
        const dt__ic_tabla *t = &m->tablas[v];
        for (size_t k = 0; k <= t->ncols && !si; k++) {
            long p = arista(x, v, k);
            if (p < 0 || visto[p] || (k < t->ncols && (rota[v][k] || (t->cols[k].nulable && !acepta[v][k])))) continue;
            if ((size_t)p == hasta) si = 1;
            visto[p] = 1, pila[h++] = (size_t)p;
        }
    }
    free(visto);
    free(pila);
    return si;
}

/* Foreign keys that close a cycle, marked in `rota` by table and column: the language refuses a cycle,
 * so those become nulls. A cycle is cut at a nullable foreign key whenever it has one (drizzle-seed
 * #3635: a product's nullable main picture, the picture's NOT NULL product): first the cycles of NOT
 * NULL edges alone are cut where a depth-first walk closes them (nothing else can break those: the
 * load will, and inferir says so); then each nullable foreign key, in declaration order, is kept unless
 * its parent already reaches its table over the edges kept. */
static void ciclos(inferir *x, unsigned char **rota) {
    dt__ic_modelo *m = x->m;
    size_t n = m->ntablas;
    unsigned char *color = (unsigned char *)calloc(n ? n : 1, 1);
    size_t *pila = (size_t *)malloc((n ? n : 1) * sizeof *pila), *sig = (size_t *)calloc(n ? n : 1, sizeof *sig);
    unsigned char **acepta = (unsigned char **)calloc(n ? n : 1, sizeof *acepta);
    if (!color || !pila || !sig || !acepta) {
        fputs("datoteca inferir: out of memory\n", stderr);
        exit(1);
    }
    for (size_t r = 0; r < n; r++) {
        if (color[r]) continue;
        size_t h = 0;
        pila[h++] = r, color[r] = 1;
        while (h) {
            size_t v = pila[h - 1];
            dt__ic_tabla *t = &m->tablas[v];
            if (sig[v] > t->ncols) {
                color[v] = 2, h--;
                continue;
            }
            size_t k = sig[v]++;
            long p = arista(x, v, k);
            if (p < 0 || (k < t->ncols && t->cols[k].nulable)) continue; /* NOT NULL edges only, here */
            if (color[p] == 1) {
                if (k < t->ncols) rota[v][k] = 1;
            } else if (color[p] == 0) {
                color[p] = 1, pila[h++] = (size_t)p;
            }
        }
    }
    for (size_t v = 0; v < n; v++)
        if ((acepta[v] = (unsigned char *)calloc(m->tablas[v].ncols + 1, 1)) == NULL) {
            fputs("datoteca inferir: out of memory\n", stderr);
            exit(1);
        }
    for (size_t v = 0; v < n; v++) {
        const dt__ic_tabla *t = &m->tablas[v];
        for (size_t k = 0; k < t->ncols; k++) {
            long p = arista(x, v, k);
            if (p < 0 || !t->cols[k].nulable) continue;
            if (llega(x, rota, acepta, (size_t)p, v)) rota[v][k] = 1;
            else acepta[v][k] = 1;
        }
    }
    for (size_t v = 0; v < n; v++) free(acepta[v]);
    free(acepta);
    free(color);
    free(pila);
    free(sig);
}

/* ---- the document ---- */

static int escribir(inferir *x, txt *doc) {
    dt__ic_modelo *m = x->m;
    size_t ntab = 0;
    for (size_t i = 0; i < m->ntablas; i++) ntab += !x->t[i].fuera;
    tx(doc, "# datoteca inferir %s: %zu tables read.\n", m->origen ? m->origen : "", ntab);
    tx(doc, "# Each column's call comes from its type, CHECK and enum values, its name and, where the table has rows,\n"
            "# the detector's counts over a sample; the comment after it says why. No value of the database is written here.\n");
    if (m->dialecto == DT__IC_MARIADB) /* cargar.sql is psql's: MariaDB is loaded by --hacia */
        tx(doc, "# Load into a database made by the same DDL: datoteca esquema THIS.toml --seed 42 --hacia %s\n"
                "# (docs/hacia.md: one transaction, every constraint and trigger on)\n",
           strncmp(m->origen ? m->origen : "", "mysql:", 6) == 0 ? "mysql://[user@]host/db" : "mariadb://[user@]host/db");
    else
        tx(doc, "# Load into a database made by the same DDL: datoteca esquema THIS.toml --formato csv --salida DIR, then\n"
                "# %s\n", m->dialecto == DT__IC_PG ? "(cd DIR && psql -f cargar.sql)" : "each DIR/<tabla>.csv in DIR/cargar.sql's order, with foreign_keys=ON");
    if (m->dialecto == DT__IC_PG) { /* cargar.sql names tables bare: other schemas must be on the search_path */
        txt otros = {0};
        for (size_t i = 0; i < m->ntablas; i++) {
            const char *e = m->tablas[i].esquema;
            if (x->t[i].fuera || strcmp(e, "public") == 0) continue;
            int visto = 0;
            for (size_t k = 0; k < i && !visto; k++) visto = !x->t[k].fuera && strcmp(m->tablas[k].esquema, e) == 0;
            if (!visto) tx(&otros, ",%s", e);
        }
        if (otros.n) tx(doc, "# Tables of other schemas than public: load with them on the search_path,\n"
                             "#   PGOPTIONS='-c search_path=public%s' psql -f cargar.sql\n", otros.p);
        free(otros.p);
    }
    if (x->secuencias.n) {
        tx(doc, "# Serial and identity columns get serie (1..N, written explicitly: the language cannot leave a column to its\n"
                "# sequence); after the load, move each sequence past them:\n%s", x->secuencias.p);
    }
    if (x->nnotas) tx(doc, "# Not expressed (%zu):\n%s", x->nnotas, x->notas.p);
    else tx(doc, "# Not expressed: nothing.\n");
    tx(doc, "version = 1\n");
    for (size_t i = 0; i < m->ntablas; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        dtab *d = &x->t[i];
        if (d->fuera) continue;
        tx(doc, "\n[tablas.");
        tx_clave(doc, d->clave);
        tx(doc, "]\n");
        if (d->por >= 0) {
            tx(doc, "por = ");
            tx_cadena(doc, x->t[d->por].clave);
            tx(doc, "\ncuantos = { min = %ld, max = %ld%s }  # ", d->cmin, d->cmax, d->pesos.p ? d->pesos.p : "");
        } else
            tx(doc, "filas = %llu  # ", (unsigned long long)d->filas);
        tx_comentario(doc, d->porque.p ? d->porque.p : "");
        if (t->esquema[0] && strcmp(t->esquema, "public") && strcmp(t->esquema, "main") && m->dialecto != DT__IC_MARIADB)
            tx(doc, "; schema %s", t->esquema);
        tx(doc, "\n\n[tablas.");
        tx_clave(doc, d->clave);
        tx(doc, ".columnas]\n");
        for (size_t j = 0; j < t->ncols; j++) {
            dcol *c = &d->c[j];
            if (c->kind == K_OMITIR) {
                tx(doc, "# %s: ", t->cols[j].nombre);
                tx_comentario(doc, c->porque.p ? c->porque.p : "");
                tx(doc, "\n");
                continue;
            }
            tx_clave(doc, t->cols[j].nombre);
            tx(doc, " = %s  # ", c->valor.p ? c->valor.p : "{}");
            tx_comentario(doc, c->porque.p ? c->porque.p : "");
            tx(doc, "\n");
        }
    }
    return 0;
}

static void inferir_todo(inferir *x) {
    dt__ic_modelo *m = x->m;
    size_t n = m->ntablas;
    x->t = (dtab *)calloc(n ? n : 1, sizeof *x->t);
    unsigned char **rota = (unsigned char **)calloc(n ? n : 1, sizeof *rota);
    if (x->t == NULL || rota == NULL) {
        fputs("datoteca inferir: out of memory\n", stderr);
        exit(1);
    }
    /* names: the language's rules, and one name per table across schemas */
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        dtab *d = &x->t[i];
        d->c = (dcol *)calloc(t->ncols ? t->ncols : 1, sizeof *d->c);
        d->chk = (dt__inf_check *)calloc(t->ncols ? t->ncols : 1, sizeof *d->chk);
        rota[i] = (unsigned char *)calloc(t->ncols ? t->ncols : 1, 1);
        if (!d->c || !d->chk || !rota[i]) {
            fputs("datoteca inferir: out of memory\n", stderr);
            exit(1);
        }
        d->por = -1;
        d->clave = t->nombre;
        if (!nombre_valido(t->nombre)) {
            d->fuera = 1;
            nota(x, "table %s: its name is not one the schema language takes (letters, digits, _; at most 63 bytes)", t->nombre);
            continue;
        }
        for (size_t k = 0; k < i; k++)
            if (strcmp(m->tablas[k].nombre, t->nombre) == 0 && !x->t[k].fuera) {
                d->fuera = 1;
                nota(x, "table %s.%s: a table of that name was read from schema %s (read one schema: --esquema)", t->esquema,
                     t->nombre, m->tablas[k].esquema);
                break;
            }
        if (t->ncols == 0) {
            d->fuera = 1;
            nota(x, "table %s: no columns", t->nombre);
        }
        for (size_t j = 0; j < t->ncols; j++)
            if (!nombre_valido(t->cols[j].nombre)) {
                d->fuera = 1;
                nota(x, "table %s: its column %s has a name the schema language does not take", t->nombre, t->cols[j].nombre);
            }
    }
    for (size_t i = 0; i < n; i++) /* each foreign key's parent, looked up once */
        for (size_t k = 0; k < m->tablas[i].nfks; k++) {
            dt__ic_fk *f = &m->tablas[i].fks[k];
            f->padre = tabla_de(m, f->ref_esquema, f->ref_tabla);
        }
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        dtab *d = &x->t[i];
        if (d->fuera) continue;
        estadisticas(t, d);
        detectar(t, d);
        for (size_t k = 0; k < t->nchecks; k++)
            if (!dt__inf_check_leer(t, t->checks[k].texto, t->checks[k].columna, d->chk, t->ncols))
                nota(x, "%s: CHECK %s: not a simple IN-list or integer range; the values may break it", t->nombre,
                     t->checks[k].origen[0] ? t->checks[k].origen : t->checks[k].texto);
        if (t->pk.n == 1) d->c[t->pk.cols[0]].unico = 1;
        for (size_t u = 0; u < t->nunicos; u++)
            if (t->unicos[u].n == 1) d->c[t->unicos[u].cols[0]].unico = 1;
    }
    for (size_t i = 0; i < n; i++)
        if (!x->t[i].fuera) forma(x, i);
    /* generated columns and GENERATED ALWAYS identities: left to the database */
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        for (size_t j = 0; j < t->ncols && !x->t[i].fuera; j++) {
            dcol *c = &x->t[i].c[j];
            if (t->cols[j].generada) {
                c->kind = K_OMITIR;
                tx(&c->porque, "a generated column (%s): left out, so the database computes it", t->cols[j].tipo);
            }
        }
    }
    /* keys: a single-column integer key is a serie; a text one a recognised unique call, else a serie */
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        dtab *d = &x->t[i];
        if (d->fuera || t->pk.n != 1 || d->por >= 0) continue;
        size_t j = t->pk.cols[0];
        dt__ic_col *col = &t->cols[j];
        if (d->c[j].kind != K_NADA || fk_de(t, j)) continue;
        char por[256];
        if (col->clase == DT__IC_ENTERO || col->clase == DT__IC_NUMERICO) {
            snprintf(por, sizeof por, "PRIMARY KEY (%s%s)", col->tipo,
                     col->identidad == 2 ? ", GENERATED ALWAYS AS IDENTITY" : col->identidad ? ", serial or identity" : "");
            serie(x, t, j, por);
            if (col->identidad && m->dialecto == DT__IC_PG) {
                tx(&x->secuencias, "#   SELECT setval(pg_get_serial_sequence('%s%s%s', '%s'), (SELECT max(%s) FROM %s%s%s));\n",
                   strcmp(t->esquema, "public") ? t->esquema : "", strcmp(t->esquema, "public") ? "." : "", t->nombre, col->nombre,
                   col->nombre, strcmp(t->esquema, "public") ? t->esquema : "", strcmp(t->esquema, "public") ? "." : "", t->nombre);
                if (col->identidad == 2)
                    nota(x, "%s.%s: GENERATED ALWAYS AS IDENTITY: an INSERT cannot write it (OVERRIDING SYSTEM VALUE); "
                            "COPY can, so --hacia and cargar.sql load it", t->nombre, col->nombre);
            }
        } else if (col->clase == DT__IC_OTRO && contiene(col->tipo, "uuid")) {
            snprintf(por, sizeof por, "PRIMARY KEY (%s)", col->tipo);
            serie_uuid(x, t, j, por);
        } else if (col->clase == DT__IC_TEXTO) {
            int k = d->c[j].detectado != D_NINGUNO ? d->c[j].detectado : por_nombre(col->nombre);
            snprintf(por, sizeof por, "PRIMARY KEY (%s)", col->tipo);
            if (!((k == D_RUT || k == D_EMAIL || k == D_TELEFONO) && llamada(x, t, j, k, por)))
                serie(x, t, j, strcat(por, ": a serie, as text"));
        }
    }
    /* identities and serials that are no key: the same serie */
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        for (size_t j = 0; j < t->ncols && !x->t[i].fuera; j++) {
            dcol *c = &x->t[i].c[j];
            if (c->kind != K_NADA || !t->cols[j].identidad || fk_de(t, j)) continue;
            if (t->cols[j].identidad == 2) {
                c->kind = K_OMITIR;
                tx(&c->porque, "GENERATED ALWAYS AS IDENTITY, no key: left out, so the database numbers it");
            } else if (cabe(&t->cols[j], 'S'))
                serie(x, t, j, "serial or identity: a serie");
        }
    }
    /* composite foreign keys to (foreign key, posicion) tables */
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        if (x->t[i].fuera) continue;
        for (size_t k = 0; k < t->nfks; k++) {
            const dt__ic_fk *f = &t->fks[k];
            if (f->cols.n < 2 || fk_compuesta(x, i, f)) continue;
            int nulables = 1;
            for (size_t q = 0; q < f->cols.n; q++) nulables &= t->cols[f->cols.cols[q]].nulable;
            for (size_t q = 0; q < f->cols.n && nulables; q++) {
                size_t j = f->cols.cols[q];
                if (x->t[i].c[j].kind == K_NADA) siempre_nulo(x, t, j, "a composite foreign key the document cannot make");
            }
            nota(x, "%s: FOREIGN KEY (%zu columns) to %s: %s", t->nombre, f->cols.n, f->ref_tabla,
                 nulables ? "left null (MATCH SIMPLE skips a null)" : "not expressed; the load will break it");
        }
    }
    /* observed fan-outs, once the keys they refer to are decided */
    for (size_t i = 0; i < n; i++) abanico(x, i);
    /* every other column that is no foreign key */
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        for (size_t j = 0; j < t->ncols && !x->t[i].fuera; j++)
            if (x->t[i].c[j].kind == K_NADA && !fk_de(t, j)) columna(x, t, j);
    }
    ciclos(x, rota);
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        for (size_t j = 0; j < t->ncols && !x->t[i].fuera; j++)
            if (x->t[i].c[j].kind == K_NADA) referencia(x, i, j, fk_de(t, j), rota[i][j]);
    }
    /* composite UNIQUE constraints: kept only when one of their columns is unique anyway */
    for (size_t i = 0; i < n; i++) {
        dt__ic_tabla *t = &m->tablas[i];
        for (size_t u = 0; u < t->nunicos && !x->t[i].fuera; u++) {
            if (t->unicos[u].n < 2) continue;
            int ok = 0;
            for (size_t q = 0; q < t->unicos[u].n; q++) {
                dcol *c = &x->t[i].c[t->unicos[u].cols[q]];
                ok |= c->referible || c->kind == K_SERIE;
            }
            if (!ok) nota(x, "%s: a UNIQUE constraint on %zu columns: the combination may repeat", t->nombre, t->unicos[u].n);
        }
    }
    for (size_t i = 0; i < n; i++) free(rota[i]);
    free(rota);
}

static void inferir_free(inferir *x) {
    for (size_t i = 0; x->t && i < x->m->ntablas; i++) {
        dtab *d = &x->t[i];
        for (size_t j = 0; d->c && j < x->m->tablas[i].ncols; j++) {
            free(d->c[j].valor.p);
            free(d->c[j].porque.p);
            free(d->c[j].cuentas);
            dt__inf_check_free(&d->chk[j]);
        }
        free(d->c);
        free(d->chk);
        free(d->porque.p);
        free(d->pesos.p);
    }
    free(x->t);
    for (size_t i = 0; i < x->nlargos; i++) free(x->largos[i].valor);
    free(x->largos);
    free(x->notas.p);
    free(x->secuencias.p);
}

/* ---- the command ---- */

static int usage_inferir(FILE *f) {
    fprintf(f, "usage: datoteca inferir URL [--esquema NAME] [--escala N | N/D] [--filas-vacia N] [--muestra N]\n"
               "                        [--sin-abanico] [--salida FILE]\n"
               "Reads the catalog of a live database and writes a schema document (TOML, docs/esquemas.md) that fills\n"
               "exactly that database: each column's call from its type, CHECK and enum values, its name and a sample\n"
               "of its values, with a comment saying why; what the document cannot say is listed in its head and on\n"
               "stderr (docs/inferir.md).\n"
               "  URL              sqlite:///abs/path.db or sqlite:rel/path.db (read only);\n"
               "                   postgresql://[user@]host[:port]/db[?...] or postgres://... (libpq: PGPASSWORD,\n"
               "                   ~/.pgpass and PGSERVICE work, so no password need be in the URL);\n"
               "                   mariadb://[user[:password]@][host][:port]/db[?socket=/path] or mysql://... (MariaDB\n"
               "                   Connector/C: ~/.my.cnf's [client] group gives user, password and socket)\n"
               "  --esquema NAME   PostgreSQL: read this schema only (default: every schema but the system's);\n"
               "                   MariaDB: read this database instead of the URL's\n"
               "  --escala N|N/D   multiply the live row counts (1/10: a tenth; default 1)\n"
               "  --filas-vacia N  rows for an empty table (default 100)\n"
               "  --muestra N      rows sampled per table for the detector (default 200, 0 for none)\n"
               "  --sin-abanico    keep every table's live count and draw foreign keys uniformly, instead of a fan-out\n"
               "                   from each NOT NULL foreign key's parent with the observed children per parent\n"
               "  --salida FILE    write the document to FILE (default: stdout)\n"
               "A password is never printed: errors and the document name host, port and database only.\n");
    return f == stdout ? 0 : 2;
}

/* The connector a URL names, and its dialect; NULL (said on stderr, "datoteca <orden>: URL: ...", the
 * URL never printed) when the scheme is unknown or this program was built without that client. */
dt__ic_conector dt__cli_conector(const char *url, const char *orden, int *dialecto) {
    dt__ic_conector con = NULL;
    const char *falta = NULL;
    *dialecto = DT__IC_SQLITE;
    if (strncmp(url, "sqlite:", 7) == 0) {
        con = dt__cli_conectar_sqlite;
        falta = "SQLite: the datoteca program links it when built with libsqlite3 (Debian: libsqlite3-dev)";
    } else if (strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0) {
        con = dt__cli_conectar_pg, *dialecto = DT__IC_PG;
        falta = "PostgreSQL: the datoteca program links it when built with libpq (Debian: libpq-dev)";
    } else if (strncmp(url, "mysql://", 8) == 0 || strncmp(url, "mariadb://", 10) == 0) {
        con = dt__cli_conectar_mariadb, *dialecto = DT__IC_MARIADB;
        falta = "MariaDB/MySQL: the datoteca program links it when built with MariaDB Connector/C (Debian: libmariadb-dev)";
    } else {
        fprintf(stderr, "datoteca %s: URL must start with sqlite:, postgresql:// or mariadb:// (mysql://) (the URL is not printed)\n",
                orden);
        return NULL;
    }
    if (con == NULL)
        fprintf(stderr, "datoteca %s: URL: this program has no connector for %s; the library's CLI (npx datoteca, and "
                        "python -m datoteca where no wheel's program is installed) links no database client\n", orden, falta);
    return con;
}

int dt__cli_leer_modelo(const char *url, const char *orden, const char *esquema, size_t muestra, dt__ic_modelo *m) {
    memset(m, 0, sizeof *m);
    int dialecto = DT__IC_SQLITE;
    dt__ic_conector con = dt__cli_conector(url, orden, &dialecto);
    if (con == NULL) return 2;
    m->dialecto = dialecto;
    char why[1024];
    why[0] = '\0';
    int rc = con(url, esquema, muestra, m, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr, "datoteca %s: URL: %s\n", orden, why);
        dt__ic_modelo_free(m);
    }
    return rc;
}

int dt__cli_inferir_main(int argc, char **argv) {
    const char *url = NULL, *esquema = NULL, *salida = NULL;
    unsigned long long num = 1, den = 1, vacia = 100, muestra = 200;
    int sin_abanico = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return usage_inferir(stdout);
        if (strcmp(a, "--sin-abanico") == 0) {
            sin_abanico = 1;
            continue;
        }
        int tiene = i + 1 < argc;
        if (strcmp(a, "--esquema") == 0 || strcmp(a, "--escala") == 0 || strcmp(a, "--filas-vacia") == 0 ||
            strcmp(a, "--muestra") == 0 || strcmp(a, "--salida") == 0) {
            if (!tiene) {
                fprintf(stderr, "datoteca inferir: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--esquema") == 0) esquema = v;
            else if (strcmp(a, "--salida") == 0) salida = v;
            else if (strcmp(a, "--escala") == 0) {
                const char *barra = strchr(v, '/');
                char uno[32];
                size_t k = barra ? (size_t)(barra - v) : strlen(v);
                if (k >= sizeof uno) k = sizeof uno - 1;
                memcpy(uno, v, k);
                uno[k] = '\0';
                if (!dt__cli_parse_u64(uno, 1000000, &num) || num == 0 || (barra && (!dt__cli_parse_u64(barra + 1, 1000000, &den) || den == 0))) {
                    fprintf(stderr, "datoteca inferir: --escala must be N or N/D with integers from 1 to 1000000, got '%s'\n", v);
                    return 2;
                }
            } else if (strcmp(a, "--filas-vacia") == 0) {
                if (!dt__cli_parse_u64(v, 1000000000, &vacia)) {
                    fprintf(stderr, "datoteca inferir: --filas-vacia must be an integer from 0 to 1000000000, got '%s'\n", v);
                    return 2;
                }
            } else if (!dt__cli_parse_u64(v, 100000, &muestra)) {
                fprintf(stderr, "datoteca inferir: --muestra must be an integer from 0 to 100000, got '%s'\n", v);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "datoteca inferir: unknown option %s ('datoteca inferir --help')\n", a);
            return 2;
        } else if (url == NULL)
            url = a;
        else {
            fprintf(stderr, "datoteca inferir: one URL, got a second argument (not printed: it may hold a password)\n");
            return 2;
        }
    }
    if (url == NULL) {
        usage_inferir(stderr);
        return 2;
    }
    dt__ic_modelo m;
    int rc = dt__cli_leer_modelo(url, "inferir", esquema, (size_t)muestra, &m);
    if (rc != 0) return rc;
    inferir x;
    memset(&x, 0, sizeof x);
    x.m = &m, x.esc_num = num, x.esc_den = den, x.vacia = vacia, x.sin_abanico = sin_abanico;
    for (size_t i = 0; i < m.nnotas; i++) {
        tx(&x.notas, "#   - ");
        tx_comentario(&x.notas, m.notas[i]);
        tx(&x.notas, "\n");
        fprintf(stderr, "datoteca inferir: not expressed: %s\n", m.notas[i]);
        x.nnotas++;
    }
    inferir_todo(&x);
    txt doc = {0};
    escribir(&x, &doc);
    /* the library is the judge: a document inferir writes must build */
    dt_esquema *e = NULL;
    char juicio[DT_SENTENCE_MAX];
    int aceptado = dt_esquema_new(doc.p, doc.n, DT_ESQUEMA_TOML, "<inferir>", 0, 0, 0, 0, &e, juicio, sizeof juicio) == DT_OK;
    dt_esquema_free(e);
    rc = 0;
    FILE *f = stdout;
    if (salida && (f = fopen(salida, "wb")) == NULL) {
        fprintf(stderr, "datoteca inferir: --salida %s: cannot write it\n", salida);
        rc = 2;
    } else {
        if (fwrite(doc.p, 1, doc.n, f) != doc.n) rc = 1;
        if (f != stdout ? fclose(f) != 0 : fflush(f) != 0) rc = 1;
        if (rc) fprintf(stderr, "datoteca inferir: %s: write error\n", salida ? salida : "stdout");
    }
    if (!aceptado) {
        fprintf(stderr, "datoteca inferir: the document written is refused by the library (a fault of inferir; edit the "
                        "column it names): %s\n", juicio);
        rc = 1;
    }
    free(doc.p);
    inferir_free(&x);
    dt__ic_modelo_free(&m);
    return rc;
}
