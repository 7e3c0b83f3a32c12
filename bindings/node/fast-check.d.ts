import type { Arbitrary } from 'fast-check';
import type { CallArgs, CallValues } from './index';

type Args<K extends keyof CallArgs> = { [P in keyof CallArgs[K]]?: CallArgs[K][P] | Arbitrary<CallArgs[K][P]> };
/** Values of any call by name (a seed drawn by fast-check, a fresh Datoteca per value). */
export declare function llamada<K extends keyof CallValues>(name: K, args?: Args<K>): Arbitrary<CallValues[K]>;
export declare const ruts: (args?: Args<'rut'>) => Arbitrary<CallValues['rut']>;
export declare const personas: (args?: Args<'persona.persona'>) => Arbitrary<CallValues['persona.persona']>;
export declare const nombres: (args?: Args<'persona.nombre_completo'>) => Arbitrary<string>;
export declare const emails: (args?: Args<'persona.email'>) => Arbitrary<string>;
export declare const fechasNacimiento: (args?: Args<'persona.fecha_nacimiento'>) => Arbitrary<string>;
export declare const direcciones: (args?: Args<'direccion.direccion'>) => Arbitrary<CallValues['direccion.direccion']>;
export declare const comunas: (args?: Args<'direccion.comuna'>) => Arbitrary<string>;
export declare const regiones: (args?: Args<'direccion.region'>) => Arbitrary<string>;
export declare const moviles: (args?: Args<'telefono.movil'>) => Arbitrary<string>;
export declare const fijos: (args?: Args<'telefono.fijo'>) => Arbitrary<string>;
export declare const montos: (args?: Args<'dinero.monto'>) => Arbitrary<number>;
export declare const sueldos: (args?: Args<'dinero.sueldo'>) => Arbitrary<number>;
export declare const bancos: (args?: Args<'banco.banco'>) => Arbitrary<CallValues['banco.banco']>;
export declare const cuentas: (args?: Args<'banco.cuenta'>) => Arbitrary<CallValues['banco.cuenta']>;
export declare const empresas: (args?: Args<'empresa.empresa'>) => Arbitrary<CallValues['empresa.empresa']>;
export declare const razonesSociales: (args?: Args<'empresa.razon_social'>) => Arbitrary<string>;
export declare const patentes: (args?: Args<'vehiculo.patente'>) => Arbitrary<string>;
export declare const vehiculos: (args?: Args<'vehiculo.vehiculo'>) => Arbitrary<CallValues['vehiculo.vehiculo']>;
export declare const previsiones: (args?: Args<'prevision.prevision'>) => Arbitrary<CallValues['prevision.prevision']>;
export declare const dtes: (args?: Args<'tributario.dte'>) => Arbitrary<CallValues['tributario.dte']>;
export declare const fechas: (args?: Args<'fecha.fecha'>) => Arbitrary<string>;
export declare const fechasHoras: (args?: Args<'fecha.fecha_hora'>) => Arbitrary<string>;
