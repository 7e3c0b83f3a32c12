// Vitest helpers: `test` with a `datoteca` fixture seeded from a base seed and the test's
// full name, so a test's data does not depend on which tests ran before it.
// Base seed: DATOTECA_SEED, else a value given with Vitest's provide('datotecaSeed', …), else 0.
import { test as base, inject } from 'vitest';
import { Datoteca } from './index.mjs';

export function baseSeed() {
  const env = process.env.DATOTECA_SEED;
  if (env !== undefined && env !== '') {
    if (!/^\d+$/.test(env) || BigInt(env) >= 1n << 64n) throw new RangeError(`DATOTECA_SEED must be an integer in [0, 2**64), got '${env}'`);
    return env;
  }
  let provided;
  try {
    provided = inject('datotecaSeed');
  } catch {
    provided = undefined;
  }
  return provided === undefined ? '0' : String(provided);
}

function fullName(task) {
  const parts = [];
  for (let t = task; t; t = t.suite) if (t.name) parts.unshift(t.name);
  return parts.join(' > ');
}

export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  datoteca: async ({ task, onTestFailed }, use) => {
    const seed = `${baseSeed()}:${task.file ? task.file.name : ''}:${fullName(task)}`;
    onTestFailed(() => {
      // Shown with the failure, so it replays: same base seed, same test name.
      console.error(`datoteca seed: '${seed}' (replay with DATOTECA_SEED=${baseSeed()})`);
    });
    task.meta.datotecaSeed = seed;
    await use(new Datoteca({ seed }));
  },
});

export { Datoteca };
