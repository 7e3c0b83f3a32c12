// The one table of bad inputs (tests/casos_errores.json) in Node: each gives the table's error class (a
// DatotecaError that also is the builtin a user would catch) and the very sentence C and Python give.
import { expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as dt from '../../bindings/node/index.mjs';

const { cases: CASES } = JSON.parse(readFileSync(new URL('../casos_errores.json', import.meta.url), 'utf8'));
const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

function run(c) {
  const hoy = c.hoy ? { hoy: c.hoy } : {};
  if (c.de === 'llamada') return () => new dt.Datoteca({ seed: 1, ...hoy }).call(c.nombre, c.args);
  if (c.de === 'utilidad') {
    const fn = dt[camel(c.nombre)];
    // utilities take their text, then their arguments in order (the table names them)
    const values = Object.values(c.args);
    return () => ('texto' in c ? fn(c.texto, ...values) : fn(...values));
  }
  if (c.de === 'tabla') return () => new dt.Tabla(c.nombre, { ...c.opciones, ...hoy, ...c.args });
  if (c.de === 'esquema') {
    // the document in a file of the case's name: sentences name the file as given
    return () => {
      const carpeta = mkdtempSync(path.join(tmpdir(), 'datoteca-errores-'));
      try {
        const ruta = path.join(carpeta, c.nombre);
        writeFileSync(ruta, c.texto);
        return new dt.Esquema(ruta, { seed: c.seed ?? 0, ...hoy });
      } finally {
        rmSync(carpeta, { recursive: true, force: true });
      }
    };
  }
  return () => new dt.Datoteca({ seed: 1 }).restoreState(new Uint8Array(24));
}

test.each(CASES.map((c, i) => [i + 1, c]))('error case %i', (i, c) => {
  let err;
  try {
    run(c)();
  } catch (e) {
    err = e;
  }
  const where = `error case ${i} (${c.de} ${c.nombre} ${JSON.stringify(c.args ?? c.texto)})`;
  expect(err, `${where} did not throw`).toBeInstanceOf(dt.DatotecaError);
  expect(err.name, where).toBe(c.error);
  expect(err).toBeInstanceOf(dt[c.error]);
  expect(err).toBeInstanceOf(RangeError);
  expect(err.message, where).toBe(c.frase);
  expect(err.code, where).toBe(c.estado);
});
