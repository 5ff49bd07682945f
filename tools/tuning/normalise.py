"""Normalisations of a performance matrix (shapes x configurations, GFLOP/s; 0 = failed), as in seed 001 §3.4.

All four map each shape's row to [0, 1] relative to that shape's best configuration:
  standard         x / max(row)
  raw_cutoff       standard, values below 0.9 set to 0 (kept values stay in [0.9, 1])
  standard_cutoff  raw_cutoff rescaled so the kept range [0.9, 1] fills [0, 1]: (s - 0.9) / 0.1, below 0.9 -> 0
  sigmoid          1 / (1 + exp(50 (0.85 - s))) of the standard value s (0.85 -> 0.5, < 0.8 -> < 0.1)
"""
from __future__ import annotations

import numpy as np

CUTOFF = 0.9
SIGMOID_CENTRE = 0.85
SIGMOID_SLOPE = 50.0


def standard(perf: np.ndarray) -> np.ndarray:
    """Each row divided by its maximum; rows whose maximum is 0 (every configuration failed) become all 0."""
    perf = np.asarray(perf, dtype=np.float64)
    best = perf.max(axis=1, keepdims=True)
    return np.divide(perf, best, out=np.zeros_like(perf), where=best > 0)


def raw_cutoff(perf: np.ndarray, cutoff: float = CUTOFF) -> np.ndarray:
    """Standard normalisation with everything under `cutoff` of the row's best clamped to 0."""
    s = standard(perf)
    return np.where(s >= cutoff, s, 0.0)


def standard_cutoff(perf: np.ndarray, cutoff: float = CUTOFF) -> np.ndarray:
    """Raw cutoff, then the surviving range [cutoff, 1] linearly rescaled onto [0, 1]."""
    s = standard(perf)
    return np.where(s >= cutoff, (s - cutoff) / (1.0 - cutoff), 0.0)


def sigmoid(perf: np.ndarray, centre: float = SIGMOID_CENTRE, slope: float = SIGMOID_SLOPE) -> np.ndarray:
    """The logistic 1 / (1 + exp(slope (centre - s))) of the standard-normalised values s."""
    s = standard(perf)
    return 1.0 / (1.0 + np.exp(slope * (centre - s)))


NORMALISATIONS = {
    "standard": standard,
    "raw_cutoff": raw_cutoff,
    "standard_cutoff": standard_cutoff,
    "sigmoid": sigmoid,
}
