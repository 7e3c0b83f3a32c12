#!/usr/bin/env bash
# make test-java: the whole Java suite once per loader and JDK, each pass naming the loader it must run
# (-Ddatoteca.esperado: CargadorTest fails on a silent fallback) and cmp-ing its golden output:
#   the default JDK (17 here): JNA;
#   every other JDK 21 or later under /usr/lib/jvm: 21 with JNA; 22+ with FFM, then again forced to JNA
#   (-Ddatoteca.ffi=jna), so both loaders give fixtures/golden.json's bytes on the same JDK.
# usage: bindings/java/test_jdks.sh BUILD_DIR CLI
set -euo pipefail
build=$(realpath "$1")
cli=$(realpath "$2")
cd "$(dirname "$0")/../.."

major() { sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null; }

pasada() { # JAVA_HOME expected-loader [forced datoteca.ffi]
  local home=$1 esperado=$2 ffi=${3:-} out
  out="$build/golden-java-$(major "$home")-$esperado.json"
  echo "== bindings/java on $home (Java $(major "$home")): loader $esperado${ffi:+, forced by -Ddatoteca.ffi=$ffi}"
  local opts=${MAVEN_OPTS:-}
  # Maven's own guava warns about sun.misc.Unsafe on 24+ (Maven's JVM, not the tests')
  [ "$(major "$home")" -ge 24 ] && opts="$opts --sun-misc-unsafe-memory-access=allow"
  MAVEN_OPTS=$opts JAVA_HOME=$home mvn -B -q -f bindings/java/pom.xml test -Ddatoteca.native.dir="$build" -Ddatoteca.cli="$cli" \
    -Ddatoteca.golden.out="$out" -Ddatoteca.esperado="$esperado" ${ffi:+-Ddatoteca.ffi=$ffi}
  cmp "$out" fixtures/golden.json
  echo "golden (java $(major "$home"), $esperado): identical to fixtures/golden.json ($(wc -c < fixtures/golden.json) bytes)"
}

loader_for() { if [ "$1" -ge 22 ]; then echo ffm; else echo jna; fi; }

default=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
pasada "$default" "$(loader_for "$(major "$default")")"
seen=" $(readlink -f "$default") "
for j in /usr/lib/jvm/*/; do
  j=${j%/}
  r=$(readlink -f "$j")
  [ -x "$r/bin/java" ] || continue
  case "$seen" in *" $r "*) continue ;; esac
  seen="$seen$r "
  m=$(major "$r")
  [ -n "$m" ] && [ "$m" -ge 21 ] || continue
  pasada "$r" "$(loader_for "$m")"
  if [ "$m" -ge 22 ]; then
    pasada "$r" jna jna
  fi
done
