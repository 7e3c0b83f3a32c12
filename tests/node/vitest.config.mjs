// Vitest's settings for tests/node (found through --root tests/node).
// No test here asserts a duration (docs/performance.md measures speed); the timeout only catches a
// hang. Vitest's default of 5 s failed a 100,000-value validator test on a loaded two-core machine,
// so a test is given 10 minutes, as long as it takes to finish where a hang is the only other end.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
