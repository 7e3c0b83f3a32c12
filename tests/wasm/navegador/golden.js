// The golden dataset in a browser: replay fixtures/golden-sequence.json through the WebAssembly build
// (datoteca/wasm, the module fetched by URL) and compare the canonical form with fixtures/golden.json
// byte for byte, and the library's table digests with fixtures/fingerprint.json. The verdict is written
// into #resultado, which tests/wasm/navegador.sh reads from headless Chromium's DOM. Built by Vite; the
// fixtures are bundled as text (?raw), so the page needs no server paths.
import { cargar } from '../../../bindings/node/wasm.mjs';
import wasmUrl from '../../../build-wasm/datoteca.wasm?url';
import secuenciaTexto from '../../../fixtures/golden-sequence.json?raw';
import goldenTexto from '../../../fixtures/golden.json?raw';
import huellaTexto from '../../../fixtures/fingerprint.json?raw';

const PCG_MULT = 6364136223846793005n;
const MASK64 = (1n << 64n) - 1n;

// PCG32 steps between two saved states: the LCG's jump-ahead, as tests/node/golden_runner.mjs computes it
// (that file imports node:fs and node:crypto, which a browser has not).
function drawsBetween(before, after) {
  const st = (s) => { const v = new DataView(s.buffer, s.byteOffset, s.byteLength); return [v.getBigUint64(4, true), v.getBigUint64(12, true)]; };
  let [cur, plus] = st(before);
  const [target] = st(after);
  let mult = PCG_MULT;
  let distance = 0n;
  for (let bit = 1n; cur !== target; bit <<= 1n) {
    if ((cur ^ target) & bit) {
      cur = (cur * mult + plus) & MASK64;
      distance |= bit;
    }
    plus = ((mult + 1n) * plus) & MASK64;
    mult = (mult * mult) & MASK64;
  }
  return Number(distance);
}

// The fixture's form: integers (a call's, or a record's integer fields) as decimal strings.
const plain = (v) => {
  if (typeof v === 'number') return String(v);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'number' ? String(x) : x]));
  return v;
};

async function comprobar() {
  const m = await cargar(wasmUrl);
  if (m.backend() !== 'wasm') return `FAILED: the ${m.backend()} build is loaded`;
  const seq = JSON.parse(secuenciaTexto);
  const huella = JSON.parse(huellaTexto);
  const tablas = m.tables();
  for (let i = 0; i < Math.max(tablas.length, huella.tables.length); i++) {
    const [h, w] = [tablas[i], huella.tables[i]];
    if (!h || !w || h.name !== w.table || h.digest !== w.digest || h.rows !== w.rows) {
      return `FAILED: table ${i + 1}: the library has ${JSON.stringify(h)}, the fixture ${JSON.stringify(w)}`;
    }
  }
  const runs = seq.seeds.map((seed) => {
    const d = new m.Datoteca({ seed: BigInt(seed), hoy: seq.hoy });
    let before = d.saveState();
    const values = seq.calls.map((step) => {
      const value = plain(d.call(step.call, step.args));
      const after = d.saveState();
      const draws = drawsBetween(before, after);
      before = after;
      return { call: step.call, value, draws };
    });
    return { seed, values };
  });
  const mine = `${JSON.stringify({ data_version: m.dataVersion(), hoy: seq.hoy, runs }, null, 2)}\n`;
  if (mine !== goldenTexto) {
    let k = 0;
    while (k < mine.length && mine[k] === goldenTexto[k]) k++;
    return `FAILED: golden: the canonical form differs from fixtures/golden.json at character ${k} (line ${goldenTexto.slice(0, k).split('\n').length}): got ${JSON.stringify(mine.slice(k, k + 60))}`;
  }
  return `ok: ${tablas.length} table digests, ${runs.length} x ${seq.calls.length} golden values byte for byte (${navigator.userAgent})`;
}

comprobar().then((r) => { document.getElementById('resultado').textContent = r; },
  (e) => { document.getElementById('resultado').textContent = `FAILED: ${e && e.stack ? e.stack : e}`; });
