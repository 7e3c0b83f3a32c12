'use strict';
// inferir(url): the schema document of a live database (docs/inferir.md), from Node. The connectors link
// client libraries (libpq, libsqlite3, MariaDB Connector/C), which only the `datoteca` program carries,
// so this runs that program's `inferir` and returns what it writes; nothing is read or mapped here. The
// types of the arguments are checked here, naming the argument; their values are the program's to
// judge, and its one-line sentence (which never holds a password) is the error's message.
const { spawnSync } = require('child_process');
const { DatotecaError, InvalidArgumentError, TYPE_ERROR } = require('./comun.gen');
const { paraInferir } = require('./programa.js');

const NOTA = 'datoteca inferir: not expressed: ';
const OPCIONES = ['esquema', 'escala', 'filasVacia', 'muestra', 'sinAbanico'];

const tipo = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function texto(v, nombre) {
  if (typeof v !== 'string') throw new TYPE_ERROR(`inferir: ${nombre} must be a string, got ${tipo(v)}`);
  if (v.includes('\0')) throw new InvalidArgumentError(`inferir: ${nombre} must not hold a NUL character`);
  return v;
}

function entero(v, nombre) {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
    throw new TYPE_ERROR(`inferir: ${nombre} must be an integer, got ${typeof v === 'number' ? String(v) : tipo(v)}`);
  }
  return String(v);
}

function argumentos(url, opciones) {
  const u = texto(url, 'url');
  if (u.startsWith('-')) {
    // it would be read as an option; the URL itself is not repeated (it may hold a password)
    throw new InvalidArgumentError("inferir: url must be a database URL (sqlite:…, postgresql://…), and it starts with '-'");
  }
  if (opciones === undefined) opciones = {};
  if (opciones === null || typeof opciones !== 'object' || Array.isArray(opciones)) {
    throw new TYPE_ERROR(`inferir: opciones must be an object, got ${tipo(opciones)}`);
  }
  for (const k of Object.keys(opciones)) {
    if (!OPCIONES.includes(k)) throw new InvalidArgumentError(`inferir: unknown option '${k}' (known: ${OPCIONES.join(', ')})`);
  }
  const args = ['inferir', u];
  const { esquema, escala, filasVacia, muestra, sinAbanico } = opciones;
  if (esquema !== undefined) args.push('--esquema', texto(esquema, 'esquema'));
  if (escala !== undefined) {
    // N, or N/D as the program spells it ('1/10')
    if (typeof escala === 'string') args.push('--escala', texto(escala, 'escala'));
    else if (typeof escala === 'number' && Number.isSafeInteger(escala)) args.push('--escala', String(escala));
    else throw new TYPE_ERROR(`inferir: escala must be an integer or a string like '1/10', got ${typeof escala === 'number' ? String(escala) : tipo(escala)}`);
  }
  if (filasVacia !== undefined) args.push('--filas-vacia', entero(filasVacia, 'filasVacia'));
  if (muestra !== undefined) args.push('--muestra', entero(muestra, 'muestra'));
  if (sinAbanico !== undefined && typeof sinAbanico !== 'boolean') throw new TYPE_ERROR(`inferir: sinAbanico must be a boolean, got ${tipo(sinAbanico)}`);
  if (sinAbanico) args.push('--sin-abanico');
  return args;
}

/**
 * The document and what it could not express: `datoteca inferir URL`'s stdout, and each sentence it
 * wrote on stderr as `datoteca inferir: not expressed: …` (also in the document's head).
 */
function inferirConNotas(url, opciones) {
  const args = argumentos(url, opciones);
  const programa = paraInferir();
  if (programa === null) {
    throw new DatotecaError('inferir: no datoteca program was found to read the database with: this package carries none '
      + '(a source checkout, or a platform without a prebuild); set DATOTECA_CLI to one (make build writes build-c/datoteca) or put it on PATH');
  }
  const p = spawnSync(programa.ruta, args, { env: programa.env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  if (p.error) throw new DatotecaError(`inferir: cannot run ${programa.ruta}: ${p.error.message}`);
  const err = p.stderr.toString('utf8').split('\n');
  const notas = err.filter((l) => l.startsWith(NOTA)).map((l) => l.slice(NOTA.length));
  if (p.status === 0) return { documento: p.stdout.toString('utf8'), notas };
  let frase = err.filter((l) => l && !l.startsWith(NOTA)).join(' ');
  if (p.status === null) throw new DatotecaError(`inferir: ${programa.ruta} ended by signal ${p.signal}${frase ? `: ${frase}` : ''}`);
  if (!frase) frase = `inferir: ${programa.ruta} exited with status ${p.status} and said nothing`;
  // 2: bad arguments, an unknown URL form, a database that cannot be reached or read
  throw p.status === 2 ? new InvalidArgumentError(frase) : new DatotecaError(frase);
}

/** The schema document that fills the database at `url` (docs/inferir.md): `datoteca inferir URL`'s output. */
const inferir = (url, opciones) => inferirConNotas(url, opciones).documento;

module.exports = { inferir, inferirConNotas };
