"""The CLI after pip install: `python -m datoteca` and the `datoteca` script run the wheel's program when the
package has one (installed, not a checkout), and the library's own command line (dt_cli_main) otherwise or
with DATOTECA_LIBRARY set: both byte for byte the CMake binary's output, exit statuses included."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

CLI = os.environ.get("DATOTECA_CLI", os.path.join(ROOT, "build-c", "datoteca"))
SCRIPT = shutil.which("datoteca", path=os.path.dirname(sys.executable))
LIBRERIA = os.path.join(ROOT, "build-c", "libdatoteca.so.3")
CASOS = [["rut", "--seed", "42", "-n", "5"], ["persona", "--seed", "1", "-n", "3", "--format", "csv"],
         ["tabla", "empresa", "-n", "4", "--unico", "rut", "--format", "sql"], ["--help"], ["persona", "--help"],
         ["list"], ["rut", "--bogus"], ["direccion.comuna", "--region", "17"], ["--version"]]


@pytest.mark.parametrize("args", CASOS, ids=[" ".join(c) for c in CASOS])
def test_python_m_datoteca_and_the_script_equal_the_cmake_binary(args, tmp_path):
    esperado = subprocess.run([CLI, *args], capture_output=True, cwd=tmp_path)
    biblioteca = {**os.environ, "DATOTECA_LIBRARY": os.environ.get("DATOTECA_LIBRARY") or LIBRERIA}
    for programa in ([sys.executable, "-m", "datoteca"], [SCRIPT]):
        for env in (None, biblioteca):
            r = subprocess.run([*programa, *args], capture_output=True, cwd=tmp_path, env=env)
            assert (r.returncode, r.stdout, r.stderr) == (esperado.returncode, esperado.stdout, esperado.stderr), (programa, args, env is None)


def test_a_full_disk_is_an_error(tmp_path):
    if not os.access("/dev/full", os.W_OK):
        pytest.skip("no /dev/full")
    with open("/dev/full", "wb") as full:
        r = subprocess.run([sys.executable, "-m", "datoteca", "rut", "-n", "100000"], stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 1 and b"cannot write the output" in r.stderr
