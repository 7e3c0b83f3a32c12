#!/usr/bin/env node
// `npx datoteca …` and the package's bin: the library's own command line (dt_cli_main), the same code
// as the CMake binary, so the output is byte for byte the same. Nothing here touches process.stdout,
// which keeps file descriptor 1 as C stdio expects it.
'use strict';
const { cliMain } = require('./index.js');

process.exitCode = cliMain(process.argv.slice(2));
