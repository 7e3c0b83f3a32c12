-- The reference application of issue #40 in SQLite (tests/python/test_referencia.py): app_pg.sql's 25
-- tables as SQLite has them: one schema (auth.accesos, ventas.facturas and ventas.notas_credito by their
-- bare names), CHECK IN-lists for the enums and the domains, TEXT for uuid and jsonb, INTEGER PRIMARY KEY
-- for identity and serial keys, foreign keys declared where the table is made (SQLite lets them name a
-- table made later, so the cycles need no ALTER). Written by hand; nothing in it is generated.
CREATE TABLE accesos (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    creado TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE perfiles_usuario (
    id TEXT PRIMARY KEY REFERENCES accesos (id) ON DELETE RESTRICT ON UPDATE CASCADE,
    alias VARCHAR(40)
);
CREATE TABLE regiones (
    codigo VARCHAR(4) PRIMARY KEY,
    nombre TEXT NOT NULL UNIQUE
);
CREATE TABLE comunas (
    id INTEGER PRIMARY KEY,
    region_codigo VARCHAR(4) NOT NULL REFERENCES regiones (codigo),
    nombre TEXT NOT NULL
);
CREATE TABLE clientes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    rut VARCHAR(12) NOT NULL UNIQUE,
    nombre VARCHAR(120) NOT NULL,
    email TEXT UNIQUE,
    telefono TEXT,
    comuna_id INTEGER REFERENCES comunas (id),
    fecha_nacimiento DATE,
    segmento TEXT NOT NULL DEFAULT 'personas' CHECK (segmento IN ('personas', 'pyme', 'empresas', 'preferente')),
    preferencias TEXT,
    creado TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE ejecutivos (
    id INTEGER PRIMARY KEY,
    nombre TEXT NOT NULL,
    jefe_id INTEGER REFERENCES ejecutivos (id),
    sucursal_codigo VARCHAR(10) REFERENCES sucursales (codigo) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE sucursales (
    codigo VARCHAR(10) PRIMARY KEY,
    comuna_id INTEGER NOT NULL REFERENCES comunas (id),
    gerente_id INTEGER NOT NULL REFERENCES ejecutivos (id)
);
CREATE TABLE cuentas (
    id INTEGER PRIMARY KEY,
    cliente_id INTEGER NOT NULL REFERENCES clientes (id),
    sucursal_codigo VARCHAR(10) REFERENCES sucursales (codigo),
    tipo TEXT NOT NULL CHECK (tipo IN ('corriente', 'vista', 'ahorro')),
    saldo INTEGER NOT NULL CHECK (saldo >= 0),
    abierta DATE NOT NULL,
    activa BOOLEAN NOT NULL DEFAULT 1
);
CREATE TABLE movimientos (
    id INTEGER PRIMARY KEY,
    cuenta_id INTEGER NOT NULL REFERENCES cuentas (id),
    fecha DATE NOT NULL,
    monto INTEGER NOT NULL CHECK (monto > 0 AND monto <= 5000000),
    tipo TEXT NOT NULL CHECK (tipo IN ('cargo', 'abono')),
    monto_iva INTEGER GENERATED ALWAYS AS (monto * 19 / 100) STORED
);
CREATE TABLE tarjetas (
    numero VARCHAR(19) PRIMARY KEY,
    cuenta_id INTEGER NOT NULL REFERENCES cuentas (id),
    vence DATE NOT NULL
);
CREATE TABLE productos (
    id INTEGER PRIMARY KEY,
    sku VARCHAR(20) NOT NULL UNIQUE,
    nombre TEXT NOT NULL,
    precio NUMERIC(12,0) NOT NULL CHECK (precio > 0),
    imagen_principal_id INTEGER REFERENCES imagenes_producto (id)
);
CREATE TABLE imagenes_producto (
    id INTEGER PRIMARY KEY,
    producto_id INTEGER NOT NULL REFERENCES productos (id),
    url TEXT NOT NULL
);
CREATE TABLE pedidos (
    id INTEGER PRIMARY KEY,
    cliente_id INTEGER NOT NULL REFERENCES clientes (id),
    fecha DATE NOT NULL,
    total NUMERIC(12,0) NOT NULL CHECK (total > 0)
);
CREATE TABLE lineas_pedido (
    pedido_id INTEGER NOT NULL REFERENCES pedidos (id),
    linea SMALLINT NOT NULL,
    producto_id INTEGER NOT NULL REFERENCES productos (id),
    cantidad INTEGER NOT NULL CHECK (cantidad > 0 AND cantidad <= 50),
    PRIMARY KEY (pedido_id, linea)
);
CREATE TABLE devoluciones (
    id INTEGER PRIMARY KEY,
    pedido_id INTEGER NOT NULL,
    linea SMALLINT NOT NULL,
    motivo VARCHAR(20) NOT NULL CHECK (motivo IN ('fallado', 'arrepentido', 'otro')),
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
CREATE TABLE reclamos (
    id INTEGER PRIMARY KEY,
    rut_cliente VARCHAR(12) NOT NULL REFERENCES clientes (rut),
    detalle TEXT NOT NULL
);
CREATE TABLE "user" (
    id INTEGER PRIMARY KEY,
    "order" TEXT NOT NULL,
    "NombreVisible" TEXT,
    cliente_id INTEGER REFERENCES clientes (id)
);
CREATE TABLE proyectos (
    id INTEGER PRIMARY KEY,
    nombre TEXT NOT NULL,
    lider_id INTEGER REFERENCES empleados (id)
);
CREATE TABLE equipos (
    id INTEGER PRIMARY KEY,
    proyecto_id INTEGER NOT NULL REFERENCES proyectos (id),
    nombre TEXT NOT NULL
);
CREATE TABLE empleados (
    id INTEGER PRIMARY KEY,
    rut VARCHAR(12) NOT NULL UNIQUE,
    nombre TEXT NOT NULL,
    equipo_id INTEGER NOT NULL REFERENCES equipos (id),
    celular TEXT
);
CREATE TABLE auditoria (
    id INTEGER PRIMARY KEY,
    tabla TEXT NOT NULL,
    fila_id INTEGER NOT NULL,
    creado TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TRIGGER cuentas_auditadas AFTER INSERT ON cuentas BEGIN
    INSERT INTO auditoria (tabla, fila_id) VALUES ('cuentas', NEW.id);
END;
CREATE UNIQUE INDEX cuentas_una_en_rojo ON cuentas (cliente_id) WHERE saldo < 0;
CREATE VIEW v_saldos AS SELECT cliente_id, sum(saldo) AS saldo FROM cuentas GROUP BY cliente_id;
CREATE TABLE facturas (
    folio INTEGER PRIMARY KEY,
    cliente_id INTEGER NOT NULL REFERENCES clientes (id),
    emitida DATE NOT NULL,
    neto INTEGER NOT NULL CHECK (neto BETWEEN 1000 AND 900000)
);
CREATE TABLE notas_credito (
    folio INTEGER PRIMARY KEY,
    factura_folio INTEGER NOT NULL REFERENCES facturas (folio),
    monto INTEGER NOT NULL CHECK (monto > 0)
);
