// Replay fixtures/golden-sequence.json with the Node binding and write the canonical JSON
// (docs/determinism.md). `node golden_runner.mjs OUT` writes this binding's run to OUT.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Datoteca, dataVersion } from '../../bindings/node/index.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SEQUENCE = path.join(ROOT, 'fixtures', 'golden-sequence.json');
export const GOLDEN = path.join(ROOT, 'fixtures', 'golden.json');

export function loadSequence() {
  return JSON.parse(readFileSync(SEQUENCE, 'utf8'));
}

/** [call, value] pairs of one seed; integers become decimal strings. */
export function run(seed, sequence) {
  const d = new Datoteca({ seed: BigInt(seed), hoy: sequence.hoy });
  return sequence.calls.map((step) => {
    const v = d.call(step.call, step.args);
    return [step.call, typeof v === 'number' ? String(v) : v];
  });
}

export function canonical(sequence) {
  const doc = {
    data_version: dataVersion(),
    hoy: sequence.hoy,
    runs: sequence.seeds.map((seed) => ({ seed, values: run(seed, sequence).map(([call, value]) => ({ call, value })) })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(process.argv[2], canonical(loadSequence()));
}
