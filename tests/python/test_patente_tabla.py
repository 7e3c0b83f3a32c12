"""docs/patentes.md's table of spellings: datoteca's verdict recomputed from the library, so the
documented rules cannot go stale."""
import ast
import os
import re

import datoteca
from conftest import ROOT

ROWS = [line for line in open(os.path.join(ROOT, "docs", "patentes.md"), encoding="utf-8").read().splitlines()
        if line.startswith("| `")]


def test_the_table_has_the_cases():
    assert len(ROWS) >= 20


def test_every_row_tells_the_truth():
    for row in ROWS:
        m = re.match(r"^\| `(.*)` \| (accepted|refused) \|", row)
        assert m, f"docs/patentes.md: cannot read {row!r}"
        spelling = ast.literal_eval(m.group(1))
        ours = "accepted" if datoteca.validar_patente(spelling) else "refused"
        assert ours == m.group(2), f"docs/patentes.md {m.group(1)}: says {m.group(2)}, the library says {ours}"
