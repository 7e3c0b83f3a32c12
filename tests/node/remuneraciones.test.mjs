// remuneracion.liquidacion in a second runtime, recomputed by a reference written here with BigInt from
// c/data's CSVs (Python's reference, tests/python/test_remuneraciones.py, uses exact fractions): 9,720
// payslips, 120 for every covered month and each salud option, every field compared.
import { expect, test } from 'vitest';
import { Datoteca, InvalidArgumentError } from '../../bindings/node/index.mjs';
import { readCsv } from './csv.mjs';

/** '36733.04' with places=2 -> 3673304n, exactly. */
function scaled(text, places) {
  const [whole, frac = ''] = text.split('.');
  if (frac.length > places) throw new Error(`${text} has more than ${places} decimals`);
  return BigInt(whole + frac.padEnd(places, '0'));
}
/** num / den rounded half up (num >= 0). */
const r = (num, den) => (num + den / 2n) / den;
const min = (a, b) => (a < b ? a : b);

const MESES = new Map(readCsv('indicadores_mensuales.csv').map((x) => [x.periodo, { uf: scaled(x.uf_ultimo_dia, 2), utm: BigInt(x.utm) }]));
const COMISIONES = readCsv('afp_comisiones.csv');
const TOPES = readCsv('topes_imponibles.csv');
const TRAMOS = readCsv('impuesto_unico.csv').map((x) => ({ desde: scaled(x.desde_utm, 1), tasa: scaled(x.tasa_pct, 1), rebaja: scaled(x.rebaja_utm, 2) }));
const TASAS = Object.fromEntries(readCsv('remuneracion_tasas.csv').map((x) => [x.concepto, scaled(x.valor, 2)]));
const MINIMOS = readCsv('sueldos.csv').filter((x) => x.serie === 'ingreso_minimo_mensual' && x.grupo === '18_a_65_anios');

const last = (rows, periodo) => rows.filter((x) => x.desde <= periodo).at(-1);

function reference(p, hoy) {
  const periodo = hoy.slice(0, 7);
  const { uf, utm } = MESES.get(periodo); // uf in hundredths of a peso
  const tope = last(TOPES, periodo);
  const comision = scaled(last(COMISIONES.filter((x) => x.afp === p.afp), periodo).comision_pct, 2); // hundredths of %
  const imm = BigInt(MINIMOS.filter((x) => x.vigente_desde <= hoy).at(-1).valor_clp);
  const base = BigInt(p.sueldo_base);
  // rates are in hundredths of a percent: x * rate / 10000
  const gratificacion = min(r(base * TASAS.gratificacion, 10000n), r(imm * TASAS.gratificacion_tope_imm, 1200n));
  const imponible = base + gratificacion;
  const topeAfp = r(scaled(tope.tope_afp_uf, 1) * uf, 1000n);
  const topeCes = r(scaled(tope.tope_cesantia_uf, 1) * uf, 1000n);
  const afp = r(min(imponible, topeAfp) * (TASAS.afp_obligatoria + comision), 10000n);
  const legal = r(min(imponible, topeAfp) * TASAS.salud_minima, 10000n);
  let salud = legal;
  if (p.plan_uf !== null) {
    const plan = r(scaled(p.plan_uf.replace(',', '.'), 2) * uf, 10000n);
    if (plan > legal) salud = plan;
  }
  const tasaCes = p.contrato === 'indefinido' ? TASAS.cesantia_indefinido_trabajador : TASAS.cesantia_plazo_fijo_trabajador;
  const cesantia = r(min(imponible, topeCes) * tasaCes, 10000n);
  const tributable = imponible - afp - legal - cesantia;
  const t = TRAMOS.filter((x) => x.desde === 0n || tributable * 10n > x.desde * utm).at(-1);
  // base × tasa (tenths of %) − rebaja (hundredths of UTM) × UTM, in thousandths of a peso
  const num = tributable * t.tasa - t.rebaja * utm * 10n;
  const impuesto = num > 0n ? r(num, 1000n) : 0n;
  const descuentos = afp + salud + cesantia + impuesto;
  return {
    periodo, gratificacion, total_imponible: imponible, cotizacion_afp: afp, cotizacion_salud: salud, seguro_cesantia: cesantia,
    base_tributable: tributable, impuesto_unico: impuesto, total_haberes: imponible, total_descuentos: descuentos, liquido: imponible - descuentos,
  };
}

test.each([...MESES.keys()])('payslips of %s recompute exactly', (periodo) => {
  for (const [k, salud] of ['cualquiera', 'fonasa', 'isapre'].entries()) {
    const hoy = `${periodo}-1${k}`;
    const seed = Number(periodo.replace('-', '')) * 10 + k;
    const ps = new Datoteca({ seed, hoy }).many('remuneracion.liquidacion', 120, { salud });
    ps.forEach((p, i) => {
      const esperado = reference(p, hoy);
      const distinto = Object.entries(esperado).filter(([c, v]) => String(p[c]) !== String(v));
      expect(distinto, `seed ${seed}, hoy ${hoy}, salud=${salud}, value ${i + 1}: (field, expected) vs ${JSON.stringify(p)}`).toEqual([]);
    });
  }
});

test('a month without sourced tables is refused, naming hoy', () => {
  const d = new Datoteca({ seed: 5, hoy: '2026-04-01' });
  expect(() => d.remuneracion.liquidacion()).toThrow(InvalidArgumentError);
  expect(() => d.remuneracion.liquidacion()).toThrow(/hoy must be from 2024-01-01 to 2026-03-31 .*got 2026-04-01/);
});
