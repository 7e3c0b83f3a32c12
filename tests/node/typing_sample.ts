// A user's file: `tsc --noEmit --strict` must accept it (packaging.test.mjs runs it).
import { Datoteca, validarRut, type Persona } from '../../bindings/node/index.js';

const d = new Datoteca({ seed: 42n, hoy: '2025-06-01' });
const p: Persona = d.persona.persona({ sexo: 'F', edadMin: 20, edadMax: 30 });
const ok: boolean = validarRut(p.rut);
const comuna: string = d.direccion.comuna(13);
const monto: number = d.dinero.monto(0, 100);
const estado: Uint8Array = d.saveState();
const hijo: Datoteca = d.derive('facturas');
const n: bigint = hijo.integer(1, 6);
const linea: string = d.direccion.direccion().linea;
export { ok, comuna, monto, estado, n, linea };
