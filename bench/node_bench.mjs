// datoteca vs @faker-js/faker (fakerES, seeded), measured in the same run, interleaved,
// medians of several repetitions. Prints a Markdown table: µs per value and faker / datoteca.
//   make bench-node            (installs @faker-js/faker without saving it)
// Not a test: nothing asserts a time.
import { fakerES as faker } from '@faker-js/faker';
import { Datoteca, version, dataVersion } from '../bindings/node/index.mjs';

const QUICK = process.argv.includes('--quick');
const REPS = QUICK ? 5 : 9;
const d = new Datoteca({ seed: 42 });
faker.seed(42);

function perCall(fn, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}
function perValue(fn, n) {
  const t0 = process.hrtime.bigint();
  fn(n);
  return Number(process.hrtime.bigint() - t0) / n / 1000;
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const fakerPerson = () => ({
  name: faker.person.fullName(), address: faker.location.streetAddress(), phone: faker.phone.number(), email: faker.internet.email(),
});
const rows = [
  ['rut (faker-js has none)', () => d.rut(), null],
  ['nombre completo / person.fullName', () => d.persona.nombreCompleto(), () => faker.person.fullName()],
  ['dirección record / location.streetAddress', () => d.direccion.direccion(), () => faker.location.streetAddress()],
  ['teléfono / phone.number', () => d.telefono.movil(), () => faker.phone.number()],
  ['email / internet.email', () => d.persona.email(), () => faker.internet.email()],
  ['empresa / company.name', () => d.empresa.razonSocial(), () => faker.company.name()],
  ['persona record (14 fields; faker: 4)', () => d.persona.persona(), fakerPerson],
];
const bulk = [
  ['rut, bulk', (n) => d.many('rut', n), 'rut (faker-js has none)'],
  ['nombre completo, bulk', (n) => d.many('persona.nombre_completo', n), 'nombre completo / person.fullName'],
  ['persona record, bulk', (n) => d.many('persona.persona', n), 'persona record (14 fields; faker: 4)'],
];
const res = Object.fromEntries(rows.map(([l]) => [l, [[], []]]));
const bres = Object.fromEntries(bulk.map(([l]) => [l, []]));
const N = QUICK ? 20000 : 100000;
for (let r = 0; r < REPS; r++) {
  for (const [label, dfn, ffn] of rows) {
    res[label][0].push(perCall(dfn, N));
    if (ffn) res[label][1].push(perCall(ffn, N / 10));
  }
  for (const [label, fn] of bulk) bres[label].push(perValue(fn, N));
}
console.log(`datoteca ${version()} (data ${dataVersion()}) vs @faker-js/faker fakerES; Node ${process.version}; medians of ${REPS} interleaved runs\n`);
console.log('| call | datoteca µs | faker-js µs | faker-js / datoteca |\n|---|---|---|---|');
const single = {};
for (const [label, [ds, fs]] of Object.entries(res)) {
  const dm = median(ds);
  const fm = fs.length ? median(fs) : null;
  single[label] = fm;
  console.log(`| ${label} | ${dm.toFixed(3)} | ${fm === null ? '—' : fm.toFixed(2)} | ${fm === null ? '—' : `${(fm / dm).toFixed(1)}×`} |`);
}
for (const [label, , ref] of bulk) {
  const bm = median(bres[label]);
  const fm = single[ref];
  console.log(`| ${label} (per value) | ${bm.toFixed(3)} | ${fm === null ? '—' : fm.toFixed(2)} | ${fm === null ? '—' : `${(fm / bm).toFixed(1)}×`} |`);
}

// Records, bulk and columns for persona.persona, like with like: every path keeps what it made
// (a caller who asks for n records keeps them), µs per record, median of REPS.
{
  const { Tabla } = await import('../bindings/node/index.mjs');
  const NR = QUICK ? 20000 : 200000;
  const t = new Tabla('persona.persona', { seed: 42 });
  const caminos = [
    ['`d.persona.persona()` one at a time, kept in an array', () => { const a = []; for (let i = 0; i < NR; i++) a.push(d.persona.persona()); return a; }],
    ["`d.many('persona.persona', n)`", () => d.many('persona.persona', NR)],
    ["`d.columnar('persona.persona', n)` (string[] per field)", () => d.columnar('persona.persona', NR)],
    ["`new Tabla('persona.persona').columnar(n)` (string[] per field)", () => t.columnar(NR)],
    ["`new Tabla('persona.persona').arrow(n)` (Arrow buffers, 2 threads)", () => t.arrow(NR)],
    ["`new Tabla('persona.persona').arrow(n, 0, { hilos: 1 })`", () => t.arrow(NR, 0, { hilos: 1 })],
    ['`arrow(n)` then every value read (`toArray()` on each column)', () => Object.values(t.arrow(NR)).map((c) => c.toArray())],
  ];
  const medidas = caminos.map(() => []);
  for (let r = 0; r < REPS; r++) {
    caminos.forEach(([, f], k) => {
      const t0 = process.hrtime.bigint();
      globalThis.guardado = f();
      medidas[k].push(Number(process.hrtime.bigint() - t0) / NR / 1000);
      globalThis.guardado = null;
    });
  }
  console.log(`\n${NR.toLocaleString('en')} persona.persona records, kept; medians of ${REPS} interleaved runs\n`);
  console.log('| path | µs per record |\n|---|---|');
  caminos.forEach(([label], k) => console.log(`| ${label} | ${median(medidas[k]).toFixed(2)} |`));
}
