// Fails on purpose: tests/wasm/vitest_navegador.sh runs it alone and requires the seed and the replay
// command in the output, then runs that command and requires the same value.
import { test } from 'datoteca/vitest';

test('falla a propósito', ({ datoteca }) => {
  const rut = datoteca.rut();
  console.log(`VALOR falla=${JSON.stringify(rut)}`);
  throw new Error(`falla a propósito con ${rut}`);
});
