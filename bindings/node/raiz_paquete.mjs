// Node only: a test file's package root, the nearest directory above it with a package.json (the
// file's own directory when none). Shared by the Node entry of the Vitest helpers (vitest.mjs) and
// their globalSetup (vitest_setup.mjs), which must not import Vitest's test API.
import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOTS = new Map();
/** The nearest directory above `file` with a package.json, or the file's own directory. */
export function packageRoot(file) {
  const start = path.dirname(file);
  if (ROOTS.has(start)) return ROOTS.get(start);
  let dir = start;
  let found = start;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) {
      found = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  ROOTS.set(start, found);
  return found;
}
