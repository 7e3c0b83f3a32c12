/* persona: names, surnames, sex, email and the person record. */
#include "internal.h"


int dt__sexo(dt_gen *g, int sexo) {
    if (sexo != DT_SEXO_CUALQUIERA) return sexo;
    return dt__next(g) < DT_T_UMBRAL_MUJER ? DT_SEXO_F : DT_SEXO_M;
}

static uint32_t dt__idx_nombre(dt_gen *g, int sexo) {
    return dt__alias(g, sexo == DT_SEXO_F ? &dt_t_nombres_f_alias : &dt_t_nombres_m_alias);
}

static char *dt__put_nombre(char *p, int sexo, uint32_t i) {
    /* A fixed 16-byte copy: scratch buffers always have room past the name. */
    if (sexo == DT_SEXO_F) {
        memcpy(p, dt_t_nombres_f[i].s, 16);
        return p + dt_t_nombres_f_len[i];
    }
    memcpy(p, dt_t_nombres_m[i].s, 16);
    return p + dt_t_nombres_m_len[i];
}

char *dt__gen_nombre(dt_gen *g, int sexo, char *p) { return dt__put_nombre(p, sexo, dt__idx_nombre(g, sexo)); }

/* First name; one draw decides a second name (80 %); the second is drawn until it
 * differs from the first. */
char *dt__gen_nombres(dt_gen *g, int sexo, char *p, char **primero_fin) {
    uint32_t a = dt__idx_nombre(g, sexo);
    p = dt__put_nombre(p, sexo, a);
    if (primero_fin) *primero_fin = p;
    if (dt__below(g, 100) < 80) {
        uint32_t b;
        do {
            b = dt__idx_nombre(g, sexo);
        } while (b == a);
        *p++ = ' ';
        p = dt__put_nombre(p, sexo, b);
    }
    return p;
}

char *dt__gen_apellido(dt_gen *g, char *p) {
    uint32_t i = dt__alias(g, &dt_t_apellidos_alias);
    memcpy(p, dt_t_apellidos[i].s, 16);
    return p + dt_t_apellidos_len[i];
}

/* Local part from the person's own first given name and surname (pattern: one draw;
 * pattern 4 adds two digits: one more draw), then a personal mail domain (one draw). */
char *dt__gen_email(dt_gen *g, const char *nombre, size_t nn, const char *apellido, size_t na, char *p) {
    switch (dt__below(g, 4)) {
    case 0: p = dt__put_ascii_fold(p, nombre, nn); *p++ = '.'; p = dt__put_ascii_fold(p, apellido, na); break;
    case 1: p = dt__put_ascii_fold(p, nombre, nn); *p++ = '_'; p = dt__put_ascii_fold(p, apellido, na); break;
    case 2: p = dt__put_ascii_fold(p, nombre, nn); p = dt__put_ascii_fold(p, apellido, na); break;
    default: {
        char ini[8];
        char *e = dt__put_ascii_fold(ini, nombre, nn < 2 ? nn : 2); /* first letter, even if accented */
        if (e > ini) *p++ = ini[0];
        p = dt__put_ascii_fold(p, apellido, na);
        break;
    }
    }
    /* A number 1..999 as people add when their name is taken: the common names make a bare
     * name.surname shared by thousands (docs/data.md: collisions under 0.5 % in 100,000). */
    p = dt__put_u64(p, dt__es_unico(g, DT__U_EMAIL) ? 1 + dt__unico_en(g, DT__U_EMAIL, DT__EMAIL_UNICOS)
                                                    : 1 + dt__below(g, 999));
    *p++ = '@';
    uint32_t r = dt__below(g, DT_T_DOMINIOS_TOTAL), d = 0;
    while (dt_t_dominios_acum[d] <= r) d++;
    return dt__puts(p, &dt_t_dominios[d]);
}

/* ---- public scalar calls ---- */

char *dt__persona_nombre(dt_gen *g, dt_sexo sexo, char *p) {
    p = dt__gen_nombre(g, dt__sexo(g, sexo), p);
    return p;
}

char *dt__persona_nombres(dt_gen *g, dt_sexo sexo, char *p) {
    p = dt__gen_nombres(g, dt__sexo(g, sexo), p, NULL);
    return p;
}

char *dt__persona_apellido(dt_gen *g, char *p) {
    p = dt__gen_apellido(g, p);
    return p;
}

char *dt__persona_nombre_completo(dt_gen *g, dt_sexo sexo, char *p) {
    p = dt__gen_nombres(g, dt__sexo(g, sexo), p, NULL);
    *p++ = ' ';
    p = dt__gen_apellido(g, p);
    *p++ = ' ';
    p = dt__gen_apellido(g, p);
    return p;
}

char *dt__persona_sexo(dt_gen *g, char *p) {
    *p++ = dt__sexo(g, DT_SEXO_CUALQUIERA) == DT_SEXO_F ? 'F' : 'M';
    return p;
}

/* Draws: sex (one), first name (one), surname (one), then as dt__gen_email. */
char *dt__persona_email(dt_gen *g, char *p) {
    char nombre[32], apellido[32];
    char *fn = dt__gen_nombre(g, dt__sexo(g, DT_SEXO_CUALQUIERA), nombre);
    char *fa = dt__gen_apellido(g, apellido);
    p = dt__gen_email(g, nombre, (size_t)(fn - nombre), apellido, (size_t)(fa - apellido), p);
    return p;
}

/* Draw order: sex (if CUALQUIERA), given names, apellido paterno, apellido materno,
 * birth date (age, day), RUT body (fitting the birth year), from DT_EDAD_CONTACTO on an email
 * (pattern, number, domain) and a mobile, address. */
void dt__persona_persona(dt_gen *g, dt_sexo sexo, int32_t edad_min, int32_t edad_max, dt_persona *out) {
    char tmp[256];
    char *primero, *e;
    int s = dt__sexo(g, sexo);
    /* The names once in tmp, then copied to their fields and joined: no strlen. */
    char *nombres = tmp, *paterno, *materno;
    e = dt__gen_nombres(g, s, nombres, &primero);
    size_t nn = (size_t)(e - nombres), nprimero = (size_t)(primero - nombres);
    *e++ = ' ';
    paterno = e;
    e = dt__gen_apellido(g, paterno);
    size_t np = (size_t)(e - paterno);
    *e++ = ' ';
    materno = e;
    e = dt__gen_apellido(g, materno);
    size_t nm = (size_t)(e - materno);
    dt__field(out->nombres, nombres, nn);
    dt__field(out->apellido_paterno, paterno, np);
    dt__field(out->apellido_materno, materno, nm);
    dt__field(out->nombre_completo, tmp, (size_t)(e - tmp));
    out->sexo[0] = s == DT_SEXO_F ? 'F' : 'M';
    out->sexo[1] = '\0';
    int32_t edad;
    uint32_t cuerpo;
    if (dt__es_unico(g, DT__U_RUT)) {
        /* A dataset's unique RUT: the body is this row's place among the RUNs of the age range,
         * and the age follows from it (docs/datasets.md: ages then follow the RUN curve). */
        uint32_t lo, hi;
        dt__rut_nacido_dominio(g->hoy_anio, edad_min, edad_max, &lo, &hi);
        cuerpo = lo + (uint32_t)dt__unico_en(g, DT__U_RUT, (uint64_t)hi - lo + 1);
        edad = g->hoy_anio - dt__anio_de_run(cuerpo);
        edad = edad < edad_min ? edad_min : edad > edad_max ? edad_max : edad;
        e = dt__gen_fecha_edad(g, edad, tmp);
        dt__field(out->fecha_nacimiento, tmp, (size_t)(e - tmp));
    } else {
        e = dt__gen_fecha_nacimiento(g, edad_min, edad_max, tmp, &edad);
        dt__field(out->fecha_nacimiento, tmp, (size_t)(e - tmp));
        int32_t anio = (tmp[0] - '0') * 1000 + (tmp[1] - '0') * 100 + (tmp[2] - '0') * 10 + (tmp[3] - '0');
        cuerpo = dt__gen_rut_cuerpo_nacido(g, anio, g->hoy_anio);
    }
    e = dt__put_rut(tmp, cuerpo, DT_RUT_PUNTOS);
    dt__field(out->rut, tmp, (size_t)(e - tmp));
    if (edad >= DT_EDAD_CONTACTO) { /* a child has neither: no draws for them */
        e = dt__gen_email(g, out->nombres, nprimero, out->apellido_paterno, np, tmp);
        dt__field(out->email, tmp, (size_t)(e - tmp));
        e = dt__gen_movil(g, DT_TEL_INTERNACIONAL, tmp);
        dt__field(out->telefono, tmp, (size_t)(e - tmp));
    } else {
        out->email[0] = out->telefono[0] = '\0';
    }
    dt__sorteo_direccion d;
    dt__sortear_direccion(g, 0, &d);
    const dt_t_comuna *c = &dt_t_comunas[d.comuna];
    const dt_t_region *r = &dt_t_regiones[d.region];
    *dt__put_linea(out->direccion, &d) = '\0'; /* the same 192 bytes as dt_direccion.linea */
    dt__field(out->comuna, c->nombre.s, c->nombre.n);
    dt__field(out->region, r->nombre.s, r->nombre.n);
    dt__field(out->codigo_comuna, c->cut, 5);
    dt__field(out->codigo_region, r->cut, 2);
}
