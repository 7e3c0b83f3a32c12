"""The review of the output (issue 48: private by default, checked at copy time; docs/copia.md and
docs/enmascarar.md, "The review of the output"), and BLOBs in a SQLite copy.

`copiar` and `enmascarar` count, with the library's detector, the values they wrote as they were: every value
of a kept column (mantener), and every masked value a rule passed through unchanged at its own row. A column
where names, RUTs, emails, phones, plates or text with data were written as they were is named on stderr
(counts only, never a value); --estricto exits 3 then; --revision-json FILE writes the whole review as JSON.
Every test here is SQLite or CSV, no server. The names are the library's own (`datoteca tabla persona`)."""
import csv
import io
import json
import os
import sqlite3
import struct
import subprocess
import zlib

import pytest

AQUI = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("DATOTECA_CLI", os.path.join(AQUI, "..", "..", "build-c", "datoteca"))
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key


def _correr(*args):
    env = dict(os.environ, DATOTECA_CLAVE=CLAVE)
    p = subprocess.run([CLI, *[str(a) for a in args]], capture_output=True, env=env)
    return p.returncode, p.stdout, p.stderr.decode()


def _personas(n):
    """n rows of the library's fake people: given names, surnames, emails, comunas."""
    rc, out, err = _correr("tabla", "persona", "-n", n, "--seed", "7", "--campos", "nombres,apellido_paterno,email,comuna",
                           "--format", "csv")
    assert rc == 0, err
    return list(csv.DictReader(io.StringIO(out.decode("utf-8"))))


def _png():
    """A real 1x1 PNG: a staff photo."""
    def trozo(tipo, datos):
        return struct.pack(">I", len(datos)) + tipo + datos + struct.pack(">I", zlib.crc32(tipo + datos) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + trozo(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + trozo(b"IDAT", zlib.compress(b"\x00\xff\x80\x00")) + trozo(b"IEND", b""))


def _clientes(tmp_path, n=60):
    """prod.db: customer(id, first_name, last_name, email, city, note), n rows of fake people."""
    db = tmp_path / "prod.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE customer (id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT, city TEXT, "
                "note TEXT)")
    for i, p in enumerate(_personas(n), 1):
        con.execute("INSERT INTO customer VALUES (?, ?, ?, ?, ?, ?)",
                    (i, p["nombres"].split()[0], p["apellido_paterno"], p["email"], p["comuna"], "cliente preferente"))
    con.commit()
    con.close()
    return db


def _reglas(tmp_path, tabla, columnas, nombre="reglas.toml"):
    r = tmp_path / nombre
    r.write_text("version = 1\n[tablas.%s.columnas]\n" % tabla + "".join(f"{c} = {v}\n" for c, v in columnas.items()))
    return r


KEPT_NAME = {"id": '{ regla = "mantener" }', "first_name": '{ regla = "mantener" }',
             "last_name": '{ regla = "sustituir", llamada = "persona.apellido" }', "email": '{ regla = "email" }',
             "city": '{ regla = "mantener" }', "note": '{ regla = "mantener" }'}


def _copiar(tmp_path, db, reglas, destino, *extra):
    return _correr("copiar", "--desde", f"sqlite:{db}", "--hacia", f"sqlite:{destino}", "--reglas", reglas,
                   "--clave-de-prueba", *extra)


def _linea(err, columna):
    """The review's line for a column ("  customer.first_name: kept; ..."), or None."""
    for l in err.splitlines():
        if l.startswith(f"  {columna}: "):
            return l
    return None


# ---- copiar: kept columns named and counted ----

def test_a_kept_first_name_is_named_and_its_names_counted(tmp_path):
    db = _clientes(tmp_path)
    rc, _, err = _copiar(tmp_path, db, _reglas(tmp_path, "customer", KEPT_NAME), tmp_path / "staging.db")
    assert rc == 0, f"copiar with a kept first_name: expected exit 0 (no --estricto), got {rc}: {err}"
    l = _linea(err, "customer.first_name")
    assert l is not None, f"customer.first_name: expected a review line on stderr, got: {err!r}"
    assert "kept" in l and "60 non-empty values checked" in l and "60 of 60 look like names" in l and l.endswith("(personal)"), \
        f"customer.first_name: expected 'kept; 60 ... 60 of 60 look like names (personal)', got {l!r}"
    city = _linea(err, "customer.city")
    assert city is not None and "(personal)" not in city and "like comunas" in city, \
        f"customer.city: expected kept, comunas counted, not personal; got {city!r}"
    ident = _linea(err, "customer.id")
    assert ident is not None and "(personal)" not in ident, \
        f"customer.id (integers, 1 in 11 pass a RUT's check): expected kept, not personal; got {ident!r}"
    note = _linea(err, "customer.note")
    assert note is not None and note.endswith("nothing personal seen"), f"customer.note: expected nothing personal, got {note!r}"
    assert _linea(err, "customer.email") is None and _linea(err, "customer.last_name") is None, \
        f"masked columns with nothing passed through: expected no line, got {err!r}"
    for p in _personas(60):  # never a value: only names and counts
        assert p["nombres"].split()[0] not in err.replace("first_name", ""), "a value on stderr"


def test_estricto_exits_3_and_says_the_copy_stays(tmp_path):
    db = _clientes(tmp_path)
    destino = tmp_path / "staging.db"
    rc, _, err = _copiar(tmp_path, db, _reglas(tmp_path, "customer", KEPT_NAME), destino, "--estricto")
    assert rc == 3, f"customer.first_name kept under --estricto: expected exit 3, got {rc}: {err}"
    assert "the copy is written and stays" in err, f"--estricto on a copy: expected it to say the copy stays, got {err!r}"
    assert destino.exists(), "--estricto on a copy: expected the target to stay (the review reports, it does not undo)"
    assert sqlite3.connect(destino).execute("SELECT count(*) FROM customer").fetchone()[0] == 60


def test_estricto_passes_when_names_are_masked(tmp_path):
    db = _clientes(tmp_path)
    reglas = dict(KEPT_NAME, first_name='{ regla = "sustituir", llamada = "persona.nombres" }')
    rc, _, err = _copiar(tmp_path, db, _reglas(tmp_path, "customer", reglas), tmp_path / "staging.db", "--estricto")
    assert rc == 0, f"first_name masked, only id, city and note kept: expected exit 0 under --estricto, got {rc}: {err}"
    assert "(personal)" not in err and "0 columns personal" in err, f"expected no personal column, got {err!r}"
    rc, _, err = _copiar(tmp_path, db, _reglas(tmp_path, "customer", reglas), tmp_path / "staging2.db")
    assert rc == 0 and "review of the output" not in err, \
        f"nothing personal written as it was, no --estricto: expected no review on stderr, got {rc}: {err!r}"


def test_a_rule_passing_values_through_is_found_and_a_masking_one_is_not(tmp_path):
    """derivado with otros = "mantener" keeps a value holding no RUT body: last names pass through as they were.
    The same column under sustituir: nothing passed through."""
    db = _clientes(tmp_path)
    reglas = dict(KEPT_NAME, first_name='{ regla = "sustituir", llamada = "persona.nombres" }',
                  last_name='{ regla = "derivado", otros = "mantener" }')
    rc, _, err = _copiar(tmp_path, db, _reglas(tmp_path, "customer", reglas), tmp_path / "a.db", "--estricto")
    l = _linea(err, "customer.last_name")
    assert rc == 3, f"customer.last_name passed through by its rule: expected exit 3 under --estricto, got {rc}: {err}"
    assert l is not None and "masked, but 60 of 60 non-empty values checked were written as they were" in l \
        and l.endswith("(personal)"), f"customer.last_name: expected 60 of 60 written as they were, personal; got {l!r}"
    assert _linea(err, "customer.first_name") is None, f"customer.first_name (sustituir): expected no line, got {err!r}"


# ---- determinism: the same review on every run and with any --jobs ----

def test_the_review_is_the_same_across_runs_and_jobs(tmp_path):
    db = _clientes(tmp_path, n=12000)  # past 5,000 rows (then every 200th), and over several blocks
    reglas = _reglas(tmp_path, "customer", KEPT_NAME)
    salidas = []
    for i, jobs in enumerate(("1", "1", "3")):
        j = tmp_path / f"rev{i}.json"
        rc, _, err = _copiar(tmp_path, db, reglas, tmp_path / f"c{i}.db", "--jobs", jobs, "--revision-json", j)
        assert rc == 0, err
        salidas.append((err, j.read_text()))
    assert salidas[0] == salidas[1], f"two runs, --jobs 1: expected the same review, got {salidas[0]!r} and {salidas[1]!r}"
    assert salidas[0] == salidas[2], f"--jobs 1 and --jobs 3: expected the same review, got {salidas[0]!r} and {salidas[2]!r}"
    doc = json.loads(salidas[0][1])
    assert (doc["filas"], doc["revisadas"]) == (12000, 5000 + 35), f"rows and rows checked: got {doc['filas']}, {doc['revisadas']}"
    fn = next(c for c in doc["columnas"] if c["columna"] == "first_name")
    assert fn["tabla"] == "customer" and fn["mantenida"] and fn["personal"] and fn["llenos"] == 5035, fn
    assert fn["parecen"]["nombres"] * 100 >= 99 * fn["llenos"], f"customer.first_name: expected 99 % names, got {fn}"


# ---- SQLite BLOBs: mantener, nulo, borrar; a value rule refused ----

def _fotos(tmp_path):
    db = tmp_path / "fotos.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE staff (id INTEGER PRIMARY KEY, photo BLOB, thumb BLOB NOT NULL, badge BLOB)")
    for i in range(1, 6):
        con.execute("INSERT INTO staff VALUES (?, ?, ?, ?)", (i, _png(), bytes([0, 1, i, 0]), b"\xff\xd8\xff\xe0" + bytes([i])))
    con.commit()
    con.close()
    return db


def test_blob_under_nulo_mantener_and_borrar_is_copied(tmp_path):
    db = _fotos(tmp_path)
    reglas = _reglas(tmp_path, "staff", {"id": '{ regla = "mantener" }', "photo": '{ regla = "nulo" }',
                                         "thumb": '{ regla = "mantener" }', "badge": '{ regla = "borrar" }'})
    destino = tmp_path / "staging.db"
    rc, _, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 0, f"staff: photo nulo, thumb mantener, badge borrar: expected exit 0, got {rc}: {err}"
    filas = sqlite3.connect(destino).execute("SELECT id, photo, thumb, badge, typeof(thumb) FROM staff ORDER BY id").fetchall()
    assert [f[1] for f in filas] == [None] * 5, f"staff.photo under nulo: expected NULL, got {[f[1] for f in filas]!r}"
    assert [f[2] for f in filas] == [bytes([0, 1, i, 0]) for i in range(1, 6)] and {f[4] for f in filas} == {"blob"}, \
        f"staff.thumb under mantener: expected the same bytes as a BLOB, got {filas!r}"
    assert [f[3] for f in filas] == [None] * 5, f"staff.badge under borrar: expected NULL (left out), got {[f[3] for f in filas]!r}"
    reglas = _reglas(tmp_path, "staff", {"id": '{ regla = "mantener" }', "photo": '{ regla = "mantener" }',
                                         "thumb": '{ regla = "mantener" }', "badge": '{ regla = "nulo" }'}, "r2.toml")
    rc, _, err = _copiar(tmp_path, db, reglas, tmp_path / "s2.db", "--jobs", "3")
    assert rc == 0, err
    fotos = [f for (f,) in sqlite3.connect(tmp_path / "s2.db").execute("SELECT photo FROM staff ORDER BY id")]
    assert fotos == [_png()] * 5, "staff.photo under mantener: expected the PNG's bytes exactly"


def test_blob_not_null_under_nulo_is_refused_naming_the_column(tmp_path):
    db = _fotos(tmp_path)
    reglas = _reglas(tmp_path, "staff", {"id": '{ regla = "mantener" }', "photo": '{ regla = "mantener" }',
                                         "thumb": '{ regla = "nulo" }', "badge": '{ regla = "nulo" }'})
    destino = tmp_path / "staging.db"
    rc, _, err = _copiar(tmp_path, db, reglas, destino)
    assert rc == 2, f"staff.thumb NOT NULL under nulo: expected exit 2, got {rc}: {err}"
    assert "staff.thumb" in err and "NOT NULL" in err, f"staff.thumb: expected the refusal to name it, got {err!r}"
    assert not destino.exists(), "a refused copy: expected no target"


def test_blob_under_a_value_rule_is_refused_naming_table_and_column(tmp_path):
    db = _fotos(tmp_path)
    reglas = _reglas(tmp_path, "staff", {"id": '{ regla = "mantener" }', "photo": '{ regla = "email" }',
                                         "thumb": '{ regla = "mantener" }', "badge": '{ regla = "nulo" }'})
    rc, _, err = _copiar(tmp_path, db, reglas, tmp_path / "staging.db")
    assert rc == 2, f"staff.photo under email: expected exit 2, got {rc}: {err}"
    assert "table staff" in err and "column photo" in err and "mantener, nulo, borrar or imagen" in err, \
        f"staff.photo: expected the refusal to name table and column and the rules a BLOB takes, got {err!r}"
    assert "PNG" not in err and "IHDR" not in err, "the refusal printed bytes of the value"


# ---- enmascarar: a CSV ----

def _csv(tmp_path, n):
    f = tmp_path / "clientes.csv"
    with open(f, "w", newline="", encoding="utf-8") as s:
        w = csv.writer(s)
        w.writerow(["id", "first_name", "email", "city"])
        for i, p in enumerate(_personas(n), 1):
            w.writerow([i, p["nombres"].split()[0], p["email"], p["comuna"]])
    r = tmp_path / "reglas.toml"
    r.write_text('version = 1\n[columnas]\nid = { regla = "mantener" }\nfirst_name = { regla = "mantener" }\n'
                 'email = { regla = "email" }\ncity = { regla = "mantener" }\n')
    return f, r


def test_enmascarar_names_a_kept_first_name_and_estricto_removes_the_output(tmp_path):
    entrada, reglas = _csv(tmp_path, 40)
    salida = tmp_path / "out.csv"
    rc, _, err = _correr("enmascarar", "--reglas", reglas, "--clave-de-prueba", "--entrada", entrada, "--salida", salida)
    l = _linea(err, "first_name")
    assert rc == 0 and salida.exists(), f"enmascarar without --estricto: expected exit 0 and the output, got {rc}: {err}"
    assert l is not None and "40 of 40 look like names" in l and l.endswith("(personal)"), \
        f"first_name: expected 'kept; ... 40 of 40 look like names (personal)', got {err!r}"
    salida.unlink()
    rc, _, err = _correr("enmascarar", "--reglas", reglas, "--clave-de-prueba", "--entrada", entrada, "--salida", salida,
                         "--estricto")
    assert rc == 3, f"first_name kept under --estricto: expected exit 3, got {rc}: {err}"
    assert not salida.exists(), "enmascarar --estricto --salida: expected the output file removed when the review fails"
    assert "the output file was removed" in err, err


def test_enmascarar_review_is_the_same_with_any_jobs(tmp_path):
    entrada, reglas = _csv(tmp_path, 7000)
    vistas = []
    for jobs in ("1", "3"):
        j = tmp_path / f"rev{jobs}.json"
        rc, out, err = _correr("enmascarar", "--reglas", reglas, "--clave-de-prueba", "--entrada", entrada, "--jobs", jobs,
                               "--revision-json", j)
        assert rc == 0, err
        vistas.append((out, err, j.read_text()))
    assert vistas[0] == vistas[1], "enmascarar --jobs 1 and 3: expected the same output and the same review"
    doc = json.loads(vistas[0][2])
    assert (doc["filas"], doc["revisadas"]) == (7000, 5010), f"rows, rows checked: got {doc['filas']}, {doc['revisadas']}"
    assert [c["columna"] for c in doc["columnas"] if c["personal"]] == ["first_name"], doc


def test_enmascarar_a_kept_rut_column_is_personal_and_a_kept_integer_key_is_not(tmp_path):
    rc, out, err = _correr("tabla", "persona", "-n", 30, "--seed", "3", "--campos", "rut", "--format", "csv")
    assert rc == 0, err
    ruts = out.decode().splitlines()[1:]
    f = tmp_path / "c.csv"
    # 21636369-8b52-...: a uuid the detector reads as words holding a RUT (its first group is 8 digits)
    f.write_text("id,rut,uuid\n" + "".join(f"{1000 + 7 * i},{r},21636369-8b52-9b4a-97b7-50923ceb3f{i:02d}\n"
                                            for i, r in enumerate(ruts)))
    r = tmp_path / "r.toml"
    r.write_text('version = 1\n[columnas]\nid = { regla = "mantener" }\nrut = { regla = "mantener" }\nuuid = { regla = "mantener" }\n')
    j = tmp_path / "rev.json"
    rc, _, err = _correr("enmascarar", "--reglas", r, "--clave-de-prueba", "--entrada", f, "--revision-json", j, "--estricto")
    assert rc == 3, f"rut kept under --estricto: expected exit 3, got {rc}: {err}"
    cols = {c["columna"]: c for c in json.loads(j.read_text())["columnas"]}
    assert cols["rut"]["personal"] and cols["rut"]["parecen"]["rut"] == 30, f"rut: expected 30 RUTs, personal; got {cols['rut']}"
    assert not cols["id"]["personal"], f"id (integers): expected not personal, got {cols['id']}"
    assert not cols["uuid"]["personal"] and cols["uuid"]["parecen"]["texto"] == 0, f"uuid: expected not judged, got {cols['uuid']}"
