// Packaging as users meet it: types, npm pack into an empty directory, the Vitest helpers.
import { expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Datoteca } from '../../bindings/node/index.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const env = { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir || '/usr' };

test('tsc --noEmit --strict accepts a user file', () => {
  const r = spawnSync(path.join(BIN, 'tsc'), ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--target', 'es2020', path.join(ROOT, 'tests', 'node', 'typing_sample.ts')], { encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
}, 60000);

test('npm pack installs into an empty directory and works there', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'datoteca-pack-'));
  try {
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, env, encoding: 'utf8' });
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    const listing = execFileSync('tar', ['tzf', path.join(dir, tgz)], { encoding: 'utf8' });
    expect(listing).toContain('package/c/src/nucleo/instancia.c');
    expect(listing).toContain('package/c/include/datoteca_llamadas.gen.h');
    expect(listing).toContain('package/cli/cli.c');
    expect(listing).toContain('package/cli/cli_interno.h');
    expect(listing).toContain('package/binding.gyp');
    expect(listing).toContain('package/LICENSE');
    expect(listing).toContain('package/build-wasm/datoteca.wasm'); // prepack builds it: never packed without it
    const app = path.join(dir, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), '{"name":"app","private":true}');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', path.join(dir, tgz)], { cwd: app, env, stdio: 'pipe' });
    const out = execFileSync(process.execPath, ['-e',
      "const {Datoteca}=require('datoteca'); console.log(new Datoteca({seed:42}).rut()); import('datoteca').then(m=>console.log(m.validarRut('12.345.678-5'))); console.log(require.resolve('datoteca/package.json') ? 'ok' : '')"],
    { cwd: app, encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual([new Datoteca({ seed: 42 }).rut(), 'ok', 'true']);
    // the package's bin is the library's own command line: the CMake binary's bytes
    const cmake = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');
    for (const args of [['rut', '--seed', '42', '-n', '5'], ['tabla', 'persona', '-n', '3', '--format', 'csv'], ['--help']]) {
      const a = spawnSync(cmake, args);
      const b = spawnSync('npx', ['--no-install', 'datoteca', ...args], { cwd: app, env });
      expect(b.status, String(b.stderr)).toBe(a.status);
      expect(Buffer.compare(a.stdout, b.stdout), args.join(' ')).toBe(0);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 240000);

// A fresh clone has no build-c/: npm pack builds the program it packs (prepack runs tools/programa_cmake.sh)
// instead of stopping at "build-c/datoteca is missing". The sources are copied as a clone has them (no
// build*/, prebuilds/ or node_modules/; this checkout's node_modules linked, as `npm install` would give
// them), and packed with DATOTECA_CLI unset, as in a user's shell.
test('npm pack in a fresh clone (no build-c) builds and packs the datoteca program', () => {
  if (process.platform !== 'linux') return; // elsewhere nothing is packed (tools/programa_npm.mjs)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'datoteca-clon-'));
  try {
    const clon = path.join(dir, 'clon');
    const fuera = /^(build[^/]*|prebuilds|node_modules|\.venv|\.git)(\/|$)|^bindings\/node\/build(\/|$)|__pycache__/;
    cpSync(ROOT, clon, { recursive: true, verbatimSymlinks: true, filter: (src) => !fuera.test(path.relative(ROOT, src)) });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(clon, 'node_modules'));
    const { DATOTECA_CLI, ...sinCli } = env;
    const p = spawnSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: clon, env: sinCli, encoding: 'utf8' });
    expect(p.status, `npm pack without build-c failed: ${(p.stdout + p.stderr).slice(-3000)}`).toBe(0);
    const tgz = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz')));
    expect(execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' }).split('\n')).toContain('package/prebuilds/linux-x64/programa/datoteca');
    expect(existsSync(path.join(clon, 'build-c', 'datoteca')), 'prepack did not build build-c/datoteca in the clone').toBe(true);
    // the packed program runs, with the libraries packed beside it, and prints what the CMake binary prints
    execFileSync('tar', ['xzf', tgz, '-C', dir]);
    const programa = path.join(dir, 'package', 'prebuilds', 'linux-x64', 'programa');
    const cmake = DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');
    const args = ['rut', '--seed', '42', '-n', '5'];
    const a = spawnSync(cmake, args, { encoding: 'utf8' });
    const b = spawnSync(path.join(programa, 'datoteca'), args, { encoding: 'utf8', env: { ...sinCli, LD_LIBRARY_PATH: path.join(programa, 'lib') } });
    expect(b.status, String(b.stderr)).toBe(0);
    expect(b.stdout, 'the packed program prints other RUTs than the CMake binary').toBe(a.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 600000);

test('Vitest helpers: per-test seeds stable across selection, seed shown on failure', () => {
  const dir = path.join(ROOT, 'tests', 'node', '.tmp-vitest');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, 'x.test.mjs'), `
import { test } from '../../../bindings/node/vitest.mjs';
test('a', ({ datoteca }) => { console.log('A=' + datoteca.rut()); });
test('b', ({ datoteca }) => { console.log('B=' + datoteca.rut()); });
test('falla', ({ datoteca }) => { if (datoteca.rut() !== 'no') throw new Error('distinto'); });
`);
    const run = (extra, seedEnv) => spawnSync(path.join(BIN, 'vitest'), ['run', '--root', dir, '--reporter=verbose', ...extra],
      { encoding: 'utf8', env: { ...env, DATOTECA_SEED: seedEnv ?? '', CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' } });
    const values = (r) => Object.fromEntries([...(r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, '').matchAll(/\b([AB])=(\d[\d.]*-[\dK])/g)].map((m) => [m[1], m[2]]));
    const full = run([]);
    const onlyB = run(['-t', '^b$']);
    const other = run([], '5');
    expect(values(full).B, full.stdout + full.stderr).toBeDefined();
    expect(values(onlyB).B).toBe(values(full).B);
    expect(values(full).A).not.toBe(values(full).B);
    expect(values(other).A).not.toBe(values(full).A);
    expect(full.status).not.toBe(0);
    expect(full.stdout + full.stderr).toContain("datoteca seed: '0:tests/node/.tmp-vitest/x.test.mjs:falla' (replay with DATOTECA_SEED=0)");
    // the base seed can also come from Vitest's provide(); the environment variable wins
    writeFileSync(path.join(dir, 'vitest.config.mjs'), "export default { test: { provide: { datotecaSeed: '5' } } };\n");
    const provided = run([]);
    expect(values(provided)).toEqual(values(other));
    expect(provided.stdout + provided.stderr).toContain("datoteca seed: '5:tests/node/.tmp-vitest/x.test.mjs:falla' (replay with DATOTECA_SEED=5)");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120000);

test('Vitest helpers: the same data from any --root or directory, the seed in the error under --silent and in JUnit, replay through bash', () => {
  const base = path.join(ROOT, 'tests', 'node', '.tmp-vitest2');
  const dir = path.join(base, 'sub');
  rmSync(base, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(base, 'package.json'), '{"name":"proyecto-de-prueba","private":true,"type":"module"}');
    writeFileSync(path.join(dir, 'alta.test.mjs'), `
import { test, Datoteca, datotecaDelArchivo } from '${path.join(ROOT, 'bindings', 'node', 'vitest.mjs')}';
const archivo = datotecaDelArchivo(import.meta.url);
test.for(['con espacio', 'ñandú(1)', 'a[b]'])('alta %s', (caso, { datoteca }) => {
  console.log('VALOR=' + datoteca.rut() + '|' + caso + '|' + (archivo instanceof Datoteca));
  throw new Error('falla a propósito');
});
`);
    const venv = { ...env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', DATOTECA_SEED: '0x2a' };
    const vitest = path.join(BIN, 'vitest');
    const valores = (r) => [...(r.stdout + r.stderr).matchAll(/VALOR=(\d[\d.]*-[\dK])\|([^|\n]+)\|true/g)].map((m) => [m[2], m[1]]).sort();
    const desdeBase = spawnSync(vitest, ['run', '--root', base], { cwd: base, encoding: 'utf8', env: venv });
    const desdeSub = spawnSync(vitest, ['run', '--root', dir], { cwd: dir, encoding: 'utf8', env: venv });
    const desdeFuera = spawnSync(vitest, ['run', '--root', base, path.join(dir, 'alta.test.mjs')], { cwd: os.tmpdir(), encoding: 'utf8', env: venv });
    expect(valores(desdeBase), desdeBase.stdout + desdeBase.stderr).toHaveLength(3);
    expect(valores(desdeSub)).toEqual(valores(desdeBase));
    expect(valores(desdeFuera)).toEqual(valores(desdeBase));
    // --silent hides console output, not the error: the seed and the command are in the message
    const silent = spawnSync(vitest, ['run', '--root', base, '--silent', '--reporter=junit'], { cwd: base, encoding: 'utf8', env: venv });
    const texto = (silent.stdout + silent.stderr).replaceAll('&apos;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>').replaceAll('&#xA;', '\n').replaceAll('&#10;', '\n').replaceAll('&amp;', '&');
    expect(texto).toContain("datoteca seed: '42:sub/alta.test.mjs:alta con espacio'");
    const comandos = [...new Set([...texto.matchAll(/replay with: (cd [^\n"]*)/g)].map((m) => m[1]))];
    expect(comandos.length, texto).toBeGreaterThanOrEqual(3);
    const antes = Object.fromEntries(valores(desdeBase));
    for (const comando of comandos.slice(0, 3)) {
      const r = spawnSync('bash', ['-c', comando], { cwd: '/', encoding: 'utf8', env: { ...venv, DATOTECA_SEED: '', PATH: `${BIN}:${process.env.PATH}` } });
      const v = valores(r);
      expect(v, comando + r.stdout + r.stderr).toHaveLength(1);
      expect(v[0][1]).toBe(antes[v[0][0]]);
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}, 240000);

// The npm tarball carries an N-API prebuild (one binary for every Node with N-API 8, so any supported
// version loads it): installed where there is no compiler, no Node headers and no npm_config_nodedir,
// it loads without building; asked to build from source, it compiles the bundled C sources.
test('npm tarball: the prebuild loads with no compiler or headers; --build-from-source compiles', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'datoteca-prebuild-'));
  try {
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, env, encoding: 'utf8' });
    const tgz = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz')));
    expect(execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' })).toMatch(/package\/prebuilds\/linux-x64\/[^\n]*\.node/);
    // a PATH with node and sh alone (npm runs scripts with sh): no cc, c++, make, python; HOME empty: no
    // cached headers
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    execFileSync('ln', ['-s', process.execPath, path.join(bin, 'node')]);
    execFileSync('ln', ['-s', '/bin/sh', path.join(bin, 'sh')]);
    const npmCli = execFileSync('readlink', ['-f', execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim()], { encoding: 'utf8' }).trim();
    const home = path.join(dir, 'home');
    mkdirSync(home);
    const bare = { PATH: bin, HOME: home, npm_config_cache: path.join(dir, 'cache') };
    const app = path.join(dir, 'app');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), '{"name":"app","private":true}');
    const inst = spawnSync(process.execPath, [npmCli, 'install', '--no-audit', '--no-fund', tgz], { cwd: app, env: bare, encoding: 'utf8' });
    expect(inst.status, inst.stdout + inst.stderr).toBe(0);
    const uso = "const d=require('datoteca'); console.log(new d.Datoteca({seed:42}).rut()); console.log(require('node-gyp-build').path(require('path').dirname(require.resolve('datoteca/package.json'))))";
    const out = spawnSync(process.execPath, ['-e', uso], { cwd: app, env: bare, encoding: 'utf8' });
    const [rut, cargado] = out.stdout.trim().split('\n');
    expect(rut, out.stderr).toBe(new Datoteca({ seed: 42 }).rut());
    expect(cargado).toContain(path.join('prebuilds', 'linux-x64'));
    // the fallback: build from the bundled sources (with the machine's compiler and headers)
    const app2 = path.join(dir, 'app2');
    mkdirSync(app2);
    writeFileSync(path.join(app2, 'package.json'), '{"name":"app2","private":true}');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--build-from-source', tgz], { cwd: app2, env, stdio: 'pipe' });
    const out2 = execFileSync(process.execPath, ['-e', uso], { cwd: app2, encoding: 'utf8' }).trim().split('\n');
    expect(out2[0]).toBe(rut);
    expect(out2[1]).toContain(path.join('build', 'Release'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 300000);
