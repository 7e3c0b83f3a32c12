// The recipe docs/scale.md gives: the columns of Tabla.arrow() as an apache-arrow Table, without a
// copy, with the dataset's schema (names, types, which columns may be null). Shared by arrow.test.mjs
// and the cross-language check (arrow_ipc_runner.mjs).
import { DateDay, Field, Int64, RecordBatch, Schema, Struct, Table, Utf8, makeData } from 'apache-arrow';

export function aApacheArrow(columnas) {
  const campos = [];
  const hijos = [];
  let length = 0;
  for (const [nombre, c] of Object.entries(columnas)) {
    const type = c.tipo === 'utf8' ? new Utf8() : c.tipo === 'date32' ? new DateDay() : new Int64();
    const comun = { type, length: c.length, nullCount: c.nulos, nullBitmap: c.validez };
    campos.push(new Field(nombre, type, c.nulable));
    hijos.push(makeData(c.tipo === 'utf8' ? { ...comun, valueOffsets: c.offsets, data: c.datos } : { ...comun, data: c.valores }));
    length = c.length;
  }
  const lote = makeData({ type: new Struct(campos), length, nullCount: 0, children: hijos });
  return new Table(new RecordBatch(new Schema(campos), lote));
}
