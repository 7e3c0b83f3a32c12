// The shipped production-like sample (ejemplos/enmascarar/: clientes, cuentas, notas) masked by Node's
// Enmascarador with the shipped rules must be, written as CSV, the bytes `datoteca enmascarar` writes
// (tests/python/test_muestra_enmascarar.py judges those bytes: joins, validators, canaries).
import { expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as dt from '../../bindings/node/index.mjs';
import { csvCli, parseCsv } from './csv.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');
const MUESTRA = path.join(ROOT, 'ejemplos', 'enmascarar');
const CLAVE = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

for (const tabla of ['clientes', 'cuentas', 'notas']) {
  test(`${tabla}: Node's Enmascarador gives the CLI's bytes`, () => {
    expect(existsSync(CLI), `the C CLI is not built at ${CLI} (set DATOTECA_CLI)`).toBe(true);
    const dir = mkdtempSync(path.join(tmpdir(), 'datoteca-muestra-'));
    try {
      writeFileSync(path.join(dir, 'clave.hex'), `${CLAVE}\n`, { mode: 0o600 }); // private, as a key file must be
      const reglas = path.join(MUESTRA, `reglas-${tabla}.toml`);
      const entrada = readFileSync(path.join(MUESTRA, `${tabla}.csv`));
      const cli = execFileSync(CLI, ['enmascarar', '--reglas', reglas, '--clave-de-prueba', '--clave-archivo', path.join(dir, 'clave.hex')],
        { input: entrada, encoding: 'utf8' });
      const [cab, ...filas] = parseCsv(entrada.toString('utf8'));
      const e = new dt.Enmascarador(readFileSync(reglas, 'utf8'), { clave: CLAVE, formato: 'toml', claveDePrueba: true } /* the published test key */);
      const salida = e.columnas(cab);
      const out = e.filas(filas.map((f) => Object.fromEntries(cab.map((c, i) => [c, f[i]]))));
      e.free();
      const node = csvCli(salida, out.map((f) => salida.map((c) => f[c])));
      const lineas = [node.split('\n'), cli.split('\n')];
      const r = lineas[0].findIndex((l, i) => l !== lineas[1][i]);
      expect(r, `${tabla}: Node and the CLI differ first at line ${r + 1}:\n node ${lineas[0][r]}\n cli  ${lineas[1][r]}`).toBe(-1);
      expect(node).toBe(cli);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
