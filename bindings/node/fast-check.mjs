// fast-check arbitraries for every datoteca call (optional: npm install fast-check, and
// @fast-check/vitest for test.prop). Each draws a 64-bit seed with fast-check's own bigInt and runs
// the call on a fresh Datoteca with that seed, so fast-check's replay (seed, path) reproduces a failure
// and shrinking works (toward seed 0).
//
//   import fc from 'fast-check';
//   import { personas, ruts } from 'datoteca/fast-check';
//   fc.assert(fc.property(personas({ edadMin: 18 }), (p) => ...));
import fc from 'fast-check';
import { Datoteca, calls } from './index.mjs';

const SEEDS = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

/** Values of any call by name; its arguments are values or arbitraries. */
export function llamada(name, args = {}) {
  if (!calls().includes(name)) throw new RangeError(`unknown call '${name}'; see calls()`);
  const fijos = {};
  const variables = {};
  for (const [k, v] of Object.entries(args)) (v instanceof fc.Arbitrary ? variables : fijos)[k] = v;
  return fc.tuple(SEEDS, fc.record(variables)).map(([seed, elegidos]) => new Datoteca({ seed }).call(name, { ...fijos, ...elegidos }));
}

const por = (name) => (args) => llamada(name, args);
export const ruts = por('rut');
export const personas = por('persona.persona');
export const nombres = por('persona.nombre_completo');
export const emails = por('persona.email');
export const fechasNacimiento = por('persona.fecha_nacimiento');
export const direcciones = por('direccion.direccion');
export const comunas = por('direccion.comuna');
export const regiones = por('direccion.region');
export const moviles = por('telefono.movil');
export const fijos = por('telefono.fijo');
export const montos = por('dinero.monto');
export const sueldos = por('dinero.sueldo');
export const bancos = por('banco.banco');
export const cuentas = por('banco.cuenta');
export const empresas = por('empresa.empresa');
export const razonesSociales = por('empresa.razon_social');
export const patentes = por('vehiculo.patente');
export const vehiculos = por('vehiculo.vehiculo');
export const previsiones = por('prevision.prevision');
export const dtes = por('tributario.dte');
export const fechas = por('fecha.fecha');
export const fechasHoras = por('fecha.fecha_hora');
