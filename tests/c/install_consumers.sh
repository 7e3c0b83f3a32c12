#!/bin/sh
# cmake --install into a prefix, then three separate consumers must build and run:
# pkg-config, find_package(datoteca), and a C++ file that includes the header; then the same with
# --prefix /usr (Debian's multiarch libdir) staged through DESTDIR.
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

# A system prefix: configured for /usr (libdir lib/<multiarch> on Debian), staged with DESTDIR; the
# .pc file, read where it lies, must point into the staged tree, and the program must build and run.
src=$(cd "$(dirname "$0")/../.." && pwd)
cmake -S "$src" -B "$work/usr-build" -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_BUILD_TYPE=Release \
  -DDATOTECA_BUILD_TESTS=OFF -DDATOTECA_BUILD_CLI=OFF >/dev/null
cmake --build "$work/usr-build" -j2 >/dev/null
DESTDIR="$work/stage" cmake --install "$work/usr-build" >/dev/null
pc=$(find "$work/stage" -name datoteca.pc | head -n1)
pcdir=$(dirname "$pc")
inc=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=includedir datoteca)
lib=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir datoteca)
[ -f "$inc/datoteca.h" ] || { echo "install_consumers: includedir $inc has no datoteca.h ($pc)"; exit 1; }
ls "$lib"/libdatoteca.so* >/dev/null 2>&1 || { echo "install_consumers: libdir $lib has no libdatoteca ($pc)"; exit 1; }
cc -std=c11 -Wall -Werror "$work/main.c" $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs datoteca) \
  -Wl,-rpath,"$lib" -o "$work/via_usr"
"$work/via_usr" > "$work/out4"
cmp "$work/out1" "$work/out4"
echo "install_consumers: pkg-config (custom prefix and /usr with $(basename "$(dirname "$pcdir")") libdir), find_package, C++: ok"
