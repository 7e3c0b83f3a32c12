// Hostile input through the Node binding: every bad call throws a clear TypeError or
// RangeError (or the caller's own error from a throwing getter), never crashes, and leaves
// the instance's stream exactly where it was. Threads are in api.test.mjs (worker_threads).
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import * as dt from '../../bindings/node/index.mjs';

const { Datoteca } = dt;

const BAD = [
  ['array', []], ['object', {}], ['null', null], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity],
  ['-1', -1], ['1.5', 1.5], ['2**53', 2 ** 53], ['2**64', 2 ** 64], ['2n**64n', 2n ** 64n], ['-1n', -1n], ['true', true],
  ['symbol', Symbol('s')], ['function', () => 1], ['empty string', ''], ['1 MB string', '9'.repeat(1_000_000)],
  ['NUL', '\0'], ['lone surrogate', '\ud800'], ['Date', new Date(0)],
];

const method = (d, dotted) => dotted.split('.').reduce((o, part) => (typeof o[part] === 'function' ? o[part].bind(o) : o[part]), d);
// Every parameter of every generating call, from the registry's declaration (tests/casos_argumentos.json):
// the bad value at its position, the parameters before it absent; then the API beside the calls.
const { hostile } = JSON.parse(readFileSync(new URL('../casos_argumentos.json', import.meta.url), 'utf8'));
const TARGETS = [
  ...hostile.map((e) => [`${e.node}(${e.param})`, (d, v) => method(d, e.node)(...Array(e.position).fill(undefined), v), e.position]),
  ['integer(lo)', (d, v) => d.integer(v, 10)], ['integer(hi)', (d, v) => d.integer(0, v)],
  ['many(n)', (d, v) => d.many('rut', v)], ['many(name)', (d, v) => d.many(v, 1)],
  ['call(name)', (d, v) => d.call(v)], ['call(arg)', (d, v) => d.call('rut', { tipo: v })], ['call(args)', (d, v) => d.call('rut', v)],
  ['restoreState', (d, v) => d.restoreState(v)], ['derive', (d, v) => d.derive(v)],
];
// Pairs that are valid input: integer(-1, 10), integer(-1n, 10), call('rut', {}), derive('') and
// derive of any string, call('rut', new Date()) (an object with no own keys); and {} alone as the
// first argument, which is an options object that takes every default (d.persona.nombre({}) as
// d.persona.nombre()).
const ALONE = TARGETS.filter((t) => t[2] === 0).map((t) => t[0]);
const VALID = new Set(['integer(lo)|-1', 'integer(lo)|-1n', 'call(args)|object', 'derive|empty string', 'derive|1 MB string',
  'derive|NUL', 'call(args)|Date', ...ALONE.map((t) => `${t}|object`)]);
// -1 is also valid for fecha.*'s desde and hasta: days relative to hoy (hasta=-1 with desde's default -365).
for (const e of hostile) if (e.call.startsWith('fecha.')) VALID.add(`${e.node}(${e.param})|-1`);
const CASES = TARGETS.flatMap(([t, fn]) => BAD.filter(([v]) => !VALID.has(`${t}|${v}`)).map(([v, value]) => [t, v, fn, value]));

test('the table is large', () => expect(CASES.length).toBeGreaterThanOrEqual(500));

test.each(CASES)('%s with %s throws and leaves the stream', (target, vname, fn, value) => {
  const d = new Datoteca({ seed: 31 });
  const ref = new Datoteca({ seed: 31 });
  let err;
  try {
    fn(d, value);
  } catch (e) {
    err = e;
  }
  expect(err, `${target} with ${vname} did not throw`).toBeDefined();
  // one of the library's classes, which also is the builtin a caller would catch
  expect(err).toBeInstanceOf(dt.DatotecaError);
  expect(err instanceof TypeError || err instanceof RangeError, `${target} with ${vname}: ${err.name}`).toBe(true);
  expect(err.message.length).toBeGreaterThan(0);
  expect(d.many('persona.persona', 2)).toEqual(ref.many('persona.persona', 2));
});

test.each([['array', []], ['float', 1.5], ['NaN', NaN], ['-1', -1], ['2n**64n', 2n ** 64n], ['symbol', Symbol('x')], ['null', null], ['object', {}]])(
  'bad seed %s', (name, seed) => {
    expect(() => new Datoteca({ seed })).toThrow(/seed must be/);
  },
);

test('lone surrogates are refused in seeds and labels', () => {
  expect(() => new Datoteca({ seed: 'a\ud800' })).toThrow(dt.InvalidArgumentError);
  expect(() => new Datoteca({ seed: 'a\ud800' })).toThrow('seed must be valid Unicode text, got a lone surrogate');
  expect(() => new Datoteca({ seed: 1 }).derive('\udfff')).toThrow(RangeError);
});

test.each(['', 'x'.repeat(1_000_000), 'a\0b', 'ñandú 🇨🇱'])('edge seed %#', (seed) => {
  expect(new Datoteca({ seed }).many('rut', 3)).toEqual(new Datoteca({ seed }).many('rut', 3));
});

test.each(['', 'x'.repeat(1_000_000), '\0', '12345678-5\0', '\ud800', '１２345678-5'])('hostile RUT text %#', (text) => {
  expect(dt.validarRut(text)).toBe(false);
  expect(() => dt.limpiarRut(text)).toThrow(RangeError);
});

test('objects with getters that throw', () => {
  const d = new Datoteca({ seed: 4 });
  const ref = new Datoteca({ seed: 4 });
  const boom = { get seed() { throw new Error('getter refused'); } };
  expect(() => new Datoteca(boom)).toThrow('getter refused');
  const args = { get tipo() { throw new Error('getter refused'); } };
  expect(() => d.call('rut', args)).toThrow('getter refused');
  expect(() => d.many('rut', 2, args)).toThrow('getter refused');
  const evilNumber = { valueOf() { throw new Error('valueOf refused'); } };
  expect(() => d.dinero.monto(evilNumber, 5)).toThrow(TypeError);
  expect(d.many('rut', 3)).toEqual(ref.many('rut', 3));
});

test('calls on a foreign object', () => {
  expect(() => Datoteca.prototype.rut.call({})).toThrow(TypeError);
  expect(() => Datoteca.prototype.many.call(Object.create(Datoteca.prototype), 'rut', 1)).toThrow(TypeError);
  const d = new Datoteca({ seed: 1 });
  expect(() => d.persona.nombre.call({})).toThrow(TypeError);
});

test('calls on a freed instance', () => {
  const d = new Datoteca({ seed: 1 });
  d.free();
  d.free(); // twice is a no-op
  for (const fn of [() => d.rut(), () => d.persona.persona(), () => d.many('rut', 3), () => d.nextU32(), () => d.integer(1, 2),
    () => d.saveState(), () => d.restoreState(new Uint8Array(24)), () => d.derive('x'), () => d.hoy, () => d.call('rut')]) {
    expect(fn).toThrow('datoteca: this Datoteca was freed');
  }
});
