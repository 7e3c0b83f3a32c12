// The data contract in Node: table digests, the golden dataset (value by value with the stream
// position after each call, then byte for byte), the digests of the first 10,000 values of every
// call and those of every dataset case. The stages live in golden_runner.mjs; nothing here writes a fixture.
import { expect, test } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  checkCalls, checkDatasets, checkEsquemas, checkGolden, checkTables, checkVersions, drawsBetween, FINGERPRINT, GOLDEN, load, loadSequence,
} from './golden_runner.mjs';
import { Datoteca } from '../../bindings/node/index.mjs';

const text = readFileSync(GOLDEN, 'utf8');
const golden = JSON.parse(text);
const fp = load(FINGERPRINT);
const sequence = loadSequence();
const none = (failures) => { if (failures.length) throw new Error(failures.join('\n')); };

test('data versions agree', () => none(checkVersions(golden, fp)));
test('table digests', () => none(checkTables(fp)));
test('golden: value by value with draws, then byte for byte', () => none(checkGolden(sequence, golden, text)));
test('call digests', () => none(checkCalls(fp)), 60000);
test('dataset digests: every case, rows 0..9,999 and 1,000 far rows', () => none(checkDatasets(fp)), 60000);
test('shipped schema digests: each file, each table, rows 0..9,999 and its last 1,000', () => none(checkEsquemas(fp)), 60000);

test.each([0, 1, 2, 3, 31, 1000, 65537])('drawsBetween counts %i draws', (k) => {
  const d = new Datoteca({ seed: 99 });
  const before = d.saveState();
  for (let i = 0; i < k; i++) d.nextU32();
  expect(drawsBetween(before, d.saveState()), `after ${k} draws`).toBe(k);
});

test('the runner cannot write the fixtures (only tools/regen_fixtures.py does)', () => {
  const runner = fileURLToPath(new URL('./golden_runner.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [runner, GOLDEN], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain('regen_fixtures.py');
  expect(readFileSync(GOLDEN, 'utf8')).toBe(text);
});
