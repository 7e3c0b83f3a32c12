"""Replay fixtures/golden-sequence.json with the Python binding and write the canonical JSON.

Used by tests/python/test_golden.py and, by hand only, by tools/regen_golden.py.
The canonical form is documented in docs/determinism.md.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEQUENCE = os.path.join(ROOT, "fixtures", "golden-sequence.json")
GOLDEN = os.path.join(ROOT, "fixtures", "golden.json")


def load_sequence() -> Dict[str, Any]:
    with open(SEQUENCE, encoding="utf-8") as f:
        return json.load(f)


def run(seed: str, sequence: Dict[str, Any]) -> List[Tuple[str, Any]]:
    """The (call, value) pairs of one seed; integers become decimal strings."""
    from datoteca import Datoteca

    d = Datoteca(seed=int(seed), hoy=sequence["hoy"])
    out = []
    for step in sequence["calls"]:
        value = d.call(step["call"], **step["args"])
        if isinstance(value, int):
            value = str(value)
        out.append((step["call"], value))
    return out


def canonical(data_version: int, hoy: str, runs: List[Tuple[str, List[Tuple[str, Any]]]]) -> str:
    doc = {
        "data_version": data_version,
        "hoy": hoy,
        "runs": [{"seed": seed, "values": [{"call": c, "value": v} for c, v in values]} for seed, values in runs],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def run_all(sequence: Dict[str, Any]) -> str:
    import datoteca

    runs = [(seed, run(seed, sequence)) for seed in sequence["seeds"]]
    return canonical(datoteca.data_version(), sequence["hoy"], runs)


if __name__ == "__main__":  # write this binding's canonical run to a file (cross-language check)
    import sys

    with open(sys.argv[1], "w", encoding="utf-8", newline="\n") as out:
        out.write(run_all(load_sequence()))
