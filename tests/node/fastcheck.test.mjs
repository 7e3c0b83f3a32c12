// datoteca/fast-check: arbitraries driven by fast-check's draws, used as a user would.
import { expect, test } from 'vitest';
import fc from 'fast-check';
import { test as fcTest } from '@fast-check/vitest';
import { createRequire } from 'node:module';
import { personas, ruts, llamada, dtes } from '../../bindings/node/fast-check.mjs';
import { Datoteca } from '../../bindings/node/index.mjs';

const require = createRequire(import.meta.url);
const rutjs = require('rut.js');

test('personas are adults with a valid RUT (fc.assert)', () => {
  fc.assert(fc.property(personas({ edadMin: 18, edadMax: 30 }), (p) => rutjs.validate(p.rut) && p.email !== null), { numRuns: 200 });
});

test('arguments may be arbitraries', () => {
  fc.assert(fc.property(llamada('direccion.comuna', { region: fc.integer({ min: 1, max: 16 }) }), ruts({ tipo: 'empresa' }),
    (comuna, rut) => comuna.length > 0 && Number(rut.replaceAll('.', '').split('-')[0]) >= 76000000), { numRuns: 100 });
});

fcTest.prop([dtes()], { numRuns: 50 })('@fast-check/vitest: DTE totals add up', (t) => {
  expect(Number(t.monto_total)).toBe(Number(t.monto_neto) + Number(t.monto_exento) + Number(t.iva));
});

test('a failure shrinks to the simplest seed', () => {
  const out = fc.check(fc.property(personas(), (p) => p.sexo === 'nunca'), { numRuns: 20 });
  expect(out.failed).toBe(true);
  expect(out.counterexample[0]).toEqual(new Datoteca({ seed: 0n }).persona.persona());
});
