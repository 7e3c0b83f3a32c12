'use strict';
// The WebAssembly back end of the Node and browser loaders: an object with the native addon's shape
// (Gen, Tabla, Esquema, callInfo, util, …; see addon.cc) over build-wasm/datoteca.wasm, so index.js's
// conversions, checks and errors are the same code for both builds. Like addon.cc it converts, calls
// the generic ABI (dt_call, dt_call_many, dt_util, dt_tabla_*, dt_esquema_*, Arrow) and throws the
// library's sentence; it never draws a number or judges a value. Struct offsets are wasm32's, checked
// at build time by wasm/disposicion.c.
//
// Thread-safety: one instance per module instance, used from one JS thread (as every JS object).
// Memory: C objects are freed by free() or, failing that, by a FinalizationRegistry.
const EXPORTS = require('./wasm_exports.gen');
const { MAX_TEXT, SENTENCE_MAX, STATE_SIZE, FIELD_SEP } = require('./comun.gen');

const DT_OK = 0;
const DT_ERR_NULL = 1;
const DT_ERR_INVALID_ARG = 2;
const DT_ERR_BUFFER_TOO_SMALL = 3;
const KIND_RECORD = 2;
const KIND_VALIDAR = 3;
const ARG_DEFAULT = -(1n << 63n);

// The module imports three WASI functions (stdio's close, seek, write, linked in by snprintf); the
// library's exported calls never write to a file, so each answers "bad file descriptor".
const EBADF = 8;
const WASI = { wasi_snapshot_preview1: { fd_close: () => EBADF, fd_seek: () => EBADF, fd_write: () => EBADF } };

/** The import object a datoteca.wasm instance needs (for WebAssembly.instantiate(bytes, imports)). */
const imports = () => WASI;

/**
 * An addon-shaped object over an instantiated datoteca.wasm (WebAssembly.Instance). Refuses a module
 * that lacks an export of the generated list (wasm_exports.gen.js).
 */
function crearAddon(instance) {
  const x = instance.exports;
  const missing = EXPORTS.filter((n) => typeof x[n] !== 'function');
  if (missing.length) throw new Error(`datoteca: this datoteca.wasm lacks ${missing.join(', ')}: it is not the build for this loader`);
  if (typeof x._initialize === 'function') x._initialize();
  const memory = x.memory;
  const table = x.__indirect_function_table;
  const utf8 = new TextDecoder('utf-8');
  const utf8Enc = new TextEncoder();
  let buf = null;
  let u8;
  let dv;
  // Views over linear memory, rebuilt when it grows (growing detaches the old ArrayBuffer).
  const mem = () => {
    if (buf !== memory.buffer) {
      buf = memory.buffer;
      u8 = new Uint8Array(buf);
      dv = new DataView(buf);
    }
  };
  mem();
  const malloc = (n) => {
    const p = x.malloc(n > 0 ? n : 1);
    if (p === 0) throw onError(4, 'datoteca: out of WebAssembly memory');
    mem();
    return p;
  };
  const free = (p) => { if (p) x.free(p); };

  // Text in and out: UTF-8 bytes in linear memory.
  const texto = (p, n) => { mem(); return utf8.decode(u8.subarray(p, p + n)); };
  const cstr = (p) => {
    if (p === 0) return null;
    mem();
    let e = p;
    while (u8[e] !== 0) e++;
    return utf8.decode(u8.subarray(p, e));
  };
  /** A JS string as NUL-ended UTF-8 in a new block: [pointer, bytes without the NUL]. */
  const enc = (s) => {
    const cap = s.length * 3 + 1;
    const p = malloc(cap);
    const { written } = utf8Enc.encodeInto(s, u8.subarray(p, p + cap - 1));
    u8[p + written] = 0;
    return [p, written];
  };
  // Every read goes through mem(): a call into C may have grown memory since the last one.
  const byte = (p) => { mem(); return u8[p]; };
  const u32 = (p) => { mem(); return dv.getUint32(p, true); };
  const i32 = (p) => { mem(); return dv.getInt32(p, true); };
  const i64 = (p) => { mem(); return dv.getBigInt64(p, true); };
  const u64 = (p) => { mem(); return dv.getBigUint64(p, true); };

  // Blocks kept for the whole instance: a scratch for values and rows (grown on demand), a sentence
  // buffer, a few out-parameters, the arguments of one call.
  let scratch = 0;
  let scratchCap = 0;
  const reserve = (n) => {
    if (n > scratchCap) {
      free(scratch);
      scratch = 0;
      scratch = malloc(n);
      scratchCap = n;
    }
    return scratch;
  };
  const why = malloc(SENTENCE_MAX);
  const outs = malloc(64); // out-parameters: lengths, pointers, values
  const argsP = malloc(8 * 16);

  let onError = (status, sentence) => new Error(sentence);
  const fail = (st, sentence) => { throw onError(st, sentence); };
  const failStatus = (st, what) => fail(st, `${what}: ${cstr(x.dt_status_str(st))}`);

  /** index.js's argument array (integers or null) into the args block: [pointer, count]. */
  const args = (a) => {
    if (!Array.isArray(a) || a.length === 0) return [0, 0];
    mem();
    for (let i = 0; i < a.length; i++) dv.setBigInt64(argsP + 8 * i, typeof a[i] === 'number' ? BigInt(a[i]) : ARG_DEFAULT, true);
    return [argsP, a.length];
  };
  const callFail = (st, index, p) => {
    if (st === DT_ERR_INVALID_ARG) fail(st, cstr(p));
    const info = x.dt_call_at(index);
    failStatus(st, info ? cstr(u32(info)) : 'call');
  };

  // Values of rows of nc fields regrouped as one string per column, values joined by '\n' (addon.cc's Columnar).
  function columnar(text, nc) {
    const cols = Array.from({ length: nc }, () => []);
    const rows = text.split('\n');
    rows.pop();
    for (const r of rows) {
      const f = r.split(FIELD_SEP);
      for (let j = 0; j < nc; j++) cols[j].push(f[j]);
    }
    return cols.map((c) => c.join('\n'));
  }

  const finalizer = new FinalizationRegistry(({ fn, p }) => { if (p.v) fn(p.v); });
  const own = (obj, fn, ptr) => {
    const p = { v: ptr };
    finalizer.register(obj, { fn, p }, p);
    return p;
  };

  class Gen {
    #p;
    constructor(seed) {
      if (seed && seed.externo !== undefined) {
        this.#p = own(this, x.dt_free, seed.externo);
        return;
      }
      let st;
      if (typeof seed === 'string') {
        const [s, n] = enc(seed);
        st = x.dt_new_str(s, n, outs);
        free(s);
      } else if (typeof seed === 'bigint') {
        st = x.dt_new(BigInt.asUintN(64, seed), outs);
      } else {
        throw new TypeError('Gen: seed must be a bigint or a string');
      }
      if (st !== DT_OK) failStatus(st, 'Datoteca');
      this.#p = own(this, x.dt_free, u32(outs));
    }

    #g() {
      if (!this.#p.v) fail(DT_ERR_NULL, 'datoteca: this Datoteca was freed');
      return this.#p.v;
    }

    call(index, a) {
      const g = this.#g();
      const [ap, na] = args(a);
      const b = reserve(MAX_TEXT);
      const st = x.dt_call(g, index, ap, na, b, MAX_TEXT, outs);
      if (st !== DT_OK) callFail(st, index, b);
      return texto(b, u32(outs));
    }

    many(index, a, n, modo = 0) {
      const g = this.#g();
      const [ap, na] = args(a);
      const cap = n * MAX_TEXT + 1;
      const b = reserve(cap);
      const st = x.dt_call_many(g, index, ap, na, n, b, cap, outs);
      if (st !== DT_OK) callFail(st, index, b);
      const len = u32(outs);
      if (modo === 2) {
        const info = x.dt_call_at(index);
        return columnar(texto(b, len), i32(info + 4) === KIND_RECORD ? u32(info + 16) : 1);
      }
      return texto(b, len);
    }

    nextU32() {
      const st = x.dt_next_u32(this.#g(), outs);
      if (st !== DT_OK) failStatus(st, 'nextU32');
      return u32(outs);
    }

    range(lo, hi) {
      const st = x.dt_range(this.#g(), lo, hi, outs);
      if (st !== DT_OK) failStatus(st, 'range');
      return i64(outs);
    }

    saveState() {
      const b = reserve(STATE_SIZE);
      const st = x.dt_state_save(this.#g(), b, STATE_SIZE, 0);
      if (st !== DT_OK) failStatus(st, 'saveState');
      mem();
      return u8.slice(b, b + STATE_SIZE);
    }

    restoreState(state) {
      const g = this.#g();
      const b = reserve(state.byteLength);
      mem();
      u8.set(new Uint8Array(state.buffer, state.byteOffset, state.byteLength), b);
      const st = x.dt_state_restore(g, b, state.byteLength);
      if (st !== DT_OK) failStatus(st, 'state');
    }

    derive(label) {
      const g = this.#g();
      const [s, n] = enc(label);
      const st = x.dt_derive(g, s, n, outs);
      free(s);
      if (st !== DT_OK) failStatus(st, 'derive');
      return new Gen({ externo: u32(outs) });
    }

    free() {
      if (this.#p.v) x.dt_free(this.#p.v);
      this.#p.v = 0;
      finalizer.unregister(this.#p);
    }

    setHoy(y, m, d) {
      return x.dt_set_hoy(this.#g(), y, m, d) === DT_OK;
    }

    getHoy() {
      const st = x.dt_get_hoy(this.#g(), outs, outs + 4, outs + 8);
      if (st !== DT_OK) failStatus(st, 'hoy');
      return [i32(outs), i32(outs + 4), i32(outs + 8)];
    }
  }

  // A copy of `bytes` bytes of linear memory into JS memory (the batch is released afterwards).
  const copia = (p, bytes) => { mem(); return u8.slice(p, p + bytes).buffer; };

  // The buffers of one Arrow record batch at `lote` (struct ArrowArray), as addon.cc's Arrow gives them;
  // tipo(j) is the SQL type of column j. Releases the batch.
  function arrowColumnas(lote, n, tipo) {
    const nc = Number(i64(lote + 32));
    const children = u32(lote + 44);
    const out = [];
    for (let j = 0; j < nc; j++) {
      const c = u32(children + 4 * j);
      const bufs = u32(c + 40);
      const o = { nulos: Number(i64(c + 8)) };
      const validez = u32(bufs);
      o.validez = validez ? new Uint8Array(copia(validez, (n + 7) >> 3)) : null;
      if (Number(i64(c + 24)) === 3) {
        const offs = u32(bufs + 4);
        const bytes = i32(offs + 4 * n);
        o.offsets = new Int32Array(copia(offs, (n + 1) * 4));
        o.datos = new Uint8Array(copia(u32(bufs + 8), bytes));
      } else if (tipo(j) === 'date') {
        o.valores = new Int32Array(copia(u32(bufs + 4), n * 4));
      } else {
        o.valores = new BigInt64Array(copia(u32(bufs + 4), n * 8));
      }
      out.push(o);
    }
    table.get(u32(lote + 52))(lote);
    return out;
  }

  class Tabla {
    #p;
    #tipos;
    constructor(index, a, seed, hoy, campos, unico, nulos, sucio) {
      const blocks = [];
      const keep = (s) => { if (s === null || s === undefined) return 0; const [p, n] = enc(s); blocks.push(p); return [p, n]; };
      const o = malloc(64);
      blocks.push(o);
      try {
        mem();
        u8.fill(0, o, o + 64);
        const [ap, na] = args(a);
        let argsCopy = 0;
        if (na) { argsCopy = malloc(8 * na); blocks.push(argsCopy); mem(); u8.copyWithin(argsCopy, ap, ap + 8 * na); }
        dv.setUint32(o, 64, true);
        dv.setUint32(o + 4, index, true);
        dv.setUint32(o + 8, argsCopy, true);
        dv.setUint32(o + 12, na, true);
        if (typeof seed === 'string') {
          const [p, n] = keep(seed);
          mem();
          dv.setUint32(o + 24, p, true);
          dv.setUint32(o + 28, n, true);
        } else {
          dv.setBigUint64(o + 16, seed, true);
        }
        if (Array.isArray(hoy)) { dv.setInt32(o + 32, hoy[0], true); dv.setInt32(o + 36, hoy[1], true); dv.setInt32(o + 40, hoy[2], true); }
        [campos, unico, nulos, sucio].forEach((s, k) => {
          if (typeof s !== 'string') return;
          const [p] = keep(s);
          mem();
          dv.setUint32(o + 44 + 4 * k, p, true);
        });
        mem();
        u8[why] = 0;
        const st = x.dt_tabla_new(o, outs, why, SENTENCE_MAX);
        if (st !== DT_OK) fail(st, byte(why) ? cstr(why) : `Tabla: ${cstr(x.dt_status_str(st))}`);
        this.#p = own(this, x.dt_tabla_free, u32(outs));
      } finally {
        blocks.forEach(free);
      }
    }

    columnas() {
      const t = this.#p.v;
      const n = x.dt_tabla_columnas(t);
      const out = [];
      for (let j = 0; j < n; j++) {
        x.dt_tabla_columna(t, j, outs);
        out.push({ nombre: cstr(u32(outs)), tipoSql: cstr(u32(outs + 4)), nulable: i32(outs + 8) !== 0, unico: i32(outs + 12) !== 0, nulosPorMil: u32(outs + 16) });
      }
      this.#tipos = out.map((c) => c.tipoSql);
      return out;
    }

    capacidad() {
      return Number(BigInt.asUintN(64, x.dt_tabla_capacidad(this.#p.v))); // a u64 arrives as a signed i64
    }

    filas(desde, n, columnas) {
      const cap = n * MAX_TEXT + 1;
      const b = reserve(cap);
      const st = x.dt_tabla_filas(this.#p.v, BigInt(desde), n, b, cap, outs);
      if (st !== DT_OK) failStatus(st, 'tabla rows');
      const t = texto(b, u32(outs));
      return columnas ? columnar(t, x.dt_tabla_columnas(this.#p.v)) : t;
    }

    arrow(desde, n, hilos) {
      const lote = reserve(64);
      const st = x.dt_tabla_arrow_lote(this.#p.v, BigInt(desde), n, hilos, lote);
      if (st !== DT_OK) failStatus(st, 'tabla arrow');
      if (!this.#tipos) this.columnas();
      // the batch lives in the scratch block: copy its header out before anything else reserves it
      const copy = malloc(64);
      mem();
      u8.copyWithin(copy, lote, lote + 64);
      try {
        return arrowColumnas(copy, n, (j) => this.#tipos[j]);
      } finally {
        free(copy);
      }
    }

    ddl(dialecto, nombre) {
      const [s] = enc(nombre);
      const cap = 8192;
      const b = malloc(cap);
      try {
        const st = x.dt_tabla_ddl(this.#p.v, dialecto, s, b, cap, 0);
        if (st === DT_ERR_INVALID_ARG) fail(st, cstr(b));
        if (st !== DT_OK) failStatus(st, 'ddl');
        return cstr(b);
      } finally {
        free(s);
        free(b);
      }
    }
  }

  class Esquema {
    #p;
    constructor(doc, formato, archivo, seed, hoy) {
      const [t, n] = enc(doc);
      const [a] = enc(archivo);
      try {
        const h = Array.isArray(hoy) ? hoy : [0, 0, 0];
        mem();
        u8[why] = 0;
        const st = x.dt_esquema_new(t, n, formato, a, seed, h[0], h[1], h[2], outs, why, SENTENCE_MAX);
        if (st !== DT_OK) fail(st, byte(why) ? cstr(why) : `Esquema: ${cstr(x.dt_status_str(st))}`);
        this.#p = own(this, x.dt_esquema_free, u32(outs));
      } finally {
        free(t);
        free(a);
      }
    }

    #e() {
      if (!this.#p.v) fail(DT_ERR_NULL, 'datoteca: this Esquema was freed');
      return this.#p.v;
    }

    tablas() {
      const e = this.#e();
      return Array.from({ length: x.dt_esquema_tablas(e) }, (_, i) => cstr(x.dt_esquema_tabla(e, i)));
    }

    orden() {
      const e = this.#e();
      return Array.from({ length: x.dt_esquema_tablas(e) }, (_, k) => x.dt_esquema_orden(e, k));
    }

    columnas(t) {
      const e = this.#e();
      const out = [];
      for (let j = 0; j < x.dt_esquema_columnas(e, t); j++) {
        const st = x.dt_esquema_columna(e, t, j, outs);
        if (st !== DT_OK) failStatus(st, 'columnas');
        const ref = u32(outs + 20);
        out.push({
          nombre: cstr(u32(outs)), tipoSql: cstr(u32(outs + 4)), nulable: i32(outs + 8) !== 0, unico: i32(outs + 12) !== 0,
          clavePrimaria: i32(outs + 16) !== 0, ref: ref ? `${cstr(ref)}.${cstr(u32(outs + 24))}` : null,
        });
      }
      return out;
    }

    total(t) {
      return BigInt.asUintN(64, x.dt_esquema_tabla_filas(this.#e(), t));
    }

    filas(t, desde, n, nombre) {
      const e = this.#e();
      const que = `${nombre} rows`;
      let st = x.dt_esquema_filas(e, t, BigInt(desde), n, 0, 0, outs);
      if (st !== DT_OK && st !== DT_ERR_BUFFER_TOO_SMALL) failStatus(st, que);
      const cap = Math.max(u32(outs), 1);
      const b = reserve(cap);
      st = x.dt_esquema_filas(e, t, BigInt(desde), n, b, cap, outs);
      mem();
      if (st === DT_ERR_INVALID_ARG && u8[b] !== 0) fail(st, cstr(b));
      if (st !== DT_OK) failStatus(st, que);
      return texto(b, u32(outs));
    }

    ddl(d) {
      const e = this.#e();
      x.dt_esquema_ddl(e, d, 0, 0, outs);
      const cap = u32(outs) + 1;
      const b = reserve(cap);
      const st = x.dt_esquema_ddl(e, d, b, cap, outs);
      if (st === DT_ERR_INVALID_ARG) fail(st, cstr(b));
      if (st !== DT_OK) failStatus(st, 'ddl');
      return texto(b, u32(outs));
    }

    free() {
      if (this.#p.v) x.dt_esquema_free(this.#p.v);
      this.#p.v = 0;
      finalizer.unregister(this.#p);
    }
  }

  class Enmascarador {
    constructor() {
      throw new Error('datoteca: masking (Enmascarador) is not in the WebAssembly build yet; use the native addon (DATOTECA_BACKEND=native)');
    }
  }

  // A call's or a utility's description, as addon.cc's Describe.
  function describe(c, i, llamada) {
    const nparams = u32(c + 8);
    const params = [];
    for (let j = 0; j < nparams; j++) {
      const p = u32(c + 12) + 40 * j;
      const po = { name: cstr(u32(p)), def: Number(i64(p + 8)), min: Number(i64(p + 16)), max: Number(i64(p + 24)) };
      const ch = u32(p + 32);
      if (ch) po.choices = Array.from({ length: po.max - po.min + 1 }, (_, k) => cstr(u32(ch + 4 * k)));
      params.push(po);
    }
    const nf = u32(c + 16);
    const fields = [];
    const nullable = [];
    for (let j = 0; j < nf; j++) {
      fields.push(cstr(u32(u32(c + 20) + 4 * j)));
      nullable.push(llamada && x.dt_call_field_nullable(i, j) !== 0);
    }
    return { name: cstr(u32(c)), kind: i32(c + 4), params, fields, nullable };
  }

  function util(index, t, a) {
    let s = 0;
    let n = 0;
    if (typeof t === 'string') [s, n] = enc(t);
    try {
      const [ap, na] = args(a);
      const b = reserve(SENTENCE_MAX);
      const st = x.dt_util(index, s, n, ap, na, b, SENTENCE_MAX, outs);
      const u = x.dt_util_at(index);
      if (u && i32(u + 4) === KIND_VALIDAR && st !== DT_ERR_NULL) return st === DT_OK;
      if (st !== DT_OK) fail(st, cstr(b));
      return texto(b, u32(outs));
    } finally {
      free(s);
    }
  }

  function paramChoice(utilidad, index, param, name) {
    const c = utilidad ? x.dt_util_at(index) : x.dt_call_at(index);
    const [s, n] = enc(name);
    try {
      const st = x.dt_param_choice(c, param, s, n, outs, why, SENTENCE_MAX, 0);
      if (st !== DT_OK) fail(st, cstr(why));
      return Number(i64(outs));
    } finally {
      free(s);
    }
  }

  function callCheck(index, a) {
    const [ap, na] = args(a);
    mem();
    u8[why] = 0;
    x.dt_call_check(index, ap, na, why, SENTENCE_MAX, 0);
    return cstr(why);
  }

  function tables() {
    const out = [];
    const r = malloc(16);
    try {
      for (let i = 0; i < x.dt_referencia_count(); i++) {
        if (x.dt_referencia_at(i, r) !== DT_OK) throw new Error('datoteca: dt_referencia_at failed for a listed table');
        out.push({ name: cstr(u32(r)), rows: u32(r + 4), digest: u64(r + 8).toString(16).padStart(16, '0') });
      }
    } finally {
      free(r);
    }
    return out;
  }

  return {
    Gen,
    Tabla,
    Esquema,
    Enmascarador,
    callInfo: () => Array.from({ length: x.dt_call_count() }, (_, i) => describe(x.dt_call_at(i), i, true)),
    utilInfo: () => Array.from({ length: x.dt_util_count() }, (_, i) => describe(x.dt_util_at(i), i, false)),
    util,
    paramChoice,
    callCheck,
    tables,
    cliMain: () => { throw new Error('datoteca: the command line is not in the WebAssembly build; install a native build (npm rebuild datoteca --build-from-source)'); },
    setErrors: (fn) => { onError = fn; },
    version: cstr(x.dt_version()),
    versionNumber: x.dt_version_number() >>> 0,
    dataVersion: x.dt_data_version() >>> 0,
  };
}

module.exports = { crearAddon, imports };
