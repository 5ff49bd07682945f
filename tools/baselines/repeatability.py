#!/usr/bin/env python3
"""Do the ratios repeat? Compares several runs of the same `portkern bench ... --json` command.

  python3 tools/baselines/repeatability.py RUN1.json RUN2.json RUN3.json [--tolerance 0.10]

Rows are matched by their shape (GEMM: m, n, k, batch, transposes; conv2d: layer and batch). For each row it
prints the ratio of every run, their median, and the largest deviation from that median. Exit status 1 when a
row's ratio in some run is more than --tolerance (10%) from the median of the runs, or below 0.5 in one run
while above 0.9 in another: a benchmark whose ratios move like that cannot judge a change.
"""
import argparse
import json
import statistics
import sys

from bench_rows import key, label   # this folder


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", help="JSON files of identical benchmark commands")
    parser.add_argument("--tolerance", type=float, default=0.10)
    args = parser.parse_args()
    runs = [{key(r): r for r in json.load(open(path))["rows"]} for path in args.runs]
    failures = 0
    print(f"{'row':36} " + " ".join(f"{'run ' + str(i + 1):>7}" for i in range(len(runs))) +
          f" {'median':>7} {'max dev':>8}")
    for k in runs[0]:
        ratios = [run[k]["ratio"] if k in run and run[k].get("ratio") else float("nan") for run in runs]
        if any(r != r for r in ratios):
            print(f"{label(k)[:36]:36} missing or without a vendor in some run")
            failures += 1
            continue
        median = statistics.median(ratios)
        deviation = max(abs(r - median) / median for r in ratios)
        collapsed = min(ratios) < 0.5 and max(ratios) > 0.9
        bad = deviation > args.tolerance or collapsed
        failures += bad
        print(f"{label(k)[:36]:36} " + " ".join(f"{r:7.3f}" for r in ratios) + f" {median:7.3f} {deviation:8.1%}" +
              ("  FAIL" if bad else ""))
    print(f"{len(runs[0])} rows, {len(runs)} runs: {failures} rows outside {args.tolerance:.0%} of their median")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
