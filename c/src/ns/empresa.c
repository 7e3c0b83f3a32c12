/* empresa: business names with legal forms, giros, company RUTs and the company record. */
#include "internal.h"

typedef struct dt__nombres_empresa {
    char fantasia[80];  /* "Constructora Soto y Díaz": also the company's mail domain */
    char razon[96];     /* "Constructora Soto y Díaz SpA" */
    uint32_t giro;
    uint32_t forma;     /* DT_T_N_FORMAS when drawn without a legal form */
} dt__nombres_empresa;

/* Draws: legal form (one, only when con_forma), giro (one; its rubro heads the name), then
 * for an E.I.R.L. its owner's sex, given name and surname (Ley 19.857 art. 4 wants the
 * owner's name), otherwise a pattern (one): two surnames ("Soto y Díaz", two of three) or a
 * person's name ("Juan Soto"). Single surnames and street names are not used: with 24 giros
 * they leave too few distinct names for distinct mail domains (docs/data.md). */
static void dt__gen_nombres_empresa(dt_gen *g, int con_forma, dt__nombres_empresa *n) {
    n->forma = con_forma ? dt__below(g, DT_T_N_FORMAS) : DT_T_N_FORMAS;
    n->giro = dt__below(g, DT_T_N_GIROS);
    char *p = dt__puts(n->fantasia, &dt_t_giros[n->giro].rubro);
    *p++ = ' ';
    if (n->forma == DT_T_N_FORMAS - 1 || dt__below(g, 3) == 2) {
        p = dt__gen_nombre(g, dt__sexo(g, DT_SEXO_CUALQUIERA), p);
        *p++ = ' ';
        p = dt__gen_apellido(g, p);
    } else {
        p = dt__gen_apellido(g, p);
        p = dt__put(p, " y ", 3);
        p = dt__gen_apellido(g, p);
    }
    *p = '\0';
    p = dt__put(n->razon, n->fantasia, strlen(n->fantasia));
    if (con_forma) {
        *p++ = ' ';
        p = dt__puts(p, &dt_t_formas[n->forma]);
    }
    *p = '\0';
}

char *dt__empresa_nombre(dt_gen *g, char *p) {
    dt__nombres_empresa n;
    dt__gen_nombres_empresa(g, 0, &n);
    p = dt__put(p, n.fantasia, strlen(n.fantasia));
    return p;
}

char *dt__empresa_razon_social(dt_gen *g, char *p) {
    dt__nombres_empresa n;
    dt__gen_nombres_empresa(g, 1, &n);
    p = dt__put(p, n.razon, strlen(n.razon));
    return p;
}

char *dt__empresa_rut(dt_gen *g, dt_rut_formato formato, char *p) {
    return dt__rut(g, DT_RUT_EMPRESA, formato, p);
}

char *dt__empresa_giro(dt_gen *g, char *p) {
    p = dt__puts(p, &dt_t_giros[dt__below(g, DT_T_N_GIROS)].giro);
    return p;
}

/* One draw: an S.A. may be old (DT_RUT_SA_ANTIGUA_MIN..MAX) or recent; other forms exist
 * only since the 2000s (SpA 2007, E.I.R.L. 2003) or are taken as recent (c/data/rut_rangos.csv). */
static uint32_t dt__gen_rut_empresa(dt_gen *g, uint32_t forma) {
    if (forma != DT_T_FORMA_SA || dt__es_unico(g, DT__U_RUT)) return dt__gen_rut_cuerpo(g, DT_RUT_EMPRESA);
    const uint32_t recientes = DT_RUT_EMPRESA_MAX - DT_RUT_EMPRESA_MIN + 1;
    uint32_t k = dt__below(g, recientes + (DT_RUT_SA_ANTIGUA_MAX - DT_RUT_SA_ANTIGUA_MIN + 1));
    return k < recientes ? DT_RUT_EMPRESA_MIN + k : DT_RUT_SA_ANTIGUA_MIN + (k - recientes);
}

/* Draws: names (as razon_social), RUT body (one), the region among those its giro allows (one, by
 * population), the rest of the address: what a company record and a DTE's emisor share. */
void dt__gen_empresa_base(dt_gen *g, dt__empresa_base *out) {
    dt__nombres_empresa n;
    dt__gen_nombres_empresa(g, 1, &n);
    out->cuerpo = dt__gen_rut_empresa(g, n.forma);
    const dt_t_giro *giro = &dt_t_giros[n.giro];
    uint32_t ri = giro->regiones[dt__alias(g, &giro->pesos)];
    dt__gen_direccion(g, (int32_t)ri + 1, &out->direccion, &out->comuna);
    memcpy(out->razon, n.razon, sizeof out->razon);
    memcpy(out->fantasia, n.fantasia, sizeof out->fantasia);
    out->giro = &giro->giro;
}

/* Draws: names (as razon_social), RUT body: a DTE's receptor, without an address. */
void dt__gen_empresa_nombre_rut(dt_gen *g, dt__empresa_base *out) {
    dt__nombres_empresa n;
    dt__gen_nombres_empresa(g, 1, &n);
    out->cuerpo = dt__gen_rut_empresa(g, n.forma);
    memcpy(out->razon, n.razon, sizeof out->razon);
    memcpy(out->fantasia, n.fantasia, sizeof out->fantasia);
    out->giro = &dt_t_giros[n.giro].giro;
}

/* Draws: as dt__gen_empresa_base, the fixed line's number (area code of the address's comuna),
 * the mailbox (one). */
void dt__empresa_empresa(dt_gen *g, dt_empresa *out) {
    static const dt_t_str buzones[8] = {{"contacto", 8}, {"ventas", 6},      {"administracion", 14}, {"info", 4},
                                        {"facturacion", 11}, {"gerencia", 8}, {"comercial", 9},     {"finanzas", 8}};
    dt__empresa_base b;
    dt__gen_empresa_base(g, &b);
    char tmp[128];
    char *e = dt__put_rut(tmp, b.cuerpo, DT_RUT_PUNTOS);
    dt__field(out->rut, tmp, (size_t)(e - tmp));
    const dt_direccion *d = &b.direccion;
    e = dt__gen_fijo_area(g, dt_t_comunas[b.comuna].area, DT_TEL_INTERNACIONAL, tmp);
    dt__field(out->telefono, tmp, (size_t)(e - tmp));
    e = dt__puts(tmp, &buzones[dt__below(g, 8)]);
    if (dt__es_unico(g, DT__U_EMAIL)) e = dt__put_u64(e, 1 + dt__unico_en(g, DT__U_EMAIL, DT__EMAIL_UNICOS));
    *e++ = '@';
    e = dt__put_ascii_fold(e, b.fantasia, strlen(b.fantasia));
    e = dt__put(e, ".cl", 3);
    dt__field(out->email, tmp, (size_t)(e - tmp));
    dt__field(out->razon_social, b.razon, strlen(b.razon));
    dt__field(out->nombre_fantasia, b.fantasia, strlen(b.fantasia));
    dt__field(out->giro, b.giro->s, b.giro->n);
    dt__field(out->direccion, d->linea, strlen(d->linea));
    dt__field(out->comuna, d->comuna, strlen(d->comuna));
    dt__field(out->region, d->region, strlen(d->region));
    dt__field(out->codigo_comuna, d->codigo_comuna, strlen(d->codigo_comuna));
    dt__field(out->codigo_region, d->codigo_region, strlen(d->codigo_region));
}
