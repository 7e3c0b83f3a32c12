/* remuneracion: a monthly payslip (liquidación de sueldo) of the reference date's month, every peso in
 * integers from the month's tables (c/data/indicadores_mensuales.csv and the others named in
 * docs/remuneraciones.md, which also gives each rule and its rounding). The registry refused a
 * reference date outside the months those tables cover, so every lookup below finds its row. */
#include "internal.h"

/* num / den rounded half up; num >= 0, den > 0. */
static int64_t dt__redondeo(int64_t num, int64_t den) { return (num + den / 2) / den; }

static int64_t dt__min64(int64_t a, int64_t b) { return a < b ? a : b; }

static const dt_t_indicador *dt__indicador(uint32_t periodo) {
    for (size_t i = 0; i < DT_T_N_INDICADORES; i++)
        if (dt_t_indicadores[i].periodo == periodo) return &dt_t_indicadores[i];
    return &dt_t_indicadores[DT_T_N_INDICADORES - 1]; /* not reached: hoy's range is checked */
}

/* The last row in force in `periodo` of a table in date order. */
static const dt_t_tope *dt__tope(uint32_t periodo) {
    const dt_t_tope *t = &dt_t_topes[0];
    for (size_t i = 0; i < DT_T_N_TOPES && dt_t_topes[i].desde <= periodo; i++) t = &dt_t_topes[i];
    return t;
}

static uint32_t dt__comision(size_t afp, uint32_t periodo) {
    uint32_t pb = 0;
    for (size_t i = 0; i < DT_T_N_COMISIONES; i++)
        if (dt_t_comisiones[i].afp == afp && dt_t_comisiones[i].desde <= periodo) pb = dt_t_comisiones[i].pb;
    return pb;
}

/* Impuesto único on a monthly base: the bracket whose lower limit the base exceeds (a base at a limit
 * stays in the lower bracket), then base × rate − rebaja, rounded to the peso. The tables are
 * continuous at each limit (tablas.py checks it), so the result is never negative. */
static int64_t dt__impuesto_unico(int64_t base, uint32_t utm) {
    const dt_t_tramo *t = &dt_t_impuesto[0];
    for (size_t i = 1; i < DT_T_N_IMPUESTO; i++)
        if (base * 10 > (int64_t)dt_t_impuesto[i].desde_decimas_utm * utm) t = &dt_t_impuesto[i];
    int64_t num = base * t->tasa_por_mil - (int64_t)utm * t->rebaja_centesimas_utm * 10; /* in 1/1000 peso */
    return num <= 0 ? 0 : dt__redondeo(num, 1000);
}

static void dt__campo_i64(char *dst, size_t cap, int64_t v) {
    char tmp[24];
    dt__field_n(dst, cap, tmp, (size_t)(dt__put_i64(tmp, v) - tmp));
}
#define DT__CAMPO(dst, v) dt__campo_i64((dst), sizeof(dst), (v))

/* Draws, in order: salary (dinero.sueldo's two), contract (one, when drawn), AFP (alias), insurer (alias,
 * unless FONASA is asked), an Isapre's plan (one). */
void dt__remuneracion_liquidacion(dt_gen *g, dt_contrato contrato, dt_salud_liquidacion salud, dt_liquidacion *out) {
    const uint32_t periodo = (uint32_t)(g->hoy_anio * 100 + g->hoy_mes);
    const dt_t_indicador *ind = dt__indicador(periodo);
    const dt_t_tope *tope = dt__tope(periodo);
    const int64_t imm = dt__sueldo_minimo(g);

    const int64_t sueldo = dt__dinero_sueldo(g);
    if (contrato == DT_CONTRATO_CUALQUIERA) contrato = dt__below(g, 2) ? DT_CONTRATO_PLAZO_FIJO : DT_CONTRATO_INDEFINIDO;
    const size_t afp = dt__alias(g, &dt_t_afp_alias);
    size_t asegurador = 0; /* a FONASA row unless an Isapre is drawn */
    if (salud == DT_SALUD_LIQ_CUALQUIERA) asegurador = dt__alias(g, &dt_t_salud_alias);
    else if (salud == DT_SALUD_LIQ_ISAPRE) asegurador = DT_T_PRIMERA_ISAPRE + dt__alias(g, &dt_t_isapres_alias);
    const int isapre = asegurador >= DT_T_PRIMERA_ISAPRE;
    const int64_t plan_centesimas_uf = isapre ? 200 + (int64_t)dt__below(g, 601) : 0;

    /* Gratificación legal (art. 50): 25 % of the month's pay, at most 4.75 minimum wages a year, paid a
     * twelfth a month with the minimum wage in force that month. */
    const int64_t gratificacion = dt__min64(dt__redondeo(sueldo * DT_T_GRATIFICACION_PB, 10000),
                                            dt__redondeo(imm * DT_T_GRATIFICACION_TOPE_CENTESIMAS_IMM, 1200));
    const int64_t imponible = sueldo + gratificacion;
    /* Topes in pesos: tenths of a UF × the UF of the month's last day (hundredths of a peso). */
    const int64_t tope_afp = dt__redondeo((int64_t)tope->afp_decimas_uf * ind->uf_centavos, 1000);
    const int64_t tope_cesantia = dt__redondeo((int64_t)tope->cesantia_decimas_uf * ind->uf_centavos, 1000);
    const int64_t base_afp = dt__min64(imponible, tope_afp);
    const int64_t afp_monto = dt__redondeo(base_afp * (DT_T_AFP_OBLIGATORIA_PB + dt__comision(afp, periodo)), 10000);
    const int64_t salud_legal = dt__redondeo(base_afp * DT_T_SALUD_MINIMA_PB, 10000);
    const int64_t plan = dt__redondeo(plan_centesimas_uf * ind->uf_centavos, 10000);
    const int64_t salud_monto = isapre && plan > salud_legal ? plan : salud_legal;
    const int64_t cesantia = dt__redondeo(dt__min64(imponible, tope_cesantia) *
                                              (contrato == DT_CONTRATO_INDEFINIDO ? DT_T_CESANTIA_INDEFINIDO_PB
                                                                                  : DT_T_CESANTIA_PLAZO_FIJO_PB), 10000);
    /* Only the legal 7 % of health lowers the tax base; a plan above it is voluntary. */
    const int64_t base_tributable = imponible - afp_monto - salud_legal - cesantia;
    const int64_t impuesto = dt__impuesto_unico(base_tributable, ind->utm);
    const int64_t descuentos = afp_monto + salud_monto + cesantia + impuesto;

    char tmp[16];
    char *e = dt__put_u32_width(tmp, periodo / 100, 4);
    *e++ = '-';
    e = dt__put_u32_width(e, periodo % 100, 2);
    dt__field(out->periodo, tmp, (size_t)(e - tmp));
    if (contrato == DT_CONTRATO_INDEFINIDO) dt__field(out->contrato, "indefinido", 10);
    else dt__field(out->contrato, "plazo_fijo", 10);
    dt__field(out->afp, dt_t_afp[afp].s, dt_t_afp[afp].n);
    if (isapre) {
        const dt_t_str *n = &dt_t_salud_filas[asegurador].nombre;
        dt__field(out->salud, n->s, n->n);
        e = dt__put_u64(tmp, (uint64_t)(plan_centesimas_uf / 100));
        *e++ = ',';
        e = dt__put_u32_width(e, (uint32_t)(plan_centesimas_uf % 100), 2);
        dt__field(out->plan_uf, tmp, (size_t)(e - tmp));
    } else {
        dt__field(out->salud, "FONASA", 6);
        out->plan_uf[0] = '\0';
    }
    DT__CAMPO(out->sueldo_base, sueldo);
    DT__CAMPO(out->gratificacion, gratificacion);
    DT__CAMPO(out->total_imponible, imponible);
    DT__CAMPO(out->cotizacion_afp, afp_monto);
    DT__CAMPO(out->cotizacion_salud, salud_monto);
    DT__CAMPO(out->seguro_cesantia, cesantia);
    DT__CAMPO(out->base_tributable, base_tributable);
    DT__CAMPO(out->impuesto_unico, impuesto);
    DT__CAMPO(out->total_haberes, imponible);
    DT__CAMPO(out->total_descuentos, descuentos);
    DT__CAMPO(out->liquido, imponible - descuentos);
}
