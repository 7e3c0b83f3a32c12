// The Node API as a user calls it: every public call, errors, bulk, state, derive, workers.
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as dt from '../../bindings/node/index.mjs';
import cjs from '../../bindings/node/index.js';

const { Datoteca } = dt;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');

// [label, method, registered call, args]
const CALLS = [
  ['rut', (d) => d.rut(), 'rut', {}],
  ['rut empresa limpio', (d) => d.rut('empresa', 'limpio'), 'rut', { tipo: 'empresa', formato: 'limpio' }],
  ['persona.nombre', (d) => d.persona.nombre('F'), 'persona.nombre', { sexo: 'F' }],
  ['persona.nombres', (d) => d.persona.nombres(), 'persona.nombres', {}],
  ['persona.apellido', (d) => d.persona.apellido(), 'persona.apellido', {}],
  ['persona.nombre_completo', (d) => d.persona.nombreCompleto('M'), 'persona.nombre_completo', { sexo: 'M' }],
  ['persona.sexo', (d) => d.persona.sexo(), 'persona.sexo', {}],
  ['persona.fecha_nacimiento', (d) => d.persona.fechaNacimiento(0, 5), 'persona.fecha_nacimiento', { edad_min: 0, edad_max: 5 }],
  ['persona.email', (d) => d.persona.email(), 'persona.email', {}],
  ['persona.persona', (d) => d.persona.persona({ sexo: 'F', edadMin: 30, edadMax: 40 }), 'persona.persona', { sexo: 'F', edad_min: 30, edad_max: 40 }],
  ['direccion.region', (d) => d.direccion.region(), 'direccion.region', {}],
  ['direccion.comuna', (d) => d.direccion.comuna(13), 'direccion.comuna', { region: 13 }],
  ['direccion.calle', (d) => d.direccion.calle(), 'direccion.calle', {}],
  ['direccion.numero', (d) => d.direccion.numero(), 'direccion.numero', {}],
  ['direccion.direccion', (d) => d.direccion.direccion(), 'direccion.direccion', {}],
  ['telefono.movil', (d) => d.telefono.movil('e164'), 'telefono.movil', { formato: 'e164' }],
  ['telefono.fijo', (d) => d.telefono.fijo(5, 'nacional'), 'telefono.fijo', { region: 5, formato: 'nacional' }],
  ['dinero.monto', (d) => d.dinero.monto(0, 10), 'dinero.monto', { min: 0, max: 10 }],
  ['dinero.clp', (d) => d.dinero.clp(), 'dinero.clp', {}],
  ['dinero.uf', (d) => d.dinero.uf(), 'dinero.uf', {}],
  ['dinero.sueldo', (d) => d.dinero.sueldo(), 'dinero.sueldo', {}],
  ['banco.banco', (d) => d.banco.banco(), 'banco.banco', {}],
  ['banco.tipo_cuenta', (d) => d.banco.tipoCuenta(), 'banco.tipo_cuenta', {}],
  ['banco.numero_cuenta', (d) => d.banco.numeroCuenta(), 'banco.numero_cuenta', {}],
  ['banco.cuenta', (d) => d.banco.cuenta(), 'banco.cuenta', {}],
  ['banco.cuenta_titular', (d) => d.banco.cuentaTitular({ titular: 12345678 }), 'banco.cuenta_titular', { titular: 12345678 }],
  ['empresa.nombre', (d) => d.empresa.nombre(), 'empresa.nombre', {}],
  ['empresa.razon_social', (d) => d.empresa.razonSocial(), 'empresa.razon_social', {}],
  ['empresa.rut', (d) => d.empresa.rut('guion'), 'empresa.rut', { formato: 'guion' }],
  ['empresa.giro', (d) => d.empresa.giro(), 'empresa.giro', {}],
  ['empresa.empresa', (d) => d.empresa.empresa(), 'empresa.empresa', {}],
  ['vehiculo.patente', (d) => d.vehiculo.patente('moto', 'con_dv'), 'vehiculo.patente', { tipo: 'moto', formato: 'con_dv' }],
  ['vehiculo.vehiculo', (d) => d.vehiculo.vehiculo(), 'vehiculo.vehiculo', {}],
  ['prevision.afp', (d) => d.prevision.afp(), 'prevision.afp', {}],
  ['prevision.salud', (d) => d.prevision.salud(), 'prevision.salud', {}],
  ['prevision.prevision', (d) => d.prevision.prevision(), 'prevision.prevision', {}],
  ['tributario.folio', (d) => d.tributario.folio(), 'tributario.folio', {}],
  ['tributario.dte', (d) => d.tributario.dte(), 'tributario.dte', {}],
  ['fecha.fecha', (d) => d.fecha.fecha(-30, 30), 'fecha.fecha', { desde: -30, hasta: 30 }],
  ['fecha.hora', (d) => d.fecha.hora(), 'fecha.hora', {}],
  ['fecha.fecha_hora', (d) => d.fecha.fechaHora({ hasta: 10 }), 'fecha.fecha_hora', { hasta: 10 }],
  ['remuneracion.liquidacion', (d) => d.remuneracion.liquidacion({ salud: 'isapre' }), 'remuneracion.liquidacion', { salud: 'isapre' }],
  ['invalido.rut', (d) => d.invalido.rut('dv', 'empresa', 'limpio'), 'invalido.rut', { defecto: 'dv', tipo: 'empresa', formato: 'limpio' }],
  ['invalido.patente', (d) => d.invalido.patente(), 'invalido.patente', {}],
  ['invalido.movil', (d) => d.invalido.movil({ formato: 'nacional' }), 'invalido.movil', { formato: 'nacional' }],
  ['invalido.fijo', (d) => d.invalido.fijo('largo', 'e164'), 'invalido.fijo', { defecto: 'largo', formato: 'e164' }],
  ['invalido.email', (d) => d.invalido.email('arroba'), 'invalido.email', { defecto: 'arroba' }],
  ['invalido.dte', (d) => d.invalido.dte(), 'invalido.dte', {}],
  ['sucio.rut', (d) => d.sucio.rut('ceros'), 'sucio.rut', { forma: 'ceros' }],
  ['sucio.nombre', (d) => d.sucio.nombre(), 'sucio.nombre', {}],
  ['sucio.comuna', (d) => d.sucio.comuna({ forma: 'abreviatura' }), 'sucio.comuna', { forma: 'abreviatura' }],
  ['sucio.movil', (d) => d.sucio.movil(), 'sucio.movil', {}],
  ['sucio.fijo', (d) => d.sucio.fijo('antiguo'), 'sucio.fijo', { forma: 'antiguo' }],
];

test('every registered call has a method', () => {
  expect(new Set(CALLS.map((c) => c[2]))).toEqual(new Set(dt.calls()));
});

describe.each(CALLS)('%s', (label, method, name, args) => {
  test('method == call == many (seed 42, 25 values)', () => {
    const a = new Datoteca({ seed: 42 });
    const b = new Datoteca({ seed: 42 });
    const c = new Datoteca({ seed: 42 });
    const bulk = c.many(name, 25, args);
    for (let i = 0; i < 25; i++) {
      const x = method(a);
      const y = b.call(name, args);
      expect(y, `seed 42, ${label} value ${i}: call`).toEqual(x);
      expect(bulk[i], `seed 42, ${label} value ${i}: many`).toEqual(x);
      expect(x === '' || x === undefined, `${label} value ${i} is empty`).toBe(false);
    }
  });
});

test('CommonJS and ESM export the same API and data', () => {
  expect(Object.keys(cjs).sort()).toEqual(Object.keys(dt).filter((k) => k !== 'default').sort());
  expect(new cjs.Datoteca({ seed: 4 }).many('persona.persona', 5)).toEqual(new Datoteca({ seed: 4 }).many('persona.persona', 5));
});

test('bulk across chunks equals single calls', () => {
  const a = new Datoteca({ seed: 7 });
  const b = new Datoteca({ seed: 7 });
  const many = a.many('persona.persona', 5000);
  for (let i = 0; i < 5000; i++) expect(many[i], `seed 7, persona.persona value ${i}`).toEqual(b.persona.persona());
});

test('seeds: numbers, bigints and strings', () => {
  expect(new Datoteca({ seed: 42 }).rut()).toBe(new Datoteca({ seed: 42n }).rut());
  expect(new Datoteca({ seed: 42n }).many('rut', 5)).toEqual(new Datoteca({ seed: 42 }).many('rut', 5));
  expect(new Datoteca({ seed: 2n ** 64n - 1n }).many('rut', 3)).toEqual(new Datoteca({ seed: 2n ** 64n - 1n }).many('rut', 3));
  expect(new Datoteca({ seed: 'José' }).rut()).toBe(new Datoteca({ seed: 'José' }).rut());
});

test('save/restore, derive, stream', () => {
  const d = new Datoteca({ seed: 3 });
  d.persona.persona();
  const state = d.saveState();
  expect(state.length).toBe(24);
  const after = Array.from({ length: 10 }, () => d.persona.nombreCompleto());
  const e = new Datoteca({ seed: 999 });
  e.restoreState(state);
  expect(Array.from({ length: 10 }, () => e.persona.nombreCompleto())).toEqual(after);
  let err;
  try { e.restoreState(new Uint8Array(24)); } catch (x) { err = x; }
  expect(err && err.name).toBe('InvalidStateError');
  expect(err).toBeInstanceOf(RangeError);
  expect(err).toBeInstanceOf(dt.DatotecaError);
  expect(err.message).toBe('state: not a valid datoteca state');
  const p1 = new Datoteca({ seed: 5 });
  const p2 = new Datoteca({ seed: 5 });
  p1.derive('clientes');
  p2.nextU32();
  p2.nextU32();
  expect(p1.nextU32()).toBe(p2.nextU32());
  expect(new Datoteca({ seed: 5 }).derive('clientes').rut()).toBe(new Datoteca({ seed: 5 }).derive('clientes').rut());
  const r = d.integer(-3n, 3n);
  expect(r >= -3n && r <= 3n).toBe(true);
  expect(new Datoteca({ seed: 1, hoy: '2024-02-29' }).hoy).toBe('2024-02-29');
});

test('RUT and money utilities', () => {
  expect(dt.validarRut('12.345.678-5')).toBe(true);
  expect(dt.validarRut(' 60803000k ')).toBe(true);
  expect(dt.validarRut('12.345.678-4')).toBe(false);
  expect(dt.rutDv(60803000)).toBe('K');
  expect(dt.formatearRut('123456785')).toBe('12.345.678-5');
  expect(dt.limpiarRut(' 60.803.000-k')).toBe('60803000K');
  expect(dt.formatearClp(1234567)).toBe('$1.234.567');
  expect(dt.formatearUf(123456)).toBe('UF 1.234,56');
  const header = readFileSync(path.join(ROOT, 'c', 'include', 'datoteca.h'), 'utf8');
  const v = ['MAJOR', 'MINOR', 'PATCH'].map((k) => new RegExp(`#define DT_VERSION_${k} (\\d+)`).exec(header)[1]).join('.');
  expect(dt.version()).toBe(v);
  expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version).toBe(v);
  expect(dt.dataVersion()).toBeGreaterThanOrEqual(1);
});

const BAD = [
  [() => new Datoteca({ seed: -1 }), RangeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got -1'],
  [() => new Datoteca({ seed: 1.5 }), RangeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got 1.5'],
  [() => new Datoteca({ seed: NaN }), RangeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got NaN'],
  [() => new Datoteca({ seed: Infinity }), RangeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got Infinity'],
  [() => new Datoteca({ seed: 2 ** 53 }), RangeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got 9007199254740992'],
  [() => new Datoteca({ seed: 2n ** 64n }), RangeError, 'seed must be a bigint in [0, 2**64), got 18446744073709551616'],
  [() => new Datoteca({ seed: null }), TypeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got null'],
  [() => new Datoteca({ seed: true }), TypeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got boolean'],
  [() => new Datoteca({ seed: {} }), TypeError, 'seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got object'],
  [() => new Datoteca(5), TypeError, 'options must be an object, got number'],
  [() => new Datoteca({ hoy: '2023-02-29' }), RangeError, "hoy must be a real date between 1900-01-01 and 2200-12-31, got '2023-02-29'"],
  [() => new Datoteca({ hoy: 'ayer' }), RangeError, "hoy must be 'YYYY-MM-DD', got 'ayer'"],
  [() => new Datoteca().rut('nadie'), RangeError, "rut: tipo must be one of 'persona', 'empresa', got 'nadie'"],
  [() => new Datoteca().rut(undefined, 3), TypeError, "rut: formato must be one of 'puntos', 'guion', 'limpio' or undefined, got number"],
  [() => new Datoteca().persona.nombre('X'), RangeError, "persona.nombre: sexo must be one of 'cualquiera', 'F', 'M', got 'X'"],
  [() => new Datoteca().persona.fechaNacimiento(50, 20), RangeError, 'persona.fecha_nacimiento: edad_min must not exceed edad_max, got edad_min=50, edad_max=20'],
  [() => new Datoteca().persona.fechaNacimiento(90), RangeError, 'persona.fecha_nacimiento: edad_min must not exceed edad_max, got edad_min=90, edad_max=80'],
  [() => new Datoteca().persona.fechaNacimiento(1.5, 20), TypeError, 'persona.fecha_nacimiento: edad_min must be an integer, got 1.5'],
  [() => new Datoteca().persona.fechaNacimiento(NaN, 20), TypeError, 'persona.fecha_nacimiento: edad_min must be an integer, got NaN'],
  [() => new Datoteca().direccion.comuna(17), RangeError, 'direccion.comuna: region must be from 0 to 16 (0 = any region), got 17'],
  [() => new Datoteca().direccion.comuna(2 ** 60), RangeError, `direccion.comuna: region must be from 0 to 16 (0 = any region), got ${2 ** 60}`],
  [() => new Datoteca().direccion.comuna('13'), TypeError, 'direccion.comuna: region must be an integer, got string'],
  [() => new Datoteca().dinero.monto(10, 5), RangeError, 'dinero.monto: min must not exceed max, got min=10, max=5'],
  [() => new Datoteca().dinero.clp(-1, 5), RangeError, 'dinero.clp: min must be from 0 to 999999999999999, got -1'],
  [() => new Datoteca().dinero.uf(0, Infinity), TypeError, 'dinero.uf: max must be an integer, got Infinity'],
  [() => new Datoteca().call('nada'), RangeError, "unknown call 'nada'"],
  [() => new Datoteca().call('rut', { color: 'rojo' }), TypeError, "rut: unknown option 'color'; it takes 'tipo', 'formato'"],
  [() => new Datoteca({ semilla: 42 }), TypeError, "Datoteca: unknown option 'semilla'; it takes 'seed', 'hoy'"],
  [() => new Datoteca().persona.persona({ sex: 'M' }), TypeError,
    "persona.persona: unknown option 'sex'; it takes 'sexo', 'edadMin' (or 'edad_min'), 'edadMax' (or 'edad_max')"],
  [() => new Datoteca().persona.persona({ edad_min: 79, edadMax: 70 }), RangeError,
    'persona.persona: edad_min must not exceed edad_max, got edad_min=79, edad_max=70'],
  [() => new Datoteca().persona.persona({ edad_min: 30, edadMin: 31 }), TypeError,
    "persona.persona: option 'edad_min' given twice (camelCase and snake_case)"],
  [() => new Datoteca().many('persona.persona', 1, { edadMin: 'x' }), TypeError, 'persona.persona: edad_min must be an integer, got string'],
  [() => new Datoteca().persona.nombre('F', 'M'), TypeError, 'persona.nombre: takes at most 1 argument, got 2'],
  [() => new Datoteca().many('rut', -1), RangeError, 'n must be from 0 to 4294967295, got -1'],
  [() => new Datoteca().integer(5, 4), RangeError, 'lo must not exceed hi, got lo=5, hi=4'],
  [() => new Datoteca().integer(0, 2n ** 63n), RangeError, 'hi must fit a signed 64-bit integer, got 9223372036854775808'],
  [() => new Datoteca().derive(7), TypeError, 'label must be a string, got number'],
  [() => new Datoteca().restoreState('x'), TypeError, 'state must be a Uint8Array or Buffer, got string'],
  [() => dt.validarRut(12345678), TypeError, 'validar_rut: rut must be a string, got number'],
  [() => dt.formatearRut('12.345.678-4'), RangeError, 'formatear_rut: rut is not a valid RUT'],
  [() => dt.formatearRut('123456785', 'x'), RangeError, "formatear_rut: formato must be one of 'puntos', 'guion', 'limpio', got 'x'"],
  [() => dt.rutDv(0), RangeError, 'rut_dv: cuerpo must be from 1 to 99999999, got 0'],
  [() => dt.formatearClp(-5), RangeError, 'formatear_clp: monto must be from 0 to 999999999999999, got -5'],
];

test.each(BAD.map((b, i) => [i, ...b]))('bad input %i', (i, fn, type, message) => {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, `bad input ${i} did not throw`).toBeInstanceOf(type);
  expect(err.message, `bad input ${i}`).toBe(message);
});

test('argument errors carry the status from C', () => {
  for (const fn of [() => new Datoteca().dinero.monto(10, 5), () => new Datoteca().persona.nombre('X'), () => new Datoteca().dinero.uf(0, 1e21)]) {
    let err;
    try { fn(); } catch (e) { err = e; }
    expect(err.status, err.message).toBe(2); // DT_ERR_INVALID_ARG in datoteca.h
  }
});

test('options: camelCase and snake_case alike, region 0 is any region, absent is the default', () => {
  const a = new Datoteca({ seed: 4 }).many('persona.persona', 20, { edadMin: 60, edadMax: 61 });
  const b = new Datoteca({ seed: 4 }).many('persona.persona', 20, { edad_min: 60, edad_max: 61 });
  const c = new Datoteca({ seed: 4 });
  expect(a).toEqual(b);
  expect(a).toEqual(Array.from({ length: 20 }, () => c.persona.persona({ edad_min: 60, edadMax: 61 })));
  const d = new Datoteca({ seed: 5 });
  expect(Array.from({ length: 20 }, () => d.direccion.comuna(0))).toEqual(new Datoteca({ seed: 5 }).many('direccion.comuna', 20));
  const e = new Datoteca({ seed: 6 });
  expect([e.persona.fechaNacimiento(), e.persona.fechaNacimiento({})]).toEqual(new Datoteca({ seed: 6 }).many('persona.fecha_nacimiento', 2, { edad_min: 18, edad_max: 80 }));
});

test('no code is built from strings: the module loads with code generation disabled', () => {
  const r = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '-e',
    "const { Datoteca } = require(process.argv[1]); console.log(new Datoteca({ seed: 42 }).persona.persona().rut)", ROOT], { encoding: 'utf8' });
  expect(r.trim()).toMatch(/^\d{1,2}\.\d{3}\.\d{3}-[\dK]$/);
});

test('a failed call consumes nothing', () => {
  const a = new Datoteca({ seed: 9 });
  const b = new Datoteca({ seed: 9 });
  for (const fn of [() => a.dinero.monto(10, 5), () => a.persona.nombre('X'), () => a.direccion.comuna(99), () => a.call('nada')]) {
    expect(fn).toThrow();
  }
  expect(a.many('persona.persona', 3)).toEqual(b.many('persona.persona', 3));
});

test('Node equals the C CLI', () => {
  expect(existsSync(CLI), `the C CLI is not built at ${CLI} (set DATOTECA_CLI)`).toBe(true);
  const cases = [['rut', {}], ['persona.persona', { sexo: 'F' }], ['direccion.comuna', { region: 8 }], ['empresa.empresa', {}], ['dinero.uf', { min: 0, max: 99999 }]];
  for (const [call, args] of cases) {
    const flags = Object.entries(args).flatMap(([k, v]) => [`--${k}`, String(v)]);
    const out = execFileSync(CLI, [call, '--seed', '12345', '-n', '50', '--format', 'plain', ...flags], { encoding: 'utf8' }).trim().split('\n');
    const js = new Datoteca({ seed: 12345 }).many(call, 50, args);
    js.forEach((v, i) => {
      const text = typeof v === 'object' ? Object.values(v).join('\t') : String(v);
      expect(text, `seed 12345, ${call} value ${i}`).toBe(out[i]);
    });
  }
});

test('text seeds equal the C CLI', () => {
  for (const seed of ['ñandú 🇨🇱', '', 'mi-suite']) {
    const out = execFileSync(CLI, ['persona.nombre_completo', '--seed-str', seed, '-n', '20'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(new Datoteca({ seed }).many('persona.nombre_completo', 20), `text seed ${seed}`).toEqual(out);
  }
});

test('independent instances in worker_threads give the main thread values', async () => {
  const main = new Datoteca({ seed: 77 }).many('persona.persona', 200);
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { Datoteca } = require(workerData.index);
    parentPort.postMessage(new Datoteca({ seed: 77 }).many('persona.persona', 200));`;
  const results = await Promise.all([0, 1].map(() => new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { index: path.join(ROOT, 'bindings', 'node', 'index.js') } });
    w.on('message', resolve);
    w.on('error', reject);
  })));
  for (const r of results) expect(r).toEqual(main);
});

test('memory stays flat over 1,000,000 create/drop cycles (--expose-gc)', () => {
  const script = `
    const { Datoteca } = require(${JSON.stringify(path.join(ROOT, 'bindings', 'node', 'index.js'))});
    const tick = () => new Promise((r) => setImmediate(r)); // finalizers run between ticks
    (async () => {
      const cycle = async (n) => { for (let i = 0; i < n; i++) { new Datoteca({ seed: i }); if (i % 10000 === 9999) { global.gc(); await tick(); } } };
      await cycle(100000);
      global.gc(); await tick();
      const before = process.memoryUsage().rss;
      await cycle(1000000);
      global.gc(); await tick();
      console.log(Math.round((process.memoryUsage().rss - before) / 1024));
    })();`;
  const grown = Number(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' }).trim());
  expect(grown, `RSS grew ${grown} KiB`).toBeLessThan(64 * 1024);
}, 120000);
