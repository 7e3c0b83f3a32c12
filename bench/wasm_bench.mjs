// The WebAssembly build against the native addon and @faker-js/faker (fakerES, seeded), in one run:
// a persona record per call, persona records in bulk (many), and dataset rows (Tabla.filas). Each
// build runs in its own child process (a process loads one build), interleaved, medians of several
// repetitions. Prints a Markdown table of µs per value.
//   make bench-wasm             (installs @faker-js/faker without saving it; builds the addon and the .wasm)
// Not a test: nothing asserts a time.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const QUICK = process.argv.includes('--quick');
const N = QUICK ? 5000 : 20000;
const REPS = QUICK ? 3 : 7;
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const us = (t0, n) => Number(process.hrtime.bigint() - t0) / n / 1000;

if (process.argv.includes('--medir')) {
  const { Datoteca, Tabla, backend } = await import('../bindings/node/index.mjs');
  const d = new Datoteca({ seed: 42 });
  const t = new Tabla('persona.persona', { seed: 42 });
  for (let i = 0; i < 2000; i++) d.persona.persona(); // warm up
  let t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) d.persona.persona();
  const record = us(t0, N);
  t0 = process.hrtime.bigint();
  d.many('persona.persona', N);
  const bulk = us(t0, N);
  t0 = process.hrtime.bigint();
  t.filas(N);
  const filas = us(t0, N);
  console.log(JSON.stringify({ backend: backend(), record, bulk, filas }));
  process.exit(0);
}

// FAKER_DESDE: a directory whose node_modules holds @faker-js/faker, when this project's does not
const desde = process.env.FAKER_DESDE;
const { fakerES: faker } = await import(desde ? pathToFileURL(createRequire(path.join(desde, 'x.js')).resolve('@faker-js/faker')).href : '@faker-js/faker');
faker.seed(42);
const fakerPerson = () => ({
  name: faker.person.fullName(), address: faker.location.streetAddress(), phone: faker.phone.number(), email: faker.internet.email(),
});
const self = fileURLToPath(import.meta.url);
const res = { native: [], wasm: [], faker: [] };
for (let r = 0; r < REPS; r++) {
  for (const b of ['native', 'wasm']) {
    const p = spawnSync(process.execPath, [self, '--medir', ...(QUICK ? ['--quick'] : [])], { env: { ...process.env, DATOTECA_BACKEND: b }, encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`the ${b} build failed: ${p.stderr}`);
    const m = JSON.parse(p.stdout);
    if (m.backend !== b) throw new Error(`asked for ${b}, ran ${m.backend}`);
    res[b].push(m);
  }
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N / 4; i++) fakerPerson();
  res.faker.push(us(t0, N / 4));
}
const med = (b, k) => median(res[b].map((m) => m[k]));
const f = (x) => x.toFixed(2);
const fk = median(res.faker);
console.log(`node ${process.version}, ${N} values per measure, median of ${REPS}`);
console.log('| µs per value | native addon | WASM | faker-js | WASM / native | faker-js / WASM |');
console.log('|---|---:|---:|---:|---:|---:|');
console.log(`| persona record, one call each (faker: 4 fields) | ${f(med('native', 'record'))} | ${f(med('wasm', 'record'))} | ${f(fk)} | ${f(med('wasm', 'record') / med('native', 'record'))}× | ${f(fk / med('wasm', 'record'))}× |`);
console.log(`| persona record, bulk (many) | ${f(med('native', 'bulk'))} | ${f(med('wasm', 'bulk'))} | | ${f(med('wasm', 'bulk') / med('native', 'bulk'))}× | |`);
console.log(`| persona dataset rows (Tabla.filas) | ${f(med('native', 'filas'))} | ${f(med('wasm', 'filas'))} | | ${f(med('wasm', 'filas') / med('native', 'filas'))}× | |`);
