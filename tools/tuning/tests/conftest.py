"""Shared fixtures: the pipeline's modules on sys.path and a small deterministic synthetic dataset."""
from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

import pytest

TUNING = Path(__file__).resolve().parents[1]
ROOT = TUNING.parents[1]
sys.path.insert(0, str(TUNING))

import synthetic  # noqa: E402


def synthetic_shapes(count: int = 60, seed: int = 1) -> list[tuple[int, int, int, int]]:
    """`count` distinct (m, n, k, batch) GEMM shapes, from square to tall-skinny, some batched."""
    rng = random.Random(seed)
    shapes: list[tuple[int, int, int, int]] = []
    while len(shapes) < count:
        m = rng.choice([1, 16, 49, 196, 784, 3136, 12544]) * rng.choice([1, 1, 2])
        n = rng.choice([16, 32, 64, 128, 256, 512, 1000, 2048])
        k = rng.choice([3, 27, 64, 147, 256, 576, 1152, 4608])
        batch = rng.choice([1, 1, 16, 36])
        if (m, n, k, batch) not in shapes:
            shapes.append((m, n, k, batch))
    return shapes


@pytest.fixture(scope="session")
def dataset_csv(tmp_path_factory) -> Path:
    """~60 shapes x 40 configurations of the synthetic model (with failures), plus a duplicated measurement
    (lower: must be ignored), and one shape on which everything failed (must be dropped)."""
    path = tmp_path_factory.mktemp("data") / "synthetic.csv"
    rows = synthetic.rows(synthetic_shapes(), n_configs=40, device="test-device")
    dup = list(rows[0])
    dup[10] = dup[10] / 2.0
    rows.append(dup)
    for cfg in synthetic.configs(40):
        rows.append(["test-device", "gemm", "tiled", synthetic.config_name(cfg), 7, 7, 7, 1, 0, 0, 0.0, 0.0, 0])
    synthetic.write(path, rows)
    return path


@pytest.fixture(scope="session")
def two_family_csv(tmp_path_factory, dataset_csv) -> Path:
    """The synthetic dataset plus a one-configuration family that is fast on large, unbatched problems and
    fails on transposed ones (there are none) — to exercise the family tree."""
    path = tmp_path_factory.mktemp("data2") / "two_families.csv"
    with open(dataset_csv) as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    extra = []
    for m, n, k, batch in synthetic_shapes():
        g = 900.0 if m * n * k >= 2 ** 24 and batch == 1 else 5.0
        extra.append(["test-device", "gemm", "cpu_packed", "cpu_packed/default", m, n, k, batch, 0, 0, g,
                      2.0 * m * n * k * batch / (g * 1e6), 10])
    synthetic.write(path, body + extra)
    assert header == synthetic.HEADER
    return path
