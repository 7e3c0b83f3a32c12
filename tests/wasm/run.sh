#!/usr/bin/env bash
# make test-wasm: the WebAssembly build (docs/wasm.md) from a clean build to the golden bytes.
#  1. build-wasm/datoteca.wasm with Debian's clang-14/lld-14/wasi-libc (installed when missing), built
#     twice into two directories: the same sha256, and at most 1 MiB gzipped;
#  2. the contract (tests/wasm/contrato.mjs: golden.json byte for byte and the fingerprint) through
#     WASM in Node (the package entry with DATOTECA_BACKEND=wasm, and the ES module given bytes) and Deno
#     (npm's `bun` and `deno` packages, installed into build-wasm/runtimes when missing);
#     then every call's first values against the native addon (tests/wasm/cruce.mjs), and tests/node's argument, error, API, dataset, schema and Arrow tests with DATOTECA_BACKEND=wasm;
#     then Python through wasmtime (tests/wasm/test_python_wasm.py: the contract, the build's choice,
#     the refusals, values against the native library; tests/python's argument and error cases);
#     then the py3-none-any wheel (tests/wasm/wheel.sh: packed twice, the same sha256, judged by
#     check-wheel-contents, twine and wheel; pip prefers the platform wheel here; installed into a fresh
#     venv with no cffi, the golden bytes through it);
#  3. a packed tarball installed into an empty app with no prebuild and no compiler on PATH: the install
#     takes the WASM build instead of compiling, and the contract passes there in Node, Bun and Deno
#     (the package entry in all three, the ES module entry in Node and Deno);
#  4. tests/wasm/navegador.sh: the golden bytes in headless Chromium (Debian's), and the sample Vite page;
#  5. tests/wasm/vitest_navegador.sh: datoteca/vitest under Vitest's browser mode in that Chromium, the
#     same seeds and values as in Node, and a failure's seed and replay command.
# Fails loudly at the first step that fails.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUN_VERSION=1.4.4
DENO_VERSION=2.9.6
WASMTIME_VERSION=50.0.1

echo "== build (twice, compared)"
WASM_INSTALL=1 wasm/build.sh
WASM_INSTALL=1 WASM_OUT="$ROOT/build-wasm/otra" wasm/build.sh >/dev/null
a=$(sha256sum < build-wasm/datoteca.wasm); b=$(sha256sum < build-wasm/otra/datoteca.wasm)
[ "$a" = "$b" ] || { echo "FAILED: two builds differ: ${a%% *} and ${b%% *}" >&2; exit 1; }
gz=$(gzip -9n < build-wasm/datoteca.wasm | wc -c)
[ "$gz" -le 1048576 ] || { echo "FAILED: datoteca.wasm is $gz bytes gzipped, over 1 MiB" >&2; exit 1; }
echo "reproducible: both builds sha256 ${a%% *}"

RT="$ROOT/build-wasm/runtimes"
if [ "$("$RT/node_modules/.bin/bun" --version 2>/dev/null)" != "$BUN_VERSION" ] \
   || ! "$RT/node_modules/.bin/deno" --version 2>/dev/null | grep -q "^deno $DENO_VERSION "; then
    echo "== installing bun@$BUN_VERSION and deno@$DENO_VERSION from npm into build-wasm/runtimes"
    mkdir -p "$RT"
    echo '{"name":"datoteca-wasm-runtimes","private":true}' > "$RT/package.json"
    (cd "$RT" && npm install --no-audit --no-fund --silent "bun@$BUN_VERSION" "deno@$DENO_VERSION")
fi
BUN="$RT/node_modules/.bin/bun"
DENO="$RT/node_modules/.bin/deno"
export DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1

echo "== the contract through WASM, from this checkout"
DATOTECA_BACKEND=wasm node tests/wasm/contrato.mjs | tail -n 20
node tests/wasm/contrato.mjs --esm | tail -n 20
# a checkout is not an npm package to Deno: it reads the CommonJS files wasm.mjs imports when told to
"$DENO" run -A --unstable-detect-cjs tests/wasm/contrato.mjs --esm | tail -n 20
# the cases every runtime runs (tests/casos_argumentos.json, tests/casos_errores.json) and the API,
# dataset, schema and Arrow tests of tests/node, on the WASM build (masking is not in it yet)
DATOTECA_BACKEND=wasm npx vitest run --root tests/node argumentos errores api tabla esquema arrow
# value by value against the native addon (make node built it), each build in its own process
node tests/wasm/cruce.mjs | tail -20
# the build is forced, not guessed: an unknown name is refused
if DATOTECA_BACKEND=otro node -e "require('./bindings/node')" 2>/dev/null; then
    echo "FAILED: DATOTECA_BACKEND=otro was accepted" >&2; exit 1
fi

echo "== Python through wasmtime (PyPI wasmtime $WASMTIME_VERSION, installed into the venv when missing)"
PY=${VPY:-$ROOT/.venv/bin/python}
[ -x "$PY" ] || { echo "FAILED: no Python venv at $PY (make venv)" >&2; exit 1; }
if [ "$("$PY" -c 'import importlib.metadata as m; print(m.version("wasmtime"))' 2>/dev/null)" != "$WASMTIME_VERSION" ]; then
    "$PY" -m pip install --quiet "wasmtime==$WASMTIME_VERSION"
fi
# the checkout's package (PYTHONPATH wins over the venv's install) on this build's datoteca.wasm; the
# native library beside the CLI is the other side of the value-by-value comparison
CLI_DIR=$(dirname "${DATOTECA_CLI:-$ROOT/build-c/datoteca}")
DATOTECA_BACKEND=wasm DATOTECA_WASM="$ROOT/build-wasm/datoteca.wasm" DATOTECA_NATIVE_LIBRARY="$CLI_DIR/libdatoteca.so" \
    PYTHONPATH="$ROOT/bindings/python" "$PY" -m pytest -q -p no:cacheprovider \
    tests/wasm/test_python_wasm.py tests/python/test_argumentos.py tests/python/test_errores.py

echo "== the py3-none-any wheel (wasm/wheel.py) installed where there is no cffi"
VPY="$PY" WASMTIME_VERSION="$WASMTIME_VERSION" tests/wasm/wheel.sh

echo "== a packed tarball, no prebuild, no compiler"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# npm pack as a user runs it, scripts and all, from a checkout without the .wasm: prepack must build it
# (or stop saying how), never pack without it; the build is the reproducible one of step 1.
mv build-wasm/datoteca.wasm "$TMP/antes.wasm"
# prepack's prebuildify moves the addon out of build/Release; the later steps (Vitest's browser mode
# compares against it) need it back where make node put it
cp build/Release/datoteca.node "$TMP/addon.node"
npm pack --silent --pack-destination "$TMP" >"$TMP/pack.log" 2>&1 \
    || { cat "$TMP/pack.log"; cp "$TMP/antes.wasm" build-wasm/datoteca.wasm; cp "$TMP/addon.node" build/Release/datoteca.node; echo "FAILED: npm pack" >&2; exit 1; }
[ -f build/Release/datoteca.node ] || cp "$TMP/addon.node" build/Release/datoteca.node
cmp -s "$TMP/antes.wasm" build-wasm/datoteca.wasm || { echo "FAILED: npm pack's datoteca.wasm differs from make wasm's" >&2; exit 1; }
tgz=$(ls "$TMP"/*.tgz)
tar xzf "$tgz" -C "$TMP"
tar tzf "$tgz" | grep -qx 'package/build-wasm/datoteca.wasm' || { echo "FAILED: the tarball has no build-wasm/datoteca.wasm" >&2; exit 1; }
echo "npm pack built build-wasm/datoteca.wasm (the bytes of make wasm) and packed it"
rm -rf "$TMP/package/prebuilds" "$TMP/package/build"  # no prebuild matches this platform
(cd "$TMP" && tar czf sin-prebuild.tgz package && rm -rf package)
mkdir "$TMP/bin" "$TMP/app"
# npm runs scripts through sh; there is no cc, c++, make or python here
for tool in node npm sh; do ln -s "$(command -v $tool)" "$TMP/bin/$tool"; done
echo '{"name":"app","private":true}' > "$TMP/app/package.json"
log=$(cd "$TMP/app" && PATH="$TMP/bin" CC=false CXX=false npm install --no-audit --no-fund --foreground-scripts "$TMP/sin-prebuild.tgz" 2>&1) \
    || { echo "$log"; echo "FAILED: npm install of the tarball" >&2; exit 1; }
echo "$log" | grep -q 'using the WebAssembly build' || { echo "$log"; echo "FAILED: the install did not choose the WebAssembly build" >&2; exit 1; }
[ ! -e "$TMP/app/node_modules/datoteca/build" ] || { echo "FAILED: the install compiled the addon" >&2; exit 1; }
got=$(cd "$TMP/app" && PATH="$TMP/bin" node -e "console.log(require('datoteca').backend())")
[ "$got" = wasm ] || { echo "FAILED: the installed package loads '$got', not wasm" >&2; exit 1; }
# the runner, pointed at the installed package; the fixtures and schemas are this checkout's
mkdir -p "$TMP/app/t/wasm" "$TMP/app/t/node"
ln -s "$ROOT/fixtures" "$TMP/app/fixtures"
ln -s "$ROOT/esquemas" "$TMP/app/esquemas"
sed "s|'../../bindings/node/index.mjs'|'datoteca'|" tests/node/golden_runner.mjs > "$TMP/app/t/node/golden_runner.mjs"
sed "s|'../../bindings/node/index.mjs'|'datoteca'|; s|'../../bindings/node/wasm.mjs'|'datoteca/wasm'|" tests/wasm/contrato.mjs > "$TMP/app/t/wasm/contrato.mjs"
cd "$TMP/app"
node t/wasm/contrato.mjs | tail -n 20
"$BUN" t/wasm/contrato.mjs | tail -n 20
"$DENO" run -A t/wasm/contrato.mjs | tail -n 20
# docs/wasm.md's cargar() block, taken from the page, run in the app as a user's module
python3 - "$ROOT/docs/wasm.md" > t/cargar.mjs <<'PY'
import re, sys
blocks = re.findall(r"^```js\n(.*?)^```$", open(sys.argv[1], encoding="utf-8").read(), re.M | re.S)
sys.stdout.write(next(b for b in blocks if "cargar(" in b))
PY
got=$(node t/cargar.mjs)
[ "$got" = "wasm $(cd "$ROOT" && "${DATOTECA_CLI:-$ROOT/build-c/datoteca}" rut --seed 42 -n 1)" ] || { echo "FAILED: docs/wasm.md's cargar() block printed '$got'" >&2; exit 1; }
echo "docs/wasm.md's cargar() block in the installed app: $got"
# a package without its .wasm says so, and does not send a user to a C compiler
mv node_modules/datoteca/build-wasm/datoteca.wasm "$TMP/aparte.wasm"
msg=$(DATOTECA_BACKEND=wasm node -e "require('datoteca')" 2>&1) && { echo "FAILED: loaded without its .wasm" >&2; exit 1; }
echo "$msg" | grep -q 'packed without it' && ! echo "$msg" | grep -q 'C compiler' \
    || { echo "$msg"; echo "FAILED: the missing .wasm was not named as such" >&2; exit 1; }
mv "$TMP/aparte.wasm" node_modules/datoteca/build-wasm/datoteca.wasm
export DATOTECA_WASM="$TMP/app/node_modules/datoteca/build-wasm/datoteca.wasm"
node t/wasm/contrato.mjs --esm | tail -n 20
"$DENO" run -A t/wasm/contrato.mjs --esm | tail -n 20  # an npm package: Deno reads its CommonJS unasked
cd "$ROOT"
echo "== a browser: the golden page and the sample page in headless Chromium"
tests/wasm/navegador.sh
echo "== Vitest's browser mode: datoteca/vitest in headless Chromium"
tests/wasm/vitest_navegador.sh
echo "test-wasm: ok"
