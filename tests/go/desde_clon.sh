#!/usr/bin/env bash
# docs/go.md, "From a clone", as a user runs it: the page's shell block and Go program, taken from the
# page itself, in a scratch module outside the repository; the program's output must equal the CLI's.
# Usage: tests/go/desde_clon.sh GO CLI   (make test-go passes both)
set -euo pipefail
go_bin="$1"; cli="$2"
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/datoteca-go-clon.XXXXXX)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "go (from a clone): $*" >&2; exit 1; }

# The first ```sh and ```go blocks after the heading "## From a clone".
python3 - "$root/docs/go.md" "$work" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
part = text.split("\n## From a clone\n", 1)
if len(part) != 2:
    sys.exit("docs/go.md has no section '## From a clone'")
blocks = re.findall(r"^```(sh|go)\n(.*?)^```$", part[1], re.M | re.S)
sh = next((b for k, b in blocks if k == "sh"), None)
go = next((b for k, b in blocks if k == "go"), None)
if sh is None or go is None:
    sys.exit("docs/go.md, 'From a clone': a ```sh and a ```go block are needed")
open(f"{sys.argv[2]}/pasos.sh", "w").write(sh)
open(f"{sys.argv[2]}/main.go.txt", "w").write(go)
PY
mkdir "$work/miapp"
cp "$work/main.go.txt" "$work/miapp/main.go"
grep -q '/ruta/a/datoteca' "$work/pasos.sh" || fail "the shell block no longer names /ruta/a/datoteca"
sed "s#/ruta/a/datoteca#$root#g" "$work/pasos.sh" > "$work/pasos_aqui.sh"
gobin_dir=$(dirname "$go_bin")
got=$(cd "$work/miapp" && PATH="$gobin_dir:$PATH" bash -e "$work/pasos_aqui.sh" 2>"$work/err") \
  || fail "the page's commands failed: $(tail -5 "$work/err")"
want=$("$cli" rut --seed 42 -n 1)
[ "$got" = "$want" ] || fail "the page's program printed '$got', the CLI '$want'"
echo "go (from a clone): the docs' module outside the repository prints $got, as the CLI"
