// tests/referencia/app_pg.sql (the reference application of issue #40) as Drizzle tables, for
// drizzle-seed's side of bench/referencia_bench.py. Written by hand from that DDL, as a Drizzle user would
// declare the database they already have (drizzle-kit pull's shape); the database itself is made by the
// DDL, so its domains, trigger, view and partial index are there whatever is declared here. Drizzle has
// no domain type: rut_t and monto_t are declared as their base types, with the domain's CHECK beside them.
// auditoria is left out: its trigger fills it (a row seeded into it would take a key its sequence gives).
import { sql } from 'drizzle-orm';
import {
  bigint, bigserial, boolean, check, date, foreignKey, integer, jsonb, numeric, pgEnum, pgSchema, pgTable,
  primaryKey, serial, smallint, text, timestamp, uuid, varchar,
} from 'drizzle-orm/pg-core';

export const segmento = pgEnum('segmento_t', ['personas', 'pyme', 'empresas', 'preferente']);
export const tipoCuenta = pgEnum('tipo_cuenta', ['corriente', 'vista', 'ahorro']);

const auth = pgSchema('auth');
const ventasEsquema = pgSchema('ventas');

export const accesos = auth.table('accesos', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  creado: timestamp('creado', { withTimezone: true }).notNull().defaultNow(),
});
export const perfilesUsuario = pgTable('perfiles_usuario', {
  id: uuid('id').primaryKey().references(() => accesos.id, { onDelete: 'restrict', onUpdate: 'cascade' }),
  alias: varchar('alias', { length: 40 }),
});

export const regiones = pgTable('regiones', {
  codigo: varchar('codigo', { length: 4 }).primaryKey(),
  nombre: text('nombre').notNull().unique(),
});
export const comunas = pgTable('comunas', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  regionCodigo: varchar('region_codigo', { length: 4 }).notNull().references(() => regiones.codigo),
  nombre: text('nombre').notNull(),
});

export const clientes = pgTable('clientes', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  rut: varchar('rut', { length: 12 }).notNull().unique(),
  nombre: varchar('nombre', { length: 120 }).notNull(),
  email: text('email').unique(),
  telefono: text('telefono'),
  comunaId: integer('comuna_id').references(() => comunas.id),
  fechaNacimiento: date('fecha_nacimiento'),
  segmento: segmento('segmento').notNull().default('personas'),
  preferencias: jsonb('preferencias'),
  creado: timestamp('creado', { withTimezone: true }).notNull().defaultNow(),
}, () => [check('rut_t_check', sql`rut ~ '^[0-9]{1,2}\\.[0-9]{3}\\.[0-9]{3}-[0-9K]$'`)]);

export const ejecutivos = pgTable('ejecutivos', {
  id: serial('id').primaryKey(),
  nombre: text('nombre').notNull(),
  jefeId: integer('jefe_id').references(() => ejecutivos.id),
  sucursalCodigo: varchar('sucursal_codigo', { length: 10 }).references(() => sucursales.codigo),
});
export const sucursales = pgTable('sucursales', {
  codigo: varchar('codigo', { length: 10 }).primaryKey(),
  comunaId: integer('comuna_id').notNull().references(() => comunas.id),
  gerenteId: integer('gerente_id').notNull().references(() => ejecutivos.id),
});

export const cuentas = pgTable('cuentas', {
  id: serial('id').primaryKey(),
  clienteId: bigint('cliente_id', { mode: 'number' }).notNull().references(() => clientes.id),
  sucursalCodigo: varchar('sucursal_codigo', { length: 10 }).references(() => sucursales.codigo),
  tipo: tipoCuenta('tipo').notNull(),
  saldo: bigint('saldo', { mode: 'number' }).notNull(),
  abierta: date('abierta').notNull(),
  activa: boolean('activa').notNull().default(true),
}, (t) => [check('cuentas_saldo_check', sql`${t.saldo} >= 0`)]);
export const movimientos = pgTable('movimientos', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  cuentaId: integer('cuenta_id').notNull().references(() => cuentas.id),
  fecha: date('fecha').notNull(),
  monto: bigint('monto', { mode: 'number' }).notNull(),
  tipo: text('tipo').notNull(),
  montoIva: bigint('monto_iva', { mode: 'number' }).generatedAlwaysAs(sql`monto * 19 / 100`),
}, (t) => [
  check('movimientos_monto_check', sql`${t.monto} <= 5000000`),
  check('movimientos_tipo_check', sql`${t.tipo} IN ('cargo', 'abono')`),
]);
export const tarjetas = pgTable('tarjetas', {
  numero: varchar('numero', { length: 19 }).primaryKey(),
  cuentaId: integer('cuenta_id').notNull().references(() => cuentas.id),
  vence: date('vence').notNull(),
});

export const productos = pgTable('productos', {
  id: integer('id').primaryKey(),
  sku: varchar('sku', { length: 20 }).notNull().unique(),
  nombre: text('nombre').notNull(),
  precio: numeric('precio', { precision: 12, scale: 0 }).notNull(),
  imagenPrincipalId: integer('imagen_principal_id').references(() => imagenesProducto.id),
}, (t) => [check('productos_precio_check', sql`${t.precio} > 0`)]);
export const imagenesProducto = pgTable('imagenes_producto', {
  id: serial('id').primaryKey(),
  productoId: integer('producto_id').notNull().references(() => productos.id),
  url: text('url').notNull(),
});

export const pedidos = pgTable('pedidos', {
  id: integer('id').primaryKey(),
  clienteId: bigint('cliente_id', { mode: 'number' }).notNull().references(() => clientes.id),
  fecha: date('fecha').notNull(),
  total: numeric('total', { precision: 12, scale: 0 }).notNull(),
}, (t) => [check('pedidos_total_check', sql`${t.total} > 0`)]);
export const lineasPedido = pgTable('lineas_pedido', {
  pedidoId: integer('pedido_id').notNull().references(() => pedidos.id),
  linea: smallint('linea').notNull(),
  productoId: integer('producto_id').notNull().references(() => productos.id),
  cantidad: integer('cantidad').notNull(),
}, (t) => [
  primaryKey({ columns: [t.pedidoId, t.linea] }),
  check('lineas_pedido_cantidad_check', sql`${t.cantidad} > 0 AND ${t.cantidad} <= 50`),
]);
export const devoluciones = pgTable('devoluciones', {
  id: integer('id').primaryKey(),
  pedidoId: integer('pedido_id').notNull(),
  linea: smallint('linea').notNull(),
  motivo: varchar('motivo', { length: 20 }).notNull(),
}, (t) => [
  foreignKey({ columns: [t.pedidoId, t.linea], foreignColumns: [lineasPedido.pedidoId, lineasPedido.linea] }),
  check('devoluciones_motivo_check', sql`${t.motivo} IN ('fallado', 'arrepentido', 'otro')`),
]);

export const etiquetas = pgTable('etiquetas', {
  id: integer('id').primaryKey(),
  nombre: text('nombre').notNull().unique(),
});
export const clienteEtiquetas = pgTable('cliente_etiquetas', {
  clienteId: bigint('cliente_id', { mode: 'number' }).notNull().references(() => clientes.id),
  etiquetaId: integer('etiqueta_id').notNull().references(() => etiquetas.id),
}, (t) => [primaryKey({ columns: [t.clienteId, t.etiquetaId] })]);

export const reclamos = pgTable('reclamos', {
  id: integer('id').primaryKey(),
  rutCliente: varchar('rut_cliente', { length: 12 }).notNull().references(() => clientes.rut),
  detalle: text('detalle').notNull(),
});

export const user = pgTable('user', {
  id: integer('id').primaryKey(),
  order: text('order').notNull(),
  nombreVisible: text('NombreVisible'),
  clienteId: bigint('cliente_id', { mode: 'number' }).references(() => clientes.id),
});

export const proyectos = pgTable('proyectos', {
  id: integer('id').primaryKey(),
  nombre: text('nombre').notNull(),
  liderId: integer('lider_id').references(() => empleados.id),
});
export const equipos = pgTable('equipos', {
  id: integer('id').primaryKey(),
  proyectoId: integer('proyecto_id').notNull().references(() => proyectos.id),
  nombre: text('nombre').notNull(),
});
export const empleados = pgTable('empleados', {
  id: integer('id').primaryKey(),
  rut: varchar('rut', { length: 12 }).notNull().unique(),
  nombre: text('nombre').notNull(),
  equipoId: integer('equipo_id').notNull().references(() => equipos.id),
  celular: text('celular'),
});

export const facturas = ventasEsquema.table('facturas', {
  folio: integer('folio').primaryKey(),
  clienteId: bigint('cliente_id', { mode: 'number' }).notNull().references(() => clientes.id),
  emitida: date('emitida').notNull(),
  neto: integer('neto').notNull(),
}, (t) => [check('facturas_neto_check', sql`${t.neto} BETWEEN 1000 AND 900000`)]);
export const notasCredito = ventasEsquema.table('notas_credito', {
  folio: integer('folio').primaryKey(),
  facturaFolio: integer('factura_folio').notNull().references(() => facturas.folio),
  monto: integer('monto').notNull(),
}, (t) => [check('notas_credito_monto_check', sql`${t.monto} > 0`)]);
