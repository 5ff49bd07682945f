#!/usr/bin/env python3
"""Where a native twin still beats the portable family: the shapes of a tuning dataset on which the best
configuration of a native family (cpu_packed, cuda_native) is faster than the best `tiled` one by more than
--margin, with the ratio and a reason class, as a CSV (issue 13: the deployment may pick the twins only where
they win, and each such shape is listed).

Reason classes: `gemv` (m or n is 1: the twins have matrix-vector paths of their own), `shallow` (k <= 32: the
twins read the operands where they are instead of packing/staging them), `tiny` (under 0.1 GFLOP: launch and
set-up bound), `other`.

    python3 tools/tuning/twin_wins.py data/tuning/cpu-avx512/gemm-staged.csv --out FILE.csv
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import dataset

NATIVE = ("cpu_packed", "cuda_native")


def reason(m: int, n: int, k: int, batch: int) -> str:
    if m == 1 or n == 1:
        return "gemv"
    if k <= 32:
        return "shallow"
    if 2.0 * m * n * k * batch < 1e8:
        return "tiny"
    return "other"


def twin_wins(path: str, margin: float) -> list[dict]:
    """One row per shape where a native family's best beats the portable family's best by more than `margin`."""
    table = dataset.load([path], op="gemm")
    families = [c.split("/")[0] for c in table.configs]
    rows = []
    for i, shape in enumerate(table.shapes.itertuples(index=False)):
        perf = table.perf[i]
        tiled = max((p for p, f in zip(perf, families) if f == "tiled"), default=0.0)
        native = max((p for p, f in zip(perf, families) if f in NATIVE), default=0.0)
        if native > (1 + margin) * tiled:
            best = max((c for c, f in zip(table.configs, families) if f in NATIVE), key=lambda c: perf[table.configs.index(c)])
            rows.append({"m": shape.m, "n": shape.n, "k": shape.k, "batch": shape.batch, "trans_a": shape.trans_a,
                         "trans_b": shape.trans_b, "native": best, "native_gflops": round(native, 1),
                         "tiled_gflops": round(tiled, 1), "tiled_over_native": round(tiled / native, 3),
                         "reason": reason(shape.m, shape.n, shape.k, shape.batch)})
    return sorted(rows, key=lambda r: r["tiled_over_native"])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dataset")
    p.add_argument("--margin", type=float, default=0.02, help="a native family wins by more than this fraction")
    p.add_argument("--out", type=Path, help="CSV to write (default: standard output)")
    args = p.parse_args(argv)
    rows = twin_wins(args.dataset, args.margin)
    out = args.out.open("w", newline="") if args.out else sys.stdout
    w = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["m"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)


if __name__ == "__main__":
    main()
