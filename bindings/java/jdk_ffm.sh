#!/usr/bin/env bash
# The JAVA_HOME of the newest JDK 22 or later under /usr/lib/jvm (the FFM API is final from 22), else
# the default JDK's: make bench-java builds and runs on it.
set -euo pipefail
best="" bestm=0
for j in /usr/lib/jvm/*/; do
  r=$(readlink -f "${j%/}")
  [ -x "$r/bin/java" ] || continue
  m=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$r/release" 2>/dev/null)
  [ -n "$m" ] && [ "$m" -ge 22 ] && [ "$m" -gt "$bestm" ] && { best=$r; bestm=$m; }
done
if [ -z "$best" ]; then
  best=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
fi
echo "$best"
