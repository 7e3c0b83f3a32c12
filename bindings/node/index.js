'use strict';
// datoteca for Node.js: a thin layer over the C core. Generation lives in C; this file
// checks and converts arguments, calls the addon and shapes results.
const path = require('path');

// node-gyp-build loads a prebuilt N-API binary from prebuilds/<platform>-<arch>/ when one matches (no
// compiler needed), else the one compiled at install from the bundled C sources (build/Release).
function loadAddon() {
  const root = path.join(__dirname, '..', '..');
  try {
    return require('node-gyp-build')(root);
  } catch (e) {
    throw new Error(`datoteca: no native addon for ${process.platform}-${process.arch} (${e.message}); reinstall datoteca with a C compiler available`);
  }
}

const addon = loadAddon();
const EXPECTED_MAJOR = 2;
if (Math.floor(addon.versionNumber / 10000) !== EXPECTED_MAJOR) {
  throw new Error(`datoteca: the addon is version ${addon.version}, this binding needs major version ${EXPECTED_MAJOR}`);
}

const KIND_INT = 1;
const KIND_RECORD = 2;
const FIELD_SEP = '\x1f';
const BULK_CHUNK = 2048;
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

const { RECORD_MAKERS, NAMESPACES, TOP_LEVEL } = require('./llamadas');
const { ColumnaArrow, ColumnaTexto, ColumnaEntero, ColumnaFecha, columnasArrow } = require('./columnas');

const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

// Each call's parameters with the option names they answer to: snake_case as in the registry
// (and the CLI, and Python), and camelCase as JavaScript writes it.
const CALLS = new Map();
addon.callInfo().forEach((c, index) => {
  const names = new Map();
  c.params.forEach((p, i) => { names.set(p.name, i); names.set(camel(p.name), i); });
  CALLS.set(c.name, { ...c, index, names, make: c.fields.length ? RECORD_MAKERS[c.name] : null });
});

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function argumentError(Kind, message) {
  const e = new Kind(message);
  e.status = addon.status.INVALID_ARG;
  return e;
}

/**
 * JS arguments (undefined = absent, a choice name or an integer) -> an array for C, where null
 * is absent and the library's default applies. Types are checked here; every value is
 * checked by the library, whose sentence the addon throws.
 */
function convertArgs(call, values) {
  if (values.every((v) => v === undefined)) return undefined;
  let oversize;
  const out = call.params.map((p, i) => {
    const v = values[i];
    if (v === undefined) return null;
    if (p.choices) {
      const k = typeof v === 'string' ? p.choices.indexOf(v) : -1;
      if (k >= 0) return p.min + k;
      const allowed = p.choices.map((c) => `'${c}'`).join(', ');
      const msg = `${call.name}: ${p.name} must be one of ${allowed} or undefined, got ${typeof v === 'string' ? `'${v}'` : typeName(v)}`;
      throw argumentError(typeof v === 'string' ? RangeError : TypeError, msg);
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw argumentError(TypeError, `${call.name}: ${p.name} must be an integer, got ${typeof v === 'number' ? String(v) : typeName(v)}`);
    }
    if (!Number.isSafeInteger(v)) {
      // Beyond 2**53 a number is no longer exact: the library explains the nearest exact value,
      // and the sentence then names the value that was given.
      const near = v > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
      oversize = oversize || { i, near, v };
      return near;
    }
    return v;
  });
  if (oversize) {
    const said = addon.callCheck(call.index, out);
    const seen = `got ${oversize.near}`;
    throw argumentError(RangeError, said.endsWith(seen) ? said.slice(0, -seen.length) + `got ${oversize.v}` : said);
  }
  return out;
}

/** An options object -> values in parameter order; an unknown name is a TypeError listing the names. */
function optionValues(call, options) {
  if (options === undefined) return call.params.map(() => undefined);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${call.name}: options must be an object, got ${typeName(options)}`);
  }
  const values = call.params.map(() => undefined);
  for (const [key, v] of Object.entries(options)) {
    const i = call.names.get(key);
    if (i === undefined) {
      const accepted = call.params.map((p) => (camel(p.name) === p.name ? `'${p.name}'` : `'${camel(p.name)}' (or '${p.name}')`));
      throw new TypeError(`${call.name}: unknown option '${key}'; it takes ${accepted.length ? accepted.join(', ') : 'no options'}`);
    }
    if (values[i] !== undefined) throw new TypeError(`${call.name}: option '${call.params[i].name}' given twice (camelCase and snake_case)`);
    values[i] = v;
  }
  return values;
}

const isOptions = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

function checkCount(n) {
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new TypeError(`n must be an integer, got ${typeName(n)}`);
  if (n < 0 || n > 2 ** 32 - 1) throw new RangeError(`n must be from 0 to ${2 ** 32 - 1}, got ${n}`);
}

/**
 * n values as nc columns, fetched BULK_CHUNK at a time: fetch(done, k) returns one string per column,
 * its k values joined by '\n'. Returns one array of strings per column.
 */
function inChunks(n, nc, fetch) {
  const parts = Array.from({ length: nc }, () => []);
  for (let hecho = 0; hecho < n; hecho += BULK_CHUNK) {
    const cols = fetch(hecho, Math.min(n - hecho, BULK_CHUNK));
    for (let j = 0; j < nc; j++) parts[j].push(cols[j].split('\n'));
  }
  return parts.map((p) => (p.length === 1 ? p[0] : [].concat(...p)));
}

function shape(call, text) {
  if (call.kind === KIND_RECORD) return call.make(text.split(FIELD_SEP));
  if (call.kind === KIND_INT) return Number(text);
  return text;
}

// Seeds and labels are hashed as UTF-8; a lone surrogate has no UTF-8 form, so it is refused
// rather than replaced (Python refuses it too: the same text seeds the same data everywhere).
function checkWellFormed(s, name) {
  if (!s.isWellFormed()) throw new RangeError(`${name} must be valid Unicode text, got a lone surrogate`);
  return s;
}

function checkSeed(seed) {
  if (typeof seed === 'string') return checkWellFormed(seed, 'seed');
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed > U64_MAX) throw new RangeError(`seed must be a bigint in [0, 2**64), got ${seed}`);
    return seed;
  }
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new RangeError(`seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got ${seed}`);
    }
    return BigInt(seed);
  }
  throw new TypeError(`seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got ${typeName(seed)}`);
}

function parseHoy(hoy) {
  if (hoy instanceof Date) {
    if (Number.isNaN(hoy.getTime())) throw new RangeError('hoy must be a valid date');
    return [hoy.getUTCFullYear(), hoy.getUTCMonth() + 1, hoy.getUTCDate()];
  }
  if (typeof hoy !== 'string') throw new TypeError(`hoy must be a 'YYYY-MM-DD' string or a Date, got ${typeName(hoy)}`);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(hoy);
  if (!m) throw new RangeError(`hoy must be 'YYYY-MM-DD', got '${hoy}'`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

class Datoteca {
  // The native generator lives in a private field: no other object can reach it, and a
  // method called on a foreign object throws a TypeError instead of touching native memory.
  #g;

  /**
   * @param {{seed?: number|bigint|string, hoy?: string|Date}} [options]
   */
  constructor(options = {}) {
    if (options instanceof addon.Gen) {
      this.#g = options; // from derive()
    } else {
      if (options === null || typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeName(options)}`);
      for (const key of Object.keys(options)) {
        if (key !== 'seed' && key !== 'hoy') throw new TypeError(`Datoteca: unknown option '${key}'; it takes 'seed', 'hoy'`);
      }
      this.#g = new addon.Gen(checkSeed(options.seed === undefined ? 0n : options.seed));
      if (options.hoy !== undefined) {
        const [y, m, d] = parseHoy(options.hoy);
        if (!this.#g.setHoy(y, m, d)) throw new RangeError(`hoy must be a real date between 1900-01-01 and 2200-12-31, got '${options.hoy}'`);
      }
    }
    for (const [name, Namespace] of Object.entries(NAMESPACES)) this[name] = new Namespace(this);
  }

  /** Free the C instance now instead of at garbage collection; later calls throw. */
  free() {
    this.#g.free();
  }

  [Symbol.dispose || Symbol.for('nodejs.dispose')]() {
    this.free();
  }

  get hoy() {
    const [y, m, d] = this.#g.getHoy();
    return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }

  /** A generated method: its arguments in order, or one options object. */
  _method(name, args) {
    const call = CALLS.get(name);
    let values = args;
    if (args.length === 1 && isOptions(args[0]) && call.params.length > 0) values = optionValues(call, args[0]);
    else if (args.length > call.params.length) {
      throw new TypeError(`${name}: takes at most ${call.params.length} argument${call.params.length === 1 ? '' : 's'}, got ${args.length}`);
    }
    return shape(call, this.#g.call(call.index, convertArgs(call, values)));
  }

  _lookup(name, args) {
    if (typeof name !== 'string') throw new TypeError(`call must be a string, got ${typeName(name)}`);
    const call = CALLS.get(name);
    if (!call) throw new RangeError(`unknown call '${name}'; see calls()`);
    return { call, cargs: convertArgs(call, optionValues(call, args)) };
  }

  /** Run any registered call by name: d.call('persona.nombre', { sexo: 'F' }). */
  call(name, args) {
    const { call, cargs } = this._lookup(name, args);
    return shape(call, this.#g.call(call.index, cargs));
  }

  /** n values of one call, one crossing per 2,048 values; identical to n single calls. */
  many(name, n, args) {
    const { call, cargs } = this._lookup(name, args);
    checkCount(n);
    const out = [];
    for (let left = n; left > 0; left -= BULK_CHUNK) {
      const k = Math.min(left, BULK_CHUNK);
      if (call.kind === KIND_RECORD) {
        // one split for every field of every record, then fixed-size groups
        const parts = this.#g.many(call.index, cargs, k, 1).split(FIELD_SEP);
        const nf = call.fields.length;
        for (let i = 0; i < parts.length; i += nf) out.push(call.make(parts, i));
      } else {
        const lines = this.#g.many(call.index, cargs, k, 0).split('\n');
        lines.pop();
        if (call.kind === KIND_INT) for (const l of lines) out.push(Number(l));
        else for (const l of lines) out.push(l);
      }
    }
    return out;
  }

  /**
   * n values of one call as columns: { field: string[] } for a record (null where a field has no
   * value), { name: string[] } for a text call, { name: Float64Array } for an integer one. The same
   * values, in the same order, as many(); one crossing per 2,048 values and no object per value.
   */
  columnar(name, n, args) {
    const { call, cargs } = this._lookup(name, args);
    checkCount(n);
    const names = call.kind === KIND_RECORD ? call.fields : [call.name.split('.').pop()];
    const columns = inChunks(n, names.length, (hecho, k) => this.#g.many(call.index, cargs, k, 2));
    const out = {};
    names.forEach((f, j) => {
      const values = columns[j];
      if (call.kind === KIND_INT) out[f] = Float64Array.from(values, Number);
      else if (call.nullable && call.nullable[j]) out[f] = values.map((v) => (v === '' ? null : v));
      else out[f] = values;
    });
    return out;
  }

  /** The next 32-bit value of the stream. */
  nextU32() {
    return this.#g.nextU32();
  }

  /** An unbiased integer in [lo, hi] as a bigint (64-bit signed bounds). */
  integer(lo, hi) {
    for (const [name, v] of [['lo', lo], ['hi', hi]]) {
      if (typeof v !== 'bigint' && !(typeof v === 'number' && Number.isSafeInteger(v))) {
        throw new TypeError(`${name} must be a bigint or a safe integer, got ${typeName(v)}`);
      }
      if (BigInt(v) < I64_MIN || BigInt(v) > I64_MAX) throw new RangeError(`${name} must fit a signed 64-bit integer, got ${v}`);
    }
    if (BigInt(lo) > BigInt(hi)) throw new RangeError(`lo must not exceed hi, got lo=${lo}, hi=${hi}`);
    return this.#g.range(BigInt(lo), BigInt(hi));
  }

  /** The complete state (24 bytes); restoreState continues exactly from here. */
  saveState() {
    return new Uint8Array(this.#g.saveState());
  }

  restoreState(state) {
    if (!(state instanceof Uint8Array)) throw new TypeError(`state must be a Uint8Array or Buffer, got ${typeName(state)}`);
    this.#g.restoreState(state);
  }

  /** An independent child generator for a label; takes two draws from this stream. */
  derive(label) {
    if (typeof label !== 'string') throw new TypeError(`label must be a string, got ${typeName(label)}`);
    return new Datoteca(this.#g.derive(checkWellFormed(label, 'label')));
  }
}

// Calls without a namespace (rut) are methods of Datoteca itself.
for (const [method, name] of Object.entries(TOP_LEVEL)) {
  Object.defineProperty(Datoteca.prototype, method, {
    value: function (...args) { return this._method(name, args); }, writable: true, configurable: true,
  });
}

// ---- datasets (docs/datasets.md) ------------------------------------------------------------

const NULO = '\x1e';
const DIALECTOS = ['postgresql', 'sqlite'];
const TABLA_OPCIONES = new Set(['seed', 'hoy', 'campos', 'unico', 'nulos']);

function columnList(v, name) {
  if (v === undefined) return null;
  const items = typeof v === 'string' ? v.split(',') : v;
  if (!Array.isArray(items) || !items.every((x) => typeof x === 'string')) {
    throw new TypeError(`${name} must be an array of column names, got ${typeName(v)}`);
  }
  return items.join(',');
}

function nullRates(v) {
  if (v === undefined) return null;
  if (!isOptions(v)) throw new TypeError(`nulos must be an object of column: per mille, got ${typeName(v)}`);
  return Object.entries(v).map(([k, x]) => {
    if (typeof x !== 'number' || !Number.isInteger(x)) throw new TypeError(`nulos: ${k} must be an integer per mille, got ${typeName(x)}`);
    // the range (0 to 1000) is the library's to check: its sentence is the one every binding gives
    return `${k}:${x}`;
  }).join(',');
}

/**
 * A dataset of one call: row i depends only on (seed, call, options, i).
 * new Tabla('persona.persona', { seed: 42, unico: ['rut', 'email'], nulos: { comuna: 100 }, edadMin: 30 })
 */
class Tabla {
  #t;
  #enteros;

  constructor(name, options = {}) {
    if (typeof name !== 'string') throw new TypeError(`call must be a string, got ${typeName(name)}`);
    const call = CALLS.get(name);
    if (!call) throw new RangeError(`unknown call '${name}'; see calls()`);
    if (!isOptions(options)) throw new TypeError(`options must be an object, got ${typeName(options)}`);
    const own = {};
    const callArgs = {};
    for (const [k, v] of Object.entries(options)) (TABLA_OPCIONES.has(k) ? own : callArgs)[k] = v;
    const cargs = convertArgs(call, optionValues(call, callArgs));
    const seed = checkSeed(own.seed === undefined ? 0n : own.seed);
    const hoy = own.hoy === undefined ? null : parseHoy(own.hoy);
    this.#t = new addon.Tabla(call.index, cargs, seed, hoy, columnList(own.campos, 'campos'), columnList(own.unico, 'unico'), nullRates(own.nulos));
    this.call = name;
    /** @type {{nombre: string, tipoSql: string, nulable: boolean, unico: boolean, nulosPorMil: number}[]} */
    this.columnas = this.#t.columnas();
    this.capacidad = this.#t.capacidad();
    this.#enteros = this.columnas.map((c) => c.tipoSql === 'integer' || c.tipoSql === 'bigint');
    Object.freeze(this);
  }

  /** Refuse rows [desde, desde + n) unless both are non-negative safe integers within the capacity. */
  #checkRows(n, desde) {
    for (const [k, v] of [['n', n], ['desde', desde]]) {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new TypeError(`${k} must be an integer, got ${typeName(v)}`);
      if (v < 0) throw new RangeError(`${k} must not be negative, got ${v}`);
    }
    if (desde + n > this.capacidad) {
      throw new RangeError(`${this.call}: rows ${desde} to ${desde + n} asked, but with these unique columns there is room for ${this.capacidad} rows (docs/datasets.md)`);
    }
  }

  /** Rows [desde, desde + n) as objects: null for a null, numbers for integer columns. */
  filas(n, desde = 0) {
    this.#checkRows(n, desde);
    const names = this.columnas.map((c) => c.nombre);
    const enteros = this.#enteros;
    const out = [];
    for (let hecho = 0; hecho < n; hecho += BULK_CHUNK) {
      const k = Math.min(n - hecho, BULK_CHUNK);
      const lines = this.#t.filas(desde + hecho, k).split('\n');
      lines.pop();
      for (const line of lines) {
        const parts = line.split(FIELD_SEP);
        const row = {};
        for (let j = 0; j < names.length; j++) {
          const v = parts[j];
          row[names[j]] = v === NULO ? null : enteros[j] ? Number(v) : v;
        }
        out.push(row);
      }
    }
    return out;
  }

  /**
   * Rows [desde, desde + n) as columns: { column: string[] } (null for a null), integer columns as
   * Float64Array when they cannot be null. One crossing per 2,048 rows and no object per row.
   */
  columnar(n, desde = 0) {
    this.#checkRows(n, desde);
    const columns = inChunks(n, this.columnas.length, (hecho, k) => this.#t.filas(desde + hecho, k, true));
    const out = {};
    this.columnas.forEach((c, j) => {
      const values = columns[j];
      const nulos = values.map((v) => (v === NULO ? null : v));
      if (this.#enteros[j] && !c.nulable) out[c.nombre] = Float64Array.from(values, Number);
      else if (this.#enteros[j]) out[c.nombre] = nulos.map((v) => (v === null ? null : Number(v)));
      else out[c.nombre] = c.nulable ? nulos : values;
    });
    return out;
  }

  /**
   * Rows [desde, desde + n) as one Arrow record batch, filled in C by `hilos` threads (1 or 2): the
   * columns by name, each holding its Arrow buffers (utf8: offsets + datos; int64; date32) and reading
   * a value only when asked (at(i), iteration, toArray()). No string per value is made here, so this
   * is the fast path for many rows (docs/scale.md#node). At most 2 GiB of text per column: for more,
   * ask for slices (desde).
   */
  arrow(n, desde = 0, options = {}) {
    this.#checkRows(n, desde);
    if (n > 0x7fffffff) throw new RangeError(`n must be at most 2147483647 rows in one batch, got ${n}`);
    if (!isOptions(options)) throw new TypeError(`options must be an object, got ${typeName(options)}`);
    const { hilos = 2, ...otras } = options;
    const extra = Object.keys(otras);
    if (extra.length) throw new TypeError(`unknown option '${extra[0]}' for arrow(); it takes hilos`);
    if (hilos !== 1 && hilos !== 2) throw new RangeError(`hilos must be 1 or 2, got ${typeof hilos === 'number' ? hilos : typeName(hilos)}`);
    return columnasArrow(this.columnas, n, this.#t.arrow(desde, n, hilos));
  }

  /** The CREATE TABLE statement for 'postgresql' or 'sqlite' (default name: the call's last part). */
  ddl(dialecto = 'postgresql', nombre = this.call.split('.').pop()) {
    const d = DIALECTOS.indexOf(dialecto);
    if (d < 0) throw new RangeError(`dialecto must be 'postgresql' or 'sqlite', got ${typeof dialecto === 'string' ? `'${dialecto}'` : typeName(dialecto)}`);
    if (typeof nombre !== 'string') throw new TypeError(`nombre must be a string, got ${typeName(nombre)}`);
    const out = this.#t.ddl(d, nombre);
    if (out === null) throw new RangeError(`nombre must be letters, digits and '_', not starting with a digit, got '${nombre}'`);
    return out;
  }
}

/** Rows [desde, desde + n) of a dataset: tabla('persona.persona', 1000, { seed: 42, desde: 0, unico: ['rut'] }). */
function tabla(name, n, options = {}) {
  if (!isOptions(options)) throw new TypeError(`options must be an object, got ${typeName(options)}`);
  const { desde = 0, ...rest } = options;
  return new Tabla(name, rest).filas(n, desde);
}

/** The CREATE TABLE of a dataset: ddl('persona.persona', { dialecto: 'sqlite', unico: ['rut'] }). */
function ddl(name, options = {}) {
  if (!isOptions(options)) throw new TypeError(`options must be an object, got ${typeName(options)}`);
  const { dialecto, nombre, ...rest } = options;
  return new Tabla(name, rest).ddl(dialecto, nombre);
}

const FORMATOS_RUT = ['puntos', 'guion', 'limpio'];

function checkString(v, name) {
  if (typeof v !== 'string') throw new TypeError(`${name} must be a string, got ${typeName(v)}`);
}

function checkInt(v, name, low, high) {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new TypeError(`${name} must be an integer, got ${typeof v === 'number' ? v : typeName(v)}`);
  if (v < low || v > high) throw new RangeError(`${name} must be from ${low} to ${high}, got ${v}`);
}

/** True if the text is a valid RUT as people type it. */
function validarRut(rut) {
  checkString(rut, 'rut');
  return addon.rutValidar(rut);
}

function rutDv(cuerpo) {
  checkInt(cuerpo, 'cuerpo', 1, 99999999);
  return addon.rutDv(cuerpo);
}

function formatearRut(rut, formato = 'puntos') {
  checkString(rut, 'rut');
  const f = FORMATOS_RUT.indexOf(formato);
  if (f < 0) {
    const msg = `formato must be 'puntos', 'guion' or 'limpio', got ${typeof formato === 'string' ? `'${formato}'` : typeName(formato)}`;
    throw typeof formato === 'string' ? new RangeError(msg) : new TypeError(msg);
  }
  const out = addon.rutFormatear(rut, f);
  if (out === null) {
    const e = new RangeError(`not a valid RUT: '${rut}'`);
    e.status = addon.status.INVALID_RUT;
    throw e;
  }
  return out;
}

function limpiarRut(rut) {
  return formatearRut(rut, 'limpio');
}

const FORMATOS_PATENTE = ['punto', 'limpio', 'guion', 'con_dv'];

function invalidPatente(patente) {
  const e = new RangeError(`not a valid plate: '${patente}'`);
  e.status = addon.status.INVALID_PATENTE;
  return e;
}

/** True if the text is a valid plate as people type it ('PHZF·55', 'phzf55', 'BR-1234', 'PHZF55-K'). */
function validarPatente(patente) {
  checkString(patente, 'patente');
  return addon.patenteValidar(patente);
}

/** The Registro Civil's check digit of a plate: patenteDv('PHZF55') === 'K'. */
function patenteDv(patente) {
  checkString(patente, 'patente');
  const dv = addon.patenteDv(patente);
  if (dv === null) throw invalidPatente(patente);
  return dv;
}

/** Validate a plate and write it as 'punto' (PHZF·55), 'limpio', 'guion' or 'con_dv' (PHZF·55-K). */
function formatearPatente(patente, formato = 'punto') {
  checkString(patente, 'patente');
  const f = FORMATOS_PATENTE.indexOf(formato);
  if (f < 0) {
    const msg = `formato must be 'punto', 'limpio', 'guion' or 'con_dv', got ${typeof formato === 'string' ? `'${formato}'` : typeName(formato)}`;
    throw typeof formato === 'string' ? new RangeError(msg) : new TypeError(msg);
  }
  const out = addon.patenteFormatear(patente, f);
  if (out === null) throw invalidPatente(patente);
  return out;
}

function formatearClp(monto) {
  checkInt(monto, 'monto', 0, 999999999999999);
  return addon.formatearClp(monto);
}

function formatearUf(centesimos) {
  checkInt(centesimos, 'centesimos', 0, 999999999999999);
  return addon.formatearUf(centesimos);
}

module.exports = {
  Datoteca,
  Tabla,
  ColumnaArrow,
  ColumnaTexto,
  ColumnaEntero,
  ColumnaFecha,
  tabla,
  ddl,
  validarRut,
  rutDv,
  formatearRut,
  limpiarRut,
  formatearClp,
  formatearUf,
  validarPatente,
  patenteDv,
  formatearPatente,
  /** The command line (what `npx datoteca` runs): arguments after the program name; returns the exit status. */
  cliMain: (args) => addon.cliMain(args.map(String)),
  calls: () => [...CALLS.keys()],
  version: () => addon.version,
  dataVersion: () => addon.dataVersion,
  tables: () => addon.tables(),
};
