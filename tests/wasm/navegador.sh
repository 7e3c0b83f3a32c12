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
# --dump-dom writes the DOM when Chromium thinks the page is idle, which can come before the module's
# top-level await (the .wasm fetch) settles: a page is read again until it shows its final state, up to
# five times; a page that never gets there fails with its last DOM's state named.
dom() { timeout 120 chromium --headless=new --no-sandbox --disable-gpu --virtual-time-budget=30000 --dump-dom "http://127.0.0.1:$PORT/$1/index.html" 2>/dev/null || true; }
dom_final() { # PAGE PATTERN: the page's DOM once PATTERN appears in it
  local html i
  for i in 1 2 3 4 5; do
    html=$(dom "$1")
    if grep -q "$2" <<<"$html"; then printf '%s' "$html"; return 0; fi
    sleep 1
  done
  printf '%s' "$html"
}
# the verdict on one line: a FAILED one carries its stack over several (it was shown as no verdict at all)
golden=$(dom_final golden 'id="resultado">\(ok\|FAILED\)' | tr '\n' ' ' | sed -n 's|.*<pre id="resultado">\([^<]*\)</pre>.*|\1|p')
echo "[wasm, chromium $(chromium --version 2>/dev/null | awk '{print $2}')] ${golden:-(no verdict on the page)}"
case "$golden" in ok:*) ;; *) echo "FAILED: the golden page in Chromium did not say ok" >&2; exit 1 ;; esac
ejemplo=$(dom_final ejemplo 'id="estado">datoteca wasm:')
filas=$(grep -o '<td>[^<]*</td>' <<<"$ejemplo" | wc -l || true)
estado=$(sed -n 's|.*<p id="estado">\([^<]*\)</p>.*|\1|p' <<<"$ejemplo")
[ "$filas" -eq 30 ] || { echo "FAILED: the sample page rendered $filas cells, expected 30 (10 people x 3); its state line: ${estado:-(none)}" >&2; exit 1; }
echo "ejemplos/wasm-vite: 10 people rendered in Chromium ($estado)"
