// The data contract in Node: replay fixtures/golden-sequence.json, digest the tables, the first
// values of every call and slices of every dataset and shipped schema, and compare all of it with fixtures/golden.json and fixtures/fingerprint.json.
// Forms and messages are the same in C and Python (docs/determinism.md).
//   node golden_runner.mjs --check   the staged check (what the mutation suite runs)
//   node golden_runner.mjs OUT       write this binding's canonical golden run to OUT
// Nothing here writes a fixture: tools/regen_fixtures.py is the only writer, run by hand.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Datoteca, Esquema, Tabla, dataVersion, tables } from '../../bindings/node/index.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = path.join(ROOT, 'fixtures');
export const SEQUENCE = path.join(FIXTURES, 'golden-sequence.json');
export const GOLDEN = path.join(FIXTURES, 'golden.json');
export const FINGERPRINT = path.join(FIXTURES, 'fingerprint.json');
export const VALUES_PER_CALL = 10000;
const PCG_MULT = 6364136223846793005n;
const MASK64 = (1n << 64n) - 1n;

export const load = (file) => JSON.parse(readFileSync(file, 'utf8'));
export const loadSequence = () => load(SEQUENCE);

// ---- stream positions, computed here from the saved state, independently of the library ----

function pcgState(saved) {
  const view = new DataView(saved.buffer, saved.byteOffset, saved.byteLength);
  return [view.getBigUint64(4, true), view.getBigUint64(12, true)];
}

/** PCG32 steps from one saved state to another: the LCG's jump-ahead, bit by bit. */
export function drawsBetween(before, after) {
  let [cur, plus] = pcgState(before);
  const [target] = pcgState(after);
  let mult = PCG_MULT;
  let distance = 0n;
  for (let bit = 1n; cur !== target; bit <<= 1n) {
    if ((cur ^ target) & bit) {
      cur = (cur * mult + plus) & MASK64;
      distance |= bit;
    }
    plus = ((mult + 1n) * plus) & MASK64;
    mult = (mult * mult) & MASK64;
  }
  return Number(distance);
}

// ---- the golden run ----

// The fixture's form: integers (a call's, or a record's integer fields) as decimal strings.
const plain = (v) => {
  if (typeof v === 'number') return String(v);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'number' ? String(x) : x]));
  return v;
};
const instance = (seed, hoy) => new Datoteca({ seed: BigInt(seed), hoy });

/** [call, value, draws] of every step for one seed; integers become decimal strings. */
export function run(seed, sequence) {
  const d = instance(seed, sequence.hoy);
  let before = d.saveState();
  return sequence.calls.map((step) => {
    const value = plain(d.call(step.call, step.args));
    const after = d.saveState();
    const draws = drawsBetween(before, after);
    before = after;
    return [step.call, value, draws];
  });
}

export function canonical(sequence, runs = sequence.seeds.map((seed) => [seed, run(seed, sequence)])) {
  const doc = {
    data_version: dataVersion(),
    hoy: sequence.hoy,
    runs: runs.map(([seed, steps]) => ({ seed, values: steps.map(([call, value, draws]) => ({ call, value, draws })) })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

// ---- the fingerprint ----

export function callDigest(call, args, seed, hoy) {
  const d = instance(seed, hoy);
  const start = d.saveState();
  const values = d.many(call, VALUES_PER_CALL, args);
  const hash = createHash('sha256');
  hash.update(values.map((v) => `${JSON.stringify(plain(v))}\n`).join(''));
  return [hash.digest('hex'), drawsBetween(start, d.saveState())];
}

// ---- the dataset digests (docs/determinism.md, "The encodings") ----

export const DATASET_CHUNK = 1000;

/** FNV-1a 64 of the bytes, continuing from [hi, lo]: two 32-bit halves, since the prime is
 * 2^40 + 0x1b3 (h * prime = h * 0x1b3 + (h << 40)) and BigInt would be 20 times slower. */
export function fnv1a64(bytes, [hi, lo] = [0xcbf29ce4, 0x84222325]) {
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    const low = lo * 0x1b3; // below 2^41: exact in a double
    hi = (Math.imul(hi, 0x1b3) + Math.floor(low / 4294967296) + (lo << 8)) >>> 0;
    lo = low >>> 0;
  }
  return [hi, lo];
}
const hex = ([hi, lo]) => hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');

/** A row as dt_tabla_filas writes it (without its newline): String() of every value, so an
 * integer column reads the same whether the binding gives a number or a string. */
export const rowText = (row) => Object.values(row).map((v) => (v === null ? '\x1e' : String(v))).join('\x1f');
/** A row for a message: fields joined by |, a null as \N. */
const showRow = (text) => text.split('\x1f').map((f) => (f === '\x1e' ? '\\N' : f)).join('|');
/** The case's label as Python writes it: json.dumps(options, separators=(',', ':')). */
export const caseLabel = (entry) => `${entry.call} ${JSON.stringify(entry.options)}`;

/** FNV-1a 64 of rows [desde, desde + n) as text, its running value every 1,000 rows, and the first
 * row. `t` is anything with filas(n, desde): a Tabla, or one table of a schema (esquemaTabla). */
function sliceDigest(t, desde, n) {
  const rows = t.filas(n, desde).map(rowText);
  let h;
  const every = [];
  for (let k = 0; k < n; k += DATASET_CHUNK) {
    h = fnv1a64(Buffer.from(rows.slice(k, k + DATASET_CHUNK).map((r) => `${r}\n`).join(''), 'utf8'), h);
    every.push(hex(h));
  }
  return { firstRow: rows[0], every };
}

/** The first difference of one slice: its first row (expected and actual text), else the first 1,000
 * rows whose running digest differs; null when they agree. Shared by the datasets and esquemas stages. */
function compareSlice(where, w, { firstRow, every }) {
  const head = `${where}, rows ${w.desde}..${w.desde + w.n - 1}`;
  if (firstRow !== w.first_row) return `${head}: row ${w.desde} differs: expected "${showRow(w.first_row)}", got "${showRow(firstRow)}"`;
  const k = every.findIndex((h, i) => h !== w.every_1000[i]);
  if (k < 0) return null;
  const lo = w.desde + k * DATASET_CHUNK;
  return `${head}: row ${w.desde} agrees; the first difference is in rows ${lo}..${Math.min(lo + DATASET_CHUNK, w.desde + w.n) - 1} (fnv1a64 up to there ${every[k]}, expected ${w.every_1000[k]})`;
}

export function checkDatasets(fp) {
  if (!fp.datasets) return ['fingerprint: fingerprint.json has no datasets section (tools/regen_fixtures.py writes it)'];
  const out = [];
  for (const entry of fp.datasets) {
    const where = `dataset: ${caseLabel(entry)}`;
    let t;
    try {
      t = new Tabla(entry.call, entry.options);
    } catch (e) {
      out.push(`${where}: refused: ${e.message}`);
      continue;
    }
    const want = entry.capacity ?? 2 ** 63;
    if (Number(t.capacidad) !== want) {
      out.push(`${where}: capacity ${t.capacidad}, expected ${want}`);
      continue;
    }
    for (const w of entry.slices) {
      const failure = compareSlice(where, w, sliceDigest(t, w.desde, w.n));
      if (failure) {
        out.push(failure);
        break; // the far slice of a case whose first slice differs adds nothing
      }
    }
  }
  return out;
}

// ---- the shipped schemas (esquemas/): each file's sha256, then each table's rows and slices ----

export const ESQUEMAS = path.join(ROOT, 'esquemas');
const esquemaTabla = (e, tabla) => ({ filas: (n, desde) => e.filas(tabla, n, desde) });

export function checkEsquemas(fp) {
  if (!fp.esquemas) return ['fingerprint: fingerprint.json has no esquemas section (tools/regen_fixtures.py writes it)'];
  const out = [];
  for (const entry of fp.esquemas) {
    const where = `esquema: ${entry.esquema} (seed ${entry.seed})`;
    const file = path.join(ESQUEMAS, entry.esquema);
    if (!existsSync(file)) {
      out.push(`${where}: esquemas/${entry.esquema} is gone`);
      continue;
    }
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    if (sha !== entry.sha256) {
      out.push(`${where}: the schema file changed (sha256 ${sha.slice(0, 16)}…, expected ${entry.sha256.slice(0, 16)}…): its rows below follow from the edited file`);
    }
    let e;
    try {
      e = new Esquema(file, { seed: entry.seed, hoy: fp.hoy });
    } catch (err) {
      out.push(`${where}: refused: ${err.message}`);
      continue;
    }
    const names = entry.tablas.map((t) => t.tabla);
    if (e.tablas.join(',') !== names.join(',')) out.push(`${where}: tables ${e.tablas.join(', ')}, expected ${names.join(', ')}`);
    for (const t of entry.tablas) {
      if (!e.tablas.includes(t.tabla)) continue;
      const at = `${where}, table ${t.tabla}`;
      if (e.total(t.tabla) !== t.filas) {
        out.push(`${at}: ${e.total(t.tabla)} rows, expected ${t.filas}`);
        continue;
      }
      for (const w of t.slices) {
        const failure = compareSlice(at, w, sliceDigest(esquemaTabla(e, t.tabla), w.desde, w.n));
        if (failure) {
          out.push(failure);
          break; // the last rows of a table whose first rows differ add nothing
        }
      }
    }
    e.free();
  }
  return out;
}

// ---- the staged check: each stage returns its failures; later stages only run on success ----

function describe(value, expected) {
  if (value && typeof value === 'object' && expected && typeof expected === 'object') {
    for (const [field, want] of Object.entries(expected)) {
      if (value[field] !== want) return `field ${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(value[field])}`;
    }
  }
  return `expected ${JSON.stringify(expected)}, got ${JSON.stringify(value)}`;
}

export function checkVersions(golden, fp) {
  const lib = dataVersion();
  if (golden.data_version === lib && fp.data_version === lib) return [];
  return [`data version: golden.json records ${golden.data_version}, fingerprint.json records ${fp.data_version}, the library is ${lib}`];
}

export function checkTables(fp) {
  const have = tables();
  const want = fp.tables;
  const out = [];
  for (let i = 0; i < Math.max(have.length, want.length); i++) {
    const h = have[i];
    const w = want[i];
    if (!h || !w || h.name !== w.table) {
      out.push(`fingerprint: table ${i + 1}: the library has ${h ? h.name : 'none'}, the fixture ${w ? w.table : 'none'}`);
    } else if (h.digest !== w.digest || h.rows !== w.rows) {
      const rows = h.rows !== w.rows ? `; ${h.rows} rows, expected ${w.rows}` : '';
      out.push(`fingerprint: table ${h.name}: digest ${h.digest}, expected ${w.digest}${rows}`);
    }
  }
  return out;
}

export function checkGolden(sequence, golden, text) {
  const seeds = golden.runs.map((r) => r.seed);
  if (JSON.stringify(seeds) !== JSON.stringify(sequence.seeds)) {
    return [`golden: the fixture's seeds ${JSON.stringify(seeds)} are not the sequence's ${JSON.stringify(sequence.seeds)}`];
  }
  const total = sequence.calls.length;
  const runs = [];
  for (const r of golden.runs) {
    const actual = run(r.seed, sequence);
    runs.push([r.seed, actual]);
    for (let i = 0; i < Math.min(actual.length, r.values.length); i++) {
      const [call, value, draws] = actual[i];
      const want = r.values[i];
      const where = `golden: seed ${r.seed}, call ${i + 1} of ${total} (${call})`;
      if (call !== want.call) return [`${where}: the fixture has ${want.call} here`];
      if (JSON.stringify(value) !== JSON.stringify(want.value)) return [`${where}: ${describe(value, want.value)}`];
      if (draws !== want.draws) return [`${where}: same value, but ${draws} draws instead of ${want.draws}`];
    }
    if (actual.length !== r.values.length) return [`golden: seed ${r.seed}: ${actual.length} calls, the fixture has ${r.values.length}`];
  }
  const mine = canonical(sequence, runs);
  if (mine !== text) {
    let k = 0;
    while (k < mine.length && k < text.length && mine[k] === text[k]) k++;
    const line = text.slice(0, k).split('\n').length;
    return [`golden: the canonical form differs from fixtures/golden.json at character ${k} (line ${line}) although every value agrees`];
  }
  return [];
}

export function checkCalls(fp) {
  if (fp.values_per_call !== VALUES_PER_CALL) return [`fingerprint: values_per_call is ${fp.values_per_call}, the runner digests ${VALUES_PER_CALL}`];
  const out = [];
  for (const entry of fp.calls) {
    for (const r of entry.runs) {
      const [sha, draws] = callDigest(entry.call, entry.args, r.seed, fp.hoy);
      const where = `fingerprint: seed ${r.seed}, ${entry.call} ${JSON.stringify(entry.args)}`;
      if (sha !== r.sha256) out.push(`${where}: the first ${VALUES_PER_CALL} values differ (sha256 ${sha.slice(0, 16)}…, expected ${r.sha256.slice(0, 16)}…)`);
      else if (draws !== r.draws) out.push(`${where}: same values, but ${draws} draws instead of ${r.draws}`);
    }
  }
  return out;
}

/** Run the stages in order and stop at the first that fails: what follows it is its consequence. */
export function check(say = console.log) {
  const sequence = loadSequence();
  const fp = load(FINGERPRINT);
  const text = readFileSync(GOLDEN, 'utf8');
  const golden = JSON.parse(text);
  const stages = [
    ['versions', () => checkVersions(golden, fp)],
    ['tables', () => checkTables(fp)],
    ['golden', () => checkGolden(sequence, golden, text)],
    ['calls', () => checkCalls(fp)],
    ['datasets', () => checkDatasets(fp)],
    ['esquemas', () => checkEsquemas(fp)],
  ];
  for (const [name, stage] of stages) {
    const failures = stage();
    failures.forEach((line) => say(line));
    if (failures.length) {
      say(`contract (node): FAILED at the ${name} stage; later stages skipped (fix this first)`);
      return 1;
    }
  }
  const digests = fp.calls.reduce((n, e) => n + e.runs.length, 0);
  say(`contract (node): ok: ${fp.tables.length} tables, ${golden.runs.length} x ${sequence.calls.length} golden values with their draws, ${digests} call digests of ${VALUES_PER_CALL} values, ${(fp.datasets ?? []).length} dataset cases, ${(fp.esquemas ?? []).reduce((n, e) => n + e.tablas.length, 0)} tables of ${(fp.esquemas ?? []).length} shipped schemas`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length === 1 && args[0] === '--check') {
    process.exitCode = check();
  } else if (args.length === 1) {
    const dir = path.dirname(path.resolve(args[0]));
    if (realpathSync(dir) === realpathSync(FIXTURES)) {
      console.error(`refusing to write ${args[0]}: the fixtures are written only by tools/regen_fixtures.py`);
      process.exitCode = 2;
    } else {
      writeFileSync(args[0], canonical(loadSequence()));
    }
  } else {
    console.error('usage: node golden_runner.mjs --check | OUT');
    process.exitCode = 2;
  }
}
