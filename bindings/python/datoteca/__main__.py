"""`python -m datoteca …` and the `datoteca` script: the library's own command line (dt_cli_main), the
same code as the CMake binary, so the output is byte for byte the same."""
from __future__ import annotations

import sys
from typing import List, Optional

from ._lib import ffi, lib, solo_nativo


def main(argv: Optional[List[str]] = None) -> int:
    solo_nativo("the command line (python -m datoteca)")
    args = ["datoteca", *(sys.argv[1:] if argv is None else argv)]
    if len(args) >= 3 and args[1] == "detectar" and args[2].endswith(".parquet"):
        return _detectar_parquet(args[2:])
    keep = [ffi.new("char[]", os_bytes(a)) for a in args]
    sys.stdout.flush()
    sys.stderr.flush()
    return int(lib.dt_cli_main(len(keep), ffi.new("char *[]", keep)))


def _detectar_parquet(args: List[str]) -> int:
    """`datoteca detectar FILE.parquet [--filas N]`: the C command line reads CSV; a Parquet file is
    read here with pyarrow and its values given to the same C detector (datoteca.proponer_reglas)."""
    from ._comun_gen import DatotecaError
    from ._detector import proponer_reglas

    filas = 1000
    if len(args) == 3 and args[1] == "--filas" and args[2].isdigit():
        filas = int(args[2])
    elif len(args) != 1:
        print("usage: datoteca detectar FILE.parquet [--filas N]", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(proponer_reglas(args[0], filas=filas))
    except ImportError:
        print("datoteca: detectar: reading Parquet needs pyarrow (pip install pyarrow)", file=sys.stderr)
        return 2
    except (DatotecaError, OSError) as e:
        print(f"datoteca: detectar: {e}", file=sys.stderr)
        return 2
    return 0


def os_bytes(a: str) -> bytes:
    """An argument as the OS gave it (surrogateescape round-trips bytes that are not UTF-8)."""
    return a.encode("utf-8", "surrogateescape")


if __name__ == "__main__":  # pragma: no cover - run as a program
    sys.exit(main())
