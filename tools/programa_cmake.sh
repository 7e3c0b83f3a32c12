#!/bin/sh
# npm's prepack, before tools/programa_npm.mjs: builds the `datoteca` program (CMake's datoteca_cli
# target, with its database connectors) into build-c/, as `make build` does, so that `npm pack` in a
# fresh clone packs a program instead of stopping at "build-c/datoteca is missing". Offline: cmake and a
# compiler from the machine (tools/deps.sh installs Debian's when missing). An existing build-c/ is
# brought up to date, never packed stale. DATOTECA_CLI names a program already built (the tests' way):
# then nothing is built. Linux only, as tools/programa_npm.mjs.
set -eu
cd "$(dirname "$0")/.."
if [ -n "${DATOTECA_CLI:-}" ]; then
  echo "datoteca: prepack: packing DATOTECA_CLI=$DATOTECA_CLI, not building build-c/datoteca"
  exit 0
fi
[ "$(uname -s)" = Linux ] || exit 0
tools/deps.sh
cmake -S . -B build-c -DCMAKE_BUILD_TYPE=Release
cmake --build build-c --target datoteca_cli -j2
