#!/usr/bin/env bash
# Java for the Spark tests (tests/python/test_spark.py): Debian's OpenJDK 17 when `java` is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/need.sh
need java openjdk-17-jre-headless
