// Judged by code nobody here wrote: rut.js for RUTs and google-libphonenumber for phones. 100,000
// values of every call that makes a RUT or a phone, through the bulk path, in every format, record
// fields included; zero rejections. Mobiles start with 9; a company's fixed line carries its comuna's
// area code (c/data/comunas.csv read here). Emails are judged in Python (email-validator).
import { expect, test } from 'vitest';
import { createRequire } from 'node:module';
import { Datoteca } from '../../bindings/node/index.mjs';
import { readCsv } from './csv.mjs';

const require = createRequire(import.meta.url);
const rutjs = require('rut.js');
const { PhoneNumberUtil } = require('google-libphonenumber');

const phones = PhoneNumberUtil.getInstance();
const N = 100000;
const SEED = 1;

const regiones = Object.fromEntries(readCsv('regiones.csv').map((r) => [r.nombre_oficial, r.codigo_cut]));
const areaDe = new Map(readCsv('comunas.csv').map((c) => [`${c.nombre}|${c.codigo_region}`, Number(c.codigo_area_telefono)]));

const FORMATOS_RUT = ['puntos', 'guion', 'limpio'];
const FORMATOS_TEL = ['internacional', 'e164', 'nacional'];
const RUTS = [
  ...['persona', 'empresa'].flatMap((tipo) => FORMATOS_RUT.map((formato) => ['rut', { tipo, formato }, null])),
  ...FORMATOS_RUT.map((formato) => ['empresa.rut', { formato }, null]),
  ['persona.persona', {}, 'rut'], ['banco.cuenta', {}, 'rut_titular'], ['empresa.empresa', {}, 'rut'],
  ['tributario.dte', {}, 'emisor_rut'], ['tributario.dte', {}, 'receptor_rut'],
];
const MOVILES = [...FORMATOS_TEL.map((formato) => ['telefono.movil', { formato }, null]), ['persona.persona', {}, 'telefono']];
const FIJOS = [...FORMATOS_TEL.map((formato) => ['telefono.fijo', { formato }, null]), ['empresa.empresa', {}, 'telefono']];

const where = (call, args, field, i, v) => `seed ${SEED}, ${call}${JSON.stringify(args)}${field ? `.${field}` : ''}, value ${i + 1} of ${N}: ${JSON.stringify(v)}`;
const parse = (v) => phones.parse(v.startsWith('+') ? v : `+56${v.replaceAll(' ', '')}`);

test.each(RUTS)('rut.js accepts %s %j %s', (call, args, field) => {
  new Datoteca({ seed: SEED }).many(call, N, args).forEach((rec, i) => {
    const v = field ? rec[field] : rec;
    if (!rutjs.validate(v)) throw new Error(`rut.js refuses ${where(call, args, field, i, v)}`);
  });
});

test.each(MOVILES)('libphonenumber accepts the mobiles of %s %j %s', (call, args, field) => {
  new Datoteca({ seed: SEED }).many(call, N, args).forEach((rec, i) => {
    const v = field ? rec[field] : rec;
    const p = parse(v);
    if (p.getCountryCode() !== 56 || !phones.isValidNumber(p)) throw new Error(`libphonenumber refuses ${where(call, args, field, i, v)}`);
    if (!/^9\d{8}$/.test(String(p.getNationalNumber()))) throw new Error(`not a mobile: ${where(call, args, field, i, v)}`);
  });
});

test.each(FIJOS)('libphonenumber accepts the fixed lines of %s %j %s, with their area code', (call, args, field) => {
  const areas = new Set(areaDe.values());
  new Datoteca({ seed: SEED }).many(call, N, args).forEach((rec, i) => {
    const v = field ? rec[field] : rec;
    const p = parse(v);
    if (p.getCountryCode() !== 56 || !phones.isValidNumber(p)) throw new Error(`libphonenumber refuses ${where(call, args, field, i, v)}`);
    const national = String(p.getNationalNumber());
    const area = national.startsWith('2') ? 2 : Number(national.slice(0, 2));
    const want = field ? areaDe.get(`${rec.comuna}|${regiones[rec.region]}`) : null;
    if (field ? area !== want : !areas.has(area)) throw new Error(`area code ${area} (want ${want ?? 'a comuna\'s'}): ${where(call, args, field, i, v)}`);
  });
});

test('the suites cover every call that makes a RUT or a phone', () => {
  expect(new Set([...RUTS, ...MOVILES, ...FIJOS].map((c) => c[0]))).toEqual(
    new Set(['rut', 'empresa.rut', 'persona.persona', 'banco.cuenta', 'empresa.empresa', 'tributario.dte', 'telefono.movil', 'telefono.fijo']));
});
