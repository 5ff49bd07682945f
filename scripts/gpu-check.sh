#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build portkern, run the `gpu` tests (and the rest), the benchmarks, and
# print a short table last. Logs and JSON go to $OUT/gpu-check.tgz (or ./gpu-check-out/).
# PARTS (default "transpose gemm bf16 model conv2d net ops baselines sanitize") picks the steps, e.g. PARTS=ops for
# the operator suite: `bf16` the GEMMs on 16-bit inputs beside cuBLAS's (HALF_DTYPES, default "bf16 fp16";
# BF16_SETS, default "square nets-quick"); `sweep` (not by default) the wgmma family at every tile width and split
# of k on SWEEP_SHAPES (default data/shapes/gemm_wgmma_sweep.csv) against its own choice (SWEEP_DTYPE, default bf16); `model` times the kernel model's fragment path (seed 002's ladder, and its staged step alone
# against cuBLAS on the square and nets-quick sets); `baselines` checks with PyTorch that our cuDNN/cuBLAS rows are the vendor at its best
# (tools/baselines/torch_check.py, after the gemm and conv2d benchmarks), `sanitize` runs compute-sanitizer's
# memcheck, racecheck and initcheck over the GPU tests (SANITIZE_TOOLS, SANITIZE_FILTER narrow it).
# BUILD_TARGETS narrows the build (e.g. "portkern portkern_gpu_tests" for the GPU tests and benchmarks), OPS the
# operators of the `ops` part (default: every one in src/ops).
# TESTS=all|gpu|none picks the CTest runs, GEMM_SETS (default "square seed nets tiled") the GEMM benchmark's sets
# (or shape CSV files), GEMM_PRECISIONS (default "accurate") the precisions they run at (portkern/precision.hpp;
# files of a precision other than accurate end in -<precision>), CONV_PRECISIONS likewise for conv2d; CONV_NETS (default "vgg16 resnet50") and CONV_BATCHES (default "1 4") the conv2d runs, STEM_BATCHES (default "1 4") those of the first layers' set (STEM_CUDNN_SKIP: the cuDNN plans they leave out, default 'NCHW eng71') (CONV_EPILOGUE=1 times each
# pick again with a bias, a residual and ReLU: the fused epilogue's cost); NET_BATCHES (default 1) and
# NET_PRECISIONS (default "accurate tf32") the networks against PyTorch on the GPU, NET_CPU_BATCHES (default "1 16", empty for none)
# on the host's CPU.
set -uo pipefail
cd "$(dirname "$0")/.."
dest=${OUT:-gpu-check-out}   # everything ends up in $dest/gpu-check.tgz (the GPU tool returns at most 8 files)
out=$(mktemp -d)
trap 'tar czf "$dest/gpu-check.tgz" -C "$out" . 2>/dev/null' EXIT
mkdir -p "$dest"
jobs=$(nproc)

source scripts/gpu-env.sh

step() { echo; echo "== $*"; }
parts=" ${PARTS:-transpose gemm bf16 model conv2d net ops baselines sanitize} "
want() { [[ $parts == *" $1 "* ]]; }

step "configure + build ($jobs jobs)"
start=$(date +%s)
cmake --preset default -DCMAKE_CUDA_ARCHITECTURES=90 > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
targets=""
for t in ${BUILD_TARGETS:-}; do targets="$targets --target $t"; done
cmake --build --preset default -j "$jobs" $targets > "$out/build.log" 2>&1 || { grep -E 'error|Error' -A5 "$out/build.log" | head -60; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader

tests=${TESTS:-all}   # all, gpu or none
if [ "$tests" != none ]; then
step "tests (gpu label first)"
ctest --test-dir build -L gpu --output-on-failure -j 4 > "$out/ctest-gpu.log" 2>&1
tail -4 "$out/ctest-gpu.log"
if [ "$tests" = all ]; then
ctest --test-dir build -LE gpu --output-on-failure -j 8 > "$out/ctest-cpu.log" 2>&1
tail -3 "$out/ctest-cpu.log"
fi
fi

step "portkern info"
./build/portkern info | tee "$out/info.txt"

step "benchmarks"
if want transpose; then
./build/portkern bench transpose --device cuda:0 --full --json "$out/transpose-cuda.json" | tee "$out/transpose-cuda.txt"
./build/portkern bench transpose --device cpu --json "$out/transpose-cpu.json" | tee "$out/transpose-cpu.txt"
fi
if want gemm; then
for precision in ${GEMM_PRECISIONS:-accurate}; do
at="--precision $precision"; tag=""
[ "$precision" = accurate ] || tag="-$precision"
for set in ${GEMM_SETS:-square seed nets tiled}; do
  if [ "$set" = tiled ]; then   # the single-source family alone: the best of its deployed configurations
    ./build/portkern bench gemm --device cuda:0 --set nets-quick --family tiled $at --json "$out/gemm-cuda-tiled$tag.json" > "$out/gemm-cuda-tiled$tag.txt" 2>&1
  elif [ -f "$set" ]; then      # a shapes CSV, e.g. data/shapes/gemm_unseen60.csv (networks the tuning never saw)
    name=$(basename "$set" .csv)
    ./build/portkern bench gemm --device cuda:0 --shapes "$set" $at --json "$out/gemm-cuda-$name$tag.json" > "$out/gemm-cuda-$name$tag.txt" 2>&1
    set=$name
  else
    ./build/portkern bench gemm --device cuda:0 --set $set $at --json "$out/gemm-cuda-$set$tag.json" > "$out/gemm-cuda-$set$tag.txt" 2>&1
  fi
  tail -3 "$out/gemm-cuda-$set$tag.txt"
done
done
fi
if want bf16; then   # 16-bit inputs, fp32 sums and C: the wgmma family beside cuBLAS's BF16 / FP16 GEMM
  /usr/local/cuda/bin/cuobjdump -sass build/src/gemm/CMakeFiles/portkern_sm90a.dir/cuda_wgmma/wgmma_launch.cu.o \
    > "$out/wgmma-sass.txt" 2>&1; echo "wgmma SASS: $(grep -c HGMMA "$out/wgmma-sass.txt") HGMMA instructions"
  rm -f "$out/wgmma-sass.txt"
  for dtype in ${HALF_DTYPES:-bf16 fp16}; do
    for set in ${BF16_SETS:-square nets-quick}; do
      name="gemm-cuda-$dtype-$(basename "$set" .csv)"
      if [ -f "$set" ]; then what="--shapes $set"; else what="--set $set"; fi
      ./build/portkern bench gemm --dtype $dtype --device cuda:0 $what --json "$out/$name.json" > "$out/$name.txt" 2>&1
      tail -3 "$out/$name.txt"
    done
  done
fi
if want sweep; then   # the wgmma family at every tile width and split of k, against its own choice (sweep_report.py)
  mkdir -p "$out/sweep"
  shapes=${SWEEP_SHAPES:-data/shapes/gemm_wgmma_sweep.csv}; dtype=${SWEEP_DTYPE:-bf16}
  ./build/portkern bench gemm --dtype $dtype --device cuda:0 --shapes "$shapes" --json "$out/sweep/chosen.json" \
    > "$out/sweep/chosen.txt" 2>&1
  for width in 64 128 256; do
    for splits in 1 2 3 4 6 8 12; do
      PORTKERN_WGMMA_KERNEL=$width PORTKERN_WGMMA_SPLITS=$splits ./build/portkern bench gemm --dtype $dtype \
        --device cuda:0 --shapes "$shapes" --json "$out/sweep/w$width-s$splits.json" > "$out/sweep/w$width-s$splits.txt" 2>&1
    done
  done
  python3 tools/baselines/sweep_report.py "$out/sweep/chosen.json" "$out"/sweep/w*-s*.json | tee "$out/sweep/report.txt" | tail -1
fi
if want model; then
./build/portkern bench gemm --device cuda:0 --set ladder --json "$out/ladder-cuda.json" > "$out/ladder-cuda.txt" 2>&1
tail -10 "$out/ladder-cuda.txt"
staged=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['rows'][-2]['config'])" "$out/ladder-cuda.json")
for set in square nets-quick; do
  ./build/portkern bench gemm --device cuda:0 --set $set --config "$staged" --json "$out/gemm-cuda-staged-$set.json" \
    > "$out/gemm-cuda-staged-$set.txt" 2>&1
  tail -3 "$out/gemm-cuda-staged-$set.txt"
done
fi
if want conv2d; then
for precision in ${CONV_PRECISIONS:-accurate}; do
tag=""
[ "$precision" = accurate ] || tag="-$precision"
for net in ${CONV_NETS:-vgg16 resnet50}; do
  for batch in ${CONV_BATCHES:-1 4}; do
    name="conv2d-cuda-$net-b$batch$tag"
    ./build/portkern bench conv2d --device cuda:0 --net $net --batch $batch --precision $precision \
      ${CONV_EPILOGUE:+--epilogue} --json "$out/$name.json" > "$out/$name.txt" 2>&1
    tail -3 "$out/$name.txt" | head -2
  done
done
# First layers of 17 networks (data/shapes/conv_stems.csv; `windowed`'s), with cuDNN 9.14's plan 'NCHW eng71' left
# out (STEM_CUDNN_SKIP): it faults on ResNet-50's conv1_1 at batch 1 (docs/benchmarking.md).
for batch in ${STEM_BATCHES:-1 4}; do
  name="conv2d-cuda-stems-b$batch$tag"
  PORTKERN_CUDNN_SKIP="${STEM_CUDNN_SKIP-NCHW eng71}" ./build/portkern bench conv2d --device cuda:0 --net stems \
    --batch $batch --precision $precision --json "$out/$name.json" > "$out/$name.txt" 2>&1
  tail -3 "$out/$name.txt" | head -2
done
done
fi
if want net; then   # whole networks (portkern run) against PyTorch on the same weights and input
  ./build/portkern run resnet50 --device cuda:0 --batch 1 --layers --json "$out/net-resnet50-layers.json" \
    > "$out/net-resnet50-layers.txt" 2>&1; grep "ms per batch" "$out/net-resnet50-layers.txt"
  for batch in ${NET_BATCHES:-1}; do
    for precision in ${NET_PRECISIONS:-accurate tf32}; do
      name="net-torch-b$batch-$precision"
      python3 tools/net/torch_net.py --portkern build/portkern --device cuda:0 --batch $batch --precision $precision \
        --json "$out/$name.json" > "$out/$name.txt" 2>&1
      echo "torch_net b$batch $precision exit $?"; tail -12 "$out/$name.txt"
    done
  done
  for batch in ${NET_CPU_BATCHES-1 16}; do   # the host's CPU: PyTorch on all its cores beside portkern's back ends
    name="net-torch-cpu-b$batch"
    python3 tools/net/torch_net.py --portkern build/portkern --device cpu --batch $batch --modes deployed vendor \
      --repeats ${NET_CPU_REPEATS:-10} --json "$out/$name.json" > "$out/$name.txt" 2>&1
    echo "torch_net cpu b$batch exit $?"; tail -8 "$out/$name.txt"
  done
  # run --image's preprocessing against torchvision's PIL and uint8-tensor paths (tests/data/'s images)
  python3 tools/net/torch_preprocess.py --portkern build/portkern tests/data/rgb.png tests/data/rgb.jpg \
    tests/data/palette.png tests/data/cmyk.jpg > "$out/net-preprocess.txt" 2>&1
  echo "torch_preprocess exit $?"; tail -6 "$out/net-preprocess.txt"
fi
if want ops; then
mkdir -p "$out/ops"
for op in ${OPS:-$(ls src/ops | grep -v CMakeLists.txt)}; do   # one operator per process: a slow one cannot cost the rest
  timeout "${OPS_SECONDS:-150}" ./build/portkern bench ops --device cuda:0 --op "$op" --json "$out/ops/$op.json" \
    > "$out/ops/$op.txt" 2>&1 || echo "bench ops --op $op: exit $?"
done
python3 - "$out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
parts = [json.loads(p.read_text()) for p in sorted((out / "ops").glob("*.json"))]
rows = [r for p in parts for r in p["rows"]]
json.dump({"device": parts[0]["device"] if parts else None, "rows": rows}, open(out / "ops-cuda.json", "w"), indent=1)
num = lambda v, d: "-" if v is None else f"{v:.{d}f}"
for r in rows:
    print(f"{r['op']:16} {r['variant'][:40]:40} {num(r['time_ms'], 4):>10} ms {num(r['gbps'], 0):>6} GB/s "
          f"{r['fraction_of_copy']:5.0%} {num(r['gflops'], 0):>7} GF  native {num(r['native_time_ms'], 4):>10}  "
          f"ratio {num(r['ratio'], 3):>6}  err {r['max_error']:.1e} {'ok' if r['ok'] else 'FAIL'}")
PY
./build/portkern bench ops --device cuda:0 --size small --dump "$out/ops-dump" --json "$out/ops-cuda-small.json" > "$out/ops-cuda-small.txt" 2>&1
if python3 -c "import torch" 2>/dev/null; then   # PyTorch: same data (small sizes), then its timing at default sizes
  python3 tools/ops/torch_compare.py check "$out/ops-dump" > "$out/ops-torch-check.txt" 2>&1; tail -30 "$out/ops-torch-check.txt"
  python3 tools/ops/torch_compare.py time "$out/ops-cuda.json" --json "$out/ops-torch-time.json" > "$out/ops-torch-time.txt" 2>&1
  tail -40 "$out/ops-torch-time.txt"
fi
rm -rf "$out/ops-dump"
fi
if want baselines && python3 -c "import torch" 2>/dev/null; then
  step "vendor rows against PyTorch (same shapes; fails below 0.95 of PyTorch's fp32 figure)"
  benches=$(ls "$out"/conv2d-cuda-*.json "$out"/gemm-cuda-square.json "$out"/gemm-cuda-seed.json 2>/dev/null)
  python3 tools/baselines/torch_check.py $benches --json "$out/torch-baselines.json" > "$out/torch-baselines.txt" 2>&1
  echo "torch_check exit $?"; grep -E "FAIL|geomean" "$out/torch-baselines.txt" | tail -12
fi
if want sanitize; then
  # One sanitizer process per test suite, within SANITIZE_SECONDS per tool, so that a slow suite costs only
  # itself and the log says which suites were covered.
  step "compute-sanitizer over the GPU tests"
  tests_bin=./build/tests/portkern_gpu_tests
  suites=$($tests_bin --gtest_list_tests --gtest_filter="${SANITIZE_FILTER:-*}" | grep -E '^[A-Za-z0-9_/]+\.$' | tr -d '.')
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck initcheck}; do
    deadline=$(( $(date +%s) + ${SANITIZE_SECONDS:-200} ))
    clean=0; dirty=0; skipped=0
    for suite in $suites; do
      left=$(( deadline - $(date +%s) ))
      if [ $left -le 5 ]; then skipped=$((skipped + 1)); echo "SKIPPED (time) $suite" >> "$out/sanitizer-$tool.log"; continue; fi
      timeout $left compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 30 \
        $tests_bin --gtest_filter="$suite.*" --gtest_brief=1 >> "$out/sanitizer-$tool.log" 2>&1
      rc=$?
      if [ $rc -eq 0 ]; then clean=$((clean + 1)); else dirty=$((dirty + 1)); echo "== $suite: exit $rc" >> "$out/sanitizer-$tool.log"; fi
    done
    echo "compute-sanitizer $tool: $clean suites clean, $dirty with errors or failures, $skipped not reached"
    grep -B2 -A12 "^========= \(Invalid\|Race\|Uninitialized\|Program hit\|Error\)" "$out/sanitizer-$tool.log" | head -30
  done
fi
if [ -n "${PORTKERN_GPU_CHECK_EXTRA:-}" ]; then eval "$PORTKERN_GPU_CHECK_EXTRA"; fi

step "summary"
want transpose && python3 - "$out" <<'PY'
import json, sys, statistics
out = sys.argv[1]
for dev in ("cuda", "cpu"):
    rows = json.load(open(f"{out}/transpose-{dev}.json"))["rows"]
    g = statistics.geometric_mean([r["ratio"] for r in rows])
    print(f"transpose {dev:4}: portable/native geomean {g:.3f}  of copy bandwidth "
          f"{min(r['fraction_of_copy'] for r in rows):.0%}-{max(r['fraction_of_copy'] for r in rows):.0%}  "
          f"verified {all(r['verified'] for r in rows)}")
PY
for f in "$out"/gemm-cuda-*.json; do
  [ -e "$f" ] || continue
  python3 - "$f" <<'PY'
import json, sys, math
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r.get("ratio")]
g = math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows)) if rows else float("nan")
big = [r for r in rows if r["m"] == r["n"] == r["k"] and r["m"] >= 1024]
gb = math.exp(sum(math.log(r["ratio"]) for r in big) / len(big)) if big else float("nan")
err = max((r["max_rel_error"] or float("nan")) for r in d["rows"])
print(f"{sys.argv[1].split('/')[-1]:28} shapes {len(rows):3}  geomean ratio to cuBLAS {g:.3f}  (squares >= 1024: {gb:.3f})  max rel err {err:.1e}")
PY
done
want ops && python3 - "$out/ops-cuda.json" <<'PY'
import json, sys, math
rows = json.load(open(sys.argv[1]))["rows"]
r = [x["ratio"] for x in rows if x.get("ratio")]
mem = [x["fraction_of_copy"] for x in rows if not x["compute_bound"]]
if r:
    print(f"ops cuda: portable/native time geomean {math.exp(sum(map(math.log, r)) / len(r)):.3f} over {len(r)} rows, "
          f"max {max(r):.3f}; memory-bound rows at {min(mem):.0%}-{max(mem):.0%} of copy; "
          f"verified {sum(x['ok'] for x in rows)} of {len(rows)}")
PY
grep -hE "tests passed|tests failed" "$out"/ctest-*.log
grep -hE "^== .*: exit" "$out"/sanitizer-*.log 2>/dev/null || true   # none without the sanitize part
