/* tributario: SII electronic tax documents (DTE) whose amounts add up in integer pesos. */
#include "nucleo/calendario.h"
#include "internal.h"

#define DT__FOLIO_MAX 999999u

int64_t dt__tributario_folio(dt_gen *g) {
    return 1 + (int64_t)dt__below(g, DT__FOLIO_MAX);
}

/* 19 % of the net amount in whole pesos, rounded half up (docs/data.md gives the rule's sources). */
static int64_t dt__iva(int64_t neto) { return (neto * 19 + 50) / 100; }

/* An amount in one of four decades, 1,000 .. 9,999,999 (a judgement: no source gives the spread
 * of DTE amounts); two draws: the decade, the amount inside it. */
static int64_t dt__gen_monto_dte(dt_gen *g) {
    static const uint32_t desde[4] = {1000u, 10000u, 100000u, 1000000u};
    uint32_t d = dt__below(g, 4);
    return desde[d] + dt__below(g, desde[d] * 9u);
}

/* Draws: type (below 6), folio, date (below 365: days before the reference date), the emisor as a
 * company record draws its base, the receptor (a boleta's: sex, names, two surnames, RUT body; else a
 * company's names and RUT body), the amount (two). */
void dt__tributario_dte(dt_gen *g, dt_dte *out) {
    const dt_t_dte *t = &dt_t_dtes[dt__below(g, DT_T_N_DTE)];
    char tmp[256];
    char *e = dt__put_u64(tmp, t->codigo);
    dt__field(out->tipo, tmp, (size_t)(e - tmp));
    dt__field(out->nombre_tipo, t->nombre.s, t->nombre.n);
    e = dt__put_u64(tmp, 1 + dt__below(g, DT__FOLIO_MAX));
    dt__field(out->folio, tmp, (size_t)(e - tmp));
    int64_t dia = dt__dias_desde_civil(g->hoy_anio, g->hoy_mes, g->hoy_dia) - dt__below(g, 365);
    e = dt__put_fecha(tmp, dia);
    dt__field(out->fecha_emision, tmp, (size_t)(e - tmp));

    dt__empresa_base emisor;
    dt__gen_empresa_base(g, &emisor);
    e = dt__put_rut(tmp, emisor.cuerpo, DT_RUT_PUNTOS);
    dt__field(out->emisor_rut, tmp, (size_t)(e - tmp));
    dt__field(out->emisor_razon_social, emisor.razon, strlen(emisor.razon));
    dt__field(out->emisor_giro, emisor.giro->s, emisor.giro->n);
    dt__field(out->emisor_direccion, emisor.direccion.linea, strlen(emisor.direccion.linea));

    if (t->a_persona) {
        e = dt__gen_nombres(g, dt__sexo(g, DT_SEXO_CUALQUIERA), tmp, NULL);
        *e++ = ' ';
        e = dt__gen_apellido(g, e);
        *e++ = ' ';
        e = dt__gen_apellido(g, e);
        dt__field(out->receptor_nombre, tmp, (size_t)(e - tmp));
        e = dt__put_rut(tmp, dt__gen_rut_cuerpo(g, DT_RUT_PERSONA), DT_RUT_PUNTOS);
    } else {
        dt__empresa_base receptor;
        dt__gen_empresa_nombre_rut(g, &receptor);
        dt__field(out->receptor_nombre, receptor.razon, strlen(receptor.razon));
        e = dt__put_rut(tmp, receptor.cuerpo, DT_RUT_PUNTOS);
    }
    dt__field(out->receptor_rut, tmp, (size_t)(e - tmp));

    int64_t monto = dt__gen_monto_dte(g);
    int64_t neto = t->exento ? 0 : monto, exento = t->exento ? monto : 0, iva = dt__iva(neto);
    dt__field(out->monto_neto, tmp, (size_t)(dt__put_u64(tmp, (uint64_t)neto) - tmp));
    dt__field(out->monto_exento, tmp, (size_t)(dt__put_u64(tmp, (uint64_t)exento) - tmp));
    dt__field(out->iva, tmp, (size_t)(dt__put_u64(tmp, (uint64_t)iva) - tmp));
    dt__field(out->monto_total, tmp, (size_t)(dt__put_u64(tmp, (uint64_t)(neto + exento + iva)) - tmp));
}
