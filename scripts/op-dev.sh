#!/usr/bin/env bash
# Fast edit-compile-test loop for one DNN operator, without rebuilding the library: compiles
# src/ops/<op>/* (the .cu files with nvcc when it is there), links them with a prebuilt libportkern.a and
# runs tests/ops/test_<op>.cpp on the CPU; compiles tools/bench/ops/<op>.cpp to check it.
#   scripts/op-dev.sh <op> [gtest filter]
# LIB: the libportkern.a to link (default build/libportkern.a; it must not contain <op> already).
set -euo pipefail
cd "$(dirname "$0")/.."
op=$1
filter=${2:-*}
lib=${LIB:-build/libportkern.a}
out=${OP_DEV_DIR:-/tmp/op-dev}/$op
mkdir -p "$out"
flags=(-std=c++20 -O2 -g -march=native -fopenmp -Wall -Wextra -Iinclude -Isrc -Itests -Itests/ops -I.)
objects=()
cuda_libs=()
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  flags+=(-DPORTKERN_HAVE_CUDA=1 -I/usr/local/cuda/include)
  for cu in src/ops/"$op"/*.cu; do
    [ -e "$cu" ] || continue
    o=$out/$(basename "$cu").o
    "$nvcc" -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr -Xcompiler=-Wall -DPORTKERN_HAVE_CUDA=1 \
      -Iinclude -Isrc -I. -c "$cu" -o "$o"
    objects+=("$o")
  done
  cuda_libs=(-L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,/usr/local/cuda/lib64)
fi
for cpp in src/ops/"$op"/*.cpp; do
  [ -e "$cpp" ] || continue
  o=$out/$(basename "$cpp").o
  g++ "${flags[@]}" -c "$cpp" -o "$o"
  objects+=("$o")
done
g++ "${flags[@]}" -Itools -c tools/bench/ops/"$op".cpp -o "$out/bench.o"
g++ "${flags[@]}" tests/ops/test_"$op".cpp "${objects[@]}" "$lib" -lgtest -lgtest_main "${cuda_libs[@]}" -lpthread \
  -o "$out/test"
"$out/test" --gtest_filter="$filter"
