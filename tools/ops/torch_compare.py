#!/usr/bin/env python3
"""PyTorch as the second reference for the DNN operators (seed 004), on the GPU machine (or any machine with torch).

  check DUMP_DIR      compare what `portkern bench ops --dump DUMP_DIR` wrote with PyTorch's result on the same inputs
  time  BENCH_JSON    time PyTorch's equivalent of every row of `portkern bench ops --json` at the row's sizes and
                      print portkern / PyTorch

Each operator with a PyTorch equivalent has a module tools/ops/torch_ops/<op>.py with
  outputs(t, params) -> {name: tensor}   PyTorch's outputs for the dumped tensors `t` (a dict of torch tensors,
                                         named as dumped); the names are those of the dumped outputs to compare
  inputs(params, device) -> {name: tensor}   fresh inputs at the row's sizes, for `time` (optional)
  TOLERANCE = float or {output name: float}  absolute tolerance against PyTorch (default 1e-3)
"""
import argparse
import gc
import importlib
import json
import math
import pathlib
import statistics
import sys

import numpy as np
import torch

HERE = pathlib.Path(__file__).resolve().parent
DTYPES = {"float32": np.float32, "float64": np.float64, "float16": np.float16, "int32": np.int32, "int64": np.int64,
          "uint8": np.uint8}


def module_for(op):
    try:
        return importlib.import_module(f"torch_ops.{op}")
    except ModuleNotFoundError:
        return None


def load(variant_dir, device):
    manifest = json.loads((variant_dir / "manifest.json").read_text())
    tensors = {}
    for name, t in manifest["tensors"].items():
        data = np.fromfile(variant_dir / t["file"], dtype=DTYPES[t["dtype"]]).reshape(t["shape"])
        tensors[name] = torch.from_numpy(data.copy()).to(device)
    return manifest, tensors


def check(dump_dir, device):
    failures, rows = 0, []
    for manifest_path in sorted(pathlib.Path(dump_dir).glob("*/*/manifest.json")):
        manifest, tensors = load(manifest_path.parent, device)
        module = module_for(manifest["op"])
        if module is None or not hasattr(module, "outputs"):
            rows.append((manifest["op"], manifest["variant"], "-", "no PyTorch equivalent"))
            continue
        expected = module.outputs(tensors, manifest["params"])
        tolerance = getattr(module, "TOLERANCE", 1e-3)
        for name, want in expected.items():
            got = tensors[name]
            tol = tolerance[name] if isinstance(tolerance, dict) else tolerance
            diff = (got.double() - want.double().reshape(got.shape)).abs()
            worst = float(diff.max()) if diff.numel() else 0.0
            ok = worst <= tol and not math.isnan(worst)
            failures += not ok
            rows.append((manifest["op"], manifest["variant"], name, f"max |portkern - torch| {worst:.2e} (tol {tol:g}) "
                         + ("ok" if ok else "FAIL")))
    for row in rows:
        print(f"{row[0]:16} {row[1]:44} {row[2]:10} {row[3]}")
    print(f"{len(rows)} comparisons, {failures} failed")
    return failures == 0


def time_call(fn, device, reps=20):
    fn()
    if device.startswith("cuda"):
        torch.cuda.synchronize()
        times = []
        for _ in range(reps):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            stop.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(stop))
        return statistics.median(times)
    import time
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def time_rows(bench_json, device, out_json):
    rows = json.loads(pathlib.Path(bench_json).read_text())["rows"]
    result, slower = [], 0
    print(f"{'op':16} {'variant':44} {'portkern ms':>12} {'torch ms':>10} {'portkern/torch':>15}")
    for row in rows:
        module = module_for(row["op"])
        if module is None or not hasattr(module, "inputs"):
            continue
        try:
            with torch.no_grad():
                t = module.inputs(row["params"], device)
                torch_ms = time_call(lambda: module.outputs(t, row["params"]), device)
        except torch.OutOfMemoryError as e:   # PyTorch's equivalent may need far more memory (cuDNN's LSTM)
            print(f"{row['op']:16} {row['variant']:44} PyTorch out of memory: {str(e).splitlines()[0][:60]}")
            continue
        finally:
            t = None
            gc.collect()
            if device.startswith("cuda"):
                torch.cuda.empty_cache()
        ratio = row["time_ms"] / torch_ms
        slower += ratio > 1.0
        result.append({"op": row["op"], "variant": row["variant"], "time_ms": row["time_ms"], "torch_ms": torch_ms,
                       "ratio": ratio})
        print(f"{row['op']:16} {row['variant']:44} {row['time_ms']:12.4f} {torch_ms:10.4f} {ratio:15.3f}")
    if result:
        print(f"geomean portkern/torch {math.exp(sum(math.log(r['ratio']) for r in result) / len(result)):.3f} over "
              f"{len(result)} rows; {slower} slower than PyTorch")
    if out_json:
        pathlib.Path(out_json).write_text(json.dumps({"device": device, "rows": result}, indent=2))


def main():
    sys.path.insert(0, str(HERE))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["check", "time"])
    parser.add_argument("path")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--json", help="time: write the rows here")
    args = parser.parse_args()
    if args.mode == "check":
        sys.exit(0 if check(args.path, args.device) else 1)
    time_rows(args.path, args.device, args.json)


if __name__ == "__main__":
    main()
