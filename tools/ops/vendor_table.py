#!/usr/bin/env python3
"""Several runs of `portkern bench ops --json` (CPU, with the oneDNN column) as one markdown table.

    python3 tools/ops/vendor_table.py RUN1.json RUN2.json [RUN3.json ...]

For every row that has a vendor time: portkern's best (lowest) time over the runs, its best fraction of the
copy bandwidth, oneDNN's best time and implementation, their ratio (oneDNN / portkern: above 1 portkern is
faster) with the lowest and highest ratio of the single runs, and whether the row was ok in every run. Then
the memory-bound rows against the copy bandwidth: their median, and those below 70 % (issue 14's targets).
Runs are matched by (op, variant); a run that lacks a row (an operator left out for memory) is skipped for it.
"""
import json
import statistics
import sys


def main(paths):
    runs = [{(r["op"], r["variant"]): r for r in json.load(open(p))["rows"]} for p in paths]
    keys = list(runs[0])
    for run in runs[1:]:
        keys += [k for k in run if k not in keys]
    print("| operator | variant | portkern ms | % of copy | oneDNN ms | oneDNN impl | oneDNN / portkern (spread) | ok |")
    print("|---|---|---|---|---|---|---|---|")
    memory_bound = []
    for key in keys:
        rows = [run[key] for run in runs if key in run]
        best = min(r["time_ms"] for r in rows)
        fraction = max(r["fraction_of_copy"] or 0 for r in rows)
        if not rows[0]["compute_bound"]:
            memory_bound.append((fraction, key))
        vendor = [r["vendor_time_ms"] for r in rows if r.get("vendor_time_ms")]
        if not vendor:
            continue
        ratios = [r["portable_vs_vendor"] for r in rows if r.get("portable_vs_vendor")]
        ok = "yes" if all(r["ok"] for r in rows) else "NO"
        variant = key[1].replace("|", "/")
        print(f"| {key[0]} | {variant} | {best:.3g} | {fraction * 100:.0f} % | {min(vendor):.3g} | "
              f"`{rows[0]['vendor_impl']}` | {min(vendor) / best:.3f} ({min(ratios):.2f}-{max(ratios):.2f}) | {ok} |")
    fractions = sorted(f for f, _ in memory_bound)
    print()
    print(f"memory-bound rows {len(fractions)}: median {statistics.median(fractions) * 100:.0f} % of copy; "
          f"below 70 %: {sum(f < 0.7 for f in fractions)}; below 30 %: {sum(f < 0.3 for f in fractions)}")
    for fraction, key in sorted(memory_bound):
        if fraction < 0.7:
            print(f"  {key[0]} {key[1]}: {fraction * 100:.0f} %")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
