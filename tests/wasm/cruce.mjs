// The WASM build against the native addon, each in its own process: for every call, its first 2,000
// values (seed 42, default options) by many() and 50 by single calls, the utilities' answers, and
// one Arrow batch of persona.persona must be the same; backend() must say which build ran. Names the
// call and the first value that differs.
//   node tests/wasm/cruce.mjs      (the native addon built: make node; the .wasm: make wasm)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

if (process.argv[2] === '--volcar') {
  const m = await import('../../bindings/node/index.mjs');
  const out = { backend: m.backend(), calls: {}, utils: {}, arrow: {} };
  for (const c of m.calls()) {
    const d = new m.Datoteca({ seed: 42 });
    const bulk = d.many(c, 2000);
    const e = new m.Datoteca({ seed: 42 });
    const single = Array.from({ length: 50 }, () => e.call(c));
    out.calls[c] = { bulk, single, state: Buffer.from(d.saveState()).toString('hex') };
  }
  out.utils = {
    validar: ['12.345.678-5', '12.345.678-4', 'x'].map((s) => m.validarRut(s)),
    formatear: m.formatearRut('123456785'),
    clp: m.formatearClp(1234567),
  };
  const lote = new m.Tabla('persona.persona', { seed: 42, nulos: { email: 100 } }).arrow(3000, 17);
  for (const [k, col] of Object.entries(lote)) {
    const h = createHash('sha256');
    for (let i = 0; i < col.length; i++) h.update(`${col.at(i)}\n`);
    out.arrow[k] = h.digest('hex');
  }
  await new Promise((done) => process.stdout.write(JSON.stringify(out), done)); // all of it through the pipe
  process.exit(0);
}

const self = fileURLToPath(import.meta.url);
const volcar = (b) => {
  const r = spawnSync(process.execPath, [self, '--volcar'], { env: { ...process.env, DATOTECA_BACKEND: b }, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`the ${b} build: ${r.stderr}`);
  return JSON.parse(r.stdout);
};
const [n, w] = [volcar('native'), volcar('wasm')];
const fallos = [];
if (n.backend !== 'native' || w.backend !== 'wasm') fallos.push(`backend() said ${n.backend} and ${w.backend}, expected native and wasm`);
for (const [c, a] of Object.entries(n.calls)) {
  const b = w.calls[c];
  if (!b) { fallos.push(`${c}: missing from the WASM build`); continue; }
  for (const k of ['bulk', 'single']) {
    const i = a[k].findIndex((v, j) => JSON.stringify(v) !== JSON.stringify(b[k][j]));
    if (i >= 0) fallos.push(`${c} (seed 42, ${k}) value ${i}: native ${JSON.stringify(a[k][i])}, wasm ${JSON.stringify(b[k][i])}`);
  }
  if (a.state !== b.state) fallos.push(`${c}: the stream after 2,000 values differs (native ${a.state}, wasm ${b.state})`);
}
if (JSON.stringify(n.utils) !== JSON.stringify(w.utils)) fallos.push(`utilities: native ${JSON.stringify(n.utils)}, wasm ${JSON.stringify(w.utils)}`);
for (const [k, h] of Object.entries(n.arrow)) if (w.arrow[k] !== h) fallos.push(`Arrow persona.persona rows 17..3016, column ${k}: the values differ`);
fallos.forEach((f) => console.log(f));
const nc = Object.keys(n.calls).length;
console.log(fallos.length ? `cruce: FAILED (${fallos.length})` : `cruce: native and wasm agree: ${nc} calls x (2,000 bulk + 50 single) values and their stream, utilities, an Arrow batch of ${Object.keys(n.arrow).length} columns`);
process.exitCode = fallos.length ? 1 : 0;
