#!/usr/bin/env python3
"""Generate the Python binding's out-of-line CFFI module from the C header.

The cdef is the public header itself, less what cffi cannot read (comments, preprocessor
conditionals, DT_API, integer suffixes, string/char macros). Deriving it from the header
means the binding's declarations cannot drift from the C ABI; `--check` (run by the
Python tests) fails when the committed module is stale.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = os.path.join(ROOT, "c", "include", "datoteca.h")
OUT = os.path.join(ROOT, "bindings", "python", "datoteca", "_datoteca_ffi.py")


def inline_includes(text):
    """The generated headers datoteca.h includes, pasted where it includes them."""
    def paste(m):
        with open(os.path.join(os.path.dirname(HEADER), m.group(1)), encoding="utf-8") as f:
            body = f.read()
        return re.sub(r"^#(ifndef|define|endif)\b.*DATOTECA_\w+_GEN_H.*$|^#endif\s*$", "", body, flags=re.M)
    return re.sub(r'^#include "(datoteca_\w+\.gen\.h)"\s*$', paste, text, flags=re.M)


def cdef_from_header(text):
    text = inline_includes(text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    depth = 0
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            m = re.match(r"#define\s+(DT_\w+)\s+(-?(?:0x[0-9a-fA-F]+|\d+))[uUlL]*\s*$", s)
            if m and depth == 0:
                out.append(f"#define {m.group(1)} {m.group(2)}")
            if s.startswith("#if") and not s.startswith("#ifndef DATOTECA_H") and not s.startswith("#ifdef __cplusplus"):
                depth += 1
            elif s.startswith("#endif") and depth > 0:
                depth -= 1
            continue
        if s in ('extern "C" {', "}") and not out or s == 'extern "C" {':
            continue
        if depth:
            continue
        out.append(line.replace("DT_API ", ""))
    body = "\n".join(out)
    body = re.sub(r'\n}\s*$', "\n", body.rstrip()) + "\n"  # the closing brace of extern "C"
    body = re.sub(r"\n{3,}", "\n\n", body)
    return body.strip() + "\n"


def build():
    import cffi

    with open(HEADER, encoding="utf-8") as f:
        cdef = cdef_from_header(f.read())
    ffi = cffi.FFI()
    ffi.cdef(cdef)
    ffi.set_source("datoteca._datoteca_ffi", None)
    import io

    import contextlib

    buf = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()):  # cffi prints "generating ..."
        ffi.emit_python_code(buf)
    # The module is generated; cffi's backend ships no type stubs.
    return "# mypy: ignore-errors\n" + buf.getvalue()


def main():
    text = build()
    if "--check" in sys.argv[1:]:
        current = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if current != text:
            print(f"stale {OUT}: run make generate and commit")
            return 1
        print("CFFI module matches the header")
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
