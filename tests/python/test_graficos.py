"""The charts in docs/img/ are what tools/graficos.py draws from the library and c/data/ today."""
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = os.path.join(ROOT, "tools", "graficos.py")


def _pin():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return re.search(r'"matplotlib==([0-9.]+)', f.read()).group(1)


def test_the_script_draws_with_the_pinned_matplotlib():
    with open(SCRIPT, encoding="utf-8") as f:
        drawn = re.search(r'^MATPLOTLIB = "([0-9.]+)"', f.read(), re.M).group(1)
    assert drawn == _pin(), f"tools/graficos.py draws with matplotlib {drawn}, pyproject.toml pins {_pin()}"


def test_the_charts_are_fresh():
    matplotlib = pytest.importorskip("matplotlib")  # the pin needs Python 3.11 or newer
    if matplotlib.__version__ != _pin():
        pytest.skip(f"matplotlib {matplotlib.__version__} installed, the charts are drawn with {_pin()}")
    r = subprocess.run([sys.executable, SCRIPT, "--check"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, f"{r.stderr.strip() or r.stdout.strip()}, then commit docs/img/"
