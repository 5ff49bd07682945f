#!/usr/bin/env bash
# Runs netlib's level-3 BLAS test programs (Debian's libblas-test) with libportkern_blas.so preloaded and
# fails unless the GEMM tests pass (computations and error exits) and portkern's GEMM was the one called.
# Usage: netlib_level3.sh /path/to/libportkern_blas.so {sblat3|dblat3|scblat3|dcblat3}
set -euo pipefail
lib=$1 which=$2
T=/usr/lib/x86_64-linux-gnu/blas
[ -d "$T" ] || { echo "libblas-test is not installed"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
case $which in
  sblat3) prog=xblat3s input=sblat3.in out=sblat3.out routine=SGEMM ;;
  dblat3) prog=xblat3d input=dblat3.in out=dblat3.out routine=DGEMM ;;
  scblat3) prog=xscblat3 input=sin3 out=scblat3.out routine=cblas_sgemm ;;
  dcblat3) prog=xdcblat3 input=din3 out=dcblat3.out routine=cblas_dgemm ;;
esac
PORTKERN_BLAS_VERBOSE=1 LD_PRELOAD="$lib" LD_LIBRARY_PATH=$T "$T/$prog" < "$T/$input" > stdout.txt 2> stderr.txt || true
report=stdout.txt
[ -f "$out" ] && report=$out
cat "$report" stdout.txt | grep -iE "$routine" | head -20
grep -q "portkern BLAS in use" stderr.txt || { echo "FAIL: portkern's $routine was not called"; cat stderr.txt; exit 1; }
if cat "$report" stdout.txt | grep -E "$routine" | grep -qiE "FAIL|NOT DETECTED|\*\*\*"; then
  echo "FAIL: $routine"; exit 1
fi
cat "$report" stdout.txt | grep -E "$routine" | grep -qE "PASSED THE (COLUMN-MAJOR +|ROW-MAJOR +)?COMPUTATIONAL TESTS" || { echo "FAIL: no passing computational tests of $routine"; exit 1; }
cat "$report" stdout.txt | grep -E "$routine" | grep -qi "PASSED THE TESTS OF ERROR-EXITS" || { echo "FAIL: error exits of $routine not passed"; exit 1; }
echo "OK: $routine passes"
