'use strict';
// datoteca for Node.js: the loader over the C core. Generation and every check of a value live in C;
// this file converts arguments (refusing a wrong type), calls the addon and shapes results. The
// methods, records, constants, error classes and utilities are generated from spec/ (llamadas.gen.js,
// comun.gen.js).
const path = require('path');

const comun = require('./comun.gen');
const { ABI_MAJOR, CHUNK, ERRORS, FIELD_SEP, FRASE_CAPACIDAD, FRASE_UNKNOWN_CALL, HOY_ANIO_MAX, HOY_ANIO_MIN, KINDS, N_MAX, NULO, DIALECTOS,
  DatotecaError, InvalidArgumentError, UnknownCallError, TYPE_ERROR } = comun;

// The build this module runs on: the native addon, or the WebAssembly one (backend.js, docs/wasm.md).
const [addon, BACKEND] = require('./backend').elegido();
if (Math.floor(addon.versionNumber / 10000) !== ABI_MAJOR) {
  throw new Error(`datoteca: the addon is version ${addon.version}, this binding needs major version ${ABI_MAJOR}`);
}
// Every refusal the addon throws is built here, from the status: the same classes as every runtime's.
addon.setErrors((status, sentence) => new (ERRORS[status] || DatotecaError)(sentence, status));

const KIND_INT = KINDS.indexOf('entero');
const KIND_RECORD = KINDS.indexOf('registro');
const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

const { RECORD_MAKERS, RECORD_LIST_MAKERS, NAMESPACES, TOP_LEVEL } = require('./llamadas.gen');
const { ColumnaArrow, ColumnaTexto, ColumnaEntero, ColumnaFecha, columnasArrow } = require('./columnas');
const { inferir, inferirConNotas } = require('./inferir');

const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

// Each call's parameters with the option names they answer to: snake_case as in the registry
// (and the CLI, and Python), and camelCase as JavaScript writes it.
const CALLS = new Map();
addon.callInfo().forEach((c, index) => {
  const names = new Map();
  c.params.forEach((p, i) => { names.set(p.name, i); names.set(camel(p.name), i); });
  const record = c.fields.length > 0;
  CALLS.set(c.name, { ...c, index, names, make: record ? RECORD_MAKERS[c.name] : null, makeList: record ? RECORD_LIST_MAKERS[c.name] : null });
});

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

// A sentence of spec/comun.toml ("%s" for each value in turn), as C's printf and Python's % write it.
const frase = (plantilla, ...valores) => valores.reduce((s, v) => s.replace('%s', String(v)), plantilla);

// A wrong argument type, found while converting (the library never sees it).
const typeError = (message) => new TYPE_ERROR(message);

const UTILS = new Map();
addon.utilInfo().forEach((u, index) => UTILS.set(u.name, { ...u, index, utilidad: true }));

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
      if (typeof v !== 'string') {
        const allowed = p.choices.map((c) => `'${c}'`).join(', ');
        throw typeError(`${call.name}: ${p.name} must be one of ${allowed} or undefined, got ${typeName(v)}`);
      }
      const k = p.choices.indexOf(v);
      // an unknown name: the library's sentence refuses it
      return k >= 0 ? p.min + k : addon.paramChoice(Boolean(call.utilidad), call.index, i, v);
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      throw typeError(`${call.name}: ${p.name} must be an integer, got ${typeof v === 'number' ? String(v) : typeName(v)}`);
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
    const said = call.utilidad ? utilSentence(call, out) : addon.callCheck(call.index, out);
    const seen = `got ${oversize.near}`;
    throw new InvalidArgumentError(said.endsWith(seen) ? said.slice(0, -seen.length) + `got ${oversize.v}` : said);
  }
  return out;
}

// The library's sentence refusing a utility's arguments.
function utilSentence(u, args) {
  try {
    addon.util(u.index, null, args);
  } catch (e) {
    return e.message;
  }
  return '';
}

/** An options object -> values in parameter order; an unknown name is a TypeError listing the names. */
function optionValues(call, options) {
  if (options === undefined) return call.params.map(() => undefined);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw typeError(`${call.name}: options must be an object, got ${typeName(options)}`);
  }
  const values = call.params.map(() => undefined);
  for (const [key, v] of Object.entries(options)) {
    const i = call.names.get(key);
    if (i === undefined) {
      const accepted = call.params.map((p) => (camel(p.name) === p.name ? `'${p.name}'` : `'${camel(p.name)}' (or '${p.name}')`));
      throw typeError(`${call.name}: unknown option '${key}'; it takes ${accepted.length ? accepted.join(', ') : 'no options'}`);
    }
    if (values[i] !== undefined) throw typeError(`${call.name}: option '${call.params[i].name}' given twice (camelCase and snake_case)`);
    values[i] = v;
  }
  return values;
}

const isOptions = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

function checkCount(n) {
  if (typeof n !== 'number' || !Number.isInteger(n)) throw typeError(`n must be an integer, got ${typeName(n)}`);
  if (n < 0 || n > N_MAX) throw new InvalidArgumentError(`n must be from 0 to ${N_MAX}, got ${n}`);
}

/**
 * n values as nc columns, fetched CHUNK at a time: fetch(done, k) returns one string per column,
 * its k values joined by '\n'. Returns one array of strings per column.
 */
function inChunks(n, nc, fetch) {
  const parts = Array.from({ length: nc }, () => []);
  for (let hecho = 0; hecho < n; hecho += CHUNK) {
    const cols = fetch(hecho, Math.min(n - hecho, CHUNK));
    for (let j = 0; j < nc; j++) parts[j].push(cols[j].split('\n'));
  }
  return parts.map((p) => (p.length === 1 ? p[0] : [].concat(...p)));
}

function shape(call, text) {
  if (call.kind === KIND_RECORD) return call.make(text);
  if (call.kind === KIND_INT) return Number(text);
  return text;
}

// Seeds and labels are hashed as UTF-8; a lone surrogate has no UTF-8 form, so it is refused
// rather than replaced (Python refuses it too: the same text seeds the same data everywhere).
function checkWellFormed(s, name) {
  if (!s.isWellFormed()) throw new InvalidArgumentError(`${name} must be valid Unicode text, got a lone surrogate`);
  return s;
}

function checkSeed(seed) {
  if (typeof seed === 'string') return checkWellFormed(seed, 'seed');
  if (typeof seed === 'bigint') {
    if (seed < 0n || seed > U64_MAX) throw new InvalidArgumentError(`seed must be a bigint in [0, 2**64), got ${seed}`);
    return seed;
  }
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new InvalidArgumentError(`seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got ${seed}`);
    }
    return BigInt(seed);
  }
  throw typeError(`seed must be a non-negative safe integer, a bigint in [0, 2**64) or a string, got ${typeName(seed)}`);
}

function parseHoy(hoy) {
  if (hoy instanceof Date) {
    if (Number.isNaN(hoy.getTime())) throw new InvalidArgumentError('hoy must be a valid date');
    return [hoy.getUTCFullYear(), hoy.getUTCMonth() + 1, hoy.getUTCDate()];
  }
  if (typeof hoy !== 'string') throw typeError(`hoy must be a 'YYYY-MM-DD' string or a Date, got ${typeName(hoy)}`);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(hoy);
  if (!m) throw new InvalidArgumentError(`hoy must be 'YYYY-MM-DD', got '${hoy}'`);
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
      if (options === null || typeof options !== 'object') throw typeError(`options must be an object, got ${typeName(options)}`);
      for (const key of Object.keys(options)) {
        if (key !== 'seed' && key !== 'hoy') throw typeError(`Datoteca: unknown option '${key}'; it takes 'seed', 'hoy'`);
      }
      this.#g = new addon.Gen(checkSeed(options.seed === undefined ? 0n : options.seed));
      if (options.hoy !== undefined) {
        const [y, m, d] = parseHoy(options.hoy);
        if (!this.#g.setHoy(y, m, d)) throw new InvalidArgumentError(`hoy must be a real date between ${HOY_ANIO_MIN}-01-01 and ${HOY_ANIO_MAX}-12-31, got '${options.hoy}'`);
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
    if (args.length === 0) return shape(call, this.#g.call(call.index)); // every argument left out
    let values = args;
    if (args.length === 1 && isOptions(args[0]) && call.params.length > 0) values = optionValues(call, args[0]);
    else if (args.length > call.params.length) {
      throw typeError(`${name}: takes at most ${call.params.length} argument${call.params.length === 1 ? '' : 's'}, got ${args.length}`);
    }
    return shape(call, this.#g.call(call.index, convertArgs(call, values)));
  }

  _lookup(name, args) {
    if (typeof name !== 'string') throw typeError(`call must be a string, got ${typeName(name)}`);
    const call = CALLS.get(name);
    if (!call) throw new UnknownCallError(frase(FRASE_UNKNOWN_CALL, name));
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
    for (let left = n; left > 0; left -= CHUNK) {
      const k = Math.min(left, CHUNK);
      if (call.kind === KIND_RECORD) {
        call.makeList(this.#g.many(call.index, cargs, k, 0), out); // one pass over the chunk's text
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
        throw typeError(`${name} must be a bigint or a safe integer, got ${typeName(v)}`);
      }
      if (BigInt(v) < I64_MIN || BigInt(v) > I64_MAX) throw new InvalidArgumentError(`${name} must fit a signed 64-bit integer, got ${v}`);
    }
    if (BigInt(lo) > BigInt(hi)) throw new InvalidArgumentError(`lo must not exceed hi, got lo=${lo}, hi=${hi}`);
    return this.#g.range(BigInt(lo), BigInt(hi));
  }

  /** The complete state (24 bytes); restoreState continues exactly from here. */
  saveState() {
    return new Uint8Array(this.#g.saveState());
  }

  restoreState(state) {
    if (!(state instanceof Uint8Array)) throw typeError(`state must be a Uint8Array or Buffer, got ${typeName(state)}`);
    this.#g.restoreState(state);
  }

  /** An independent child generator for a label; takes two draws from this stream. */
  derive(label) {
    if (typeof label !== 'string') throw typeError(`label must be a string, got ${typeName(label)}`);
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

const TABLA_OPCIONES = new Set(['seed', 'hoy', 'campos', 'unico', 'nulos', 'sucio']);

function columnList(v, name) {
  if (v === undefined) return null;
  const items = typeof v === 'string' ? v.split(',') : v;
  if (!Array.isArray(items) || !items.every((x) => typeof x === 'string')) {
    throw typeError(`${name} must be an array of column names, got ${typeName(v)}`);
  }
  return items.join(',');
}

// { column: per mille } of `nulos` or `sucio` as the library's "column:rate,…".
function rates(v, name) {
  if (v === undefined) return null;
  if (!isOptions(v)) throw typeError(`${name} must be an object of column: per mille, got ${typeName(v)}`);
  return Object.entries(v).map(([k, x]) => {
    if (typeof x !== 'number' || !Number.isInteger(x)) throw typeError(`${name}: ${k} must be an integer per mille, got ${typeName(x)}`);
    // the range (0 to 1000) is the library's to check: its sentence is the one every binding gives
    return `${k}:${x}`;
  }).join(',');
}

// Rows as the library writes them (fields joined by FIELD_SEP, a null as NULO, each row ended by '\n')
// appended to `out` as objects: null for a null, a number for an integer column. Datasets and schemas
// alike.
function filasDeTexto(texto, names, enteros, out) {
  const lines = texto.split('\n');
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

/**
 * A dataset of one call: row i depends only on (seed, call, options, i).
 * new Tabla('persona.persona', { seed: 42, unico: ['rut', 'email'], nulos: { comuna: 100 }, sucio: { rut: 100 }, edadMin: 30 })
 */
class Tabla {
  #t;
  #enteros;

  constructor(name, options = {}) {
    if (typeof name !== 'string') throw typeError(`call must be a string, got ${typeName(name)}`);
    const call = CALLS.get(name);
    if (!call) throw new UnknownCallError(frase(FRASE_UNKNOWN_CALL, name));
    if (!isOptions(options)) throw typeError(`options must be an object, got ${typeName(options)}`);
    const own = {};
    const callArgs = {};
    for (const [k, v] of Object.entries(options)) (TABLA_OPCIONES.has(k) ? own : callArgs)[k] = v;
    const cargs = convertArgs(call, optionValues(call, callArgs));
    const seed = checkSeed(own.seed === undefined ? 0n : own.seed);
    const hoy = own.hoy === undefined ? null : parseHoy(own.hoy);
    this.#t = new addon.Tabla(call.index, cargs, seed, hoy, columnList(own.campos, 'campos'), columnList(own.unico, 'unico'),
      rates(own.nulos, 'nulos'), rates(own.sucio, 'sucio'));
    this.call = name;
    /** @type {{nombre: string, tipoSql: string, nulable: boolean, unico: boolean, nulosPorMil: number}[]} */
    this.columnas = this.#t.columnas();
    this.capacidad = this.#t.capacidad();
    this.#enteros = this.columnas.map((c) => c.tipoSql === 'integer' || c.tipoSql === 'bigint');
    Object.freeze(this);
  }

  /** Refuse rows [desde, desde + n) unless both are non-negative safe integers within the capacity. */
  #checkRows(n, desde) {
    for (const [k, v, max] of [['n', n, N_MAX], ['desde', desde, Number.MAX_SAFE_INTEGER]]) {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw typeError(`${k} must be an int, got ${typeName(v)}`);
      if (v < 0 || v > max) throw new InvalidArgumentError(`${k} must be from 0 to ${max}, got ${v}`);
    }
    if (desde + n > this.capacidad) {
      throw new InvalidArgumentError(frase(FRASE_CAPACIDAD, this.call, desde, desde + n, this.capacidad));
    }
  }

  /** Rows [desde, desde + n) as objects: null for a null, numbers for integer columns. */
  filas(n, desde = 0) {
    this.#checkRows(n, desde);
    const names = this.columnas.map((c) => c.nombre);
    const enteros = this.#enteros;
    const out = [];
    for (let hecho = 0; hecho < n; hecho += CHUNK) {
      const k = Math.min(n - hecho, CHUNK);
      filasDeTexto(this.#t.filas(desde + hecho, k), names, enteros, out);
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
    if (n > 0x7fffffff) throw new InvalidArgumentError(`n must be at most 2147483647 rows in one batch, got ${n}`);
    if (!isOptions(options)) throw typeError(`options must be an object, got ${typeName(options)}`);
    const { hilos = 2, ...otras } = options;
    const extra = Object.keys(otras);
    if (extra.length) throw typeError(`unknown option '${extra[0]}' for arrow(); it takes hilos`);
    if (hilos !== 1 && hilos !== 2) throw new InvalidArgumentError(`hilos must be 1 or 2, got ${typeof hilos === 'number' ? hilos : typeName(hilos)}`);
    return columnasArrow(this.columnas, n, this.#t.arrow(desde, n, hilos));
  }

  /** The CREATE TABLE statement for 'postgresql' or 'sqlite' (default name: the call's last part). */
  ddl(dialecto = 'postgresql', nombre = this.call.split('.').pop()) {
    const d = DIALECTOS.indexOf(dialecto);
    if (d < 0) throw new InvalidArgumentError(`dialecto must be 'postgresql' or 'sqlite', got ${typeof dialecto === 'string' ? `'${dialecto}'` : typeName(dialecto)}`);
    if (typeof nombre !== 'string') throw typeError(`nombre must be a string, got ${typeName(nombre)}`);
    return this.#t.ddl(d, nombre);
  }
}

/** Rows [desde, desde + n) of a dataset: tabla('persona.persona', 1000, { seed: 42, desde: 0, unico: ['rut'] }). */
function tabla(name, n, options = {}) {
  if (!isOptions(options)) throw typeError(`options must be an object, got ${typeName(options)}`);
  const { desde = 0, ...rest } = options;
  return new Tabla(name, rest).filas(n, desde);
}

/** The CREATE TABLE of a dataset: ddl('persona.persona', { dialecto: 'sqlite', unico: ['rut'] }). */
function ddl(name, options = {}) {
  if (!isOptions(options)) throw typeError(`options must be an object, got ${typeName(options)}`);
  const { dialecto, nombre, ...rest } = options;
  return new Tabla(name, rest).ddl(dialecto, nombre);
}

// ---- schemas (docs/esquemas.md) -------------------------------------------------------------

const FORMATOS = { toml: 1, json: 2 }; // DT_ESQUEMA_TOML, DT_ESQUEMA_JSON

const isPlain = (v) => v !== null && typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

// A plain object as JSON text, as JSON.stringify writes it except that a bigint is written as the
// integer it is (JSON.stringify refuses bigints). What the document means is the library's to decide.
function comoJson(v, donde, vistos) {
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v) || isPlain(v)) {
    if (vistos.has(v)) throw typeError(`documento: ${donde} refers to itself (a cycle), which JSON cannot hold`);
    vistos.add(v);
    const partes = Array.isArray(v) ? v.map((x, i) => comoJson(x, `${donde}[${i}]`, vistos))
      : Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${comoJson(x, `${donde}.${k}`, vistos)}`);
    vistos.delete(v);
    return Array.isArray(v) ? `[${partes.join(',')}]` : `{${partes.join(',')}}`;
  }
  const texto = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? JSON.stringify(v) : undefined;
  if (texto === undefined) throw typeError(`documento: ${donde} is ${typeName(v)}, which JSON cannot hold`);
  return texto;
}

// (text, format, name for sentences) of a path, a TOML or JSON text, or a plain object.
function documento(doc, formato) {
  if (isPlain(doc)) return [comoJson(doc, 'documento', new Set()), FORMATOS.json, '<objeto>'];
  if (typeof doc !== 'string') throw typeError(`documento must be a path, a TOML or JSON text or a plain object, got ${typeName(doc)}`);
  if (!doc.includes('\n') && (doc.endsWith('.toml') || doc.endsWith('.json'))) {
    const texto = require('fs').readFileSync(doc, 'utf8');
    const json = formato ? formato === 'json' : doc.endsWith('.json');
    return [texto, json ? FORMATOS.json : FORMATOS.toml, path.basename(doc)];
  }
  return [doc, formato === 'json' ? FORMATOS.json : FORMATOS.toml, '<texto>'];
}

// A schema's seed: an unsigned 64-bit integer, as a number or a bigint (text seeds are not taken here yet).
function checkSeedEntero(seed) {
  if (typeof seed === 'bigint' || (typeof seed === 'number' && Number.isInteger(seed))) {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
      throw new InvalidArgumentError(`seed must be a non-negative safe integer or a bigint in [0, 2**64), got ${seed}`);
    }
    const s = BigInt(seed);
    if (s < 0n || s > U64_MAX) throw new InvalidArgumentError(`seed must be a non-negative safe integer or a bigint in [0, 2**64), got ${seed}`);
    return s;
  }
  throw typeError(`seed must be a non-negative safe integer or a bigint in [0, 2**64), got ${typeof seed === 'number' ? String(seed) : typeName(seed)}`);
}

const ESQUEMA_OPCIONES = ['seed', 'hoy', 'formato'];

/**
 * A schema: several linked tables from one document, parsed and checked only in C.
 * new Esquema('banco.toml', { seed: 42 }) — a path (.json is read as JSON, anything else as TOML), or
 * the TOML text, or a plain object (sent to C as JSON). Every value depends only on (seed, table,
 * column, row). The C schema is freed by the garbage collector, or at once by free().
 */
class Esquema {
  #e;
  #columnas;
  #enteros;

  constructor(doc, options = {}) {
    if (!isOptions(options)) throw typeError(`options must be an object, got ${typeName(options)}`);
    for (const key of Object.keys(options)) {
      if (!ESQUEMA_OPCIONES.includes(key)) throw typeError(`Esquema: unknown option '${key}'; it takes ${ESQUEMA_OPCIONES.map((k) => `'${k}'`).join(', ')}`);
    }
    const { seed = 0n, hoy, formato } = options;
    if (formato !== undefined && formato !== 'toml' && formato !== 'json') {
      throw new InvalidArgumentError(`formato must be 'toml' or 'json', got ${typeof formato === 'string' ? `'${formato}'` : typeName(formato)}`);
    }
    const [texto, fmt, archivo] = documento(doc, formato);
    const semilla = checkSeedEntero(seed);
    this.#e = new addon.Esquema(texto, fmt, archivo, semilla, hoy === undefined ? null : parseHoy(hoy));
    /** Table names in declaration order. */
    this.tablas = Object.freeze(this.#e.tablas());
    /** Table names in dependency order: every table after the tables it refers to or fans out from. */
    this.orden = Object.freeze(this.#e.orden().map((i) => this.tablas[i]));
    this.#columnas = this.tablas.map((_, i) => Object.freeze(this.#e.columnas(i).map((c) => Object.freeze(c))));
    this.#enteros = this.#columnas.map((cols) => cols.map((c) => c.tipoSql === 'integer' || c.tipoSql === 'bigint'));
    Object.freeze(this);
  }

  #indice(tabla) {
    if (typeof tabla !== 'string') throw typeError(`tabla must be a string, got ${typeName(tabla)}`);
    const i = this.tablas.indexOf(tabla);
    if (i < 0) throw new InvalidArgumentError(`tabla: '${tabla}' is not a table of the schema; its tables are ${this.tablas.join(', ')}`);
    return i;
  }

  /** The columns of a table in declaration order: nombre, tipoSql, nulable, unico, clavePrimaria, ref ('clientes.id' or null). */
  columnas(tabla) {
    return [...this.#columnas[this.#indice(tabla)]];
  }

  /** How many rows the table has (for a fan-out, the sum of its parents' children), as a number. */
  total(tabla) {
    return Number(this.#e.total(this.#indice(tabla)));
  }

  /**
   * Rows [desde, desde + n) of a table (every row from desde when n is undefined) as objects: null for a
   * null, numbers for integer columns. Any slice equals the same rows of a full run.
   */
  filas(tabla, n, desde = 0) {
    const i = this.#indice(tabla);
    if (typeof desde !== 'number' || !Number.isSafeInteger(desde)) throw typeError(`desde must be an int, got ${typeName(desde)}`);
    if (desde < 0) throw new InvalidArgumentError(`desde must be from 0 to ${Number.MAX_SAFE_INTEGER}, got ${desde}`);
    if (n === undefined) {
      n = Math.max(this.total(tabla) - desde, 0); // every row from desde, as Python's n=None
    } else {
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw typeError(`n must be an int, got ${typeName(n)}`);
      if (n < 0 || n > N_MAX) throw new InvalidArgumentError(`n must be from 0 to ${N_MAX}, got ${n}`);
    }
    const names = this.#columnas[i].map((c) => c.nombre);
    const enteros = this.#enteros[i];
    const out = [];
    // one crossing per CHUNK rows (none for n = 0, as in Python); C refuses rows past the table's
    for (let hecho = 0; hecho < n;) {
      const k = Math.min(n - hecho, CHUNK);
      filasDeTexto(this.#e.filas(i, desde + hecho, k, tabla), names, enteros, out);
      hecho += k;
    }
    return out;
  }

  /** CREATE TABLE statements of every table in dependency order, with their keys and constraints. */
  ddl(dialecto = 'postgresql') {
    const d = DIALECTOS.indexOf(dialecto);
    if (d < 0) throw new InvalidArgumentError(`dialecto must be 'postgresql' or 'sqlite', got ${typeof dialecto === 'string' ? `'${dialecto}'` : typeName(dialecto)}`);
    return this.#e.ddl(d);
  }

  /** Free the C schema now instead of at garbage collection; later calls throw ClosedError. */
  free() {
    this.#e.free();
  }

  [Symbol.dispose || Symbol.for('nodejs.dispose')]() {
    this.free();
  }
}

// ---- utilities: generated from spec/ (comun.gen.js) over the library's utility registry ----------

/** Run utility `name`: its text (a string) when it takes one, then its arguments. */
function util(name, textParam, text, values) {
  const u = UTILS.get(name);
  if (textParam !== null && typeof text !== 'string') throw typeError(`${name}: ${textParam} must be a string, got ${typeName(text)}`);
  return addon.util(u.index, textParam === null ? null : text, convertArgs(u, values));
}
const UTILIDADES = comun.crearUtilidades(util);

const { crearUtilidades, ...constantes } = comun;
// ---- masking (docs/enmascarar.md, "From Python, Node and Spark") ----

const ENMASCARADOR_OPCIONES = ['clave', 'claveArchivo', 'formato', 'claveDePrueba', 'claveCompartida'];
const DT_MASCARA_CLAVE_DE_PRUEBA = 1; // datoteca.h
const DT_MASCARA_CLAVE_COMPARTIDA = 2;

// The key's text from `clave` or DATOTECA_CLAVE, as a Buffer the caller wipes; messages name the source
// only. A key file is not read here: its path goes to the addon, where the library opens and judges it
// (dt_mascara_clave_leer), so the path is never in a message (issue 39: a key pasted as the path was).
function textoDeClave(clave) {
  if (clave === undefined) {
    const env = process.env.DATOTECA_CLAVE;
    if (env === undefined) throw new InvalidArgumentError('Enmascarador: no key: give clave, claveArchivo or set DATOTECA_CLAVE');
    return Buffer.from(env, 'utf8');
  }
  if (typeof clave === 'string') return Buffer.from(clave, 'utf8');
  if (clave instanceof Uint8Array) {
    // 32 bytes are the key itself (crypto.randomBytes(32)); anything else is its hex text
    return clave.length === 32 ? Buffer.from(Buffer.from(clave).toString('hex'), 'utf8') : Buffer.from(clave);
  }
  throw typeError(`clave must be a hex string or a Buffer, got ${typeName(clave)}`);
}

/**
 * Keyed, deterministic masking with a rules document: the same key, rules and values give the bytes
 * `datoteca enmascarar` gives, in every runtime. The rules: a path (.toml or .json), the TOML or JSON
 * text, or a plain object (sent as JSON). The key (64 hex digits): options.clave (the hex text, or a
 * Buffer of the 32 raw bytes), options.claveArchivo (a key file), or DATOTECA_CLAVE. The key is kept
 * only in C and is never in an error or in the object's inspection, nor is the key file's path. A key
 * file must be a regular file only its owner may read (chmod 600; options.claveCompartida accepts one
 * its group or others may read); the published test key and keys of one repeated byte are refused from
 * any source unless options.claveDePrueba (tests only).
 */
class Enmascarador {
  #m;
  #archivo;

  constructor(reglas, options = {}) {
    if (!isOptions(options)) throw typeError(`options must be an object, got ${typeName(options)}`);
    for (const key of Object.keys(options)) {
      if (!ENMASCARADOR_OPCIONES.includes(key)) throw typeError(`Enmascarador: unknown option '${key}'; it takes ${ENMASCARADOR_OPCIONES.map((k) => `'${k}'`).join(', ')}`);
    }
    const { clave, claveArchivo, formato, claveDePrueba = false, claveCompartida = false } = options;
    if (typeof claveDePrueba !== 'boolean') throw typeError(`claveDePrueba must be a boolean, got ${typeName(claveDePrueba)}`);
    if (typeof claveCompartida !== 'boolean') throw typeError(`claveCompartida must be a boolean, got ${typeName(claveCompartida)}`);
    if (clave !== undefined && claveArchivo !== undefined) throw new InvalidArgumentError('Enmascarador: give clave or claveArchivo, not both');
    if (claveArchivo !== undefined && typeof claveArchivo !== 'string') throw typeError(`claveArchivo must be a path, got ${typeName(claveArchivo)}`);
    if (claveArchivo !== undefined && claveArchivo.includes('\0')) throw new InvalidArgumentError('claveArchivo: the path given holds a NUL character');
    const opciones = (claveDePrueba ? DT_MASCARA_CLAVE_DE_PRUEBA : 0) | (claveCompartida ? DT_MASCARA_CLAVE_COMPARTIDA : 0);
    if (formato !== undefined && formato !== 'toml' && formato !== 'json') {
      throw new InvalidArgumentError(`formato must be 'toml' or 'json', got ${typeof formato === 'string' ? `'${formato}'` : typeName(formato)}`);
    }
    const [texto, fmt, archivo] = documento(reglas, formato);
    const k = claveArchivo !== undefined ? claveArchivo : textoDeClave(clave);
    try {
      this.#m = new addon.Enmascarador(texto, fmt, archivo, k, opciones); // DT_MASCARA_TOML/JSON are 1/2 as the schema's
    } finally {
      if (typeof k !== 'string') k.fill(0);
    }
    this.#archivo = archivo;
    Object.freeze(this);
  }

  static #header(columnas) {
    if (!Array.isArray(columnas) || columnas.some((c) => typeof c !== 'string')) throw typeError('columnas must be an array of strings');
    return columnas;
  }

  /** The output's columns for an input with these columns (borrar drops), or the rules' refusal of that header. */
  columnas(entrada) {
    return this.#m.columnas(Enmascarador.#header(entrada));
  }

  /**
   * Mask rows (objects of strings, or null for a null; every row with the first row's keys) into objects
   * of the output columns: a null stays null, a non-empty value its rule empties is null, so the rows
   * written as CSV are the CLI's. options.primera: the number an error gives the first row (1).
   */
  filas(filas, options = {}) {
    if (!Array.isArray(filas)) throw typeError(`filas must be an array of objects, got ${typeName(filas)}`);
    const { primera = 1 } = options;
    if (!Number.isSafeInteger(primera) || primera < 0) throw typeError(`primera must be a non-negative int, got ${typeName(primera)}`);
    if (filas.length === 0) return [];
    if (!isPlain(filas[0])) throw typeError(`row ${primera}: a row must be a plain object, got ${typeName(filas[0])}`);
    const header = Object.keys(filas[0]);
    const valores = filas.map((f, r) => {
      if (!isPlain(f)) throw typeError(`row ${primera + r}: a row must be a plain object, got ${typeName(f)}`);
      const keys = Object.keys(f);
      if (keys.length !== header.length || header.some((c) => !Object.prototype.hasOwnProperty.call(f, c))) {
        throw new InvalidArgumentError(`row ${primera + r}: its keys are not the first row's`);
      }
      return header.map((c) => {
        const v = f[c];
        if (v !== null && typeof v !== 'string') throw typeError(`row ${primera + r}, column ${c}: a value must be a string or null, got ${typeName(v)}`);
        return v;
      });
    });
    const [salida, masked] = this.#m.filas(header, valores, primera);
    return masked.map((v) => {
      const o = {};
      salida.forEach((c, i) => { o[c] = v[i]; });
      return o;
    });
  }

  /**
   * Mask Arrow columns in Tabla.arrow()'s layout: an object of ColumnaTexto (utf8: `offsets`, `datos`,
   * `validez`, `nulos`; or any object with those buffers and a `length`), all of one length, in the
   * header's order; returns the masked columns as ColumnaTexto by name (borrar drops), with the nulls of
   * filas(). The batch is read and masked in C (dt_mascara_arrow_lote) without a string per value.
   * options.primera: the number an error gives the first row (1).
   */
  arrow(columnas, options = {}) {
    if (!isOptions(columnas)) throw typeError(`columnas must be an object of Arrow text columns, got ${typeName(columnas)}`);
    const { primera = 1 } = options;
    if (!Number.isSafeInteger(primera) || primera < 0) throw typeError(`primera must be a non-negative int, got ${typeName(primera)}`);
    const nombres = Object.keys(columnas);
    let length;
    const cols = nombres.map((c) => {
      const x = columnas[c];
      if (x === null || typeof x !== 'object' || !(x.offsets instanceof Int32Array) || !(x.datos instanceof Uint8Array)
        || !(x.validez === null || x.validez === undefined || x.validez instanceof Uint8Array)) {
        throw typeError(`column ${c}: not an Arrow text column (offsets: Int32Array, datos: Uint8Array, validez: Uint8Array or null)${x && x.valores ? '; masking reads text: a number or date column must be text first' : ''}`);
      }
      const n = x.offsets.length - 1;
      if (length === undefined) length = n;
      if (n !== length || (x.length !== undefined && x.length !== n)) throw new InvalidArgumentError(`column ${c}: ${n} rows, the first column ${length}`);
      if (n < 0 || x.offsets[n] > x.datos.length || (x.validez && x.validez.length < ((n + 7) >> 3))) {
        throw new InvalidArgumentError(`column ${c}: its offsets, data and validity do not agree`);
      }
      return { nulos: x.validez ? (x.nulos ?? -1) : 0, validez: x.validez ?? null, offsets: x.offsets, datos: x.datos };
    });
    const [salida, buffers] = this.#m.arrow(nombres, cols, length ?? 0, primera);
    return columnasArrow(salida.map((nombre) => ({ nombre, nulable: true })), length ?? 0, buffers);
  }

  /** Free the rules and wipe the key now instead of at garbage collection; later calls throw ClosedError. */
  free() {
    this.#m.free();
  }

  toString() {
    return `Enmascarador(reglas=${this.#archivo}, clave=<hidden>)`;
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return this.toString();
  }

  toJSON() {
    return { reglas: this.#archivo, clave: '<hidden>' };
  }
}

module.exports = {
  ...constantes,
  ...UTILIDADES,
  Datoteca,
  Tabla,
  Esquema,
  Enmascarador,
  ColumnaArrow,
  ColumnaTexto,
  ColumnaEntero,
  ColumnaFecha,
  tabla,
  ddl,
  inferir,
  inferirConNotas,
  /** The command line (what `npx datoteca` runs): arguments after the program name; returns the exit status. */
  cliMain: (args) => addon.cliMain(args.map(String)),
  calls: () => [...CALLS.keys()],
  /** The utilities' names (validar_rut, …); each is a function of this module in camelCase. */
  utilidades: () => [...UTILS.keys()],
  /** Which build is loaded: 'native' (the N-API addon) or 'wasm' (build-wasm/datoteca.wasm). */
  backend: () => BACKEND,
  version: () => addon.version,
  dataVersion: () => addon.dataVersion,
  tables: () => addon.tables(),
};
