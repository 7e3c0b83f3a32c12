// The registry-driven argument cases (tests/casos_argumentos.json, generated from spec/llamadas.toml):
// Node gives the CLI's value for every accepted case, and the library's sentence (a RangeError with
// .status from C) for every refused one. C, the CLI and Python run the same cases.
import { expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Datoteca } from '../../bindings/node/index.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');
const { cases } = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'casos_argumentos.json'), 'utf8'));

test.each(cases.map((c, i) => [i + 1, c]))('argument case %i', (i, { call, args, expect: want }) => {
  const where = `argument case ${i}, ${call} ${JSON.stringify(args)}`;
  if (want === 'ok') {
    const flags = Object.entries(args).flatMap(([k, v]) => [`--${k}`, String(v)]);
    const cli = execFileSync(CLI, [call, '--seed', '7', '-n', '1', '--format', 'plain', ...flags], { encoding: 'utf8' });
    const v = new Datoteca({ seed: 7 }).call(call, args);
    expect(typeof v === 'object' ? Object.values(v).join('\t') : String(v), where).toBe(cli.trimEnd());
    return;
  }
  let err;
  try {
    new Datoteca({ seed: 7 }).call(call, args);
  } catch (e) {
    err = e;
  }
  expect(err, `${where}: accepted`).toBeInstanceOf(RangeError);
  expect(err.message, where).toBe(want);
  expect(err.status, where).toBe(2);
});
