"""The npm package as a user meets it: `npm pack` of a copy of the sources (its prepack puts the `datoteca` program CMake builds
into prebuilds/linux-x64/programa/, with the client libraries it links and their Debian copyright files),
installed into an empty project, then `npx datoteca inferir` and `npx datoteca esquema --hacia` against
SQLite, a PostgreSQL 15 server and a MariaDB server, and Node's `inferir(url)` from the installed package:
each the CMake binary's bytes, with glibc's loader (LD_DEBUG=libs) showing that the program took libpq,
libsqlite3 and libmariadb from the package and from the machine only what auditwheel's manylinux policy
allows a wheel to take (the same rule the pip wheel follows, tests/python/test_wheel.py)."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT
from servidor_mariadb import mariadb  # noqa: F401  (a throwaway MariaDB server of this module)
from test_basesdedatos import _pg_bin, postgres  # noqa: F401  (a throwaway PostgreSQL 15 server of this module)
from test_hacia import _pg_huellas, _pg_url, _pg_vacia, _sqlite_filas, _sqlite_vacia
from test_inferir import COLUMNAS, _pg_origen, _sqlite_origen

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
CLIENTES = ("libpq", "libsqlite3", "libmariadb")
NOTA = "datoteca inferir: not expressed: "


def _sistema():
    """What the program may take from the machine: the loader and auditwheel's manylinux_2_17 whitelist
    (glibc's libraries, libgcc_s, libstdc++, libz, ...), read from auditwheel's own policy file."""
    auditwheel = pytest.importorskip("auditwheel")
    with open(os.path.join(os.path.dirname(auditwheel.__file__), "policy", "manylinux-policy.json"), encoding="utf-8") as f:
        (politica,) = [p for p in json.load(f) if p["name"] == "manylinux_2_17"]
    return {"ld-linux-x86-64.so.2", *politica["lib_whitelist"]}


class Proyecto:
    """An empty npm project with the packed tarball installed, and the environment its user has: none of
    the variables that point a checkout's tests at build-c/ (DATOTECA_CLI) or at its sources."""

    def __init__(self, app):
        self.app = app
        self.bin = app / "node_modules" / ".bin" / "datoteca"
        self.programa = app / "node_modules" / "datoteca" / "prebuilds" / "linux-x64" / "programa"
        quitar = ("DATOTECA_LIBRARY", "DATOTECA_CLI", "DATOTECA_BACKEND", "PYTHONPATH", "LD_LIBRARY_PATH")
        self.env = {k: v for k, v in os.environ.items() if k not in quitar}

    def run(self, args, cwd, **env):
        return subprocess.run([str(self.bin), *args], capture_output=True, cwd=str(cwd), env={**self.env, **env})

    def node(self, code, cwd):
        """Runs code with Node in the project (require('datoteca') is the installed package); its stdout as JSON."""
        p = subprocess.run(["node", "-e", code], capture_output=True, cwd=str(self.app), env=self.env)
        assert p.returncode == 0, p.stderr.decode()
        return json.loads(p.stdout)


@pytest.fixture(scope="module")
def proyecto(tmp_path_factory):
    if shutil.which("npm") is None:
        pytest.fail("npm is not on PATH: make test installs Node 20 with npm")
    d = tmp_path_factory.mktemp("npm")
    # packed from a copy of the sources: prepack's node-gyp rebuild empties build/, which the other pytest
    # lane's JavaScript blocks (test_docs_bloques.py) load the addon from
    copia = d / "fuente"
    shutil.copytree(ROOT, copia, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "build", "build-*", "prebuilds", "__pycache__", ".pytest_cache", "tests"))
    os.symlink(os.path.join(ROOT, "node_modules"), copia / "node_modules")
    env = {**os.environ, "npm_config_nodedir": os.environ.get("npm_config_nodedir", "/usr"), "DATOTECA_CLI": CLI}
    p = subprocess.run(["npm", "pack", "--silent", "--pack-destination", str(d)], cwd=str(copia), env=env, capture_output=True)
    assert p.returncode == 0, p.stderr.decode()[-3000:]
    (tgz,) = list(d.glob("datoteca-*.tgz"))
    listado = subprocess.run(["tar", "tzf", str(tgz)], check=True, capture_output=True, text=True).stdout.split()
    assert "package/prebuilds/linux-x64/programa/datoteca" in listado
    for c in CLIENTES:
        assert any(re.fullmatch(rf"package/prebuilds/linux-x64/programa/lib/{c}\.so\.\d+", n) for n in listado), (c, listado)
    # each bundled library's license travels with it (LGPL's gnutls and libmariadb among them)
    for paquete in ("libpq5", "libmariadb3", "libsqlite3-0", "libgnutls30"):
        assert f"package/prebuilds/linux-x64/programa/licencias/{paquete}.copyright" in listado, paquete
    app = d / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name":"app","private":true}')
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent", str(tgz)], cwd=str(app), env=env, check=True,
                   capture_output=True)
    return Proyecto(app)


def _cargados(proyecto, args, cwd):
    """The shared objects the program loads while the package's bin runs args: LD_DEBUG=libs reaches the
    program through Node; its lines are the process (pid) that initialised a client library."""
    p = proyecto.run(args, cwd, LD_DEBUG="libs")
    inits = re.findall(r"^\s*(\d+):\s+calling init: (\S+)", p.stderr.decode(), re.M)
    pids = {pid for pid, ruta in inits if any(os.path.basename(ruta).startswith(c + ".") for c in CLIENTES)}
    assert len(pids) == 1, (pids, p.stderr.decode()[-3000:])
    return [ruta for pid, ruta in inits if pid in pids], p


def _solo_del_paquete(proyecto, cargados, cliente):
    propios = os.path.realpath(str(proyecto.programa)) + os.sep
    suyo = [c for c in cargados if os.path.basename(c).startswith(cliente + ".")]
    assert len(suyo) == 1 and os.path.realpath(suyo[0]).startswith(propios), (cliente, cargados)
    sistema = _sistema()
    ajenos = [c for c in cargados if not os.path.realpath(c).startswith(propios) and os.path.basename(c) not in sistema]
    assert not ajenos, f"the program loaded these from the machine, not from the package: {ajenos}"


def _sin_datos(salida):
    """stderr without the loader's lines."""
    return b"\n".join(x for x in salida.split(b"\n") if not re.match(rb"^\s*\d+:\s", x))


def _inferir_en_node(proyecto, url, cwd):
    code = ("const d = require('datoteca'); process.chdir(%s); const r = d.inferirConNotas(%s); "
            "console.log(JSON.stringify(r))") % (json.dumps(str(cwd)), json.dumps(url))
    return proyecto.node(code, cwd)


def test_npx_datoteca_infers_and_fills_sqlite(proyecto, tmp_path):
    origen = _sqlite_origen(tmp_path)  # tests/inferir/app_sqlite.sql with planted rows
    esperado = subprocess.run([CLI, "inferir", "sqlite:app.db"], capture_output=True, cwd=str(tmp_path))
    assert esperado.returncode == 0, esperado.stderr
    p = proyecto.run(["inferir", "sqlite:app.db"], tmp_path)
    # the library's own CLI would refuse the URL (exit 2, naming libsqlite3-dev): this is the program
    assert p.returncode == 0, p.stderr.decode()
    assert (p.stdout, p.stderr) == (esperado.stdout, esperado.stderr)
    cargados, q = _cargados(proyecto, ["inferir", "sqlite:app.db"], tmp_path)
    assert q.returncode == 0 and q.stdout == esperado.stdout
    _solo_del_paquete(proyecto, cargados, "libsqlite3")
    r = _inferir_en_node(proyecto, "sqlite:app.db", tmp_path)
    assert r["documento"].encode() == esperado.stdout
    notas = [x[len(NOTA):] for x in esperado.stderr.decode().splitlines() if x.startswith(NOTA)]
    assert r["notas"] == notas and notas, (r["notas"], notas)

    (tmp_path / "app.toml").write_bytes(esperado.stdout)
    _sqlite_vacia(origen, tmp_path / "npx.db")
    _sqlite_vacia(origen, tmp_path / "cmake.db")
    p = proyecto.run(["esquema", "app.toml", "--seed", "42", "--hacia", "sqlite:npx.db"], tmp_path)
    assert p.returncode == 0 and p.stdout == b"", p.stderr.decode()
    subprocess.run([CLI, "esquema", "app.toml", "--seed", "42", "--hacia", "sqlite:cmake.db"], check=True, cwd=str(tmp_path))
    filas = _sqlite_filas(tmp_path / "npx.db")
    assert filas == _sqlite_filas(tmp_path / "cmake.db") and all(filas[t] for t in COLUMNAS), "npx wrote other rows (seed 42)"


def test_npx_datoteca_reads_and_fills_postgresql_through_its_own_libpq(proyecto, postgres, tmp_path):
    base = postgres
    _pg_origen(base, "npm_origen")
    url = f"postgresql://postgres@/npm_origen?host={base}"
    esperado = subprocess.run([CLI, "inferir", url], capture_output=True)
    assert esperado.returncode == 0, esperado.stderr
    cargados, p = _cargados(proyecto, ["inferir", url], tmp_path)
    assert p.returncode == 0 and p.stdout == esperado.stdout, _sin_datos(p.stderr).decode()
    assert _sin_datos(p.stderr) == esperado.stderr
    _solo_del_paquete(proyecto, cargados, "libpq")
    r = _inferir_en_node(proyecto, url, tmp_path)
    assert r["documento"].encode() == esperado.stdout and r["notas"]

    (tmp_path / "app.toml").write_bytes(esperado.stdout)
    ddl = subprocess.run([_pg_bin("pg_dump"), "-s", "-h", base, "-U", "postgres", "npm_origen"], check=True, capture_output=True).stdout
    for db in ("npm_copia", "npm_cmake"):
        _pg_vacia(base, db, ddl)
    cargados, p = _cargados(proyecto, ["esquema", "app.toml", "--seed", "42", "--hacia", _pg_url(base, "npm_copia")], tmp_path)
    assert p.returncode == 0 and p.stdout == b"", _sin_datos(p.stderr).decode()
    _solo_del_paquete(proyecto, cargados, "libpq")
    subprocess.run([CLI, "esquema", "app.toml", "--seed", "42", "--hacia", _pg_url(base, "npm_cmake")], check=True, cwd=str(tmp_path))
    huellas = _pg_huellas(base, "npm_copia")
    assert all(not h.startswith("0 ") for t, h in huellas.items() if t in COLUMNAS), huellas
    assert huellas == _pg_huellas(base, "npm_cmake"), "npx wrote other rows than the CMake binary (seed 42)"

    # a wrong password: the program's sentence through Node, exit 2, the password nowhere
    clave = "Pw-Npm-4471"
    p = proyecto.run(["inferir", f"postgresql://postgres:{clave}@/no_existe?host={base}"], tmp_path)
    assert p.returncode == 2 and clave.encode() not in p.stdout + p.stderr and b"does not exist" in p.stderr, p.stderr


def test_npx_datoteca_reads_and_fills_mariadb_through_its_own_libmariadb(proyecto, mariadb, tmp_path):
    mariadb.sql("CREATE DATABASE npm; USE npm; CREATE TABLE clientes (id INT PRIMARY KEY, rut VARCHAR(12) NOT NULL UNIQUE, "
                "nombre VARCHAR(120) NOT NULL) ENGINE=InnoDB;"
                "CREATE TABLE cuentas (id INT AUTO_INCREMENT PRIMARY KEY, cliente_id INT NOT NULL, tipo ENUM('corriente', 'vista') "
                "NOT NULL, FOREIGN KEY (cliente_id) REFERENCES clientes (id)) ENGINE=InnoDB; CREATE VIEW v AS SELECT * FROM cuentas;")
    url = mariadb.url("npm")
    esperado = subprocess.run([CLI, "inferir", url, "--filas-vacia", "300"], capture_output=True)
    assert esperado.returncode == 0 and b'"corriente" = 1' in esperado.stdout, esperado.stderr
    cargados, p = _cargados(proyecto, ["inferir", url, "--filas-vacia", "300"], tmp_path)
    assert p.returncode == 0 and p.stdout == esperado.stdout, _sin_datos(p.stderr).decode()
    _solo_del_paquete(proyecto, cargados, "libmariadb")
    r = proyecto.node("const d = require('datoteca'); console.log(JSON.stringify(d.inferirConNotas(%s, { filasVacia: 300 })))"
                      % json.dumps(url), tmp_path)
    assert r["documento"].encode() == esperado.stdout and any(n.startswith("view npm.v:") for n in r["notas"]), r["notas"]
    # the inferred document, unedited, fills both tables; the CMake binary's CSV of it is the same rows
    (tmp_path / "app.toml").write_bytes(esperado.stdout)
    cargados, p = _cargados(proyecto, ["esquema", "app.toml", "--seed", "42", "--hacia", url], tmp_path)
    assert p.returncode == 0, _sin_datos(p.stderr).decode()[-2000:]
    _solo_del_paquete(proyecto, cargados, "libmariadb")
    subprocess.run([CLI, "esquema", "app.toml", "--seed", "42", "--formato", "csv", "--salida", "csv"], check=True, cwd=str(tmp_path))
    import csv

    for tabla, columnas in (("clientes", "id, rut, nombre"), ("cuentas", "id, cliente_id, tipo")):
        filas = [f.split("\t") for f in mariadb.sql(f"SELECT {columnas} FROM {tabla} ORDER BY id", "npm").splitlines()]
        with open(tmp_path / "csv" / f"{tabla}.csv", encoding="utf-8", newline="") as f:
            esperadas = [[c[k.strip()] for k in columnas.split(",")] for c in csv.DictReader(f)]
        assert filas == esperadas and len(filas) >= 300, (tabla, len(filas), filas[:2], esperadas[:2])
