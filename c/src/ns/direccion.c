/* direccion: regions, comunas, streets and the address record. */
#include "internal.h"


/* Region codes 1..16 are table indices 0..15 (regiones.csv is in code order; a C test
 * checks it). Region 0 draws one, weighted by population. */
uint32_t dt__gen_region(dt_gen *g, int32_t region) {
    return region == 0 ? dt__alias(g, &dt_t_region_alias) : (uint32_t)(region - 1);
}

uint32_t dt__gen_comuna(dt_gen *g, uint32_t ri) {
    const dt_t_region *r = &dt_t_regiones[ri];
    return r->comuna_first + dt__alias(g, &r->comunas);
}

/* Street type by faker es_CL's weights; one draw. */
static const dt_t_str *dt__tipo_via(dt_gen *g) {
    uint32_t r = dt__below(g, DT_T_TIPOS_VIA_TOTAL);
    uint32_t i = 0;
    while (r >= dt_t_tipos_via_acum[i]) i++;
    return &dt_t_tipos_via[i];
}

/* "Calle" is how the data names the default type; Chileans do not write it. */
static char *dt__put_via(char *p, const dt_t_str *tipo, const dt_t_str *nombre) {
    if (tipo != NULL && tipo->n && !(tipo->n == 5 && memcmp(tipo->s, "Calle", 5) == 0)) {
        p = dt__puts(p, tipo);
        *p++ = ' ';
    }
    return dt__puts(p, nombre);
}

static uint32_t dt__gen_numero(dt_gen *g) {
    uint32_t banda = dt__below(g, 100);
    if (banda < 55) return 1 + dt__below(g, 999);
    if (banda < 90) return 1000 + dt__below(g, 4000);
    return 5000 + dt__below(g, 10000);
}

static const dt_t_str dt__avenida = {"Avenida", 7};

/* Draws: region (if 0), comuna, street index (one; Gran Santiago also has Santiago's
 * avenues), street type (one, general streets only), number (two), then in an urban comuna
 * (DT_T_ZONA_URBANA) the depto decision (one; 30 % get floor and unit: two more). The
 * postal code is the comuna's (no draw). */
void dt__sortear_direccion(dt_gen *g, int32_t region, dt__sorteo_direccion *d) {
    d->region = dt__gen_region(g, region);
    d->comuna = dt__gen_comuna(g, d->region);
    const dt_t_comuna *c = &dt_t_comunas[d->comuna];
    int santiago = (c->zona & DT_T_ZONA_GRAN_SANTIAGO) != 0;
    uint32_t k = dt__below(g, DT_T_N_CALLES + (santiago ? DT_T_N_AVENIDAS_RM : 0));
    static const dt_t_str vacio = {"", 0};
    if (k < DT_T_N_CALLES) {
        d->nombre = &dt_t_calles[k];
        d->tipo = dt__tipo_via(g);
    } else {
        d->nombre = &dt_t_avenidas_rm[k - DT_T_N_CALLES];
        d->tipo = dt_t_avenidas_rm_con_tipo[k - DT_T_N_CALLES] ? &dt__avenida : &vacio;
    }
    d->numero = dt__gen_numero(g);
    d->piso = d->unidad = 0;
    if ((c->zona & DT_T_ZONA_URBANA) && dt__below(g, 100) < 30) {
        d->piso = 1 + dt__below(g, 25);
        d->unidad = 1 + dt__below(g, 12);
    }
}

static char *dt__put_depto(char *p, const dt__sorteo_direccion *d) {
    if (d->piso == 0) return p;
    p = dt__put(p, "Depto. ", 7);
    p = dt__put_u64(p, d->piso);
    return dt__put_u32_width(p, d->unidad, 2);
}

char *dt__put_linea(char *p, const dt__sorteo_direccion *d) {
    p = dt__put_via(p, d->tipo, d->nombre);
    *p++ = ' ';
    p = dt__put_u64(p, d->numero);
    if (d->piso) {
        p = dt__put(p, ", ", 2);
        p = dt__put_depto(p, d);
    }
    p = dt__put(p, ", ", 2);
    p = dt__puts(p, &dt_t_comunas[d->comuna].nombre);
    p = dt__put(p, ", ", 2);
    return dt__puts(p, &dt_t_regiones[d->region].nombre);
}

void dt__gen_direccion(dt_gen *g, int32_t region, dt_direccion *out, uint32_t *comuna_index) {
    dt__sorteo_direccion d;
    dt__sortear_direccion(g, region, &d);
    const dt_t_comuna *c = &dt_t_comunas[d.comuna];
    const dt_t_region *r = &dt_t_regiones[d.region];
    const dt_t_provincia *pv = &dt_t_provincias[c->provincia];
    char tmp[32];
    dt__field(out->tipo_via, d.tipo->s, d.tipo->n);
    dt__field(out->nombre_via, d.nombre->s, d.nombre->n);
    dt__field(out->numero, tmp, (size_t)(dt__put_u64(tmp, d.numero) - tmp));
    dt__field(out->depto, tmp, (size_t)(dt__put_depto(tmp, &d) - tmp));
    dt__field(out->comuna, c->nombre.s, c->nombre.n);
    dt__field(out->codigo_comuna, c->cut, 5);
    dt__field(out->provincia, pv->nombre.s, pv->nombre.n);
    dt__field(out->codigo_provincia, pv->cut, 3);
    dt__field(out->region, r->nombre.s, r->nombre.n);
    dt__field(out->codigo_region, r->cut, 2);
    dt__field(out->codigo_postal, c->postal, strlen(c->postal)); /* the comuna's own code: no draw */
    *dt__put_linea(out->linea, &d) = '\0';
    if (comuna_index) *comuna_index = d.comuna;
}

char *dt__direccion_region(dt_gen *g, char *p) {
    p = dt__puts(p, &dt_t_regiones[dt__gen_region(g, 0)].nombre);
    return p;
}

char *dt__direccion_comuna(dt_gen *g, int32_t region, char *p) {
    p = dt__puts(p, &dt_t_comunas[dt__gen_comuna(g, dt__gen_region(g, region))].nombre);
    return p;
}

/* Draws: street index (one, general streets), street type (one). */
char *dt__direccion_calle(dt_gen *g, char *p) {
    const dt_t_str *nombre = &dt_t_calles[dt__below(g, DT_T_N_CALLES)];
    p = dt__put_via(p, dt__tipo_via(g), nombre);
    return p;
}

int64_t dt__direccion_numero(dt_gen *g) {
    return dt__gen_numero(g);
}

void dt__direccion_direccion(dt_gen *g, int32_t region, dt_direccion *out) {
    dt__gen_direccion(g, region, out, NULL);
}
