/* empresa: business names with legal forms, giros, company RUTs and the company record. */
#include "internal.h"

typedef struct dt__nombres_empresa {
    char base[64];      /* "Soto y Díaz": also the company's mail domain */
    char fantasia[80];  /* "Constructora Soto y Díaz" */
    char razon[96];     /* "Constructora Soto y Díaz SpA" */
    uint32_t giro;
} dt__nombres_empresa;

/* Draws: legal form (one, only when con_forma), giro (one; its rubro heads the name),
 * then for an E.I.R.L. the owner's sex, given name and surname (three), otherwise a
 * pattern (one: surname | surname y surname | a street's name) and its parts. */
static void dt__gen_nombres_empresa(dt_gen *g, int con_forma, dt__nombres_empresa *n) {
    uint32_t forma = con_forma ? dt__below(g, DT_T_N_FORMAS) : 0;
    n->giro = dt__below(g, DT_T_N_GIROS);
    char *p = n->base;
    if (con_forma && forma == DT_T_N_FORMAS - 1) {
        p = dt__gen_nombre(g, dt__sexo(g, DT_SEXO_CUALQUIERA), p);
        *p++ = ' ';
        p = dt__gen_apellido(g, p);
    } else {
        switch (dt__below(g, 3)) {
        case 0: p = dt__gen_apellido(g, p); break;
        case 1:
            p = dt__gen_apellido(g, p);
            p = dt__put(p, " y ", 3);
            p = dt__gen_apellido(g, p);
            break;
        default: p = dt__puts(p, &dt_t_calles[dt__below(g, DT_T_N_CALLES)]); break;
        }
    }
    *p = '\0';
    p = dt__puts(n->fantasia, &dt_t_giros[n->giro].rubro);
    *p++ = ' ';
    p = dt__put(p, n->base, strlen(n->base));
    *p = '\0';
    p = dt__put(n->razon, n->fantasia, strlen(n->fantasia));
    if (con_forma) {
        *p++ = ' ';
        p = dt__puts(p, &dt_t_formas[forma]);
    }
    *p = '\0';
}

dt_status dt_empresa_nombre(dt_gen *g, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(1);
    dt__nombres_empresa n;
    dt__gen_nombres_empresa(g, 0, &n);
    p = dt__put(p, n.fantasia, strlen(n.fantasia));
    DT_END_TEXT();
}

dt_status dt_empresa_razon_social(dt_gen *g, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(1);
    dt__nombres_empresa n;
    dt__gen_nombres_empresa(g, 1, &n);
    p = dt__put(p, n.razon, strlen(n.razon));
    DT_END_TEXT();
}

dt_status dt_empresa_rut(dt_gen *g, dt_rut_formato formato, char *buf, size_t cap, size_t *len) {
    return dt_rut(g, DT_RUT_EMPRESA, formato, buf, cap, len);
}

dt_status dt_empresa_giro(dt_gen *g, char *buf, size_t cap, size_t *len) {
    DT_BEGIN_TEXT(1);
    p = dt__puts(p, &dt_t_giros[dt__below(g, DT_T_N_GIROS)].giro);
    DT_END_TEXT();
}

/* Draws: names (as razon_social), RUT body (company range), address, the fixed line's
 * number (area code of the address's comuna), the mailbox (one). */
dt_status dt_empresa_empresa(dt_gen *g, dt_empresa *out) {
    static const dt_t_str buzones[4] = {{"contacto", 8}, {"ventas", 6}, {"administracion", 14}, {"info", 4}};
    if (g == NULL || out == NULL) return DT_ERR_NULL;
    dt__nombres_empresa n;
    dt__gen_nombres_empresa(g, 1, &n);
    char tmp[128];
    char *e = dt__put_rut(tmp, dt__gen_rut_cuerpo(g, DT_RUT_EMPRESA), DT_RUT_PUNTOS);
    dt__field(out->rut, tmp, (size_t)(e - tmp));
    dt_direccion d;
    uint32_t ci;
    dt__gen_direccion(g, 0, &d, &ci);
    e = dt__gen_fijo_area(g, dt_t_comunas[ci].area, DT_TEL_INTERNACIONAL, tmp);
    dt__field(out->telefono, tmp, (size_t)(e - tmp));
    e = dt__puts(tmp, &buzones[dt__below(g, 4)]);
    *e++ = '@';
    e = dt__put_ascii_fold(e, n.base, strlen(n.base));
    e = dt__put(e, ".cl", 3);
    dt__field(out->email, tmp, (size_t)(e - tmp));
    dt__field(out->razon_social, n.razon, strlen(n.razon));
    dt__field(out->nombre_fantasia, n.fantasia, strlen(n.fantasia));
    const dt_t_str *giro = &dt_t_giros[n.giro].giro;
    dt__field(out->giro, giro->s, giro->n);
    dt__field(out->direccion, d.linea, strlen(d.linea));
    dt__field(out->comuna, d.comuna, strlen(d.comuna));
    dt__field(out->region, d.region, strlen(d.region));
    return DT_OK;
}
