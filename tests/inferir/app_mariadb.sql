-- The reference application of datoteca inferir's tests (tests/python/test_inferir_mariadb.py), MariaDB's
-- DDL: the SQLite and PostgreSQL application's tables (app_sqlite.sql, app_pg.sql) as MariaDB spells
-- them, run with sql_mode ANSI_QUOTES (a "name" is a name): AUTO_INCREMENT keys, an ENUM, BOOLEAN
-- (tinyint(1)), JSON (longtext with MariaDB's json_valid CHECK), DATETIME, a stored and a virtual
-- generated column, column- and table-level CHECKs (one a document cannot say), foreign keys as table
-- constraints (MariaDB ignores REFERENCES written on a column), a view, a trigger and an audit trigger.
CREATE TABLE clientes (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    rut VARCHAR(12) NOT NULL UNIQUE,
    nombre VARCHAR(120) NOT NULL,
    email VARCHAR(120) UNIQUE,
    telefono VARCHAR(30),
    comuna VARCHAR(40),
    fecha_nacimiento DATE,
    creado DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT rut_formato CHECK (rut REGEXP '^[0-9]{1,2}[.][0-9]{3}[.][0-9]{3}-[0-9K]$')
) ENGINE=InnoDB;
CREATE TABLE sucursales (
    codigo VARCHAR(10) PRIMARY KEY,
    comuna VARCHAR(40) NOT NULL
) ENGINE=InnoDB;
CREATE TABLE cuentas (
    id INT AUTO_INCREMENT PRIMARY KEY,
    cliente_id BIGINT NOT NULL,
    sucursal VARCHAR(10),
    tipo ENUM('corriente', 'vista', 'ahorro') NOT NULL,
    saldo BIGINT NOT NULL CHECK (saldo >= 0),
    abierta DATE NOT NULL,
    activa BOOLEAN NOT NULL DEFAULT TRUE,
    saldo_uf BIGINT AS (saldo DIV 38000) VIRTUAL,
    FOREIGN KEY (cliente_id) REFERENCES clientes (id),
    FOREIGN KEY (sucursal) REFERENCES sucursales (codigo)
) ENGINE=InnoDB;
CREATE TABLE movimientos (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    cuenta_id INT NOT NULL,
    fecha DATE NOT NULL,
    monto BIGINT NOT NULL CHECK (monto BETWEEN 1 AND 5000000),
    tipo VARCHAR(10) NOT NULL CHECK (tipo IN ('cargo', 'abono')),
    monto_iva BIGINT AS (monto * 19 DIV 100) STORED,
    FOREIGN KEY (cuenta_id) REFERENCES cuentas (id)
) ENGINE=InnoDB;
CREATE TABLE empleados (
    id INT PRIMARY KEY,
    nombre VARCHAR(120) NOT NULL,
    jefe_id INT,
    FOREIGN KEY (jefe_id) REFERENCES empleados (id)
) ENGINE=InnoDB;
CREATE TABLE perfiles (
    cliente_id BIGINT PRIMARY KEY,
    apodo VARCHAR(40),
    preferencias JSON,
    FOREIGN KEY (cliente_id) REFERENCES clientes (id)
) ENGINE=InnoDB;
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
    cantidad INT NOT NULL,
    PRIMARY KEY (pedido_id, linea),
    CONSTRAINT cantidad_razonable CHECK (cantidad > 0 AND cantidad <= 50),
    FOREIGN KEY (pedido_id) REFERENCES pedidos (id)
) ENGINE=InnoDB;
CREATE TABLE devoluciones (
    id INT PRIMARY KEY,
    pedido_id INT NOT NULL,
    linea SMALLINT NOT NULL,
    motivo VARCHAR(20) NOT NULL CHECK (motivo IN ('fallado', 'arrepentido', 'otro')),
    FOREIGN KEY (pedido_id, linea) REFERENCES lineas_pedido (pedido_id, linea)
) ENGINE=InnoDB;
CREATE TABLE etiquetas (
    id TINYINT PRIMARY KEY,
    nombre VARCHAR(40) NOT NULL UNIQUE
) ENGINE=InnoDB;
CREATE TABLE cliente_etiquetas (
    cliente_id BIGINT NOT NULL,
    etiqueta_id TINYINT NOT NULL,
    PRIMARY KEY (cliente_id, etiqueta_id),
    FOREIGN KEY (cliente_id) REFERENCES clientes (id),
    FOREIGN KEY (etiqueta_id) REFERENCES etiquetas (id)
) ENGINE=InnoDB;
-- a foreign key to a UNIQUE column that is not the key
CREATE TABLE reclamos (
    id MEDIUMINT PRIMARY KEY,
    rut_cliente VARCHAR(12) NOT NULL,
    detalle TEXT NOT NULL,
    FOREIGN KEY (rut_cliente) REFERENCES clientes (rut)
) ENGINE=InnoDB;
-- names SQL must quote: a reserved word for a table and a column, and a mixed-case column
CREATE TABLE "user" (
    id INT PRIMARY KEY,
    "order" TEXT NOT NULL,
    "NombreVisible" VARCHAR(120),
    cliente_id BIGINT,
    FOREIGN KEY (cliente_id) REFERENCES clientes (id)
) ENGINE=InnoDB;
-- an audit table its trigger fills: the document leaves it to the trigger
CREATE TABLE bitacora (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    cuenta_id INT NOT NULL,
    cuando DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
) ENGINE=InnoDB;
CREATE VIEW v_saldos AS SELECT cliente_id, sum(saldo) AS saldo FROM cuentas GROUP BY cliente_id;
CREATE TRIGGER cuentas_no_negativas BEFORE UPDATE ON cuentas FOR EACH ROW SET NEW.saldo = GREATEST(NEW.saldo, 0);
CREATE TRIGGER cuentas_bitacora AFTER INSERT ON cuentas FOR EACH ROW INSERT INTO bitacora (cuenta_id) VALUES (NEW.id);
