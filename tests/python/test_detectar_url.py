"""`datoteca detectar URL`: one masking rules document for every table of a live database, and
`datoteca enmascarar --tabla NAME` masking a table's export with that table's rules (docs/copia.md).

The database is the reference application (tests/referencia/app_*.sql) filled by `inferir` + `--hacia`
(seed 42) and then given planted personal data where peers' copies leaked it: a RUT and a full name
inside complaint notes, a phone and a name inside a JSON column, emails in a table without a RUT. The
judge is a leak check written here, not the library: every original RUT (formatted, and its body as a
whole run of digits), email, phone (its digits) and full name is searched for in every cell of every
table masked with the proposed rules, without a hand edit; none may be found."""
import json
import os
import re
import sqlite3
import subprocess

from test_basesdedatos import _pg_bin, _psql, postgres  # noqa: F401  (a throwaway server of this module)
from test_inferir import CLI, _inferir

AQUI = os.path.dirname(os.path.abspath(__file__))
DDL_SQLITE = os.path.join(AQUI, "..", "referencia", "app_sqlite.sql")
DDL_PG = os.path.join(AQUI, "..", "referencia", "app_pg.sql")
CLAVE = "6d3c0e1f8a2b4c5d9e7f00112233445566778899aabbccddeeff102132435465"


def _correr(*args, entrada=None, env=None):
    p = subprocess.run([CLI, *args], capture_output=True, input=entrada, env=env)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def _llena(tmp_path):
    """The reference application in SQLite, filled (seed 42), with the planted values; its path."""
    db = tmp_path / "prod.db"
    con = sqlite3.connect(db)
    con.executescript(open(DDL_SQLITE).read())
    con.close()
    rc, doc, err = _inferir(f"sqlite:{db}", "--filas-vacia", "300")
    assert rc == 0, err
    (tmp_path / "app.toml").write_text(doc)
    rc, _, err = _correr("esquema", str(tmp_path / "app.toml"), "--seed", "42", "--hacia", f"sqlite:{db}")
    assert rc == 0, err
    con = sqlite3.connect(db)
    clientes = con.execute("SELECT id, rut, nombre, telefono FROM clientes ORDER BY id").fetchall()
    # notes naming the client by name and RUT (the "names in notes survive"), one in five
    for i, (cid, rut, nombre, tel) in enumerate(clientes):
        if i % 5 == 0:
            con.execute("UPDATE reclamos SET detalle = ? WHERE id = ?",
                        (f"Llamó {nombre}, RUT {rut}, reclama por cobro duplicado", i + 1))
            con.execute("UPDATE clientes SET preferencias = ? WHERE id = ?",
                        (json.dumps({"contacto": f"{nombre} al {tel}", "canal": "telefono"}, ensure_ascii=False), cid))
    con.commit()
    con.close()
    return db


def _originales(db):
    """What must not survive: RUTs (formatted and bodies), emails, phones' digits, full names."""
    con = sqlite3.connect(db)
    ruts = [r for (r,) in con.execute("SELECT rut FROM clientes UNION SELECT rut FROM empleados")]
    emails = [e for (e,) in con.execute("SELECT email FROM clientes WHERE email IS NOT NULL UNION SELECT email FROM accesos")]
    tels = [t for (t,) in con.execute("SELECT telefono FROM clientes WHERE telefono IS NOT NULL "
                                       "UNION SELECT celular FROM empleados WHERE celular IS NOT NULL")]
    nombres = [n for (n,) in con.execute("SELECT nombre FROM clientes")]
    con.close()
    assert len(ruts) >= 300 and len(emails) >= 300 and len(tels) >= 100 and len(nombres) >= 300
    cuerpos = {re.sub(r"\D", "", r[:-1]) for r in ruts}
    digitos_tel = {re.sub(r"\D", "", t)[-8:] for t in tels}
    return set(ruts), cuerpos, set(emails), digitos_tel, set(nombres)


def _exportar(db, tabla, ruta):
    """A table as CSV (a header, then its rows; NULL as an empty cell), as a user's export would be."""
    import csv
    con = sqlite3.connect(db)
    cur = con.execute(f'SELECT * FROM "{tabla}"')
    with open(ruta, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([d[0] for d in cur.description])
        w.writerows(["" if v is None else v for v in fila] for fila in cur)
    con.close()


def _enmascarar_tabla(db, t, reglas, clave_archivo, tmp_path):
    """Table t exported as CSV and masked by `enmascarar --tabla t` with the database's rules: the two paths."""
    entrada, salida = tmp_path / f"{t}.csv", tmp_path / f"{t}.masked.csv"
    _exportar(db, t, entrada)
    rc, _, err = _correr("enmascarar", "--reglas", str(reglas), "--tabla", t, "--clave-archivo", str(clave_archivo),
                         "--entrada", str(entrada), "--salida", str(salida))
    assert rc == 0, f"table {t}: {err}"
    return entrada, salida


def test_sqlite_rules_for_every_table_leave_no_planted_value(tmp_path):
    db = _llena(tmp_path)
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    assert rc == 0, err
    con = sqlite3.connect(db)
    tablas = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                       "ORDER BY name")]
    con.close()
    assert len(tablas) == 25
    for t in tablas:
        clave = t if re.fullmatch(r"[A-Za-z0-9_-]+", t) else f'"{t}"'
        assert f"\n[tablas.{clave}.columnas]  # " in doc, f"no section for table {t}:\n{doc}"
    assert doc.startswith(f"# datoteca detectar sqlite:{db}: 25 tables, up to 1000 rows sampled from each.\n")
    # reviewed proposals for the columns the leak check is about
    for linea in ['rut = { regla = "rut" }', 'email = { regla = "persona", campo = "email", entidad = "rut" }',
                  'detalle = { regla = "texto" }', 'rut_cliente = { regla = "rut" }']:
        assert linea in doc, f"{linea!r} not proposed:\n{doc}"
    reglas = tmp_path / "reglas.toml"
    reglas.write_text(doc)
    clave_archivo = tmp_path / "clave.hex"
    clave_archivo.write_text(CLAVE)
    os.chmod(clave_archivo, 0o600)

    hallados, filas = _fugas(db, tablas, reglas, clave_archivo, tmp_path)
    assert filas >= 300 * 20
    assert hallados == [], f"planted values found after masking (table, kind; values not printed): {hallados}"
    # the check can fail: the notes kept as they are give back the planted RUTs and names
    reglas.write_text(doc.replace('detalle = { regla = "texto" }', 'detalle = { regla = "mantener" }'))
    hallados, _ = _fugas(db, ["reclamos"], reglas, clave_archivo, tmp_path)
    assert ("reclamos", "full name") in hallados and ("reclamos", "rut") in hallados, hallados


def _fugas(db, tablas, reglas, clave_archivo, tmp_path):
    """Every table exported, masked by its rules of the document `reglas`, and searched for the originals:
    the sorted (table, kind) pairs found, and the rows masked."""
    ruts, cuerpos, emails, tels, nombres = _originales(db)
    hallados = []
    filas_enmascaradas = 0
    for t in tablas:
        _, salida = _enmascarar_tabla(db, t, reglas, clave_archivo, tmp_path)
        texto = salida.read_text()
        filas_enmascaradas += texto.count("\n") - 1
        corridas = set(re.findall(r"\d{7,8}", texto))
        for r in ruts:
            if r in texto:
                hallados.append((t, "rut"))
        for c in cuerpos & corridas:
            if re.search(rf"(?<!\d){c}(?!\d)", texto):
                hallados.append((t, "rut body"))
        for e in emails:
            if e in texto:
                hallados.append((t, "email"))
        solo_digitos = re.sub(r"[^\d\n,]", "", texto)
        for d in tels:
            if d in solo_digitos:
                hallados.append((t, "phone"))
        for n in nombres:
            if n in texto:
                hallados.append((t, "full name"))
    return sorted(set(hallados)), filas_enmascaradas


def test_banco_cuentarut_numbers_do_not_survive(tmp_path):
    """The shipped banco schema in SQLite with 3,000 clientes (the file's 50,000, scaled down here for time):
    its CuentaRUT numbers are their holder's RUT body, next to the holder's RUT. detectar URL must see it
    (derivado) with no hand edit. Then no row keeps its own RUT, body or email, and an original RUT or body
    found anywhere else is only ever the masked value of another row: the keyed permutation maps RUTs onto
    RUTs of their class, so a masked RUT can equal someone else's real one (1 of 3,000 here), attached to
    a fake persona, never to its owner's data."""
    doc_banco = open(os.path.join(AQUI, "..", "..", "esquemas", "banco.toml")).read()
    assert "filas = 50000" in doc_banco
    (tmp_path / "banco.toml").write_text(doc_banco.replace("filas = 50000", "filas = 3000"))
    db = tmp_path / "banco.db"
    rc, _, err = _correr("esquema", str(tmp_path / "banco.toml"), "--seed", "42", "--formato", "sqlite", "--salida", str(db))
    assert rc == 0, err
    con = sqlite3.connect(db)
    tablas = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    cuentarut = con.execute("SELECT count(*) FROM cuentas WHERE numero = replace(substr(rut_titular, 1, length(rut_titular) - 2), "
                            "'.', '')").fetchone()[0]
    ruts = {r for (r,) in con.execute("SELECT rut FROM clientes")}
    emails = {e for (e,) in con.execute("SELECT email FROM clientes")}
    con.close()
    assert cuentarut == 2096, f"seed 42: 2,096 of 6,008 account numbers are their holder's body, got {cuentarut}"
    cuerpos = {re.sub(r"\D", "", r[:-1]) for r in ruts}
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    assert rc == 0, err
    assert 'numero = { regla = "derivado", otros = "mantener" }' in doc, doc
    reglas, clave_archivo = tmp_path / "reglas.toml", tmp_path / "clave.hex"
    reglas.write_text(doc)
    clave_archivo.write_text(CLAVE)
    os.chmod(clave_archivo, 0o600)
    import csv
    for t in tablas:
        entrada, salida = _enmascarar_tabla(db, t, reglas, clave_archivo, tmp_path)
        originales = list(csv.reader(open(entrada, newline="")))
        enmascaradas = list(csv.reader(open(salida, newline="")))
        assert len(originales) == len(enmascaradas) and originales[0] == enmascaradas[0], f"table {t}: rows or header changed"
        cabecera = originales[0]
        propios = 0
        ajenos = {}
        for fila, (o, m) in enumerate(zip(originales[1:], enmascaradas[1:]), start=1):
            for j, (vo, vm) in enumerate(zip(o, m)):
                d = re.sub(r"\D", "", vm[:-1]) if vm[-2:-1] == "-" else vm
                if vm in ruts or vm in emails or (d in cuerpos and re.fullmatch(r"[\d.]+(-[\dkK])?", vm)):
                    if vm == vo and vo:
                        propios += 1  # the row's own value survived: a leak
                    else:
                        ajenos.setdefault(cabecera[j], 0)
                        ajenos[cabecera[j]] += 1
        assert propios == 0, f"table {t}: {propios} values kept as they were (values not printed)"
        # a value found that is not the row's own: a RUT or body the permutation gave another row
        for col, n in ajenos.items():
            assert col in ("rut", "rut_titular", "numero"), f"table {t}, column {col}: {n} original values of other rows found"
            assert n <= 10, f"table {t}, column {col}: {n} masked values equal other rows' originals (about 1 in 3,000 expected)"


def test_a_foreign_key_takes_its_parents_rule(tmp_path):
    """An empty child table samples nothing, so on its own every column would be proposed mantener, and
    the RUTs it gets later would be copied as they are. Its foreign key to clientes.rut gives it the
    parent's rule; a copy with rows added after the rules were written holds the join and leaks none."""
    db = tmp_path / "app.db"
    con = sqlite3.connect(db)
    con.executescript("CREATE TABLE clientes (rut text PRIMARY KEY, email text NOT NULL UNIQUE);"
                      "CREATE TABLE pagos (id integer PRIMARY KEY, rut_pagador text NOT NULL REFERENCES clientes (rut),"
                      " email_aviso text REFERENCES clientes (email));")
    ruts = ["12.345.678-5", "7.796.476-2", "15.204.781-9"]
    con.executemany("INSERT INTO clientes VALUES (?, ?)", [(r, f"c{i}@correo.cl") for i, r in enumerate(ruts)])
    con.commit()
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    assert rc == 0, err
    assert 'rut_pagador = { regla = "rut" }  # 0 non-empty: a FOREIGN KEY to clientes.rut, so its rule (the join holds)' in doc, doc
    # nothing sampled is no evidence: an email by its name, masked (never mantener), and the comment says the join
    # to a persona-masked parent must be reviewed
    assert ("email_aviso = { regla = \"email\" }  # 0 non-empty: nothing sampled, so by its name and type (private by "
            "default: review when rows come); a FOREIGN KEY to clientes.email, whose rule needs a column of its own row: "
            "review, the join may not hold") in doc, doc
    reglas = tmp_path / "reglas.toml"
    reglas.write_text(doc)
    con.executemany("INSERT INTO pagos (rut_pagador) VALUES (?)", [(r,) for r in ruts])
    con.commit()
    con.close()
    destino = tmp_path / "copia.db"
    rc, _, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 0, err
    c = sqlite3.connect(destino)
    pagadores = [r for (r,) in c.execute("SELECT rut_pagador FROM pagos ORDER BY id")]
    assert c.execute("PRAGMA foreign_key_check").fetchall() == [] and len(pagadores) == 3
    assert not set(pagadores) & set(ruts), "a RUT added to the child after the rules were written was copied as it was"
    c.close()


def test_refusals_name_no_value(tmp_path):
    db = _llena(tmp_path)
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    reglas = tmp_path / "reglas.toml"
    reglas.write_text(doc)
    (tmp_path / "clave.hex").write_text(CLAVE)
    os.chmod(tmp_path / "clave.hex", 0o600)
    _exportar(db, "clientes", tmp_path / "c.csv")
    base = ["enmascarar", "--reglas", str(reglas), "--clave-archivo", str(tmp_path / "clave.hex"), "--entrada", str(tmp_path / "c.csv")]
    # a table the document does not have: refused, privacy by default
    rc, out, err = _correr(*base, "--tabla", "clientes_2024")
    assert rc == 2 and out == "" and "tablas has no table 'clientes_2024': every table masked needs its rules" in err, err
    # a column added to the table after the rules were written stops the run, naming the table's section
    import csv
    filas = list(csv.reader(open(tmp_path / "c.csv", newline="")))
    with open(tmp_path / "c2.csv", "w", newline="") as f:
        csv.writer(f).writerows([filas[0] + ["rut_conyuge"]] + [r + ["12.345.678-5"] for r in filas[1:]])
    rc, out, err = _correr(*base[:-1], str(tmp_path / "c2.csv"), "--tabla", "clientes")
    assert rc == 2 and out == "" and "the input's column 'rut_conyuge' has no rule in tablas.clientes.columnas (a column " \
        "added after the rules were written is not masked by assumption)" in err and "12.345.678-5" not in err, err
    # a key pasted where the table's name goes is refused and not printed
    rc, out, err = _correr(*base, "--tabla", CLAVE)
    assert rc == 2 and CLAVE not in err + out and "--tabla is 64 hexadecimal digits" in err, err
    # the database document without --tabla: the single-table reader names what it found
    rc, out, err = _correr(*base)
    assert rc == 2 and "unknown key 'tablas' (masking rules take version, columnas and politica)" in err, err
    # a URL no connector takes; a second argument is not printed (it may be a password)
    rc, out, err = _correr("detectar", "sqlite:" + str(tmp_path / "no-existe.db"))
    assert rc == 2 and out == "", err
    rc, out, err = _correr("detectar", f"sqlite:{db}", "secreto-9931")
    assert rc == 2 and "secreto-9931" not in err, err


def test_postgresql_tables_of_other_schemas_are_qualified(postgres, tmp_path):  # noqa: F811
    base = postgres
    _psql(base, "DROP DATABASE IF EXISTS det_origen")
    _psql(base, "CREATE DATABASE det_origen")
    subprocess.run([_pg_bin("psql"), "-h", base, "-U", "postgres", "-d", "det_origen", "-v", "ON_ERROR_STOP=1", "-q", "-f",
                    DDL_PG], check=True, capture_output=True)
    url = f"postgresql://postgres@/det_origen?host={base}"
    rc, doc, err = _inferir(url, "--filas-vacia", "50")
    assert rc == 0, err
    (tmp_path / "app.toml").write_text(doc)
    rc, _, err = _correr("esquema", str(tmp_path / "app.toml"), "--seed", "42", "--hacia", url)
    assert rc == 0, err
    rc, doc, err = _correr("detectar", url, "--filas", "20")
    assert rc == 0, err
    assert '[tablas."ventas.facturas".columnas]  # 20 rows sampled, 4 columns' in doc, doc
    assert '[tablas."auth.accesos".columnas]  # 20 rows sampled, 3 columns' in doc, doc
    assert "[tablas.clientes.columnas]  # 20 rows sampled, 10 columns" in doc, doc
    assert '[tablas.user.columnas]' in doc and "\nrut_cliente = { regla = \"rut\" }" in doc, doc
    # the password of a URL is never printed
    rc, out, err = _correr("detectar", "postgresql://ana:secreto-5521@127.0.0.1:1/app?connect_timeout=3")
    assert rc == 2 and "secreto-5521" not in err + out and "127.0.0.1" in err, err


# ---- datoteca copiar: the whole database, masked, into a new one ----

def _copiar(tmp_path, db, reglas, destino, *extra):
    (tmp_path / "clave.hex").write_text(CLAVE)
    os.chmod(tmp_path / "clave.hex", 0o600)
    return _correr("copiar", "--desde", f"sqlite:{db}", "--hacia", f"sqlite:{destino}", "--reglas", str(reglas),
                   "--clave-archivo", str(tmp_path / "clave.hex"), *extra)


def test_copiar_sqlite_whole_database_masked(tmp_path):
    """detectar then copiar, no hand edit: every table and object of the source in the copy, the same row
    counts, SQLite's own foreign_key_check and integrity_check clean (run here through Python's sqlite3,
    not by the copy), the generated column recomputed, no planted value found in any cell of any table,
    and the same key giving the same rows."""
    db = _llena(tmp_path)
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    assert rc == 0, err
    reglas = tmp_path / "reglas.toml"
    reglas.write_text(doc)
    assert 'creado = { regla = "sustituir", llamada = "fecha.fecha_hora" }  # 300 non-empty, dates 300: a timestamp ' \
           'column, as its database declares it' in doc, doc
    destino = tmp_path / "staging.db"
    rc, out, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 0, err
    assert out == "" and err == "datoteca copiar: 25 tables, 7500 rows masked, every foreign key checked\n", err
    assert sorted(os.listdir(tmp_path)) == sorted(["prod.db", "app.toml", "reglas.toml", "clave.hex", "staging.db"])
    src, dst = sqlite3.connect(db), sqlite3.connect(destino)
    objetos = "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name"
    assert dst.execute(objetos).fetchall() == src.execute(objetos).fetchall()
    for (t,) in src.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"):
        a = src.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        b = dst.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        assert a == b, f"table {t}: {a} rows in the source, {b} in the copy"
    assert dst.execute("PRAGMA foreign_key_check").fetchall() == []
    assert dst.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert dst.execute("SELECT count(*) FROM movimientos WHERE monto_iva IS NOT monto * 19 / 100").fetchone() == (0,)
    # the joins hold: every complaint's RUT is a client's masked RUT
    assert dst.execute("SELECT count(*) FROM reclamos WHERE rut_cliente NOT IN (SELECT rut FROM clientes)").fetchone() == (0,)
    ruts, cuerpos, emails, tels, nombres = _originales(db)
    celdas = ["" if v is None else str(v)
              for (t,) in dst.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
              for fila in dst.execute(f'SELECT * FROM "{t}"').fetchall() for v in fila]
    texto = "\n".join(celdas)
    digitos = "|".join(re.sub(r"\D", "", c) for c in celdas)  # each cell's digits, its format stripped
    src.close()
    dst.close()
    hallados = [k for k, vs in (("rut", ruts), ("email", emails), ("full name", nombres)) if any(v in texto for v in vs)]
    corridas = set(re.findall(r"(?<!\d)\d{7,8}(?!\d)", texto))
    hallados += ["rut body"] if cuerpos & corridas else []
    hallados += ["phone"] if any(d in digitos for d in tels) else []
    assert hallados == [], f"planted values found in the copy (kinds; values not printed): {hallados}"
    # the same key and rules: the same rows
    otro = tmp_path / "otro" / "staging.db"
    otro.parent.mkdir()
    rc, _, err = _copiar(tmp_path, db, reglas, otro)
    assert rc == 0, err
    assert list(sqlite3.connect(otro).iterdump()) == list(sqlite3.connect(destino).iterdump())


def test_copiar_sqlite_to_an_anonymous_dump(tmp_path):
    """--hacia FILE.sql: a plain SQL script that SQLite itself (Python's sqlite3.executescript, not the
    copy's code) loads into an empty database, equal row for row to the direct copy, every foreign key
    holding; no temporary file is left, and an existing dump is never written over."""
    db = _llena(tmp_path)
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    reglas = tmp_path / "reglas.toml"
    reglas.write_text(doc)
    rc, _, err = _copiar(tmp_path, db, reglas, tmp_path / "directa.db")
    assert rc == 0, err
    dump = tmp_path / "copia.sql"
    rc, out, err = _correr("copiar", "--desde", f"sqlite:{db}", "--hacia", str(dump), "--reglas", str(reglas),
                           "--clave-archivo", str(tmp_path / "clave.hex"))
    assert rc == 0 and err.endswith("every foreign key checked; written as an SQL dump\n"), err
    assert not [p.name for p in tmp_path.iterdir() if ".copiando-" in p.name or ".escribiendo-" in p.name]
    texto = dump.read_text()
    assert texto.startswith("-- a masked copy written by datoteca copiar") and texto.endswith("COMMIT;\n")
    cargada = sqlite3.connect(tmp_path / "cargada.db")
    cargada.executescript(texto)
    assert cargada.execute("PRAGMA foreign_key_check").fetchall() == []
    assert list(cargada.iterdump()) == list(sqlite3.connect(tmp_path / "directa.db").iterdump())
    cargada.close()
    rc, _, err = _correr("copiar", "--desde", f"sqlite:{db}", "--hacia", str(dump), "--reglas", str(reglas),
                         "--clave-archivo", str(tmp_path / "clave.hex"))
    assert rc == 2 and "--hacia names a file that exists; copiar writes a new dump only" in err and dump.read_text() == texto


def test_copiar_sqlite_refusals_write_nothing(tmp_path):
    db = _llena(tmp_path)
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    reglas = tmp_path / "reglas.toml"
    destino = tmp_path / "staging.db"
    # a table without rules: stopped before anything is written
    reglas.write_text(doc.replace("[tablas.etiquetas.columnas]", "[tablas.etiquetas_viejas.columnas]"))
    rc, out, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 2 and "datoteca: copiar: reglas.toml:" in err and "tablas has no table 'etiquetas'" in err, err
    assert not destino.exists() and not list(tmp_path.glob("staging.db*"))
    # a foreign key whose child column has another rule than its parent: the check after the load
    # refuses, and no file is left
    reglas.write_text(doc.replace('rut_cliente = { regla = "rut" }',
                                  'rut_cliente = { regla = "sustituir", llamada = "rut" }'))
    rc, out, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 2 and "table reclamos, rowid 1: its foreign key to clientes does not hold after masking" in err, err
    assert not destino.exists() and not list(tmp_path.glob("staging.db*"))
    # a value its rule cannot mask (a name under the RUT rule) and a UNIQUE column the masking repeats: refused in
    # row order with one whole line each (no value printed), no file left
    reglas.write_text(doc.replace('segmento = { regla = "mantener" }', 'segmento = { regla = "rut" }', 1))
    assert 'segmento = { regla = "mantener" }' in doc
    rc, out, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 2 and err.startswith("datoteca: copiar: table clientes: ") and err.endswith("(nothing was written)\n"), err
    assert "\\n" not in err and "personas" not in err and not destino.exists(), err
    reglas.write_text(doc.replace('email = { regla = "email" }', 'email = { regla = "sustituir", llamada = "persona.sexo" }', 1))
    rc, out, err = _copiar(tmp_path, db, reglas, destino, "--jobs", "2")
    assert rc == 2 and re.fullmatch(r"datoteca: copiar: table accesos, row \d+: UNIQUE constraint failed: accesos\.email \(nothing "
                                    r"was written\)\n", err), err
    assert not destino.exists() and not list(tmp_path.glob("staging.db*"))
    # an existing target is never written over
    destino.write_bytes(b"")
    reglas.write_text(doc)
    rc, out, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 2 and "--hacia names a file that exists" in err and destino.read_bytes() == b"", err
    destino.unlink()
    # a key where the target goes: refused, not printed, nothing written
    rc, out, err = _correr("copiar", "--desde", f"sqlite:{db}", "--hacia", CLAVE, "--reglas", str(reglas))
    assert rc == 2 and CLAVE not in err and "--hacia is 64 hexadecimal digits" in err, err
    # across kinds (PostgreSQL into SQLite): said, the URL not printed
    rc, out, err = _correr("copiar", "--desde", "postgresql://ana:secreto-7@h/app", "--hacia", f"sqlite:{destino}",
                           "--reglas", str(reglas), "--clave-archivo", str(tmp_path / "clave.hex"))
    assert rc == 2 and "secreto-7" not in err and "--desde and --hacia must be of one kind" in err, err
    assert not destino.exists()


def _cuentas_por_tabla(ruta):
    con = sqlite3.connect(ruta)
    n = {t: con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
         for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    con.close()
    return n


def test_copiar_sqlite_subset_keeps_every_reference(tmp_path):
    """--subconjunto clientes=10%: about 30 of the 300 clientes (binomial: 15 to 45 in all but 1 run in
    10,000), every row a kept row references kept too (SQLite's foreign_key_check, through the self-
    reference, the cycles and the composite foreign key), the same --semilla the same rows and another
    seed others; --con-hijos keeps every cuenta of a kept cliente, as the source has them."""
    db = _llena(tmp_path)
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    reglas = tmp_path / "reglas.toml"
    reglas.write_text(doc)
    a, b, otra, hijos = (tmp_path / n for n in ("a.db", "b.db", "otra.db", "hijos.db"))
    for destino, extra in ((a, ["--semilla", "7"]), (b, ["--semilla", "7"]), (otra, ["--semilla", "8"]),
                           (hijos, ["--semilla", "7", "--con-hijos"])):
        rc, _, err = _copiar(tmp_path, db, reglas, destino, "--subconjunto", "clientes=10%", *extra)
        assert rc == 0 and "(a subset), every foreign key checked" in err, err
        con = sqlite3.connect(destino)
        assert con.execute("PRAGMA foreign_key_check").fetchall() == [], destino.name
        con.close()
    n = _cuentas_por_tabla(a)
    assert 15 <= n["clientes"] <= 45, f"seed 7: {n['clientes']} of 300 clientes kept for 10 %"
    assert list(sqlite3.connect(a).iterdump()) == list(sqlite3.connect(b).iterdump()), "the same seed kept other rows"
    ids = lambda ruta: {i for (i,) in sqlite3.connect(ruta).execute("SELECT id FROM clientes")}  # noqa: E731 (ids are kept)
    assert ids(a) != ids(otra), "seeds 7 and 8 kept the same clientes"
    # with the children: the cuentas of the kept clientes, all of them (clientes.id and cuentas.cliente_id kept as they are)
    kept = ids(hijos)
    assert kept == ids(a)
    fuente = sqlite3.connect(db)
    esperadas = sum(1 for (c,) in fuente.execute("SELECT cliente_id FROM cuentas") if c in kept)
    fuente.close()
    nh = _cuentas_por_tabla(hijos)
    assert nh["cuentas"] == esperadas > 0, f"{nh['cuentas']} cuentas copied, the kept clientes have {esperadas}"
    assert all(nh[t] <= v for t, v in _cuentas_por_tabla(db).items()), "a subset larger than its source"
    # a root chosen by a condition (SQLite's own SQL): exactly those clientes, and their cuentas
    donde = tmp_path / "donde.db"
    rc, _, err = _copiar(tmp_path, db, reglas, donde, "--donde", "clientes=id <= 20", "--con-hijos")
    assert rc == 0 and "(a subset)" in err, err
    con = sqlite3.connect(donde)
    assert [i for (i,) in con.execute("SELECT id FROM clientes ORDER BY id")] == list(range(1, 21))
    fuente = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM cuentas").fetchone() == fuente.execute("SELECT count(*) FROM cuentas WHERE cliente_id <= 20").fetchone()
    con.close()
    fuente.close()
    # docs/copia.md's condition: only the pyme clientes kept, all of them
    pyme = tmp_path / "pyme.db"
    rc, _, err = _copiar(tmp_path, db, reglas, pyme, "--donde", "clientes=segmento = 'pyme'", "--con-hijos")
    assert rc == 0, err
    con, fuente = sqlite3.connect(pyme), sqlite3.connect(db)
    segmentos = [g for (g,) in con.execute("SELECT segmento FROM clientes")]
    esperados = fuente.execute("SELECT count(*) FROM clientes WHERE segmento = 'pyme'").fetchone()[0]
    con.close()
    fuente.close()
    assert len(segmentos) == esperados > 0 and set(segmentos) == {"pyme"}, (len(segmentos), esperados, set(segmentos))
    # a bad share, an unknown table, a seed without a subset, a bad condition: refused, nothing written
    for extra, frase in ((["--subconjunto", "clientes=0%"], "--subconjunto must be TABLE=N%"),
                         (["--subconjunto", "nada=10%"], "--subconjunto names a table the source does not have: nada"),
                         (["--semilla", "3"], "give --subconjunto or --donde too"),
                         (["--donde", "clientes"], "--donde must be TABLE=CONDITION"),
                         (["--donde", "clientes=no_hay > 1"], "no such column: no_hay")):
        destino = tmp_path / "mal.db"
        rc, _, err = _copiar(tmp_path, db, reglas, destino, *extra)
        assert rc == 2 and frase in err and not destino.exists(), err


def test_copiar_sqlite_jobs_give_the_same_bytes(tmp_path):
    """--jobs 3 on 10,000 personas (three blocks masked on three threads, inserted in row order): the same database,
    dumped by SQLite itself, and the same SQL dump, as one job."""
    db = tmp_path / "personas.db"
    sql = subprocess.run([CLI, "tabla", "persona", "-n", "10000", "--seed", "3", "--format", "sql", "--dialecto", "sqlite",
                          "--nombre", "personas", "--campos", "rut,nombre_completo,email,telefono,fecha_nacimiento"],
                         check=True, capture_output=True).stdout.decode()
    con = sqlite3.connect(db)
    con.executescript(sql)
    con.close()
    rc, doc, err = _correr("detectar", f"sqlite:{db}")
    assert rc == 0, err
    reglas = tmp_path / "reglas.toml"
    reglas.write_text(doc)
    copias, volcados = [], []
    for jobs in ("1", "3"):
        destino = tmp_path / f"copia-{jobs}.db"
        rc, _, err = _copiar(tmp_path, db, reglas, destino, "--jobs", jobs)
        assert rc == 0 and "10000 rows masked" in err, err
        copias.append(list(sqlite3.connect(destino).iterdump()))
        volcado = tmp_path / f"copia-{jobs}.sql"
        rc, _, err = _correr("copiar", "--desde", f"sqlite:{db}", "--hacia", str(volcado), "--reglas", str(reglas),
                             "--clave-archivo", str(tmp_path / "clave.hex"), "--jobs", jobs)
        assert rc == 0, err
        volcados.append(volcado.read_bytes())
    assert len(copias[0]) > 10_000 and copias[0] == copias[1]
    assert volcados[0] == volcados[1]
