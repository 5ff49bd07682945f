#!/usr/bin/env python3
"""The deployed conv2d selector against the hand-written rule it replaced, on `portkern bench conv2d` JSON:
each row times every algorithm on the same data in the same run, so the rule's pick (runtime_rules.py) is
read from the same measurements as the deployment's.

  python3 tools/tuning/compare_bench.py BENCH.json [...]

Prints per layer the deployment's pick, the rule's pick and their GFLOP/s ratio, and per file the geomean
ratio (deployment / rule) and the geomean ratio of each to the vendor library.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
import runtime_rules  # noqa: E402


def geomean(values) -> float:
    values = [v for v in values if v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def compare(path: str) -> dict:
    result = json.loads(Path(path).read_text())
    rows = result["rows"]
    device = "cpu" if result["device"]["device"].startswith("cpu") else "cuda"
    shapes = pd.DataFrame([{"batch": r["batch"], "in_h": r["in_h"], "in_w": r["in_w"], "in_c": r["in_c"],
                            "out_h": r["out_h"], "out_w": r["out_w"], "out_c": r["out_k"], "window_h": r["window"],
                            "window_w": r["window"], "stride_h": r["stride"], "stride_w": r["stride"],
                            "pad_h": r["pad"], "pad_w": r["pad"]} for r in rows])
    rule = runtime_rules.conv2d_rule(shapes, device)
    ratios, to_vendor, rule_to_vendor = [], [], []
    print(f"{path}: {result.get('net')} batch {result.get('batch')}")
    for r, pick in zip(rows, rule):
        timed = r["algorithms"].get(pick, {}).get("gflops", 0.0)
        ratio = r["gflops"] / timed if timed else float("nan")
        ratios.append(ratio)
        if r.get("ref_gflops"):
            to_vendor.append(r["gflops"] / r["ref_gflops"])
            rule_to_vendor.append(timed / r["ref_gflops"])
        print(f"  {r['layer']:10s} deployed {r['config']:18s} {r['gflops']:10.1f}  rule {pick:18s} {timed:10.1f}  "
              f"{ratio:6.3f}")
    summary = {"file": path, "deployed/rule": geomean(ratios), "deployed/vendor": geomean(to_vendor),
               "rule/vendor": geomean(rule_to_vendor)}
    print("  geomean deployed/rule {deployed/rule:.3f}, deployed/vendor {deployed/vendor:.3f}, "
          "rule/vendor {rule/vendor:.3f}".format(**summary))
    return summary


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit(__doc__)
    summaries = [compare(p) for p in argv]
    print(pd.DataFrame(summaries).to_string(index=False, float_format=lambda v: f"{v:.3f}"))


if __name__ == "__main__":
    main(sys.argv[1:])
