#!/usr/bin/env bash
# What libportkern_blas.so shows the dynamic linker: it defines exactly the BLAS entry points (no xerbla_ or
# cblas_xerbla that would replace the process's handlers, no C++ symbols) and, with --no-cuda, needs no
# CUDA library (libcudart, libcuda, libcublas...).
# Usage: elf_contract.sh /path/to/libportkern_blas.so [--no-cuda]
set -euo pipefail
lib=$1 no_cuda=${2:-}
expected="cblas_dgemm cblas_sgemm dgemm_ sgemm_"
defined=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Za-z]$/ {print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
echo "defined: $defined"
[ "$defined" = "$expected" ] || { echo "FAIL: defines '$defined', expected '$expected'"; exit 1; }
if [ "$no_cuda" = --no-cuda ]; then
  needed=$(readelf -d "$lib" | awk '/\(NEEDED\)/ {print $NF}' | tr -d '[]' | tr '\n' ' ')
  echo "needed: $needed"
  if grep -qiE 'libcu|libnv' <<< "$needed"; then echo "FAIL: needs a CUDA library"; exit 1; fi
  if ldd "$lib" | grep -qiE 'libcu|libnv'; then echo "FAIL: ldd finds a CUDA library"; ldd "$lib"; exit 1; fi
fi
echo "OK: libportkern_blas.so defines only the BLAS entry points${no_cuda:+ and needs no CUDA library}"
