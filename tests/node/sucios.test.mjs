// Dirty data (docs/sucios.md) judged in Node by code nobody here wrote: rut.js cleans every dirty RUT
// back to its clean value (its clean() drops leading zeros, spaces, dots and the dash), and so do the
// library's own limpiarRut/formatearRut once spaces and leading zeros go; google-libphonenumber parses
// every dirty phone with region CL to the clean E.164 number (the pre-2016 spelling once its trunk 0
// is dropped: the library's metadata no longer has Chile's national prefix). 5,000 values per call
// and form; under `cualquiera` each form is 1/5 ± 2.5 %. A dataset with sucio: { rut: 100 } is dirty
// at 10 % ± 1 % over 20,000 rows, and differs from the clean one only in its dirty RUT cells.
import { describe, expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { Datoteca, Tabla, formatearRut, limpiarRut } from '../../bindings/node/index.mjs';

const require = createRequire(import.meta.url);
const rutjs = require('rut.js');
const { PhoneNumberUtil, PhoneNumberFormat } = require('google-libphonenumber');

const phones = PhoneNumberUtil.getInstance();
const N = 5000;
const SEED = 31;
const FORMAS = {
  'sucio.rut': ['sin_puntos', 'minuscula', 'espacios', 'ceros', 'sin_guion'],
  'sucio.movil': ['antiguo', 'parentesis', 'internacional', 'junto', 'sin_mas'],
  'sucio.fijo': ['antiguo', 'parentesis', 'internacional', 'junto', 'sin_mas'],
};

const sinCeros = (v) => v.trim().replace(/^0+/, '');
function e164(v) {
  const s = v.trim().replace(/^0/, ''); // the trunk 0 of "09-1234 5678", "02-2345 6789"
  return phones.format(phones.parse(s, 'CL'), PhoneNumberFormat.E164);
}

// The failures of one value of `call` asked in `forma` (null for cualquiera).
function revisar(call, forma, v, i) {
  const where = `seed ${SEED}, value ${i}, ${call}(forma=${forma ?? 'cualquiera'}): ${JSON.stringify(v)}`;
  const out = [];
  if (forma !== null && v.forma !== forma) out.push(`${where}: forma ${v.forma}, expected ${forma}`);
  if (!FORMAS[call].includes(v.forma)) out.push(`${where}: forma ${v.forma} is not one of the call's`);
  if (v.sucio === v.limpio) out.push(`${where}: the dirty value equals the clean one`);
  if (call === 'sucio.rut') {
    if (!rutjs.validate(v.limpio)) out.push(`${where}: rut.js refuses limpio`);
    const porRutjs = rutjs.format(v.sucio);
    if (porRutjs !== v.limpio) out.push(`${where}: rut.js formats the dirty value as ${porRutjs}, expected ${v.limpio}`);
    const porDatoteca = formatearRut(sinCeros(v.sucio));
    if (porDatoteca !== v.limpio) out.push(`${where}: formatearRut gives ${porDatoteca}, expected ${v.limpio}`);
    if (limpiarRut(sinCeros(v.sucio)) !== rutjs.clean(v.limpio)) out.push(`${where}: limpiarRut is not rut.js's clean of limpio`);
  } else {
    let got;
    try {
      got = e164(v.sucio);
    } catch (e) {
      got = `unparsed: ${e.message}`;
    }
    if (got !== v.limpio) out.push(`${where}: libphonenumber parses it to ${got}, expected ${v.limpio}`);
    const n = phones.parse(v.limpio, 'CL');
    if (!phones.isValidNumber(n) || (String(n.getNationalNumber())[0] === '9') !== (call === 'sucio.movil')) {
      out.push(`${where}: limpio is not a valid ${call === 'sucio.movil' ? 'mobile' : 'fixed line'}`);
    }
  }
  return out;
}

describe.each(Object.keys(FORMAS))('%s', (call) => {
  test.each([...FORMAS[call], null])('forma %s: every dirty value cleans back', (forma) => {
    const values = new Datoteca({ seed: SEED }).many(call, N, forma ? { forma } : {});
    const failures = [];
    values.forEach((v, i) => { if (failures.length < 10) failures.push(...revisar(call, forma, v, i)); });
    expect(failures.join('\n')).toBe('');
    if (forma === null) {
      for (const f of FORMAS[call]) {
        const share = values.filter((v) => v.forma === f).length / N;
        expect(Math.abs(share - 0.2), `seed ${SEED}, ${N} values of ${call}: ${f} at ${share}`).toBeLessThanOrEqual(0.025);
      }
    }
  });
});

test('a dataset with sucio: { rut: 100 } is dirty at its rate and cleans back to the clean table', () => {
  const filas = 20000;
  const limpia = new Tabla('persona.persona', { seed: SEED }).filas(filas);
  const sucia = new Tabla('persona.persona', { seed: SEED, sucio: { rut: 100 } }).filas(filas);
  const failures = [];
  let sucias = 0;
  limpia.forEach((a, i) => {
    const b = sucia[i];
    const where = `seed ${SEED}, persona.persona sucio {rut:100}, row ${i}`;
    for (const k of Object.keys(a)) {
      if (k !== 'rut' && a[k] !== b[k] && failures.length < 10) failures.push(`${where}: ${k} is ${b[k]}, clean ${a[k]}`);
    }
    if (a.rut !== b.rut) {
      sucias++;
      if (rutjs.format(b.rut) !== a.rut && failures.length < 10) failures.push(`${where}: rut.js formats ${JSON.stringify(b.rut)} as ${rutjs.format(b.rut)}, expected ${a.rut}`);
    }
  });
  expect(failures.join('\n')).toBe('');
  expect(Math.abs(sucias / filas - 0.1), `seed ${SEED}: ${sucias} dirty of ${filas}`).toBeLessThanOrEqual(0.01);
});

test('a dirty phone column parses back in a dataset, and columnar() gives filas()\' cells', () => {
  const t = new Tabla('empresa.empresa', { seed: SEED, campos: ['telefono'], sucio: { telefono: 500 } });
  const limpia = new Tabla('empresa.empresa', { seed: SEED, campos: ['telefono'] }).filas(5000);
  const failures = [];
  t.filas(5000).forEach((r, i) => {
    if (e164(r.telefono) !== e164(limpia[i].telefono) && failures.length < 10) {
      failures.push(`seed ${SEED}, empresa.empresa row ${i}: ${r.telefono} is not ${limpia[i].telefono}`);
    }
  });
  expect(failures.join('\n')).toBe('');
  expect(t.columnar(50, 100).telefono).toEqual(t.filas(50, 100).map((r) => r.telefono));
});
