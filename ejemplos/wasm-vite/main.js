// A page that generates people in the browser with the WebAssembly build (docs/wasm.md):
//   make wasm && npx vite build ejemplos/wasm-vite   (or npx vite ejemplos/wasm-vite for a dev server)
// In an app that installed the package, the imports are 'datoteca/wasm' and
// 'datoteca/datoteca.wasm?url'.
import { cargar } from '../../bindings/node/wasm.mjs';
import wasmUrl from '../../build-wasm/datoteca.wasm?url';

const { Datoteca, backend } = await cargar(wasmUrl);
const d = new Datoteca({ seed: 42 });
const filas = d.many('persona.persona', 10).map((p) => {
  const tr = document.createElement('tr');
  for (const v of [p.nombre_completo, p.rut, p.comuna]) {
    const td = document.createElement('td');
    td.textContent = v;
    tr.append(td);
  }
  return tr;
});
document.querySelector('#personas tbody').append(...filas);
document.getElementById('estado').textContent = `datoteca ${backend()}: ${filas.length} personas`;
