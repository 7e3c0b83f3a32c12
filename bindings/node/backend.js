'use strict';
// Which build of the C core index.js runs on. In Node it is chosen at the first require (cargarEnNode
// below); an embedder with no file system (a browser, a worker, Deno or Bun given the bytes) installs a
// WebAssembly instance first with usar() (wasm.mjs does), and index.js then runs on it. Either way
// index.js gets an object with the addon's shape (addon.cc, or wasm.js over datoteca.wasm).
// Not thread-safe across realms: one choice per module instance, made once.
let actual = null;

// node-gyp-build loads a prebuilt N-API binary from prebuilds/<platform>-<arch>/ when one matches (no
// compiler needed), else the one compiled at install from the bundled C sources (build/Release). When
// neither loads, the WebAssembly build (build-wasm/datoteca.wasm, the same C core) stands in for it, so
// an install never needs a compiler (docs/wasm.md). DATOTECA_BACKEND=native or wasm forces one.
function cargarEnNode() {
  const path = require('path');
  const root = path.join(__dirname, '..', '..');
  const want = process.env.DATOTECA_BACKEND || '';
  if (want !== '' && want !== 'native' && want !== 'wasm') {
    throw new Error(`datoteca: DATOTECA_BACKEND must be 'native' or 'wasm', got '${want}'`);
  }
  let native;
  if (want !== 'wasm') {
    try {
      return [require('node-gyp-build')(root), 'native'];
    } catch (e) {
      native = e;
      if (want === 'native') throw new Error(`datoteca: DATOTECA_BACKEND=native, but no native addon for ${process.platform}-${process.arch} loads (${e.message})`);
    }
  }
  const file = process.env.DATOTECA_WASM || path.join(root, 'build-wasm', 'datoteca.wasm');
  try {
    const wasm = require('./wasm');
    const bytes = require('fs').readFileSync(file);
    return [wasm.crearAddon(new WebAssembly.Instance(new WebAssembly.Module(bytes), wasm.imports())), 'wasm'];
  } catch (e) {
    const why = native ? `no native addon for ${process.platform}-${process.arch} (${native.message}), and ` : '';
    // Say what is missing: a package packed without its .wasm needs another tarball, not a compiler.
    const falta = e && e.code === 'ENOENT';
    const salida = process.env.DATOTECA_WASM
      ? 'DATOTECA_WASM names a datoteca.wasm that ' + (falta ? 'is not there' : `does not load (${e.message})`)
      : falta
        ? `this package has no WebAssembly build (${file} is missing: it was packed without it; npm pack builds it, see docs/wasm.md)`
        : `the WebAssembly build ${file} does not load (${e.message})`;
    const remedio = want === 'wasm' ? 'install a datoteca package that carries build-wasm/datoteca.wasm, or set DATOTECA_WASM to one'
      : 'install a package that carries build-wasm/datoteca.wasm, or reinstall with a C compiler available to build the native addon';
    throw new Error(`datoteca: ${why}${salida}; ${remedio}`);
  }
}

/** Install a backend before index.js loads: (addon-shaped object, 'native' | 'wasm'). Once only. */
function usar(addon, nombre) {
  if (actual) throw new Error(`datoteca: the ${actual[1]} build is already loaded; choose a build before the first import of datoteca`);
  actual = [addon, nombre];
}

/** The chosen [addon, name], loading Node's choice on first use. */
function elegido() {
  if (!actual) actual = cargarEnNode();
  return actual;
}

module.exports = { usar, elegido, cargado: () => actual !== null };
