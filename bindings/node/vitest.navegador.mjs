// datoteca/vitest under Vitest's browser mode (the package's "browser" condition): the same `test`,
// `datotecaDelArchivo`, seeds, failure note and replay command as the Node entry (vitest_comun.mjs is
// both), on the WebAssembly build, which it loads before the tests run. A browser has no file system and
// no environment: DATOTECA_SEED and each test file's package root come from the globalSetup
// datoteca/vitest/setup (vitest_setup.mjs), run in Node, through Vitest's inject; without it the
// helpers refuse, naming it.
import { test as base, inject } from 'vitest';
import { cargar } from './wasm.mjs';
import wasmUrl from '../../build-wasm/datoteca.wasm?url';
import { parseSeed, semillaBase, relativo, extender, semillaDeArchivo } from './vitest_comun.mjs';

const m = await cargar(wasmUrl);
export const { Datoteca } = m;
export { parseSeed };

function contexto() {
  const c = inject('datotecaNavegador');
  if (!c) throw new Error("datoteca/vitest in a browser needs its globalSetup: add globalSetup: ['datoteca/vitest/setup'] to the Vitest config");
  return c;
}

export function baseSeed() {
  return semillaBase(contexto().semilla, inject);
}

/** The nearest directory above `file` with a package.json, as the globalSetup found it in Node. */
export function packageRoot(file) {
  const dir = file.replaceAll('\\', '/').replace(/\/[^/]*$/, '');
  const root = contexto().raices[dir];
  if (root === undefined) throw new Error(`datoteca/vitest: the globalSetup found no package root for ${file} (is it one of the project's test files?)`);
  return root;
}

function lugar(task) {
  const file = task.file && task.file.filepath ? task.file.filepath : '';
  if (!file) return { root: contexto().raiz, rel: '' };
  const root = packageRoot(file);
  return { root, rel: relativo(root, file) };
}

export const test = extender(base, { lugar, base: baseSeed, crear: (seed) => new Datoteca({ seed }) });

/**
 * One Datoteca for a whole test file, seeded as under Node: `datotecaDelArchivo(import.meta.url)`.
 * A test file's import.meta.url in the browser is the dev server's: the file's absolute path (as
 * Vitest's browser mode serves test files), '/@fs/' and that path, or its path under the Vite root.
 */
export function datotecaDelArchivo(url) {
  let file = url;
  if (/^[a-z]+:/i.test(url)) {
    const u = new URL(url);
    const p = decodeURIComponent(u.pathname);
    const absoluta = p.startsWith('/@fs/') ? p.slice(4) : p;
    const conocida = (f) => contexto().raices[f.replace(/\/[^/]*$/, '')] !== undefined;
    file = u.protocol === 'file:' || conocida(absoluta) ? absoluta : `${contexto().raiz}${p}`;
  }
  return new Datoteca({ seed: semillaDeArchivo(baseSeed(), relativo(packageRoot(file), file)) });
}
