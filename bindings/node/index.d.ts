// Types for datoteca (Node.js). Records are plain objects whose fields are strings.
export type Sexo = 'F' | 'M' | 'cualquiera';
export type TipoRut = 'persona' | 'empresa';
export type FormatoRut = 'puntos' | 'guion' | 'limpio';
export type FormatoTelefono = 'internacional' | 'e164' | 'nacional';
export type Seed = number | bigint | string;

export interface Persona {
  nombres: string; apellido_paterno: string; apellido_materno: string; nombre_completo: string;
  sexo: string; rut: string; fecha_nacimiento: string; email: string; telefono: string;
  direccion: string; comuna: string; region: string;
}
export interface Direccion {
  tipo_via: string; nombre_via: string; numero: string; depto: string; comuna: string; codigo_comuna: string;
  provincia: string; codigo_provincia: string; region: string; codigo_region: string; codigo_postal: string; linea: string;
}
export interface Banco { codigo: string; nombre: string; }
export interface Cuenta { banco: string; codigo_banco: string; tipo_cuenta: string; numero: string; rut_titular: string; }
export interface Empresa {
  razon_social: string; nombre_fantasia: string; rut: string; giro: string; direccion: string;
  comuna: string; region: string; telefono: string; email: string;
}

export interface DatotecaOptions {
  /** A non-negative safe integer, a bigint in [0, 2**64) or a string. Default 0. */
  seed?: Seed;
  /** Reference date for ages, 'YYYY-MM-DD' or a Date (UTC day). Default 2026-01-01. */
  hoy?: string | Date;
}

export class Datoteca {
  constructor(options?: DatotecaOptions);
  readonly hoy: string;
  readonly persona: {
    nombre(sexo?: Sexo): string;
    nombres(sexo?: Sexo): string;
    apellido(): string;
    nombreCompleto(sexo?: Sexo): string;
    sexo(): string;
    fechaNacimiento(edadMin?: number, edadMax?: number): string;
    email(): string;
    persona(opts?: { sexo?: Sexo; edadMin?: number; edadMax?: number }): Persona;
  };
  readonly direccion: {
    region(): string;
    comuna(region?: number): string;
    calle(): string;
    numero(): number;
    direccion(region?: number): Direccion;
  };
  readonly telefono: {
    movil(formato?: FormatoTelefono): string;
    fijo(region?: number, formato?: FormatoTelefono): string;
  };
  readonly dinero: {
    monto(min?: number, max?: number): number;
    clp(min?: number, max?: number): string;
    /** min and max in hundredths of UF. */
    uf(min?: number, max?: number): string;
    sueldo(): number;
  };
  readonly banco: {
    banco(): Banco;
    tipoCuenta(): string;
    numeroCuenta(): string;
    cuenta(): Cuenta;
  };
  readonly empresa: {
    nombre(): string;
    razonSocial(): string;
    rut(formato?: FormatoRut): string;
    giro(): string;
    empresa(): Empresa;
  };
  rut(tipo?: TipoRut, formato?: FormatoRut): string;
  /** Run any registered call by name (see calls()). */
  call(name: string, args?: Record<string, string | number>): string | number | Record<string, string>;
  /** n values of one call; identical to n single calls in the same order. */
  many(name: string, n: number, args?: Record<string, string | number>): Array<string | number | Record<string, string>>;
  nextU32(): number;
  integer(lo: bigint | number, hi: bigint | number): bigint;
  saveState(): Uint8Array;
  restoreState(state: Uint8Array): void;
  derive(label: string): Datoteca;
  /** Free the C instance now instead of at garbage collection; later calls throw an Error. */
  free(): void;
}

export function validarRut(rut: string): boolean;
export function rutDv(cuerpo: number): string;
export function formatearRut(rut: string, formato?: FormatoRut): string;
export function limpiarRut(rut: string): string;
export function formatearClp(monto: number): string;
export function formatearUf(centesimos: number): string;
export function calls(): string[];
export function version(): string;
export function dataVersion(): number;
/** One reference table: its name, its number of entries and the digest of its content (16 hex digits). */
export interface TableInfo { name: string; rows: number; digest: string; }
/** The reference tables the data is drawn from, in their fixed order, with their digests. */
export function tables(): TableInfo[];
