// A user's file: `tsc --noEmit --strict` must accept it (packaging.test.mjs runs it).
import { Datoteca, Tabla, Esquema, Enmascarador, ColumnaTexto, validarRut, inferir, inferirConNotas, type ColumnaEsquema, type OpcionesInferir, type Persona } from '../../bindings/node/index.js';

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

// Types generated from c/llamadas.toml: options in either case, values typed by call name.
const q: Persona = d.persona.persona({ edad_min: 20 });
const personas: Persona[] = d.many('persona.persona', 3, { edadMin: 30 });
const ruts: string[] = d.many('rut', 2, { tipo: 'empresa' });
const numero: number = d.call('direccion.numero');
const nombre: string = d.persona.nombre({ sexo: 'cualquiera' });
// @ts-expect-error: a misspelled call name does not type-check
d.call('persona.nombrez');
// @ts-expect-error: 'X' is not a Sexo
d.persona.nombre('X');
export { q, personas, ruts, numero, nombre };
// A persona's email and telefono are null under 14: the type says so.
const correo: string | null = d.persona.persona({ edadMin: 0, edadMax: 10 }).email;
export { correo };
// The Vitest helpers export the class as a value too (2.0)
import { Datoteca as DatotecaVitest, test as testDatoteca } from '../../bindings/node/vitest.js';
const v: Datoteca = new DatotecaVitest({ seed: 1 });
const cols = d.columnar('persona.persona', 3);
const ruts2: string[] = cols.rut;
export { v, testDatoteca, ruts2 };
const lote = new Tabla('persona.persona', { seed: 1 }).arrow(100, 0, { hilos: 1 });
const rut: string | number | null | undefined = lote.rut.at(0);
const texto = lote.email;
const bytes: Uint8Array | undefined = texto instanceof ColumnaTexto ? texto.datos : undefined;
export { rut, bytes };
// A schema from a plain object: its tables, columns, rows and DDL.
const esq = new Esquema({ tablas: { t: { filas: 2, columnas: { id: { serie: true } } } } }, { seed: 7n, hoy: '2026-01-01' });
const claves: ColumnaEsquema[] = esq.columnas('t');
const filasEsq: Record<string, string | number | null>[] = esq.filas('t', 2, 0);
const ddlEsq: string = esq.ddl('sqlite');
const primera: string = esq.orden[0];
export { claves, filasEsq, ddlEsq, primera };
// Masking rows with rules from a plain object and a key of 32 raw bytes.
const enm = new Enmascarador({ version: 1, columnas: { rut: { regla: 'rut' } } }, { clave: new Uint8Array(32), claveDePrueba: true });
const enmascaradas: Record<string, string | null>[] = enm.filas([{ rut: '12.345.678-5' }], { primera: 1 });
const salidaEnm: string[] = enm.columnas(['rut']);
export { enmascaradas, salidaEnm };
const enmArrow = enm.arrow(new Tabla('persona.persona', { seed: 1 }).arrow(5, 0, { hilos: 1 }) as unknown as Record<string, ColumnaTexto>);
const enmTexto: ColumnaTexto = enmArrow.rut;
export { enmTexto };
// A live database's document (typed only: this file is compiled, not run).
const opcionesInf: OpcionesInferir = { escala: '1/10', filasVacia: 50, muestra: 0, sinAbanico: false };
const leerDoc = (): string => inferir('sqlite:app.db', opcionesInf);
const leerNotas = (): string[] => inferirConNotas('postgresql://app@localhost/app', { esquema: 'public' }).notas;
export { leerDoc, leerNotas };
