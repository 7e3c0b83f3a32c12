/* The masking rules document, the persona of an entity, and a plan that applies the rules one row
 * at a time (docs/enmascarar.md). The document is read by the schema layer's parser
 * (esquema/documento.h) and checked only here, so every runtime accepts and refuses the same rules
 * with the same sentences. No sentence here ever carries a data value or any part of the key: rows
 * and columns are named by number and by the column's name (which is the user's own rules text). */
#include <stdio.h>
#include <stdlib.h>

#include "esquema/documento.h"
#include "esquema/documento_interno.h"
#include "internal.h"
#include "mascara/mascara.h"
#include "mascara/partido.h"
#include "mascara/propios.h"
#include "ref/tablas.gen.h"

typedef enum dt__mr_regla { DT__MR_RUT = 1, DT__MR_PERSONA, DT__MR_MANTENER, DT__MR_NULO, DT__MR_BORRAR,
                               DT__MR_FECHA, DT__MR_MONTO, DT__MR_SUSTITUIR,
                               DT__MR_VALOR /* email, telefono, patente, texto: mascara_identificadores.c, mascara_texto.c */,
                               DT__MR_DERIVADO /* mascara_partido.c */,
                               DT__MR_CONSTANTE /* one text for every value: a password's test hash */,
                               DT__MR_SIGUE /* a comuna's code, region or province from the masked comuna */,
                               DT__MR_SUMA /* the sum of other columns' masked values: a CHECK's bound column */ } dt__mr_regla;

#define DT__MR_SUMA_MAX 16

/* What sigue writes of the comuna its column `de` holds after masking. */
static const char *const dt__mr_sigue_campos[] = {"codigo_comuna", "codigo_region", "region", "provincia"};
typedef enum dt__mr_invalido { DT__MR_ERROR = 0, DT__MR_VACIO, DT__MR_INVALIDO } dt__mr_invalido;

/* The persona fields a column may take, in dt_persona's order. */
static const char *const dt__mr_campos[] = {"nombres", "apellido_paterno", "apellido_materno", "nombre_completo",
                                            "email", "telefono", "direccion", "comuna", "region",
                                            "fecha_nacimiento", "sexo", "codigo_comuna", "codigo_region"};
#define DT__MR_NCAMPOS (sizeof dt__mr_campos / sizeof dt__mr_campos[0])
#define DT__MR_LISTA_CAMPOS                                                                                          \
    "nombres, apellido_paterno, apellido_materno, nombre_completo, email, telefono, direccion, comuna, region, " \
    "fecha_nacimiento, sexo, codigo_comuna, codigo_region"

typedef struct dt__mr_col {
    char *nombre;
    size_t largo;
    dt__mr_regla regla;
    int campo;       /* persona: index in dt__mr_campos */
    size_t entidad;  /* persona: index of the entity column in the rules */
    /* fecha, monto, sustituir and persona's sexo (docs/enmascarar.md) */
    int con_entidad, con_sexo; /* fecha, monto: entidad given; persona: sexo given */
    size_t sexo;               /* persona: index of the original sex column in the rules */
    int32_t parametro;         /* fecha: dias; monto: porcentaje */
    int32_t grado;             /* fecha: generalizar (DT__MV_DIA, _MES, _ANIO); monto: cifras */
    int conserva;              /* fecha, monto: the per-entity form, opted into by conserva */
    int realista;              /* persona's email and telefono: the generated, reachable ones */
    size_t llamada;            /* sustituir: the call's index */
    int tipo;        /* DT__MR_VALOR: DT__MC_EMAIL, _TELEFONO, _PATENTE or _TEXTO */
    unsigned buscar; /* texto: DT_MASCARA_BUSCAR_* */
    char *dv;        /* rut over a bare body: the name of its check digit column (mascara_partido.c), else NULL */
    size_t dv_largo;
    int otros_mantener; /* derivado: a value without the body is kept (otros = "mantener") */
    char *valor;        /* constante: the text written for every non-empty value */
    size_t valor_largo;
    char *de;           /* sigue: the comuna column it follows */
    size_t de_largo;
    char *terminos[DT__MR_SUMA_MAX]; /* suma: the columns added (signo +1) and subtracted (-1) */
    size_t terminos_largo[DT__MR_SUMA_MAX];
    int signos[DT__MR_SUMA_MAX];
    size_t nterminos;
} dt__mr_col;

struct dt_mascara_reglas {
    dt__mr_col *col;
    size_t n;
    dt__mr_invalido invalido;
    int sin_regla_mantener;
    char *archivo;
    char *seccion; /* where the columns' rules are, as sentences name it: "columnas", "tablas.clientes.columnas" */
};

static char *dt__mr_copia(const char *s, size_t n) {
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

void dt_mascara_reglas_free(dt_mascara_reglas *r) {
    if (r == NULL) return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->col[i].nombre);
        free(r->col[i].dv);
        free(r->col[i].valor);
        free(r->col[i].de);
        for (size_t t = 0; t < r->col[i].nterminos; t++) free(r->col[i].terminos[t]);
    }
    free(r->col);
    free(r->archivo);
    free(r->seccion);
    free(r);
}

/* A column's key as sentences show it. */
typedef struct dt__mr_cita {
    char s[DT__DOC_CITE_BUF];
} dt__mr_cita;
static dt__mr_cita dt__mr_citar(const char *s, size_t n) {
    dt__mr_cita c;
    dt__doc_cite_key(s, n, c.s);
    return c;
}

static int dt__mr_es(const char *s, size_t n, const char *t) { return strlen(t) == n && memcmp(s, t, n) == 0; }

/* texto's buscar: absent (everything), or a non-empty array of distinct kinds. */
static dt_status dt__mr_buscar(const dt__doc_node *b, const char *col, dt__mr_col *c, char *why, size_t whycap) {
    static const char *const tipos[] = {"rut", "email", "telefono", "patente", "nombre", "direccion"};
    c->buscar = b ? 0 : DT_MASCARA_BUSCAR_TODO;
    if (b && (dt__doc_kind_of(b) != DT__DOC_ARRAY || dt__doc_len(b) == 0))
        return dt__doc_refuse(b, why, whycap, "columnas.%s.buscar must be a non-empty array of \"rut\", \"email\", "
                              "\"telefono\", \"patente\", \"nombre\" and \"direccion\"", col);
    for (size_t i = 0; b && i < dt__doc_len(b); i++) {
        size_t l;
        const char *t = dt__doc_string(dt__doc_item(b, i), &l);
        unsigned bit = 0;
        for (unsigned j = 0; t && j < 6; j++)
            if (dt__mr_es(t, l, tipos[j])) bit = 1u << j;
        if (bit == 0 || (c->buscar & bit))
            return dt__doc_refuse(dt__doc_item(b, i), why, whycap,
                                  "columnas.%s.buscar[%zu] must be \"rut\", \"email\", \"telefono\", \"patente\", "
                                  "\"nombre\" or \"direccion\", "
                                  "each once", col, i);
        c->buscar |= bit;
    }
    return DT_OK;
}

static dt_status dt__mr_valores(const dt__doc_node *v, const char *col, dt__mr_col *c, const char **entidad,
                                size_t *entidad_n, char *why, size_t whycap);

/* The defaults of the per-cell forms: dates to their year (as HIPAA's Safe Harbor keeps them), amounts
 * to two significant digits (docs/enmascarar.md gives the re-identification rates they were chosen by). */
#define DT__MR_GENERALIZAR DT__MV_ANIO
#define DT__MR_CIFRAS 2

/* rut's dv (the check digit column of a bare body), derivado's de (the RUT column whose body the value
 * holds) and otros (docs/enmascarar.md, "A RUT split in two columns", "Identifiers made from a RUT"). */
static dt_status dt__mr_partido(const dt__doc_node *v, const char *col, dt__mr_col *c, const char **entidad,
                                size_t *entidad_n, char *why, size_t whycap) {
    const dt__doc_node *dn = dt__doc_get(v, "dv", 2), *de = dt__doc_get(v, "de", 2), *on = dt__doc_get(v, "otros", 5);
    size_t l;
    const char *t;
    if (dn) {
        if ((t = dt__doc_string(dn, &l)) == NULL || l == 0)
            return dt__doc_refuse(dn, why, whycap, "columnas.%s.dv must be a column's name (the column holding the check "
                                  "digit of this column's RUT body)", col);
        if ((c->dv = dt__mr_copia(t, l)) == NULL) return DT_ERR_NO_MEMORY;
        c->dv_largo = l;
    }
    if (de) {
        if ((*entidad = dt__doc_string(de, entidad_n)) == NULL)
            return dt__doc_refuse(de, why, whycap, "columnas.%s.de must be a string (the name of the RUT column whose body "
                                  "the value holds), got %s", col, dt__doc_kind_name(dt__doc_kind_of(de), dt__doc_format_of(de)));
        c->con_entidad = 1;
    }
    if (on) {
        if ((t = dt__doc_string(on, &l)) == NULL || !(dt__mr_es(t, l, "mantener") || dt__mr_es(t, l, "politica")))
            return dt__doc_refuse(on, why, whycap, "columnas.%s.otros must be \"politica\" (a value without the RUT body "
                                  "is handled by politica.invalido) or \"mantener\" (kept as it is)", col);
        c->otros_mantener = dt__mr_es(t, l, "mantener");
    }
    return DT_OK;
}

/* The keys a rule takes besides regla, as the unknown-key sentence lists them. */
static const char *dt__mr_claves(dt__mr_regla r) {
    switch (r) {
    case DT__MR_PERSONA: return "regla, campo, entidad, sexo and realista";
    case DT__MR_FECHA: return "regla, dias, generalizar, entidad and conserva";
    case DT__MR_MONTO: return "regla, porcentaje, cifras, entidad and conserva";
    case DT__MR_SUSTITUIR: return "regla and llamada";
    case DT__MR_VALOR: return "only regla";
    case DT__MR_RUT: return "regla and dv";
    case DT__MR_DERIVADO: return "regla, de and otros";
    case DT__MR_CONSTANTE: return "regla and valor";
    case DT__MR_SIGUE: return "regla, de and campo";
    case DT__MR_SUMA: return "regla, de and menos";
    default: return "only regla";
    }
}

/* suma { de = [...], menos = [...] }: one column or more added, any subtracted, 16 in all. */
static dt_status dt__mr_suma(const dt__doc_node *v, const char *col, dt__mr_col *c, char *why, size_t whycap) {
    static const char *const claves[2] = {"de", "menos"};
    for (int k = 0; k < 2; k++) {
        const dt__doc_node *ln = dt__doc_get(v, claves[k], strlen(claves[k]));
        if (ln == NULL && k == 0)
            return dt__doc_refuse(v, why, whycap, "columnas.%s: the rule suma needs de, the list of the columns it adds "
                                  "(their masked values)", col);
        if (ln == NULL) continue;
        if (dt__doc_kind_of(ln) != DT__DOC_ARRAY || (k == 0 && dt__doc_len(ln) == 0))
            return dt__doc_refuse(ln, why, whycap, "columnas.%s.%s must be a list of column names", col, claves[k]);
        for (size_t i = 0; i < dt__doc_len(ln); i++) {
            size_t l;
            const char *t = dt__doc_string(dt__doc_item(ln, i), &l);
            if (t == NULL || l == 0)
                return dt__doc_refuse(ln, why, whycap, "columnas.%s.%s must be a list of column names", col, claves[k]);
            if (c->nterminos == DT__MR_SUMA_MAX)
                return dt__doc_refuse(ln, why, whycap, "columnas.%s: suma takes at most 16 columns", col);
            if ((c->terminos[c->nterminos] = dt__mr_copia(t, l)) == NULL) return DT_ERR_NO_MEMORY;
            c->terminos_largo[c->nterminos] = l;
            c->signos[c->nterminos++] = k == 0 ? 1 : -1;
        }
    }
    return DT_OK;
}

/* constante { valor } and sigue { de, campo } (docs/enmascarar.md, "Values of any origin"). */
static dt_status dt__mr_propias(const dt__doc_node *v, const char *col, dt__mr_col *c, char *why, size_t whycap) {
    size_t l;
    const char *t;
    if (c->regla == DT__MR_CONSTANTE) {
        const dt__doc_node *vn = dt__doc_get(v, "valor", 5);
        if (vn == NULL || (t = dt__doc_string(vn, &l)) == NULL || memchr(t, '\0', l) || l > DT_MAX_TEXT)
            return dt__doc_refuse(vn ? vn : v, why, whycap, "columnas.%s: the rule constante needs valor, the text written "
                                  "for every non-empty value (at most 4,096 bytes)", col);
        if ((c->valor = dt__mr_copia(t, l)) == NULL) return DT_ERR_NO_MEMORY;
        c->valor_largo = l;
        return DT_OK;
    }
    const dt__doc_node *dn = dt__doc_get(v, "de", 2), *cn = dt__doc_get(v, "campo", 5);
    if (dn == NULL || (t = dt__doc_string(dn, &l)) == NULL || l == 0)
        return dt__doc_refuse(dn ? dn : v, why, whycap, "columnas.%s: the rule sigue needs de, the name of the comuna column "
                              "whose masked comuna it follows", col);
    if ((c->de = dt__mr_copia(t, l)) == NULL) return DT_ERR_NO_MEMORY;
    c->de_largo = l;
    c->campo = -1;
    t = cn ? dt__doc_string(cn, &l) : NULL;
    for (size_t i = 0; t && i < sizeof dt__mr_sigue_campos / sizeof dt__mr_sigue_campos[0]; i++)
        if (dt__mr_es(t, l, dt__mr_sigue_campos[i])) c->campo = (int)i;
    if (c->campo < 0)
        return dt__doc_refuse(cn ? cn : v, why, whycap, "columnas.%s.campo must be one of codigo_comuna, codigo_region, region "
                              "and provincia (what the rule sigue writes of the comuna)", col);
    return DT_OK;
}

/* Check one column's rule table `v` (key `k`, `kn` bytes) into c; the entity (and persona's sexo
 * column) is resolved later. */
static dt_status dt__mr_columna(const dt__doc_node *v, const char *k, size_t kn, dt__mr_col *c, const char **entidad,
                                size_t *entidad_n, const char **sexo, size_t *sexo_n, char *why, size_t whycap) {
    dt__mr_cita col = dt__mr_citar(k, kn);
    if (dt__doc_kind_of(v) != DT__DOC_TABLE)
        return dt__doc_refuse(v, why, whycap, "columnas.%s must be %s such as { regla = \"rut\" }, got %s", col.s,
                              dt__doc_kind_name(DT__DOC_TABLE, dt__doc_format_of(v)),
                              dt__doc_kind_name(dt__doc_kind_of(v), dt__doc_format_of(v)));
    const dt__doc_node *rn = dt__doc_get(v, "regla", 5);
    if (rn == NULL) return dt__doc_refuse(v, why, whycap, "columnas.%s needs the key regla", col.s);
    size_t rl;
    const char *rs = dt__doc_string(rn, &rl);
    if (rs == NULL)
        return dt__doc_refuse(rn, why, whycap, "columnas.%s.regla must be a string, got %s", col.s,
                              dt__doc_kind_name(dt__doc_kind_of(rn), dt__doc_format_of(rn)));
    if (dt__mr_es(rs, rl, "rut")) c->regla = DT__MR_RUT;
    else if (dt__mr_es(rs, rl, "persona")) c->regla = DT__MR_PERSONA;
    else if (dt__mr_es(rs, rl, "mantener")) c->regla = DT__MR_MANTENER;
    else if (dt__mr_es(rs, rl, "nulo")) c->regla = DT__MR_NULO;
    else if (dt__mr_es(rs, rl, "borrar")) c->regla = DT__MR_BORRAR;
    else if (dt__mr_es(rs, rl, "fecha")) c->regla = DT__MR_FECHA;
    else if (dt__mr_es(rs, rl, "monto")) c->regla = DT__MR_MONTO;
    else if (dt__mr_es(rs, rl, "sustituir")) c->regla = DT__MR_SUSTITUIR;
    else if (dt__mr_es(rs, rl, "derivado")) c->regla = DT__MR_DERIVADO;
    else if (dt__mr_es(rs, rl, "constante")) c->regla = DT__MR_CONSTANTE;
    else if (dt__mr_es(rs, rl, "sigue")) c->regla = DT__MR_SIGUE;
    else if (dt__mr_es(rs, rl, "suma")) c->regla = DT__MR_SUMA;
    else if ((c->tipo = dt__mr_es(rs, rl, "email") ? DT__MC_EMAIL : dt__mr_es(rs, rl, "telefono") ? DT__MC_TELEFONO
                        : dt__mr_es(rs, rl, "patente") ? DT__MC_PATENTE : dt__mr_es(rs, rl, "texto") ? DT__MC_TEXTO
                        : dt__mr_es(rs, rl, "formato") ? DT__MC_FORMATO : dt__mr_es(rs, rl, "ip") ? DT__MC_IP
                        : dt__mr_es(rs, rl, "coordenada") ? DT__MC_COORDENADA : dt__mr_es(rs, rl, "imagen") ? DT__MC_IMAGEN : 0))
        c->regla = DT__MR_VALOR;
    else {
        char q[DT__DOC_CITE_BUF];
        dt__doc_cite(rs, rl, q);
        return dt__doc_refuse(rn, why, whycap,
                              "columnas.%s: unknown rule '%s' (the rules are rut, persona, email, telefono, patente, texto, fecha, "
                              "monto, sustituir, derivado, formato, ip, coordenada, imagen, constante, sigue, suma, mantener, nulo and borrar)",
                              col.s, q);
    }
    for (size_t i = 0; i < dt__doc_len(v); i++) {
        const dt__doc_node *it = dt__doc_item(v, i);
        size_t n;
        const char *key = dt__doc_key(it, &n);
        if (dt__mr_es(key, n, "regla")) continue;
        if (c->regla == DT__MR_PERSONA && (dt__mr_es(key, n, "campo") || dt__mr_es(key, n, "entidad"))) continue;
        if (c->regla == DT__MR_PERSONA && (dt__mr_es(key, n, "sexo") || dt__mr_es(key, n, "realista"))) continue;
        if ((c->regla == DT__MR_FECHA || c->regla == DT__MR_MONTO) &&
            (dt__mr_es(key, n, "entidad") || dt__mr_es(key, n, "conserva") ||
             dt__mr_es(key, n, c->regla == DT__MR_FECHA ? "generalizar" : "cifras")))
            continue;
        if ((c->regla == DT__MR_FECHA && dt__mr_es(key, n, "dias")) || (c->regla == DT__MR_MONTO && dt__mr_es(key, n, "porcentaje")) ||
            (c->regla == DT__MR_SUSTITUIR && dt__mr_es(key, n, "llamada")))
            continue;
        if (c->regla == DT__MR_VALOR && c->tipo == DT__MC_TEXTO && dt__mr_es(key, n, "buscar")) continue;
        if (c->regla == DT__MR_VALOR && c->tipo == DT__MC_TELEFONO && dt__mr_es(key, n, "realista")) {
            if (dt__doc_kind_of(it) != DT__DOC_BOOLEAN)
                return dt__doc_refuse(it, why, whycap, "columnas.%s.realista must be true or false (true: a valid, "
                                      "assignable number, which may be someone's)", col.s);
            c->realista = dt__doc_boolean(it);
            continue;
        }
        if ((c->regla == DT__MR_CONSTANTE && dt__mr_es(key, n, "valor")) ||
            (c->regla == DT__MR_SIGUE && (dt__mr_es(key, n, "de") || dt__mr_es(key, n, "campo"))) ||
            (c->regla == DT__MR_SUMA && (dt__mr_es(key, n, "de") || dt__mr_es(key, n, "menos"))))
            continue;
        if ((c->regla == DT__MR_RUT && dt__mr_es(key, n, "dv")) ||
            (c->regla == DT__MR_DERIVADO && (dt__mr_es(key, n, "de") || dt__mr_es(key, n, "otros"))))
            continue;
        return dt__doc_refuse(it, why, whycap, "columnas.%s: unknown key '%s' (the rule %.*s takes %s)", col.s,
                              dt__mr_citar(key, n).s, (int)rl, rs,
                              c->regla == DT__MR_VALOR && c->tipo == DT__MC_TEXTO ? "regla and buscar"
                              : c->regla == DT__MR_VALOR && c->tipo == DT__MC_TELEFONO ? "regla and realista" : dt__mr_claves(c->regla));
    }
    if (c->regla == DT__MR_FECHA || c->regla == DT__MR_MONTO || c->regla == DT__MR_SUSTITUIR)
        return dt__mr_valores(v, col.s, c, entidad, entidad_n, why, whycap);
    if (c->regla == DT__MR_VALOR && c->tipo == DT__MC_TEXTO) return dt__mr_buscar(dt__doc_get(v, "buscar", 6), col.s, c, why, whycap);
    if (c->regla == DT__MR_RUT || c->regla == DT__MR_DERIVADO) return dt__mr_partido(v, col.s, c, entidad, entidad_n, why, whycap);
    if (c->regla == DT__MR_CONSTANTE || c->regla == DT__MR_SIGUE) return dt__mr_propias(v, col.s, c, why, whycap);
    if (c->regla == DT__MR_SUMA) return dt__mr_suma(v, col.s, c, why, whycap);
    if (c->regla != DT__MR_PERSONA) return DT_OK;
    const dt__doc_node *cn = dt__doc_get(v, "campo", 5), *en = dt__doc_get(v, "entidad", 7);
    if (cn == NULL)
        return dt__doc_refuse(v, why, whycap, "columnas.%s: the rule persona needs campo, one of %s", col.s,
                              DT__MR_LISTA_CAMPOS);
    size_t cl;
    const char *cs = dt__doc_string(cn, &cl);
    c->campo = -1;
    for (size_t i = 0; cs && i < DT__MR_NCAMPOS; i++)
        if (dt__mr_es(cs, cl, dt__mr_campos[i])) c->campo = (int)i;
    if (c->campo < 0) {
        char q[DT__DOC_CITE_BUF];
        if (cs) dt__doc_cite(cs, cl, q);
        else snprintf(q, sizeof q, "%s", dt__doc_kind_name(dt__doc_kind_of(cn), dt__doc_format_of(cn)));
        return dt__doc_refuse(cn, why, whycap, "columnas.%s.campo must be one of %s, got %s%s%s", col.s,
                              DT__MR_LISTA_CAMPOS, cs ? "'" : "", q, cs ? "'" : "");
    }
    if (en == NULL)
        return dt__doc_refuse(v, why, whycap,
                              "columnas.%s: the rule persona needs entidad, the column whose masked RUT the persona "
                              "stands for",
                              col.s);
    *entidad = dt__doc_string(en, entidad_n);
    if (*entidad == NULL)
        return dt__doc_refuse(en, why, whycap, "columnas.%s.entidad must be a string (a column's name), got %s", col.s,
                              dt__doc_kind_name(dt__doc_kind_of(en), dt__doc_format_of(en)));
    const dt__doc_node *sn = dt__doc_get(v, "sexo", 4);
    if (sn && (*sexo = dt__doc_string(sn, sexo_n)) == NULL)
        return dt__doc_refuse(sn, why, whycap,
                              "columnas.%s.sexo must be a string (the name of the column with the original sex), got %s",
                              col.s, dt__doc_kind_name(dt__doc_kind_of(sn), dt__doc_format_of(sn)));
    c->con_entidad = 1;
    const dt__doc_node *rn2 = dt__doc_get(v, "realista", 8);
    if (rn2 && (dt__doc_kind_of(rn2) != DT__DOC_BOOLEAN || (c->campo != 4 && c->campo != 5)))
        return dt__doc_refuse(rn2, why, whycap, "columnas.%s.realista must be true or false, and only with campo email "
                              "or telefono (the contact data a test system could reach someone with)", col.s);
    c->realista = rn2 && dt__doc_boolean(rn2);
    return DT_OK;
}

/* fecha's generalizar and monto's cifras (the per-cell form's generalisation, with its default), or
 * the per-entity form behind conserva = "intervalos" / "proporciones", which needs entidad and takes
 * no generalisation (docs/enmascarar.md, "The value rules, exactly"). */
static dt_status dt__mr_grado(const dt__doc_node *v, const char *col, dt__mr_col *c, char *why, size_t whycap) {
    int fecha = c->regla == DT__MR_FECHA;
    const char *que = fecha ? "intervalos" : "proporciones", *gk = fecha ? "generalizar" : "cifras";
    const dt__doc_node *cn = dt__doc_get(v, "conserva", 8), *gn = dt__doc_get(v, gk, strlen(gk));
    if (cn) {
        size_t l;
        const char *t = dt__doc_string(cn, &l);
        if (t == NULL || !dt__mr_es(t, l, que))
            return dt__doc_refuse(cn, why, whycap, "columnas.%s.conserva must be \"%s\" (the one thing the per-entity "
                                  "form keeps), or be left out", col, que);
        if (!c->con_entidad)
            return dt__doc_refuse(cn, why, whycap, "columnas.%s: conserva = \"%s\" needs entidad, the column of RUTs "
                                  "whose %s it keeps", col, que, fecha ? "intervals between dates" : "ratios between amounts");
        if (gn)
            return dt__doc_refuse(gn, why, whycap, "columnas.%s: conserva = \"%s\" keeps them exactly, so it takes no "
                                  "%s", col, que, gk);
        c->conserva = 1;
        return DT_OK;
    }
    c->grado = fecha ? DT__MR_GENERALIZAR : DT__MR_CIFRAS;
    if (gn == NULL) return DT_OK;
    if (fecha) {
        size_t l;
        const char *t = dt__doc_string(gn, &l);
        c->grado = t && dt__mr_es(t, l, "dia") ? DT__MV_DIA : t && dt__mr_es(t, l, "mes") ? DT__MV_MES
                   : t && dt__mr_es(t, l, "anio") ? DT__MV_ANIO : -1;
        if (c->grado < 0)
            return dt__doc_refuse(gn, why, whycap, "columnas.%s.generalizar must be \"dia\", \"mes\" or \"anio\"", col);
        return DT_OK;
    }
    if (dt__doc_kind_of(gn) != DT__DOC_INTEGER || dt__doc_integer(gn) < 1 || dt__doc_integer(gn) > 14)
        return dt__doc_refuse(gn, why, whycap, "columnas.%s.cifras must be an integer from 1 to 14 (the significant "
                              "digits kept)", col);
    c->grado = (int32_t)dt__doc_integer(gn);
    return DT_OK;
}

/* fecha { dias, entidad?, generalizar? | conserva }, monto { porcentaje, entidad?, cifras? | conserva },
 * sustituir { llamada }. */
static dt_status dt__mr_valores(const dt__doc_node *v, const char *col, dt__mr_col *c, const char **entidad,
                                size_t *entidad_n, char *why, size_t whycap) {
    if (c->regla == DT__MR_SUSTITUIR) {
        const dt__doc_node *ln = dt__doc_get(v, "llamada", 7);
        if (ln == NULL)
            return dt__doc_refuse(v, why, whycap,
                                  "columnas.%s: the rule sustituir needs llamada, a call that gives one text such as "
                                  "\"persona.nombre\"",
                                  col);
        size_t n;
        const char *s = dt__doc_string(ln, &n);
        if (s == NULL)
            return dt__doc_refuse(ln, why, whycap, "columnas.%s.llamada must be a string (a call's name), got %s", col,
                                  dt__doc_kind_name(dt__doc_kind_of(ln), dt__doc_format_of(ln)));
        char q[DT__DOC_CITE_BUF];
        dt__doc_cite(s, n, q);
        if (memchr(s, '\0', n) || dt_call_find(s, n, &c->llamada) != DT_OK)
            return dt__doc_refuse(ln, why, whycap, "columnas.%s.llamada: unknown call '%s' (datoteca list names them all)",
                                  col, q);
        if (dt_call_at(c->llamada)->kind != DT_KIND_TEXT)
            return dt__doc_refuse(ln, why, whycap,
                                  "columnas.%s.llamada: the call %s does not give one text (a record or a number); "
                                  "sustituir takes a text call such as \"persona.nombre\"",
                                  col, q);
        return DT_OK;
    }
    int fecha = c->regla == DT__MR_FECHA;
    const char *nombre = fecha ? "dias" : "porcentaje";
    int64_t max = fecha ? DT_MASCARA_FECHA_DIAS_MAX : DT_MASCARA_MONTO_PORCENTAJE_MAX, x;
    const dt__doc_node *pn = dt__doc_get(v, nombre, strlen(nombre));
    if (pn == NULL)
        return dt__doc_refuse(v, why, whycap, "columnas.%s: the rule %s needs %s, %s from 1 to %lld", col,
                              fecha ? "fecha" : "monto", nombre, fecha ? "the largest shift in days" : "the largest change in percent",
                              (long long)max);
    if (dt__doc_kind_of(pn) != DT__DOC_INTEGER || (x = dt__doc_integer(pn)) < 1 || x > max) {
        if (dt__doc_kind_of(pn) == DT__DOC_INTEGER)
            return dt__doc_refuse(pn, why, whycap, "columnas.%s.%s must be an integer from 1 to %lld, got %lld", col, nombre,
                                  (long long)max, (long long)dt__doc_integer(pn));
        return dt__doc_refuse(pn, why, whycap, "columnas.%s.%s must be an integer from 1 to %lld, got %s", col, nombre,
                              (long long)max, dt__doc_kind_name(dt__doc_kind_of(pn), dt__doc_format_of(pn)));
    }
    c->parametro = (int32_t)x;
    const dt__doc_node *en = dt__doc_get(v, "entidad", 7);
    if (en && (*entidad = dt__doc_string(en, entidad_n)) == NULL)
        return dt__doc_refuse(en, why, whycap, "columnas.%s.entidad must be a string (a column's name), got %s", col,
                              dt__doc_kind_name(dt__doc_kind_of(en), dt__doc_format_of(en)));
    c->con_entidad = en != NULL;
    return dt__mr_grado(v, col, c, why, whycap);
}

static dt_status dt__mr_politica(const dt__doc_node *p, dt_mascara_reglas *r, char *why, size_t whycap) {
    if (dt__doc_kind_of(p) != DT__DOC_TABLE)
        return dt__doc_refuse(p, why, whycap, "politica must be %s, got %s",
                              dt__doc_kind_name(DT__DOC_TABLE, dt__doc_format_of(p)),
                              dt__doc_kind_name(dt__doc_kind_of(p), dt__doc_format_of(p)));
    for (size_t i = 0; i < dt__doc_len(p); i++) {
        const dt__doc_node *it = dt__doc_item(p, i);
        size_t n, vl;
        const char *key = dt__doc_key(it, &n);
        const char *vs = dt__doc_string(it, &vl);
        if (dt__mr_es(key, n, "invalido")) {
            if (vs && dt__mr_es(vs, vl, "error")) r->invalido = DT__MR_ERROR;
            else if (vs && dt__mr_es(vs, vl, "nulo")) r->invalido = DT__MR_VACIO;
            else if (vs && dt__mr_es(vs, vl, "invalido")) r->invalido = DT__MR_INVALIDO;
            else
                return dt__doc_refuse(it, why, whycap,
                                      "politica.invalido must be \"error\", \"nulo\" or \"invalido\" (what a value a "
                                      "rule cannot read becomes)");
        } else if (dt__mr_es(key, n, "sin_regla")) {
            if (vs && dt__mr_es(vs, vl, "error")) r->sin_regla_mantener = 0;
            else if (vs && dt__mr_es(vs, vl, "mantener")) r->sin_regla_mantener = 1;
            else
                return dt__doc_refuse(it, why, whycap,
                                      "politica.sin_regla must be \"error\" or \"mantener\" (what a column of the input "
                                      "with no rule does)");
        } else {
            return dt__doc_refuse(it, why, whycap, "unknown key '%s' (politica takes invalido and sin_regla)",
                                  dt__mr_citar(key, n).s);
        }
    }
    return DT_OK;
}

/* The root's keys, version and politica, shared by a table's document (its columnas) and a database's
 * (tablas). */
static dt_status dt__mr_raiz(const dt__doc_node *raiz, const char *lista, const char *cuerpo, dt_mascara_reglas *r,
                             char *why, size_t whycap) {
    for (size_t i = 0; i < dt__doc_len(raiz); i++) {
        const dt__doc_node *it = dt__doc_item(raiz, i);
        size_t n;
        const char *key = dt__doc_key(it, &n);
        if (!dt__mr_es(key, n, "version") && !dt__mr_es(key, n, cuerpo) && !dt__mr_es(key, n, "politica"))
            return dt__doc_refuse(it, why, whycap, "unknown key '%s' (%s)", dt__mr_citar(key, n).s, lista);
    }
    const dt__doc_node *vn = dt__doc_need(raiz, "version", why, whycap);
    if (vn == NULL) return DT_ERR_INVALID_ARG;
    int64_t version;
    dt_status st = dt__doc_want_integer(vn, &version, why, whycap);
    if (st != DT_OK) return st;
    if (version != 1)
        return dt__doc_refuse(vn, why, whycap, "version must be 1 (the only version of the masking rules), got %lld",
                              (long long)version);
    const dt__doc_node *pn = dt__doc_get(raiz, "politica", 8);
    if (pn && (st = dt__mr_politica(pn, r, why, whycap)) != DT_OK) return st;
    return DT_OK;
}

/* A table's rules from the node `cols` (its columnas). */
static dt_status dt__mr_columnas(const dt__doc_node *cols, dt_mascara_reglas *r, char *why, size_t whycap) {
    dt_status st;
    if ((st = dt__doc_want(cols, DT__DOC_TABLE, why, whycap)) != DT_OK) return st;
    size_t n = dt__doc_len(cols);
    if (n == 0) return dt__doc_refuse(cols, why, whycap, "columnas has no column: give every column of the input a rule");
    r->col = calloc(n, sizeof *r->col);
    if (r->col == NULL) return DT_ERR_NO_MEMORY;
    const char **ent = calloc(n, sizeof *ent), **sexo = calloc(n, sizeof *sexo);
    size_t *ent_n = calloc(n, sizeof *ent_n), *sexo_n = calloc(n, sizeof *sexo_n);
    if (ent == NULL || ent_n == NULL || sexo == NULL || sexo_n == NULL) {
        free(ent);
        free(ent_n);
        free(sexo);
        free(sexo_n);
        return DT_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < n && st == DT_OK; i++) {
        const dt__doc_node *v = dt__doc_item(cols, i);
        size_t kn;
        const char *k = dt__doc_key(v, &kn);
        r->col[i].nombre = dt__mr_copia(k, kn);
        r->col[i].largo = kn;
        r->n = i + 1;
        if (r->col[i].nombre == NULL) st = DT_ERR_NO_MEMORY;
        else st = dt__mr_columna(v, k, kn, &r->col[i], &ent[i], &ent_n[i], &sexo[i], &sexo_n[i], why, whycap);
    }
    for (size_t i = 0; i < n && st == DT_OK; i++) {
        if (!r->col[i].con_entidad) continue;
        size_t j = 0;
        while (j < n && !(r->col[j].largo == ent_n[i] && memcmp(r->col[j].nombre, ent[i], ent_n[i]) == 0)) j++;
        const char *clave = r->col[i].regla == DT__MR_DERIVADO ? "de" : "entidad";
        const dt__doc_node *en = dt__doc_get(dt__doc_item(cols, i), clave, strlen(clave));
        dt__mr_cita col = dt__mr_citar(r->col[i].nombre, r->col[i].largo), e = dt__mr_citar(ent[i], ent_n[i]);
        if (j == n)
            st = dt__doc_refuse(en, why, whycap, "columnas.%s.%s names '%s', which is not a column of columnas",
                                col.s, clave, e.s);
        else if (r->col[j].regla != DT__MR_RUT)
            st = dt__doc_refuse(en, why, whycap,
                                "columnas.%s.%s names '%s', whose rule is not rut: an entity is a column of RUTs "
                                "masked with the rule rut",
                                col.s, clave, e.s);
        else r->col[i].entidad = j;
    }
    for (size_t i = 0; i < n && st == DT_OK; i++) { /* a check digit column is written by its body's rule alone */
        const dt__mr_col *c = &r->col[i];
        if (c->dv == NULL) continue;
        const dt__doc_node *dn = dt__doc_get(dt__doc_item(cols, i), "dv", 2);
        dt__mr_cita col = dt__mr_citar(c->nombre, c->largo), dvc = dt__mr_citar(c->dv, c->dv_largo);
        for (size_t j = 0; j < n && st == DT_OK; j++) {
            if (r->col[j].largo == c->dv_largo && memcmp(r->col[j].nombre, c->dv, c->dv_largo) == 0)
                st = dt__doc_refuse(dn, why, whycap, "columnas.%s.dv names '%s', which has a rule of its own: the check digit "
                                    "column is written by its body's rule; remove columnas.%s", col.s, dvc.s, dvc.s);
            else if (j < i && r->col[j].dv && r->col[j].dv_largo == c->dv_largo && memcmp(r->col[j].dv, c->dv, c->dv_largo) == 0)
                st = dt__doc_refuse(dn, why, whycap, "columnas.%s.dv names '%s', the check digit column of another rule too",
                                    col.s, dvc.s);
        }
    }
    for (size_t i = 0; i < n && st == DT_OK; i++) { /* persona's sexo: any column of columnas */
        if (sexo[i] == NULL) continue;
        size_t j = 0;
        while (j < n && !(r->col[j].largo == sexo_n[i] && memcmp(r->col[j].nombre, sexo[i], sexo_n[i]) == 0)) j++;
        if (j == n)
            st = dt__doc_refuse(dt__doc_get(dt__doc_item(cols, i), "sexo", 4), why, whycap,
                                "columnas.%s.sexo names '%s', which is not a column of columnas",
                                dt__mr_citar(r->col[i].nombre, r->col[i].largo).s, dt__mr_citar(sexo[i], sexo_n[i]).s);
        r->col[i].sexo = j;
        r->col[i].con_sexo = 1;
    }
    free(ent);
    free(ent_n);
    free(sexo);
    free(sexo_n);
    return st;
}

static dt_status dt__mr_leer(const dt__doc *d, dt_mascara_reglas *r, char *why, size_t whycap) {
    const dt__doc_node *raiz = dt__doc_root(d);
    dt_status st = dt__mr_raiz(raiz, "masking rules take version, columnas and politica", "columnas", r, why, whycap);
    if (st != DT_OK) return st;
    const dt__doc_node *cols = dt__doc_need(raiz, "columnas", why, whycap);
    return cols == NULL ? DT_ERR_INVALID_ARG : dt__mr_columnas(cols, r, why, whycap);
}

/* A database's document: every table's rules are read (so a fault anywhere is refused, whichever table
 * is asked for), and those of `tabla` kept in r. */
static dt_status dt__mr_leer_tabla(const dt__doc *d, const char *tabla, size_t tablalen, dt_mascara_reglas *r,
                                   char *why, size_t whycap) {
    const dt__doc_node *raiz = dt__doc_root(d);
    dt_status st = dt__mr_raiz(raiz, "a database's masking rules take version, tablas and politica", "tablas", r, why,
                               whycap);
    if (st != DT_OK) return st;
    const dt__doc_node *tablas = dt__doc_need(raiz, "tablas", why, whycap);
    if (tablas == NULL) return DT_ERR_INVALID_ARG;
    if ((st = dt__doc_want(tablas, DT__DOC_TABLE, why, whycap)) != DT_OK) return st;
    const dt__doc_node *elegida = NULL;
    for (size_t i = 0; i < dt__doc_len(tablas); i++) {
        const dt__doc_node *t = dt__doc_item(tablas, i);
        size_t kn;
        const char *k = dt__doc_key(t, &kn);
        if ((st = dt__doc_want(t, DT__DOC_TABLE, why, whycap)) != DT_OK) return st;
        for (size_t j = 0; j < dt__doc_len(t); j++) {
            size_t n;
            const char *key = dt__doc_key(dt__doc_item(t, j), &n);
            if (!dt__mr_es(key, n, "columnas"))
                return dt__doc_refuse(dt__doc_item(t, j), why, whycap, "tablas.%s: unknown key '%s' (a table takes columnas)",
                                      dt__mr_citar(k, kn).s, dt__mr_citar(key, n).s);
        }
        const dt__doc_node *cols = dt__doc_need(t, "columnas", why, whycap);
        if (cols == NULL) return DT_ERR_INVALID_ARG;
        dt_mascara_reglas prueba = {0};
        st = dt__mr_columnas(cols, &prueba, why, whycap);
        for (size_t j = 0; j < prueba.n; j++) {
            free(prueba.col[j].nombre);
            free(prueba.col[j].dv);
        }
        free(prueba.col);
        if (st != DT_OK) return st;
        if (kn == tablalen && memcmp(k, tabla, kn) == 0) elegida = cols;
    }
    if (elegida == NULL)
        return dt__doc_refuse(tablas, why, whycap,
                              "tablas has no table '%s': every table masked needs its rules, none are assumed "
                              "(datoteca detectar URL writes them for a whole database)",
                              dt__mr_citar(tabla, tablalen).s);
    return dt__mr_columnas(elegida, r, why, whycap);
}

/* Both readers: a table's document (tabla NULL), or the table `tabla` of a database's. */
static dt_status dt__mr_nuevas(const char *texto, size_t len, int formato, const char *archivo, const char *tabla,
                               size_t tablalen, dt_mascara_reglas **out, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out) *out = NULL;
    if (out == NULL || (texto == NULL && len > 0)) {
        if (why) dt__sentence_out(out == NULL ? "reglas: out is NULL" : "reglas: texto is NULL but len is not 0", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    if (formato != DT_MASCARA_TOML && formato != DT_MASCARA_JSON) {
        if (why) dt__sentence_out("reglas: formato must be DT_MASCARA_TOML (1) or DT_MASCARA_JSON (2)", why, whycap, NULL);
        return DT_ERR_INVALID_ARG;
    }
    if (tabla != NULL && tablalen == 0) {
        if (why) dt__sentence_out("reglas: tabla must name a table of the document's tablas", why, whycap, NULL);
        return DT_ERR_INVALID_ARG;
    }
    dt__doc *d = NULL;
    dt_status st = formato == DT_MASCARA_TOML ? dt__doc_parse_toml(texto, len, archivo, &d, why, whycap)
                                              : dt__doc_parse_json(texto, len, archivo, &d, why, whycap);
    if (st != DT_OK) return st;
    dt_mascara_reglas *r = calloc(1, sizeof *r);
    if (r == NULL || (r->archivo = dt__mr_copia(dt__doc_file(dt__doc_root(d)), strlen(dt__doc_file(dt__doc_root(d))))) == NULL)
        st = DT_ERR_NO_MEMORY;
    else if (tabla == NULL)
        st = dt__mr_leer(d, r, why, whycap);
    else {
        dt__mr_cita t = dt__mr_citar(tabla, tablalen);
        size_t cap = strlen(t.s) + sizeof "tablas..columnas";
        if ((r->seccion = malloc(cap)) == NULL) st = DT_ERR_NO_MEMORY;
        else {
            snprintf(r->seccion, cap, "tablas.%s.columnas", t.s);
            st = dt__mr_leer_tabla(d, tabla, tablalen, r, why, whycap);
        }
    }
    dt__doc_free(d);
    if (st == DT_ERR_NO_MEMORY && why) dt__sentence_out("reglas: out of memory", why, whycap, NULL);
    if (st != DT_OK) {
        dt_mascara_reglas_free(r);
        return st;
    }
    *out = r;
    return DT_OK;
}

dt_status dt_mascara_reglas_new(const char *texto, size_t len, int formato, const char *archivo,
                                dt_mascara_reglas **out, char *why, size_t whycap) {
    return dt__mr_nuevas(texto, len, formato, archivo, NULL, 0, out, why, whycap);
}

dt_status dt_mascara_reglas_tabla_new(const char *texto, size_t len, int formato, const char *archivo, const char *tabla,
                                      size_t tablalen, dt_mascara_reglas **out, char *why, size_t whycap) {
    if (tabla == NULL) {
        if (why && whycap) why[0] = '\0';
        if (out) *out = NULL;
        if (why) dt__sentence_out("reglas: tabla is NULL", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    return dt__mr_nuevas(texto, len, formato, archivo, tabla, tablalen, out, why, whycap);
}

/* ---- the persona of an entity ---- */

dt_status dt_mascara_persona(const dt_mascara_clave *k, uint32_t cuerpo, dt_persona *out) {
    return dt_mascara_persona_sexo(k, cuerpo, DT_SEXO_CUALQUIERA, out);
}

dt_status dt_mascara_persona_sexo(const dt_mascara_clave *k, uint32_t cuerpo, dt_sexo sexo, dt_persona *out) {
    if (k == NULL || out == NULL) return DT_ERR_NULL;
    if (cuerpo < 1 || cuerpo > DT_RUT_CUERPO_MAX) return DT_ERR_INVALID_ARG;
    if (sexo != DT_SEXO_CUALQUIERA && sexo != DT_SEXO_F && sexo != DT_SEXO_M) return DT_ERR_INVALID_ARG;
    dt_gen *g = NULL;
    dt_status st = dt_new(dt__siphash24_palabra(k->persona[0], k->persona[1], (uint64_t)cuerpo), &g);
    if (st != DT_OK) return st;
    /* pinned here, not left to the library's default, so the persona cannot move with it */
    st = dt_set_hoy(g, 2026, 1, 1);
    if (st == DT_OK) st = dt_persona_persona(g, sexo, 18, 80, out);
    dt_free(g);
    if (st != DT_OK) return st;
    char *e = dt__put_rut(out->rut, cuerpo, DT_RUT_GUION);
    *e = '\0';
    return DT_OK;
}

static const char *dt__mr_campo_de(const dt_persona *p, int campo) {
    switch (campo) {
    case 0: return p->nombres;
    case 1: return p->apellido_paterno;
    case 2: return p->apellido_materno;
    case 3: return p->nombre_completo;
    case 4: return p->email;
    case 5: return p->telefono;
    case 6: return p->direccion;
    case 7: return p->comuna;
    case 8: return p->region;
    case 9: return p->fecha_nacimiento;
    case 10: return p->sexo;
    case 11: return p->codigo_comuna;
    default: return p->codigo_region;
    }
}

/* ---- the plan ---- */

typedef struct dt__mr_pcol {
    const dt__mr_col *regla; /* NULL: no rule, kept (sin_regla = "mantener") */
    size_t entidad;          /* persona (fecha, monto with entidad): the entity's index in the header */
    size_t sexo;             /* persona with sexo: the sex column's index in the header */
    int salida;              /* its index in the output, -1 when dropped */
    size_t dv;               /* rut with dv: its check digit column's index in the header */
    int es_dv;               /* the check digit column of a rut with dv: written with its body */
    size_t de;               /* sigue: the comuna column's index in the header */
    size_t terminos[DT__MR_SUMA_MAX]; /* suma: its columns' indexes in the header */
} dt__mr_pcol;

typedef struct dt__mr_ent { /* per header column that is an entity: this row's persona */
    int estado;             /* 0 not computed, 1 body ready, 2 none (empty or unreadable entity) */
    const char *por_que;    /* state 2: the reason, for the error policy */
    uint32_t cuerpo;        /* state 1: the masked body */
    int con_persona;        /* state 1: p is the persona of sex p_sexo */
    dt_sexo p_sexo;
    dt_persona p;
} dt__mr_ent;

struct dt_mascara_plan {
    const dt_mascara_reglas *r;
    const dt_mascara_clave *k;
    size_t n, nsal;
    dt__mr_pcol *col;
    char **nombre;   /* header names, copied */
    size_t *largo;
    size_t *sal_col; /* output column i is header column sal_col[i] */
    dt__mr_ent *ent;
    char *buf;       /* this row's masked values */
    size_t cap, usado;
    size_t *vini, *vlen; /* output i: buf[vini] (or the input, when vini == (size_t)-1 and vptr) */
    const char **vptr;
};

void dt_mascara_plan_free(dt_mascara_plan *p) {
    if (p == NULL) return;
    for (size_t i = 0; p->nombre && i < p->n; i++) free(p->nombre[i]);
    free(p->nombre);
    free(p->largo);
    free(p->col);
    free(p->sal_col);
    if (p->ent) dt__borrar(p->ent, p->n * sizeof *p->ent);
    free(p->ent);
    if (p->buf) dt__borrar(p->buf, p->cap);
    free(p->buf);
    free(p->vini);
    free(p->vlen);
    free(p->vptr);
    free(p);
}

static dt_status dt__mr_no(char *why, size_t whycap, const char *fmt, const char *a, const char *b) {
    if (why && whycap) snprintf(why, whycap, fmt, a, b);
    return DT_ERR_INVALID_ARG;
}

dt_status dt_mascara_plan_new(const dt_mascara_reglas *r, const dt_mascara_clave *k, size_t n,
                              const char *const *columnas, const size_t *largos, dt_mascara_plan **out, char *why,
                              size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (out) *out = NULL;
    if (r == NULL || k == NULL || out == NULL || (n > 0 && (columnas == NULL || largos == NULL))) {
        if (why) dt__sentence_out("plan: r, k and out must not be NULL, nor columnas and largos with n > 0", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    dt_mascara_plan *p = calloc(1, sizeof *p);
    if (p == NULL) goto sin_memoria;
    p->r = r;
    p->k = k;
    p->n = n;
    size_t m = n ? n : 1;
    p->col = calloc(m, sizeof *p->col);
    p->nombre = calloc(m, sizeof *p->nombre);
    p->largo = calloc(m, sizeof *p->largo);
    p->sal_col = calloc(m, sizeof *p->sal_col);
    p->ent = calloc(m, sizeof *p->ent);
    p->vini = calloc(m, sizeof *p->vini);
    p->vlen = calloc(m, sizeof *p->vlen);
    p->vptr = calloc(m, sizeof *p->vptr);
    if (!p->col || !p->nombre || !p->largo || !p->sal_col || !p->ent || !p->vini || !p->vlen || !p->vptr) goto sin_memoria;
    const char *arch = r->archivo;
    for (size_t i = 0; i < n; i++) {
        if ((p->nombre[i] = dt__mr_copia(columnas[i], largos[i])) == NULL) goto sin_memoria;
        p->largo[i] = largos[i];
        dt__mr_cita c = dt__mr_citar(columnas[i], largos[i]);
        for (size_t j = 0; j < i; j++)
            if (largos[j] == largos[i] && memcmp(columnas[j], columnas[i], largos[i]) == 0) {
                if (dt__parece_dato(columnas[i], largos[i])) goto sin_cabecera;
                dt__mr_no(why, whycap, "%s: the input has two columns named '%s'; a rule could not tell them apart", arch, c.s);
                goto refusal;
            }
        for (size_t j = 0; j < r->n; j++)
            if (r->col[j].largo == largos[i] && memcmp(r->col[j].nombre, columnas[i], largos[i]) == 0) p->col[i].regla = &r->col[j];
        for (size_t j = 0; j < r->n; j++)
            if (r->col[j].dv && r->col[j].dv_largo == largos[i] && memcmp(r->col[j].dv, columnas[i], largos[i]) == 0) p->col[i].es_dv = 1;
        if (p->col[i].regla == NULL && !p->col[i].es_dv && dt__parece_dato(columnas[i], largos[i])) {
            /* a header line that is data: its cell is a value, never printed (issue 39) */
            goto sin_cabecera;
        }
        if (p->col[i].regla == NULL && !p->col[i].es_dv && !r->sin_regla_mantener) {
            if (why && whycap)
                snprintf(why, whycap,
                         "%s: the input's column '%s' has no rule in %s (a column added after the rules were written is "
                         "not masked by assumption): give it one ({ regla = \"mantener\" } keeps it as it is), or set "
                         "politica.sin_regla = \"mantener\"",
                         arch, c.s, r->seccion ? r->seccion : "columnas");
            goto refusal;
        }
        if (p->col[i].regla == NULL || p->col[i].regla->regla != DT__MR_BORRAR) {
            p->col[i].salida = (int)p->nsal;
            p->sal_col[p->nsal++] = i;
        } else p->col[i].salida = -1;
    }
    for (size_t j = 0; j < r->n; j++) {
        size_t i = 0;
        while (i < n && !(r->col[j].largo == largos[i] && memcmp(r->col[j].nombre, columnas[i], largos[i]) == 0)) i++;
        if (i == n) {
            dt__mr_no(why, whycap, "%s: columnas.%s names a column the input does not have (its header has no such name)", arch,
                      dt__mr_citar(r->col[j].nombre, r->col[j].largo).s);
            goto refusal;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const dt__mr_col *c = p->col[i].regla;
        if (c == NULL || c->dv == NULL) continue;
        size_t j = 0;
        while (j < n && !(c->dv_largo == largos[j] && memcmp(c->dv, columnas[j], largos[j]) == 0)) j++;
        if (j == n) {
            dt__mr_no(why, whycap, "%s: columnas.%s.dv names a column the input does not have (its header has no such name)", arch,
                      dt__mr_citar(c->nombre, c->largo).s);
            goto refusal;
        }
        p->col[i].dv = j;
    }
    for (size_t i = 0; i < n; i++) {
        const dt__mr_col *c = p->col[i].regla;
        if (c == NULL || c->regla != DT__MR_SUMA) continue;
        for (size_t t = 0; t < c->nterminos; t++) {
            size_t j = 0;
            while (j < n && !(c->terminos_largo[t] == largos[j] && memcmp(c->terminos[t], columnas[j], largos[j]) == 0)) j++;
            if (j == n || j == i || p->col[j].salida < 0 ||
                (p->col[j].regla && (p->col[j].regla->regla == DT__MR_SUMA || p->col[j].regla->regla == DT__MR_VALOR))) {
                dt__mr_no(why, whycap, "%s: columnas.%s names in its sum a column the input does not have, one the rules drop, "
                          "or one whose rule is suma or texto-like (a sum adds amounts masked before it)", arch,
                          dt__mr_citar(c->nombre, c->largo).s);
                goto refusal;
            }
            p->col[i].terminos[t] = j;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const dt__mr_col *c = p->col[i].regla;
        if (c == NULL || c->regla != DT__MR_SIGUE) continue;
        size_t j = 0;
        while (j < n && !(c->de_largo == largos[j] && memcmp(c->de, columnas[j], largos[j]) == 0)) j++;
        if (j == n || p->col[j].salida < 0 || j == i || (p->col[j].regla && p->col[j].regla->regla == DT__MR_SIGUE)) {
            dt__mr_no(why, whycap, "%s: columnas.%s.de names a column the input does not have, one the rules drop, or one "
                      "that follows another (it must be the comuna column)", arch, dt__mr_citar(c->nombre, c->largo).s);
            goto refusal;
        }
        p->col[i].de = j;
    }
    for (size_t i = 0; i < n; i++) {
        const dt__mr_col *c = p->col[i].regla;
        if (c == NULL || !c->con_entidad) continue;
        const dt__mr_col *e = &r->col[c->entidad];
        size_t j = 0;
        while (j < n && !(e->largo == largos[j] && memcmp(e->nombre, columnas[j], largos[j]) == 0)) j++;
        p->col[i].entidad = j; /* every rule's column is in the header (checked above) */
        if (!c->con_sexo) continue;
        e = &r->col[c->sexo];
        for (j = 0; j < n && !(e->largo == largos[j] && memcmp(e->nombre, columnas[j], largos[j]) == 0); j++) {}
        p->col[i].sexo = j;
    }
    *out = p;
    return DT_OK;
sin_memoria:
    dt_mascara_plan_free(p);
    if (why) dt__sentence_out("plan: out of memory", why, whycap, NULL);
    return DT_ERR_NO_MEMORY;
sin_cabecera:
    dt__mr_no(why, whycap, "%s: the input's header has a field that looks like a value (a number, a RUT, an email, a phone, a date "
              "or a name), not a column's name, and no rule names it: does the input lack its header line? (the field is "
              "not printed)%s", arch, "");
refusal:
    dt_mascara_plan_free(p);
    return DT_ERR_INVALID_ARG;
}

size_t dt_mascara_plan_ncolumnas(const dt_mascara_plan *p) { return p ? p->nsal : 0; }

const char *dt_mascara_plan_columna(const dt_mascara_plan *p, size_t i, size_t *len) {
    if (len) *len = 0;
    if (p == NULL || i >= p->nsal) return NULL;
    if (len) *len = p->largo[p->sal_col[i]];
    return p->nombre[p->sal_col[i]];
}

const char *dt_mascara_plan_valor(const dt_mascara_plan *p, size_t i, size_t *len) {
    if (len) *len = 0;
    if (p == NULL || i >= p->nsal) return NULL;
    if (len) *len = p->vlen[i];
    return p->vptr[i];
}

/* Room for `n` more bytes in the row buffer. */
static int dt__mr_reservar(dt_mascara_plan *p, size_t n) {
    if (p->usado + n <= p->cap) return 0;
    size_t cap = p->cap ? p->cap : 1024;
    while (cap < p->usado + n) cap *= 2;
    char *b = malloc(cap);
    if (b == NULL) return 1;
    if (p->buf) {
        memcpy(b, p->buf, p->usado);
        dt__borrar(p->buf, p->cap);
        free(p->buf);
    }
    p->buf = b;
    p->cap = cap;
    return 0;
}

static int dt__mr_indice_dv(char c) { return c == 'k' || c == 'K' ? 10 : c - '0'; }
static char dt__mr_dv_de(int i) { return i == 10 ? 'K' : (char)('0' + i); }
static int dt__mr_espacio(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* The check digit's position: the last character before the trailing whitespace (len if none). */
static size_t dt__mr_pos_dv(const char *s, size_t len) {
    size_t n = len;
    while (n > 0 && dt__mr_espacio(s[n - 1])) n--;
    return n ? n - 1 : len;
}

/* The body of a RUT masked text that dt_rut_leer accepts. */
static uint32_t dt__mr_cuerpo_de(const char *s, size_t len) {
    uint32_t c = 0;
    size_t dv = dt__mr_pos_dv(s, len);
    for (size_t i = 0; i < dv; i++)
        if (s[i] >= '0' && s[i] <= '9') c = c * 10 + (uint32_t)(s[i] - '0');
    return c;
}

/* Mask the RUT `s` into the row buffer (at p->usado, *n bytes) and give its masked body.
 * 0: masked. 1: a RUT whose only fault is its check digit, masked keeping it wrong (only when
 * `invalido`). -1: not readable; *por_que says why (never the value). -2: out of memory. */
static int dt__mr_rut(dt_mascara_plan *p, const char *s, size_t len, int invalido, size_t *n, uint32_t *cuerpo,
                      const char **por_que, char *motivo, size_t motivocap) {
    if (dt__mr_reservar(p, len + 8)) return -2;
    char *buf = p->buf + p->usado;
    dt_status st = dt_mascara_rut(p->k, s, len, buf, len + 8, n, motivo, motivocap);
    if (st == DT_OK) {
        *cuerpo = dt__mr_cuerpo_de(buf, *n);
        return 0;
    }
    *por_que = motivo;
    if (!invalido || strcmp(motivo, "rut: the check digit does not match the body") != 0) return -1;
    /* the one check digit that makes it valid, c; the given one, e; the output keeps their distance */
    size_t pos = dt__mr_pos_dv(s, len);
    if (pos >= len || len > 256) return -1; /* a RUT is at most 14 bytes; the rest would be whitespace */
    char t[256];
    memcpy(t, s, len);
    int c = -1;
    for (int i = 0; i <= 10 && c < 0; i++) {
        t[pos] = dt__mr_dv_de(i);
        if (dt_rut_leer(t, len, NULL, NULL) == DT_OK) c = i;
    }
    if (c < 0 || dt_mascara_rut(p->k, t, len, buf, len + 8, n, NULL, 0) != DT_OK) return -1;
    int e = dt__mr_indice_dv(s[pos]);
    size_t q = dt__mr_pos_dv(buf, *n);
    int w = (dt__mr_indice_dv(buf[q]) + e - c + 11) % 11;
    buf[q] = w == 10 && s[pos] == 'k' ? 'k' : dt__mr_dv_de(w);
    *cuerpo = dt__mr_cuerpo_de(buf, *n);
    return 1;
}

/* Mask a value of a DT__MR_VALOR column into the row buffer as output s. 0: masked. -1: refused (the
 * sentence in motivo). -2: out of memory. */
static int dt__mr_valor(dt_mascara_plan *p, const dt__mr_col *c, const char *v, size_t len, int s, char *motivo,
                        size_t motivocap) {
    size_t m = 0, quiero = len + 64;
    for (int intento = 0; intento < 2; intento++) {
        if (dt__mr_reservar(p, quiero)) return -2;
        unsigned opcion = c->tipo == DT__MC_TELEFONO ? (unsigned)c->realista : c->buscar;
        dt_status st = dt__mc_valor(p->k, c->tipo, opcion, v, len, p->buf + p->usado, quiero, &m, motivo, motivocap);
        if (st == DT_OK) {
            p->vini[s] = p->usado;
            p->vlen[s] = m;
            p->usado += m;
            return 0;
        }
        if (st != DT_ERR_BUFFER_TOO_SMALL) return st == DT_ERR_NO_MEMORY ? -2 : -1;
        quiero = m + 1;
    }
    return -1;
}

/* A body column i with its check digit column (mascara_partido.c): both outputs written. 0 or 1: masked.
 * -1: refused (motivo says why, as a sentence's tail); nulo and invalido have emptied both. -2: out of memory. */
static int dt__mr_partido_fila(dt_mascara_plan *p, size_t i, const char *const *valores, const size_t *largos,
                               dt__mr_invalido pol, char *motivo) {
    size_t d = p->col[i].dv, cn = largos[i], dn = largos[d];
    int s = p->col[i].salida, sd = p->col[d].salida;
    p->vptr[sd] = NULL;
    p->vini[sd] = (size_t)-1;
    p->vlen[sd] = 0;
    if (cn == 0 && dn == 0) return 0;
    if (dt__mr_reservar(p, cn + dn + 8)) return -2;
    char *oc = p->buf + p->usado, *od = oc + cn + 8;
    size_t ocn, odn;
    const char *pq = "";
    int rc = dt__mp_partido(p->k, valores[i], cn, valores[d], dn, pol == DT__MR_INVALIDO, oc, &ocn, od, &odn, &pq);
    if (rc < 0) {
        snprintf(motivo, DT_SENTENCE_MAX, "%s", pq);
        return -1;
    }
    memmove(oc + ocn, od, odn);
    p->vini[s] = p->usado;
    p->vlen[s] = ocn;
    p->vini[sd] = p->usado + ocn;
    p->vlen[sd] = odn;
    p->usado += ocn + odn;
    return rc;
}

/* A derived column i: 0 masked; -1 no body in it (motivo says why); -3 its RUT column gives no body
 * (motivo says why: otros = "mantener" does not keep it, as whether it is derived is not known);
 * -2 out of memory. */
static int dt__mr_derivado_fila(dt_mascara_plan *p, size_t i, const char *const *valores, const size_t *largos, char *motivo) {
    const dt__mr_col *c = p->col[i].regla;
    uint32_t cuerpo = 0;
    const char *pq = NULL;
    if (c->con_entidad) { /* the body of the RUT column's original value */
        size_t e = p->col[i].entidad;
        const dt__mr_col *ec = p->col[e].regla;
        size_t pos = largos[e];
        while (pos > 0 && (valores[e][pos - 1] == ' ' || (valores[e][pos - 1] >= '\t' && valores[e][pos - 1] <= '\r'))) pos--;
        size_t fin = pos;
        if (!ec->dv && pos > 0) { /* a formatted RUT: the body is what comes before its check digit and dash */
            fin = pos - 1;
            while (fin > 0 && !(valores[e][fin - 1] >= '0' && valores[e][fin - 1] <= '9')) fin--;
        }
        if (largos[e] == 0 || dt__mp_cuerpo_de(valores[e], fin, &cuerpo) != 0)
            pq = largos[e] == 0 ? "its RUT column is empty, so there is no body to find in it" : "its RUT column is not a valid RUT, so there is no body to find in it";
    }
    if (pq != NULL) {
        snprintf(motivo, DT_SENTENCE_MAX, "%s", pq);
        return -3;
    }
    if (dt__mr_reservar(p, 7 * largos[i] + 8)) return -2;
    size_t m;
    if (dt__mp_derivado(p->k, valores[i], largos[i], c->con_entidad, cuerpo, p->buf + p->usado, &m, &pq) == 0) {
        int s = p->col[i].salida;
        p->vini[s] = p->usado;
        p->vlen[s] = m;
        p->usado += m;
        return 0;
    }
    snprintf(motivo, DT_SENTENCE_MAX, "%s", pq);
    return -1;
}

/* ---- a row's own values in its free text (propios.h) ---- */

/* Room in a note's pairs: the scratch bytes their composed spellings take. */
typedef struct dt__mr_propios {
    dt__mpr_par par[DT__MPR_MAX];
    size_t n;
    char tmp[2048];
    size_t usado;
} dt__mr_propios;

static void dt__mr_par(dt__mr_propios *pp, int clase, const char *o, size_t on, const char *m, size_t moff, size_t mn) {
    if (pp->n == DT__MPR_MAX || on < DT__MPR_ORIG_MIN || mn == 0) return;
    dt__mpr_par *q = &pp->par[pp->n++];
    q->clase = clase;
    q->orig = o;
    q->orig_n = on;
    q->masc = m;
    q->masc_off = moff;
    q->masc_n = mn;
}

/* "a b" into the scratch: its start, or NULL when it is full. */
static const char *dt__mr_junto(dt__mr_propios *pp, const char *a, size_t an, const char *b, size_t bn) {
    if (pp->usado + an + 1 + bn > sizeof pp->tmp) return NULL;
    char *t = pp->tmp + pp->usado;
    memcpy(t, a, an);
    t[an] = ' ';
    memcpy(t + an + 1, b, bn);
    pp->usado += an + 1 + bn;
    return t;
}

/* The pairs of a full name's parts: the original split as Chilean names are written (given names,
 * paternal surname, maternal surname; a particle joins its surname) against the masked persona's own
 * fields, so "Sr. Vergara" and "Olga Vergara" find the masked surname and name. */
static void dt__mr_partes(dt__mr_propios *pp, const char *o, size_t on, const dt_persona *mp) {
    size_t ui[12], uf[12];
    size_t k = dt__mpr_unidades(o, on, ui, uf, 12);
    if (k < 2 || k == 12) return;
    size_t g = k >= 3 ? k - 2 : 1; /* given names */
    const char *mn = mp->nombres, *mpat = mp->apellido_paterno, *mmat = mp->apellido_materno;
    size_t mnn = strlen(mn), mpatn = strlen(mpat), mmatn = strlen(mmat), mfirst = 0;
    while (mfirst < mnn && mn[mfirst] != ' ') mfirst++;
    const char *pat = o + ui[g];
    size_t patn = uf[g] - ui[g];
    const char *c;
    /* given names and surname: a prefix of the original; one given name stays one (word counts kept) */
    size_t mg = g > 1 ? mnn : mfirst;
    if ((c = dt__mr_junto(pp, mn, mg, mpat, mpatn)) != NULL) dt__mr_par(pp, DT__MPR_NOMBRE, o, uf[g] - ui[0], c, 0, mg + 1 + mpatn);
    if (g > 1) {
        const char *oc = dt__mr_junto(pp, o + ui[0], uf[0] - ui[0], pat, patn);
        const char *mc = dt__mr_junto(pp, mn, mfirst, mpat, mpatn);
        if (oc && mc) dt__mr_par(pp, DT__MPR_NOMBRE, oc, uf[0] - ui[0] + 1 + patn, mc, 0, mfirst + 1 + mpatn);
        dt__mr_par(pp, DT__MPR_NOMBRE, o + ui[0], uf[g - 1] - ui[0], mn, 0, mnn);
    }
    dt__mr_par(pp, DT__MPR_NOMBRE, o + ui[0], uf[0] - ui[0], mn, 0, mfirst);
    dt__mr_par(pp, DT__MPR_NOMBRE, pat, patn, mpat, 0, mpatn);
    if (k >= 3) {
        if ((c = dt__mr_junto(pp, mpat, mpatn, mmat, mmatn)) != NULL)
            dt__mr_par(pp, DT__MPR_NOMBRE, pat, uf[g + 1] - ui[g], c, 0, mpatn + 1 + mmatn);
        dt__mr_par(pp, DT__MPR_NOMBRE, o + ui[g + 1], uf[g + 1] - ui[g + 1], mmat, 0, mmatn);
    }
}

/* The body of a RUT column's original value, read as the derivado rule reads it (dt__mr_derivado_fila):
 * a formatted RUT's digits before its check digit, a split body whole. 0 and *cuerpo, or -1. */
static int dt__mr_cuerpo_propio(const char *v, size_t largo, int partido, uint32_t *cuerpo) {
    size_t pos = largo;
    while (pos > 0 && (v[pos - 1] == ' ' || (v[pos - 1] >= '\t' && v[pos - 1] <= '\r'))) pos--;
    size_t fin = pos;
    if (!partido && pos > 0) {
        fin = pos - 1;
        while (fin > 0 && !(v[fin - 1] >= '0' && v[fin - 1] <= '9')) fin--;
    }
    return largo == 0 ? -1 : dt__mp_cuerpo_de(v, fin, cuerpo);
}

/* The own values of the row for the texto column i (its buscar decides which kinds): those of persona
 * and sustituir columns, whose masked value depends on more than the value. An email, phone or plate
 * column's rule is keyed by the value alone, as texto's is, so the note already agrees with it, and in
 * the note's own spelling. */
static void dt__mr_propios_de(dt_mascara_plan *p, size_t i, const char *const *valores, const size_t *largos,
                              dt__mr_propios *pp) {
    unsigned buscar = p->col[i].regla->buscar;
    pp->n = 0;
    pp->usado = 0;
    for (size_t j = 0; j < p->n; j++) {
        const dt__mr_col *c = p->col[j].regla;
        int s = p->col[j].salida;
        if (j == i || c == NULL || s < 0 || p->vini[s] == (size_t)-1 || largos[j] == 0) continue;
        if (c->regla == DT__MR_RUT || (c->regla == DT__MR_DERIVADO && !c->con_entidad)) {
            /* its body as a bare number in the note (a CuentaRUT, issue 48): a rut column's, or the one
             * body of a derivado column without `de` (with `de`, its rut column's is the same body) */
            uint32_t cuerpo;
            const char *pq = NULL;
            if ((buscar & DT_MASCARA_BUSCAR_RUT) && !p->col[j].es_dv && pp->n < DT__MPR_MAX &&
                (c->regla == DT__MR_RUT ? dt__mr_cuerpo_propio(valores[j], largos[j], c->dv != NULL, &cuerpo)
                                        : dt__mp_buscar(valores[j], largos[j], 0, 0, &cuerpo, &pq)) == 0 &&
                cuerpo >= 1000000u) {
                dt__mpr_par *q = &pp->par[pp->n++];
                memset(q, 0, sizeof *q);
                q->clase = DT__MPR_CUERPO;
                q->cuerpo = cuerpo;
            }
            continue;
        }
        int clase = 0;
        if (c->regla == DT__MR_PERSONA)
            clase = c->campo <= 3 ? DT__MPR_NOMBRE : c->campo == 4 ? DT__MPR_EMAIL : c->campo == 5 ? DT__MPR_TELEFONO : c->campo == 6 ? DT__MPR_DIRECCION : 0;
        else if (c->regla == DT__MR_SUSTITUIR)
            clase = DT__MPR_NOMBRE;
        unsigned bit = clase == DT__MPR_NOMBRE ? DT_MASCARA_BUSCAR_NOMBRE : clase == DT__MPR_EMAIL ? DT_MASCARA_BUSCAR_EMAIL
                       : clase == DT__MPR_TELEFONO ? DT_MASCARA_BUSCAR_TELEFONO : DT_MASCARA_BUSCAR_DIRECCION;
        if (clase == 0 || !(buscar & bit)) continue;
        if (clase == DT__MPR_TELEFONO) {
            if (pp->usado + 16 > sizeof pp->tmp) continue;
            char *d = pp->tmp + pp->usado;
            size_t m = dt__mpr_digitos_telefono(valores[j], largos[j], d);
            pp->usado += m;
            if (m) dt__mr_par(pp, clase, d, m, NULL, p->vini[s], p->vlen[s]);
            continue;
        }
        dt__mr_par(pp, clase, valores[j], largos[j], NULL, p->vini[s], p->vlen[s]);
        if (c->regla == DT__MR_PERSONA && c->campo == 3 && p->ent[p->col[j].entidad].estado == 1 && p->ent[p->col[j].entidad].con_persona)
            dt__mr_partes(pp, valores[j], largos[j], &p->ent[p->col[j].entidad].p);
    }
}

/* texto's part of the note s[a, b) appended to the row buffer. 0, -1 refused (motivo), -2 no memory. */
static int dt__mr_texto_trozo(dt_mascara_plan *p, unsigned buscar, const char *s, size_t a, size_t b, char *motivo, size_t motivocap) {
    size_t quiero = b - a + 64, m = 0;
    for (int intento = 0; a < b && intento < 2; intento++) {
        if (dt__mr_reservar(p, quiero)) return -2;
        dt_status st = dt__mc_valor(p->k, DT__MC_TEXTO, buscar, s + a, b - a, p->buf + p->usado, quiero, &m, motivo, motivocap);
        if (st == DT_OK) {
            p->usado += m;
            return 0;
        }
        if (st != DT_ERR_BUFFER_TOO_SMALL) return st == DT_ERR_NO_MEMORY ? -2 : -1;
        quiero = m + 1;
    }
    return a < b ? -1 : 0;
}

/* The sigue column i of this row (original length `largo`): what its campo says of the comuna its de
 * column holds after masking. A code written without its leading zero (an integer column: 5101) is
 * written so again. 0; -1 when that column holds no comuna of the table; -2 out of memory. */
static int dt__mr_sigue_fila(dt_mascara_plan *p, size_t i, size_t largo) {
    int s = p->col[i].salida, sd = p->col[p->col[i].de].salida;
    const char *v = p->vini[sd] != (size_t)-1 ? p->buf + p->vini[sd] : p->vptr[sd];
    size_t n = p->vini[sd] != (size_t)-1 || p->vptr[sd] ? p->vlen[sd] : 0;
    long k = v ? dt__comuna_indice(v, n) : -1;
    if (k < 0) return -1;
    const dt_t_comuna *c = &dt_t_comunas[k];
    const dt_t_region *r = &dt_t_regiones[c->region];
    const char *t;
    size_t m;
    switch (p->col[i].regla->campo) {
    case 0: t = c->cut, m = 5; break;
    case 1: t = r->cut, m = 2; break;
    case 2: t = r->nombre.s, m = r->nombre.n; break;
    default: t = dt_t_provincias[c->provincia].nombre.s, m = dt_t_provincias[c->provincia].nombre.n; break;
    }
    if (p->col[i].regla->campo <= 1 && t[0] == '0' && largo == m - 1) t++, m--;
    if (dt__mr_reservar(p, m)) return -2;
    memcpy(p->buf + p->usado, t, m);
    p->vini[s] = p->usado;
    p->vlen[s] = m;
    p->usado += m;
    return 0;
}

/* A number as a sum reads it: an optional '-', digits, an optional point and up to 6 digits after it:
 * its digits as one integer into *v and the digits after the point into *dec. 0, or -1. */
static int dt__mr_numero(const char *s, size_t n, int64_t *v, int *dec) {
    size_t i = 0, digitos = 0;
    int neg = 0, punto = -1;
    int64_t x = 0;
    if (i < n && s[i] == '-') neg = 1, i++;
    for (; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            if (++digitos > 17) return -1;
            x = x * 10 + (s[i] - '0');
            if (punto >= 0) punto++;
        } else if (s[i] == '.' && punto < 0) punto = 0;
        else return -1;
    }
    if (digitos == 0 || punto > 6 || punto == 0) return -1;
    *v = neg ? -x : x;
    *dec = punto < 0 ? 0 : punto;
    return 0;
}

/* The suma column i of this row: the sum of its columns' masked values, with as many decimals as the most
 * precise of them. 0; -1 when a term is empty or no number; -2 out of memory. */
static int dt__mr_suma_fila(dt_mascara_plan *p, size_t i) {
    const dt__mr_col *c = p->col[i].regla;
    int64_t v[DT__MR_SUMA_MAX];
    int dec[DT__MR_SUMA_MAX], dmax = 0;
    for (size_t t = 0; t < c->nterminos; t++) {
        int st = p->col[p->col[i].terminos[t]].salida;
        const char *s = p->vini[st] != (size_t)-1 ? p->buf + p->vini[st] : p->vptr[st];
        size_t n = p->vini[st] != (size_t)-1 || p->vptr[st] ? p->vlen[st] : 0;
        if (s == NULL || dt__mr_numero(s, n, &v[t], &dec[t]) != 0) return -1;
        if (dec[t] > dmax) dmax = dec[t];
    }
    int64_t total = 0;
    for (size_t t = 0; t < c->nterminos; t++) {
        int64_t x = v[t];
        for (int e = dec[t]; e < dmax; e++) x *= 10;
        total += c->signos[t] * x;
    }
    char out[48], *q = out;
    uint64_t m = total < 0 ? (uint64_t)(-(total + 1)) + 1u : (uint64_t)total, escala = 1;
    for (int e = 0; e < dmax; e++) escala *= 10;
    if (total < 0) *q++ = '-';
    q = dt__put_u64(q, m / escala);
    if (dmax > 0) {
        *q++ = '.';
        uint64_t r = m % escala;
        for (int e = dmax - 1; e >= 0; e--, r /= 10) q[e] = (char)('0' + r % 10);
        q += dmax;
    }
    size_t largo = (size_t)(q - out);
    if (dt__mr_reservar(p, largo)) return -2;
    memcpy(p->buf + p->usado, out, largo);
    int s = p->col[i].salida;
    p->vini[s] = p->usado;
    p->vlen[s] = largo;
    p->usado += largo;
    return 0;
}

/* The texto column i of this row: its own values replaced by the row's masked ones, the rest by texto. */
static int dt__mr_texto_fila(dt_mascara_plan *p, size_t i, const char *const *valores, const size_t *largos, char *motivo,
                             size_t motivocap) {
    const dt__mr_col *c = p->col[i].regla;
    int s = p->col[i].salida;
    dt__mr_propios pp;
    dt__mr_propios_de(p, i, valores, largos, &pp);
    if (pp.n == 0) return dt__mr_valor(p, c, valores[i], largos[i], s, motivo, motivocap);
    size_t inicio = p->usado, desde = 0, a, b, q;
    const char *t = valores[i];
    size_t n = largos[i];
    while (dt__mpr_buscar(pp.par, pp.n, t, n, desde, &a, &b, &q)) {
        int rc = dt__mr_texto_trozo(p, c->buscar, t, desde, a, motivo, motivocap);
        if (rc < 0) goto fallo;
        if (pp.par[q].clase == DT__MPR_CUERPO) { /* the run masked as the derivado rule masks it */
            size_t m = 0;
            const char *pq = NULL;
            if (dt__mr_reservar(p, 7 * (b - a) + 8)) {
                rc = -2;
                goto fallo;
            }
            if (dt__mp_derivado(p->k, t + a, b - a, 1, (uint32_t)pp.par[q].cuerpo, p->buf + p->usado, &m, &pq) != 0) {
                rc = -1;
                snprintf(motivo, motivocap, "texto: the row's RUT body could not be masked in the note");
                goto fallo;
            }
            p->usado += m;
            desde = b;
            continue;
        }
        if (dt__mr_reservar(p, pp.par[q].masc_n)) {
            rc = -2;
            goto fallo;
        }
        const char *m = pp.par[q].masc ? pp.par[q].masc : p->buf + pp.par[q].masc_off; /* after the buffer moved */
        memcpy(p->buf + p->usado, m, pp.par[q].masc_n);
        p->usado += pp.par[q].masc_n;
        desde = b;
        continue;
    fallo:
        p->usado = inicio;
        dt__borrar(&pp, sizeof pp);
        return rc;
    }
    int rc = dt__mr_texto_trozo(p, c->buscar, t, desde, n, motivo, motivocap);
    dt__borrar(&pp, sizeof pp); /* the originals' digits and name parts */
    if (rc < 0) {
        p->usado = inicio;
        return rc;
    }
    p->vini[s] = inicio;
    p->vlen[s] = p->usado - inicio;
    return 0;
}

/* The name of column i as sentences show it, made only for a sentence (not per row: 12 % of a run). */
#define DT__MR_ESTA_COLUMNA (dt__mr_citar(p->nombre[i], p->largo[i]).s)

dt_status dt_mascara_plan_fila(dt_mascara_plan *p, uint64_t fila, size_t n, const char *const *valores,
                               const size_t *largos, char *why, size_t whycap) {
    if (why && whycap) why[0] = '\0';
    if (p == NULL || (n > 0 && (valores == NULL || largos == NULL))) {
        if (why) dt__sentence_out("plan: p must not be NULL, nor valores and largos with n > 0", why, whycap, NULL);
        return DT_ERR_NULL;
    }
    if (n != p->n) {
        if (why && whycap) snprintf(why, whycap, "row %llu has %zu values, the header %zu columns", (unsigned long long)fila, n, p->n);
        return DT_ERR_INVALID_ARG;
    }
    p->usado = 0;
    for (size_t i = 0; i < n; i++) p->ent[i].estado = 0;
    dt__mr_invalido pol = p->r->invalido;
    char motivo[DT_SENTENCE_MAX];
    for (size_t i = 0; i < n; i++) {
        int s = p->col[i].salida;
        const dt__mr_col *c = p->col[i].regla;
        if (s < 0 || p->col[i].es_dv) continue; /* a check digit column: written with its body */
        p->vptr[s] = NULL;
        p->vini[s] = (size_t)-1;
        p->vlen[s] = 0;
        if (c == NULL || c->regla == DT__MR_MANTENER) {
            p->vptr[s] = valores[i];
            p->vlen[s] = largos[i];
            continue;
        }
        if (c->regla == DT__MR_RUT && c->dv) {
            int rc = dt__mr_partido_fila(p, i, valores, largos, pol, &motivo[0]);
            if (rc == -2) goto sin_memoria;
            if (rc < 0 && pol == DT__MR_ERROR) {
                if (why && whycap)
                    snprintf(why, whycap, "row %llu, column %s: not a valid RUT with its check digit column %s (%s); "
                             "politica.invalido is \"error\"", (unsigned long long)fila, DT__MR_ESTA_COLUMNA,
                             dt__mr_citar(p->nombre[p->col[i].dv], p->largo[p->col[i].dv]).s, motivo);
                return DT_ERR_INVALID_ARG;
            }
            continue;
        }
        if (c->regla == DT__MR_NULO || largos[i] == 0) continue; /* an empty value has nothing to hide */
        if (c->regla == DT__MR_DERIVADO) {
            int rc = dt__mr_derivado_fila(p, i, valores, largos, &motivo[0]);
            if (rc == -2) goto sin_memoria;
            if (rc == -1 && c->otros_mantener) {
                p->vptr[s] = valores[i];
                p->vlen[s] = largos[i];
            } else if (rc < 0 && pol == DT__MR_ERROR) {
                if (why && whycap)
                    snprintf(why, whycap, "row %llu, column %s: %s; politica.invalido is \"error\"", (unsigned long long)fila,
                             DT__MR_ESTA_COLUMNA, motivo);
                return DT_ERR_INVALID_ARG;
            } /* nulo and invalido: emptied (a derived value kept wrong would be the real one) */
            continue;
        }
        if (c->regla == DT__MR_VALOR && c->tipo == DT__MC_TEXTO) continue; /* after the others: it may hold their values */
        if (c->regla == DT__MR_SIGUE || c->regla == DT__MR_SUMA) continue; /* after the columns they follow */
        if (c->regla == DT__MR_CONSTANTE) {
            if (dt__mr_reservar(p, c->valor_largo)) goto sin_memoria;
            memcpy(p->buf + p->usado, c->valor, c->valor_largo);
            p->vini[s] = p->usado;
            p->vlen[s] = c->valor_largo;
            p->usado += c->valor_largo;
            continue;
        }
        if (c->regla == DT__MR_VALOR) {
            int rc = dt__mr_valor(p, c, valores[i], largos[i], s, motivo, sizeof motivo);
            if (rc == -2) goto sin_memoria;
            if (rc < 0 && pol == DT__MR_ERROR) { /* nulo and invalido: emptied, as a RUT that is not one */
                if (why && whycap)
                    snprintf(why, whycap, "row %llu, column %s: not a valid %s (%s); politica.invalido is \"error\"",
                             (unsigned long long)fila, DT__MR_ESTA_COLUMNA, c->tipo == DT__MC_EMAIL ? "email" : c->tipo == DT__MC_TELEFONO ? "phone"
                             : c->tipo == DT__MC_PATENTE ? "plate" : c->tipo == DT__MC_IP ? "IP address" : c->tipo == DT__MC_COORDENADA ? "coordinate"
                             : c->tipo == DT__MC_IMAGEN ? "image" : "value", motivo);
                return DT_ERR_INVALID_ARG;
            }
            continue;
        }
        if (c->regla == DT__MR_RUT) {
            size_t m;
            uint32_t cuerpo;
            const char *pq = NULL;
            int rc = dt__mr_rut(p, valores[i], largos[i], pol == DT__MR_INVALIDO, &m, &cuerpo, &pq, motivo, sizeof motivo);
            if (rc == -2) goto sin_memoria;
            if (rc >= 0) {
                p->vini[s] = p->usado;
                p->vlen[s] = m;
                p->usado += m;
            } else if (pol == DT__MR_ERROR) {
                if (why && whycap)
                    snprintf(why, whycap, "row %llu, column %s: not a valid RUT (%s); politica.invalido is \"error\"",
                             (unsigned long long)fila, DT__MR_ESTA_COLUMNA, pq);
                return DT_ERR_INVALID_ARG;
            }
            continue;
        }
        /* the row's entity (persona; fecha and monto with entidad): its masked body, once per row */
        size_t e = p->col[i].entidad;
        dt__mr_ent *en = c->con_entidad ? &p->ent[e] : NULL;
        if (en && en->estado == 0) {
            size_t guardado = p->usado, m;
            const char *pq = NULL;
            uint32_t b;
            int rc = largos[e] == 0 ? -1
                     : p->col[e].regla->dv ? (dt__mp_cuerpo_de(valores[e], largos[e], &b) == 0 && dt_mascara_rut_cuerpo(p->k, b, &en->cuerpo) == DT_OK ? 0 : -1)
                                           : dt__mr_rut(p, valores[e], largos[e], pol == DT__MR_INVALIDO, &m, &en->cuerpo, &pq, motivo, sizeof motivo);
            if (rc == -2) goto sin_memoria;
            p->usado = guardado; /* only the body was wanted */
            en->estado = rc >= 0 ? 1 : 2;
            en->con_persona = 0;
            en->por_que = largos[e] == 0 ? "is empty" : "is not a valid RUT";
        }
        if (en && en->estado == 2) {
            if (pol == DT__MR_ERROR) {
                char que[80];
                if (c->regla == DT__MR_PERSONA) snprintf(que, sizeof que, "persona to take %s from", dt__mr_campos[c->campo]);
                else snprintf(que, sizeof que, "%s", c->regla == DT__MR_FECHA ? "offset to shift its date by" : "factor to scale its amount by");
                if (why && whycap)
                    snprintf(why, whycap, "row %llu, column %s: its entity %s %s, so there is no %s; politica.invalido is \"error\"",
                             (unsigned long long)fila, DT__MR_ESTA_COLUMNA, dt__mr_citar(p->nombre[e], p->largo[e]).s, en->por_que, que);
                return DT_ERR_INVALID_ARG;
            }
            continue; /* nulo and invalido: emptied */
        }
        if (c->regla != DT__MR_PERSONA) {
            /* fecha, monto, sustituir: dt_mascara_fecha and the others write at most DT_MAX_TEXT bytes */
            if (dt__mr_reservar(p, DT_MAX_TEXT)) goto sin_memoria;
            size_t m = 0;
            uint32_t cuerpo = en ? en->cuerpo : 0;
            char *out = p->buf + p->usado;
            dt_status st = c->regla == DT__MR_FECHA && c->conserva ? dt_mascara_fecha(p->k, valores[i], largos[i], cuerpo, c->parametro, out, DT_MAX_TEXT, &m, motivo, sizeof motivo)
                           : c->regla == DT__MR_MONTO && c->conserva ? dt_mascara_monto(p->k, valores[i], largos[i], cuerpo, c->parametro, out, DT_MAX_TEXT, &m, motivo, sizeof motivo)
                           : c->regla == DT__MR_FECHA ? dt__mv_fecha_celda(p->k, valores[i], largos[i], cuerpo, c->nombre, c->largo, c->parametro, c->grado, out, DT_MAX_TEXT, &m, motivo, sizeof motivo)
                           : c->regla == DT__MR_MONTO ? dt__mv_monto_celda(p->k, valores[i], largos[i], cuerpo, c->nombre, c->largo, c->parametro, c->grado, out, DT_MAX_TEXT, &m, motivo, sizeof motivo)
                                                      : dt_mascara_sustituir(p->k, c->llamada, valores[i], largos[i], out, DT_MAX_TEXT, &m, motivo, sizeof motivo);
            if (st == DT_ERR_NO_MEMORY) goto sin_memoria;
            if (st == DT_OK) {
                p->vini[s] = p->usado;
                p->vlen[s] = m;
                p->usado += m;
            } else if (pol == DT__MR_ERROR) {
                if (why && whycap)
                    snprintf(why, whycap, "row %llu, column %s: %s; politica.invalido is \"error\"", (unsigned long long)fila, DT__MR_ESTA_COLUMNA, motivo);
                return DT_ERR_INVALID_ARG;
            } /* nulo and invalido: emptied (no date or amount is kept wrong: it has nothing but its value) */
            continue;
        }
        /* persona: of the original sex when the rule names a sex column */
        dt_sexo sexo = DT_SEXO_CUALQUIERA;
        if (c->con_sexo && dt_mascara_sexo_leer(valores[p->col[i].sexo], largos[p->col[i].sexo], &sexo) != DT_OK) {
            if (pol == DT__MR_ERROR) {
                if (why && whycap)
                    snprintf(why, whycap,
                             "row %llu, column %s: its sexo column %s %s, so there is no persona of that sex to take %s "
                             "from; politica.invalido is \"error\"",
                             (unsigned long long)fila, DT__MR_ESTA_COLUMNA, dt__mr_citar(p->nombre[p->col[i].sexo], p->largo[p->col[i].sexo]).s,
                             largos[p->col[i].sexo] == 0 ? "is empty" : "is not F, M, femenino, masculino, mujer or hombre",
                             dt__mr_campos[c->campo]);
                return DT_ERR_INVALID_ARG;
            }
            continue;
        }
        if (!en->con_persona || en->p_sexo != sexo) {
            dt_status st = dt_mascara_persona_sexo(p->k, en->cuerpo, sexo, &en->p);
            if (st == DT_ERR_NO_MEMORY) goto sin_memoria;
            if (st != DT_OK) { /* a masked body is always in range: not reached */
                if (why) dt__sentence_out("plan: the persona of an entity could not be made", why, whycap, NULL);
                return st;
            }
            en->con_persona = 1;
            en->p_sexo = sexo;
        }
        const char *v = dt__mr_campo_de(&en->p, c->campo);
        char contacto[128];
        if (c->campo == 4 || c->campo == 5) { /* mascara_contacto.c: reaches no one unless realista */
            (c->campo == 4 ? dt__mc_persona_email : dt__mc_persona_telefono)(&en->p, en->cuerpo, c->realista, contacto);
            v = contacto;
        }
        size_t m = strlen(v);
        if (dt__mr_reservar(p, m)) goto sin_memoria;
        memcpy(p->buf + p->usado, v, m);
        p->vini[s] = p->usado;
        p->vlen[s] = m;
        p->usado += m;
    }
    for (size_t i = 0; i < n; i++) {
        const dt__mr_col *c = p->col[i].regla;
        if (p->col[i].salida < 0 || c == NULL || c->regla != DT__MR_SIGUE || largos[i] == 0) continue;
        int rc = dt__mr_sigue_fila(p, i, largos[i]);
        if (rc == -2) goto sin_memoria;
        if (rc < 0) {
            if (pol == DT__MR_ERROR) {
                if (why && whycap)
                    snprintf(why, whycap, "row %llu, column %s: its comuna column %s does not hold a comuna after masking, so "
                             "there is nothing to follow; politica.invalido is \"error\"", (unsigned long long)fila,
                             DT__MR_ESTA_COLUMNA, dt__mr_citar(p->nombre[p->col[i].de], p->largo[p->col[i].de]).s);
                return DT_ERR_INVALID_ARG;
            } /* nulo and invalido: emptied (a code kept would point at the real comuna) */
        }
    }
    for (size_t i = 0; i < n; i++) {
        const dt__mr_col *c = p->col[i].regla;
        if (p->col[i].salida < 0 || c == NULL || c->regla != DT__MR_SUMA || largos[i] == 0) continue;
        int rc = dt__mr_suma_fila(p, i);
        if (rc == -2) goto sin_memoria;
        if (rc < 0 && pol == DT__MR_ERROR) {
            if (why && whycap)
                snprintf(why, whycap, "row %llu, column %s: a column of its sum does not hold a number after masking (digits, "
                         "a '-' and a decimal point); politica.invalido is \"error\"", (unsigned long long)fila, DT__MR_ESTA_COLUMNA);
            return DT_ERR_INVALID_ARG;
        } /* nulo and invalido: emptied */
    }
    for (size_t i = 0; i < n; i++) {
        const dt__mr_col *c = p->col[i].regla;
        if (p->col[i].salida < 0 || c == NULL || c->regla != DT__MR_VALOR || c->tipo != DT__MC_TEXTO || largos[i] == 0) continue;
        int rc = dt__mr_texto_fila(p, i, valores, largos, motivo, sizeof motivo);
        if (rc == -2) goto sin_memoria;
        if (rc < 0 && pol == DT__MR_ERROR) {
            if (why && whycap)
                snprintf(why, whycap, "row %llu, column %s: not a text texto can read (%s); politica.invalido is \"error\"",
                         (unsigned long long)fila, DT__MR_ESTA_COLUMNA, motivo);
            return DT_ERR_INVALID_ARG;
        }
    }
    for (size_t s = 0; s < p->nsal; s++)
        if (p->vini[s] != (size_t)-1) p->vptr[s] = p->buf + p->vini[s];
        else if (p->vptr[s] == NULL) p->vptr[s] = "";
    return DT_OK;
sin_memoria:
    if (why) dt__sentence_out("plan: out of memory", why, whycap, NULL);
    return DT_ERR_NO_MEMORY;
}
