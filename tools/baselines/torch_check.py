#!/usr/bin/env python3
"""Is our vendor row the vendor at its best? PyTorch as the judge, on the GPU machine.

  python3 tools/baselines/torch_check.py BENCH.json... [--json OUT] [--min 0.95]

For every row of `portkern bench gemm|conv2d --device cuda:N --json` files, times the same GEMM or
convolution through PyTorch (cuBLAS / cuDNN, what a PyTorch user gets) at the row's sizes, in fp32 with TF32
off and again with TF32 on, and prints our vendor figure beside PyTorch's. Convolutions run as PyTorch runs
them fastest here: channels-last (NHWC) tensors, `torch.backends.cudnn.benchmark = True`.

Timing as the benchmarks time: warm-up (cuDNN's algorithm search happens there), then 9 samples of
back-to-back calls, each at least 5 ms long, on CUDA events; the median per call.

Exit status 1, with a FAIL line per row, when our same-precision vendor row ("cudnn" or "cublas", fp32) is
below --min (0.95) of PyTorch's fp32 figure for the same shape: then our ratios would flatter portkern.
"""
import argparse
import json
import math
import statistics
import sys

import torch
import torch.nn.functional as F


def time_ms(fn, sample_ms=5.0, samples=9):
    fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    stop.record()
    stop.synchronize()
    calls = max(1, min(100000, math.ceil(sample_ms / max(start.elapsed_time(stop), 1e-4))))
    per_call = []
    for _ in range(samples):
        start.record()
        for _ in range(calls):
            fn()
        stop.record()
        stop.synchronize()
        per_call.append(start.elapsed_time(stop) / calls)
    return statistics.median(per_call)


def set_tf32(on):
    torch.backends.cuda.matmul.allow_tf32 = on
    torch.backends.cudnn.allow_tf32 = on


def conv_call(row):
    n, c, h, w = row["batch"], row["in_c"], row["in_h"], row["in_w"]
    k, r, stride, pad = row["out_k"], row["window"], row["stride"], row["pad"]
    x = torch.randn(n, c, h, w, device="cuda").to(memory_format=torch.channels_last)
    weight = torch.randn(k, c, r, r, device="cuda").to(memory_format=torch.channels_last)
    y = F.conv2d(x, weight, stride=stride, padding=pad)
    if tuple(y.shape) != (n, k, row["out_h"], row["out_w"]):
        raise SystemExit(f"conv {row['layer']}: PyTorch's output is {tuple(y.shape)}, the row's "
                         f"{(n, k, row['out_h'], row['out_w'])}")
    flops = 2.0 * n * row["out_h"] * row["out_w"] * k * c * r * r
    return (lambda: F.conv2d(x, weight, stride=stride, padding=pad)), flops


def gemm_call(row):
    m, n, k, batch = row["m"], row["n"], row["k"], row["batch"]
    # Column-major C (m x n) = op(A) op(B) is row-major C^T (n x m) = op(B)^T op(A)^T: the same cuBLAS call.
    a = torch.randn(batch, k, m, device="cuda") if not row["trans_a"] else torch.randn(batch, m, k, device="cuda").mT
    b = torch.randn(batch, n, k, device="cuda") if not row["trans_b"] else torch.randn(batch, k, n, device="cuda").mT
    flops = 2.0 * m * n * k * batch
    return (lambda: torch.bmm(b, a)), flops


def label(row):
    if row["op"] == "conv2d":
        return f"{row['layer']} b{row['batch']}"
    t = ("T" if row["trans_a"] else "N") + ("T" if row["trans_b"] else "N")
    return f"{row['m']}x{row['n']}x{row['k']} b{row['batch']} {t}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bench_json", nargs="+")
    parser.add_argument("--json", help="write the comparison rows here")
    parser.add_argument("--min", type=float, default=0.95, help="least acceptable our-vendor / PyTorch (fp32)")
    args = parser.parse_args()
    torch.backends.cudnn.benchmark = True
    print(f"PyTorch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, {torch.cuda.get_device_name()}")
    out, failures = [], 0
    header = f"{'file':28} {'row':34} {'vendor':>9} {'ours':>9} {'torch':>9} {'ratio':>6}   {'ours tf32':>9} {'torch tf32':>10} {'ratio':>6}"
    print(header)
    for path in args.bench_json:
        data = json.load(open(path))
        for row in data["rows"]:
            if row["op"] not in ("conv2d", "sgemm"):
                continue
            make = conv_call if row["op"] == "conv2d" else gemm_call
            torch.manual_seed(0)
            call, flops = make(row)
            set_tf32(False)
            fp32 = flops / time_ms(call) / 1e6
            set_tf32(True)
            call, flops = make(row)   # fresh tensors: cuDNN's benchmark cache is per math mode anyway
            tf32 = flops / time_ms(call) / 1e6
            set_tf32(False)
            refs = row.get("refs", {})
            same = next((v for v in refs.values() if isinstance(v, dict) and v.get("precision") == "ieee"), None)
            low = row.get("ref_tf32")
            ours = same["gflops"] if same else float("nan")
            ours_tf32 = low["gflops"] if low else float("nan")
            ratio, ratio_tf32 = ours / fp32, ours_tf32 / tf32
            ok = ratio >= args.min
            failures += not ok
            name = path.rsplit("/", 1)[-1]
            vendor = row.get("ref_library") or "-"
            print(f"{name[:28]:28} {label(row)[:34]:34} {vendor:>9} {ours:9.0f} {fp32:9.0f} {ratio:6.3f}   "
                  f"{ours_tf32:9.0f} {tf32:10.0f} {ratio_tf32:6.3f}{'' if ok else '   FAIL: our vendor row is below PyTorch'}")
            out.append({"file": name, "row": label(row), "vendor": vendor, "ours_gflops": ours, "torch_gflops": fp32,
                        "ratio": ratio, "ours_tf32_gflops": ours_tf32, "torch_tf32_gflops": tf32,
                        "ratio_tf32": ratio_tf32, "ok": ok})
    ratios = [r["ratio"] for r in out if r["ratio"] > 0]
    if ratios:
        print(f"our vendor rows / PyTorch, fp32: geomean {statistics.geometric_mean(ratios):.3f}, min {min(ratios):.3f} "
              f"over {len(ratios)} rows; {failures} below {args.min}")
    if args.json:
        json.dump({"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(), "rows": out},
                  open(args.json, "w"), indent=1)
    if failures:
        print(f"FAIL: {failures} vendor rows below {args.min} of PyTorch: the ratios against them flatter portkern")
        sys.exit(1)


if __name__ == "__main__":
    main()
