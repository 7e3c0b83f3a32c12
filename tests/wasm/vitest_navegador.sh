#!/usr/bin/env bash
# datoteca/vitest under Vitest's browser mode (docs/wasm.md#vitest-browser-mode), in Debian's headless
# Chromium driven by Debian's chromedriver (both installed with apt-get when missing; WebdriverIO is
# given their paths, so nothing is downloaded). The package is packed and unpacked into
# build-wasm/vitest-navegador/node_modules/datoteca, as an install gives it (its build-wasm/datoteca.wasm
# must be this checkout's), beside a copy of tests/wasm/vitest-navegador; vitest and
# @vitest/browser-webdriverio come from the checkout's node_modules (package.json's devDependencies).
#  1. helpers.test.mjs in Chromium (the "browser" condition: the WASM build) and in Node (the native
#     addon, copied in): every `VALOR` line (seeds and values) the same in both; the golden sequence and
#     Arrow text columns pass in both; the page fetched the .wasm this checkout built;
#  2. falla.test.mjs in Chromium, with DATOTECA_SEED=7: it must fail, print the seed and a replay
#     command, and that command, run through bash from /, must fail again with the same value.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
for pkg in chromium:chromium chromedriver:chromium-driver; do
    command -v "${pkg%%:*}" >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${pkg#*:}" >/dev/null
done
[ -x node_modules/.bin/vitest ] && [ -d node_modules/@vitest/browser-webdriverio ] \
    || { echo "FAILED: no vitest or @vitest/browser-webdriverio in node_modules (npm install)" >&2; exit 1; }
[ -f build/Release/datoteca.node ] || { echo "FAILED: no native addon at build/Release/datoteca.node (make node)" >&2; exit 1; }
APP="$ROOT/build-wasm/vitest-navegador"
rm -rf "$APP"
mkdir -p "$APP/node_modules/.bin"
TMPV=$(mktemp -d)
trap 'rm -rf "$TMPV"' EXIT
npm pack --ignore-scripts --silent --pack-destination "$TMPV" >/dev/null
tar xzf "$TMPV"/*.tgz -C "$TMPV"
mv "$TMPV/package" "$APP/node_modules/datoteca"
cmp -s "$APP/node_modules/datoteca/build-wasm/datoteca.wasm" build-wasm/datoteca.wasm \
    || { echo "FAILED: the packed datoteca.wasm is not build-wasm/datoteca.wasm" >&2; exit 1; }
mkdir -p "$APP/node_modules/datoteca/build/Release"
cp build/Release/datoteca.node "$APP/node_modules/datoteca/build/Release/"
ln -s "$ROOT/node_modules/.bin/vitest" "$APP/node_modules/.bin/vitest"
cp tests/wasm/vitest-navegador/*.mjs tests/wasm/vitest-navegador/package.json "$APP/"
cd "$APP"
export CI=true NO_COLOR=1 FORCE_COLOR=0
unset DATOTECA_SEED DATOTECA_BACKEND
plain() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }

# Chromium headless can start slowly or lose its session on a loaded machine: a run that ends without
# Vitest's summary line is tried again, up to three times; a test that fails is not retried.
vitest_run() { # LOG ARGS...: the run's exit status; its output in LOG
  local log=$1 i st; shift
  for i in 1 2 3; do
    st=0
    timeout 180 node_modules/.bin/vitest run "$@" >"$log" 2>&1 || st=$?
    if plain "$log" | grep -q '^ *Tests  '; then return "$st"; fi
    echo "(vitest run $* ended without a summary, status $st; try $i of 3)" >&2
    plain "$log" | tail -n 5 >&2
  done
  return "$st"
}

t0=$(date +%s)
st=0; vitest_run "$TMPV/nav.log" helpers || st=$?
[ "$st" -eq 0 ] || { plain "$TMPV/nav.log"; echo "FAILED: helpers.test.mjs in Chromium (status $st)" >&2; exit 1; }
st=0; vitest_run "$TMPV/node.log" --config vitest.node.config.mjs helpers || st=$?
[ "$st" -eq 0 ] || { plain "$TMPV/node.log"; echo "FAILED: helpers.test.mjs in Node (status $st)" >&2; exit 1; }
plain "$TMPV/nav.log" | grep -q 'BACKEND navegador=wasm' || { plain "$TMPV/nav.log"; echo "FAILED: Chromium did not run the WASM build" >&2; exit 1; }
plain "$TMPV/node.log" | grep -q 'BACKEND node=native' || { plain "$TMPV/node.log"; echo "FAILED: Node did not run the native addon" >&2; exit 1; }
plain "$TMPV/nav.log" | grep -o 'VALOR .*' > "$TMPV/nav.valores"
plain "$TMPV/node.log" | grep -o 'VALOR .*' > "$TMPV/node.valores"
[ "$(wc -l < "$TMPV/nav.valores")" -eq 7 ] || { plain "$TMPV/nav.log"; echo "FAILED: Chromium printed $(wc -l < "$TMPV/nav.valores") VALOR lines, expected 7" >&2; exit 1; }
diff "$TMPV/node.valores" "$TMPV/nav.valores" >&2 || { echo "FAILED: seeds or values differ between Node (<) and Chromium (>)" >&2; exit 1; }
esperado=$(sha256sum < "$ROOT/build-wasm/datoteca.wasm")
cargado=$(plain "$TMPV/nav.log" | sed -n 's/.*WASM \([0-9a-f]\{64\}\) .*/\1/p')
[ "$cargado" = "${esperado%% *}" ] || { echo "FAILED: Chromium loaded a .wasm with sha256 '${cargado:-none}', build-wasm/datoteca.wasm is ${esperado%% *}" >&2; exit 1; }
ntests=$(plain "$TMPV/nav.log" | sed -n 's/^ *Tests  *\([0-9]*\) passed.*/\1/p')
echo "[vitest browser mode, chromium $(chromium --version 2>/dev/null | awk '{print $2}')] helpers.test.mjs: $ntests tests passed; $(wc -l < "$TMPV/nav.valores") seeds and values the same as in Node (native); the .wasm loaded is build-wasm/datoteca.wasm (${cargado:0:16})"

st=0; DATOTECA_SEED=7 vitest_run "$TMPV/falla.log" falla || st=$?
salida=$(plain "$TMPV/falla.log")
[ "$st" -ne 0 ] || { echo "$salida"; echo "FAILED: falla.test.mjs passed in Chromium" >&2; exit 1; }
grep -q "datoteca seed: '7:falla.test.mjs:falla a propósito'" <<<"$salida" \
    || { echo "$salida"; echo "FAILED: the failure in Chromium does not print the seed '7:falla.test.mjs:falla a propósito'" >&2; exit 1; }
replay=$(sed -n 's/^replay with: \(cd .*\)$/\1/p' <<<"$salida" | head -n 1)
[ "$replay" = "cd '$APP' && DATOTECA_SEED=7 npx vitest run 'falla.test.mjs' -t '^falla a propósito\$'" ] \
    || { echo "$salida"; echo "FAILED: the replay command in Chromium's failure is '${replay:-none}'" >&2; exit 1; }
antes=$(grep -o 'VALOR falla=.*' <<<"$salida" | head -n 1)
# the printed command, from another directory, with no DATOTECA_SEED in the environment
st=0; (cd / && bash -c "$replay") >"$TMPV/replay.log" 2>&1 || st=$?
otra=$(plain "$TMPV/replay.log")
[ "$st" -ne 0 ] || { echo "$otra"; echo "FAILED: the replay passed" >&2; exit 1; }
despues=$(grep -o 'VALOR falla=.*' <<<"$otra" | head -n 1)
[ -n "$antes" ] && [ "$antes" = "$despues" ] || { echo "$otra"; echo "FAILED: the replay gave '${despues:-nothing}', the failing run '${antes:-nothing}'" >&2; exit 1; }
grep -q "chrome" <<<"$otra" || { echo "$otra"; echo "FAILED: the replay did not run in Chromium" >&2; exit 1; }
echo "falla.test.mjs: failed in Chromium with its seed and replay command; the replay, run from /, failed again with the same value ($antes); $(( $(date +%s) - t0 )) s"
