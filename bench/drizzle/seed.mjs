// drizzle-seed's side of bench/hacia_bench.py: N clientes with 1 to 5 cuentas each (3 on average), by
// drizzle-seed's own generators, through node-postgres, as its docs show seed(...).refine(...).
//
//   node bench/drizzle/seed.mjs SOCKET_DIR DATABASE N
//
// It has no RUT generator: `rut` takes funcs.string({ isUnique: true }), what its generators offer for a
// unique text; nor Chilean comunas (funcs.city() is its world list). Prints the time seed() took, in ms.
import { drizzle } from 'drizzle-orm/node-postgres';
import { seed } from 'drizzle-seed';
import pg from 'pg';
import { clientes, cuentas } from './schema.mjs';

const [socket, database, n] = process.argv.slice(2);
const count = Number(n);
if (!socket || !database || !Number.isSafeInteger(count) || count < 1) {
  console.error('usage: node seed.mjs SOCKET_DIR DATABASE N');
  process.exit(2);
}

const pool = new pg.Pool({ host: socket, user: 'postgres', database, max: 1 });
const db = drizzle({ client: pool });
const t0 = process.hrtime.bigint();
await seed(db, { clientes, cuentas }, { count, seed: 42 }).refine((f) => ({
  clientes: {
    count,
    columns: {
      rut: f.string({ isUnique: true }),
      nombre: f.fullName(),
      email: f.email(),
      comuna: f.city(),
      fechaNacimiento: f.date({ minDate: '1945-01-02', maxDate: '2007-12-31' }),
    },
    // 1 to 5 cuentas per cliente, each count equally likely: 3 on average, as the datoteca document.
    with: { cuentas: [{ weight: 1, count: [1, 2, 3, 4, 5] }] },
  },
  cuentas: {
    columns: {
      saldo: f.int({ minValue: 0, maxValue: 10_000_000 }),
      abierta: f.date({ minDate: '2019-01-02', maxDate: '2025-12-02' }),
    },
  },
}));
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
await pool.end();
console.log(JSON.stringify({ seed_ms: Math.round(ms) }));
