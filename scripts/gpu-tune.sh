#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: collect a tuning dataset for `portkern tune ... --deploy`, resuming it.
#   TUNE_OP=gemm (default): build the tuning configuration (the tiled family's staged mode, PORTKERN_TUNING_SPACE)
#     and measure every GEMM family's default part (tiled: the staged mode; cuda_native: its 5 kernels) on each
#     of $TUNE_SHAPES (sets or CSV files, default "data/shapes/gemm_tune25.csv data/shapes/gemm_unseen60.csv":
#     the 25 training shapes, then 60 of networks they never saw) into data/tuning/cuda-sm90/gemm-staged.csv.
#     TUNE_TESTS=1 (either op) also builds the tests and runs the `gpu` ones first, on the same build. TUNE_SPACE (default
#     staged) is the tuning build's PORTKERN_TUNING_SPACE and TUNE_CONFIGS (default "default") tune's --configs:
#     TUNE_SPACE=tf32 TUNE_CONFIGS=_tf32 builds and measures the TF32 fragments alone.
#   TUNE_OP=conv2d: build the default configuration (it instantiates the whole convolution space) and measure
#     every algorithm and configuration on the layers of $TUNE_NETS (default "resnet50 vgg16 more_nets stems":
#     data/shapes/conv_<net>.csv) at $TUNE_BATCHES (default 1 2 4 8 16 32) into
#     data/tuning/cuda-sm90/conv2d.csv (TUNE_PRECISION=tf32: conv2d-tf32.csv, every configuration at tf32).
# Stops measuring after $TUNE_SECONDS (default 420) so that one device call returns what it measured; run
# it again to go on (a build already there is reused). The dataset comes back in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-env.sh
dest=${OUT:-gpu-tune-out}
mkdir -p "$dest"
op=${TUNE_OP:-gemm}
if [[ $op == gemm ]]; then preset=tuning build=build-tuning; else preset=default build=build; fi
tests=OFF
[[ ${TUNE_TESTS:-0} == 1 || $op != gemm ]] && tests=ON
start=$(date +%s)
space=()
[[ $op == gemm ]] && space=(-DPORTKERN_TUNING_SPACE="${TUNE_SPACE:-staged}")
cmake --preset $preset -DCMAKE_CUDA_ARCHITECTURES=90 -DPORTKERN_TESTS=$tests "${space[@]}" > "$dest/configure.log" 2>&1 || { tail -20 "$dest/configure.log"; exit 1; }
cmake --build --preset $preset -j "$(nproc)" > "$dest/build.log" 2>&1 || { grep -E 'error' -A5 "$dest/build.log" | head -40; exit 1; }
echo "$preset build in $(( $(date +%s) - start )) s"
if [[ ${TUNE_TESTS:-0} == 1 ]]; then
  ctest --test-dir $build -L gpu --output-on-failure -j 4 > "$dest/ctest-gpu.log" 2>&1
  tail -4 "$dest/ctest-gpu.log"
fi
deadline=$(( $(date +%s) + ${TUNE_SECONDS:-420} ))
case $op in
  gemm)
    csv=data/tuning/cuda-sm90/gemm-staged.csv
    mkdir -p "$(dirname "$csv")"
    for shapes in ${TUNE_SHAPES:-data/shapes/gemm_tune25.csv data/shapes/gemm_unseen60.csv}; do
      left=$(( deadline - $(date +%s) ))
      [ $left -gt 5 ] || break
      timeout $left "./$build/portkern" tune gemm --device cuda:0 --family all --configs "${TUNE_CONFIGS:-default}" --shapes "$shapes" \
        --out "$csv" 2>> "$dest/tune.log"
      echo "tune $shapes: exit $? after $(( $(date +%s) - start )) s"
    done ;;
  conv2d)   # TUNE_PRECISION (default accurate): every configuration measured at it, into conv2d[-<precision>].csv
    precision=${TUNE_PRECISION:-accurate}
    csv=data/tuning/cuda-sm90/conv2d.csv
    [ "$precision" = accurate ] || csv=data/tuning/cuda-sm90/conv2d-$precision.csv
    read -ra batches <<< "${TUNE_BATCHES:-1 2 4 8 16 32}"
    read -ra nets <<< "${TUNE_NETS:-resnet50 vgg16 more_nets stems}"
    mkdir -p "$(dirname "$csv")"
    timeout $(( deadline - $(date +%s) )) "./$build/portkern" tune conv2d --device cuda:0 --nets "${nets[@]}" \
      --batches "${batches[@]}" --precision "$precision" --out "$csv" 2> "$dest/tune.log"
    echo "tune exit $? after $(( $(date +%s) - start )) s" ;;
  *) echo "TUNE_OP must be gemm or conv2d, not '$op'"; exit 1 ;;
esac
tail -c 300 "$dest/tune.log"; echo
cp "$csv" "$dest/"
wc -l "$csv"
