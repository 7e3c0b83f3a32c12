// Node's inferir(url) judged by the program it runs: the document is `datoteca inferir URL`'s stdout
// byte for byte (the CMake binary run here directly), with each option; the notes are its stderr's
// "not expressed" lines; the document loads in Esquema; a wrong argument names itself; an unreachable
// server's sentence holds no password; no program found says how to get one. The database is built by
// Python's sqlite3 module from tests/inferir/app_sqlite.sql (the reference application's SQLite DDL).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as dt from '../../bindings/node/index.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');
const DDL = path.join(ROOT, 'tests', 'inferir', 'app_sqlite.sql');
let dir;
let url;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'datoteca-inferir-'));
  const db = path.join(dir, 'app.db');
  execFileSync('python3', ['-c', 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()', db, DDL]);
  url = `sqlite:///${db}`;
  process.env.DATOTECA_CLI = CLI; // the program under test, whatever PATH holds
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function programa(args) {
  const r = spawnSync(CLI, ['inferir', url, ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

test.each([
  [{}, []],
  [{ filasVacia: 7 }, ['--filas-vacia', '7']],
  [{ muestra: 0 }, ['--muestra', '0']],
  [{ escala: '1/10', filasVacia: 30 }, ['--escala', '1/10', '--filas-vacia', '30']],
  [{ escala: 3 }, ['--escala', '3']],
  [{ sinAbanico: true }, ['--sin-abanico']],
])('inferir(url, %j) is `datoteca inferir URL %s` byte for byte', (opciones, args) => {
  const r = programa(args);
  expect(dt.inferir(url, opciones), `options ${JSON.stringify(opciones)}`).toBe(r.stdout);
  const { documento, notas } = dt.inferirConNotas(url, opciones);
  expect(documento).toBe(r.stdout);
  const esperadas = r.stderr.split('\n').filter((l) => l.startsWith('datoteca inferir: not expressed: '));
  expect(esperadas.length).toBeGreaterThan(0); // the application has a view, a trigger, a partial index
  expect(notas).toEqual(esperadas.map((l) => l.slice('datoteca inferir: not expressed: '.length)));
});

test('the document loads in Esquema and fills every table', () => {
  const doc = dt.inferir(url, { filasVacia: 20 });
  const e = new dt.Esquema(doc, { seed: 42 });
  try {
    expect(e.tablas.length).toBeGreaterThan(5);
    for (const t of e.tablas) expect(e.filas(t, 3).length, t).toBe(Math.min(3, e.total(t)));
  } finally {
    e.free();
  }
});

test.each([
  [[42], /inferir: url must be a string, got number/, 'ArgumentTypeError'],
  [[undefined], /inferir: url must be a string, got undefined/, 'ArgumentTypeError'],
  [['sqlite:a\0b'], /url must not hold a NUL character/, 'InvalidArgumentError'],
  [['--esquema'], /starts with '-'/, 'InvalidArgumentError'],
  [['sqlite:x.db', 'nada'], /opciones must be an object, got string/, 'ArgumentTypeError'],
  [['sqlite:x.db', { esquemas: 'a' }], /unknown option 'esquemas'/, 'InvalidArgumentError'],
  [['sqlite:x.db', { esquema: 1 }], /esquema must be a string, got number/, 'ArgumentTypeError'],
  [['sqlite:x.db', { escala: 0.5 }], /escala must be an integer or a string like '1\/10', got 0.5/, 'ArgumentTypeError'],
  [['sqlite:x.db', { filasVacia: '3' }], /filasVacia must be an integer, got string/, 'ArgumentTypeError'],
  [['sqlite:x.db', { muestra: 1.5 }], /muestra must be an integer, got 1.5/, 'ArgumentTypeError'],
  [['sqlite:x.db', { sinAbanico: 1 }], /sinAbanico must be a boolean, got number/, 'ArgumentTypeError'],
])('inferir(%j) refuses: %s', (args, mensaje, clase) => {
  let e;
  try {
    dt.inferir(...args);
  } catch (x) {
    e = x;
  }
  expect(e, JSON.stringify(args)).toBeInstanceOf(dt.DatotecaError);
  expect(e.name).toBe(clase);
  expect(e.message).toMatch(mensaje);
});

test("the program's refusals: its one sentence, exit 2 as InvalidArgumentError, never the password", () => {
  const falta = path.join(dir, 'no-existe.db');
  expect(() => dt.inferir(`sqlite:///${falta}`)).toThrow(dt.InvalidArgumentError);
  expect(() => dt.inferir('sqlite:x.db', { escala: 'mucho' })).toThrow(/escala/);
  let e;
  try {
    dt.inferir('postgresql://ana:secreto-7781@127.0.0.1:1/app?connect_timeout=5');
  } catch (x) {
    e = x;
  }
  expect(e).toBeInstanceOf(dt.InvalidArgumentError);
  expect(e.message).toMatch(/127\.0\.0\.1/);
  expect(e.message).not.toMatch(/secreto-7781/);
});

test('no program to run: a DatotecaError that says where one comes from', () => {
  // The binding's own files, copied where no prebuilds/ sits beside them: a source checkout. (The
  // checkout under test may carry a program: any `npm pack` here runs prepack, which writes one.)
  const copia = path.join(dir, 'checkout', 'bindings', 'node');
  mkdirSync(copia, { recursive: true });
  for (const f of ['inferir.js', 'programa.js', 'comun.gen.js']) {
    copyFileSync(path.join(ROOT, 'bindings', 'node', f), path.join(copia, f));
  }
  const { inferir } = createRequire(import.meta.url)(path.join(copia, 'inferir.js'));
  const antes = { cli: process.env.DATOTECA_CLI, path: process.env.PATH };
  try {
    delete process.env.DATOTECA_CLI;
    process.env.PATH = dir; // nothing called datoteca there
    expect(() => inferir(url)).toThrow(/no datoteca program was found.*DATOTECA_CLI/);
  } finally {
    process.env.DATOTECA_CLI = antes.cli;
    process.env.PATH = antes.path;
  }
});
