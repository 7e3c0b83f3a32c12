"""Issue 39's findings 1, 5, 7 (the headerless part) and the derived identifiers of issue 41, each measured on
people the library makes, through the CLI as a user runs it (`datoteca detectar`, then `datoteca enmascarar`
with what it proposes):

- a RUT stored as a number with its check digit in another column (`rut_cuerpo,dv`): detectar proposes the
  split rule, and 0 of 1,000 bodies survive; every masked pair passes python-stdnum and equals the same
  person's masked formatted RUT in another column;
- a CuentaRUT number (the holder's RUT body) and a code made of the body: detectar proposes derivado, no
  masked number is a real body, every masked CuentaRUT number is its holder's masked body;
- personal data detectar did not recognise (`Guillermo Alarcón (esposa)`, `1957/08/09`, notes with names)
  is not proposed `mantener`, and 0 of 1,000 contact names and dates pass through;
- a CSV without its header line is refused by detectar and by enmascarar without printing a cell;
- no proposed rules file holds a sampled value (searched for every one).

Failures name the row, the column and the counts, never more of a value than needed."""
import csv
import io
import os
import re
import subprocess

import pytest
from stdnum.cl import rut as stdnum_rut

import datoteca
from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
MUESTRA = os.path.join(ROOT, "ejemplos", "enmascarar")
N = 1000
RELACIONES = ["esposa", "esposo", "hija", "hijo", "madre", "padre", "vecina", "hermano"]


def _csv(columnas, filas):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(columnas)
    w.writerows(filas)
    return out.getvalue()


def _filas(texto):
    return list(csv.DictReader(io.StringIO(texto)))


def _detectar(tmp_path, nombre, texto):
    archivo = tmp_path / nombre
    archivo.write_text(texto, encoding="utf-8")
    p = subprocess.run([CLI, "detectar", str(archivo)], capture_output=True, text=True)
    assert p.returncode == 0, f"detectar {nombre}: exit {p.returncode}: {p.stderr}"
    return p.stdout


def _reglas(toml_text):
    out = {}
    for linea in toml_text.splitlines():
        if " = { regla" in linea:
            col, regla = linea.split(" = ", 1)
            out[col] = regla.split("  #", 1)[0]
    return out


def _enmascarar(tmp_path, reglas, entrada, politica=None):
    clave = tmp_path / "clave.hex"
    if not clave.exists():
        clave.write_text("7d2a9e4c1b8f3065a2d7e9c4b1f80356d9a2e7c4f1b0863a5d2c9e7f4b1a0836\n")  # not a weak key (issue 48)
        os.chmod(clave, 0o600)
    if politica:
        reglas = reglas.replace("version = 1\n", f"version = 1\n\n[politica]\ninvalido = \"{politica}\"\n", 1)
    r = tmp_path / "reglas.toml"
    r.write_text(reglas, encoding="utf-8")
    p = subprocess.run([CLI, "enmascarar", "--reglas", str(r), "--clave-archivo", str(clave)], input=entrada.encode(),
                       capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


@pytest.fixture(scope="module")
def personas():
    d = datoteca.Datoteca(seed=3939, hoy="2026-11-30")
    return [d.persona.persona() for _ in range(N)]


def _cuerpo(rut):
    return stdnum_rut.compact(rut)[:-1]


def test_split_rut_is_proposed_and_masked_with_its_check_digit(tmp_path, personas):
    filas = []
    for p in personas:
        c = stdnum_rut.compact(p["rut"])
        filas.append([p["rut"], c[:-1], c[-1]])
    entrada = _csv(["rut", "rut_cuerpo", "dv"], filas)
    propuesta = _detectar(tmp_path, "partido.csv", entrada)
    reglas = _reglas(propuesta)
    assert reglas.get("rut_cuerpo") == '{ regla = "rut", dv = "dv" }', f"rut_cuerpo: proposed {reglas.get('rut_cuerpo')!r}"
    assert "dv" not in reglas and "# dv: the check digit of rut_cuerpo" in propuesta, propuesta
    rc, salida, err = _enmascarar(tmp_path, propuesta, entrada)
    assert rc == 0, err
    sobrevive = distinto = 0
    for i, (a, b) in enumerate(zip(_filas(entrada), _filas(salida)), start=1):
        sobrevive += b["rut_cuerpo"] == a["rut_cuerpo"]
        assert stdnum_rut.is_valid(b["rut_cuerpo"] + b["dv"]), f"row {i}: the masked pair does not validate"
        distinto += _cuerpo(b["rut"]) != b["rut_cuerpo"] or stdnum_rut.compact(b["rut"])[-1] != b["dv"]
    assert sobrevive == 0, f"{sobrevive} of {N} real RUT bodies survive"
    assert distinto == 0, f"{distinto} of {N} split RUTs differ from the same person's masked formatted RUT"


def test_split_rut_alone_with_a_dotted_body_and_a_wrong_check_digit(tmp_path, personas):
    """Without the formatted column, by the names alone: the pair is found, masked, and a wrong check digit is
    refused naming row and column (politica error), never the value."""
    filas = [[p["rut"].rsplit("-", 1)[0], p["rut"][-1]] for p in personas[:50]]
    filas[7][1] = "0" if filas[7][1] != "0" else "1"
    entrada = _csv(["run", "digito"], filas)
    propuesta = _detectar(tmp_path, "run.csv", entrada)
    assert _reglas(propuesta).get("run") == '{ regla = "rut", dv = "digito" }', propuesta
    rc, salida, err = _enmascarar(tmp_path, propuesta, entrada)
    assert rc == 2 and "row 8, column run: not a valid RUT with its check digit column digito" in err, err
    assert filas[7][0] not in err and filas[7][0].replace(".", "") not in err, "the body is in the sentence"
    rc, salida, err = _enmascarar(tmp_path, propuesta, entrada, politica="invalido")
    assert rc == 0, err
    for i, (a, b) in enumerate(zip(filas, _filas(salida)), start=1):
        assert "." in b["run"] and b["run"] != a[0], f"row {i}: body form or value kept"
        assert stdnum_rut.is_valid(b["run"] + b["digito"]) == (i != 8), f"row {i}: validity not kept"


def test_cuenta_rut_and_codes_made_of_the_body(tmp_path, personas):
    d = datoteca.Datoteca(seed=4141)
    filas, reales = [], set()
    for p in personas:
        cuerpo = int(_cuerpo(p["rut"]))
        reales.add(str(cuerpo))
        c = d.banco.cuenta_titular(cuerpo)
        filas.append([c["numero"], p["rut"], c["tipo_cuenta"], f"CL-{cuerpo:010d}"])
    entrada = _csv(["numero", "rut_titular", "tipo_cuenta", "codigo_cliente"], filas)
    cuenta_rut = sum(f[2] == "CuentaRUT" for f in filas)
    assert cuenta_rut >= 100, f"only {cuenta_rut} CuentaRUT drawn"
    propuesta = _detectar(tmp_path, "cuentas.csv", entrada)
    reglas = _reglas(propuesta)
    assert reglas.get("numero", "").startswith('{ regla = "derivado"'), f"numero: proposed {reglas.get('numero')!r}"
    assert reglas.get("codigo_cliente") == '{ regla = "derivado", de = "rut_titular" }', reglas.get("codigo_cliente")
    rc, salida, err = _enmascarar(tmp_path, propuesta, entrada)
    assert rc == 0, err
    iguales = 0
    for i, (a, b) in enumerate(zip(_filas(entrada), _filas(salida)), start=1):
        cuerpo = _cuerpo(b["rut_titular"])
        assert b["numero"] not in reales, f"row {i}, column numero: a real RUT body after masking"
        assert b["codigo_cliente"] == f"CL-{int(cuerpo):010d}", f"row {i}, column codigo_cliente: not the masked body"
        if a["tipo_cuenta"] == "CuentaRUT":
            iguales += b["numero"] == cuerpo
    assert iguales == cuenta_rut, f"{iguales} of {cuenta_rut} masked CuentaRUT numbers equal their holder's masked body"


def test_unrecognised_personal_data_is_not_kept(tmp_path, personas):
    filas = []
    for i, p in enumerate(personas):
        nombre = p["nombres"].split()[0]
        y, m, dd = p["fecha_nacimiento"].split("-")
        filas.append([str(i + 1), f"{nombre} {p['apellido_paterno']} ({RELACIONES[i % len(RELACIONES)]})", f"{y}/{m}/{dd}",
                      f"{dd}.{m}.{y}", f"Conversé con {nombre} sobre la renovación; llamar el lunes.",
                      ["activo", "inactivo"][i % 2]])
    entrada = _csv(["id", "contacto", "nacimiento", "nacimiento_2", "nota", "estado"], filas)
    reglas = _reglas(_detectar(tmp_path, "crm.csv", entrada))
    for col in ["contacto", "nacimiento", "nacimiento_2", "nota"]:
        assert reglas.get(col) not in (None, '{ regla = "mantener" }'), f"{col}: proposed {reglas.get(col)!r}"
    assert reglas["nota"] == '{ regla = "texto" }', reglas["nota"]
    assert reglas["id"] == reglas["estado"] == '{ regla = "mantener" }', reglas  # nothing personal: kept
    rc, salida, err = _enmascarar(tmp_path, _detectar(tmp_path, "crm.csv", entrada), entrada, politica="nulo")
    assert rc == 0, err
    for col in ["contacto", "nacimiento", "nacimiento_2"]:
        pasan = sum(a[col] == b[col] for a, b in zip(_filas(entrada), _filas(salida)))
        assert pasan == 0, f"{col}: {pasan} of {N} values passed through"


def test_a_csv_without_its_header_is_refused_without_a_cell(tmp_path, personas):
    filas = [[p["rut"], p["email"], p["nombre_completo"], p["fecha_nacimiento"]] for p in personas[:20]]
    entrada = _csv(filas[0], filas[1:])  # the first person's values where the header goes
    archivo = tmp_path / "sin_cabecera.csv"
    archivo.write_text(entrada, encoding="utf-8")
    p = subprocess.run([CLI, "detectar", str(archivo)], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout[:200])
    assert "looks like a value" in p.stderr, p.stderr
    celdas = [v for f in filas for v in f]
    assert not [v for v in celdas if v in p.stderr], "detectar printed a cell"
    reglas = 'version = 1\n\n[columnas]\nrut = { regla = "rut" }\n'
    rc, salida, err = _enmascarar(tmp_path, reglas, entrada)
    assert rc == 2 and salida == "" and "looks like a value" in err, (rc, err)
    assert not [v for v in celdas if v in err], "enmascarar printed a cell"
    jsonl = tmp_path / "claves.jsonl"
    jsonl.write_text('{"' + filas[0][0] + '": "x"}\n', encoding="utf-8")
    p = subprocess.run([CLI, "detectar", str(jsonl)], capture_output=True, text=True)
    assert p.returncode == 2 and filas[0][0] not in p.stderr, p.stderr
    with pytest.raises(datoteca.InvalidArgumentError, match="looks like a value") as e:
        datoteca.proponer_reglas([{filas[0][0]: "x"}])
    assert filas[0][0] not in str(e.value)


def _valores_buscables(texto):
    """Every sampled value worth searching for: not a single lower-case word (the rules' own vocabulary:
    telefono, web...) and not a short number (a count in a comment)."""
    filas = list(csv.reader(io.StringIO(texto)))
    cabecera = set(filas[0])
    out = set()
    for f in filas[1:1001]:
        for v in f:
            if v in cabecera or re.fullmatch(r"[a-z_]*", v) or re.fullmatch(r"\d{1,4}", v):
                continue
            out.add(v)
    return out


def test_no_proposed_rules_file_holds_a_sampled_value(tmp_path, personas):
    muestras = {}
    for t in ["clientes", "cuentas", "notas"]:
        with open(os.path.join(MUESTRA, f"{t}.csv"), encoding="utf-8") as f:
            muestras[t + ".csv"] = f.read()
    muestras["personas.csv"] = _csv(list(personas[0]), [list(p.values()) for p in personas])
    buscados = 0
    for nombre, texto in muestras.items():
        propuesta = _detectar(tmp_path, nombre, texto)
        valores = _valores_buscables(texto)
        buscados += len(valores)
        dentro = [v for v in valores if v in propuesta]
        assert not dentro, f"{nombre}: {len(dentro)} sampled values are in the proposed rules (one of {len(dentro[0])} characters)"
    assert buscados > 10000, buscados


def test_the_banco_schema_s_cuentas_leak_no_body(tmp_path):
    """Issue 41 measured it on esquemas/banco.toml's output: every CuentaRUT number of a masked copy still
    equalled its holder's real RUT body. The schema with 3,000 clientes, its cuentas masked with what
    detectar proposes: no masked number is a real body, each CuentaRUT is its holder's masked body."""
    with open(os.path.join(ROOT, "esquemas", "banco.toml"), encoding="utf-8") as f:
        esquema = f.read()
    assert "filas = 50000" in esquema
    (tmp_path / "banco.toml").write_text(esquema.replace("filas = 50000", "filas = 3000", 1), encoding="utf-8")
    p = subprocess.run([CLI, "esquema", str(tmp_path / "banco.toml"), "--seed", "41", "--formato", "csv", "--salida",
                        str(tmp_path / "banco")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    with open(tmp_path / "banco" / "cuentas.csv", encoding="utf-8") as f:
        entrada = f.read()
    propuesta = _detectar(tmp_path, "cuentas.csv", entrada)
    assert _reglas(propuesta).get("numero", "").startswith('{ regla = "derivado"'), propuesta
    rc, salida, err = _enmascarar(tmp_path, propuesta, entrada)
    assert rc == 0, err
    antes, despues = _filas(entrada), _filas(salida)
    reales = {_cuerpo(a["rut_titular"]) for a in antes}
    cuenta_rut = [(a, b) for a, b in zip(antes, despues) if a["tipo_cuenta"] == "CuentaRUT"]
    assert len(cuenta_rut) > 500 and all(a["numero"] == _cuerpo(a["rut_titular"]) for a, _ in cuenta_rut)
    quedan = sum(b["numero"] in reales for b in despues)
    assert quedan == 0, f"{quedan} of {len(despues)} masked account numbers are a real RUT body"
    distintos = sum(b["numero"] != _cuerpo(b["rut_titular"]) for _, b in cuenta_rut)
    assert distintos == 0, f"{distintos} of {len(cuenta_rut)} masked CuentaRUT numbers are not their holder's masked body"
