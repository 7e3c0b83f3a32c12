#!/usr/bin/env bash
# The golden dataset in a real headless Chromium (Debian's chromium, installed when missing): Vite builds
# tests/wasm/navegador (the WASM build fetched by URL, the fixtures bundled), a local HTTP server serves
# it, and Chromium's DOM must say "ok". Then the sample page ejemplos/wasm-vite must render people.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
command -v chromium >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null
OUT=build-wasm/navegador
rm -rf "$OUT"
node_modules/.bin/vite build --base ./ --logLevel error --outDir "$ROOT/$OUT/golden" --emptyOutDir tests/wasm/navegador
node_modules/.bin/vite build --base ./ --logLevel error --outDir "$ROOT/$OUT/ejemplo" --emptyOutDir ejemplos/wasm-vite
PORT=${WASM_PORT:-18765}
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$OUT" >/dev/null 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null' EXIT
sleep 1
dom() { timeout 120 chromium --headless=new --no-sandbox --disable-gpu --virtual-time-budget=30000 --dump-dom "http://127.0.0.1:$PORT/$1/index.html" 2>/dev/null; }
golden=$(dom golden | sed -n 's|.*<pre id="resultado">\([^<]*\)</pre>.*|\1|p')
echo "[wasm, chromium $(chromium --version 2>/dev/null | awk '{print $2}')] $golden"
case "$golden" in ok:*) ;; *) echo "FAILED: the golden page in Chromium did not say ok" >&2; exit 1 ;; esac
filas=$(dom ejemplo | grep -o '<td>[^<]*</td>' | wc -l)
[ "$filas" -eq 30 ] || { echo "FAILED: the sample page rendered $filas cells, expected 30 (10 people x 3)" >&2; exit 1; }
echo "ejemplos/wasm-vite: 10 people rendered in Chromium"
