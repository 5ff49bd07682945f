#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build the tuning configuration (the whole tiled space) and collect the
# GEMM dataset of every family for `portkern tune ... --deploy`, resuming data/tuning/cuda-sm90/gemm-all.csv.
# Stops measuring after $TUNE_SECONDS (default 420) so that one device call returns what it measured; run
# it again to go on. The dataset comes back as $OUT/gemm-all.csv.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-env.sh
dest=${OUT:-gpu-tune-out}
mkdir -p "$dest"
start=$(date +%s)
cmake --preset tuning -DCMAKE_CUDA_ARCHITECTURES=90 > "$dest/configure.log" 2>&1 || { tail -20 "$dest/configure.log"; exit 1; }
cmake --build --preset tuning -j "$(nproc)" > "$dest/build.log" 2>&1 || { grep -E 'error' -A5 "$dest/build.log" | head -40; exit 1; }
echo "tuning build in $(( $(date +%s) - start )) s"
csv=data/tuning/cuda-sm90/gemm-all.csv
mkdir -p "$(dirname "$csv")"
timeout "${TUNE_SECONDS:-420}" ./build-tuning/portkern tune gemm --device cuda:0 --family all --configs seed \
  --shapes "${TUNE_SHAPES:-nets-quick}" --out "$csv" 2> "$dest/tune.log"
echo "tune exit $? after $(( $(date +%s) - start )) s"
tail -c 300 "$dest/tune.log"; echo
cp "$csv" "$dest/gemm-all.csv"
wc -l "$csv"
