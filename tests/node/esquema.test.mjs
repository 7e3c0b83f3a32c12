// Node's Esquema, judged by the CLI: the rows of every table of esquemas/banco.toml (a copy with fewer
// rows, written here) are the CLI's CSV byte for byte, the DDL is the CLI's, adding a column and a table
// changes no other column's values, and a plain object, its JSON and the TOML give the same tables.
// The document is read from the repository, never pinned: tests compare runtimes, not values.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as dt from '../../bindings/node/index.mjs';

const { Esquema } = dt;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');
const SEED = 42;

// esquemas/banco.toml with every `filas = N` at 300: the same tables, columns and fan-outs, fewer rows.
const ORIGINAL = readFileSync(path.join(ROOT, 'esquemas', 'banco.toml'), 'utf8');
const BANCO = ORIGINAL.replace(/^filas = \d+/gm, 'filas = 300');

// The same document with a column in the middle of clientes (right after its first column) and a
// table before movimientos.
function conAgregados(doc) {
  const cabeza = '[tablas.clientes.columnas]\n';
  const a = doc.indexOf(cabeza);
  const fin = doc.indexOf('\n', a + cabeza.length) + 1; // the end of clientes' first column
  const b = doc.indexOf('[tablas.movimientos]');
  if (a < 0 || b < 0) throw new Error('esquemas/banco.toml has no clientes columns or no movimientos table: update this test');
  const columna = 'vive_en = { llamada = "direccion.comuna" }\n';
  const tabla = '[tablas.seguros]\npor = "clientes"\ncuantos = { min = 0, max = 2 }\n\n[tablas.seguros.columnas]\n'
    + 'id = { serie = true }\ncliente_id = { ref = "clientes.id" }\nprima = { llamada = "dinero.monto", min = 5000, max = 90000 }\n\n';
  return doc.slice(0, fin) + columna + doc.slice(fin, b) + tabla + doc.slice(b);
}

let dir;
// Every shipped schema, each with every `filas = N` at 300.
const ENVIADOS = ['banco', 'retail', 'rrhh'];
beforeAll(() => {
  expect(existsSync(CLI), `the C CLI is not built at ${CLI} (set DATOTECA_CLI)`).toBe(true);
  dir = mkdtempSync(path.join(tmpdir(), 'datoteca-esquema-'));
  writeFileSync(path.join(dir, 'banco.toml'), BANCO);
  for (const n of ENVIADOS.slice(1)) {
    const doc = readFileSync(path.join(ROOT, 'esquemas', `${n}.toml`), 'utf8');
    writeFileSync(path.join(dir, `${n}.toml`), doc.replace(/^filas = \d+/gm, 'filas = 300'));
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One CSV cell as cli/cli_comun.c writes it: a null empty and unquoted, an empty text "", a text with a
// comma, quote, CR or LF quoted with its quotes doubled, anything else as it is.
function celda(v) {
  if (v === null) return '';
  const s = String(v);
  if (s === '') return '""';
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function comoCsv(e, tabla) {
  const nombres = e.columnas(tabla).map((c) => c.nombre);
  const lineas = [nombres.join(',')];
  for (const fila of e.filas(tabla)) lineas.push(nombres.map((n) => celda(fila[n])).join(','));
  return `${lineas.join('\n')}\n`;
}

// The first line where two CSV texts differ, for a failure message that names the row.
function primeraDiferencia(a, b) {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1} (row ${i - 1}): Node ${JSON.stringify(la[i])}, CLI ${JSON.stringify(lb[i])}`;
  }
  return 'none';
}

test.each(ENVIADOS)('every table of %s equals the CLI CSV byte for byte', (nombre) => {
  const salida = path.join(dir, `csv-${nombre}`);
  execFileSync(CLI, ['esquema', path.join(dir, `${nombre}.toml`), '--seed', String(SEED), '--formato', 'csv', '--salida', salida]);
  const e = new Esquema(path.join(dir, `${nombre}.toml`), { seed: SEED });
  expect(e.tablas.length, `${nombre} has tables`).toBeGreaterThan(1);
  for (const t of e.tablas) {
    const cli = readFileSync(path.join(salida, `${t}.csv`), 'utf8');
    const node = comoCsv(e, t);
    expect(node.split('\n').length - 2, `seed ${SEED}, ${t}: rows`).toBe(e.total(t));
    expect(node === cli, `seed ${SEED}, table ${t}: Node's rows differ from the CLI's CSV at ${primeraDiferencia(node, cli)}`).toBe(true);
  }
});

test('the DDL equals the CLI in both dialects', () => {
  const e = new Esquema(path.join(dir, 'banco.toml'), { seed: SEED });
  for (const d of ['postgresql', 'sqlite']) {
    const cli = execFileSync(CLI, ['esquema', path.join(dir, 'banco.toml'), '--formato', 'ddl', '--dialecto', d], { encoding: 'utf8' });
    expect(e.ddl(d), `ddl ${d}`).toBe(cli);
  }
  expect(e.ddl()).toBe(e.ddl('postgresql'));
  expect(e.orden.slice().sort()).toEqual(e.tablas.slice().sort());
});

test('adding a column and a table changes no other column of any table', () => {
  const a = new Esquema(BANCO, { seed: SEED });
  const b = new Esquema(conAgregados(BANCO), { seed: SEED });
  expect(b.tablas.length, 'the table was added').toBe(a.tablas.length + 1);
  expect(b.columnas('clientes').length, 'the column was added').toBe(a.columnas('clientes').length + 1);
  expect(b.columnas('clientes')[1].nombre, 'the column is in the middle of clientes').toBe('vive_en');
  expect(b.tablas.indexOf('seguros'), 'the table is before movimientos').toBe(b.tablas.indexOf('movimientos') - 1);
  expect(b.total('seguros'), 'the added table has rows').toBeGreaterThan(0);
  for (const t of a.tablas) {
    expect(b.total(t), `${t}: rows`).toBe(a.total(t));
    const fa = a.filas(t);
    const fb = b.filas(t);
    for (const c of a.columnas(t)) {
      for (let r = 0; r < fa.length; r++) {
        if (fa[r][c.nombre] !== fb[r][c.nombre]) {
          expect.fail(`seed ${SEED}, ${t}.${c.nombre} row ${r}: ${JSON.stringify(fa[r][c.nombre])} became ${JSON.stringify(fb[r][c.nombre])}`);
        }
      }
    }
  }
});

const TOML = `
[tablas.clientes]
filas = 50
[tablas.clientes.columnas]
id = { serie = true }
persona = { llamada = "persona.persona", campos = ["rut", "email"], unico = ["rut"], nulos = { email = 300 } }

[tablas.cuentas]
por = "clientes"
cuantos = { min = 1, max = 3 }
[tablas.cuentas.columnas]
id = { serie = true }
titular = { ref = "clientes.rut" }
tipo = { elegir = { corriente = 3, vista = 5 } }
`;
const OBJETO = {
  tablas: {
    clientes: {
      filas: 50n,
      columnas: {
        id: { serie: true },
        persona: { llamada: 'persona.persona', campos: ['rut', 'email'], unico: ['rut'], nulos: { email: 300 } },
      },
    },
    cuentas: {
      por: 'clientes',
      cuantos: { min: 1, max: 3 },
      columnas: { id: { serie: true }, titular: { ref: 'clientes.rut' }, tipo: { elegir: { corriente: 3, vista: 5 } } },
    },
  },
};

test('a plain object, its JSON and the TOML give the same tables; a seed as number or bigint the same', () => {
  const json = JSON.stringify(OBJETO, (k, v) => (typeof v === 'bigint' ? Number(v) : v));
  const todos = [new Esquema(TOML, { seed: 4 }), new Esquema(OBJETO, { seed: 4n }), new Esquema(json, { seed: 4, formato: 'json' })];
  for (const t of todos[0].tablas) {
    const [a, b, c] = todos.map((e) => e.filas(t));
    expect(b, `seed 4, ${t}: object vs TOML`).toEqual(a);
    expect(c, `seed 4, ${t}: JSON vs TOML`).toEqual(a);
  }
  expect(todos[1].ddl()).toBe(todos[0].ddl());
  const cuentas = todos[0].columnas('cuentas');
  expect(cuentas.map((c) => [c.nombre, c.ref, c.clavePrimaria])).toEqual([['id', null, true], ['titular', 'clientes.rut', false], ['tipo', null, false]]);
  // the rows' shape: numbers for integer columns, null for a null
  const filas = todos[0].filas('clientes');
  expect(typeof filas[0].id).toBe('number');
  expect(filas.some((f) => f.email === null), 'email is null in some row at 300 per mille').toBe(true);
  expect(new Esquema(TOML, { seed: 5 }).filas('clientes'), 'another seed, other rows').not.toEqual(filas);
});

test('slices equal the full run', () => {
  const e = new Esquema(TOML, { seed: 2 });
  const todas = e.filas('cuentas');
  expect(todas.length).toBe(e.total('cuentas'));
  for (const [desde, n] of [[0, 1], [5, 17], [todas.length - 3, 3], [todas.length, 0]]) {
    expect(e.filas('cuentas', n, desde), `seed 2, cuentas rows ${desde}..${desde + n}`).toEqual(todas.slice(desde, desde + n));
  }
  expect(e.filas('cuentas', undefined, 7)).toEqual(todas.slice(7));
  expect(() => e.filas('cuentas', 2, todas.length - 1)).toThrow(dt.InvalidArgumentError);
  expect(e.filas('cuentas', undefined, todas.length + 5), 'nothing from past the end, as Python').toEqual([]);
  expect(e.filas('cuentas', 0, todas.length + 5)).toEqual([]);
});

test('a refused document throws the library sentence; wrong types name the argument', () => {
  let err;
  try {
    new Esquema({ tablas: { a: { filas: 1, columnas: { x: { ref: 'b.id' } } } } });
  } catch (x) {
    err = x;
  }
  expect(err).toBeInstanceOf(dt.InvalidArgumentError);
  expect(err).toBeInstanceOf(RangeError);
  expect(err.message).toBe("<objeto>:1: tablas.a.columnas.x: ref: unknown table 'b'; the tables are a");
  expect(() => new Esquema('[tablas.t]\nfilas = 1\n[tablas.t.columnas]\nc = { ref = "u.id" }\n')).toThrow(
    "<texto>:4: tablas.t.columnas.c: ref: unknown table 'u'; the tables are t");
  expect(() => new Esquema(42)).toThrow(/^documento must be/);
  expect(() => new Esquema(new Map())).toThrow(TypeError);
  expect(() => new Esquema({ tablas: { t: { filas: () => 1 } } })).toThrow('documento: documento.tablas.t.filas is function, which JSON cannot hold');
  expect(() => new Esquema(TOML, { seed: -1 })).toThrow('seed must be a non-negative safe integer or a bigint in [0, 2**64), got -1');
  expect(() => new Esquema(TOML, { seed: 2n ** 64n })).toThrow(dt.InvalidArgumentError);
  expect(() => new Esquema(TOML, { seed: 'x' })).toThrow(TypeError);
  expect(() => new Esquema(TOML, { hoy: '2026-2-3' })).toThrow("hoy must be 'YYYY-MM-DD', got '2026-2-3'");
  expect(() => new Esquema(TOML, { semilla: 1 })).toThrow("Esquema: unknown option 'semilla'");
  const e = new Esquema(TOML, { seed: 1n, hoy: '2026-03-01' });
  expect(() => e.filas('nada')).toThrow("tabla: 'nada' is not a table of the schema; its tables are clientes, cuentas");
  expect(() => e.filas('clientes', 1.5)).toThrow(TypeError);
  expect(() => e.ddl('oracle')).toThrow("dialecto must be 'postgresql' or 'sqlite', got 'oracle'");
});

test('free() releases the C schema; later calls throw ClosedError', () => {
  const e = new Esquema(TOML);
  expect(e.filas('clientes', 1).length).toBe(1);
  e.free();
  expect(() => e.filas('clientes', 1)).toThrow(dt.ClosedError);
  expect(() => e.ddl()).toThrow(dt.ClosedError);
  e.free(); // twice is a no-op
});

test('a row its arguments cannot make throws the row sentence', () => {
  const e = new Esquema('[tablas.t]\nfilas = 50\n[tablas.t.columnas]\nx = { elegir = { uno = 1 } }\n'
    + 'b = { llamada = "dinero.monto", min = { de = "x" } }\n');
  expect(() => e.filas('t', 2, 3)).toThrow(dt.InvalidArgumentError);
  expect(() => e.filas('t', 2, 3)).toThrow(
    /^tablas\.t\.columnas\.b: row 3: min takes t\.x, whose value is not an integer, a date \(YYYY-MM-DD\) or a RUT$/);
});
