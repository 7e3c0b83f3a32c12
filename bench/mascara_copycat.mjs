// @snaplet/copycat's equivalent of a datoteca masking row, for bench/mascara_bench.py (not alone):
// per row, keyed by the row's RUT as datoteca keys a persona by its entity, scramble(rut) keeping
// '.' and '-', firstName, lastName twice, email, phoneNumber, streetAddress: 7 values, as the CLI
// bench's rut + 6 persona columns. Values from the JSON Lines file the CLI bench masks (its first
// rows), read before the clock starts. Prints one JSON line: medians of REPS runs, ns per value.
//   node bench/mascara_copycat.mjs PEERS_DIR FILE.jsonl ROWS
// PEERS_DIR holds node_modules/@snaplet/copycat (make bench-mascara installs 6.0.0 there).
// Not a test: nothing asserts a time.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [dir, file, rowsArg] = process.argv.slice(2);
const { copycat } = createRequire(resolve(dir, 'noop.js'))('@snaplet/copycat');
const pkg = JSON.parse(readFileSync(resolve(dir, 'node_modules/@snaplet/copycat/package.json'), 'utf8'));
const REPS = 5;
const rows = readFileSync(file, 'utf8').split('\n', Number(rowsArg)).filter((l) => l).map((l) => JSON.parse(l));
const ruts = rows.map((r) => r.rut);
copycat.setHashKey(copycat.generateHashKey('datoteca bench key, not secret'));
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
let sink = 0;
function time(fn) {
  const r = [];
  for (let k = 0; k < REPS; k++) {
    const t0 = process.hrtime.bigint();
    fn();
    r.push(Number(process.hrtime.bigint() - t0));
  }
  return median(r);
}
const keep = { preserve: ['.', '-'] };
const rowNs = time(() => {
  for (const rut of ruts) {
    const out = [copycat.scramble(rut, keep), copycat.firstName(rut), copycat.lastName(rut), copycat.lastName([rut, 'materno']),
      copycat.email(rut), copycat.phoneNumber(rut), copycat.streetAddress(rut)];
    sink += out[6].length;
  }
}) / ruts.length;
// each call alone, ns per value
const calls = {
  scramble: (rut) => copycat.scramble(rut, keep), firstName: (rut) => copycat.firstName(rut),
  lastName: (rut) => copycat.lastName(rut), email: (rut) => copycat.email(rut),
  phoneNumber: (rut) => copycat.phoneNumber(rut), streetAddress: (rut) => copycat.streetAddress(rut),
};
const per_call = {};
for (const [name, fn] of Object.entries(calls)) {
  per_call[name] = time(() => {
    for (const rut of ruts) sink += fn(rut).length;
  }) / ruts.length;
}
console.log(JSON.stringify({ version: pkg.version, node: process.version, rows: ruts.length, ns_per_row: rowNs,
  ns_per_value: rowNs / 7, per_call, sink: sink > 0 }));
