"""`python -m datoteca …` and the `datoteca` script. An installed wheel carries the `datoteca` program
that CMake builds, with its database connectors (datoteca/_bin/datoteca, the client libraries in
datoteca.libs/): it runs that, so `datoteca inferir postgresql://…` and `--hacia` work after pip install.
Without it (a source checkout, DATOTECA_LIBRARY set, the WebAssembly backend) it runs the library's own
command line, dt_cli_main: the same code without the connectors. Either way the output is byte for byte
the CMake binary's."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import List, Optional

from . import _programa
from ._lib import BACKEND, ffi, lib, solo_nativo


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command line with argv (default sys.argv[1:]) and return its exit status. Run as a program
    (argv None) with the wheel's program there, this process becomes that program (os.execv): stdin,
    stdout, stderr, signals and the exit status are the program's own."""
    args = ["datoteca", *(sys.argv[1:] if argv is None else argv)]
    if len(args) >= 3 and args[1] == "detectar" and args[2].endswith(".parquet"):
        solo_nativo("the command line (python -m datoteca)")
        return _detectar_parquet(args[2:])
    programa = programa_propio()
    if programa is not None:
        return _ejecutar(programa, args, reemplazar=argv is None)
    solo_nativo("the command line (python -m datoteca)")
    keep = [ffi.new("char[]", os_bytes(a)) for a in args]
    sys.stdout.flush()
    sys.stderr.flush()
    return int(lib.dt_cli_main(len(keep), ffi.new("char *[]", keep)))


def programa_propio() -> Optional[str]:
    """The wheel's program, unless DATOTECA_LIBRARY names another library to run (the program carries its
    own copy of the library, linked in) or the WebAssembly backend is in use."""
    if os.environ.get("DATOTECA_LIBRARY") or BACKEND != "native":
        return None
    return _programa.incluido()


def _ejecutar(programa: str, args: List[str], reemplazar: bool) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    if reemplazar and os.name == "posix":
        # Python ignores SIGPIPE, and an ignored signal stays ignored across exec: give the program the
        # default back (as subprocess does), so `datoteca … | head` ends as the CMake binary does.
        if hasattr(signal, "SIGPIPE"):
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.execv(programa, args)
    # Called from Python (main([...])): a child with the same stdin, stdout and stderr; a death by
    # signal N is reported as a shell does, 128 + N.
    rc = subprocess.call([programa, *args[1:]])
    return 128 - rc if rc < 0 else rc


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
