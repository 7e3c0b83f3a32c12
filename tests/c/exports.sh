#!/bin/sh
# Fails if the shared library exports any symbol not starting with dt_.
set -eu
lib="$1"
bad=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^dt_' || true)
if [ -n "$bad" ]; then
  echo "exported symbols without the dt_ prefix:"; echo "$bad"; exit 1
fi
echo "exports_only_dt: ok ($(nm -D --defined-only "$lib" | grep -c ' dt_') dt_ symbols)"
