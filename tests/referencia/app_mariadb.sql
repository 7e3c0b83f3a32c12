-- The reference application of issue #40 in MariaDB (tests/python/test_referencia.py): app_pg.sql's 25
-- tables as MariaDB 10.11 has them, run with sql_mode ANSI_QUOTES (a "name" is a name): one database
-- (auth.accesos, ventas.facturas and ventas.notas_credito by their bare names), MariaDB's own UUID type,
-- ENUMs, CHECKs for the domains, AUTO_INCREMENT for identity and serial keys, JSON, BOOLEAN, foreign
-- keys as table constraints (MariaDB ignores REFERENCES written on a column) and the cycles closed by
-- ALTER TABLE. MariaDB has no DEFERRABLE constraints and no partial indexes: those two traps are
-- PostgreSQL's and SQLite's only. Written by hand; nothing in it is generated.
CREATE TABLE accesos (
    id UUID PRIMARY KEY DEFAULT uuid(),
    email VARCHAR(120) NOT NULL UNIQUE,
    creado TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=InnoDB;
CREATE TABLE perfiles_usuario (
    id UUID PRIMARY KEY,
    alias VARCHAR(40),
    CONSTRAINT perfiles_acceso FOREIGN KEY (id) REFERENCES accesos (id) ON DELETE RESTRICT ON UPDATE CASCADE
) ENGINE=InnoDB;
CREATE TABLE regiones (
    codigo VARCHAR(4) PRIMARY KEY,
    nombre VARCHAR(80) NOT NULL UNIQUE
) ENGINE=InnoDB;
CREATE TABLE comunas (
    id INT AUTO_INCREMENT PRIMARY KEY,
    region_codigo VARCHAR(4) NOT NULL,
    nombre VARCHAR(80) NOT NULL,
    FOREIGN KEY (region_codigo) REFERENCES regiones (codigo)
) ENGINE=InnoDB;
CREATE TABLE clientes (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    rut VARCHAR(12) NOT NULL UNIQUE,
    nombre VARCHAR(120) NOT NULL,
    email VARCHAR(120) UNIQUE,
    telefono VARCHAR(30),
    comuna_id INT,
    fecha_nacimiento DATE,
    segmento ENUM('personas', 'pyme', 'empresas', 'preferente') NOT NULL DEFAULT 'personas',
    preferencias JSON,
    creado TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT rut_formato CHECK (rut REGEXP '^[0-9]{1,2}[.][0-9]{3}[.][0-9]{3}-[0-9K]$'),
    FOREIGN KEY (comuna_id) REFERENCES comunas (id)
) ENGINE=InnoDB;
CREATE TABLE ejecutivos (
    id INT AUTO_INCREMENT PRIMARY KEY,
    nombre VARCHAR(120) NOT NULL,
    jefe_id INT,
    sucursal_codigo VARCHAR(10),
    FOREIGN KEY (jefe_id) REFERENCES ejecutivos (id)
) ENGINE=InnoDB;
CREATE TABLE sucursales (
    codigo VARCHAR(10) PRIMARY KEY,
    comuna_id INT NOT NULL,
    gerente_id INT NOT NULL,
    FOREIGN KEY (comuna_id) REFERENCES comunas (id),
    FOREIGN KEY (gerente_id) REFERENCES ejecutivos (id)
) ENGINE=InnoDB;
ALTER TABLE ejecutivos ADD CONSTRAINT ejecutivos_sucursal_fk FOREIGN KEY (sucursal_codigo) REFERENCES sucursales (codigo);
CREATE TABLE cuentas (
    id INT AUTO_INCREMENT PRIMARY KEY,
    cliente_id BIGINT NOT NULL,
    sucursal_codigo VARCHAR(10),
    tipo ENUM('corriente', 'vista', 'ahorro') NOT NULL,
    saldo BIGINT NOT NULL CHECK (saldo >= 0),
    abierta DATE NOT NULL,
    activa BOOLEAN NOT NULL DEFAULT TRUE,
    FOREIGN KEY (cliente_id) REFERENCES clientes (id),
    FOREIGN KEY (sucursal_codigo) REFERENCES sucursales (codigo)
) ENGINE=InnoDB;
CREATE TABLE movimientos (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    cuenta_id INT NOT NULL,
    fecha DATE NOT NULL,
    monto BIGINT NOT NULL CHECK (monto > 0 AND monto <= 5000000),
    tipo VARCHAR(5) NOT NULL CHECK (tipo IN ('cargo', 'abono')),
    monto_iva BIGINT AS (monto * 19 DIV 100) STORED,
    FOREIGN KEY (cuenta_id) REFERENCES cuentas (id)
) ENGINE=InnoDB;
CREATE TABLE tarjetas (
    numero VARCHAR(19) PRIMARY KEY,
    cuenta_id INT NOT NULL,
    vence DATE NOT NULL,
    FOREIGN KEY (cuenta_id) REFERENCES cuentas (id)
) ENGINE=InnoDB;
CREATE TABLE productos (
    id INT PRIMARY KEY,
    sku VARCHAR(20) NOT NULL UNIQUE,
    nombre VARCHAR(120) NOT NULL,
    precio DECIMAL(12,0) NOT NULL CHECK (precio > 0),
    imagen_principal_id INT
) ENGINE=InnoDB;
CREATE TABLE imagenes_producto (
    id INT AUTO_INCREMENT PRIMARY KEY,
    producto_id INT NOT NULL,
    url VARCHAR(200) NOT NULL,
    FOREIGN KEY (producto_id) REFERENCES productos (id)
) ENGINE=InnoDB;
ALTER TABLE productos ADD CONSTRAINT productos_imagen_fk FOREIGN KEY (imagen_principal_id) REFERENCES imagenes_producto (id);
CREATE TABLE pedidos (
    id INT PRIMARY KEY,
    cliente_id BIGINT NOT NULL,
    fecha DATE NOT NULL,
    total DECIMAL(12,0) NOT NULL CHECK (total > 0),
    FOREIGN KEY (cliente_id) REFERENCES clientes (id)
) ENGINE=InnoDB;
CREATE TABLE lineas_pedido (
    pedido_id INT NOT NULL,
    linea SMALLINT NOT NULL,
    producto_id INT NOT NULL,
    cantidad INT NOT NULL CHECK (cantidad > 0 AND cantidad <= 50),
    PRIMARY KEY (pedido_id, linea),
    FOREIGN KEY (pedido_id) REFERENCES pedidos (id),
    FOREIGN KEY (producto_id) REFERENCES productos (id)
) ENGINE=InnoDB;
CREATE TABLE devoluciones (
    id INT PRIMARY KEY,
    pedido_id INT NOT NULL,
    linea SMALLINT NOT NULL,
    motivo VARCHAR(20) NOT NULL CHECK (motivo IN ('fallado', 'arrepentido', 'otro')),
    FOREIGN KEY (pedido_id, linea) REFERENCES lineas_pedido (pedido_id, linea)
) ENGINE=InnoDB;
CREATE TABLE etiquetas (
    id INT PRIMARY KEY,
    nombre VARCHAR(80) NOT NULL UNIQUE
) ENGINE=InnoDB;
CREATE TABLE cliente_etiquetas (
    cliente_id BIGINT NOT NULL,
    etiqueta_id INT NOT NULL,
    PRIMARY KEY (cliente_id, etiqueta_id),
    FOREIGN KEY (cliente_id) REFERENCES clientes (id),
    FOREIGN KEY (etiqueta_id) REFERENCES etiquetas (id)
) ENGINE=InnoDB;
CREATE TABLE reclamos (
    id INT PRIMARY KEY,
    rut_cliente VARCHAR(12) NOT NULL,
    detalle TEXT NOT NULL,
    FOREIGN KEY (rut_cliente) REFERENCES clientes (rut)
) ENGINE=InnoDB;
CREATE TABLE "user" (
    id INT PRIMARY KEY,
    "order" VARCHAR(40) NOT NULL,
    "NombreVisible" VARCHAR(120),
    cliente_id BIGINT,
    FOREIGN KEY (cliente_id) REFERENCES clientes (id)
) ENGINE=InnoDB;
CREATE TABLE proyectos (
    id INT PRIMARY KEY,
    nombre VARCHAR(120) NOT NULL,
    lider_id INT
) ENGINE=InnoDB;
CREATE TABLE equipos (
    id INT PRIMARY KEY,
    proyecto_id INT NOT NULL,
    nombre VARCHAR(120) NOT NULL,
    FOREIGN KEY (proyecto_id) REFERENCES proyectos (id)
) ENGINE=InnoDB;
CREATE TABLE empleados (
    id INT PRIMARY KEY,
    rut VARCHAR(12) NOT NULL UNIQUE,
    nombre VARCHAR(120) NOT NULL,
    equipo_id INT NOT NULL,
    celular VARCHAR(30),
    FOREIGN KEY (equipo_id) REFERENCES equipos (id)
) ENGINE=InnoDB;
ALTER TABLE proyectos ADD CONSTRAINT proyectos_lider_fk FOREIGN KEY (lider_id) REFERENCES empleados (id);
CREATE TABLE auditoria (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    tabla VARCHAR(40) NOT NULL,
    fila_id BIGINT NOT NULL,
    creado TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=InnoDB;
CREATE TRIGGER cuentas_auditadas AFTER INSERT ON cuentas FOR EACH ROW
    INSERT INTO auditoria (tabla, fila_id) VALUES ('cuentas', NEW.id);
CREATE VIEW v_saldos AS SELECT cliente_id, sum(saldo) AS saldo FROM cuentas GROUP BY cliente_id;
CREATE TABLE facturas (
    folio INT PRIMARY KEY,
    cliente_id BIGINT NOT NULL,
    emitida DATE NOT NULL,
    neto INT NOT NULL CHECK (neto BETWEEN 1000 AND 900000),
    FOREIGN KEY (cliente_id) REFERENCES clientes (id)
) ENGINE=InnoDB;
CREATE TABLE notas_credito (
    folio INT PRIMARY KEY,
    factura_folio INT NOT NULL,
    monto INT NOT NULL CHECK (monto > 0),
    FOREIGN KEY (factura_folio) REFERENCES facturas (folio)
) ENGINE=InnoDB;
