-- The tables all three paths of bench/hacia_bench.py fill: as an application's migration would make them.
CREATE TABLE clientes (
    id serial PRIMARY KEY,
    rut text NOT NULL UNIQUE,
    nombre text NOT NULL,
    email text UNIQUE,
    comuna text,
    fecha_nacimiento date
);

CREATE TABLE cuentas (
    id serial PRIMARY KEY,
    cliente_id integer NOT NULL REFERENCES clientes (id),
    saldo bigint NOT NULL,
    abierta date NOT NULL
);
CREATE INDEX cuentas_cliente_id ON cuentas (cliente_id);
