/* telefono: mobile and fixed lines that follow the Chilean numbering plan. */
#include "internal.h"


/* `area` is 9 (mobile), 2 (Santiago) or a two-digit code; `sub` the subscriber number
 * (8 digits for 9 and 2, 7 digits otherwise). */
static char *dt__put_tel(char *p, uint32_t area, uint32_t sub, int formato) {
    int largo = area < 10 ? 8 : 7;
    if (formato != DT_TEL_NACIONAL) p = dt__put(p, formato == DT_TEL_E164 ? "+56" : "+56 ", formato == DT_TEL_E164 ? 3 : 4);
    p = dt__put_u64(p, area);
    if (formato == DT_TEL_E164) return dt__put_u32_width(p, sub, largo);
    *p++ = ' ';
    int primero = largo == 8 ? 4 : 3;
    char dig[8];
    dt__put_u32_width(dig, sub, largo);
    p = dt__put(p, dig, (size_t)primero);
    *p++ = ' ';
    return dt__put(p, dig + primero, (size_t)(largo - primero));
}

/* A mobile uniform over the 9-digit numbers libphonenumber accepts (dt_t_moviles: its blocks and
 * how many numbers come before each); one draw, then the block by binary search. */
char *dt__gen_movil(dt_gen *g, int formato, char *p) {
    uint32_t r = dt__es_unico(g, DT__U_TEL) ? (uint32_t)dt__unico_en(g, DT__U_TEL, DT_T_MOVILES_TOTAL)
                                            : dt__below(g, DT_T_MOVILES_TOTAL);
    uint32_t lo = 0, hi = DT_T_N_MOVILES - 1; /* the last block with antes <= r */
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (dt_t_moviles[mid].antes <= r) lo = mid;
        else hi = mid - 1;
    }
    return dt__put_tel(p, 9, dt_t_moviles[lo].desde + (r - dt_t_moviles[lo].antes) - 900000000u, formato);
}

/* Santiago: 2 + 2XXX XXXX; other areas: AA + 2XX XXXX; one draw. */
char *dt__gen_fijo_area(dt_gen *g, uint32_t area, int formato, char *p) {
    uint32_t n = area == 2 ? 10000000u : 1000000u;
    /* unique: this row's place within the area's numbers, so no two rows share one (capacity:
     * the smallest area, 1,000,000) */
    uint32_t k = dt__es_unico(g, DT__U_TEL) ? (uint32_t)dt__unico_en(g, DT__U_TEL, 1000000u) : dt__below(g, n);
    uint32_t sub = (area == 2 ? 20000000u : 2000000u) + k;
    return dt__put_tel(p, area, sub, formato);
}

char *dt__telefono_movil(dt_gen *g, dt_tel_formato formato, char *p) {
    p = dt__gen_movil(g, formato, p);
    return p;
}

/* Draws: region (if 0), a comuna of it (its area code), the number. */
char *dt__telefono_fijo(dt_gen *g, int32_t region, dt_tel_formato formato, char *p) {
    uint32_t ci = dt__gen_comuna(g, dt__gen_region(g, region));
    p = dt__gen_fijo_area(g, dt_t_comunas[ci].area, formato, p);
    return p;
}
