import type { TestProject } from 'vitest/node';

/**
 * Vitest globalSetup for datoteca/vitest under the browser mode (globalSetup: ['datoteca/vitest/setup']):
 * provides DATOTECA_SEED and each test file's package root to the browser entry. Harmless under Node.
 */
export default function setup(project: TestProject): Promise<void>;
