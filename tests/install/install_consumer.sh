#!/bin/bash
# Installs the built portkern into a temporary prefix and builds the consumer program in consumer/ outside the
# source tree twice, once with CMake's find_package(portkern) and once with pkg-config, and runs both.
# Usage: install_consumer.sh <portkern build dir> [<C++ compiler>]
set -euo pipefail
build=$1
cxx=${2:-c++}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
test -f "$work/prefix/lib/cmake/portkern/portkernConfig.cmake" || { echo "FAILED: no portkernConfig.cmake installed"; exit 1; }

cp -r "$here/consumer" "$work/src"   # outside the portkern tree
cmake -S "$work/src" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake-build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/cmake-build/consumer"

export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs portkern)
"$cxx" -std=c++20 -O2 "$work/src/consumer.cpp" -o "$work/consumer-pc" $flags
"$work/consumer-pc"
echo "OK: installed into a temporary prefix; the consumer built with find_package and with pkg-config ($flags)"
