// The same test files under Node (the native addon), to compare seeds and values with the browser run.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['*.test.mjs'] } });
