#!/usr/bin/env python3
"""What a change did, from two runs of one `portkern bench ... --json` command in the same sitting: one with the
change off (an environment switch, or the build before it) and one with it on.

  python3 tools/baselines/before_after.py BEFORE.json AFTER.json [--all]

Prints each run's geomean ratio to the vendor; the rows whose configuration changed (what the library ran), each
with its speed-up (after's GFLOP/s over before's) and both ratios, slowest first; and the geomean, min and max of
those speed-ups. The ratios compare with the vendor timed in the same run; the speed-ups compare the library's
two runs directly, which holds where the vendor's own timing moved between the runs. --all lists every row.
Rows are matched by shape (GEMM: m, n, k, batch, transposes; conv2d: layer and batch); a row in one run only is
listed and makes the exit status 1.
"""
import argparse
import json
import sys

from bench_rows import geomean, key, label   # this folder


def compare(before, after, every_row=False):
    """Lines of the report and the number of rows present in one run only."""
    lines = [f"before: {len(before)} rows, geomean ratio {geomean([r.get('ratio') for r in before.values()]):.3f}",
             f"after:  {len(after)} rows, geomean ratio {geomean([r.get('ratio') for r in after.values()]):.3f}"]
    unmatched = [k for k in before if k not in after] + [k for k in after if k not in before]
    for k in unmatched:
        lines.append(f"{label(k)}: in one run only")
    rows = []
    for k in before:
        if k not in after:
            continue
        b, a = before[k], after[k]
        if every_row or b["config"] != a["config"]:
            rows.append((a["gflops"] / b["gflops"], k, b, a))
    rows.sort(key=lambda row: row[0])
    what = "rows" if every_row else "rows whose configuration changed"
    if rows:
        speedups = [row[0] for row in rows]
        lines.append(f"{len(rows)} {what}: speed-up geomean {geomean(speedups):.3f} (min {min(speedups):.2f}, "
                     f"max {max(speedups):.2f}); ratio {geomean([r[2].get('ratio') for r in rows]):.3f} -> "
                     f"{geomean([r[3].get('ratio') for r in rows]):.3f}")
    else:
        lines.append(f"no {what}")
    for speedup, k, b, a in rows:
        lines.append(f"  {speedup:5.2f}  {label(k):30} {b['config']} -> {a['config']}  ratio "
                     f"{b.get('ratio', float('nan')):.2f} -> {a.get('ratio', float('nan')):.2f}")
    return lines, len(unmatched)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--all", action="store_true", help="list every row, not only those whose configuration changed")
    args = parser.parse_args()
    runs = [{key(r): r for r in json.load(open(path))["rows"]} for path in (args.before, args.after)]
    lines, unmatched = compare(*runs, every_row=args.all)
    print("\n".join(lines))
    sys.exit(1 if unmatched else 0)


if __name__ == "__main__":
    main()
