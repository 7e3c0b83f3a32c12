// drizzle-seed's side of bench/referencia_bench.py: the reference application's 24 tables (auditoria, the 25th, is
// its trigger's), N rows each (regiones at most 9,999: its key is varchar(4), as datoteca's document says),
// through node-postgres, by drizzle-seed's own generators refined as its docs show, so that the tables'
// CHECKs can hold: ranges by f.int, IN-lists by f.valuesFromArray. It has no RUT generator, so the RUT
// columns take f.valuesFromArray over N formatted RUTs made here (bodies 10,000,000 + i, check digit by
// module 11), which is what a Drizzle user would have to write.
//
//   node bench/drizzle/referencia.mjs SOCKET_DIR DATABASE N [TABLE_LEFT_OUT...]   (Drizzle names: perfilesUsuario)
//
// Prints {"seed_ms": ...} when seed() finished, or {"error": "..."} with drizzle-seed's or PostgreSQL's
// message when it did not (exit 0 either way: the bench reports both).
import { drizzle } from 'drizzle-orm/node-postgres';
import { seed } from 'drizzle-seed';
import pg from 'pg';
import * as tablas from './referencia_schema.mjs';

const [socket, database, n, ...fuera] = process.argv.slice(2);
const count = Number(n);
if (!socket || !database || !Number.isSafeInteger(count) || count < 1) {
  console.error('usage: node referencia.mjs SOCKET_DIR DATABASE N [TABLE_LEFT_OUT...]');
  process.exit(2);
}

function rut(cuerpo) {
  let s = 0;
  let m = 2;
  for (let c = cuerpo; c > 0; c = Math.floor(c / 10)) {
    s += (c % 10) * m;
    m = m === 7 ? 2 : m + 1;
  }
  const r = 11 - (s % 11);
  const dv = r === 11 ? '0' : r === 10 ? 'K' : String(r);
  return `${String(cuerpo).replace(/\B(?=(\d{3})+$)/g, '.')}-${dv}`; // 10.000.000-8
}
const ruts = Array.from({ length: count }, (_, i) => rut(10_000_000 + i));
const codigos = Array.from({ length: Math.min(count, 9999) }, (_, i) => String(i + 1).padStart(4, '0'));

// The tables seed() gets: every one but those named after N (the bench's second run leaves out what the
// first run's error names). Their refinements stay: drizzle-seed ignores those of tables it was not given.
const elegidas = Object.fromEntries(Object.entries(tablas).filter(([k]) => !fuera.includes(k)));

const pool = new pg.Pool({ host: socket, user: 'postgres', database, max: 1 });
const db = drizzle({ client: pool });
const t0 = process.hrtime.bigint();
try {
  await seed(db, elegidas, { count, seed: 42 }).refine((f) => ({
    regiones: { count: codigos.length, columns: { codigo: f.valuesFromArray({ values: codigos, isUnique: true }) } },
    clientes: {
      columns: {
        rut: f.valuesFromArray({ values: ruts, isUnique: true }),
        nombre: f.fullName(),
        email: f.email(),
        telefono: f.phoneNumber(),
        fechaNacimiento: f.date({ minDate: '1945-01-02', maxDate: '2007-12-31' }),
      },
    },
    empleados: { columns: { rut: f.valuesFromArray({ values: ruts, isUnique: true }), nombre: f.fullName() } },
    reclamos: { columns: { rutCliente: f.valuesFromArray({ values: ruts }) } },
    cuentas: { columns: { saldo: f.int({ minValue: 0, maxValue: 10_000_000 }) } },
    movimientos: {
      columns: { monto: f.int({ minValue: 1, maxValue: 5_000_000 }), tipo: f.valuesFromArray({ values: ['cargo', 'abono'] }) },
    },
    productos: { columns: { precio: f.int({ minValue: 1, maxValue: 1_000_000 }) } },
    pedidos: { columns: { total: f.int({ minValue: 1, maxValue: 1_000_000 }) } },
    lineasPedido: { columns: { linea: f.int({ minValue: 1, maxValue: 30_000 }), cantidad: f.int({ minValue: 1, maxValue: 50 }) } },
    devoluciones: { columns: { motivo: f.valuesFromArray({ values: ['fallado', 'arrepentido', 'otro'] }) } },
    facturas: { columns: { neto: f.int({ minValue: 1000, maxValue: 900_000 }) } },
    notasCredito: { columns: { monto: f.int({ minValue: 1, maxValue: 1_000_000 }) } },
  }));
  console.log(JSON.stringify({ seed_ms: Math.round(Number(process.hrtime.bigint() - t0) / 1e6) }));
} catch (e) {
  if (process.env.TRAZA) console.error(e.stack);
  const causa = e.cause && e.cause.message ? ` (${e.cause.message})` : '';
  console.log(JSON.stringify({ error: `${String(e.message).slice(0, 400)}${causa}`, ms: Math.round(Number(process.hrtime.bigint() - t0) / 1e6) }));
} finally {
  await pool.end();
}
