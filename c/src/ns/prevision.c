/* prevision: pension funds (AFP) and health insurance (FONASA with its tramo, or an open Isapre). */
#include "internal.h"

char *dt__prevision_afp(dt_gen *g, char *p) {
    p = dt__puts(p, &dt_t_afp[dt__alias(g, &dt_t_afp_alias)]);
    return p;
}

/* "FONASA tramo B" or the Isapre's name; one draw. */
static char *dt__put_salud(char *p, const dt_t_salud *s) {
    p = dt__puts(p, &s->nombre);
    if (s->tramo[0]) {
        p = dt__put(p, " tramo ", 7);
        *p++ = s->tramo[0];
    }
    return p;
}

char *dt__prevision_salud(dt_gen *g, char *p) {
    p = dt__put_salud(p, &dt_t_salud_filas[dt__alias(g, &dt_t_salud_alias)]);
    return p;
}

/* Draws: AFP (alias), health (alias). */
void dt__prevision_prevision(dt_gen *g, dt_prevision *out) {
    const dt_t_str *afp = &dt_t_afp[dt__alias(g, &dt_t_afp_alias)];
    const dt_t_salud *s = &dt_t_salud_filas[dt__alias(g, &dt_t_salud_alias)];
    dt__field(out->afp, afp->s, afp->n);
    dt__field(out->salud, s->nombre.s, s->nombre.n);
    out->tramo[0] = s->tramo[0];
    out->tramo[1] = '\0';
}
