// The WebAssembly build as an ES module, for runtimes with no file system or no native addon: browsers
// and bundlers, workers, Deno, Bun, Node. The same API and types as the package's main entry (it is
// index.js, run on wasm.js instead of the addon):
//
//   import { cargar } from 'datoteca/wasm';
//   const { Datoteca } = await cargar(import.meta.resolve('datoteca/datoteca.wasm')); // or bytes, or a Module
//
// cargar(fuente) takes a WebAssembly.Module, the module's bytes (ArrayBuffer or a typed array), a
// Response, or a URL (string or URL, fetched); without one, the package's build-wasm/datoteca.wasm.
// It loads once: later calls return the same module (a different source then is refused).
import backend from './backend.js';
import wasm from './wasm.js';

const DEFAULT = new URL('../../build-wasm/datoteca.wasm', import.meta.url);
let cargado = null;

async function modulo(fuente) {
  if (fuente instanceof WebAssembly.Module) return fuente;
  if (fuente instanceof ArrayBuffer || ArrayBuffer.isView(fuente)) return WebAssembly.compile(fuente);
  if (typeof Response !== 'undefined' && fuente instanceof Response) return WebAssembly.compile(await fuente.arrayBuffer());
  if (typeof fuente === 'string' || fuente instanceof URL) {
    const url = new URL(fuente, DEFAULT);
    if (url.protocol === 'file:' && typeof process !== 'undefined' && process.versions && process.versions.node) {
      const { readFile } = await import('node:fs/promises'); // Node's fetch does not read file: URLs
      return WebAssembly.compile(await readFile(url));
    }
    const r = await fetch(url);
    if (!r.ok) throw new Error(`datoteca: cannot fetch ${url}: HTTP ${r.status}`);
    return WebAssembly.compile(await r.arrayBuffer());
  }
  throw new TypeError(`datoteca: cargar() takes a WebAssembly.Module, bytes, a Response or a URL, got ${fuente === null ? 'null' : typeof fuente}`);
}

/** Load the WebAssembly build and return the datoteca module (Datoteca, Tabla, Esquema, …). */
export async function cargar(fuente = DEFAULT) {
  if (cargado) return cargado;
  const instance = await WebAssembly.instantiate(await modulo(fuente), wasm.imports());
  backend.usar(wasm.crearAddon(instance), 'wasm');
  const m = await import('./index.js');
  cargado = m.default || m;
  return cargado;
}

export default cargar;
