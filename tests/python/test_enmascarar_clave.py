"""The key probes of issue 39 (docs/enmascarar.md, "The key"), each one an attack or a mistake that worked
before: a key pasted where a path goes (--clave-archivo, --reglas, --entrada, --salida, Python's
clave_archivo=) was printed back; the published test key and keys of one repeated byte were accepted
silently; a key file every account may read was accepted; a FIFO with no writer blocked forever; the
CLI kept DATOTECA_CLAVE in its environment (/proc/PID/environ) and could dump core. Judged from outside:
the process's stderr and stdout, /proc/PID/environ, /proc/PID/limits and the owner of /proc/PID.
A real-looking key (not the test key) is used for the probes, so acceptance is not an opt-in artefact."""
import os
import shutil
import subprocess
import time

import pytest

import datoteca
from test_enmascarar import CLI

KEY = "e340486e8c1f2b9d7a6054e3c1b2a9f8d7e6c5b4a3928170f6e5d4c3b2a19290"
PRUEBA = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
CONOCIDAS = {"the test key": PRUEBA, "64 zeros": "0" * 64, "64 f": "f" * 64, "0x5a repeated": "5a" * 32}
REGLAS = 'version = 1\n[columnas]\nrut = { regla = "rut" }\n'
ENTRADA = b"rut\n12.345.678-5\n"
LINUX = os.path.isdir("/proc/self") and os.path.exists("/proc/self/environ")


def _trozos(k, n=12):
    """Every n-character piece of the key, in both cases: none may appear anywhere."""
    return {p for i in range(len(k) - n + 1) for p in (k[i:i + n], k[i:i + n].upper())}


def _sin_clave(texto, donde, k=KEY):
    texto = texto.decode(errors="replace") if isinstance(texto, bytes) else texto
    for t in _trozos(k):
        assert t not in texto, f"{donde}: {t!r}, a piece of the key, is in the output: {texto!r}"


def _entorno(clave=None):
    env = dict(os.environ)
    env.pop("DATOTECA_CLAVE", None)
    if clave is not None:
        env["DATOTECA_CLAVE"] = clave
    return env


@pytest.fixture
def dir_(tmp_path):
    (tmp_path / "r.toml").write_text(REGLAS)
    k = tmp_path / "clave.hex"
    k.write_text(KEY + "\n")
    k.chmod(0o600)
    return tmp_path


def _cli(dir_, args, clave_env=None, entrada=ENTRADA, timeout=20):
    return subprocess.run([CLI, "enmascarar", *map(str, args)], input=entrada, capture_output=True,
                          env=_entorno(clave_env), cwd=dir_, timeout=timeout)


# ---------------------------------------------------------------- a key pasted where a path goes

@pytest.mark.parametrize("opcion", ["--clave-archivo", "--reglas", "--entrada", "--salida"])
@pytest.mark.parametrize("forma", ["the key", "the key and a newline", "a directory and the key", "60 digits of it"])
def test_a_key_pasted_as_a_path_is_never_printed(dir_, opcion, forma):
    pegado = {"the key": KEY, "the key and a newline": KEY + "\n", "a directory and the key": f"/nonexistent/{KEY}",
              # 60 digits are not recognised as a key: the library's or the CLI's own refusal must still not echo it
              "60 digits of it": KEY[:60]}[forma]
    args = {"--clave-archivo": ["--reglas", "r.toml", "--clave-archivo", pegado],
            "--reglas": ["--reglas", pegado, "--clave-archivo", "clave.hex"],
            "--entrada": ["--reglas", "r.toml", "--clave-archivo", "clave.hex", "--entrada", pegado],
            "--salida": ["--reglas", "r.toml", "--clave-archivo", "clave.hex", "--salida",
                         pegado if "/" in pegado else f"/nonexistent/{pegado}"]}[opcion]
    p = _cli(dir_, args)
    assert p.returncode == 2 or (opcion == "--salida" and p.returncode == 1), \
        f"{opcion} {forma}: exit {p.returncode}: {p.stderr.decode()!r}"
    assert p.stderr, f"{opcion} {forma}: refused without a word"
    _sin_clave(p.stdout + p.stderr, f"{opcion} given {forma}", KEY[:60])
    assert opcion.encode() in p.stderr or b"the key file given" in p.stderr, \
        f"{opcion} {forma}: the message does not say which argument: {p.stderr.decode()!r}"
    # and nothing named after the key was left in the directory
    assert not [f for f in os.listdir(dir_) if KEY[:16] in f], os.listdir(dir_)


def test_python_clave_archivo_given_the_key_does_not_print_it(dir_):
    for pegado in (KEY, KEY + "\n", str(dir_ / KEY), KEY[:60]):
        with pytest.raises(datoteca.InvalidArgumentError) as e:
            datoteca.Enmascarador(REGLAS, clave_archivo=pegado)
        _sin_clave(str(e.value) + repr(e.value), "Enmascarador(clave_archivo=KEY)", KEY[:60])
        assert "the key file given" in str(e.value), str(e.value)
    from datoteca._enmascarar import clave_de  # what datoteca.spark calls on the driver
    with pytest.raises(datoteca.InvalidArgumentError) as e:
        clave_de(None, KEY)
    _sin_clave(str(e.value), "clave_de(clave_archivo=KEY)")


# ---------------------------------------------------------------- keys anyone can have

@pytest.mark.parametrize("nombre", list(CONOCIDAS))
def test_known_keys_are_refused_unless_the_opt_in(dir_, nombre):
    k = CONOCIDAS[nombre]
    (dir_ / "conocida.hex").write_text(k + "\n")
    (dir_ / "conocida.hex").chmod(0o600)
    esperado = b"published test key" if k == PRUEBA else b"one byte repeated"
    for como, args, env in (("file", ["--clave-archivo", "conocida.hex"], None), ("DATOTECA_CLAVE", [], k)):
        p = _cli(dir_, ["--reglas", "r.toml", *args], clave_env=env)
        assert p.returncode == 2 and esperado in p.stderr and b"--clave-de-prueba" in p.stderr, \
            f"{nombre} from {como}: exit {p.returncode}, {p.stderr.decode()!r}"
        assert p.stdout == b"", f"{nombre} from {como}: output written under a refused key"
        p = _cli(dir_, ["--reglas", "r.toml", "--clave-de-prueba", *args], clave_env=env)
        assert p.returncode == 0 and p.stdout.startswith(b"rut\n"), \
            f"{nombre} from {como} with --clave-de-prueba: exit {p.returncode}, {p.stderr.decode()!r}"
    for kw in ({"clave": k}, {"clave": bytes.fromhex(k)}, {"clave_archivo": dir_ / "conocida.hex"}):
        with pytest.raises(datoteca.InvalidArgumentError, match="published test key|one byte repeated"):
            datoteca.Enmascarador(REGLAS, **kw)
        m = datoteca.Enmascarador(REGLAS, clave_de_prueba=True, **kw)
        assert m.filas([{"rut": "12.345.678-5"}])[0]["rut"] != "12.345.678-5"


def test_the_test_key_s_masking_is_the_same_with_the_opt_in(dir_):
    """The opt-in changes nothing but the refusal: the CLI and Python give one output under the test key."""
    (dir_ / "p.hex").write_text(PRUEBA)
    (dir_ / "p.hex").chmod(0o600)
    p = _cli(dir_, ["--reglas", "r.toml", "--clave-archivo", "p.hex", "--clave-de-prueba"])
    py = datoteca.Enmascarador(REGLAS, clave=PRUEBA, clave_de_prueba=True).filas([{"rut": "12.345.678-5"}])
    assert p.stdout.decode().splitlines()[1] == py[0]["rut"]


# ---------------------------------------------------------------- files that are not a private regular file

def test_a_key_file_others_may_read_is_refused(dir_):
    k = dir_ / "clave.hex"
    for modo in (0o644, 0o640, 0o604, 0o660):
        k.chmod(modo)
        p = _cli(dir_, ["--reglas", "r.toml", "--clave-archivo", "clave.hex"])
        assert p.returncode == 2 and f"mode {modo & 0o777:03o}".encode() in p.stderr and b"chmod 600" in p.stderr, \
            f"mode {modo:o}: exit {p.returncode}, {p.stderr.decode()!r}"
        with pytest.raises(datoteca.InvalidArgumentError, match="chmod 600"):
            datoteca.Enmascarador(REGLAS, clave_archivo=k)
        p = _cli(dir_, ["--reglas", "r.toml", "--clave-archivo", "clave.hex", "--clave-compartida"])
        assert p.returncode == 0, f"mode {modo:o} with --clave-compartida: {p.stderr.decode()!r}"
        datoteca.Enmascarador(REGLAS, clave_archivo=k, clave_compartida=True)
    for modo in (0o600, 0o400):
        k.chmod(modo)
        p = _cli(dir_, ["--reglas", "r.toml", "--clave-archivo", "clave.hex"])
        assert p.returncode == 0, f"mode {modo:o}: {p.stderr.decode()!r}"
        datoteca.Enmascarador(REGLAS, clave_archivo=k)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_with_no_writer_is_refused_at_once(dir_):
    f = dir_ / "fifo"
    os.mkfifo(f, 0o600)
    t0 = time.monotonic()
    # run under a timeout: before, open(2) waited for a writer forever
    p = _cli(dir_, ["--reglas", "r.toml", "--clave-archivo", "fifo"], timeout=10)
    dt = time.monotonic() - t0
    assert p.returncode == 2 and b"FIFO" in p.stderr, p.stderr.decode()
    assert dt < 5, f"the CLI took {dt:.1f} s to refuse a FIFO"
    t0 = time.monotonic()
    with pytest.raises(datoteca.InvalidArgumentError, match="FIFO"):
        datoteca.Enmascarador(REGLAS, clave_archivo=f)
    assert time.monotonic() - t0 < 5
    for otro, que in (("/dev/zero", "character device"), (str(dir_), "directory")):
        p = _cli(dir_, ["--reglas", "r.toml", "--clave-archivo", otro, "--clave-compartida"], timeout=10)
        assert p.returncode == 2 and que.encode() in p.stderr, f"{otro}: {p.stderr.decode()!r}"


# ---------------------------------------------------------------- the CLI process

def _cli_esperando(dir_, args, clave_env=None, user=None):
    """The CLI started with its stdin a pipe nobody writes to: it reads the rules and the key, then waits
    for the input's header. Returns the Popen once the key has been read (its stderr would say why not)."""
    pre = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] if user is not None else []
    p = subprocess.Popen([*pre, CLI, "enmascarar", *map(str, args)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=_entorno(clave_env), cwd=dir_)
    # It is blocked in read(0) when /proc/PID/wchan or its state says sleeping; wait for that (at most 5 s).
    fin = time.monotonic() + 5
    while time.monotonic() < fin:
        try:
            with open(f"/proc/{p.pid}/stat") as f:
                estado = f.read().rsplit(")", 1)[1].split()[0]
            if estado == "S":
                time.sleep(0.2)  # a sleeping CLI before the read would be in open/exec; let it reach the read
                with open(f"/proc/{p.pid}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] == "S":
                        break
        except FileNotFoundError:
            break
        time.sleep(0.05)
    assert p.poll() is None, f"the CLI exited {p.returncode}: {p.stderr.read().decode()!r}"
    return p


def _terminar(p):
    """The input given at last: the run must then finish normally (exit 0), or the probe read a dead CLI."""
    p.stdin.write(ENTRADA)
    p.stdin.close()
    p.wait(timeout=10)
    err = p.stderr.read()
    p.stdout.close()
    p.stderr.close()
    assert p.returncode == 0, f"exit {p.returncode}: {err.decode()!r}"


@pytest.mark.skipif(not LINUX, reason="/proc/PID/environ is Linux's")
def test_datoteca_clave_leaves_the_environment_once_read(dir_):
    p = _cli_esperando(dir_, ["--reglas", "r.toml"], clave_env=KEY)
    try:
        with open(f"/proc/{p.pid}/environ", "rb") as f:
            entorno = f.read()
        with open(f"/proc/{p.pid}/cmdline", "rb") as f:
            linea = f.read()
    finally:
        _terminar(p)
    _sin_clave(entorno.replace(b"\0", b"\n"), "/proc/PID/environ of the CLI after it read DATOTECA_CLAVE")
    _sin_clave(linea, "/proc/PID/cmdline")
    assert b"PATH=" in entorno, "the rest of the environment is gone too: the probe reads the wrong thing"


@pytest.mark.skipif(not LINUX, reason="/proc/PID/limits is Linux's")
def test_the_cli_cannot_dump_core(dir_):
    p = _cli_esperando(dir_, ["--reglas", "r.toml", "--clave-archivo", "clave.hex"])
    try:
        with open(f"/proc/{p.pid}/limits") as f:
            limite = next(l for l in f if l.startswith("Max core file size"))
    finally:
        _terminar(p)
    assert limite.split()[4:6] == ["0", "0"], f"the CLI holding a key may dump core: {limite!r}"


@pytest.mark.skipif(not LINUX or os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to run the CLI as another user")
def test_the_cli_is_not_dumpable():
    """PR_SET_DUMPABLE 0 shows from outside as the files of /proc/PID (status, environ, mem) owned by root
    instead of the process's user (proc(5)): run as nobody (uid 65534), the CLI's /proc/PID/status must
    belong to root once it holds the key."""
    import pathlib
    import tempfile

    dir_ = pathlib.Path(tempfile.mkdtemp(prefix="dt_clave_", dir="/tmp"))  # pytest's tmp_path is root's only
    os.chmod(dir_, 0o755)
    (dir_ / "r.toml").write_text(REGLAS)
    os.chmod(dir_ / "r.toml", 0o644)
    try:
        _no_volcable(dir_)
    finally:
        shutil.rmtree(dir_)


def _no_volcable(dir_):
    # the control: a process of nobody's that stays dumpable has its /proc entry owned by nobody
    c = subprocess.Popen(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "5"])
    try:
        time.sleep(0.2)
        assert os.stat(f"/proc/{c.pid}/status").st_uid == 65534, "the probe cannot see dumpability here"
    finally:
        c.kill()
        c.wait()
    p = _cli_esperando(dir_, ["--reglas", "r.toml"], clave_env=KEY, user=65534)
    try:
        duenio = os.stat(f"/proc/{p.pid}/status").st_uid
    finally:
        _terminar(p)
    assert duenio == 0, f"/proc/PID/status of the CLI (run as 65534) is owned by {duenio}: it is still dumpable"


def test_detectar_given_the_key_as_its_file_does_not_print_it(dir_):
    for pegado in (KEY, f"/nonexistent/{KEY}"):
        p = subprocess.run([CLI, "detectar", pegado], capture_output=True, cwd=dir_, timeout=20)
        assert p.returncode == 2 and b"cannot read the file given" in p.stderr, p.stderr.decode()
        _sin_clave(p.stdout + p.stderr, "datoteca detectar KEY")


def test_a_hash_named_directory_on_the_way_is_not_taken_for_a_key(dir_):
    """Only a last component that is a key is refused as one: Docker's layer directories are 64 hex digits."""
    d = dir_ / KEY[::-1]
    d.mkdir()
    (d / "in.csv").write_bytes(ENTRADA)
    p = _cli(dir_, ["--reglas", "r.toml", "--clave-archivo", "clave.hex", "--entrada", d / "in.csv",
                    "--salida", d / "out.csv"], entrada=b"")
    assert p.returncode == 0, p.stderr.decode()
    assert (d / "out.csv").read_bytes().startswith(b"rut\n")
