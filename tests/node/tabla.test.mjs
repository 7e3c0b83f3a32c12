// Datasets from Node: slices equal full runs and the CLI's rows; options are checked with the
// library's sentences; columns and DDL as documented in docs/datasets.md.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Tabla, tabla, ddl } from '../../bindings/node/index.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');

const CASOS = [
  ['persona.persona', { seed: 11, unico: ['rut', 'email', 'telefono'], nulos: { comuna: 100 } }, []],
  ['persona.persona', { seed: 'texto', hoy: '2020-06-30', edadMin: 0, edad_max: 17, campos: ['rut', 'email', 'fecha_nacimiento'] },
    ['--edad_min', '0', '--edad_max', '17']],
  ['empresa.empresa', { seed: 3, unico: ['rut', 'email'], campos: ['rut', 'razon_social', 'email', 'codigo_comuna'] }, []],
  ['direccion.direccion', { seed: 5, nulos: { depto: 500 }, region: 13 }, ['--region', '13']],
  ['rut', { seed: 8, tipo: 'empresa', formato: 'guion', unico: ['rut'] }, ['--tipo', 'empresa', '--formato', 'guion']],
];

function cliArgs(call, o, params) {
  const a = ['tabla', call, ...params];
  if (o.seed !== undefined) a.push(typeof o.seed === 'string' ? '--seed-str' : '--seed', String(o.seed));
  if (o.hoy) a.push('--hoy', o.hoy);
  if (o.campos) a.push('--campos', o.campos.join(','));
  if (o.unico) a.push('--unico', o.unico.join(','));
  if (o.nulos) a.push('--nulos', Object.entries(o.nulos).map(([k, v]) => `${k}:${v}`).join(','));
  return a;
}

describe('datasets', () => {
  test.each(CASOS)('%s: slices equal full runs and the CLI', (call, opciones, params) => {
    const t = new Tabla(call, opciones);
    const n = 5000;
    const todo = t.filas(n);
    let lcg = 12345;
    for (let k = 0; k < 6; k++) {
      lcg = (lcg * 1103515245 + 12345) % 2147483648;
      const desde = lcg % n;
      const m = 1 + (Math.floor(lcg / 7) % (n - desde));
      expect(t.filas(m, desde), `${call} slice ${k}: rows ${desde}..${desde + m}`).toEqual(todo.slice(desde, desde + m));
      expect(tabla(call, m, { ...opciones, desde })).toEqual(todo.slice(desde, desde + m));
    }
    for (const [desde, m] of [[0, 50], [4321, 7], [n - 1, 1]]) {
      const out = execFileSync(CLI, [...cliArgs(call, opciones, params), '--desde', String(desde), '-n', String(m)], { encoding: 'utf8' });
      const cli = out.trim().split('\n').map((l) => JSON.parse(l));
      expect(cli, `${call}: CLI rows ${desde}..${desde + m}`).toEqual(todo.slice(desde, desde + m));
    }
  });

  test('columns, integer values, nulls and DDL', () => {
    const t = new Tabla('direccion.direccion', { seed: 1, campos: ['numero', 'linea', 'depto'], nulos: { depto: 100 } });
    expect(t.columnas.map((c) => [c.nombre, c.tipoSql, c.nulable])).toEqual([['numero', 'integer', false], ['linea', 'text', false], ['depto', 'text', true]]);
    expect(typeof t.filas(1)[0].numero).toBe('number');
    expect(t.filas(2000).some((r) => r.depto === null)).toBe(true);
    expect(t.ddl('postgresql', 'dir')).toBe('CREATE TABLE dir (\n    numero integer NOT NULL,\n    linea text NOT NULL,\n    depto text\n);\n');
    expect(ddl('persona.persona', { dialecto: 'sqlite', unico: ['rut'], campos: ['rut'] })).toBe('CREATE TABLE persona (\n    rut TEXT NOT NULL PRIMARY KEY\n);\n');
    expect(new Tabla('empresa.rut', { unico: ['rut'] }).capacidad).toBe(2000000);
    const ninos = new Tabla('persona.persona', { edadMin: 0, edadMax: 5, campos: ['email', 'telefono'] });
    expect(ninos.filas(3)).toEqual([{ email: null, telefono: null }, { email: null, telefono: null }, { email: null, telefono: null }]);
  });

  test.each([
    [{ unico: ['nombres'] }, RangeError, "persona.persona: column 'nombres' cannot be unique; unique columns are rut, email, telefono"],
    [{ campos: ['rut', 'nada'] }, RangeError, "persona.persona: campos: 'nada' is not a column; its columns are nombres,"],
    [{ nulos: { email: 1001 } }, RangeError, `persona.persona: nulos: 'email:1001' must be column:per-mille with an integer from 0 to 1000 ("email:100")`],
    [{ nulos: { email: -1 } }, RangeError, `persona.persona: nulos: 'email:-1' must be column:per-mille with an integer from 0 to 1000 ("email:100")`],
    [{ unico: ['rut'], nulos: { rut: 5 } }, RangeError, "persona.persona: column 'rut' is unique and cannot also have nulls"],
    [{ edadMin: 50, edadMax: 20 }, RangeError, 'persona.persona: edad_min must not exceed edad_max, got edad_min=50, edad_max=20'],
    [{ bogus: 1 }, TypeError, "persona.persona: unknown option 'bogus'"],
    [{ seed: -1 }, RangeError, 'seed must be a non-negative safe integer'],
  ])('bad options %j say what is wrong', (opciones, Kind, message) => {
    let error;
    try {
      new Tabla('persona.persona', opciones);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Kind);
    expect(error.message.startsWith(message), error.message).toBe(true);
  });

  test('rows past the capacity are refused', () => {
    const t = new Tabla('empresa.rut', { unico: ['rut'] });
    expect(t.filas(3, t.capacidad - 3)).toHaveLength(3);
    expect(() => t.filas(2, t.capacidad - 1)).toThrow(/there is room for 2000000 rows/);
  });
});

describe('columnar', () => {
  test('Datoteca.columnar gives many() values as columns, nulls included', async () => {
    const { Datoteca } = await import('../../bindings/node/index.mjs');
    const a = new Datoteca({ seed: 3 });
    const b = new Datoteca({ seed: 3 });
    const cols = a.columnar('persona.persona', 5000, { edadMin: 0, edadMax: 20 });
    const rows = b.many('persona.persona', 5000, { edadMin: 0, edadMax: 20 });
    for (const k of Object.keys(rows[0])) expect(cols[k], k).toEqual(rows.map((r) => r[k]));
    expect(cols.email.some((v) => v === null)).toBe(true);
    expect(a.columnar('dinero.monto', 3).monto).toBeInstanceOf(Float64Array);
    expect(Array.from(a.columnar('dinero.monto', 3).monto)).toEqual(b.many('dinero.monto', 6).slice(3));
  });

  test('Tabla.columnar gives filas() as columns', () => {
    const t = new Tabla('direccion.direccion', { seed: 1, nulos: { depto: 100, numero: 50 } });
    const cols = t.columnar(3000, 10);
    const rows = t.filas(3000, 10);
    for (const k of Object.keys(rows[0])) expect(cols[k], k).toEqual(rows.map((r) => r[k]));
    const u = new Tabla('direccion.direccion', { seed: 1, campos: ['numero'] });
    expect(u.columnar(5).numero).toBeInstanceOf(Float64Array);
  });
});
