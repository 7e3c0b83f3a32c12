// Tabla.arrow(): Arrow buffers filled in C, read by an independent implementation (apache-arrow's
// JavaScript library) and compared value by value with filas(), which the other dataset tests compare
// with the CLI. Every failure names the call, the column and the row.
import { describe, expect, test } from 'vitest';
import { tableFromIPC, tableToIPC } from 'apache-arrow';
import { ColumnaEntero, ColumnaFecha, ColumnaTexto, Tabla } from '../../bindings/node/index.mjs';
import { aApacheArrow } from './apache_arrow.mjs';

const CASOS = [
  ['persona.persona', { seed: 11, unico: ['rut', 'email'], nulos: { comuna: 100 }, edadMin: 0, edadMax: 30 }],
  ['direccion.direccion', { seed: 5, nulos: { depto: 500, numero: 40 } }],
  ['empresa.empresa', { seed: 3, campos: ['rut', 'razon_social', 'email'] }],
  ['rut', { seed: 8, tipo: 'empresa', unico: ['rut'] }],
  ['dinero.monto', { seed: 2, min: 1, max: 999 }],
];

// apache-arrow's value as datoteca's other paths give it: text, 'YYYY-MM-DD', a number.
function comoDatoteca(v, tipo) {
  if (v === null) return null;
  if (tipo === 'date32') return new Date(v).toISOString().slice(0, 10);
  if (tipo === 'int64') return Number(v);
  return v;
}

function mismasFilas(label, filas, leer) {
  for (let i = 0; i < filas.length; i++) {
    for (const [k, esperado] of Object.entries(filas[i])) {
      const v = leer(k, i);
      if (v !== esperado) expect.fail(`${label}: row ${i}, column ${k}: expected ${JSON.stringify(esperado)}, got ${JSON.stringify(v)}`);
    }
  }
}

describe('Tabla.arrow', () => {
  test.each(CASOS)('%s: every value equals filas(), read by datoteca and by apache-arrow', (call, opciones) => {
    const t = new Tabla(call, opciones);
    const n = 6000;
    const desde = 1234;
    const filas = t.filas(n, desde);
    const cols = t.arrow(n, desde);
    expect(Object.keys(cols)).toEqual(t.columnas.map((c) => c.nombre));
    mismasFilas(`${call} at()`, filas, (k, i) => cols[k].at(i));
    const tabla = aApacheArrow(cols);
    expect(tabla.numRows).toBe(n);
    expect(tabla.schema.fields.map((f) => [f.name, f.nullable]), `${call} schema`).toEqual(t.columnas.map((c) => [c.nombre, c.nulable]));
    mismasFilas(`${call} apache-arrow`, filas, (k, i) => comoDatoteca(tabla.getChild(k).get(i), cols[k].tipo));
    const ida = tableFromIPC(tableToIPC(tabla)); // through Arrow's IPC format and back
    mismasFilas(`${call} apache-arrow IPC`, filas, (k, i) => comoDatoteca(ida.getChild(k).get(i), cols[k].tipo));
    for (const c of t.columnas) {
      const col = cols[c.nombre];
      expect(col.nulos, `${call}.${c.nombre} null count`).toBe(filas.filter((f) => f[c.nombre] === null).length);
      expect(col.toArray(), `${call}.${c.nombre} toArray`).toEqual(filas.map((f) => f[c.nombre]));
      expect([...col], `${call}.${c.nombre} iterator`).toEqual(filas.map((f) => f[c.nombre]));
    }
  });

  test('column types follow the DDL: utf8 text, date32 dates, int64 integers', () => {
    const p = new Tabla('persona.persona', { seed: 1 }).arrow(10);
    expect(p.rut).toBeInstanceOf(ColumnaTexto);
    expect(p.rut.offsets).toBeInstanceOf(Int32Array);
    expect(p.rut.datos).toBeInstanceOf(Uint8Array);
    expect(p.fecha_nacimiento).toBeInstanceOf(ColumnaFecha);
    expect(p.fecha_nacimiento.valores).toBeInstanceOf(Int32Array);
    const d = new Tabla('direccion.direccion', { seed: 1 }).arrow(10);
    expect(d.numero).toBeInstanceOf(ColumnaEntero);
    expect(d.numero.valores).toBeInstanceOf(BigInt64Array);
    expect(p.rut.validez).toBe(null); // no nulls: no bitmap
  });

  test('one thread and two give the same bytes; slices equal the same rows of a longer batch', () => {
    const t = new Tabla('persona.persona', { seed: 4, nulos: { email: 300 } });
    const uno = t.arrow(10000, 0, { hilos: 1 });
    const dos = t.arrow(10000, 0, { hilos: 2 });
    for (const k of Object.keys(uno)) {
      for (const b of ['validez', 'offsets', 'datos', 'valores']) {
        if (uno[k][b] === undefined || uno[k][b] === null) continue;
        expect(Buffer.compare(Buffer.from(uno[k][b].buffer), Buffer.from(dos[k][b].buffer)), `${k}.${b}`).toBe(0);
      }
    }
    const trozo = t.arrow(777, 5000);
    for (const k of Object.keys(uno)) expect(trozo[k].toArray(), k).toEqual(uno[k].toArray().slice(5000, 5777));
    expect(t.arrow(0).rut.length).toBe(0);
  });

  test('at() counts from the end for a negative index and is undefined outside the column', () => {
    const c = new Tabla('rut', { seed: 1 }).arrow(3).rut;
    expect(c.at(-1)).toBe(c.at(2));
    expect(c.at(3)).toBe(undefined);
    expect(c.at(-4)).toBe(undefined);
    expect(() => c.at(1.5)).toThrow(TypeError);
  });

  test('bad arguments are refused with a sentence', () => {
    const t = new Tabla('empresa.empresa', { seed: 1, unico: ['rut'] });
    expect(() => t.arrow(10, 0, { hilos: 3 })).toThrow(/hilos must be 1 or 2, got 3/);
    expect(() => t.arrow(10, 0, { lote: 3 })).toThrow(/unknown option 'lote' for arrow\(\); it takes hilos/);
    expect(() => t.arrow(2, t.capacidad - 1)).toThrow(/there is room for 2000000 rows/);
    expect(() => t.arrow(-1)).toThrow('n must be from 0 to 4294967295, got -1');
  });
});
