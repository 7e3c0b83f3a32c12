"""docs/rut.md's table of spellings: datoteca's verdict and python-stdnum's, recomputed here from both
libraries, so the documented behaviour and the documented differences cannot go stale."""
import ast
import os
import re

from stdnum.cl import rut as stdnum_rut

import datoteca
from conftest import ROOT

ROWS = [line for line in open(os.path.join(ROOT, "docs", "rut.md"), encoding="utf-8").read().splitlines()
        if line.startswith("| `")]


def test_the_table_has_the_cases():
    assert len(ROWS) >= 25


def test_every_row_tells_the_truth():
    for row in ROWS:
        m = re.match(r"^\| `(.*)` \| (accepted|refused) \| (accepted|refused) \|", row)
        assert m, f"docs/rut.md: cannot read {row!r}"
        spelling = ast.literal_eval(m.group(1))
        ours = "accepted" if datoteca.validar_rut(spelling) else "refused"
        theirs = "accepted" if stdnum_rut.is_valid(spelling) else "refused"
        assert (ours, theirs) == (m.group(2), m.group(3)), f"docs/rut.md {m.group(1)}: says {m.group(2)}/{m.group(3)}, the libraries say {ours}/{theirs}"
