#!/bin/bash
# The CPU back end on another architecture: cross-compiles the library and its CPU tests for aarch64 with
# Debian's g++-aarch64-linux-gnu (cmake/toolchains/aarch64-linux-gnu.cmake) and runs them under qemu-user.
# There the device class is chosen from the CPU's features (cpu-generic: the plain C++ micro-kernels).
# Usage: aarch64.sh <source dir> <build dir> [<compiler launcher>]; SKIPPED without the cross tools.
set -euo pipefail
source_dir=$1
build_dir=$2
launcher=${3:-}
for tool in aarch64-linux-gnu-g++ qemu-aarch64; do
  command -v "$tool" >/dev/null || { echo "SKIPPED: no $tool (Debian: g++-aarch64-linux-gnu, qemu-user)"; exit 0; }
done

configure=(-S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
           -DCMAKE_TOOLCHAIN_FILE="$source_dir/cmake/toolchains/aarch64-linux-gnu.cmake")
[ -n "$launcher" ] && configure+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
cmake "${configure[@]}" >"$build_dir.configure.log" 2>&1 || { tail -30 "$build_dir.configure.log"; exit 1; }
cmake --build "$build_dir" --target portkern_tests portkern_concurrency_tests >"$build_dir.build.log" 2>&1 ||
  { grep -E "error|FAILED" -A5 "$build_dir.build.log" | head -60; exit 1; }

run() { OMP_NUM_THREADS=2 qemu-aarch64 -L /usr/aarch64-linux-gnu "$@" --gtest_brief=1; }
run "$build_dir/tests/portkern_tests"
run "$build_dir/tests/portkern_concurrency_tests"
echo "OK: the CPU tests pass on aarch64 (cross-compiled, under qemu-user)"
