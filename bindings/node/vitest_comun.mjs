// The pure part of the Vitest helpers, shared by the Node entry (vitest.mjs) and the browser entry
// (vitest.navegador.mjs) so a test gets the same seed, the same failure note and the same replay command
// under both: no file system, no process, no imports. Where the package root comes from is each entry's
// business (Node looks for package.json; a browser is told by the globalSetup in vitest_setup.mjs).

/** A seed as DATOTECA_SEED takes it: decimal or 0x-hex, in [0, 2**64); returned in decimal. */
export function parseSeed(text, what = 'DATOTECA_SEED') {
  const t = String(text).trim();
  if (!/^(0[xX][0-9a-fA-F]+|\d+)$/.test(t) || BigInt(t) >= 1n << 64n) {
    throw new RangeError(`${what} must be an integer in [0, 2**64) (decimal or 0x-hexadecimal), got '${text}'`);
  }
  return BigInt(t).toString();
}

/**
 * The base seed from DATOTECA_SEED's text (`env`, undefined or '' when unset), else from
 * provide('datotecaSeed', …) as `inject` returns it, else '0'.
 */
export function semillaBase(env, inject) {
  if (env !== undefined && env !== null && env !== '') return parseSeed(env);
  let provided;
  try {
    provided = inject('datotecaSeed');
  } catch {
    provided = undefined;
  }
  return provided === undefined ? '0' : parseSeed(provided, "provide('datotecaSeed')");
}

/** `file` relative to `root` (an ancestor directory of it), with '/' whatever the platform's separator. */
export function relativo(root, file) {
  const r = root.replaceAll('\\', '/').replace(/\/+$/, '');
  const f = file.replaceAll('\\', '/');
  return f.startsWith(`${r}/`) ? f.slice(r.length + 1) : f;
}

/** The names of a task's suites and its own, outermost first. */
export function nombreCompleto(task) {
  const parts = [];
  for (let t = task; t; t = t.suite) if (t.name) parts.unshift(t.name);
  return parts;
}

const quote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;
const escapeRegex = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A test's seed: the base seed, its file's path in its package and its full name. */
export const semillaDeTest = (base, rel, names) => `${base}:${rel}:${names.join(' > ')}`;
/** datotecaDelArchivo's seed: the base seed and the file's path in its package. */
export const semillaDeArchivo = (base, rel) => `${base}:archivo:${rel}`;
/** A shell command that reruns one test with its seed, from any directory. */
export const comandoReplay = (root, base, rel, names) =>
  `cd ${quote(root)} && DATOTECA_SEED=${base} npx vitest run ${quote(rel)} -t ${quote(`^${escapeRegex(names.join(' '))}$`)}`;

/**
 * Vitest's `test` extended with a `datoteca` fixture. `lugar(task)` gives { root, rel } of the task's
 * file, `base()` the base seed, `crear(seed)` a Datoteca: the entries differ in these three only.
 */
export function extender(test, { lugar, base, crear }) {
  return test.extend({
    // eslint-disable-next-line no-empty-pattern
    datoteca: async ({ task, onTestFailed }, use) => {
      const { root, rel } = lugar(task);
      const names = nombreCompleto(task);
      const b = base();
      const seed = semillaDeTest(b, rel, names);
      const replay = comandoReplay(root, b, rel, names);
      onTestFailed((arg) => {
        const result = (arg && arg.task && arg.task.result) || (arg && arg.result) || arg;
        const note = `\ndatoteca seed: '${seed}'\nreplay with: ${replay}`;
        for (const e of (result && result.errors) || []) if (typeof e.message === 'string' && !e.message.includes(note)) e.message += note;
        // also as before, for the terminal
        console.error(`datoteca seed: '${seed}' (replay with DATOTECA_SEED=${b})`);
      });
      task.meta.datotecaSeed = seed;
      await use(crear(seed));
    },
  });
}
