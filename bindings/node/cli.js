#!/usr/bin/env node
// `npx datoteca …` and the package's bin. A package packed on Linux carries the `datoteca` program that
// CMake builds, with its database connectors and their client libraries (programa.js): this runs it, so
// `datoteca inferir postgresql://…` and `--hacia` work after npm install. Without it (a source checkout,
// a platform with no prebuild) it runs the library's own command line, dt_cli_main: the same code without
// the connectors. Either way the output is byte for byte the CMake binary's. Nothing here touches
// process.stdout, which keeps file descriptor 1 as C stdio expects it.
'use strict';
const { spawnSync } = require('child_process');
const os = require('os');
const { incluido } = require('./programa.js');

const programa = incluido();
if (programa) {
  // stdin, stdout and stderr are the program's own; a death by signal N is reported as a shell does
  const r = spawnSync(programa.ruta, process.argv.slice(2), { stdio: 'inherit', env: programa.env });
  if (r.error) {
    process.stderr.write(`datoteca: cannot run ${programa.ruta}: ${r.error.message}\n`);
    process.exitCode = 2;
  } else {
    process.exitCode = r.status !== null ? r.status : 128 + (os.constants.signals[r.signal] || 0);
  }
} else {
  const { cliMain } = require('./index.js');
  process.exitCode = cliMain(process.argv.slice(2));
}
