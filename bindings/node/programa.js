'use strict';
// Where the `datoteca` program is: the copy the npm package carries (prebuilds/<platform>-<arch>/programa/,
// the CMake build with its database connectors and, in lib/, the client libraries it links: written by
// tools/programa_npm.mjs at pack time), else one named by DATOTECA_CLI or found on PATH. Loads nothing
// of the library, so the package's bin can hand over to the program before the addon is loaded.
const fs = require('fs');
const path = require('path');

// The package's root, asked for only when a program is looked for: the WebAssembly build loads index.js
// (which requires this file through inferir.js) in browsers, where __dirname does not exist.
function raiz() {
  return path.join(__dirname, '..', '..');
}

function ejecutable(ruta) {
  try {
    fs.accessSync(ruta, fs.constants.X_OK);
    return fs.statSync(ruta).isFile();
  } catch {
    return false;
  }
}

// The program this package carries, with the environment it runs in (its client libraries first on
// the loader's path), or null: a source checkout, a platform without a prebuild, a package packed
// without it.
function incluido() {
  const dir = path.join(raiz(), 'prebuilds', `${process.platform}-${process.arch}`, 'programa');
  const ruta = path.join(dir, process.platform === 'win32' ? 'datoteca.exe' : 'datoteca');
  if (!ejecutable(ruta)) return null;
  const lib = path.join(dir, 'lib');
  const previo = process.env.LD_LIBRARY_PATH;
  return { ruta, env: { ...process.env, LD_LIBRARY_PATH: previo ? `${lib}${path.delimiter}${previo}` : lib } };
}

// A script rather than a program (npm's bin shims and this package's own cli.js start with #!): it runs
// the library's command line, which has no connector.
function esGuion(ruta) {
  let fd;
  try {
    fd = fs.openSync(ruta, 'r');
    const b = Buffer.alloc(2);
    return fs.readSync(fd, b, 0, 2, 0) === 2 && b.toString('latin1') === '#!';
  } catch {
    return true;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// The program inferir runs, first found: DATOTECA_CLI (set by the user, it wins), this package's own,
// then a `datoteca` on PATH that is a program rather than a script (a `make install`'s).
function paraInferir() {
  const nombrado = process.env.DATOTECA_CLI;
  if (nombrado) return { ruta: nombrado, env: process.env };
  const propio = incluido();
  if (propio) return propio;
  for (const carpeta of (process.env.PATH || '').split(path.delimiter)) {
    if (!carpeta) continue;
    const candidato = path.join(carpeta, 'datoteca');
    if (ejecutable(candidato) && !esGuion(candidato)) return { ruta: candidato, env: process.env };
  }
  return null;
}

module.exports = { incluido, paraInferir };
