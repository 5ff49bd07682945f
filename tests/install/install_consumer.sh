#!/bin/bash
# Installs the built portkern into a temporary prefix and builds the consumer program in consumer/ outside the
# source tree twice, once with CMake's find_package(portkern) and once with pkg-config, and runs both.
# Usage: install_consumer.sh <portkern build dir> [<C++ compiler> [<the library's compile flags>]]
# The library's flags reach the consumer's builds: a library built with sanitizers (make sanitize) needs their
# run-time libraries in every program it is linked into.
set -euo pipefail
build=$1
cxx=${2:-c++}
library_flags=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
config=$(find "$work/prefix" -name portkernConfig.cmake)
pc=$(find "$work/prefix" -name portkern.pc)
test -n "$config" || { echo "FAILED: no portkernConfig.cmake installed"; exit 1; }
test -n "$pc" || { echo "FAILED: no portkern.pc installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")

# Every installed public header compiles on its own (it includes what it uses, and nothing from src/).
# kernel/cuda.cuh is the CUDA lowering, for nvcc only.
headers=0
while IFS= read -r header; do
  echo "#include <$header>" | "$cxx" -std=c++20 -fsyntax-only -fopenmp -x c++ -I"$work/prefix/include" \
    $(pkg-config --cflags portkern) - 2>"$work/header.log" ||
    { echo "FAILED: the installed header $header does not compile alone:"; head -20 "$work/header.log"; exit 1; }
  headers=$((headers + 1))
done < <(cd "$work/prefix/include" && find portkern -name '*.hpp' | sort)
test "$headers" -gt 0 || { echo "FAILED: no public headers installed"; exit 1; }

cp -r "$here/consumer" "$work/src"   # outside the portkern tree
cmake -S "$work/src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$library_flags" -DCMAKE_EXE_LINKER_FLAGS="$library_flags" \
      >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake-build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/cmake-build/consumer"

flags=$(pkg-config --cflags --libs portkern)
"$cxx" -std=c++20 -O2 $library_flags "$work/src/consumer.cpp" -o "$work/consumer-pc" $flags
"$work/consumer-pc"
echo "OK: installed into a temporary prefix; $headers public headers compile alone; the consumer built with find_package and with pkg-config ($flags)"
