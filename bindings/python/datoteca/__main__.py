"""`python -m datoteca …` and the `datoteca` script: the library's own command line (dt_cli_main), the
same code as the CMake binary, so the output is byte for byte the same."""
from __future__ import annotations

import sys
from typing import List, Optional

from ._lib import ffi, lib


def main(argv: Optional[List[str]] = None) -> int:
    args = ["datoteca", *(sys.argv[1:] if argv is None else argv)]
    keep = [ffi.new("char[]", os_bytes(a)) for a in args]
    sys.stdout.flush()
    sys.stderr.flush()
    return int(lib.dt_cli_main(len(keep), ffi.new("char *[]", keep)))


def os_bytes(a: str) -> bytes:
    """An argument as the OS gave it (surrogateescape round-trips bytes that are not UTF-8)."""
    return a.encode("utf-8", "surrogateescape")


if __name__ == "__main__":  # pragma: no cover - run as a program
    sys.exit(main())
