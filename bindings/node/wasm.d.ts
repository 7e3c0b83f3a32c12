// The WebAssembly build as an ES module (wasm.mjs): cargar() resolves to the package's main module.
import type * as datoteca from './index';

/** A WebAssembly.Module, the module's bytes, a Response, or a URL of build-wasm/datoteca.wasm. */
export type FuenteWasm = WebAssembly.Module | ArrayBuffer | ArrayBufferView | Response | URL | string;

/** Load the WebAssembly build once and return the datoteca module (the same API and types as 'datoteca'). */
export function cargar(fuente?: FuenteWasm): Promise<typeof datoteca>;
export default cargar;
