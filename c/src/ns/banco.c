/* banco: current banks with their transfer codes, account types and numbers. */
#include "internal.h"

static const dt_t_str dt__tipos_cuenta[4] = {
    {"Cuenta corriente", 16}, {"Cuenta vista", 12}, {"Cuenta de ahorro", 16}, {"CuentaRUT", 9}};
#define DT__CUENTA_RUT 3

/* 8..12 digits without a leading zero: length (one draw), first digit (one), one draw
 * per further digit. */
static char *dt__gen_numero_cuenta(dt_gen *g, char *p) {
    uint32_t largo = 8 + dt__below(g, 5);
    *p++ = (char)('1' + dt__below(g, 9));
    for (uint32_t i = 1; i < largo; i++) *p++ = (char)('0' + dt__below(g, 10));
    return p;
}

void dt__banco_banco(dt_gen *g, dt_banco *out) {
    const dt_t_banco *b = &dt_t_bancos[dt__below(g, DT_T_N_BANCOS)];
    dt__field(out->codigo, b->codigo.s, b->codigo.n);
    dt__field(out->nombre, b->nombre.s, b->nombre.n);
}

char *dt__banco_tipo_cuenta(dt_gen *g, char *p) {
    p = dt__puts(p, &dt__tipos_cuenta[dt__below(g, 3)]);
    return p;
}

char *dt__banco_numero_cuenta(dt_gen *g, char *p) {
    p = dt__gen_numero_cuenta(g, p);
    return p;
}

/* Draws: bank (one: a retail bank by the weights of persons' accounts), account type (one: at
 * BancoEstado 27 in 30 are a CuentaRUT, else one of the three others), holder's RUT body (one),
 * then the number unless it is a CuentaRUT (whose number is the body). A given holder (titular > 0)
 * replaces the drawn body after it is drawn, so both calls draw the same numbers. */
static void dt__cuenta(dt_gen *g, uint32_t titular, dt_cuenta *out) {
    uint32_t r = dt__below(g, DT_T_BANCOS_PERSONAS_TOTAL), bi = 0;
    while (dt_t_bancos_personas_acum[bi] <= r) bi++;
    const dt_t_banco *b = &dt_t_bancos[bi];
    uint32_t tipo;
    if (bi == DT_T_BANCO_ESTADO) {
        uint32_t t = dt__below(g, 30);
        tipo = t < 27 ? DT__CUENTA_RUT : t - 27;
    } else {
        tipo = dt__below(g, 3);
    }
    uint32_t cuerpo = dt__gen_rut_cuerpo(g, DT_RUT_PERSONA);
    if (titular > 0) cuerpo = titular;
    char tmp[32];
    char *e = tipo == DT__CUENTA_RUT ? dt__put_u64(tmp, cuerpo) : dt__gen_numero_cuenta(g, tmp);
    dt__field(out->numero, tmp, (size_t)(e - tmp));
    dt__field(out->banco, b->nombre.s, b->nombre.n);
    dt__field(out->codigo_banco, b->codigo.s, b->codigo.n);
    dt__field(out->tipo_cuenta, dt__tipos_cuenta[tipo].s, dt__tipos_cuenta[tipo].n);
    e = dt__put_rut(tmp, cuerpo, DT_RUT_PUNTOS);
    dt__field(out->rut_titular, tmp, (size_t)(e - tmp));
}

void dt__banco_cuenta(dt_gen *g, dt_cuenta *out) { dt__cuenta(g, 0, out); }

void dt__banco_cuenta_titular(dt_gen *g, int32_t titular, dt_cuenta *out) { dt__cuenta(g, (uint32_t)titular, out); }
