"""Issue 48's acceptance on a CSV as a Brazilian export writes it: tests/reales/ptbr_pii.csv (PROVENANCE.md:
AWS's synthetic PII sample, MIT-0, made by the 4devs generator, 90 people) has a UTF-8 byte-order mark, ';'
between fields, CRLF line ends, no final newline, decimal commas and Portuguese headers
(nome;idade;cpf;rg;data_nasc;mae;pai;email;cep;endereco;...;telefone_fixo;celular;...).

`datoteca detectar` must read it with no option (the header line holds ';' and no ',' outside quotes, so ';'
is the separator: docs/enmascarar.md), its proposal is used unedited by `datoteca enmascarar` (the published
test key), and the output, read back with Python's csv module, has the same header and as many rows. Then a
leak search written here, which never asks datoteca's detector anything:

* test_sin_fugas_valores (one test per personal column, so a failure says which): no original value of
  nome, cpf, rg, mae, pai, email, cep, endereco, telefone_fixo, celular is in any output cell (casefolded,
  as a substring); for cpf, rg, cep and the phones also as digits: the value's digits (when 6 or more; and a
  CPF's 9 digits without its check digits, a phone's digits without its 2-digit area code) in any output
  cell's digits.
* test_sin_fugas_apellidos: the surnames, each row's own. A row's surnames are the words of its `nome`
  after the first that its `mae` or `pai` also hold (Brazilian surnames come from the parents, and the
  generator builds the rows so) and its last word, of 4 letters or more. The row leaks when one of them is a
  whole word (casefolded) of its own output row: the surname stays with the person's other data.
  A masking that works still draws its fake names, streets and districts from lists where some Portuguese
  surnames are also Spanish or Chilean ones (Silva, Campos, Castro, Vidal, Brito), and it keeps `cidade`
  and `estado`; so a few rows match by chance. The chance rate is measured here the same way with the output
  shifted by k rows (row i's surnames against output row i + k, k = 1..89; nothing of row i is in row i + k
  but by chance): with the generators' own rules for every personal column it was 0.82 rows of 90 on average,
  4 at most. 2 % of the rows (one row) would fail a correct masking about one time in five whenever a
  generator's lists change (P(X >= 2) for a Poisson mean of 0.82); the bound is 5 % (4 of 90 rows, chance
  P(X >= 5) about 0.2 %), while a rule that keeps a surname (a `texto` name, a `mantener` pai) leaks it in
  most rows: ten times the bound or more. The counts (same row, the shifted mean and maximum, and rows whose
  surname is anywhere in the output) are printed.

test_propuesta prints each column's proposed rule (shown with -rA or -s). The unit tests beside them: a
byte-order mark is never in the first column's name (detectar, enmascarar), `--separador ';'` writes a field
holding ';' and '"' so csv reads it back, the choice of ';' looks at the header line only, and a bad
--separador names the option, never the value. Everything runs in pytest's tmp_path."""
import csv
import io
import os
import re
import statistics
import subprocess
import tomllib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
CORPUS = os.path.join(ROOT, "tests", "reales", "ptbr_pii.csv")
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key
CABECERA = ("nome;idade;cpf;rg;data_nasc;mae;pai;email;cep;endereco;numero;bairro;cidade;estado;telefone_fixo;"
            "celular;altura;peso;tipo_sanguineo").split(";")
PERSONALES = ("nome", "cpf", "rg", "mae", "pai", "email", "cep", "endereco", "telefone_fixo", "celular")
DIGITOS = ("cpf", "rg", "cep", "telefone_fixo", "celular")
LIMITE_APELLIDOS = 0.05  # of the rows: see the docstring

pytestmark = pytest.mark.skipif(not os.path.exists(CLI), reason="the datoteca CLI is not built (DATOTECA_CLI)")


def _env():
    env = dict(os.environ)
    env["DATOTECA_CLAVE"] = CLAVE
    return env


def _cli(*args, entrada=None):
    return subprocess.run([CLI, *map(str, args)], input=entrada, capture_output=True, env=_env())


def _leer(path, delimitador=";"):
    """The rows of a CSV as Python's csv module reads them ('utf-8-sig': a byte-order mark is dropped)."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f, delimiter=delimitador))


def _palabras(s):
    return set(re.findall(r"[^\W\d_]+", s.casefold()))


def _digitos(s):
    return re.sub(r"\D", "", s)


@pytest.fixture(scope="module")
def corrida(tmp_path_factory):
    """detectar (no option), then enmascarar with its proposal unedited: the paths and both tables."""
    d = tmp_path_factory.mktemp("ptbr")
    det = _cli("detectar", CORPUS)
    assert det.returncode == 0, det.stderr.decode()
    assert b"';' separates the fields" in det.stderr  # the choice is said
    reglas = d / "reglas.toml"
    reglas.write_bytes(det.stdout)
    salida = d / "salida.csv"
    enm = _cli("enmascarar", "--reglas", reglas, "--entrada", CORPUS, "--salida", salida, "--clave-de-prueba")
    assert enm.returncode == 0, enm.stderr.decode()
    assert b"';' separates the fields" in enm.stderr
    original, masked = _leer(CORPUS), _leer(salida)
    return {"reglas": tomllib.loads(det.stdout.decode()), "texto_reglas": det.stdout.decode(), "original": original,
            "salida": masked, "bytes_salida": salida.read_bytes()}


def test_corpus_como_publicado():
    """The corpus is the publisher's bytes (git must not have converted them: .gitattributes -text)."""
    b = open(CORPUS, "rb").read()
    assert b.startswith(b"\xef\xbb\xbfnome;idade;cpf;") and b"\r\n" in b and not b.endswith(b"\n")
    assert len(b) == 23063 and b.count(b"\r\n") == 90 and b.count(b"\n") == 90


def test_propuesta(corrida):
    """Prints the rule proposed for each column (the lead reads it after merging the detector's work)."""
    cols = corrida["reglas"]["columnas"]
    assert list(cols) == CABECERA  # the first column is `nome`, not "\ufeffnome"
    assert "\ufeff" not in corrida["texto_reglas"]
    assert "# The CSV's fields are separated by ';'" in corrida["texto_reglas"]
    for c in CABECERA:
        r = cols[c]
        print(f"{c:15} {r['regla']}" + (f" {r['llamada']}" if "llamada" in r else ""))


def test_salida_entera(corrida):
    o, s = corrida["original"], corrida["salida"]
    assert o[0] == CABECERA and s[0] == CABECERA
    assert len(o) == 91 and len(s) == len(o)
    assert all(len(f) == 19 for f in s)
    b = corrida["bytes_salida"]
    assert not b.startswith(b"\xef\xbb\xbf") and b.split(b"\n", 1)[0] == ";".join(CABECERA).encode()
    # the kept columns are the input's values, decimal commas included (a ',' needs no quotes with ';')
    kept = [c for c, r in corrida["reglas"]["columnas"].items() if r["regla"] == "mantener"]
    for c in kept:
        j = CABECERA.index(c)
        assert [f[j] for f in s[1:]] == [f[j] for f in o[1:]], c
    if "altura" in kept:
        assert b";1,64;" in b


@pytest.mark.parametrize("columna", PERSONALES)
def test_sin_fugas_valores(corrida, columna):
    o, s = corrida["original"], corrida["salida"]
    j = CABECERA.index(columna)
    celdas = [(i, CABECERA[k], v) for i, f in enumerate(s[1:], 1) for k, v in enumerate(f)]
    plegadas = [(i, k, v.casefold()) for i, k, v in celdas]
    digitos = [(i, k, _digitos(v)) for i, k, v in celdas]
    fugas = []
    for fila, f in enumerate(o[1:], 1):
        v = f[j].strip()
        if not v:
            continue
        buscar = [("text", v.casefold(), plegadas)]
        if columna in DIGITOS:
            d = _digitos(v)
            partes = {d}
            if columna == "cpf":
                partes.add(d[:9])
            if columna in ("telefone_fixo", "celular"):
                partes.add(d[2:])
            buscar += [("digits", p, digitos) for p in partes if len(p) >= 6]
        for como, aguja, donde in buscar:
            for i, k, celda in donde:
                if aguja in celda:
                    fugas.append((fila, como, i, k))
    regla = corrida["reglas"]["columnas"][columna]
    print(f"{columna}: rule {regla}, {len(fugas)} leaks, {len({f[0] for f in fugas})} of {len(o) - 1} rows")
    # where, never the value (a report of a leak must not be one)
    assert not fugas, (f"{columna} (rule {regla}): {len({f[0] for f in fugas})} of {len(o) - 1} rows leak; first: "
                       + ", ".join(f"row {a} as {b} in output row {c} column {d}" for a, b, c, d in fugas[:5]))


def _apellidos(fila):
    d = dict(zip(CABECERA, fila))
    ws = re.findall(r"[^\W\d_]+", d["nome"].casefold())
    padres = _palabras(d["mae"]) | _palabras(d["pai"])
    s = {w for w in ws[1:] if w in padres} | set(ws[-1:])
    return {w for w in s if len(w) >= 4}


def test_sin_fugas_apellidos(corrida):
    o, s = corrida["original"][1:], corrida["salida"][1:]
    n = len(o)
    ap = [_apellidos(f) for f in o]
    palabras = [set().union(*map(_palabras, f)) for f in s]
    assert sum(map(len, ap)) >= n  # a surname for every row at least

    def filas(k):
        return [i for i in range(n) if ap[i] & palabras[(i + k) % n]]

    mismas = filas(0)
    azar = [len(filas(k)) for k in range(1, n)]
    todas = set().union(*palabras)
    en_cualquiera = sum(1 for a in ap if a & todas)
    limite = int(LIMITE_APELLIDOS * n)
    print(f"surnames: {len(mismas)} of {n} rows keep one in their own output row (bound {limite}); by chance "
          f"(shifted rows): mean {statistics.mean(azar):.2f}, max {max(azar)}; {en_cualquiera} rows' surname is "
          f"somewhere in the output")
    por_columna = {}
    for i in mismas:
        for c, v in zip(CABECERA, s[i]):
            if ap[i] & _palabras(v):
                por_columna[c] = por_columna.get(c, 0) + 1
    print(f"  found in output columns: {por_columna}")
    assert len(mismas) <= limite, (f"{len(mismas)} of {n} rows keep a surname in their output row (bound {limite}); "
                                   f"by output column: {por_columna}")


# ---- unit tests: the byte-order mark, --separador, the choice of ';' ----


def _reglas(tmp_path, texto):
    r = tmp_path / "reglas.toml"
    r.write_text(texto)
    return r


def test_bom_detectar_y_enmascarar(tmp_path):
    f = tmp_path / "bom.csv"
    f.write_bytes(b"\xef\xbb\xbfrut,nombre,ciudad\r\n12.345.678-5,Ana Rojas,Talca\r\n9.876.543-3,Luis Soto,Osorno")
    det = _cli("detectar", f)
    assert det.returncode == 0, det.stderr.decode()
    assert det.stderr == b""  # ',' is not said
    cols = tomllib.loads(det.stdout.decode())["columnas"]
    assert list(cols) == ["rut", "nombre", "ciudad"]
    assert b"\xef\xbb\xbf" not in det.stdout and b"separated by" not in det.stdout
    r = _reglas(tmp_path, 'version = 1\n[columnas]\nrut = { regla = "mantener" }\nnombre = { regla = "mantener" }\n'
                          'ciudad = { regla = "mantener" }\n')
    enm = _cli("enmascarar", "--reglas", r, "--entrada", f, "--clave-de-prueba")
    assert enm.returncode == 0, enm.stderr.decode()
    # no mark, LF line ends, the last row ended: the rules bound `rut` (a mark would have made it unknown)
    assert enm.stdout == b"rut,nombre,ciudad\n12.345.678-5,Ana Rojas,Talca\n9.876.543-3,Luis Soto,Osorno\n"


def test_bom_jsonl_intacto(tmp_path):
    """--formato jsonl is not the CSV reader's: a JSON Lines input reads as before."""
    f = tmp_path / "x.jsonl"
    f.write_text('{"rut":"12.345.678-5","ciudad":"Talca"}\n')
    r = _reglas(tmp_path, 'version = 1\n[columnas]\nrut = { regla = "mantener" }\nciudad = { regla = "mantener" }\n')
    enm = _cli("enmascarar", "--reglas", r, "--entrada", f, "--clave-de-prueba")
    assert enm.returncode == 0 and enm.stdout == b'{"rut":"12.345.678-5","ciudad":"Talca"}\n', enm.stderr.decode()
    assert _cli("detectar", f).returncode == 0


@pytest.mark.parametrize("sep,nombre", [(";", ";"), ("\t", "tab"), ("|", "|"), (",", ",")])
def test_separador_ida_y_vuelta(tmp_path, sep, nombre):
    filas = [["id", "nota", "valor"], ["1", 'dijo "a;b", c|d\tfin', "1,64"], ["2", "", "x\r\ny"], ["3", '"', ";"]]
    buf = io.StringIO()
    csv.writer(buf, delimiter=sep, lineterminator="\r\n").writerows(filas)
    f = tmp_path / "in.csv"
    f.write_bytes(b"\xef\xbb\xbf" + buf.getvalue().encode())
    r = _reglas(tmp_path, 'version = 1\n[columnas]\nid = { regla = "mantener" }\nnota = { regla = "mantener" }\n'
                          'valor = { regla = "mantener" }\n')
    salida = tmp_path / "out.csv"
    enm = _cli("enmascarar", "--reglas", r, "--entrada", f, "--salida", salida, "--separador", nombre, "--clave-de-prueba")
    assert enm.returncode == 0, enm.stderr.decode()
    assert b"separates" not in enm.stderr  # given, not chosen
    assert _leer(salida, sep) == filas
    b = salida.read_bytes()
    assert b.startswith(f"id{sep}nota{sep}valor\n".encode())
    if sep != ",":
        assert f"{sep}1,64\n".encode() in b  # a ',' is not quoted when it does not separate
    det = _cli("detectar", f, "--separador", nombre)
    assert det.returncode == 0 and list(tomllib.loads(det.stdout.decode())["columnas"]) == filas[0], det.stderr.decode()


def test_eleccion_por_la_cabecera(tmp_path):
    """';' only when the header line holds a ';' and no ',' outside double quotes; data rows are never read
    for it. detectar's column names show the choice; enmascarar (with --riesgo, which reads its own output
    back) writes what it read with the same separator."""
    casos = [  # input, the separator chosen
        (b'a;b\n"1;5";2\n3;2\n', ";"),
        (b'"x"";";y;z\r\n1,5;2;3', ";"),  # a ';' in quotes does not count, the ones outside do
        (b'"x,y";z\n1;2\n', ";"),  # nor does a ',' in quotes
        (b"a,b\n1;2,3\n", ","),  # the header alone decides: the data's ';' is text
        (b'"a;b",b\n1,2\n', ","),
        (b'"a;b"\n1;2\n', ","),  # no ';' outside quotes
        (b"a\tb\n", ","),  # a tab or '|' is only given
    ]
    for entrada, sep in casos:
        f = tmp_path / "in.csv"
        f.write_bytes(entrada)
        filas = list(csv.reader(io.StringIO(entrada.decode(), newline=""), delimiter=sep))
        det = _cli("detectar", f)
        assert det.returncode == 0, (entrada, det.stderr.decode())
        assert list(tomllib.loads(det.stdout.decode())["columnas"]) == filas[0], entrada
        assert (b"';' separates" in det.stderr) == (sep == ";"), (entrada, det.stderr.decode())
        if filas[0] != ["a", "b"]:
            continue
        r = _reglas(tmp_path, 'version = 1\n[columnas]\na = { regla = "mantener" }\nb = { regla = "mantener" }\n')
        enm = _cli("enmascarar", "--reglas", r, "--entrada", f, "--clave-de-prueba", "--riesgo", "b")
        assert enm.returncode == 0, (entrada, enm.stderr.decode())
        assert list(csv.reader(io.StringIO(enm.stdout.decode(), newline=""), delimiter=sep)) == filas
        assert (b"';' separates" in enm.stderr) == (sep == ";"), enm.stderr.decode()
        assert b"k-anonymity over b" in enm.stderr, enm.stderr.decode()


def test_separador_rehusado(tmp_path):
    f = tmp_path / "in.csv"
    f.write_text("a,b\n1,2\n")
    r = _reglas(tmp_path, 'version = 1\n[columnas]\na = { regla = "mantener" }\nb = { regla = "mantener" }\n')
    valor = "SECRETO9"
    for args in (["detectar", f, "--separador", valor], ["enmascarar", "--reglas", r, "--entrada", f, "--clave-de-prueba",
                                                          "--separador", valor]):
        p = _cli(*args)
        assert p.returncode == 2 and b"--separador must be one of , ; tab |" in p.stderr, p.stderr.decode()
        assert valor.encode() not in p.stderr + p.stdout
    j = tmp_path / "in.jsonl"
    j.write_text('{"a":"1","b":"2"}\n')
    for args in (["detectar", j, "--separador", ";"], ["enmascarar", "--reglas", r, "--entrada", j, "--clave-de-prueba",
                                                       "--separador", ";"]):
        p = _cli(*args)
        assert p.returncode == 2 and b"--separador is for CSV" in p.stderr, p.stderr.decode()
