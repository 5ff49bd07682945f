"""Scoring kernel selections and classifiers on held-out shapes (seed 001 §4.3, §5).

All scores are geometric means over shapes of (GFLOP/s of the configuration used) / (GFLOP/s of the best of
ALL configurations on that shape), i.e. fractions of the optimum in [0, 1]. A configuration that failed on a
shape scores 0 there; values are clipped below at SCORE_FLOOR so that one failure makes the mean small
instead of exactly 0 (failures are also counted separately).

  oracle_score      every shape uses the best of the N selected configurations: the most any runtime
                    classifier could reach with that selection
  choice_score      every shape uses the configuration a classifier chose

Shapes are split into training and held-out shapes either at random (`split`) or by network
(`network_splits`, leave-networks-out: each network's shapes are held out in turn and the selection and
classifier fitted on the other networks' shapes, so that the score says how a deployment does on a network it
never saw).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import train_test_split

SCORE_FLOOR = 1e-3


@dataclass(frozen=True)
class Split:
    """Indices of the training and held-out (test) shapes."""
    train: np.ndarray
    test: np.ndarray


def split(n_shapes: int, test_fraction: float = 0.25, seed: int = 0) -> Split:
    """A fixed-seed random split of shape indices (both parts sorted)."""
    if n_shapes < 4:
        raise ValueError(f"need at least 4 shapes to split, got {n_shapes}")
    train, test = train_test_split(np.arange(n_shapes), test_size=test_fraction, random_state=seed)
    return Split(np.sort(train), np.sort(test))


def network_splits(keys: list[tuple], networks: dict[tuple, set[str]]) -> dict[str, Split]:
    """Leave-networks-out splits of the shapes `keys`, one per network owning at least one of them (sorted by
    name): held out, the network's shapes; training, every other shape. `networks` maps a shape key to the
    networks using it: a shape of several networks is held out with each of them (and so never trained on when
    one of its networks is held out); a shape of no network is always trained on."""
    owners = [networks.get(key, set()) for key in keys]
    splits = {}
    for net in sorted(set().union(*owners)):
        held = np.array([net in o for o in owners])
        splits[net] = Split(np.flatnonzero(~held), np.flatnonzero(held))
    return splits


def relative(perf: np.ndarray) -> np.ndarray:
    """perf / (best of all configurations) per shape."""
    best = perf.max(axis=1, keepdims=True)
    return np.divide(perf, best, out=np.zeros_like(perf, dtype=np.float64), where=best > 0)


def log_relative(perf: np.ndarray) -> np.ndarray:
    """log(relative(perf)), floored at log(SCORE_FLOOR): the terms whose mean over shapes is the log of a score."""
    return np.log(np.maximum(relative(perf), SCORE_FLOOR))


def geomean(values: np.ndarray) -> float:
    """Geometric mean of fractions, clipped below at SCORE_FLOOR."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return float("nan")
    return float(np.exp(np.log(np.maximum(values, SCORE_FLOOR)).mean()))


def oracle_score(perf: np.ndarray, selected: list[int]) -> float:
    """Geomean fraction of the optimum when each shape gets the best of the `selected` configurations."""
    return geomean(relative(perf)[:, selected].max(axis=1))


def choice_fractions(perf: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Per shape, the fraction of the optimum of the configuration chosen (global column index; negative = none
    could run: 0)."""
    rel = relative(perf)
    chosen = np.asarray(chosen, dtype=int)
    return np.where(chosen >= 0, rel[np.arange(len(rel)), np.maximum(chosen, 0)], 0.0)


def choice_score(perf: np.ndarray, chosen: np.ndarray) -> float:
    """Geomean over the shapes of choice_fractions."""
    return geomean(choice_fractions(perf, chosen))


def failures(perf: np.ndarray, chosen: np.ndarray) -> int:
    """How many shapes got a configuration that failed on them."""
    return int((perf[np.arange(len(perf)), np.asarray(chosen, dtype=int)] <= 0).sum())
