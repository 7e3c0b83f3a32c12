"""Packaging as a user meets it: `pip wheel .` gives a wheel that installs into a fresh
virtualenv and works from any directory (the C library travels inside it)."""
import os
import subprocess
import sys

from conftest import ROOT


def test_wheel_installs_into_a_fresh_venv_and_works_anywhere(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), ROOT],
                   check=True, capture_output=True, text=True)
    (wheel,) = list(wheels.glob("datoteca-*.whl"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(wheel)], check=True, capture_output=True, text=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import datoteca; d = datoteca.Datoteca(seed=42); "
            "print(d.rut()); print(datoteca.validar_rut(d.rut())); print(datoteca.__file__)")
    env = {k: v for k, v in os.environ.items() if k != "DATOTECA_LIBRARY"}
    out = subprocess.run([str(py), "-c", code], cwd=str(elsewhere), check=True, capture_output=True, text=True, env=env)
    rut, valid, where = out.stdout.split()
    from datoteca import Datoteca

    assert rut == Datoteca(seed=42).rut()
    assert valid == "True"
    assert where.startswith(str(venv)), f"imported from {where}, not from the fresh venv"
