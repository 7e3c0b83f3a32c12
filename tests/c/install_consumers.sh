#!/bin/sh
# cmake --install into a prefix, then three separate consumers must build and run:
# pkg-config, find_package(datoteca), and a C++ file that includes the header.
set -eu
build="$1"; work="$2"
rm -rf "$work"; mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
cat > "$work/main.c" <<'C'
#include <stdio.h>
#include <datoteca.h>
int main(void) {
    dt_gen *g; char buf[32]; size_t n;
    if (dt_new(42, &g) != DT_OK) return 1;
    if (dt_rut(g, DT_RUT_PERSONA, DT_RUT_PUNTOS, buf, sizeof buf, &n) != DT_OK) return 1;
    printf("%s\n", buf);
    dt_free(g);
    return dt_rut_validar(buf, n) == DT_OK ? 0 : 1;
}
C
libdir=$(ls -d "$prefix"/lib*/pkgconfig | head -n1)
export PKG_CONFIG_PATH="$libdir"
cc -std=c11 -Wall -Werror "$work/main.c" $(pkg-config --cflags --libs datoteca) -o "$work/via_pkgconfig"
LD_LIBRARY_PATH=$(dirname "$libdir") "$work/via_pkgconfig" > "$work/out1"

mkdir -p "$work/consumer"
cp "$work/main.c" "$work/consumer/main.c"
major=$(sed -n 's/^#define DT_VERSION_MAJOR \([0-9]*\)$/\1/p' "$prefix/include/datoteca.h")
cat > "$work/consumer/CMakeLists.txt" <<C
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(datoteca $major REQUIRED)
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE datoteca::datoteca)
C
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/consumer/build" >/dev/null
"$work/consumer/build/consumer" > "$work/out2"
cmp "$work/out1" "$work/out2"

if command -v c++ >/dev/null 2>&1; then
  printf '#include <datoteca.h>\nint main() { dt_gen *g = nullptr; dt_free(g); return 0; }\n' > "$work/cpp.cpp"
  c++ -std=c++11 -Wall -Werror -I"$prefix/include" "$work/cpp.cpp" -L"$(dirname "$libdir")" -ldatoteca -o "$work/cpp"
fi
echo "install_consumers: ok ($(cat "$work/out1") via pkg-config and find_package)"
