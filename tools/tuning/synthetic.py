"""A made-up, deterministic GEMM performance model producing datasets in the benchmark CSV format.

It exists to exercise the analysis pipeline (tests, demos) without a benchmark run; its numbers mean nothing
about any real device. Configurations mimic seed 001's tiled kernel: row/acc/col tile sizes r, a, c in
{1, 2, 4, 8} and a work-group shape. The model rewards
  - large register tiles (data reuse), until the tile needs more registers than the "device" has (spills),
  - enough work-items to fill the device (small problems want small tiles / many threads),
  - little wasted work in partial tiles and partial work-groups,
  - an accumulation depth a that divides k,
and multiplies by a deterministic pseudo-random factor per (shape, config). Some configurations fail: those
whose work-group would need too many registers, plus a few pseudo-random failures.

`python3 tools/tuning/synthetic.py --shapes data/shapes/gemm_nets.csv --out synthetic.csv` writes a dataset.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import math
from pathlib import Path

TILES = (1, 2, 4, 8)
WORK_GROUPS = ((1, 64), (1, 128), (8, 8), (8, 16), (8, 32), (16, 8), (16, 16), (32, 8), (64, 1), (128, 1))
HEADER = ["device", "op", "family", "config", "m", "n", "k", "batch", "trans_a", "trans_b", "gflops", "time_ms",
          "reps"]


def configs(limit: int | None = None) -> list[tuple[int, int, int, int, int]]:
    """(r, a, c, wg_rows, wg_cols) configurations; `limit` takes an evenly spread deterministic subset."""
    every = [(r, a, c, w0, w1) for r, a, c in itertools.product(TILES, TILES, TILES) for w0, w1 in WORK_GROUPS]
    if limit is None or limit >= len(every):
        return every
    step = len(every) / limit
    return [every[int(i * step + step / 2) % len(every)] for i in range(limit)]


def config_name(cfg: tuple[int, int, int, int, int]) -> str:
    r, a, c, w0, w1 = cfg
    return f"tiled/r{r}_a{a}_c{c}_wg{w0}x{w1}"


def _unit(*key) -> float:
    """A deterministic pseudo-random number in [0, 1) from `key`."""
    digest = hashlib.sha256(repr(key).encode()).digest()
    return int.from_bytes(digest[:8], "little") / 2.0 ** 64


def gflops(shape: tuple[int, int, int, int], cfg: tuple[int, int, int, int, int], peak: float = 1000.0,
           units: int = 4096, registers: int = 96, fail_rate: float = 0.005) -> float:
    """Modelled GFLOP/s of configuration `cfg` on GEMM `shape` = (m, n, k, batch); 0 when it "fails"."""
    m, n, k, batch = shape
    r, a, c, w0, w1 = cfg
    wg = w0 * w1
    regs = r * c + a * (r + c)
    if regs * wg > registers * 64 or _unit("fail", shape, cfg) < fail_rate:
        return 0.0
    reuse = (2.0 * r * c / (r + c)) / 4.0  # 1.0 for 8x8... 0.125 for 1x1
    spill = 1.0 if regs <= registers else (registers / regs) ** 2
    items = math.ceil(m / r) * math.ceil(n / c) * batch
    occupancy = min(1.0, items / units) ** 0.7
    waste = (m / (math.ceil(m / r) * r)) * (n / (math.ceil(n / c) * c))
    groups = math.ceil(math.ceil(m / r) / w0) * w0 * math.ceil(math.ceil(n / c) / w1) * w1
    wg_fill = math.ceil(m / r) * math.ceil(n / c) / groups
    depth = 1.0 if k % a == 0 else 0.7
    shape_fit = 1.0 - 0.3 * abs(math.log2(w0 / w1) - math.log2(max(m, 1) / max(n, 1)) / 4) / 7
    short_k = min(1.0, k / 64) ** 0.3
    noise = 0.85 + 0.3 * _unit("noise", shape, cfg)
    value = peak * min(1.0, 0.15 + reuse) * spill * occupancy * waste * wg_fill * depth * shape_fit * short_k
    return max(value * noise, 1e-3)


def rows(shapes: list[tuple[int, int, int, int]], n_configs: int | None = None, device: str = "synthetic-device",
         **model) -> list[list]:
    """Dataset rows (see HEADER) for every shape x configuration."""
    out = []
    for shape in shapes:
        m, n, k, batch = shape
        for cfg in configs(n_configs):
            g = gflops(shape, cfg, **model)
            ms = 2.0 * m * n * k * batch / (g * 1e6) if g > 0 else 0.0
            out.append([device, "gemm", "tiled", config_name(cfg), m, n, k, batch, 0, 0, round(g, 4),
                        round(ms, 6), 10 if g > 0 else 0])
    return out


def write(path: str | Path, data: list[list]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        w.writerows(data)


def read_shapes(path: str | Path) -> list[tuple[int, int, int, int]]:
    """(m, n, k, batch) of a shape list CSV with columns m, k, n, batch (e.g. data/shapes/gemm_nets.csv)."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    return [(int(r["m"]), int(r["n"]), int(r["k"]), int(r["batch"])) for r in csv.DictReader(lines)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", required=True, help="shape list CSV (m,k,n,batch,...)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--configs", type=int, default=None, help="number of configurations (default: all 640)")
    parser.add_argument("--device", default="synthetic-device")
    args = parser.parse_args()
    data = rows(read_shapes(args.shapes), args.configs, args.device)
    write(args.out, data)
    print(f"{args.out}: {len(data)} rows")


if __name__ == "__main__":
    main()
