#!/usr/bin/env bash
# Maven and a JDK (17 or later) for bindings/java: Debian's maven package (which brings its JDK) when
# either is missing. Fails loudly when they cannot be installed; never skips.
set -euo pipefail
if command -v mvn >/dev/null 2>&1 && command -v javac >/dev/null 2>&1; then
  exit 0
fi
echo "bindings/java: installing Debian's maven and openjdk-17-jdk-headless"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq maven openjdk-17-jdk-headless >/dev/null
command -v mvn >/dev/null && command -v javac >/dev/null || { echo "bindings/java: mvn or javac still missing" >&2; exit 1; }
