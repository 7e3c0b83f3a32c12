'use strict';
// Columns in the Arrow columnar layout, as Tabla.arrow() returns them: the buffers C filled (copied
// once into memory V8 owns), read value by value only when asked. No string exists until at(),
// the iterator or toArray() makes it, which is what makes this path cheaper than arrays of strings.

/** Like Array.prototype.at: a negative index counts from the end; outside the column, -1. */
function position(i, length) {
  if (typeof i !== 'number' || !Number.isInteger(i)) throw new TypeError(`index must be an integer, got ${i === null ? 'null' : typeof i}`);
  const k = i < 0 ? length + i : i;
  return k >= 0 && k < length ? k : -1;
}

class ColumnaArrow {
  /**
   * @param {{nombre: string, nulable: boolean}} columna the dataset's description of the column
   * @param {number} length rows
   * @param {number} nulos how many are null
   * @param {Uint8Array | null} validez Arrow validity bitmap (bit i set: row i has a value); null when none is null
   * @param {object} buffers the type's own buffers (offsets and datos, or valores)
   */
  constructor(columna, length, nulos, validez, buffers) {
    this.nombre = columna.nombre;
    this.tipo = new.target.tipo;
    this.nulable = columna.nulable; // as the schema declares it: a null may occur (nulos counts this batch's)
    this.length = length;
    this.nulos = nulos;
    this.validez = nulos > 0 ? validez : null;
    Object.assign(this, buffers);
    Object.freeze(this);
  }

  /** True when row k (0 <= k < length) has a value. */
  valida(k) {
    return this.validez === null || (this.validez[k >> 3] & (1 << (k & 7))) !== 0;
  }

  /** Value i (negative: from the end), null for a null, undefined outside the column. */
  at(i) {
    const k = position(i, this.length);
    if (k < 0) return undefined;
    return this.valida(k) ? this.valor(k) : null;
  }

  *[Symbol.iterator]() {
    for (let k = 0; k < this.length; k++) yield this.valida(k) ? this.valor(k) : null;
  }

  /** Every value as an array (null for a null): what columnar() gives for the same rows. */
  toArray() {
    const out = new Array(this.length);
    for (let k = 0; k < this.length; k++) out[k] = this.valida(k) ? this.valor(k) : null;
    return out;
  }
}

// Where there is no Buffer (a browser, a worker) text is decoded by TextDecoder: the same strings (the
// library writes valid UTF-8), Buffer's toString being the faster of the two in Node.
const UTF8 = typeof Buffer === 'undefined' ? new TextDecoder('utf-8') : null;

/** utf8: value k is datos[offsets[k] .. offsets[k + 1]) as UTF-8. */
class ColumnaTexto extends ColumnaArrow {
  static tipo = 'utf8';
  #texto;

  constructor(columna, length, nulos, validez, buffers) {
    super(columna, length, nulos, validez, buffers);
    const { datos } = buffers;
    this.#texto = UTF8 ? datos : Buffer.from(datos.buffer, datos.byteOffset, datos.byteLength);
  }

  valor(k) {
    if (UTF8) return UTF8.decode(this.#texto.subarray(this.offsets[k], this.offsets[k + 1]));
    return this.#texto.toString('utf8', this.offsets[k], this.offsets[k + 1]);
  }
}

/** int64: value k is valores[k], given as a number (every integer call's values are safe integers). */
class ColumnaEntero extends ColumnaArrow {
  static tipo = 'int64';

  valor(k) {
    return Number(this.valores[k]);
  }
}

/** date32: value k is valores[k] days since 1970-01-01, given as 'YYYY-MM-DD' like every other path. */
class ColumnaFecha extends ColumnaArrow {
  static tipo = 'date32';

  valor(k) {
    return new Date(this.valores[k] * 86400000).toISOString().slice(0, 10);
  }
}

/** The addon's buffers of one batch, and the dataset's column descriptions, as columns by name. */
function columnasArrow(columnas, length, buffers) {
  const out = {};
  columnas.forEach((c, j) => {
    const { nulos, validez, ...propios } = buffers[j];
    const Clase = propios.datos !== undefined ? ColumnaTexto : propios.valores instanceof Int32Array ? ColumnaFecha : ColumnaEntero;
    out[c.nombre] = new Clase(c, length, nulos, validez, propios);
  });
  return out;
}

module.exports = { ColumnaArrow, ColumnaTexto, ColumnaEntero, ColumnaFecha, columnasArrow };
