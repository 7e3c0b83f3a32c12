#!/usr/bin/env python3
"""Write every surface generated from spec/ (and c/data/), or check that the committed ones are fresh.

    python3 tools/gen/generar.py           write them (make generate)
    python3 tools/gen/generar.py --check   exit 1 naming every stale file (a ctest runs it)

One front end (spec.py) and one back end per target: c.py, python.py, node.py, docs.py, casos.py, postgres.py, java.py, go.py, wasm.py.
A new runtime is a new back end here plus its hand-written loader (docs/adding-a-runtime.md).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import c  # noqa: E402
import casos  # noqa: E402
import docs  # noqa: E402
import go  # noqa: E402
import java  # noqa: E402
import node  # noqa: E402
import postgres  # noqa: E402
import python  # noqa: E402
import spec  # noqa: E402
import wasm  # noqa: E402


def outputs():
    model = spec.load()
    files = []
    for back in (c, python, node, docs, casos, postgres, java, go, wasm):
        files += back.outputs(model, spec.ROOT)
    return files


def main() -> int:
    files = outputs()
    if "--check" in sys.argv[1:]:
        stale = [p for p, t in files if not os.path.exists(p) or open(p, encoding="utf-8").read() != t]
        if stale:
            print("stale files generated from spec/ (run make generate and commit): "
                  + ", ".join(os.path.relpath(p, spec.ROOT) for p in stale))
            return 1
        print(f"{len(files)} files generated from spec/ are fresh")
        return 0
    for p, t in files:
        with open(p, "w", encoding="utf-8", newline="\n") as f:
            f.write(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
