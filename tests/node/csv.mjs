// CSV for the tests: c/data's tables as objects (the tests read the tables themselves), any CSV text as
// rows, and rows written as the CLI writes them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Rows of a CSV text as arrays of strings (RFC 4180: quotes, doubled quotes, CRLF or LF).
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; } else if (c !== '\r') field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

export function readCsv(name) {
  const [head, ...body] = parseCsv(readFileSync(path.join(ROOT, 'c', 'data', name), 'utf8'));
  return body.map((r) => Object.fromEntries(head.map((h, k) => [h, r[k]])));
}

// CSV as the CLI writes it (cli_comun.c): quoted only for a comma, a quote, CR or LF; a null is empty.
export function csvCli(columnas, filas) {
  const campo = (v) => {
    const s = v === null || v === undefined ? '' : v;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columnas, ...filas].map((f) => `${f.map(campo).join(',')}\n`).join('');
}
