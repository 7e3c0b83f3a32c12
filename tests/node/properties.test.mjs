// The registered property and differential suites (tests/properties.json, docs/testing.md),
// each checked against an expectation that does not call the production code.
import { afterAll, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as dt from '../../bindings/node/index.mjs';
import { readCsv } from './csv.mjs';

const { Datoteca } = dt;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REGISTRY = Object.fromEntries(JSON.parse(readFileSync(path.join(ROOT, 'tests', 'properties.json'), 'utf8')).suites.map((s) => [s.name, s]));
const RAN = {};

/** Marsaglia's xorshift32 (13, 17, 5); a zero seed is replaced by 0x9E3779B9. */
class Xorshift32 {
  constructor(seed) { this.x = (seed >>> 0) || 0x9e3779b9; }
  next() {
    let x = this.x;
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    this.x = x;
    return x;
  }
  below(n) { return this.next() % n; }
  u64() { return (BigInt(this.next()) << 32n) | BigInt(this.next()); }
  pick(a) { return a[this.below(a.length)]; }
}

function runSuite(name, body) {
  const suite = REGISTRY[name];
  expect(suite.languages).toContain('node');
  const seed = Number.parseInt(suite.seed, 16);
  const rng = new Xorshift32(seed);
  RAN[name] = 0;
  for (let i = 0; i < suite.iterations; i++) {
    try {
      body(rng, i);
    } catch (e) {
      throw new Error(`property ${name}, seed 0x${seed.toString(16).padStart(8, '0')}, iteration ${i}: ${e.name}: ${e.message}`);
    }
    RAN[name] += 1; // counted as run, so a suite that stopped early shows in the totals
  }
}

function check(cond, msg) {
  if (!cond) throw new Error(msg);
}

afterAll(() => {
  const mine = Object.values(REGISTRY).filter((s) => s.languages.includes('node'));
  const total = mine.reduce((a, s) => a + s.iterations, 0);
  const ran = Object.values(RAN).reduce((a, n) => a + n, 0);
  console.log(`property suites: ${Object.keys(RAN).length} of ${mine.length} registered Node suites ran ${ran} of ${total} registered iterations`);
});

// ---- PCG32 from the reference, in BigInt ---------------------------------------------------
const M64 = (1n << 64n) - 1n;
const MULT = 6364136223846793005n;
const SEED_STREAM = 0x6461746f74656361n;

class RefPcg32 {
  constructor(initstate, initseq) {
    this.state = 0n;
    this.inc = ((initseq << 1n) | 1n) & M64;
    this.next();
    this.state = (this.state + initstate) & M64;
    this.next();
  }
  next() {
    const old = this.state;
    this.state = (old * MULT + this.inc) & M64;
    const xorshifted = Number((((old >> 18n) ^ old) >> 27n) & 0xffffffffn);
    const rot = Number(old >> 59n);
    return ((xorshifted >>> rot) | (xorshifted << ((32 - rot) & 31))) >>> 0;
  }
  below(n) { // Lemire, n a bigint <= 2^32
    let m = BigInt(this.next()) * n;
    let low = m & 0xffffffffn;
    if (low < n) {
      const t = ((1n << 32n) - n) % n;
      while (low < t) {
        m = BigInt(this.next()) * n;
        low = m & 0xffffffffn;
      }
    }
    return m >> 32n;
  }
  range(lo, hi) {
    const span = hi - lo + 1n;
    if (span <= 1n << 32n) return lo + (span === 1n << 32n ? BigInt(this.next()) : this.below(span));
    if (span === 1n << 64n) return lo + ((BigInt(this.next()) << 32n) | BigInt(this.next()));
    const limit = M64 - ((M64 % span) + 1n) % span;
    for (;;) {
      const r = (BigInt(this.next()) << 32n) | BigInt(this.next());
      if (r <= limit) return lo + (r % span);
    }
  }
}

test('pcg32_differential', () => runSuite('pcg32_differential', (rng) => {
  const seed = rng.u64();
  const n = 1 + rng.below(64);
  const ref = new RefPcg32(seed, SEED_STREAM);
  const d = new Datoteca({ seed });
  for (let k = 0; k < n; k++) {
    const want = ref.next();
    const got = d.nextU32();
    check(got === want, `seed ${seed}, draw ${k}: expected ${want}, got ${got}`);
  }
}));

test('bounded_differential', () => runSuite('bounded_differential', (rng, i) => {
  const seed = rng.u64();
  const ref = new RefPcg32(seed, SEED_STREAM);
  const d = new Datoteca({ seed });
  let lo;
  let hi;
  switch (i % 4) {
    case 0: lo = 0n; hi = BigInt(rng.below(10)); break;
    case 1: lo = BigInt(rng.next()) - (1n << 31n); hi = lo + BigInt(rng.next()); break;
    case 2: lo = -(rng.u64() >> 1n); hi = lo + (rng.u64() >> 1n) + (1n << 32n); break;
    default: lo = -(1n << 63n); hi = (1n << 63n) - 1n;
  }
  for (let k = 0; k < 8; k++) {
    const want = ref.range(lo, hi);
    const got = d.integer(lo, hi);
    check(got === want, `seed ${seed}, integer(${lo}, ${hi}) #${k}: expected ${want}, got ${got}`);
  }
}));

// ---- RUT -------------------------------------------------------------------------------------
function mod11(body) {
  let s = 0;
  let w = 2;
  for (let b = body; b > 0; b = Math.floor(b / 10)) {
    s += (b % 10) * w;
    w = w === 7 ? 2 : w + 1;
  }
  const r = 11 - (s % 11);
  return r === 11 ? '0' : r === 10 ? 'K' : String(r);
}
// The accepted spellings, from the header's description: ASCII whitespace around, dots in every
// group or none, an optional '-' or pasted dash (U+2010 to U+2015, U+2212), the check digit.
const REF_RUT = /^[ \t\n\r\v\f]*([1-9]\d{0,7}|[1-9]\d{0,2}(?:\.\d{3}){1,2})(?:-|[\u2010-\u2015\u2212])?([0-9kK])[ \t\n\r\v\f]*$/;
const DASHES = ['-', '-', '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212'];
const SPACES = [' ', '\t', '  ', '\n', '\r\n', '\v', '\f'];
function refValid(text) {
  const m = REF_RUT.exec(text);
  if (!m) return false;
  const digits = m[1].replaceAll('.', '');
  return digits.length <= 8 && mod11(Number(digits)) === m[2].toUpperCase();
}
function spelling(rng) {
  const body = rng.pick([1 + rng.below(99999999), 1 + rng.below(999), 0, 100000000 + rng.below(100000000)]);
  let digits = String(body);
  if (rng.below(2) && digits.length > 3) digits = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  let dv = rng.below(4) ? mod11(body) : rng.pick([...'0123456789K']);
  if (dv === 'K' && rng.below(2)) dv = 'k';
  let text = digits + (rng.below(3) ? rng.pick(DASHES) : '') + dv;
  if (rng.below(4) === 0) text = rng.pick(SPACES) + text + rng.pick(['', ...SPACES]);
  if (rng.below(6) === 0) {
    const pos = rng.below(text.length + 1);
    text = text.slice(0, pos) + rng.pick(['x', '.', '-', '..', ' ', '0', 'ñ', '\0', 'K', '\u2016', '\u00a0', '\u2013']) + text.slice(pos);
  }
  return text;
}

test('rut', () => runSuite('rut', (rng) => {
  const d = new Datoteca({ seed: rng.u64() });
  const r = d.rut(rng.pick(['persona', 'empresa']), rng.pick(['puntos', 'guion', 'limpio']));
  const body = Number(r.slice(0, -1).replaceAll('.', '').replace(/-$/, ''));
  check(mod11(body) === r.at(-1), `generated ${r} fails mod-11`);
  const s = spelling(rng);
  check(dt.validarRut(s) === refValid(s), `validator says ${dt.validarRut(s)} for ${JSON.stringify(s)}, reference ${refValid(s)}`);
  if (refValid(s)) {
    const clean = dt.limpiarRut(s);
    for (const f of ['puntos', 'guion', 'limpio']) check(dt.formatearRut(clean, f) === dt.formatearRut(s, f), `format∘clean differs for ${s}`);
  }
}));

// ---- geography and telephones ------------------------------------------------------------
const COMUNAS = readCsv('comunas.csv');
const BY_CUT = new Map(COMUNAS.map((c) => [c.codigo_cut, c]));
const REGIONES = new Map(readCsv('regiones.csv').map((r) => [r.codigo_cut, r.nombre_oficial]));
const PROVINCIAS = new Map(readCsv('provincias.csv').map((p) => [p.codigo_cut, p]));
const AREAS = new Map();
for (const c of COMUNAS) {
  const r = Number(c.codigo_region);
  if (!AREAS.has(r)) AREAS.set(r, new Set());
  AREAS.get(r).add(Number(c.codigo_area_telefono));
}

test('geography', () => runSuite('geography', (rng) => {
  const d = new Datoteca({ seed: rng.u64() });
  const region = rng.below(17) || undefined;
  const a = d.direccion.direccion(region);
  const c = BY_CUT.get(a.codigo_comuna);
  check(c && c.nombre === a.comuna, `CUT ${a.codigo_comuna} is not ${a.comuna}`);
  const p = PROVINCIAS.get(a.codigo_provincia);
  check(c.codigo_provincia === a.codigo_provincia && p.nombre === a.provincia, `provincia of ${a.comuna}`);
  check(p.codigo_region === a.codigo_region && c.codigo_region === a.codigo_region && REGIONES.get(a.codigo_region) === a.region, `region of ${a.comuna}`);
  if (region) {
    check(Number(a.codigo_region) === region, `asked region ${region}, got ${a.codigo_region}`);
    const comuna = d.direccion.comuna(region);
    check(COMUNAS.some((x) => x.nombre === comuna && Number(x.codigo_region) === region), `${comuna} not in ${region}`);
  }
}));

const MOVIL = { internacional: /^\+56 9 \d{4} \d{4}$/, e164: /^\+569\d{8}$/, nacional: /^9 \d{4} \d{4}$/ };
// The mobile blocks libphonenumber accepts, read from c/data/telefonos_validos.csv.
const BLOQUES = readFileSync(path.join(ROOT, 'c', 'data', 'telefonos_validos.csv'), 'utf8').trim().split('\n').slice(1)
  .map((l) => l.split(',')).filter((c) => c[0] === 'movil').map((c) => [Number(c[6]), Number(c[7])]);
const movilAceptado = (t) => { const n = Number(t.replace(/\D/g, '').replace(/^56(?=9\d{8}$)/, '')); return BLOQUES.some(([a, b]) => a <= n && n <= b); };
const FIJO = {
  internacional: /^\+56 (?:(2) 2\d{3} \d{4}|(\d\d) 2\d\d \d{4})$/,
  e164: /^\+56(?:(2)2\d{7}|(\d\d)2\d{6})$/,
  nacional: /^(?:(2) 2\d{3} \d{4}|(\d\d) 2\d\d \d{4})$/,
};
function area(text, formato) {
  const m = FIJO[formato].exec(text);
  check(m, `fixed line ${text} (${formato}) does not follow the plan`);
  return Number(m[1] || m[2]);
}

test('telephone_plan', () => runSuite('telephone_plan', (rng) => {
  const d = new Datoteca({ seed: rng.u64() });
  const formato = rng.pick(Object.keys(MOVIL));
  const m = d.telefono.movil(formato);
  check(MOVIL[formato].test(m) && movilAceptado(m), `mobile ${m} (${formato})`);
  const region = 1 + rng.below(16);
  const a = area(d.telefono.fijo(region, formato), formato);
  check(AREAS.get(region).has(a), `area ${a} is not used in region ${region}`);
  const e = d.empresa.empresa();
  const c = COMUNAS.find((x) => x.nombre === e.comuna && REGIONES.get(x.codigo_region) === e.region);
  check(c && area(e.telefono, 'internacional') === Number(c.codigo_area_telefono), `company phone ${e.telefono} in ${e.comuna}`);
}));

// ---- money --------------------------------------------------------------------------------
const MAXM = 999999999999999;
const miles = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '.');

test('money', () => {
  const edges = [0, 1, 999, 1000, 1001, 999999, 1000000, MAXM - 1, MAXM];
  runSuite('money', (rng, i) => {
    const amount = i < edges.length ? edges[i] : rng.pick([rng.below(10 ** rng.below(9)), Number(rng.u64() % BigInt(MAXM + 1))]);
    check(dt.formatearClp(amount) === `$${miles(amount)}`, `clp ${amount}: ${dt.formatearClp(amount)}`);
    check(dt.formatearUf(amount) === `UF ${miles(Math.floor(amount / 100))},${String(amount % 100).padStart(2, '0')}`, `uf ${amount}`);
    const d = new Datoteca({ seed: rng.u64() });
    const lo = rng.pick([0, 999, 1000, Math.floor(amount / 2)]);
    const hi = rng.pick([lo, lo + 1, Math.max(amount, lo), MAXM]);
    const v = d.dinero.monto(lo, hi);
    check(v >= lo && v <= hi, `monto(${lo}, ${hi}) gave ${v}`);
    const t = d.dinero.clp(lo, hi);
    const parsed = Number(t.slice(1).replaceAll('.', ''));
    check(parsed >= lo && parsed <= hi && t === `$${miles(parsed)}`, `clp(${lo}, ${hi}) gave ${t}`);
    const u = d.dinero.uf(lo, hi);
    const cents = Number(u.slice(3).replaceAll('.', '').replace(',', ''));
    const written = `UF ${miles(Math.floor(cents / 100))},${String(cents % 100).padStart(2, '0')}`;
    check(/^UF \d{1,3}(\.\d{3})*,\d\d$/.test(u) && cents >= lo && cents <= hi && u === written, `uf(${lo}, ${hi}) gave ${u}`);
  });
});

// ---- dates: the language's own calendar ---------------------------------------------------
test('dates', () => runSuite('dates', (rng, i) => {
  let hoy;
  if (i % 5 === 0) hoy = new Date(Date.UTC(rng.pick([2000, 2004, 2024, 2028]), 1, 29));
  else hoy = new Date(Date.UTC(1990 + rng.below(60), 0, 1 + rng.below(366)));
  const lo = rng.below(100);
  const hi = lo + rng.below(21);
  const text = new Datoteca({ seed: rng.u64(), hoy }).persona.fechaNacimiento(lo, hi);
  const [y, m, d] = text.split('-').map(Number);
  const born = new Date(Date.UTC(y, m - 1, d));
  check(born.getUTCFullYear() === y && born.getUTCMonth() === m - 1 && born.getUTCDate() === d, `${text} is not a real day`);
  const [hy, hm, hd] = [hoy.getUTCFullYear(), hoy.getUTCMonth() + 1, hoy.getUTCDate()];
  const age = hy - y - (hm < m || (hm === m && hd < d) ? 1 : 0);
  check(age >= lo && age <= hi, `hoy ${hoy.toISOString().slice(0, 10)}, ages [${lo}, ${hi}]: born ${text} is ${age}`);
}));

// ---- streams ------------------------------------------------------------------------------
const BAD = [
  (d) => d.dinero.monto(10, 5),
  (d) => d.persona.fechaNacimiento(50, 20),
  (d) => d.persona.persona({ edadMin: 90, edadMax: 10 }),
  (d) => d.direccion.comuna(17),
  (d) => d.telefono.fijo(17), // 0 is "any region" since 1.1.0, in every language
  (d) => d.call('persona.nombre', { sexo: 'X' }),
  (d) => d.restoreState(new Uint8Array(3)),
];

test('streams', () => {
  const calls = dt.calls();
  runSuite('streams', (rng) => {
    const seed = rng.u64();
    const name = rng.pick(calls);
    const a = new Datoteca({ seed });
    const b = new Datoteca({ seed });
    check(JSON.stringify(a.many(name, 3)) === JSON.stringify(b.many(name, 3)), `same seed ${seed}, ${name}: different data`);
    const state = a.saveState();
    const after = a.many(name, 3);
    const c = new Datoteca({ seed: rng.u64() });
    c.restoreState(state);
    check(JSON.stringify(c.many(name, 3)) === JSON.stringify(after), `restore did not continue identically (${name})`);
    const p = new Datoteca({ seed });
    const q = new Datoteca({ seed });
    const l1 = `l${rng.next()}`;
    const k1 = p.derive(l1);
    const k2 = p.derive(`${l1}x`);
    check(JSON.stringify(k1.many('rut', 4)) !== JSON.stringify(k2.many('rut', 4)), `children ${l1} agree`);
    for (let k = 0; k < 4; k++) q.nextU32();
    check(p.nextU32() === q.nextU32(), 'two derives did not take exactly four parent draws');
    const e = new Datoteca({ seed });
    const f = new Datoteca({ seed });
    let threw = false;
    try { rng.pick(BAD)(e); } catch { threw = true; }
    check(threw, 'a bad call did not throw');
    check(JSON.stringify(e.many(name, 2)) === JSON.stringify(f.many(name, 2)), 'a failed call consumed the stream');
  });
});

// ---- plates: the Registro Civil's check digit, from the CSVs, not the library ---------------------
const LETRAS = new Map(readCsv('patentes_letras.csv').map((r) => [r.letra, Number(r.valor)]));
const SERIES = new Map(readCsv('patentes_series_antiguas.csv').map((r) => [r.serie, Number(r.codigo_d7d6d5)]));
function ppuDv(letras, numero) {
  const n = letras.length === 2
    ? SERIES.get(letras) * 10000 + Number(numero)
    : Number([...letras].map((c) => LETRAS.get(c)).join('') + (letras.length === 3 ? '0' : '') + numero);
  return n ? mod11(n) : '0';
}
const PLACA = { auto: '([BCDFGHJKLPRSTVWXYZ]{4})', moto: '([BCDFGHJKLPRSTVWXYZ]{3})', antigua: '([A-Z]{2})' };
const SEP = { punto: '·', limpio: '', guion: '-', con_dv: '·' };

test('patentes', () => runSuite('patentes', (rng) => {
  const d = new Datoteca({ seed: rng.u64() });
  const tipo = rng.pick(['auto', 'moto', 'antigua']);
  const formato = rng.pick(Object.keys(SEP));
  const p = d.vehiculo.patente(tipo, formato);
  const re = new RegExp(`^${PLACA[tipo]}${SEP[formato] === '-' ? '-' : SEP[formato]}(\\d{${tipo === 'antigua' ? 4 : 2}})${formato === 'con_dv' ? '-([0-9K])' : ''}$`);
  const m = re.exec(p);
  check(m, `${tipo} ${formato}: '${p}' does not have the format's shape`);
  let [, letras, numero] = m;
  const dv = ppuDv(letras, numero);
  if (formato === 'con_dv') check(m[3] === dv, `'${p}': check digit ${m[3]}, the reference says ${dv}`);
  check(dt.patenteDv(p) === dv, `patenteDv('${p}') = ${dt.patenteDv(p)}, reference ${dv}`);
  if (rng.below(10) === 0) letras = rng.pick(['A', 'E', 'Q', 'Ñ']) + letras.slice(1);
  const valida = tipo === 'antigua' ? SERIES.has(letras) : [...letras].every((c) => LETRAS.has(c));
  const dv2 = valida ? ppuDv(letras, numero) : '0';
  const sep = rng.pick(['', '·', '-', ' ', '.']);
  let texto = letras + sep + numero;
  if (rng.below(2)) texto = texto.toLowerCase();
  const con = rng.below(3);
  if (con === 1) texto += rng.pick(['', '-']) + dv2;
  else if (con === 2) texto += '-' + rng.pick([...'0123456789K'].filter((c) => c !== dv2));
  if (rng.below(4) === 0) texto = rng.pick([' ', '\t', '\n']) + texto + rng.pick([' ', '\n']);
  const esperado = valida && con !== 2 && sep !== ' '; // a space inside is refused (docs/patentes.md)
  check(dt.validarPatente(texto) === esperado, `validarPatente(${JSON.stringify(texto)}) !== ${esperado}`);
  if (esperado) check(dt.formatearPatente(texto, 'con_dv') === `${letras}·${numero}-${dv2}`, texto);
}));

// ---- tax documents ----------------------------------------------------------------------------------
const DTE = new Map(readCsv('dte_tipos.csv').map((r) => [r.codigo, r]));
const DAY = 86400000;

test('tributario', () => runSuite('tributario', (rng) => {
  const hoy = new Date(Date.UTC(2000 + rng.below(40), 0, 1 + rng.below(366)));
  const d = new Datoteca({ seed: rng.u64(), hoy });
  const t = d.tributario.dte();
  const [neto, exento, iva, total] = ['monto_neto', 'monto_exento', 'iva', 'monto_total'].map((k) => Number(t[k]));
  check(iva === Math.floor((neto * 19 + 50) / 100), `${t.tipo}: IVA ${iva} of neto ${neto}`);
  check(total === neto + exento + iva, `${t.tipo}: ${neto} + ${exento} + ${iva} !== ${total}`);
  const fila = DTE.get(String(t.tipo));
  check(fila && t.nombre_tipo === fila.nombre, `type ${t.tipo}`);
  if (fila.montos === 'exento') check(neto === 0 && iva === 0 && exento > 0, JSON.stringify(t));
  else check(exento === 0 && neto > 0, JSON.stringify(t));
  for (const campo of ['emisor_rut', 'receptor_rut']) {
    const [cuerpo, dv] = t[campo].replaceAll('.', '').split('-');
    check(mod11(Number(cuerpo)) === dv, `${campo} ${t[campo]}`);
  }
  const persona = Number(t.receptor_rut.replaceAll('.', '').split('-')[0]) < 50000000;
  check(persona === (fila.receptor === 'persona'), `type ${t.tipo}: receptor ${t.receptor_rut}`);
  const f = Date.parse(`${t.fecha_emision}T00:00:00Z`);
  check(f <= hoy.getTime() && f >= hoy.getTime() - 364 * DAY, `hoy ${hoy.toISOString().slice(0, 10)}: issued ${t.fecha_emision}`);
}));

// ---- dates and times ------------------------------------------------------------------------------
test('fechas', () => runSuite('fechas', (rng) => {
  const hoy = new Date(Date.UTC(1950 + rng.below(200), 0, 1 + rng.below(366)));
  const desde = rng.below(73001) - 36500;
  const hasta = Math.min(36500, desde + rng.pick([0, 1, 30, 365, rng.below(73001)]));
  const d = new Datoteca({ seed: rng.u64(), hoy });
  const real = (text) => {
    const [y, m, dd] = text.split('-').map(Number);
    const t = Date.UTC(y, m - 1, dd);
    const back = new Date(t);
    check(back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === dd, `${text} is not a real day`);
    return t;
  };
  const lo = hoy.getTime() + desde * DAY;
  const hi = hoy.getTime() + hasta * DAY;
  const f = real(d.fecha.fecha(desde, hasta));
  check(f >= lo && f <= hi, `hoy ${hoy.toISOString().slice(0, 10)} [${desde}, ${hasta}]: ${new Date(f).toISOString()}`);
  const fh = d.fecha.fechaHora(desde, hasta);
  check(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(fh), fh);
  const g = real(fh.slice(0, 10));
  check(g >= lo && g <= hi, fh);
  const [hh, mm, ss] = d.fecha.hora().split(':').map(Number);
  check(hh < 24 && mm < 60 && ss < 60, 'hora');
}));
