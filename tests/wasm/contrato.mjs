// The data contract through the WebAssembly build, in whichever runtime runs this file (Node, Deno,
// Bun): golden.json byte for byte, the fingerprint (tables, call digests, datasets, shipped schemas),
// by the same stages as tests/node/golden_runner.mjs. Refuses to pass on the native addon.
//   DATOTECA_BACKEND=wasm node tests/wasm/contrato.mjs     the package entry, WASM forced
//   node tests/wasm/contrato.mjs --esm                      the ES module entry (wasm.mjs), given bytes
import process from 'node:process';
import { readFileSync } from 'node:fs';

const runtime = globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : globalThis.Bun ? `bun ${globalThis.Bun.version}` : `node ${process.version}`;
const esm = process.argv.includes('--esm');
const entrada = esm ? 'wasm.mjs given the bytes' : 'index.mjs';
if (esm) {
  const { cargar } = await import('../../bindings/node/wasm.mjs');
  const bytes = readFileSync(process.env.DATOTECA_WASM || new URL('../../build-wasm/datoteca.wasm', import.meta.url));
  await cargar(new Uint8Array(bytes)); // bytes, as a runtime with no file system would pass them
}
const { backend } = await import('../../bindings/node/index.mjs');
const { check } = await import('../node/golden_runner.mjs');
const say = (l) => console.log(`[wasm, ${runtime}, ${entrada}] ${l}`);
if (backend() !== 'wasm') {
  say(`the ${backend()} build is loaded, not WebAssembly: run with DATOTECA_BACKEND=wasm or --esm`);
  process.exit(1);
}
process.exitCode = check(say);
