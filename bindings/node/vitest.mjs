// Vitest helpers: `test` with a `datoteca` fixture seeded from a base seed, the test file's path
// relative to its package (the nearest package.json above the file) and the test's full name, so a
// test's data depends neither on which tests ran before it nor on Vitest's --root or the directory
// it was started from. Base seed: DATOTECA_SEED (decimal or 0x-hex), else a value given with
// Vitest's provide('datotecaSeed', …), else 0. A failing test's error message itself carries the seed
// and a command that replays it, so it shows with --silent and in the JUnit and JSON reporters.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test as base, inject } from 'vitest';
import { Datoteca } from './index.mjs';

/** A seed as DATOTECA_SEED takes it: decimal or 0x-hex, in [0, 2**64); returned in decimal. */
export function parseSeed(text, what = 'DATOTECA_SEED') {
  const t = String(text).trim();
  if (!/^(0[xX][0-9a-fA-F]+|\d+)$/.test(t) || BigInt(t) >= 1n << 64n) {
    throw new RangeError(`${what} must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got '${text}'`);
  }
  return BigInt(t).toString();
}

export function baseSeed() {
  const env = process.env.DATOTECA_SEED;
  if (env !== undefined && env !== '') return parseSeed(env);
  let provided;
  try {
    provided = inject('datotecaSeed');
  } catch {
    provided = undefined;
  }
  return provided === undefined ? '0' : parseSeed(provided, "provide('datotecaSeed')");
}

const ROOTS = new Map();
/** The nearest directory above `file` with a package.json, or the file's own directory. */
export function packageRoot(file) {
  const start = path.dirname(file);
  if (ROOTS.has(start)) return ROOTS.get(start);
  let dir = start;
  let found = start;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) {
      found = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  ROOTS.set(start, found);
  return found;
}

function fullName(task) {
  const parts = [];
  for (let t = task; t; t = t.suite) if (t.name) parts.unshift(t.name);
  return parts;
}

function place(task) {
  const file = task.file && task.file.filepath ? task.file.filepath : '';
  const root = file ? packageRoot(file) : process.cwd();
  return { root, rel: file ? path.relative(root, file).split(path.sep).join('/') : '' };
}

const quote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  datoteca: async ({ task, onTestFailed }, use) => {
    const { root, rel } = place(task);
    const names = fullName(task);
    const seed = `${baseSeed()}:${rel}:${names.join(' > ')}`;
    const replay = `cd ${quote(root)} && DATOTECA_SEED=${baseSeed()} npx vitest run ${quote(rel)} -t ${quote(`^${escapeRegex(names.join(' '))}$`)}`;
    onTestFailed((arg) => {
      const result = (arg && arg.task && arg.task.result) || (arg && arg.result) || arg;
      const note = `\ndatoteca seed: '${seed}'\nreplay with: ${replay}`;
      for (const e of (result && result.errors) || []) if (typeof e.message === 'string' && !e.message.includes(note)) e.message += note;
      // also as before, for the terminal
      console.error(`datoteca seed: '${seed}' (replay with DATOTECA_SEED=${baseSeed()})`);
    });
    task.meta.datotecaSeed = seed;
    await use(new Datoteca({ seed }));
  },
});

/**
 * One Datoteca for a whole test file (module scope), seeded by the base seed and the file's path in
 * its package: `const d = datotecaDelArchivo(import.meta.url);` at the top of the file.
 */
export function datotecaDelArchivo(url) {
  const file = url.startsWith('file:') ? new URL(url).pathname : url;
  const root = packageRoot(file);
  return new Datoteca({ seed: `${baseSeed()}:archivo:${path.relative(root, file).split(path.sep).join('/')}` });
}

export { Datoteca };
