// Write each case of tests/cross/arrow_casos.json as an Arrow IPC file, OUT/<k>.arrow, from
// Tabla.arrow() through apache-arrow. tools/arrow_cross.sh then has pyarrow read them.
//   node tests/node/arrow_ipc_runner.mjs OUT
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableToIPC } from 'apache-arrow';
import { Tabla } from '../../bindings/node/index.mjs';
import { aApacheArrow } from './apache_arrow.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { casos } = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'cross', 'arrow_casos.json'), 'utf8'));
const out = process.argv[2];
if (!out) throw new Error('usage: node arrow_ipc_runner.mjs OUT_DIR');
casos.forEach((c, k) => {
  const tabla = aApacheArrow(new Tabla(c.call, c.opciones).arrow(c.n, c.desde));
  writeFileSync(path.join(out, `${k}.arrow`), tableToIPC(tabla, 'file'));
});
