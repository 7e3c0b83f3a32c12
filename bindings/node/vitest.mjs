// Vitest helpers: `test` with a `datoteca` fixture seeded from a base seed, the test file's path
// relative to its package (the nearest package.json above the file) and the test's full name, so a
// test's data depends neither on which tests ran before it nor on Vitest's --root or the directory
// it was started from. Base seed: DATOTECA_SEED (decimal or 0x-hex), else a value given with
// Vitest's provide('datotecaSeed', …), else 0. A failing test's error message itself carries the seed
// and a command that replays it, so it shows with --silent and in the JUnit and JSON reporters.
// This is the Node entry; under Vitest's browser mode the package's "browser" condition gives
// vitest.navegador.mjs instead, which seeds the same tests the same way (vitest_comun.mjs is both).
import { test as base, inject } from 'vitest';
import { Datoteca } from './index.mjs';
import { packageRoot } from './raiz_paquete.mjs';
import { parseSeed, semillaBase, relativo, extender, semillaDeArchivo } from './vitest_comun.mjs';

export { parseSeed, packageRoot };

export function baseSeed() {
  return semillaBase(process.env.DATOTECA_SEED, inject);
}

function lugar(task) {
  const file = task.file && task.file.filepath ? task.file.filepath : '';
  const root = file ? packageRoot(file) : process.cwd();
  return { root, rel: file ? relativo(root, file) : '' };
}

export const test = extender(base, { lugar, base: baseSeed, crear: (seed) => new Datoteca({ seed }) });

/**
 * One Datoteca for a whole test file (module scope), seeded by the base seed and the file's path in
 * its package: `const d = datotecaDelArchivo(import.meta.url);` at the top of the file.
 */
export function datotecaDelArchivo(url) {
  const file = url.startsWith('file:') ? new URL(url).pathname : url;
  return new Datoteca({ seed: semillaDeArchivo(baseSeed(), relativo(packageRoot(file), file)) });
}

export { Datoteca };
