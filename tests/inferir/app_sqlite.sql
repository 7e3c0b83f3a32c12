-- The reference application of datoteca inferir's tests (tests/python/test_inferir.py), SQLite's DDL.
-- Every trap a document must fill or list: a natural text key, UNIQUE columns, CHECK IN-lists and
-- ranges, a self-reference, a key that is a foreign key, a composite key and a composite foreign key,
-- a junction table, a generated column, a view, a trigger and a partial unique index.
CREATE TABLE clientes (
    id INTEGER PRIMARY KEY,
    rut TEXT NOT NULL UNIQUE,
    nombre TEXT NOT NULL,
    email TEXT UNIQUE,
    telefono TEXT,
    comuna TEXT,
    fecha_nacimiento DATE
);
CREATE TABLE sucursales (
    codigo VARCHAR(10) PRIMARY KEY,
    comuna TEXT NOT NULL
);
CREATE TABLE cuentas (
    id INTEGER PRIMARY KEY,
    cliente_id INTEGER NOT NULL REFERENCES clientes (id),
    sucursal VARCHAR(10) REFERENCES sucursales (codigo),
    tipo TEXT NOT NULL CHECK (tipo IN ('corriente', 'vista', 'ahorro')),
    saldo INTEGER NOT NULL CHECK (saldo >= 0),
    abierta DATE NOT NULL,
    activa BOOLEAN NOT NULL DEFAULT 1
);
CREATE TABLE movimientos (
    id INTEGER PRIMARY KEY,
    cuenta_id INTEGER NOT NULL REFERENCES cuentas (id),
    fecha DATE NOT NULL,
    monto INTEGER NOT NULL CHECK (monto BETWEEN 1 AND 5000000),
    tipo TEXT NOT NULL CHECK (tipo IN ('cargo', 'abono')),
    monto_iva INTEGER GENERATED ALWAYS AS (monto * 19 / 100) VIRTUAL
);
CREATE TABLE empleados (
    id INTEGER PRIMARY KEY,
    nombre TEXT NOT NULL,
    jefe_id INTEGER REFERENCES empleados (id)
);
CREATE TABLE perfiles (
    cliente_id INTEGER PRIMARY KEY REFERENCES clientes (id),
    apodo TEXT
);
CREATE TABLE pedidos (
    id INTEGER PRIMARY KEY,
    cliente_id INTEGER NOT NULL REFERENCES clientes (id),
    fecha DATE NOT NULL,
    total INTEGER NOT NULL CHECK (total > 0)
);
CREATE TABLE lineas_pedido (
    pedido_id INTEGER NOT NULL REFERENCES pedidos (id),
    linea INTEGER NOT NULL,
    cantidad INTEGER NOT NULL CHECK (cantidad > 0 AND cantidad <= 50),
    PRIMARY KEY (pedido_id, linea)
);
CREATE TABLE devoluciones (
    id INTEGER PRIMARY KEY,
    pedido_id INTEGER NOT NULL,
    linea INTEGER NOT NULL,
    motivo TEXT NOT NULL CHECK (motivo IN ('fallado', 'arrepentido', 'otro')),
    FOREIGN KEY (pedido_id, linea) REFERENCES lineas_pedido (pedido_id, linea)
);
CREATE TABLE etiquetas (
    id INTEGER PRIMARY KEY,
    nombre TEXT NOT NULL UNIQUE
);
CREATE TABLE cliente_etiquetas (
    cliente_id INTEGER NOT NULL REFERENCES clientes (id),
    etiqueta_id INTEGER NOT NULL REFERENCES etiquetas (id),
    PRIMARY KEY (cliente_id, etiqueta_id)
);
-- a foreign key to a UNIQUE column that is not the key
CREATE TABLE reclamos (
    id integer PRIMARY KEY,
    rut_cliente TEXT NOT NULL REFERENCES clientes (rut),
    detalle text NOT NULL
);
-- names SQL must quote: a reserved word for a table and a column, and a mixed-case column
CREATE TABLE "user" (
    id integer PRIMARY KEY,
    "order" text NOT NULL,
    "NombreVisible" text,
    cliente_id INTEGER REFERENCES clientes (id)
);
CREATE VIEW v_saldos AS SELECT cliente_id, sum(saldo) AS saldo FROM cuentas GROUP BY cliente_id;
CREATE TRIGGER cuentas_no_negativas BEFORE UPDATE OF saldo ON cuentas
    WHEN NEW.saldo < 0 BEGIN SELECT RAISE(ABORT, 'saldo negativo'); END;
-- never applies while CHECK (saldo >= 0) holds, so the load cannot break it; inferir must list it
CREATE UNIQUE INDEX cuentas_una_en_rojo ON cuentas (cliente_id) WHERE saldo < 0;
