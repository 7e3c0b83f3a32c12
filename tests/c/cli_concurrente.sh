#!/bin/sh
# Two copies of tests/c/cli.sh at once with the same program: each must pass, so neither may write a
# scratch file the other reads (they used to share /tmp/dt_cli_*, and ctest `cli` failed while another
# ctest ran). Usage: cli_concurrente.sh <datoteca program>
set -u
cli="$1"
here=$(dirname "$0")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
sh "$here/cli.sh" "$cli" > "$TMP/a" 2>&1 & a=$!
sh "$here/cli.sh" "$cli" > "$TMP/b" 2>&1 & b=$!
ra=0; wait "$a" || ra=$?
rb=0; wait "$b" || rb=$?
[ "$ra" -eq 0 ] || echo "cli_concurrente: the first copy of cli.sh failed (exit $ra): $(tail -n 5 "$TMP/a")"
[ "$rb" -eq 0 ] || echo "cli_concurrente: the second copy of cli.sh failed (exit $rb): $(tail -n 5 "$TMP/b")"
[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] || exit 1
echo "cli_concurrente: ok (two copies of cli.sh at once both passed)"
