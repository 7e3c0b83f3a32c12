/* Proposing masking rules from a sample (docs/enmascarar.md, "Finding the personal data"): every
 * non-empty value of a column is judged by the `detectar` utility (c/src/ns/detectar.c), the counts are
 * kept per column, and the proposal picks one rule per column from them, as TOML. The CLI's
 * `detectar` (CSV, JSONL) and Python's `proponer_reglas` (Arrow, Parquet) feed the same detector, so
 * they propose the same rules for the same values. Nothing of the values is kept or written: only the
 * column names (the user's) and integer counts. */
#include <stdlib.h>

#include "internal.h"
#include "mascara/detector_check.h"
#include "mascara/detector_nombres.h"
#include "mascara/detector_valores.h"
#include "mascara/partido.h"

/* The kinds dt__detectar gives, in the order a column's counts are kept. */
static const char *const dt__clases[] = {"rut", "email", "telefono", "patente", "fecha", "comuna",
                                         "nombre_completo", "nombre", "apellido", "texto"};
#define DT__NCLASES (sizeof dt__clases / sizeof dt__clases[0])
#define DT__CLASE_TEXTO ((int)DT__NCLASES - 1)

/* The signals besides the kind (dt__detectar_senales), in the order their bits go. */
static const char *const dt__senales[] = {"names", "dates", "digit runs", "data in text", "prose"};
#define DT__NSENALES 5

/* Beyond this many columns the pairs (split and derived RUTs) are not looked for: 4 n^2 counters are
 * 32 MB at 1,000 columns. */
#define DT__PARES_MAX 1024

typedef struct dt__dcol {
    char *nombre;
    uint64_t llenos;              /* non-empty values */
    uint64_t cuenta[DT__NCLASES]; /* values of each kind */
    uint64_t senal[DT__NSENALES]; /* values with each signal */
    uint64_t un_cuerpo;           /* values whose one run of digits reads as a RUT body (derivado without de) */
    int tipo;                     /* what its database declares it (dt_detector_tipo): 0, DT_DETECTOR_TIMESTAMP */
    const struct dt_detector *padre; /* a foreign key's column: the detector of the table it references */
    size_t padre_col;                /* ... and the referenced column there (dt_detector_seguir) */
    char *referencia;                /* "clientes.rut", for the comment */
    int pista;                       /* what its name says (DT__DN_*, detector_nombres.c) */
    unsigned restr;                  /* what its database's constraints say: DT_DETECTOR_NO_NULO, DT_DETECTOR_UNICO */
    uint64_t forma[DT__DVV_N];       /* values of each shape (detector_valores.c), bit i of DT__DVV_* */
    uint64_t bcrypt;                 /* values written as a crypt(3) or Django hash ($2b$..., pbkdf2_...) */
    size_t hex_largo;                /* the length every hexadecimal hash had, or (size_t)-1 when they differ */
} dt__dcol;

struct dt_detector {
    dt__dcol *col;
    size_t n;
    uint64_t filas;
    /* per pair (i, j), i * n + j: rows where i is a bare body and j a check digit, and where it is j's;
     * rows where j is a RUT and i is not empty, and where i holds j's body as a run of digits */
    uint64_t *par_ambos, *par_ok, *der_ambos, *der_ok;
    int pares; /* the pairs are counted: n <= DT__PARES_MAX (4 n^2 counters) */
    uint32_t *cuerpo, *rut; /* this row: the bare body of each column, the body of each RUT (0: none) */
    int *dv;                /* this row: the check digit (0..10) each column holds alone, -1 none */
    dt__dc_suma *sumas;     /* the CHECKs that bind a column to a sum of others (dt_detector_check) */
    size_t nsumas;
};

void dt_detector_free(dt_detector *d) {
    if (d == NULL) return;
    for (size_t j = 0; j < d->n; j++) {
        free(d->col[j].nombre);
        free(d->col[j].referencia);
    }
    free(d->col);
    free(d->sumas);
    free(d->par_ambos);
    free(d->par_ok);
    free(d->der_ambos);
    free(d->der_ok);
    free(d->cuerpo);
    free(d->rut);
    free(d->dv);
    free(d);
}

dt_status dt_detector_new(size_t n, const char *const *columnas, const size_t *largos, dt_detector **out) {
    if (out == NULL) return DT_ERR_NULL;
    *out = NULL;
    if (n > 0 && (columnas == NULL || largos == NULL)) return DT_ERR_NULL;
    for (size_t j = 0; j < n; j++)
        if (columnas[j] == NULL && largos[j] > 0) return DT_ERR_NULL;
    dt_detector *d = (dt_detector *)calloc(1, sizeof *d);
    if (d == NULL) return DT_ERR_NO_MEMORY;
    d->col = (dt__dcol *)calloc(n ? n : 1, sizeof *d->col);
    if (d->col == NULL) {
        free(d);
        return DT_ERR_NO_MEMORY;
    }
    d->n = n;
    d->pares = n <= DT__PARES_MAX;
    size_t nn = n && d->pares ? n * n : 1;
    if ( (d->par_ambos = calloc(nn, sizeof(uint64_t))) == NULL || (d->par_ok = calloc(nn, sizeof(uint64_t))) == NULL ||
        (d->der_ambos = calloc(nn, sizeof(uint64_t))) == NULL || (d->der_ok = calloc(nn, sizeof(uint64_t))) == NULL ||
        (d->cuerpo = calloc(n ? n : 1, sizeof(uint32_t))) == NULL || (d->rut = calloc(n ? n : 1, sizeof(uint32_t))) == NULL ||
        (d->dv = calloc(n ? n : 1, sizeof(int))) == NULL) {
        dt_detector_free(d);
        return DT_ERR_NO_MEMORY;
    }
    for (size_t j = 0; j < n; j++) { /* a header line that is data would put a value in the rules file */
        if (dt__parece_dato(columnas[j], largos[j])) {
            dt_detector_free(d);
            return DT_ERR_INVALID_ARG;
        }
    }
    for (size_t j = 0; j < n; j++) {
        d->col[j].nombre = (char *)malloc(largos[j] + 1);
        if (d->col[j].nombre == NULL) {
            dt_detector_free(d);
            return DT_ERR_NO_MEMORY;
        }
        if (largos[j]) memcpy(d->col[j].nombre, columnas[j], largos[j]);
        d->col[j].nombre[largos[j]] = '\0';
        d->col[j].pista = dt__dn_pista(d->col[j].nombre);
    }
    *out = d;
    return DT_OK;
}

dt_status dt_detector_fila(dt_detector *d, size_t n, const char *const *valores, const size_t *largos) {
    if (d == NULL || (n > 0 && (valores == NULL || largos == NULL))) return DT_ERR_NULL;
    if (n != d->n) return DT_ERR_INVALID_ARG;
    for (size_t j = 0; j < n; j++) {
        d->cuerpo[j] = d->rut[j] = 0;
        d->dv[j] = -1;
        if (valores[j] == NULL || largos[j] == 0) continue;
        dt__dcol *c = &d->col[j];
        c->llenos++;
        const char *k = dt__detectar(valores[j], largos[j]);
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (strcmp(k, dt__clases[q]) == 0) c->cuenta[q]++;
        unsigned sen = dt__detectar_senales(valores[j], largos[j]);
        for (unsigned q = 0; q < DT__NSENALES; q++) c->senal[q] += (sen >> q) & 1u;
        unsigned f = dt__dvv_formas(valores[j], largos[j]);
        for (unsigned q = 0; q < DT__DVV_N; q++) c->forma[q] += (f >> q) & 1u;
        if (f & DT__DVV_HASH) {
            if (valores[j][0] == '$' || memchr(valores[j], '$', largos[j])) c->bcrypt++;
            else if (c->hex_largo == 0) c->hex_largo = largos[j];
            else if (c->hex_largo != largos[j]) c->hex_largo = (size_t)-1;
        }
        uint32_t b;
        const char *pq;
        if (dt__mp_buscar(valores[j], largos[j], 0, 0, &b, &pq) == 0) c->un_cuerpo++;
        if (strcmp(k, "rut") == 0 && dt_rut_leer(valores[j], largos[j], &b, NULL) == DT_OK) d->rut[j] = b;
        if (dt__mp_cuerpo_de(valores[j], largos[j], &b) == 0) d->cuerpo[j] = b; /* 1 in 11 bare bodies pass as a RUT too */
        size_t a = 0, z = largos[j];
        while (a < z && valores[j][a] == ' ') a++;
        while (z > a && valores[j][z - 1] == ' ') z--;
        if (z == a + 1) {
            char x = valores[j][a];
            d->dv[j] = x >= '0' && x <= '9' ? x - '0' : x == 'k' || x == 'K' ? 10 : -1;
        }
    }
    for (size_t i = 0; i < n && d->pares; i++) {
        for (size_t j = 0; j < n; j++) {
            if (i == j) continue;
            if (d->cuerpo[i] && d->dv[j] >= 0) {
                char dv = dt__dv(d->cuerpo[i]);
                d->par_ambos[i * n + j]++;
                d->par_ok[i * n + j] += d->dv[j] == (dv == 'K' ? 10 : dv - '0');
            }
            if (d->rut[j] && !d->rut[i] && valores[i] && largos[i]) {
                uint32_t b;
                const char *pq;
                d->der_ambos[i * n + j]++;
                d->der_ok[i * n + j] += dt__mp_buscar(valores[i], largos[i], 1, d->rut[j], &b, &pq) == 0;
            }
        }
    }
    d->filas++;
    return DT_OK;
}

uint64_t dt_detector_filas(const dt_detector *d) { return d ? d->filas : 0; }

dt_status dt_detector_seguir(dt_detector *d, size_t j, const dt_detector *padre, size_t k, const char *referencia) {
    if (d == NULL || padre == NULL || referencia == NULL) return DT_ERR_NULL;
    if (j >= d->n || k >= padre->n) return DT_ERR_INVALID_ARG;
    size_t l = strlen(referencia);
    char *r = (char *)malloc(l + 1);
    if (r == NULL) return DT_ERR_NO_MEMORY;
    memcpy(r, referencia, l + 1);
    free(d->col[j].referencia);
    d->col[j].referencia = r;
    d->col[j].padre = padre;
    d->col[j].padre_col = k;
    return DT_OK;
}

dt_status dt_detector_tipo(dt_detector *d, size_t j, int tipo) {
    if (d == NULL) return DT_ERR_NULL;
    if (j >= d->n || tipo < 0 || tipo > DT_DETECTOR_BOOLEANO) return DT_ERR_INVALID_ARG;
    d->col[j].tipo = tipo;
    return DT_OK;
}

dt_status dt_detector_check(dt_detector *d, const char *texto) {
    if (d == NULL || texto == NULL) return DT_ERR_NULL;
    char **nombres = (char **)malloc((d->n ? d->n : 1) * sizeof *nombres);
    unsigned char *nombradas = (unsigned char *)calloc(d->n ? d->n : 1, 1);
    if (nombres == NULL || nombradas == NULL) {
        free(nombres);
        free(nombradas);
        return DT_ERR_NO_MEMORY;
    }
    for (size_t j = 0; j < d->n; j++) nombres[j] = d->col[j].nombre;
    dt__dc_suma suma;
    dt_status st = DT_OK;
    if (dt__dc_leer(texto, nombres, d->n, nombradas, &suma)) {
        dt__dc_suma *nuevas = (dt__dc_suma *)realloc(d->sumas, (d->nsumas + 1) * sizeof *nuevas);
        if (nuevas == NULL) st = DT_ERR_NO_MEMORY;
        else {
            d->sumas = nuevas;
            d->sumas[d->nsumas++] = suma;
        }
    } else {
        for (size_t j = 0; j < d->n; j++)
            if (nombradas[j]) d->col[j].restr |= DT_DETECTOR_CHECK;
    }
    free(nombres);
    free(nombradas);
    return st;
}

dt_status dt_detector_restricciones(dt_detector *d, size_t j, unsigned restricciones) {
    if (d == NULL) return DT_ERR_NULL;
    if (j >= d->n || (restricciones & ~(unsigned)(DT_DETECTOR_NO_NULO | DT_DETECTOR_UNICO | DT_DETECTOR_CHECK)) != 0)
        return DT_ERR_INVALID_ARG;
    d->col[j].restr = restricciones | (d->col[j].restr & DT_DETECTOR_CHECK);
    return DT_OK;
}

static int dt__contiene(const char *s, const char *t) { return strstr(s, t) != NULL; }

/* `s` holds `t` (ASCII letters compared without case). */
static int dt__contiene_sin_caso(const char *s, const char *t) {
    size_t n = strlen(t);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && ((s[i] | 0x20) == (t[i] | 0x20))) i++;
        if (i == n) return 1;
    }
    return 0;
}

/* A TOML basic string. */
static void dt__toml_texto(dt__creciente *x, const char *s) {
    dt__tx(x, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\') dt__tx(x, "\\%c", *p);
        else if ((unsigned char)*p < 0x20 || *p == 0x7f) dt__tx(x, "\\u%04x", (unsigned)(unsigned char)*p);
        else dt__tx(x, "%c", *p);
    }
    dt__tx(x, "\"");
}

/* A TOML key for a column name: bare when it is letters, digits, '_' and '-', else quoted. */
static void dt__toml_clave(dt__creciente *x, const char *s) {
    int desnuda = *s != '\0';
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-')) desnuda = 0;
    if (desnuda) dt__tx(x, "%s", s);
    else dt__toml_texto(x, s);
}

/* The persona field a column's name says it holds, for the columns whose values the detectar utility
 * cannot tell from other text (an address, a region, a sex, the CUT codes): NULL for none. */
static const char *dt__campo_por_nombre(const char *nombre) {
    if (dt__contiene_sin_caso(nombre, "cod")) { /* codigo_comuna, cod_region: the CUT codes of the persona's address */
        if (dt__contiene_sin_caso(nombre, "comuna")) return "codigo_comuna";
        if (dt__contiene_sin_caso(nombre, "region") || dt__contiene_sin_caso(nombre, "regi\xc3\xb3n")) return "codigo_region";
        return NULL;
    }
    if (dt__contiene_sin_caso(nombre, "direcc") || dt__contiene_sin_caso(nombre, "domicilio")) return "direccion";
    if (dt__contiene_sin_caso(nombre, "region") || dt__contiene_sin_caso(nombre, "regi\xc3\xb3n")) return "region";
    if (dt__contiene_sin_caso(nombre, "sexo") || dt__contiene_sin_caso(nombre, "genero") ||
        dt__contiene_sin_caso(nombre, "g\xc3\xa9nero"))
        return "sexo";
    return NULL;
}

/* An amount by the column's name: its long digit runs are amounts, not identifiers (the rule monto, not
 * proposed here, perturbs them). */
static int dt__es_monto(const char *nombre) {
    static const char *const m[] = {"saldo", "monto", "ingreso", "sueldo", "salario", "renta", "precio", "total",
                                    "cupo", "valor", "importe", "pago", "deuda"};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (dt__contiene_sin_caso(nombre, m[i])) return 1;
    return 0;
}

enum { DT__S_NOMBRE = 0, DT__S_FECHA, DT__S_DIGITOS, DT__S_DATO, DT__S_PROSA };

/* How many of column c's values have the shape f (one DT__DVV_* bit): its counter, found by the bit. */
static uint64_t dt__n(const dt__dcol *c, unsigned f) {
    unsigned q = 0;
    while ((1u << q) != f) q++;
    return c->forma[q];
}

/* Whether a column's name says it holds RUTs or RUT-made numbers (a CuentaRUT account). */
static int dt__nombre_cuerpo(const char *s) {
    return dt__contiene_sin_caso(s, "rut") || dt__contiene_sin_caso(s, "run") || dt__contiene_sin_caso(s, "cuerpo") ||
           dt__contiene_sin_caso(s, "cuenta") || dt__contiene_sin_caso(s, "cta");
}

/* A column with no majority kind and no rule by its name: `mantener` only when no value shows a name,
 * a date, a long digit run or a RUT, email, phone or plate among its words; else the rule that hides
 * what it shows. Returns 2 for mantener with nothing found, 3 for a rule chosen from the signals, 4 for
 * an amount, 16 for plain numbers kept (module 11 at chance), 17 for numbers that are RUTs. */
static int dt__sin_clase(dt__creciente *x, const dt__dcol *c) {
    const uint64_t *s = c->senal;
    int unico = (c->restr & DT_DETECTOR_UNICO) != 0;
    int numeros = c->llenos > 0 && dt__n(c, DT__DVV_NUMERO) == c->llenos; /* every value a plain number */
    if (s[DT__S_PROSA] * 2 > c->llenos || s[DT__S_DATO] > 0) {
        dt__tx(x, "{ regla = \"texto\" }");
        return 3;
    }
    if (s[DT__S_NOMBRE] > 0) { /* names with words around them: a fake full name per value */
        dt__tx(x, unico ? "{ regla = \"formato\" }" : "{ regla = \"sustituir\", llamada = \"persona.nombre_completo\" }");
        return 3;
    }
    if (dt__n(c, DT__DVV_EMAIL) * 2 > c->llenos) { /* emails the Chilean kind does not read: Unicode, IDN */
        dt__tx(x, "{ regla = \"email\" }");
        return 3;
    }
    if (dt__n(c, DT__DVV_IP) * 2 > c->llenos) {
        dt__tx(x, "{ regla = \"ip\" }");
        return 3;
    }
    if (s[DT__S_DIGITOS] > 0 && dt__es_monto(c->nombre) && s[DT__S_FECHA] == 0) {
        dt__tx(x, unico ? "{ regla = \"mantener\" }" : "{ regla = \"monto\", porcentaje = 10 }");
        return unico ? 13 : 4;
    }
    if (numeros && dt__n(c, DT__DVV_ENTERO7) * 2 > c->llenos && dt__n(c, DT__DVV_MOD11) * 10 >= dt__n(c, DT__DVV_ENTERO7) * 9) {
        /* RUTs written as digits alone: 90 % or more pass module 11, where 1 in 11 do by chance */
        dt__tx(x, "{ regla = \"rut\" }");
        return 17;
    }
    int cuerpos = c->tipo != DT_DETECTOR_NUMERO || dt__nombre_cuerpo(c->nombre);
    if (cuerpos && s[DT__S_DIGITOS] > 0 && s[DT__S_FECHA] == 0 && c->un_cuerpo * 2 > c->llenos && !numeros) {
        /* numbers of up to 8 digits in text: permuted as RUT bodies, as the same number is wherever it is */
        dt__tx(x, c->un_cuerpo == c->llenos ? "{ regla = \"derivado\" }" : "{ regla = \"derivado\", otros = \"mantener\" }");
        return 3;
    }
    if (numeros && !(dt__nombre_cuerpo(c->nombre) && c->un_cuerpo * 2 > c->llenos)) {
        /* plain numbers (counts, sizes, codes, amounts by no name): their digits are not an identifier when
         * no more pass module 11 than chance gives */
        dt__tx(x, "{ regla = \"mantener\" }");
        return 16;
    }
    if (numeros) {
        dt__tx(x, c->un_cuerpo == c->llenos ? "{ regla = \"derivado\" }" : "{ regla = \"derivado\", otros = \"mantener\" }");
        return 3;
    }
    if (c->tipo == DT_DETECTOR_UUID && s[DT__S_NOMBRE] == 0 && s[DT__S_DATO] == 0 && s[DT__S_PROSA] == 0) {
        /* a uuid column by its database's type: a generated identifier, kept as integer keys are (its digit
         * runs are not a person's number) */
        dt__tx(x, "{ regla = \"mantener\" }");
        return 9;
    }
    if (c->tipo == DT_DETECTOR_TIMESTAMP && s[DT__S_FECHA] * 2 > c->llenos && s[DT__S_NOMBRE] == 0) {
        /* a timestamp column by its database's type: a fake timestamp per value (a NOT NULL column stays
         * filled, and the same time masks the same in every table) */
        dt__tx(x, unico ? "{ regla = \"mantener\" }" : "{ regla = \"sustituir\", llamada = \"fecha.fecha_hora\" }");
        return unico ? 13 : 7;
    }
    if (dt__n(c, DT__DVV_HASH) * 2 > c->llenos) { /* hashes: nobody's, but they identify a user across copies */
        dt__tx(x, "{ regla = \"formato\" }");
        return 3;
    }
    if (s[DT__S_DIGITOS] > 0 || s[DT__S_FECHA] > 0 || s[DT__S_PROSA] > 0) {
        /* long numbers that are not bodies, dates in a column that is not one of dates: their digits and
         * letters replaced under the key, the form kept (the column's type and NOT NULL hold) */
        dt__tx(x, s[DT__S_DIGITOS] > 0 || s[DT__S_FECHA] > 0 ? "{ regla = \"formato\" }" : "{ regla = \"texto\" }");
        return 3;
    }
    dt__tx(x, "{ regla = \"mantener\" }");
    return 2;
}

static void dt__persona(dt__creciente *x, const char *campo, const char *entidad) {
    dt__tx(x, "{ regla = \"persona\", campo = \"%s\", entidad = ", campo);
    dt__toml_texto(x, entidad);
    dt__tx(x, " }");
}

/* The rule for a column whose values are mostly of kind `clase` (-1 for none), with the entity column
 * (the first mostly-RUT one) when there is one. Returns 1 when the column's name chose it. */
static int dt__regla(dt__creciente *x, const dt__dcol *c, int clase, const char *entidad) {
    const char *k = clase >= 0 ? dt__clases[clase] : "";
    const char *por_nombre = clase < 0 && entidad ? dt__campo_por_nombre(c->nombre) : NULL;
    if (por_nombre) {
        dt__persona(x, por_nombre, entidad);
        return 1;
    }
    const char *campo = NULL;    /* the persona field, with an entity */
    const char *llamada = NULL;  /* the call a value-keyed substitution draws from, without one */
    if (strcmp(k, "email") == 0) campo = "email";
    else if (strcmp(k, "telefono") == 0) campo = "telefono";
    else if (strcmp(k, "nombre_completo") == 0) campo = "nombre_completo", llamada = "persona.nombre_completo";
    else if (strcmp(k, "nombre") == 0) campo = "nombres", llamada = "persona.nombres";
    else if (strcmp(k, "apellido") == 0)
        campo = dt__contiene(c->nombre, "materno") ? "apellido_materno" : "apellido_paterno", llamada = "persona.apellido";
    else if (strcmp(k, "comuna") == 0) campo = "comuna", llamada = "direccion.comuna";
    else if (strcmp(k, "fecha") == 0 && dt__contiene(c->nombre, "nac")) campo = "fecha_nacimiento";
    if (strcmp(k, "rut") == 0) dt__tx(x, "{ regla = \"rut\" }");
    else if (campo && entidad) dt__persona(x, campo, entidad);
    else if (strcmp(k, "email") == 0 || strcmp(k, "telefono") == 0 || strcmp(k, "patente") == 0 || strcmp(k, "texto") == 0)
        dt__tx(x, "{ regla = \"%s\" }", k);
    else if (llamada) dt__tx(x, "{ regla = \"sustituir\", llamada = \"%s\" }", llamada);
    else if (strcmp(k, "fecha") == 0 && entidad) {
        dt__tx(x, "{ regla = \"fecha\", dias = 30, entidad = ");
        dt__toml_texto(x, entidad);
        dt__tx(x, " }");
    } else if (strcmp(k, "fecha") == 0) dt__tx(x, "{ regla = \"fecha\", dias = 30 }");
    else return dt__sin_clase(x, c);
    return 0;
}

static int dt__nombre_dv(const char *s) {
    return dt__contiene_sin_caso(s, "dv") || dt__contiene_sin_caso(s, "digito") || dt__contiene_sin_caso(s, "d\xc3\xadgito") ||
           dt__contiene_sin_caso(s, "verificador");
}
static int dt__nombre_rut(const char *s) {
    return dt__contiene_sin_caso(s, "rut") || dt__contiene_sin_caso(s, "run") || dt__contiene_sin_caso(s, "cuerpo");
}

/* What the proposal of every column rests on: each column's majority kind, the split RUT pairs, the
 * derived identifiers, the entity. */
typedef struct dt__analisis {
    int *clase;
    size_t *dv_de, *cuerpo_de, *de;
    const char *entidad;
    const char *comuna; /* the first column of comunas (by its values or its name), for sigue */
    int personas;       /* the table's name says its rows are people (detector_nombres.c) */
} dt__analisis;

static void dt__analisis_free(dt__analisis *a) {
    free(a->clase);
    free(a->dv_de);
    free(a->cuerpo_de);
    free(a->de);
}

static dt_status dt__analizar(const dt_detector *d, dt__analisis *a) {
    size_t n = d->n, m = n ? n : 1;
    memset(a, 0, sizeof *a);
    int *clase = a->clase = (int *)malloc(m * sizeof *clase);
    size_t *dv_de = a->dv_de = (size_t *)malloc(m * sizeof *dv_de), *cuerpo_de = a->cuerpo_de = (size_t *)malloc(m * sizeof *cuerpo_de),
           *de = a->de = (size_t *)malloc(m * sizeof *de);
    if (clase == NULL || dv_de == NULL || cuerpo_de == NULL || de == NULL) {
        dt__analisis_free(a);
        return DT_ERR_NO_MEMORY;
    }
    const char *entidad = NULL;
    for (size_t j = 0; j < n; j++) {
        /* the kind of most non-empty values; else free text when 1 % of them or more are words holding
         * a RUT, an email or a phone (a number alone that happens to pass a RUT's check, as 1 in 11
         * do, is not) */
        const dt__dcol *c = &d->col[j];
        int mejor = -1;
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (c->cuenta[q] * 2 > c->llenos && (mejor < 0 || c->cuenta[q] > c->cuenta[mejor])) mejor = (int)q;
        uint64_t textos = c->cuenta[DT__CLASE_TEXTO];
        if (mejor < 0 && textos > 0 && textos * 100 >= c->llenos) mejor = DT__CLASE_TEXTO;
        clase[j] = mejor;
        if (mejor == 0 && entidad == NULL) entidad = c->nombre;
        dv_de[j] = cuerpo_de[j] = de[j] = (size_t)-1;
    }
    /* a RUT split in two columns: the check digit column j is the mod-11 digit of the body column i in
     * 99 % of the rows with both (10 rows at least), or in 90 % (1 row at least) when either name says
     * so (rut, run, cuerpo; dv, digito, verificador) */
    for (size_t j = 0; j < n && d->pares; j++) {
        size_t mejor = (size_t)-1;
        for (size_t i = 0; i < n; i++) {
            uint64_t ambos = d->par_ambos[i * n + j], ok = d->par_ok[i * n + j];
            int nombres = dt__nombre_dv(d->col[j].nombre) || dt__nombre_rut(d->col[i].nombre);
            int si = ambos > 0 && ((ambos >= 10 && ok * 100 >= ambos * 99) || (nombres && ok * 10 >= ambos * 9));
            if (si && dv_de[i] == (size_t)-1 && cuerpo_de[i] == (size_t)-1 && (mejor == (size_t)-1 || ok > d->par_ok[mejor * n + j]))
                mejor = i;
        }
        if (mejor != (size_t)-1 && cuerpo_de[j] == (size_t)-1 && dv_de[j] == (size_t)-1) {
            dv_de[mejor] = j;
            cuerpo_de[j] = mejor;
        }
    }
    for (size_t j = 0; j < n && entidad == NULL; j++) /* no formatted RUT: a split one is the entity */
        if (dv_de[j] != (size_t)-1) entidad = d->col[j].nombre;
    /* an identifier made from a RUT body: column i holds the body of the RUT column j (as a whole run of
     * digits) in 90 % of the rows with both: derivado with de; in 2 rows or more but fewer than 90 %
     * (a CuentaRUT among other accounts): derivado without de, other values kept */
    for (size_t i = 0; i < n && d->pares; i++) {
        if (clase[i] == 0 || dv_de[i] != (size_t)-1 || cuerpo_de[i] != (size_t)-1) continue;
        for (size_t j = 0; j < n; j++)
            if (clase[j] == 0 && d->der_ok[i * n + j] >= 2 && (de[i] == (size_t)-1 || d->der_ok[i * n + j] > d->der_ok[i * n + de[i]]))
                de[i] = j;
        /* a column of another kind (a code a phone pattern also reads) is derived only when nearly all are */
        if (de[i] != (size_t)-1 && clase[i] >= 0 && d->der_ok[i * n + de[i]] * 10 < d->der_ambos[i * n + de[i]] * 9) de[i] = (size_t)-1;
    }
    a->entidad = entidad;
    /* a table with two columns or more whose names say a person's data (an email, a phone, a document, a
     * birth date, an address, a username), or with RUTs, is a table of people: its bare `name` is theirs */
    size_t de_personas = 0;
    for (size_t j = 0; j < n; j++) {
        int p = d->col[j].pista;
        de_personas += p == DT__DN_EMAIL || p == DT__DN_TELEFONO || p == DT__DN_DOCUMENTO || p == DT__DN_NACIMIENTO ||
                       p == DT__DN_DIRECCION || p == DT__DN_USUARIO || p == DT__DN_NOMBRE || p == DT__DN_APELLIDO;
    }
    a->personas = de_personas >= 2 || entidad != NULL;
    for (size_t j = 0; j < n && a->comuna == NULL; j++)
        if ((clase[j] >= 0 && strcmp(dt__clases[clase[j]], "comuna") == 0) || d->col[j].pista == DT__DN_COMUNA)
            a->comuna = d->col[j].nombre;
    return DT_OK;
}

/* A fixed hash of the password "datoteca" in the form the column's hashes have, so a masked copy's
 * users can all log in with one known password (docs/enmascarar.md, "Passwords"); NULL: no form known. */
static const char *dt__hash_de_prueba(const dt__dcol *c) {
    if (c->bcrypt * 2 > c->llenos) return "$2b$10$datotecadatotecadatotebKW1IPHbmSlM6STMR34/LIdgmNzKGvC";
    if (c->hex_largo == 32) return "72a635315900b6edb7d0c8775bb35e60";                                 /* MD5 */
    if (c->hex_largo == 40) return "e42171e081de0a1923cf926659cc24a06c234b9c";                         /* SHA-1 */
    if (c->hex_largo == 64) return "861ccf7dd0a5aad05dafd1aaccf3d43349948ef165124c526c43031dd741660f"; /* SHA-256 */
    return NULL;
}

/* Whether most sampled values have shape f, or nothing was sampled. */
static int dt__forma(const dt__dcol *c, unsigned f) { return c->llenos == 0 || dt__n(c, f) * 2 > c->llenos; }

/* The rule a column's name asks for (detector_nombres.c), when its type and values do not say
 * otherwise; the reason's code (10 by the name, 11 nothing sampled, 12 by type, 13 a key's column, 14
 * NOT NULL), or -1 to let the values decide. */
static int dt__por_pista(dt__creciente *x, const dt__dcol *c, const dt__analisis *a, int clase) {
    int p = c->pista, vacio = c->llenos == 0, unico = (c->restr & DT_DETECTOR_UNICO) != 0;
    int no_nulo = (c->restr & DT_DETECTOR_NO_NULO) != 0, t = c->tipo;
    int numero = t == DT_DETECTOR_NUMERO || (!vacio && dt__n(c, DT__DVV_NUMERO) == c->llenos);
    if (t == DT_DETECTOR_BOOLEANO || t == DT_DETECTOR_UUID) return -1;
    if (t == DT_DETECTOR_BINARIO || p == DT__DN_FOTO) {
        if (t != DT_DETECTOR_BINARIO && !vacio && p == DT__DN_FOTO && dt__n(c, DT__DVV_BINARIO) == 0) { /* a photo's path or URL */
            dt__tx(x, "{ regla = \"formato\" }");
            return 10;
        }
        if (!vacio && dt__n(c, DT__DVV_IMAGEN) * 2 > c->llenos) { /* images: a placeholder of each one's format */
            dt__tx(x, "{ regla = \"imagen\" }");
            return 20;
        }
        dt__tx(x, no_nulo ? "{ regla = \"constante\", valor = \"\" }" : "{ regla = \"nulo\" }");
        return no_nulo ? 14 : 12;
    }
    const char *campo = NULL, *llamada = NULL;
    switch (p) {
    case DT__DN_NOMBRE: campo = "nombres", llamada = "persona.nombres"; break;
    case DT__DN_APELLIDO:
        campo = dt__contiene_sin_caso(c->nombre, "materno") ? "apellido_materno" : "apellido_paterno", llamada = "persona.apellido";
        break;
    case DT__DN_NOMBRE_COMPLETO: campo = "nombre_completo", llamada = "persona.nombre_completo"; break;
    case DT__DN_NOMBRE_SOLO:
        if (!a->personas) return -1; /* a product's or a band's name: the values decide */
        campo = "nombre_completo", llamada = "persona.nombre_completo";
        break;
    default: break;
    }
    if (llamada) {
        if (numero || (!vacio && dt__n(c, DT__DVV_NOMBRE) * 2 <= c->llenos && clase < 0 && c->senal[0] == 0)) return -1;
        if (a->entidad && strcmp(a->entidad, c->nombre) != 0) dt__persona(x, campo, a->entidad);
        else dt__tx(x, unico ? "{ regla = \"formato\" }" : "{ regla = \"sustituir\", llamada = \"%s\" }", llamada);
        return vacio ? 11 : 10;
    }
    switch (p) {
    case DT__DN_USUARIO:
        if (numero) return -1;
        dt__tx(x, "{ regla = \"formato\" }");
        return vacio ? 11 : 10;
    case DT__DN_DOCUMENTO:
    case DT__DN_POSTAL:
        dt__tx(x, "{ regla = \"formato\" }");
        return vacio ? 11 : 10;
    case DT__DN_TELEFONO:
        if (t == DT_DETECTOR_FECHA || t == DT_DETECTOR_TIMESTAMP || !dt__forma(c, DT__DVV_TELEFONO)) return -1;
        if (a->entidad) dt__persona(x, "telefono", a->entidad);
        else dt__tx(x, "{ regla = \"telefono\" }");
        return vacio ? 11 : 10;
    case DT__DN_EMAIL:
        if (numero || !dt__forma(c, DT__DVV_EMAIL)) return -1;
        if (a->entidad) dt__persona(x, "email", a->entidad);
        else dt__tx(x, "{ regla = \"email\" }");
        return vacio ? 11 : 10;
    case DT__DN_DIRECCION:
        if (numero) return -1;
        if (a->entidad) dt__persona(x, "direccion", a->entidad);
        else dt__tx(x, unico ? "{ regla = \"formato\" }" : "{ regla = \"sustituir\", llamada = \"direccion.calle\" }");
        return vacio ? 11 : 10;
    case DT__DN_NACIMIENTO:
        if (unico) return -1;
        if (a->entidad) dt__persona(x, "fecha_nacimiento", a->entidad);
        else dt__tx(x, "{ regla = \"fecha\", dias = 30 }");
        return vacio ? 11 : 10;
    case DT__DN_IP:
        dt__tx(x, dt__forma(c, DT__DVV_IP) ? "{ regla = \"ip\" }" : "{ regla = \"formato\" }");
        return vacio ? 11 : 10;
    case DT__DN_COORDENADA:
        if (!numero && !vacio) return -1;
        dt__tx(x, dt__forma(c, DT__DVV_COORDENADA) && !unico ? "{ regla = \"coordenada\" }" : "{ regla = \"formato\" }");
        return vacio ? 11 : 10;
    case DT__DN_CLAVE: {
        const char *h = dt__hash_de_prueba(c);
        if (unico) dt__tx(x, "{ regla = \"formato\" }");
        else if (h) dt__tx(x, "{ regla = \"constante\", valor = \"%s\" }", h);
        else if (vacio || dt__n(c, DT__DVV_HASH) * 2 <= c->llenos) dt__tx(x, "{ regla = \"constante\", valor = \"datoteca\" }");
        else dt__tx(x, "{ regla = \"formato\" }");
        return vacio ? 11 : 10;
    }
    case DT__DN_NOTA:
        if (numero) return -1;
        dt__tx(x, "{ regla = \"texto\" }");
        return vacio ? 11 : 10;
    case DT__DN_MONTO:
        if (!numero && !(vacio && t == 0)) return -1;
        if (unico) {
            dt__tx(x, "{ regla = \"mantener\" }");
            return 13;
        }
        dt__tx(x, "{ regla = \"monto\", porcentaje = 10 }");
        return vacio ? 11 : 10;
    case DT__DN_CODIGO_COMUNA:
    case DT__DN_CODIGO_REGION:
    case DT__DN_REGION:
    case DT__DN_PROVINCIA:
        if (a->comuna == NULL || strcmp(a->comuna, c->nombre) == 0 || a->entidad) return -1;
        dt__tx(x, "{ regla = \"sigue\", de = ");
        dt__toml_texto(x, a->comuna);
        dt__tx(x, ", campo = \"%s\" }", p == DT__DN_CODIGO_COMUNA ? "codigo_comuna" : p == DT__DN_CODIGO_REGION ? "codigo_region"
                                        : p == DT__DN_REGION ? "region" : "provincia");
        return 15;
    default: break;
    }
    if (!vacio) return -1;
    /* nothing sampled and nothing in the name: its type decides, and text is searched (texto) */
    if (t == DT_DETECTOR_FECHA) dt__tx(x, "{ regla = \"fecha\", dias = 30 }");
    else if (t == DT_DETECTOR_TIMESTAMP) dt__tx(x, "{ regla = \"sustituir\", llamada = \"fecha.fecha_hora\" }");
    else if (t == DT_DETECTOR_NUMERO && (unico || p == DT__DN_ID)) {
        dt__tx(x, "{ regla = \"mantener\" }");
        return 13;
    } else if (t == DT_DETECTOR_NUMERO) dt__tx(x, "{ regla = \"monto\", porcentaje = 10 }");
    else if (p == DT__DN_ID && unico) {
        dt__tx(x, "{ regla = \"mantener\" }");
        return 13;
    } else dt__tx(x, unico ? "{ regla = \"formato\" }" : "{ regla = \"texto\" }");
    return 11;
}

/* Column j's rule (`{ ... }`) into x as the detector proposes it, without its comment: the reason's
 * code (0 by kind, 1 by name, 2 nothing found, 3 by signals, 4 an amount, 5 a split RUT, 6 derived,
 * 7 a timestamp), or -1 for a check digit column, which has no rule of its own. */
static int dt__regla_de(const dt_detector *d, const dt__analisis *a, size_t j, dt__creciente *x) {
    size_t n = d->n;
    const dt__dcol *c = &d->col[j];
    if (a->cuerpo_de[j] != (size_t)-1) return -1;
    if (a->dv_de[j] != (size_t)-1) {
        dt__tx(x, "{ regla = \"rut\", dv = ");
        dt__toml_texto(x, d->col[a->dv_de[j]].nombre);
        dt__tx(x, " }");
        return 5;
    }
    if (a->de[j] != (size_t)-1) {
        uint64_t am = d->der_ambos[j * n + a->de[j]], ok = d->der_ok[j * n + a->de[j]];
        if (ok * 10 >= am * 9) {
            dt__tx(x, "{ regla = \"derivado\", de = ");
            dt__toml_texto(x, d->col[a->de[j]].nombre);
            dt__tx(x, " }");
        } else {
            dt__tx(x, c->un_cuerpo == c->llenos ? "{ regla = \"derivado\" }" : "{ regla = \"derivado\", otros = \"mantener\" }");
        }
        return 6;
    }
    int clase = a->clase[j];
    const char *k = clase >= 0 ? dt__clases[clase] : "";
    /* a Chilean identifier by its values wins over the name (rut, email, telefono, patente) */
    int fuerte = strcmp(k, "rut") == 0 || strcmp(k, "email") == 0 || strcmp(k, "telefono") == 0 || strcmp(k, "patente") == 0;
    if (!fuerte) {
        int r = dt__por_pista(x, c, a, clase);
        if (r >= 0) return r;
    }
    return dt__regla(x, c, clase, a->entidad);
}

/* Whether a rule's text masks a value by the value alone (no entidad, de or dv naming a column of its
 * row): the rule a foreign key's column can take from the column it references. */
static int dt__por_valor(const char *regla) {
    return strstr(regla, "entidad =") == NULL && strstr(regla, " de =") == NULL && strstr(regla, " dv =") == NULL &&
           strstr(regla, "\"persona\"") == NULL;
}

/* The sum a CHECK binds column j to, when its terms are columns of their own (none bound by another sum,
 * which would need an order between them), or NULL. */
static const dt__dc_suma *dt__suma_de(const dt_detector *d, size_t j) {
    for (size_t i = 0; i < d->nsumas; i++) {
        if (d->sumas[i].ligada != j) continue;
        int libre = 1;
        for (size_t t = 0; t < d->sumas[i].n; t++)
            for (size_t o = 0; o < d->nsumas; o++)
                if (d->sumas[o].ligada == d->sumas[i].t[t].columna) libre = 0;
        if (libre) return &d->sumas[i];
    }
    return NULL;
}

/* The proposal into buf: the whole document (tabla NULL: the head comment naming origen, version and
 * [columnas]) or one table's section of a database document ([tablas.<tabla>.columnas] and a comment). */
static dt_status dt__detector_escribir(const dt_detector *d, const char *origen, const char *tabla, char *buf, size_t cap,
                                       size_t *len) {
    if (d == NULL || (buf == NULL && cap > 0)) return DT_ERR_NULL;
    size_t n = d->n;
    dt__analisis a;
    if (dt__analizar(d, &a) != DT_OK) return DT_ERR_NO_MEMORY;
    a.personas = a.personas || dt__dn_tabla_personas(tabla);
    const size_t *dv_de = a.dv_de, *cuerpo_de = a.cuerpo_de, *de = a.de;
    dt__creciente x = {NULL, 0, 0, 0};
    if (tabla == NULL) {
        dt__tx(&x, "# datoteca detectar %s: %llu records read, %zu columns.\n", origen ? origen : "<sample>",
               (unsigned long long)d->filas, n);
        dt__tx(&x, "# Proposed masking rules (docs/enmascarar.md): review each before use. After each rule, the kinds\n"
                   "# its non-empty values look like, as counts.\n");
        dt__tx(&x, "version = 1\n\n[columnas]\n");
    } else {
        dt__tx(&x, "[tablas.");
        dt__toml_clave(&x, tabla);
        dt__tx(&x, ".columnas]  # %llu rows sampled, %zu columns\n", (unsigned long long)d->filas, n);
    }
    for (size_t j = 0; j < n; j++) {
        const dt__dcol *c = &d->col[j];
        if (cuerpo_de[j] != (size_t)-1) { /* no rule of its own: the body's rule writes it */
            dt__tx(&x, "# ");
            dt__toml_clave(&x, c->nombre);
            dt__tx(&x, ": the check digit of ");
            dt__toml_clave(&x, d->col[cuerpo_de[j]].nombre);
            dt__tx(&x, ", written by its rule (%llu of %llu rows match)", (unsigned long long)d->par_ok[cuerpo_de[j] * n + j],
                   (unsigned long long)d->par_ambos[cuerpo_de[j] * n + j]);
            dt__tx(&x, "\n");
            continue;
        }
        dt__toml_clave(&x, c->nombre);
        dt__tx(&x, " = ");
        /* a foreign key's column takes the rule of the column it references when that rule masks by the
         * value alone: the same value masks the same in both tables, so the join holds */
        int sigue = 0;
        dt__creciente padre = {NULL, 0, 0, 0};
        if (c->padre != NULL) {
            dt__analisis pa;
            if (dt__analizar(c->padre, &pa) != DT_OK) padre.sin_memoria = 1;
            else {
                int r = dt__regla_de(c->padre, &pa, c->padre_col, &padre);
                dt__analisis_free(&pa);
                sigue = r >= 0 && padre.p && !padre.sin_memoria ? (dt__por_valor(padre.p) ? 1 : 2) : 2;
            }
            if (padre.sin_memoria) x.sin_memoria = 1;
        }
        int por;
        const dt__dc_suma *suma = NULL;
        if (sigue == 1) {
            dt__tx(&x, "%s", padre.p);
            por = 8;
        } else if ((suma = dt__suma_de(d, j)) != NULL) {
            dt__tx(&x, "{ regla = \"suma\", de = [");
            int primero = 1;
            for (size_t t = 0; t < suma->n; t++)
                if (suma->t[t].signo > 0) {
                    dt__tx(&x, primero ? "" : ", ");
                    dt__toml_texto(&x, d->col[suma->t[t].columna].nombre);
                    primero = 0;
                }
            dt__tx(&x, "]");
            primero = 1;
            for (size_t t = 0; t < suma->n; t++)
                if (suma->t[t].signo < 0) {
                    dt__tx(&x, primero ? ", menos = [" : ", ");
                    dt__toml_texto(&x, d->col[suma->t[t].columna].nombre);
                    primero = 0;
                }
            dt__tx(&x, primero ? " }" : "] }");
            por = 19;
        } else {
            dt__creciente r = {NULL, 0, 0, 0};
            por = dt__regla_de(d, &a, j, &r);
            if (r.sin_memoria) x.sin_memoria = 1;
            /* a column of a sum whose bound column cannot be computed (a chain of sums) is kept as a CHECK's */
            int en_cadena = 0;
            for (size_t i = 0; i < d->nsumas; i++) {
                int es_termino = d->sumas[i].ligada == j;
                for (size_t t = 0; t < d->sumas[i].n; t++) es_termino |= d->sumas[i].t[t].columna == j;
                if (es_termino && dt__suma_de(d, d->sumas[i].ligada) == NULL) en_cadena = 1;
            }
            if (((c->restr & DT_DETECTOR_CHECK) || en_cadena) && r.p &&
                (strstr(r.p, "\"monto\"") || strstr(r.p, "\"fecha\"") || strstr(r.p, "fecha.fecha_hora"))) {
                /* noise per cell could leave the range a CHECK allows (neto BETWEEN 1000 AND 900000) */
                dt__tx(&x, "{ regla = \"mantener\" }");
                por = 18;
            } else if (r.p && (c->restr & DT_DETECTOR_UNICO) && strcmp(r.p, "{ regla = \"telefono\" }") == 0) {
                /* a phone in a key: the permutation's valid numbers stay distinct, the unassigned block may not */
                dt__tx(&x, "{ regla = \"telefono\", realista = true }");
            } else if (r.p) dt__tx(&x, "%s", r.p);
            free(r.p);
        }
        dt__tx(&x, "  # %llu non-empty", (unsigned long long)c->llenos);
        for (size_t q = 0; q < DT__NCLASES; q++)
            if (c->cuenta[q]) dt__tx(&x, ", %s %llu", dt__clases[q], (unsigned long long)c->cuenta[q]);
        for (size_t q = 0; q < DT__NSENALES; q++)
            if (c->senal[q]) dt__tx(&x, ", %s %llu", dt__senales[q], (unsigned long long)c->senal[q]);
        if (por == 1) dt__tx(&x, ": by the column's name");
        else if (por == 2) dt__tx(&x, ": nothing personal found");
        else if (por == 4) dt__tx(&x, ": an amount by the column's name: per-cell noise (monto), so a known balance links to nobody");
        else if (por == 7) dt__tx(&x, ": a timestamp column, as its database declares it");
        else if (por == 9) dt__tx(&x, ": a uuid column, as its database declares it: an identifier, kept");
        else if (por == 10) dt__tx(&x, ": by the column's name and its values");
        else if (por == 11) dt__tx(&x, ": nothing sampled, so by its name and type (private by default: review when rows come)");
        else if (por == 12) dt__tx(&x, ": binary data (a photo, a file), emptied");
        else if (por == 13) dt__tx(&x, ": part of a PRIMARY KEY or UNIQUE constraint, kept so the key holds: review");
        else if (por == 14) dt__tx(&x, ": binary data in a NOT NULL column, written empty");
        else if (por == 15) dt__tx(&x, ": follows the masked comuna of its row");
        else if (por == 20) dt__tx(&x, ": images, each replaced by a one-pixel placeholder of its format");
        else if (por == 19) dt__tx(&x, ": a CHECK makes it the sum of its row's columns, so computed from their masked values");
        else if (por == 18) dt__tx(&x, ": named in a CHECK constraint, so kept (noise per cell could break it): review, it may link");
        else if (por == 16 && dt__n(c, DT__DVV_ENTERO7) == 0) dt__tx(&x, ": plain numbers, not identifiers");
        else if (por == 16)
            dt__tx(&x, ": plain numbers, not identifiers (%llu of %llu of 7 to 9 digits pass module 11, as 1 in 11 do by chance)",
                   (unsigned long long)dt__n(c, DT__DVV_MOD11), (unsigned long long)dt__n(c, DT__DVV_ENTERO7));
        else if (por == 17)
            dt__tx(&x, ": RUTs written as digits alone (%llu of %llu pass module 11)", (unsigned long long)dt__n(c, DT__DVV_MOD11),
                   (unsigned long long)dt__n(c, DT__DVV_ENTERO7));
        else if (por == 5)
            dt__tx(&x, ": a RUT body; its check digit column matches in %llu of %llu rows",
                   (unsigned long long)d->par_ok[j * n + dv_de[j]], (unsigned long long)d->par_ambos[j * n + dv_de[j]]);
        else if (por == 6)
            dt__tx(&x, ": %llu of %llu values hold their row's RUT body", (unsigned long long)d->der_ok[j * n + de[j]],
                   (unsigned long long)d->der_ambos[j * n + de[j]]);
        if (sigue == 1) dt__tx(&x, ": a FOREIGN KEY to %s, so its rule (the join holds)", c->referencia);
        else if (sigue == 2)
            dt__tx(&x, "; a FOREIGN KEY to %s, whose rule needs a column of its own row: review, the join may not hold",
                   c->referencia);
        dt__tx(&x, "\n");
        free(padre.p);
    }
    dt__analisis_free(&a);
    if (x.sin_memoria) {
        free(x.p);
        return DT_ERR_NO_MEMORY;
    }
    dt_status st = dt__copy_out(x.p ? x.p : "", x.n, buf, cap, len);
    free(x.p);
    return st;
}

dt_status dt_detector_reglas(const dt_detector *d, const char *origen, char *buf, size_t cap, size_t *len) {
    return dt__detector_escribir(d, origen, NULL, buf, cap, len);
}

dt_status dt_detector_reglas_tabla(const dt_detector *d, const char *tabla, char *buf, size_t cap, size_t *len) {
    if (d == NULL || tabla == NULL) return DT_ERR_NULL;
    if (*tabla == '\0') return DT_ERR_INVALID_ARG;
    return dt__detector_escribir(d, NULL, tabla, buf, cap, len);
}
