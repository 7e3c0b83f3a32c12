#!/usr/bin/env python3
"""Pack the Python package and build-wasm/datoteca.wasm into datoteca-<version>-py3-none-any.whl, the
wheel pip takes where no platform wheel matches (docs/wasm.md, "Which build you get").

    python3 wasm/wheel.py [--wasm build-wasm/datoteca.wasm] [--out build-wasm/wheel]

The wheel holds every file the platform wheel holds under datoteca/ except libdatoteca and the datoteca
program (_bin/, with its client libraries in datoteca.libs/) (the same .py files, byte for byte: _lib.py
picks the build at import), plus datoteca.wasm next to them. Its metadata
is pyproject.toml's [project] with one change: cffi, which only the native build needs, is replaced by
the `wasm` extra's requirements (wasmtime). The version is read as scikit-build-core reads it, from
pyproject's regex over c/include/datoteca.h.

Reproducible: a fixed file order, permissions and compression level, and every entry dated
SOURCE_DATE_EPOCH (1980-01-01 when unset, the earliest date a zip holds): the same inputs give the same
bytes (make test-wasm builds it from two builds of the module and compares the sha256).
Needs Python 3.11 (tomllib) and nothing outside the standard library: no cffi, no compiler.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import sys
import time
import tomllib
import zipfile
from typing import Any, Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "bindings", "python", "datoteca")
TAG = "py3-none-any"
WASM_MAGIC = b"\0asm\x01\0\0\0"


def _name(requirement: str) -> str:
    """A requirement's project name, normalized (PEP 503)."""
    m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if not m:
        raise SystemExit(f"wasm/wheel.py: cannot read the requirement {requirement!r} of pyproject.toml")
    return re.sub(r"[-_.]+", "-", m.group(1)).lower()


def _with_extra(requirement: str, extra: str) -> str:
    """`req; marker` of an extra, as METADATA writes it: the extra joined to the marker it already has."""
    spec, _, marker = requirement.partition(";")
    marker = marker.strip()
    if " or " in marker:
        marker = f"({marker})"
    joined = f'{marker} and extra == "{extra}"' if marker else f'extra == "{extra}"'
    return f"{spec.strip()}; {joined}"


def version(pyproject: Dict[str, Any]) -> str:
    rule = pyproject["tool"]["scikit-build"]["metadata"]["version"]
    with open(os.path.join(ROOT, rule["input"]), encoding="utf-8") as f:
        m = re.search(rule["regex"], f.read())
    if not m:
        raise SystemExit(f"wasm/wheel.py: no version in {rule['input']} (pyproject's regex {rule['regex']!r})")
    return m.group("value")


def dependencies(project: Dict[str, Any]) -> List[str]:
    """[project] dependencies without cffi, plus the `wasm` extra (wasmtime)."""
    deps = project["dependencies"]
    if "cffi" not in [_name(d) for d in deps]:
        raise SystemExit("wasm/wheel.py: pyproject.toml no longer depends on cffi; say here what the pure wheel drops")
    wasm = project["optional-dependencies"].get("wasm")
    if not wasm:
        raise SystemExit("wasm/wheel.py: pyproject.toml has no `wasm` extra naming wasmtime")
    return [d for d in deps if _name(d) != "cffi"] + list(wasm)


def metadata(project: Dict[str, Any], ver: str) -> str:
    lines = ["Metadata-Version: 2.2", f"Name: {project['name']}", f"Version: {ver}",
             f"Summary: {project['description']}"]
    if "text" in project.get("license", {}):
        lines.append(f"License: {project['license']['text']}")
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines.append(f"Requires-Python: {project['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in dependencies(project)]
    for extra, reqs in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f"Requires-Dist: {_with_extra(r, extra)}" for r in reqs]
    readme = project.get("readme")
    if readme is None:
        return "\n".join(lines) + "\n"
    if not readme.endswith(".md"):
        raise SystemExit(f"wasm/wheel.py: the readme {readme} is not Markdown; say its content type here")
    lines.append("Description-Content-Type: text/markdown")
    with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
        return "\n".join(lines) + "\n\n" + f.read()


def entry_points(project: Dict[str, Any]) -> str:
    """The pytest plugin and the `datoteca` script, as in the platform wheel (the script refuses, in one
    sentence, on the WebAssembly build)."""
    groups = dict(project.get("entry-points", {}))
    if "scripts" in project:
        groups["console_scripts"] = project["scripts"]
    return "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()) + "\n"
                   for group, points in groups.items())


def package_files() -> List[Tuple[str, str]]:
    """(path in the wheel, path here) of the package: its .py files and py.typed, in name order; never a
    compiled library, a __pycache__ or a datoteca.wasm left in the source tree."""
    names = sorted(n for n in os.listdir(PACKAGE) if n.endswith(".py") or n == "py.typed")
    return [(f"datoteca/{n}", os.path.join(PACKAGE, n)) for n in names]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build(wasm: str, out: str) -> str:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        pyproject = tomllib.load(f)
    project = pyproject["project"]
    ver = version(pyproject)
    with open(wasm, "rb") as f:
        module = f.read()
    if not module.startswith(WASM_MAGIC):
        raise SystemExit(f"wasm/wheel.py: {wasm} is not a WebAssembly module (make wasm builds one)")
    dist_info = f"{project['name']}-{ver}.dist-info"
    entries: List[Tuple[str, bytes]] = []
    for name, path in package_files():
        with open(path, "rb") as f:
            entries.append((name, f.read()))
    entries.append(("datoteca/datoteca.wasm", module))
    with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
        entries.append((f"{dist_info}/licenses/LICENSE", f.read()))
    entries.append((f"{dist_info}/METADATA", metadata(project, ver).encode()))
    entries.append((f"{dist_info}/WHEEL", (f"Wheel-Version: 1.0\nGenerator: datoteca wasm/wheel.py\n"
                                           f"Root-Is-Purelib: true\nTag: {TAG}\n").encode()))
    entries.append((f"{dist_info}/entry_points.txt", entry_points(project).encode()))
    record = "".join(_record_line(n, d) + "\n" for n, d in entries) + f"{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode()))

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))  # 1980-01-01T00:00:00Z
    stamp = time.gmtime(max(epoch, 315532800))[:6]
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{project['name']}-{ver}-{TAG}.whl")
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.create_system = 3  # Unix, so the mode below is read
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data, compresslevel=9)
    os.replace(tmp, path)
    return path


def main(argv: List[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--wasm", default=os.path.join(ROOT, "build-wasm", "datoteca.wasm"))
    p.add_argument("--out", default=os.path.join(ROOT, "build-wasm", "wheel"))
    a = p.parse_args(argv)
    if not os.path.exists(a.wasm):
        print(f"wasm/wheel.py: {a.wasm} does not exist (make wasm builds it)", file=sys.stderr)
        return 1
    path = build(a.wasm, a.out)
    with open(path, "rb") as f:
        data = f.read()
    shown = os.path.relpath(path) if os.path.abspath(path).startswith(os.getcwd() + os.sep) else path
    print(f"{shown}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
