// The golden dataset in Node: value by value (first divergence: seed, call number, name,
// expected, actual), then byte for byte. Nothing here writes the fixture.
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { canonical, GOLDEN, loadSequence, run } from './golden_runner.mjs';
import { dataVersion } from '../../bindings/node/index.mjs';

const text = readFileSync(GOLDEN, 'utf8');
const golden = JSON.parse(text);
const sequence = loadSequence();

test('value by value, first divergence', () => {
  expect(golden.data_version, 'fixture data version vs library').toBe(dataVersion());
  for (const r of golden.runs) {
    const actual = run(r.seed, sequence);
    actual.forEach(([call, value], i) => {
      const want = r.values[i];
      if (call !== want.call || JSON.stringify(value) !== JSON.stringify(want.value)) {
        throw new Error(`golden: seed ${r.seed}, call #${i} ${call}: expected ${JSON.stringify(want.value)}, got ${JSON.stringify(value)}`);
      }
    });
    expect(actual.length).toBe(r.values.length);
  }
});

test('byte for byte', () => {
  expect(canonical(sequence) === text, 'the canonical serialisation differs from fixtures/golden.json').toBe(true);
});
