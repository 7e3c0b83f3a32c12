// bench/hacia/clientes.sql as Drizzle tables, written in JS so plain Node runs them (no TypeScript build).
import { bigint, date, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';

export const clientes = pgTable('clientes', {
  id: serial('id').primaryKey(),
  rut: text('rut').notNull().unique(),
  nombre: text('nombre').notNull(),
  email: text('email').unique(),
  comuna: text('comuna'),
  fechaNacimiento: date('fecha_nacimiento'),
});

export const cuentas = pgTable('cuentas', {
  id: serial('id').primaryKey(),
  clienteId: integer('cliente_id').notNull().references(() => clientes.id),
  saldo: bigint('saldo', { mode: 'number' }).notNull(),
  abierta: date('abierta').notNull(),
});
