// The masking contract (docs/enmascarar.md, "The masking contract") through Node's Enmascarador:
// every case of fixtures/mascara.json, its rules and rows under the published test key, must give the
// recorded output value for value (an emptied value is null here, "" in the fixture's CSV form). Every
// masked RUT of the contract is also checked with rut.js, an outside validator. Failures name the case,
// the row and the column.
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import rutjs from 'rut.js';
import * as dt from '../../bindings/node/index.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FX = JSON.parse(readFileSync(path.join(ROOT, 'fixtures', 'mascara.json'), 'utf8'));

test('the fixture records the header\'s mapping version', () => {
  const header = readFileSync(path.join(ROOT, 'c', 'include', 'datoteca.h'), 'utf8');
  const version = Number(/^#define DT_MASCARA_VERSION (\d+)$/m.exec(header)[1]);
  expect(FX.mascara_version, 'fixtures/mascara.json against DT_MASCARA_VERSION').toBe(version);
  expect(FX.casos.length).toBeGreaterThan(5);
});

for (const caso of FX.casos) {
  test(`case ${caso.nombre}: Enmascarador.filas gives the recorded outputs`, () => {
    const e = new dt.Enmascarador(caso.reglas, { clave: FX.clave_de_prueba, claveDePrueba: true, formato: 'toml' });
    try {
      expect(e.columnas(caso.columnas), `case ${caso.nombre}: output columns`).toEqual(caso.salida.columnas);
      const filas = caso.filas.map((f) => Object.fromEntries(caso.columnas.map((c, i) => [c, f[i]])));
      const out = e.filas(filas);
      expect(out.length, `case ${caso.nombre}: rows`).toBe(caso.salida.filas.length);
      out.forEach((fila, r) => {
        caso.salida.columnas.forEach((col, i) => {
          const obtenido = fila[col] ?? '';
          expect(obtenido, `case ${caso.nombre}, row ${r + 1}, column ${col}: expected ${JSON.stringify(caso.salida.filas[r][i])}`)
            .toBe(caso.salida.filas[r][i]);
        });
      });
    } finally {
      e.free();
    }
  });
}

test('every masked RUT of a valid input passes rut.js', () => {
  let vistos = 0;
  for (const caso of FX.casos) {
    const reglas = caso.reglas.split('\n').filter((l) => /regla = "rut"/.test(l)).map((l) => l.split(' = ')[0]);
    for (const col of reglas) {
      const i = caso.columnas.indexOf(col);
      const o = caso.salida.columnas.indexOf(col);
      caso.filas.forEach((fila, r) => {
        if (!fila[i].trim() || !rutjs.validate(fila[i].trim())) return;
        expect(rutjs.validate(caso.salida.filas[r][o].trim()), `case ${caso.nombre}, row ${r + 1}, column ${col}: ${caso.salida.filas[r][o]}`).toBe(true);
        vistos++;
      });
    }
  }
  expect(vistos).toBeGreaterThan(30);
});
