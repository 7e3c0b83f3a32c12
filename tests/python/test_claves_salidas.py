"""Issue 48, item 8, "The key and the machine" (docs/enmascarar.md, "The key"; docs/copia.md), judged from
outside the CLI, each probe one that worked before:

- a file whose text is a masking key, given as detectar's input, enmascarar's --reglas or --entrada (CSV,
  JSON Lines, stdin), riesgo's --entrada, was read and its digits printed (in the proposed rules, or 40 of
  them in a parser's sentence); a value holding a key (--riesgo, --qi, --enlace, --personales, --tabla,
  `<key>.csv` as --salida) was printed whole, or named a file after the key. Now each is refused, and no
  8 characters in a row of the key (either case) are in stdout, stderr or a file name;
- weak keys (deadbeef x 8, a 16-byte half twice, one byte a quarter of the key or more, bytes counting by
  one, 15 distinct values) were accepted; now refused, saying why and `openssl rand -hex 32`, unless
  --clave-de-prueba;
- `enmascarar --salida /dev/null` run as root replaced the device with a regular file (a temporary file
  renamed onto it). Against a private /dev/null clone (mknod 1,3: root only), a FIFO read by a thread,
  and symbolic links: a device or a FIFO is written in place and stays what it was; a link to a regular
  file or to nothing, and a directory, are refused and left as they were; copiar's dump and new SQLite
  file refuse what exists (a FIFO without blocking).

Every failure names the probe, what was expected and what happened."""
import os
import re
import sqlite3
import stat
import subprocess
import threading

import pytest

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
# A key no one publishes, as a key file holds it; and another, for the runs that must mask.
KEY = "e340486e8c1f2b9d7a6054e3c1b2a9f8d7e6c5b4a3928170f6e5d4c3b2a19290"
BUENA = "9c41e07b2d5f8a36c1e4b79f0d26a853e7b1c94f620d8e3a5b7f91c06d2e4a18"
REGLAS = 'version = 1\n[columnas]\nrut = { regla = "rut" }\ncomuna = { regla = "mantener" }\n'
CSV = b"rut,comuna\n12.345.678-5,Renca\n9.876.543-3,Maipu\n"
ES_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _entorno(clave=BUENA):
    env = dict(os.environ)
    env.pop("DATOTECA_CLAVE", None)
    if clave is not None:
        env["DATOTECA_CLAVE"] = clave
    return env


def _run(args, cwd, entrada=b"", clave=BUENA, timeout=30):
    return subprocess.run([CLI, *map(str, args)], input=entrada, capture_output=True, env=_entorno(clave), cwd=cwd,
                          timeout=timeout)


def _sin_clave(caso, texto, k=KEY, n=8):
    """No n characters in a row of the key, compared case-insensitively, anywhere in `texto`."""
    t = (texto.decode(errors="replace") if isinstance(texto, bytes) else texto).lower()
    for i in range(len(k) - n + 1):
        trozo = k[i:i + n].lower()
        assert trozo not in t, f"{caso}: expected no 8 characters of the key, found {trozo!r} (key characters {i + 1}..{i + n}) in: {t[:400]!r}"


def _rehusado(caso, p, *frases):
    salida = p.stdout + p.stderr
    assert p.returncode != 0, f"{caso}: expected a refusal (exit != 0), got exit 0; stdout {p.stdout[:300]!r}"
    _sin_clave(caso, salida)
    for f in frases:
        assert f.encode() in p.stderr, f"{caso}: expected {f!r} in stderr, got {p.stderr.decode(errors='replace')!r}"


def _sin_nombres_de_clave(caso, d):
    for raiz, dirs, archivos in os.walk(d):
        for nombre in dirs + archivos:
            _sin_clave(f"{caso}: a file name under the test's directory", nombre)


@pytest.fixture
def dir_(tmp_path):
    (tmp_path / "r.toml").write_text(REGLAS)
    (tmp_path / "in.csv").write_bytes(CSV)
    for nombre, texto in (("clave.hex", KEY + "\n"), ("clave.csv", KEY + "\n"), ("clave.jsonl", KEY + "\n"),
                          ("clave_crlf.txt", "  " + KEY.upper() + "\r\n\r\n")):
        (tmp_path / nombre).write_text(texto)
        (tmp_path / nombre).chmod(0o600)
    return tmp_path


# ------------------------------------------------------------------ a key's file where data or rules go

@pytest.mark.parametrize("archivo", ["clave.hex", "clave.csv", "clave.jsonl", "clave_crlf.txt"])
def test_a_key_file_given_as_detectar_input_is_refused_unprinted(dir_, archivo):
    p = _run(["detectar", archivo], dir_)
    _rehusado(f"detectar {archivo}", p, "holds a masking key")
    assert p.stdout == b"", f"detectar {archivo}: expected no proposal on stdout, got {p.stdout[:200]!r}"
    with open(dir_ / archivo, "rb") as f:  # stdin redirected from the key file
        p = subprocess.run([CLI, "detectar", "-"], stdin=f, capture_output=True, env=_entorno(), cwd=dir_, timeout=30)
    _rehusado(f"detectar - < {archivo}", p, "holds a masking key")
    # through a pipe the file cannot be judged first: the header is the key, and the proposal is not printed
    p = _run(["detectar", "-"], dir_, entrada=(dir_ / archivo).read_bytes())
    _rehusado(f"cat {archivo} | detectar -", p, "64 hexadecimal digits")
    _sin_nombres_de_clave("detectar", dir_)


@pytest.mark.parametrize("args, frase", [
    (["--reglas", "clave.hex", "--entrada", "in.csv"], "--reglas: the file given holds a masking key"),
    (["--reglas", "clave_crlf.txt", "--entrada", "in.csv"], "--reglas: the file given holds a masking key"),
    (["--reglas", "r.toml", "--entrada", "clave.csv"], "--entrada: the file given holds a masking key"),
    (["--reglas", "r.toml", "--entrada", "clave.jsonl"], "--entrada: the file given holds a masking key"),
    (["--reglas", "r.toml", "--entrada", "clave.hex", "--formato", "jsonl"], "--entrada: the file given holds a masking key"),
])
def test_a_key_file_given_as_rules_or_input_to_enmascarar_is_refused_unprinted(dir_, args, frase):
    p = _run(["enmascarar", *args], dir_)
    _rehusado("enmascarar " + " ".join(args), p, frase)
    assert p.stdout == b"", f"enmascarar {args}: expected nothing on stdout, got {p.stdout[:200]!r}"


def test_a_key_on_enmascarar_stdin_is_not_printed(dir_):
    with open(dir_ / "clave.hex", "rb") as f:
        p = subprocess.run([CLI, "enmascarar", "--reglas", "r.toml"], stdin=f, capture_output=True, env=_entorno(),
                           cwd=dir_, timeout=30)
    _rehusado("enmascarar < clave.hex", p, "stdin: the file given holds a masking key")
    p = _run(["enmascarar", "--reglas", "r.toml"], dir_, entrada=(dir_ / "clave.hex").read_bytes())  # a pipe
    _rehusado("cat clave.hex | enmascarar", p)


def test_a_key_file_given_to_riesgo_is_refused_unprinted(dir_):
    p = _run(["riesgo", "--entrada", "clave.hex", "--qi", "comuna"], dir_)
    _rehusado("riesgo --entrada clave.hex", p, "--entrada: the file given holds a masking key")
    p = _run(["riesgo", "--entrada", "in.csv", "--original", "clave.csv", "--enlace", "rut,comuna"], dir_)
    _rehusado("riesgo --original clave.csv", p, "--original: the file given holds a masking key")
    with open(dir_ / "clave.hex", "rb") as f:
        p = subprocess.run([CLI, "riesgo", "--qi", "comuna"], stdin=f, capture_output=True, env=_entorno(), cwd=dir_,
                           timeout=30)
    _rehusado("riesgo < clave.hex", p, "stdin: the file given holds a masking key")


# ------------------------------------------------------------------ a key in an option's value

@pytest.mark.parametrize("args, opcion", [
    (["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--riesgo", KEY], "--riesgo"),
    (["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--riesgo", f"comuna,{KEY}"], "--riesgo"),
    (["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--riesgo", "comuna", "--riesgo-enlace", f"rut,x{KEY}"],
     "--riesgo-enlace"),
    (["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--tabla", KEY], "--tabla"),
    (["riesgo", "--entrada", "in.csv", "--qi", KEY], "--qi"),
    (["riesgo", "--entrada", "in.csv", "--qi", f"comuna,{KEY.upper()}"], "--qi"),
    (["riesgo", "--entrada", "in.csv", "--original", "in.csv", "--enlace", f"rut,{KEY}"], "--enlace"),
    (["riesgo", "--entrada", "in.csv", "--original", "in.csv", "--personales", f"{KEY}:anio"], "--personales"),
    (["riesgo", "--entrada", "in.csv", "--qi", "comuna", "--tabla", KEY], "--tabla"),
    (["riesgo", "--entrada", f"{KEY}.csv", "--qi", "comuna"], "--entrada"),
    (["detectar", "in.csv", "--bogus", KEY], "argument 3"),
])
def test_a_value_holding_a_key_is_refused_naming_the_option(dir_, args, opcion):
    p = _run(args, dir_)
    _rehusado(" ".join(a if a != KEY else "<key>" for a in args), p, opcion)


@pytest.mark.parametrize("nombre", [f"{KEY}.csv", f"masked-{KEY}.csv", f"sub/{KEY}"])
def test_no_output_file_is_named_after_the_key(dir_, nombre):
    (dir_ / "sub").mkdir(exist_ok=True)
    p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--salida", nombre], dir_)
    _rehusado(f"--salida {nombre.replace(KEY, '<key>')}", p, "--salida")
    _sin_nombres_de_clave(f"--salida {nombre.replace(KEY, '<key>')}", dir_)


# ------------------------------------------------------------------ a key inside a file: not quoted

def test_a_parsers_sentence_does_not_quote_a_key(dir_):
    casos = {
        "a rules line that is the key": REGLAS + KEY + "\n",
        "a rules key named after the key": REGLAS + f"x{KEY} = {{ regla = \"rut\" }}\n",
        "the key as a rule's value": 'version = 1\n[columnas]\nrut = { regla = "' + KEY + '" }\n',
    }
    for caso, texto in casos.items():
        (dir_ / "k.toml").write_text(texto)
        p = _run(["enmascarar", "--reglas", "k.toml", "--entrada", "in.csv"], dir_)
        _rehusado(caso, p)
    # a header column holding the key (with other columns): named by its place, never quoted
    (dir_ / "h.csv").write_bytes(b"rut,comuna,nota" + KEY.encode() + b"\n12.345.678-5,Renca,x\n")
    p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "h.csv"], dir_)
    _rehusado("enmascarar, a header with the key in a column's name", p)
    p = _run(["detectar", "h.csv"], dir_)
    _rehusado("detectar, a header with the key in a column's name", p)


# ------------------------------------------------------------------ weak keys

DEBILES = {
    "deadbeef x 8": ("deadbeef" * 8, "a block of 4 bytes repeated"),
    "a 16-byte half twice": (KEY[:32] * 2, "a block of 16 bytes repeated"),
    "0123456789abcdef x 4": ("0123456789abcdef" * 4, "a block of 8 bytes repeated"),
    "one byte 28 times of 32": ("e340486e" + "ab" * 28, "one byte value as 28 of its 32 bytes"),
    "bytes 01 .. 20": (bytes(range(1, 33)).hex(), "count by a fixed step"),
    "15 distinct values": ("0011223344556677889900112233445566778899aabbccddeeaabbccddeeaabb", "only 15 distinct byte values"),
}


@pytest.mark.parametrize("caso", sorted(DEBILES))
def test_a_weak_key_is_refused_saying_why(dir_, caso):
    clave, frase = DEBILES[caso]
    args = ["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv"]
    p = _run(args, dir_, clave=clave)
    assert p.returncode == 2, f"{caso} in DATOTECA_CLAVE: expected exit 2, got {p.returncode}; stderr {p.stderr!r}"
    for f in (frase, "openssl rand -hex 32", "--clave-de-prueba", "(from DATOTECA_CLAVE)"):
        assert f.encode() in p.stderr, f"{caso}: expected {f!r} in stderr, got {p.stderr!r}"
    _sin_clave(caso, p.stdout + p.stderr, k=clave)
    # from a key file: the same refusal
    (dir_ / "debil.hex").write_text(clave + "\n")
    (dir_ / "debil.hex").chmod(0o600)
    p = _run([*args, "--clave-archivo", "debil.hex"], dir_, clave=None)
    assert p.returncode == 2 and frase.encode() in p.stderr, f"{caso} in a key file: exit {p.returncode}, stderr {p.stderr!r}"
    _sin_clave(caso + " (file)", p.stdout + p.stderr, k=clave)
    # the test-key opt-in accepts it (tests only)
    p = _run([*args, "--clave-de-prueba"], dir_, clave=clave)
    assert p.returncode == 0 and p.stdout.startswith(b"rut,comuna\n"), \
        f"{caso} with --clave-de-prueba: expected exit 0 and the masked CSV, got {p.returncode}: {p.stderr!r}"


def test_a_real_key_one_step_from_the_rules_is_accepted(dir_):
    for caso, clave in {"the key of these tests": BUENA, "8 zeros among 25 distinct":
                        "0000000000000000e340486e8c1f2b9d7a6054c1b2a9f8d7e6c5b4a39281706f"}.items():
        p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv"], dir_, clave=clave)
        assert p.returncode == 0, f"{caso}: expected exit 0, got {p.returncode}: {p.stderr!r}"


# ------------------------------------------------------------------ outputs: never a rename onto a device

def _nodo(ruta):
    return os.lstat(ruta)


def _es_dispositivo(caso, ruta, rdev):
    st = _nodo(ruta)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == rdev, \
        f"{caso}: expected {ruta} to be the character device {os.major(rdev)},{os.minor(rdev)}, got mode {stat.filemode(st.st_mode)}"


@pytest.fixture
def nulo(tmp_path):
    """A private /dev/null clone (character device 1,3) inside the test's directory."""
    if not ES_ROOT:
        pytest.skip("making a character device (mknod) needs root; run this file as root to test --salida on a device")
    ruta = tmp_path / "nulo"
    os.mknod(ruta, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    return ruta


def test_enmascarar_salida_onto_a_device_writes_in_place(dir_, nulo):
    rdev = _nodo(nulo).st_rdev
    p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--salida", nulo], dir_)
    assert p.returncode == 0, f"--salida DEVICE: expected exit 0 (written in place), got {p.returncode}: {p.stderr!r}"
    _es_dispositivo("--salida DEVICE", nulo, rdev)
    (dir_ / "a_nulo").symlink_to(nulo)  # a link to the device: followed, the bytes go to the device
    p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--salida", "a_nulo"], dir_)
    assert p.returncode == 0, f"--salida LINK->DEVICE: expected exit 0, got {p.returncode}: {p.stderr!r}"
    assert os.path.islink(dir_ / "a_nulo"), "--salida LINK->DEVICE: the link was replaced"
    _es_dispositivo("--salida LINK->DEVICE", nulo, rdev)
    assert not [n for n in os.listdir(dir_) if ".tmp-" in n], f"a temporary file was left: {os.listdir(dir_)}"


def test_copiar_onto_a_device_is_refused_and_leaves_it(dir_, nulo):
    db = _fuente(dir_)
    rdev = _nodo(nulo).st_rdev
    dump = dir_ / "nulo.sql"
    os.mknod(dump, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    for caso, hacia, ruta in (("--hacia DEVICE.sql", dump, dump), ("--hacia sqlite:DEVICE", f"sqlite:{nulo}", nulo)):
        p = _run(["copiar", "--desde", f"sqlite:{db}", "--hacia", hacia, "--reglas", "doc.toml"], dir_)
        assert p.returncode == 2 and b"character device" in p.stderr, \
            f"{caso}: expected exit 2 naming a character device, got {p.returncode}: {p.stderr!r}"
        _es_dispositivo(caso, ruta, rdev)


def test_enmascarar_salida_to_a_fifo_read_by_a_thread(dir_):
    fifo = dir_ / "tubo"
    os.mkfifo(fifo)
    leido = []
    hilo = threading.Thread(target=lambda: leido.append(open(fifo, "rb").read()), daemon=True)
    hilo.start()
    p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--salida", fifo], dir_, timeout=30)
    hilo.join(10)
    assert p.returncode == 0, f"--salida FIFO: expected exit 0, got {p.returncode}: {p.stderr!r}"
    assert stat.S_ISFIFO(_nodo(fifo).st_mode), f"--salida FIFO: expected a FIFO after, got {stat.filemode(_nodo(fifo).st_mode)}"
    assert leido and leido[0].startswith(b"rut,comuna\n") and leido[0].count(b"\n") == 3, \
        f"--salida FIFO: expected the reader to get the masked CSV (3 lines), got {leido!r}"


def test_enmascarar_salida_onto_a_link_or_a_directory_is_refused(dir_):
    (dir_ / "destino.csv").write_bytes(b"keep me\n")
    (dir_ / "a_archivo").symlink_to(dir_ / "destino.csv")
    (dir_ / "a_nada").symlink_to(dir_ / "no_existe.csv")
    (dir_ / "carpeta").mkdir()
    for caso, nombre, frase in (("LINK->FILE", "a_archivo", "symbolic link"), ("LINK->NOTHING", "a_nada", "symbolic link"),
                                ("DIRECTORY", "carpeta", "a directory")):
        p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--salida", nombre], dir_)
        assert p.returncode == 2 and frase.encode() in p.stderr and b"--salida" in p.stderr, \
            f"--salida {caso}: expected exit 2 saying {frase!r}, got {p.returncode}: {p.stderr!r}"
        assert nombre.encode() not in p.stderr, f"--salida {caso}: the path was printed: {p.stderr!r}"
    assert os.path.islink(dir_ / "a_archivo") and os.path.islink(dir_ / "a_nada"), "a link was replaced"
    assert (dir_ / "destino.csv").read_bytes() == b"keep me\n", "the file behind the link was written"
    assert not (dir_ / "no_existe.csv").exists(), "the dangling link's target was created"
    assert os.path.isdir(dir_ / "carpeta") and os.listdir(dir_ / "carpeta") == [], "the directory changed"
    # a regular file is still replaced, as before
    (dir_ / "o.csv").write_bytes(b"old\n")
    p = _run(["enmascarar", "--reglas", "r.toml", "--entrada", "in.csv", "--salida", "o.csv"], dir_)
    assert p.returncode == 0 and (dir_ / "o.csv").read_bytes().startswith(b"rut,comuna\n"), \
        f"--salida REGULAR FILE: expected it replaced by the output, got {p.returncode}: {p.stderr!r}"


def _fuente(d):
    db = d / "src.db"
    c = sqlite3.connect(db)
    c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, rut TEXT, comuna TEXT)")
    c.execute("INSERT INTO t VALUES (1, '12.345.678-5', 'Renca')")
    c.commit()
    c.close()
    p = _run(["detectar", f"sqlite:{db}"], d)
    if p.returncode != 0 and b"no SQLite client" in p.stderr:
        pytest.skip("this datoteca program has no SQLite client (copiar sqlite: is not built in)")
    assert p.returncode == 0, f"detectar sqlite: (setting up): {p.stderr!r}"
    (d / "doc.toml").write_bytes(p.stdout)
    return db


def test_copiar_refuses_a_fifo_or_a_link_without_blocking_or_replacing(dir_):
    db = _fuente(dir_)
    os.mkfifo(dir_ / "tubo.sql")
    (dir_ / "enlace.sql").symlink_to(dir_ / "nada.sql")
    (dir_ / "enlace.db").symlink_to(dir_ / "nada.db")
    for caso, hacia, ruta, es in (("--hacia FIFO.sql", "tubo.sql", "tubo.sql", stat.S_ISFIFO),
                                  ("--hacia LINK.sql", "enlace.sql", "enlace.sql", stat.S_ISLNK),
                                  ("--hacia sqlite:LINK", "sqlite:enlace.db", "enlace.db", stat.S_ISLNK)):
        try:
            p = _run(["copiar", "--desde", f"sqlite:{db}", "--hacia", hacia, "--reglas", "doc.toml"], dir_, timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{caso}: expected a prompt refusal, the copy blocked for 20 s")
        assert p.returncode == 2 and b"--hacia" in p.stderr, f"{caso}: expected exit 2 naming --hacia, got {p.returncode}: {p.stderr!r}"
        modo = _nodo(dir_ / ruta).st_mode
        assert es(modo), f"{caso}: expected it left as it was, got {stat.filemode(modo)}"
    assert not (dir_ / "nada.sql").exists() and not (dir_ / "nada.db").exists(), "a link's target was created"
    # a new dump and a new database are still written
    for hacia, ruta in (("nuevo.sql", "nuevo.sql"), ("sqlite:nuevo.db", "nuevo.db")):
        p = _run(["copiar", "--desde", f"sqlite:{db}", "--hacia", hacia, "--reglas", "doc.toml"], dir_)
        assert p.returncode == 0 and stat.S_ISREG(_nodo(dir_ / ruta).st_mode), f"copiar --hacia {hacia}: {p.returncode}: {p.stderr!r}"
    assert not [n for n in os.listdir(dir_) if re.search(r"\.(escribiendo|copiando)-", n)], f"a temporary file was left: {os.listdir(dir_)}"
