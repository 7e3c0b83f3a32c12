// npm's prepack, after prebuildify: puts the `datoteca` program that CMake builds (with its database
// connectors) into prebuilds/<platform>-<arch>/programa/, and every shared library it loads that a Linux
// machine cannot be assumed to have into programa/lib/ (bindings/node/programa.js runs it with that
// directory first on LD_LIBRARY_PATH), with each library's Debian copyright file in programa/licencias/.
// "Assumed" is auditwheel's manylinux_2_17 whitelist (its policy/manylinux-policy.json): glibc's own
// libraries, libgcc_s, libstdc++, libatomic, libz and libexpat, as the pip wheel bundles them.
// Linux only: elsewhere the package's bin runs the library's own command line (no connectors).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SISTEMA = new Set(['libatomic.so.1', 'libgcc_s.so.1', 'libstdc++.so.6', 'libm.so.6', 'libanl.so.1', 'libdl.so.2', 'librt.so.1',
  'libc.so.6', 'libnsl.so.1', 'libutil.so.1', 'libpthread.so.0', 'libresolv.so.2', 'libexpat.so.1', 'libz.so.1']);
const CLIENTES = ['libpq.so', 'libmariadb.so', 'libsqlite3.so']; // a program without one of them is not packed

if (process.platform !== 'linux') {
  console.log(`datoteca: prepack: no program for ${process.platform} (the bin runs the library's command line)`);
  process.exit(0);
}
const fuente = process.env.DATOTECA_CLI || path.join(ROOT, 'build-c', 'datoteca');
if (!existsSync(fuente)) {
  console.error(process.env.DATOTECA_CLI
    ? `datoteca: prepack: DATOTECA_CLI=${fuente} is missing: build it, or unset DATOTECA_CLI and npm pack builds build-c/datoteca`
    : `datoteca: prepack: ${fuente} is missing: tools/programa_cmake.sh builds it (npm pack runs it first; it links libpq, libmariadb, libsqlite3)`);
  process.exit(1);
}
// ldd lists every library the loader maps, transitively: "name => /path (0x...)"
const libs = [];
for (const linea of execFileSync('ldd', [fuente], { encoding: 'utf8' }).split('\n')) {
  const m = /^\s*(\S+) => (\/\S+) \(0x/.exec(linea);
  if (m) libs.push({ nombre: m[1], ruta: m[2] });
  else if (/not found/.test(linea)) {
    console.error(`datoteca: prepack: ${fuente} needs a library that is not found: ${linea.trim()}`);
    process.exit(1);
  }
}
for (const c of CLIENTES) {
  if (!libs.some((l) => l.nombre.startsWith(c))) {
    console.error(`datoteca: prepack: ${fuente} does not link ${c} (its connector was not built): install the client's -dev package and rebuild`);
    process.exit(1);
  }
}
const destino = path.join(ROOT, 'prebuilds', `linux-${process.arch}`, 'programa');
rmSync(destino, { recursive: true, force: true });
mkdirSync(path.join(destino, 'lib'), { recursive: true });
mkdirSync(path.join(destino, 'licencias'), { recursive: true });
copyFileSync(fuente, path.join(destino, 'datoteca'));
chmodSync(path.join(destino, 'datoteca'), 0o755);
execFileSync('strip', [path.join(destino, 'datoteca')]);
const paquetes = new Set();
for (const l of libs.filter((x) => !SISTEMA.has(x.nombre))) {
  copyFileSync(l.ruta, path.join(destino, 'lib', l.nombre)); // the file the symlink names, under the soname
  // Debian: the package that owns the file, whose copyright file carries the license texts. /lib is a
  // link to /usr/lib, and dpkg knows each file under the one its package installed it to.
  const real = realpathSync(l.ruta);
  const dueno = [real, real.replace(/^\/usr\//, '/'), l.ruta].map((r) => {
    try {
      return execFileSync('dpkg', ['-S', r], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(':')[0];
    } catch {
      return null;
    }
  }).find((x) => x);
  if (dueno) paquetes.add(dueno);
  else console.log(`datoteca: prepack: ${l.nombre}: no Debian package owns ${l.ruta}; its license is not copied`);
}
for (const p of paquetes) {
  const copyright = `/usr/share/doc/${p}/copyright`;
  if (existsSync(copyright)) copyFileSync(copyright, path.join(destino, 'licencias', `${p}.copyright`));
}
const copiadas = libs.filter((x) => !SISTEMA.has(x.nombre)).length;
console.log(`datoteca: prepack: ${path.relative(ROOT, destino)}: the program, ${copiadas} libraries, ${paquetes.size} license files`);
