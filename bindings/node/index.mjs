// ESM entry: the same module as index.js.
import { createRequire } from 'module';

const require = createRequire(import.meta.url);
const m = require('./index.js');

export const { Datoteca, Tabla, ColumnaArrow, ColumnaTexto, ColumnaEntero, ColumnaFecha, tabla, ddl, validarRut, rutDv, formatearRut, limpiarRut, formatearClp, formatearUf, validarPatente, patenteDv, formatearPatente, cliMain, calls, version, dataVersion, tables } = m;
export default m;
