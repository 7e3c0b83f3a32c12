// Vitest globalSetup for datoteca/vitest under Vitest's browser mode (globalSetup:
// ['datoteca/vitest/setup']). It runs in Node, where the browser cannot look: it tells the test files
// (through Vitest's provide/inject) DATOTECA_SEED and each test file's package root (the nearest
// package.json above it, found as the Node entry finds it), so vitest.navegador.mjs gives a test the
// seed and the replay command vitest.mjs gives it. Harmless under Node, whose entry looks itself.
import path from 'node:path';
import { packageRoot } from './raiz_paquete.mjs';

export default async function setup(project) {
  const { testFiles } = await project.globTestFiles();
  const raices = {};
  for (const file of testFiles) raices[path.dirname(file).split(path.sep).join('/')] = packageRoot(file).split(path.sep).join('/');
  project.provide('datotecaNavegador', {
    semilla: process.env.DATOTECA_SEED ?? '',
    raiz: project.config.root.split(path.sep).join('/'),
    raices,
  });
}
