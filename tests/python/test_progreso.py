"""The progress line of the long commands (issue #42, item 3; cli/cli_progreso.c; docs/datasets.md,
docs/esquemas.md, docs/enmascarar.md): `datoteca tabla`, `esquema`, `enmascarar` and the plain stream,
each run with stdout a pipe and stderr a pseudo-terminal (os.openpty, in raw mode so the bytes read are
the bytes written), a pipe, or both on the terminal.

Judged from outside the C code: every line read is matched whole against the line's grammar (numbers
and a few fixed words, nothing else, so no value, path or key can be in it), its numbers are parsed and
checked with Python's own arithmetic (the share is floor(done * 100 / total), rows never go back, the
last line is the total); stdout and every file written are compared byte for byte across the ways of
running (terminal, pipe, --progreso, --silencio, --jobs 2). Most runs set DATOTECA_PROGRESO_MS=0, so a
line is drawn after every block the writer uses and the rows of each line are known exactly (blocks of
4,096 rows for tabla and esquema, 256 for the stream, 1,024 for enmascarar); the runs with the default
pace still get the first and the last line, which are always drawn. Nothing here depends on how fast the
machine is, and nothing asserts a duration."""
import os
import re
import subprocess
import threading
import tty

import pytest

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
try:
    for _fd in os.openpty():
        os.close(_fd)
except OSError as e:  # a container without /dev/ptmx: nothing here can be a terminal
    pytest.skip(f"no pseudo-terminal on this machine: {e}", allow_module_level=True)
CLAVE = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"  # the published test key
CANARIO = "Wenceslao Tiburcio Quilodrán Echaurren"  # a planted value: never on stderr

NUM = rb"\d{1,3}(?:,\d{3})*"
DUR = rb"\d+:\d\d(?::\d\d)?"
LINEA = re.compile(
    rb"datoteca(?: (?P<orden>tabla|esquema|enmascarar))?: "
    rb"(?:table (?P<tabla>" + NUM + rb") of (?P<tablas>" + NUM + rb"), )?"
    rb"(?P<filas>" + NUM + rb")(?: of (?P<total>" + NUM + rb") rows \((?P<pct>\d+)%\)| rows?)"
    rb"(?:, (?P<entrada>\d+)% of the input)?"
    rb"(?:, " + NUM + rb" rows/s)?"
    rb", " + DUR + rb" elapsed"
    rb"(?P<queda>, " + DUR + rb" left)?")
# On a terminal: each drawing is '\r', the line, clear-to-end; the last one is followed by '\n'.
DIBUJO = re.compile(rb"\r([^\r\n\x1b]*)\x1b\[K(\n?)")


def _numero(b):
    return int(b.replace(b",", b""))


def _correr(args, stderr="pty", stdout="pipe", entrada=None, cwd=None, cada="0"):
    """The CLI with stdout a pipe (or the terminal) and stderr a pseudo-terminal (or a pipe): (exit
    status, stdout bytes, stderr bytes); with both on the terminal, what the terminal got is returned as
    stderr. `entrada`: a path read as stdin (a regular file), or bytes written to a stdin pipe. `cada`:
    DATOTECA_PROGRESO_MS ("0": a line after every block; None: the default pace)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATOTECA_CLAVE", "DATOTECA_PROGRESO_MS")}
    if cada is not None:
        env["DATOTECA_PROGRESO_MS"] = cada
    maestro = esclavo = None
    if stderr == "pty":
        maestro, esclavo = os.openpty()
        tty.setraw(esclavo)  # no '\n' -> '\r\n': the bytes as the program wrote them
    stdin = subprocess.DEVNULL
    if isinstance(entrada, (str, os.PathLike)):
        stdin = open(entrada, "rb")
    elif entrada is not None:
        stdin = subprocess.PIPE
    p = subprocess.Popen([CLI, *map(str, args)], stdin=stdin, cwd=cwd, env=env,
                         stdout=esclavo if stdout == "pty" else subprocess.PIPE,
                         stderr=esclavo if stderr == "pty" else subprocess.PIPE)
    if hasattr(stdin, "close"):
        stdin.close()
    leido = []
    hilo = None
    if maestro is not None:
        os.close(esclavo)

        def leer():
            while True:
                try:
                    b = os.read(maestro, 1 << 16)
                except OSError:  # EIO: the program and its children closed the terminal
                    break
                if not b:
                    break
                leido.append(b)

        hilo = threading.Thread(target=leer)
        hilo.start()
    if stdout == "pty":
        _, err = p.communicate(entrada if isinstance(entrada, bytes) else None, timeout=300)
        out = b""
    else:
        out, err = p.communicate(entrada if isinstance(entrada, bytes) else None, timeout=300)
    if hilo is not None:
        hilo.join(60)
        os.close(maestro)
        err = b"".join(leido)
    return p.returncode, out, err


def _dibujos(err, donde, bien=True):
    """The lines drawn on the terminal, checked: nothing but drawings, each line whole in the grammar,
    the last one (and only it) ending in '\\n' when the run ended well. [(match, final)]."""
    partes = list(DIBUJO.finditer(err))
    assert partes, f"{donde}: no progress line on the terminal: {err[:300]!r}"
    cubierto = b"".join(m.group(0) for m in partes)
    if bien:
        assert cubierto == err, f"{donde}: the terminal got more than progress lines: {err[-300:]!r}"
        assert [bool(m.group(2)) for m in partes] == [False] * (len(partes) - 1) + [True], \
            f"{donde}: only the last drawing ends in a newline: {err[-300:]!r}"
    out = []
    for m in partes:
        linea = LINEA.fullmatch(m.group(1))
        assert linea, f"{donde}: a line outside the grammar: {m.group(1)!r}"
        out.append((linea, bool(m.group(2))))
    return out


def _filas(lineas):
    return [_numero(l.group("filas")) for l, _ in lineas]


def _bloques(total, bloque):
    """The rows of each line when a line is drawn after every block: 0, each block's end, and the final
    line again at the total."""
    return [0] + list(range(bloque, total, bloque)) + [total, total]


def _comprobar(lineas, donde, total=None, orden=None):
    """Rows never go back; the share is the rows' share by Python's arithmetic; the first line is 0 rows
    and the last one the total, without a time left. The last line's rows."""
    anterior = -1
    for linea, final in lineas:
        filas = _numero(linea.group("filas"))
        assert filas >= anterior, f"{donde}: rows went back from {anterior} to {filas}"
        anterior = filas
        assert linea.group("orden") == (orden.encode() if orden else None), f"{donde}: {linea.group(0)!r}"
        if total is not None:
            assert _numero(linea.group("total")) == total, f"{donde}: total {linea.group('total')!r}, expected {total}"
            assert int(linea.group("pct")) == filas * 100 // total, f"{donde}: {linea.group(0)!r}: share"
        if final:
            assert linea.group("queda") is None, f"{donde}: the final line tells a time left: {linea.group(0)!r}"
    assert _numero(lineas[0][0].group("filas")) == 0, f"{donde}: the first line is not 0 rows: {lineas[0][0].group(0)!r}"
    if total is not None:
        assert anterior == total, f"{donde}: the last line shows {anterior} rows, not the total {total}"
    return anterior


def _en_tuberia(err, donde):
    """--progreso in a pipe: whole lines, no '\\r' or escape, each in the grammar."""
    assert err and err.endswith(b"\n") and b"\r" not in err and b"\x1b" not in err, f"{donde}: {err[:300]!r}"
    out = []
    for l in err.split(b"\n")[:-1]:
        m = LINEA.fullmatch(l)
        assert m, f"{donde}: a line outside the grammar: {l!r}"
        out.append((m, False))
    out[-1] = (out[-1][0], True)
    return out


# ---- datoteca tabla and the stream -------------------------------------------------------------------

TABLA = ["tabla", "persona", "--seed", "42", "-n", "30000", "--unico", "rut", "--format", "csv"]


def test_tabla_progress_on_a_terminal_same_rows_everywhere():
    rc, referencia, err = _correr(TABLA, stderr="pipe")
    assert rc == 0 and err == b"", f"a pipe: nothing on stderr by default, got {err[:300]!r}"
    assert referencia.count(b"\n") == 30001
    for extra in ([], ["--jobs", "2"], ["--jobs", "3"]):
        donde = f"tabla persona -n 30000 {' '.join(extra)}, stderr a terminal"
        rc, out, err = _correr(TABLA + extra)
        assert rc == 0, f"{donde}: exit {rc}"
        assert out == referencia, f"{donde}: stdout differs from the run without progress"
        lineas = _dibujos(err, donde)
        _comprobar(lineas, donde, total=30000, orden="tabla")
        assert _filas(lineas) == _bloques(30000, 4096), f"{donde}: rows by line {_filas(lineas)}"
    rc, out, err = _correr(TABLA + ["--jobs", "2"], cada=None)  # the default pace: first and last lines at least
    assert rc == 0 and out == referencia
    _comprobar(_dibujos(err, "tabla at the default pace"), "tabla at the default pace", total=30000, orden="tabla")
    rc, out, err = _correr(TABLA + ["--silencio"])
    assert rc == 0 and out == referencia and err == b"", f"--silencio on a terminal drew {err[:300]!r}"
    rc, out, err = _correr(TABLA + ["--progreso", "--jobs", "2"], stderr="pipe")
    assert rc == 0 and out == referencia, "--progreso in a pipe changed stdout"
    lineas = _en_tuberia(err, "tabla --progreso in a pipe")
    _comprobar(lineas, "tabla --progreso in a pipe", total=30000, orden="tabla")
    assert _filas(lineas) == _bloques(30000, 4096)
    rc, out, err = _correr(TABLA + ["--progreso"], stderr="pipe", cada=None)
    assert rc == 0 and out == referencia
    _comprobar(_en_tuberia(err, "in a pipe at the default pace"), "in a pipe at the default pace", total=30000, orden="tabla")


def test_rows_on_the_same_terminal_are_not_drawn_over():
    """Unasked, the line is not drawn when the rows themselves go to that terminal; --progreso draws it."""
    rc, _, terminal = _correr(["tabla", "rut", "-n", "2000"], stdout="pty")
    assert rc == 0 and terminal.count(b"\n") == 2000 and b"datoteca" not in terminal and b"\x1b" not in terminal, terminal[:200]
    rc, _, terminal = _correr(["tabla", "rut", "-n", "2000", "--progreso"], stdout="pty")
    assert rc == 0 and b"\rdatoteca tabla: 2,000 of 2,000 rows (100%)" in terminal


def test_ddl_draws_nothing():
    rc, out, err = _correr(["tabla", "persona", "-n", "0", "--format", "ddl", "--progreso"])
    assert rc == 0 and out.startswith(b"CREATE TABLE") and err == b""


def test_the_stream_draws_the_same_line():
    args = ["persona", "--seed", "3", "-n", "20000", "--format", "csv"]
    _, referencia, err = _correr(args, stderr="pipe")
    assert err == b""
    rc, out, err = _correr(args)
    assert rc == 0 and out == referencia
    lineas = _dibujos(err, "persona -n 20000")
    _comprobar(lineas, "persona -n 20000", total=20000)
    assert _filas(lineas) == _bloques(20000, 256), _filas(lineas)
    rc, out, err = _correr(args + ["--silencio"])
    assert rc == 0 and out == referencia and err == b""


def test_a_write_error_erases_the_line_before_its_message():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    m, e = os.openpty()
    tty.setraw(e)
    with open("/dev/full", "wb") as lleno:
        p = subprocess.Popen([CLI, "tabla", "rut", "-n", "300000"], stdout=lleno, stderr=e)
    os.close(e)
    leido = []
    while True:
        try:
            b = os.read(m, 1 << 16)
        except OSError:
            break
        if not b:
            break
        leido.append(b)
    p.wait()
    os.close(m)
    err = b"".join(leido)
    assert p.returncode == 1, err
    # the first line was drawn, then erased, and the message stands alone on its line
    assert re.fullmatch(rb"(?:\r[^\r\n\x1b]*\x1b\[K)+\r\x1b\[Kdatoteca: cannot write the output: [^\r\n]*\n", err), err


# ---- datoteca esquema ---------------------------------------------------------------------------------

ESQUEMA = """
[tablas.clientes]
filas = 4000
[tablas.clientes.columnas]
id = { serie = true }
persona = { llamada = "persona.persona", campos = ["rut", "nombre_completo"], unico = ["rut"] }
[tablas.cuentas]
por = "clientes"
cuantos = { min = 1, max = 3 }
[tablas.cuentas.columnas]
id = { serie = true }
titular = { ref = "clientes.rut" }
[tablas.movimientos]
filas = 9000
[tablas.movimientos.columnas]
id = { serie = true }
cuenta = { ref = "cuentas.id" }
monto = { llamada = "dinero.monto", min = 1000, max = 90000 }
"""


def _arbol(d):
    return {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}


def test_esquema_tables_and_rows_counted_files_the_same(tmp_path):
    doc = tmp_path / "banco.toml"
    doc.write_text(ESQUEMA)
    rc, _, err = _correr(["esquema", doc, "--seed", "5", "--formato", "csv", "--salida", tmp_path / "ref"], stderr="pipe")
    assert rc == 0 and err == b"", err
    ref = _arbol(tmp_path / "ref")
    total = sum(v.count(b"\n") - 1 for k, v in ref.items() if k.endswith(".csv"))  # each file: a header, then rows
    assert total > 13000
    for extra in ([], ["--jobs", "2"]):
        d = tmp_path / f"t{len(extra)}"
        donde = f"esquema --formato csv {' '.join(extra)}, stderr a terminal"
        rc, out, err = _correr(["esquema", doc, "--seed", "5", "--formato", "csv", "--salida", d, *extra])
        assert rc == 0 and out == b"", f"{donde}: exit {rc}, stdout {out[:100]!r}"
        assert _arbol(d) == ref, f"{donde}: the files differ from the run without progress"
        lineas = _dibujos(err, donde)
        _comprobar(lineas, donde, total=total, orden="esquema")
        tablas = [(_numero(l.group("tabla")), _numero(l.group("tablas"))) for l, _ in lineas]
        assert all(n == 3 for _, n in tablas) and [t for t, _ in tablas] == sorted(t for t, _ in tablas), f"{donde}: {tablas}"
        assert tablas[-1] == (3, 3), f"{donde}: the last line is at table {tablas[-1]}"
        # a line after every block of at most 4,096 rows, and the rows counted under each table are its file's
        filas = _filas(lineas)
        por_tabla = {}
        for (t, _), antes, ahora in zip(tablas[1:], filas, filas[1:]):
            assert 0 <= ahora - antes <= 4096, f"{donde}: {ahora - antes} rows in one block"
            por_tabla[t] = por_tabla.get(t, 0) + ahora - antes
        esperado = sorted(v.count(b"\n") - 1 for k, v in ref.items() if k.endswith(".csv"))
        assert sorted(por_tabla.values()) == esperado, f"{donde}: rows by table {por_tabla}, the files hold {esperado}"
    rc, out, err = _correr(["esquema", doc, "--seed", "5", "--formato", "csv", "--salida", tmp_path / "s", "--silencio"])
    assert rc == 0 and err == b"" and _arbol(tmp_path / "s") == ref
    # sql on stdout: the same script with the line on the terminal, in a pipe, or forced into a pipe
    rc, script, err = _correr(["esquema", doc, "--seed", "5", "--formato", "sql"], stderr="pipe")
    assert rc == 0 and err == b"" and script.startswith(b"BEGIN;")
    rc, out, err = _correr(["esquema", doc, "--seed", "5", "--formato", "sql", "--jobs", "2"])
    assert rc == 0 and out == script
    _comprobar(_dibujos(err, "esquema --formato sql"), "esquema --formato sql", total=total, orden="esquema")
    rc, out, err = _correr(["esquema", doc, "--seed", "5", "--formato", "sql", "--progreso"], stderr="pipe")
    assert rc == 0 and out == script
    _comprobar(_en_tuberia(err, "esquema --progreso in a pipe"), "esquema --progreso in a pipe", total=total, orden="esquema")


def test_esquema_sqlite_file_the_same(tmp_path):
    doc = tmp_path / "banco.toml"
    doc.write_text(ESQUEMA)
    rc, _, err = _correr(["esquema", doc, "--seed", "5", "--formato", "sqlite", "--salida", tmp_path / "a.db"], stderr="pipe")
    if rc == 2 and b"only by the datoteca program built with SQLite" in err:
        pytest.skip("this datoteca was built without SQLite")
    assert rc == 0 and err == b"", err
    rc, _, err = _correr(["esquema", doc, "--seed", "5", "--formato", "sqlite", "--salida", tmp_path / "b.db", "--jobs", "2"])
    assert rc == 0
    _comprobar(_dibujos(err, "esquema --formato sqlite"), "esquema --formato sqlite", orden="esquema")
    assert (tmp_path / "a.db").read_bytes() == (tmp_path / "b.db").read_bytes(), "the SQLite file differs with the line drawn"


# ---- datoteca enmascarar --------------------------------------------------------------------------------

REGLAS = """version = 1
[columnas]
id = { regla = "mantener" }
rut = { regla = "rut" }
nombre_completo = { regla = "persona", campo = "nombre_completo", entidad = "rut" }
notas = { regla = "mantener" }
"""


@pytest.fixture(scope="module")
def clientes(tmp_path_factory):
    """40,000 rows (a planted name in the notes of every 1,000th), the rules, and the key in a file whose
    directory and name are marked, so that a path on stderr would be seen."""
    d = tmp_path_factory.mktemp("progreso")
    filas = subprocess.run([CLI, "tabla", "persona", "--seed", "11", "-n", "40000", "--campos", "rut,nombre_completo",
                            "--format", "csv"], capture_output=True, check=True).stdout.decode().splitlines()
    lineas = ["id,rut,nombre_completo,notas"]
    for i, f in enumerate(filas[1:]):
        lineas.append(f"{i + 1},{f},{CANARIO if i % 1000 == 0 else 'sin notas'}")
    entrada = d / "entrada-MARCA-ENTRADA.csv"
    entrada.write_text("\n".join(lineas) + "\n")
    secreto = d / "dir-MARCA-CLAVE"
    secreto.mkdir()
    clave = secreto / "clave-MARCA-ARCHIVO.hex"
    clave.write_text(CLAVE + "\n")
    clave.chmod(0o600)
    reglas = d / "reglas-MARCA-REGLAS.toml"
    reglas.write_text(REGLAS)
    return {"dir": d, "entrada": entrada, "clave": clave, "reglas": reglas, "lineas": lineas}


def _enm(c, *extra):
    return ["enmascarar", "--reglas", c["reglas"], "--clave-archivo", c["clave"], "--clave-de-prueba", *extra]


def _nada_secreto(err, c, donde):
    """The key rule: no value, no path (nor part of one) and no key on stderr."""
    for prohibido in (CANARIO.encode(), CANARIO.split()[0].encode(), CLAVE.encode(), CLAVE[:16].encode(), b"MARCA",
                      str(c["dir"]).encode(), c["lineas"][5].split(",")[1].encode()):
        assert prohibido not in err, f"{donde}: {prohibido!r} is on stderr"


def test_enmascarar_numbers_only_output_the_same(clientes):
    c = clientes
    rc, referencia, err = _correr(_enm(c, "--entrada", c["entrada"]), stderr="pipe")
    assert rc == 0 and err == b"", err
    assert referencia.count(b"\n") == 40001
    casos = [("--entrada FILE", _enm(c, "--entrada", c["entrada"]), None, True),
             ("--entrada FILE --jobs 2", _enm(c, "--entrada", c["entrada"], "--jobs", "2"), None, True),
             ("stdin a regular file", _enm(c), c["entrada"], True),
             ("stdin a pipe --jobs 3", _enm(c, "--jobs", "3"), c["entrada"].read_bytes(), False)]
    for donde, args, entrada, con_tamano in casos:
        rc, out, err = _correr(args, entrada=entrada)
        assert rc == 0, f"{donde}: exit {rc}, {err[-300:]!r}"
        assert out == referencia, f"{donde}: the output differs from the run without progress"
        _nada_secreto(err, c, donde)
        lineas = _dibujos(err, donde)
        assert _comprobar(lineas, donde, orden="enmascarar") == 40000
        assert _filas(lineas) == _bloques(40000, 1024), f"{donde}: rows by line {_filas(lineas)}"
        for l, final in lineas:
            assert l.group("total") is None  # a stream: the rows to come are not known
            assert (l.group("entrada") is not None) == con_tamano, f"{donde}: {l.group(0)!r}"
        if con_tamano:
            shares = [int(l.group("entrada")) for l, _ in lineas]
            assert shares == sorted(shares) and shares[-1] == 100, f"{donde}: shares of the input {shares}"
    # --salida: the file is the same bytes; --silencio draws nothing; --progreso in a pipe, lines
    rc, out, err = _correr(_enm(c, "--entrada", c["entrada"], "--salida", c["dir"] / "o.csv", "--jobs", "2"))
    assert rc == 0 and out == b"" and (c["dir"] / "o.csv").read_bytes() == referencia
    _nada_secreto(err, c, "--salida")
    _comprobar(_dibujos(err, "--salida"), "--salida", orden="enmascarar")
    rc, out, err = _correr(_enm(c, "--entrada", c["entrada"], "--silencio"))
    assert rc == 0 and out == referencia and err == b""
    rc, out, err = _correr(_enm(c, "--entrada", c["entrada"], "--progreso"), stderr="pipe")
    assert rc == 0 and out == referencia
    _nada_secreto(err, c, "--progreso in a pipe")
    assert _comprobar(_en_tuberia(err, "--progreso in a pipe"), "--progreso in a pipe", orden="enmascarar") == 40000


def test_enmascarar_a_refusal_stands_on_its_own_line(clientes):
    """A RUT with a wrong check digit at row 30,001: the line is erased, then the refusal (row and column,
    never the value) is alone on its line; no final line."""
    c = clientes
    lineas = list(c["lineas"])
    i, rut, nombre, notas = lineas[30001].split(",", 3)
    cuerpo, dv = rut.rsplit("-", 1)
    malo = f"{cuerpo}-{'0' if dv != '0' else '1'}"
    lineas[30001] = ",".join([i, malo, nombre, notas])
    mala = c["dir"] / "mala-MARCA-ENTRADA.csv"
    mala.write_text("\n".join(lineas) + "\n")
    for jobs in ("1", "2"):
        donde = f"a refused row, --jobs {jobs}"
        rc, out, err = _correr(_enm(c, "--entrada", mala, "--jobs", jobs))
        assert rc == 2, f"{donde}: exit {rc}"
        m = re.fullmatch(rb"((?:\r[^\r\n\x1b]*\x1b\[K)+)\r\x1b\[K(datoteca: enmascarar: [^\r\n]*)\n", err)
        assert m, f"{donde}: not progress, an erase, then the message alone: {err[-400:]!r}"
        assert b"row 30001, column rut" in m.group(2), f"{donde}: {m.group(2)!r}"
        # the blocks written before the refused one (its rows 29,697 to 30,720 are not counted)
        assert _filas(_dibujos(m.group(1), donde, bien=False)) == list(range(0, 29697, 1024)), donde
        _nada_secreto(err, c, donde)
        assert malo.encode() not in err and rut.encode() not in err


# ---- the flags ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, quien", [
    (["tabla", "rut", "--progreso", "--silencio"], ""),
    (["tabla", "rut", "--silencio", "-n", "3", "--progreso"], ""),
    (["rut", "--progreso", "--silencio"], ""),
    (["esquema", "no-hace-falta.toml", "--formato", "csv", "--silencio", "--progreso"], ""),
    (["enmascarar", "--reglas", "no-hace-falta.toml", "--progreso", "--silencio"], "enmascarar: "),
])
def test_both_flags_are_refused_naming_both(args, quien):
    rc, out, err = _correr(args, stderr="pipe")
    assert rc == 2 and out == b"", f"{args}: exit {rc}"
    assert err == f"datoteca: {quien}give --progreso or --silencio, not both\n".encode(), f"{args}: {err!r}"


@pytest.mark.parametrize("args", [["--help"], ["rut", "--help"], ["tabla", "--help"], ["tabla", "persona", "--help"],
                                  ["esquema", "--help"], ["enmascarar", "--help"]])
def test_help_names_both_flags(args):
    rc, out, _ = _correr(args, stderr="pipe")
    assert rc == 0 and b"--progreso" in out and b"--silencio" in out, f"{args}: {out.decode()}"
