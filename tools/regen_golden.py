#!/usr/bin/env python3
"""Write fixtures/golden.json from the Python binding. RUN BY HAND ONLY, never by a test or CI.

It refuses to overwrite the fixture unless DT_DATA_VERSION differs from the data version
recorded in it: a different golden output is a contract change (new data version, new major
version, a CHANGELOG entry). After running it, read the diff and review the values.

    .venv/bin/python tools/regen_golden.py
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))

import golden_runner  # noqa: E402


def main() -> int:
    import datoteca

    if os.path.exists(golden_runner.GOLDEN):
        with open(golden_runner.GOLDEN, encoding="utf-8") as f:
            recorded = json.load(f).get("data_version")
        if recorded == datoteca.data_version():
            print(f"refusing: {golden_runner.GOLDEN} already records data version {recorded}, "
                  f"the library's DT_DATA_VERSION. Bump DT_DATA_VERSION (and the major version, and "
                  f"CHANGELOG.md) for an intended change of output; otherwise fix the regression.")
            return 1
    text = golden_runner.run_all(golden_runner.load_sequence())
    with open(golden_runner.GOLDEN, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {golden_runner.GOLDEN} for data version {datoteca.data_version()}: now read it and review it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
