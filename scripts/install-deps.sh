#!/usr/bin/env bash
# Installs the Debian packages portkern needs to build, test and compare (only those missing), using sudo
# when not root. Safe to run again: it does nothing when everything is there.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config     # build
  libgtest-dev libbenchmark-dev                     # tests, micro-benchmarks
  libomp-dev                                        # OpenMP (GCC's libgomp comes with g++)
  nlohmann-json3-dev libcli11-dev                   # JSON results, the command line
  libpng-dev libjpeg62-turbo-dev                    # image files for `portkern run --image` (not the library)
  libopenblas-dev libdnnl-dev                       # CPU vendor libraries to compare with
  libblas-test                                      # netlib's BLAS test programs (drop-in BLAS)
  python3 python3-venv                              # the tuning pipeline's virtual environment
  clang-14 libclang-rt-14-dev                       # the fuzz tests (libFuzzer, tests/fuzz)
  g++-aarch64-linux-gnu qemu-user                   # the CPU tests on aarch64 (tests/cross)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
