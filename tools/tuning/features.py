"""Shape features for the runtime classifiers — the single source of their definitions.

Each feature is defined once, as a pair: a numpy computation over the columns of a shape table (used to train
and evaluate the classifiers) and the equivalent C++ expression over a `portkern::deploy::Problem p` (emitted
by codegen.py into the deployment header). Both perform the same double-precision operations in the same order,
so a generated decision tree sees exactly the values sklearn was trained on.

Features are log2-scaled sizes (m, n, k, batch), their products (areas, volume, total work) and their ratios,
plus the two transpose flags.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np


@dataclass(frozen=True)
class Feature:
    """One feature: `compute(cols)` with cols = {"m","n","k","batch","trans_a","trans_b"} -> float64 arrays,
    and `cpp`, a C++ expression of type double over `const Problem& p`."""
    compute: Callable[[Mapping[str, np.ndarray]], np.ndarray]
    cpp: str


def _d(name: str) -> str:
    return f"double(p.{name})"


FEATURES: dict[str, Feature] = {
    "log2_m": Feature(lambda c: np.log2(c["m"]), f"std::log2({_d('m')})"),
    "log2_n": Feature(lambda c: np.log2(c["n"]), f"std::log2({_d('n')})"),
    "log2_k": Feature(lambda c: np.log2(c["k"]), f"std::log2({_d('k')})"),
    "log2_batch": Feature(lambda c: np.log2(c["batch"]), f"std::log2({_d('batch')})"),
    "log2_mn": Feature(lambda c: np.log2(c["m"] * c["n"]), f"std::log2({_d('m')} * {_d('n')})"),
    "log2_mk": Feature(lambda c: np.log2(c["m"] * c["k"]), f"std::log2({_d('m')} * {_d('k')})"),
    "log2_nk": Feature(lambda c: np.log2(c["n"] * c["k"]), f"std::log2({_d('n')} * {_d('k')})"),
    "log2_mnk": Feature(lambda c: np.log2(c["m"] * c["n"] * c["k"]),
                        f"std::log2({_d('m')} * {_d('n')} * {_d('k')})"),
    "log2_work": Feature(lambda c: np.log2(c["m"] * c["n"] * c["k"] * c["batch"]),
                         f"std::log2({_d('m')} * {_d('n')} * {_d('k')} * {_d('batch')})"),
    "log2_m_over_n": Feature(lambda c: np.log2(c["m"] / c["n"]), f"std::log2({_d('m')} / {_d('n')})"),
    "log2_m_over_k": Feature(lambda c: np.log2(c["m"] / c["k"]), f"std::log2({_d('m')} / {_d('k')})"),
    "log2_n_over_k": Feature(lambda c: np.log2(c["n"] / c["k"]), f"std::log2({_d('n')} / {_d('k')})"),
    "trans_a": Feature(lambda c: c["trans_a"] * 1.0, "(p.trans_a ? 1.0 : 0.0)"),
    "trans_b": Feature(lambda c: c["trans_b"] * 1.0, "(p.trans_b ? 1.0 : 0.0)"),
}

FEATURE_NAMES: tuple[str, ...] = tuple(FEATURES)


def columns(shapes) -> dict[str, np.ndarray]:
    """The raw shape columns of a table (DataFrame or mapping) as float64 arrays."""
    return {key: np.asarray(shapes[key], dtype=np.float64) for key in ("m", "n", "k", "batch", "trans_a", "trans_b")}


def feature_matrix(shapes, names: tuple[str, ...] = FEATURE_NAMES) -> np.ndarray:
    """Features `names` of every shape (rows) as a float64 matrix (n_shapes x len(names))."""
    cols = columns(shapes)
    return np.column_stack([FEATURES[name].compute(cols) for name in names]).astype(np.float64)


def cpp_definition(name: str) -> str:
    """The C++ statement defining feature `name` from `p`, e.g. `const double log2_m = std::log2(double(p.m));`."""
    return f"const double {name} = {FEATURES[name].cpp};"
