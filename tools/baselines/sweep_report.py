#!/usr/bin/env python3
"""How close a library's own choice comes to the best configuration it could have run, from a sweep: one run of a
`portkern bench ... --json` command per forced configuration (e.g. PORTKERN_WGMMA_KERNEL=W PORTKERN_WGMMA_SPLITS=S,
scripts/gpu-check.sh's `sweep` part) and one run of the same shapes as the library chooses.

  python3 tools/baselines/sweep_report.py CHOSEN.json SWEEP.json [SWEEP.json ...]

Prints, per shape, the chosen configuration and its time, the fastest configuration of the sweep and its time;
then the geomean ratio to the vendor of the choice and of the sweep's best (each row's vendor figure from its own
run), and the geomean and maximum of chosen time over best time. Times are per call, from the rows' FLOP count
and GFLOP/s. Rows are matched by shape; a shape missing from the chosen run is left out and makes the exit status
1.
"""
import argparse
import json
import sys

from bench_rows import geomean, key, label   # this folder


def microseconds(row):
    """One call's time: 2 m n k batch operations at the row's GFLOP/s."""
    return 2.0 * row["m"] * row["n"] * row["k"] * row["batch"] / row["gflops"] / 1e3


def report(chosen, sweeps):
    """Lines of the report and the number of swept shapes the chosen run lacks."""
    best = {}   # shape -> the sweep's fastest row
    for rows in sweeps:
        for k, row in rows.items():
            if k not in best or microseconds(row) < microseconds(best[k]):
                best[k] = row
    lines, missing, over, chosen_ratios, best_ratios = [], 0, [], [], []
    for k in sorted(best):
        if k not in chosen:
            lines.append(f"{label(k)}: not in the chosen run")
            missing += 1
            continue
        c, b = chosen[k], best[k]
        # The choice can beat every forced configuration (one the sweep left out): the best is then the choice.
        t_chosen, t_best = microseconds(c), min(microseconds(b), microseconds(c))
        over.append(t_chosen / t_best)
        chosen_ratios.append(c.get("ratio"))
        best_ratios.append(c.get("ratio") if t_best == t_chosen else b.get("ratio"))
        lines.append(f"{t_chosen / t_best:5.2f}  {label(k)}: chose {c['config']} {t_chosen:.1f} us, "
                     f"best {b['config']} {microseconds(b):.1f} us")
    lines.append(f"{len(over)} shapes: chosen / best time geomean {geomean(over):.3f} (max {max(over, default=0):.2f}); "
                 f"ratio to the vendor: chosen {geomean(chosen_ratios):.3f}, best of the sweep {geomean(best_ratios):.3f}")
    return lines, missing


def load(path):
    return {key(r): r for r in json.load(open(path))["rows"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chosen", help="the run of the library's own choices")
    parser.add_argument("sweeps", nargs="+", help="one run per forced configuration")
    args = parser.parse_args()
    lines, missing = report(load(args.chosen), [load(p) for p in args.sweeps])
    print("\n".join(lines))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
