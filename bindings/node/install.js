'use strict';
// npm's install step. A prebuild that matches this platform (prebuilds/) is used as is; where none
// matches, the package's WebAssembly build (build-wasm/datoteca.wasm) is used instead of compiling, so
// an install needs no C toolchain (docs/wasm.md). --build-from-source (npm_config_build_from_source)
// still compiles the addon, and so does an install without the WebAssembly build. Everything else is
// node-gyp-build's, which this hands over to.
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..', '..');
const fromSource = process.argv.includes('--build-from-source') || process.env.npm_config_build_from_source === 'true';
const wasm = path.join(root, 'build-wasm', 'datoteca.wasm');

function found() {
  try {
    require('node-gyp-build').path(root); // throws when no prebuild or earlier build matches
    return true;
  } catch {
    return false;
  }
}

if (!fromSource && !found() && fs.existsSync(wasm)) {
  console.log(`datoteca: no prebuilt addon for ${process.platform}-${process.arch}; using the WebAssembly build (npm rebuild datoteca --build-from-source compiles one)`);
} else {
  const r = spawnSync(process.execPath, [require.resolve('node-gyp-build/bin.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  process.exitCode = r.status === null ? 1 : r.status;
}
