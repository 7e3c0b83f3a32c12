// datoteca/vitest's helpers, run twice by tests/wasm/vitest_navegador.sh: in headless Chromium (the
// browser entry on the WebAssembly build) and in Node (the native addon). Each test prints its seed and
// values as `VALOR <test>=<json>`; the script requires both runs to print the same lines. The golden
// sequence is checked here against fixtures/golden.json (this file runs from build-wasm/vitest-navegador).
import { describe, expect } from 'vitest';
import { test, Datoteca, datotecaDelArchivo, baseSeed, parseSeed } from 'datoteca/vitest';
import secuencia from '../../fixtures/golden-sequence.json';
import golden from '../../fixtures/golden.json';

const ENTORNO = typeof window === 'undefined' ? 'node' : 'navegador';
const valor = (nombre, v) => console.log(`VALOR ${nombre}=${JSON.stringify(v)}`);
const archivo = datotecaDelArchivo(import.meta.url);

test('persona', ({ datoteca, task }) => {
  valor('persona', { semilla: task.meta.datotecaSeed, persona: datoteca.persona.persona(), rut: datoteca.rut() });
});

test('datotecaDelArchivo', () => {
  expect(archivo).toBeInstanceOf(Datoteca);
  valor('archivo', { base: baseSeed(), ruts: archivo.many('rut', 3) });
});

describe('alta', () => {
  test.for(['con espacio', 'ñandú(1)', "o'higgins"])('caso %s', (caso, { datoteca, task }) => {
    valor(`alta ${caso}`, { semilla: task.meta.datotecaSeed, rut: datoteca.rut(), comuna: datoteca.direccion.comuna() });
  });
});

// the fixture's form: integers (a call's, or a record's integer fields) as decimal strings
const plano = (v) => {
  if (typeof v === 'number') return String(v);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'number' ? String(x) : x]));
  return v;
};

test('the golden sequence through the helpers\' Datoteca equals fixtures/golden.json', () => {
  expect(golden.runs.map((r) => r.seed)).toEqual(secuencia.seeds);
  let n = 0;
  for (const run of golden.runs) {
    const d = new Datoteca({ seed: BigInt(run.seed), hoy: secuencia.hoy });
    secuencia.calls.forEach((paso, i) => {
      const got = plano(d.call(paso.call, paso.args));
      if (JSON.stringify(got) !== JSON.stringify(run.values[i].value)) {
        expect.fail(`[${ENTORNO}] seed ${run.seed}, call ${i} (${paso.call}): expected ${JSON.stringify(run.values[i].value)}, got ${JSON.stringify(got)}`);
      }
      n++;
    });
  }
  valor('golden', n);
});

test('Arrow text columns decode to the rows of filas()', async () => {
  const m = ENTORNO === 'node' ? await import('datoteca') : await (await import('datoteca/wasm')).cargar();
  const t = new m.Tabla('persona.persona', { seed: 7 });
  const cols = t.arrow(200);
  const filas = t.filas(200);
  expect(cols.nombres).toBeInstanceOf(m.ColumnaTexto);
  for (const c of ['rut', 'nombres', 'apellido_paterno', 'direccion']) {
    cols[c].toArray().forEach((v, i) => { if (v !== filas[i][c]) expect.fail(`[${ENTORNO}] persona.persona seed 7, row ${i}, column ${c}: expected ${JSON.stringify(filas[i][c])}, got ${JSON.stringify(v)}`); });
  }
  valor('arrow', cols.nombres.toArray().slice(0, 5));
  console.log(`BACKEND ${ENTORNO}=${m.backend()}`);
});

test.runIf(ENTORNO === 'navegador')('the page fetched one .wasm: its sha256 (the script compares it with build-wasm/datoteca.wasm)', async () => {
  // (Vite's `?import&url` entry is the JavaScript module that names the URL, not the module's bytes)
  const urls = [...new Set(performance.getEntriesByType('resource').map((e) => e.name).filter((u) => /\.wasm$/.test(u)))];
  expect(urls, 'the .wasm fetched by the page').toHaveLength(1);
  const bytes = await (await fetch(urls[0])).arrayBuffer();
  const hex = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
  console.log(`WASM ${hex} ${bytes.byteLength}`);
});

test('parseSeed', () => {
  expect(parseSeed('0x2a')).toBe('42');
  expect(() => parseSeed('x')).toThrow(/DATOTECA_SEED must be an integer/);
});
