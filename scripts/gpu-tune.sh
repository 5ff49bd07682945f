#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: collect a tuning dataset for `portkern tune ... --deploy`, resuming it.
#   TUNE_OP=gemm (default): build the tuning configuration (the whole tiled space) and measure every GEMM
#     family on $TUNE_SHAPES (default nets-quick) into data/tuning/cuda-sm90/gemm-all.csv.
#   TUNE_OP=conv2d: build the default configuration (it instantiates the whole convolution space) and measure
#     every algorithm and configuration on the layers of $TUNE_NETS (default "resnet50 vgg16 more_nets":
#     data/shapes/conv_<net>.csv) at $TUNE_BATCHES (default 1 2 4 8 16 32) into
#     data/tuning/cuda-sm90/conv2d.csv.
# Stops measuring after $TUNE_SECONDS (default 420) so that one device call returns what it measured; run
# it again to go on. The dataset comes back in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-env.sh
dest=${OUT:-gpu-tune-out}
mkdir -p "$dest"
op=${TUNE_OP:-gemm}
if [[ $op == gemm ]]; then preset=tuning build=build-tuning; else preset=default build=build; fi
start=$(date +%s)
cmake --preset $preset -DCMAKE_CUDA_ARCHITECTURES=90 > "$dest/configure.log" 2>&1 || { tail -20 "$dest/configure.log"; exit 1; }
cmake --build --preset $preset -j "$(nproc)" > "$dest/build.log" 2>&1 || { grep -E 'error' -A5 "$dest/build.log" | head -40; exit 1; }
echo "$preset build in $(( $(date +%s) - start )) s"
case $op in
  gemm)
    csv=data/tuning/cuda-sm90/gemm-all.csv
    command=(tune gemm --device cuda:0 --family all --configs default --shapes "${TUNE_SHAPES:-nets-quick}") ;;
  conv2d)
    csv=data/tuning/cuda-sm90/conv2d.csv
    read -ra batches <<< "${TUNE_BATCHES:-1 2 4 8 16 32}"
    read -ra nets <<< "${TUNE_NETS:-resnet50 vgg16 more_nets}"
    command=(tune conv2d --device cuda:0 --nets "${nets[@]}" --batches "${batches[@]}") ;;
  *) echo "TUNE_OP must be gemm or conv2d, not '$op'"; exit 1 ;;
esac
mkdir -p "$(dirname "$csv")"
timeout "${TUNE_SECONDS:-420}" "./$build/portkern" "${command[@]}" --out "$csv" 2> "$dest/tune.log"
echo "tune exit $? after $(( $(date +%s) - start )) s"
tail -c 300 "$dest/tune.log"; echo
cp "$csv" "$dest/"
wc -l "$csv"
