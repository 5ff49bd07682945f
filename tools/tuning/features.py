"""Shape features for the runtime classifiers — the single source of their definitions.

Each feature is defined once, as a pair: a numpy computation over the columns of a shape table (used to train
and evaluate the classifiers) and the equivalent C++ expression over the op's problem `p` (PROBLEM_TYPES: a
`portkern::deploy::Problem` for GEMM, a `ConvProblem` for conv2d; emitted by codegen.py into the deployment
header). Both perform the same double-precision operations in the same order, so a generated decision tree
sees exactly the values sklearn was trained on.

GEMM: log2-scaled sizes (m, n, k, batch), their products (areas, volume, the outputs of the whole batch — how
many blocks a GPU has to spread over its multiprocessors —, total work) and their ratios, plus the two
transpose flags.
conv2d: log2-scaled batch, channels and output area; the convolution as a GEMM (m = batch * out_h * out_w
output pixels, n = out_c, k = in_c * window area: what im2col, gemm_1x1 and Winograd's batched GEMMs run),
its work, its filter size and ratios; the window and stride themselves; and whether gemm_1x1 (1x1, stride 1,
no padding) and Winograd (3x3, stride 1) apply, so that a tree spends one test, not several, on what the
library knows for certain.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np


@dataclass(frozen=True)
class Feature:
    """One feature: `compute(cols)` over the op's shape columns (SHAPE_COLUMNS, as float64 arrays) and `cpp`, a
    C++ expression of type double over the op's `const Problem& p`."""
    compute: Callable[[Mapping[str, np.ndarray]], np.ndarray]
    cpp: str


def _d(name: str) -> str:
    return f"double(p.{name})"


GEMM_FEATURES: dict[str, Feature] = {
    "log2_m": Feature(lambda c: np.log2(c["m"]), f"std::log2({_d('m')})"),
    "log2_n": Feature(lambda c: np.log2(c["n"]), f"std::log2({_d('n')})"),
    "log2_k": Feature(lambda c: np.log2(c["k"]), f"std::log2({_d('k')})"),
    "log2_batch": Feature(lambda c: np.log2(c["batch"]), f"std::log2({_d('batch')})"),
    "log2_mn": Feature(lambda c: np.log2(c["m"] * c["n"]), f"std::log2({_d('m')} * {_d('n')})"),
    "log2_mk": Feature(lambda c: np.log2(c["m"] * c["k"]), f"std::log2({_d('m')} * {_d('k')})"),
    "log2_nk": Feature(lambda c: np.log2(c["n"] * c["k"]), f"std::log2({_d('n')} * {_d('k')})"),
    "log2_mnk": Feature(lambda c: np.log2(c["m"] * c["n"] * c["k"]),
                        f"std::log2({_d('m')} * {_d('n')} * {_d('k')})"),
    "log2_outputs": Feature(lambda c: np.log2(c["m"] * c["n"] * c["batch"]),
                            f"std::log2({_d('m')} * {_d('n')} * {_d('batch')})"),
    "log2_work": Feature(lambda c: np.log2(c["m"] * c["n"] * c["k"] * c["batch"]),
                         f"std::log2({_d('m')} * {_d('n')} * {_d('k')} * {_d('batch')})"),
    "log2_m_over_n": Feature(lambda c: np.log2(c["m"] / c["n"]), f"std::log2({_d('m')} / {_d('n')})"),
    "log2_m_over_k": Feature(lambda c: np.log2(c["m"] / c["k"]), f"std::log2({_d('m')} / {_d('k')})"),
    "log2_n_over_k": Feature(lambda c: np.log2(c["n"] / c["k"]), f"std::log2({_d('n')} / {_d('k')})"),
    "trans_a": Feature(lambda c: c["trans_a"] * 1.0, "(p.trans_a ? 1.0 : 0.0)"),
    "trans_b": Feature(lambda c: c["trans_b"] * 1.0, "(p.trans_b ? 1.0 : 0.0)"),
}


def _prod(*names: str) -> str:
    return " * ".join(_d(n) for n in names)


_M, _K, _WORK = ("batch", "out_h", "out_w"), ("in_c", "window_h", "window_w"), \
    ("batch", "out_h", "out_w", "out_c", "in_c", "window_h", "window_w")

CONV2D_FEATURES: dict[str, Feature] = {
    "log2_batch": Feature(lambda c: np.log2(c["batch"]), f"std::log2({_d('batch')})"),
    "log2_in_c": Feature(lambda c: np.log2(c["in_c"]), f"std::log2({_d('in_c')})"),
    "log2_out_c": Feature(lambda c: np.log2(c["out_c"]), f"std::log2({_d('out_c')})"),
    "log2_out_area": Feature(lambda c: np.log2(c["out_h"] * c["out_w"]), f"std::log2({_prod('out_h', 'out_w')})"),
    "log2_gemm_m": Feature(lambda c: np.log2(c["batch"] * c["out_h"] * c["out_w"]), f"std::log2({_prod(*_M)})"),
    "log2_gemm_k": Feature(lambda c: np.log2(c["in_c"] * c["window_h"] * c["window_w"]), f"std::log2({_prod(*_K)})"),
    "log2_work": Feature(lambda c: np.log2(c["batch"] * c["out_h"] * c["out_w"] * c["out_c"] * c["in_c"]
                                           * c["window_h"] * c["window_w"]), f"std::log2({_prod(*_WORK)})"),
    "log2_filter": Feature(lambda c: np.log2(c["in_c"] * c["window_h"] * c["window_w"] * c["out_c"]),
                           f"std::log2({_prod(*_K, 'out_c')})"),
    "log2_in_c_over_out_c": Feature(lambda c: np.log2(c["in_c"] / c["out_c"]),
                                    f"std::log2({_d('in_c')} / {_d('out_c')})"),
    "log2_m_over_n": Feature(lambda c: np.log2(c["batch"] * c["out_h"] * c["out_w"] / c["out_c"]),
                             f"std::log2({_prod(*_M)} / {_d('out_c')})"),
    "log2_m_over_k": Feature(lambda c: np.log2(c["batch"] * c["out_h"] * c["out_w"]
                                               / (c["in_c"] * c["window_h"] * c["window_w"])),
                             f"std::log2({_prod(*_M)} / ({_prod(*_K)}))"),
    "window_h": Feature(lambda c: c["window_h"] * 1.0, _d("window_h")),
    "window_w": Feature(lambda c: c["window_w"] * 1.0, _d("window_w")),
    "stride_h": Feature(lambda c: c["stride_h"] * 1.0, _d("stride_h")),
    "stride_w": Feature(lambda c: c["stride_w"] * 1.0, _d("stride_w")),
    "gemm_1x1_applies": Feature(lambda c: ((c["window_h"] == 1) & (c["window_w"] == 1) & (c["stride_h"] == 1)
                                           & (c["stride_w"] == 1) & (c["pad_h"] == 0) & (c["pad_w"] == 0)) * 1.0,
                                "(p.window_h == 1 && p.window_w == 1 && p.stride_h == 1 && p.stride_w == 1 && "
                                "p.pad_h == 0 && p.pad_w == 0 ? 1.0 : 0.0)"),
    "winograd_applies": Feature(lambda c: ((c["window_h"] == 3) & (c["window_w"] == 3) & (c["stride_h"] == 1)
                                           & (c["stride_w"] == 1)) * 1.0,
                                "(p.window_h == 3 && p.window_w == 3 && p.stride_h == 1 && p.stride_w == 1 ? 1.0 : 0.0)"),
}

OP_FEATURES: dict[str, dict[str, Feature]] = {"gemm": GEMM_FEATURES, "conv2d": CONV2D_FEATURES}
PROBLEM_TYPES: dict[str, str] = {"gemm": "Problem", "conv2d": "ConvProblem"}
# The columns that describe a shape of each op in a dataset (dataset.py reads them).
SHAPE_COLUMNS: dict[str, tuple[str, ...]] = {
    "gemm": ("m", "n", "k", "batch", "trans_a", "trans_b"),
    "conv2d": ("batch", "in_h", "in_w", "in_c", "out_h", "out_w", "out_c", "window_h", "window_w", "stride_h",
               "stride_w", "pad_h", "pad_w"),
}
FEATURES = GEMM_FEATURES

FEATURE_NAMES: tuple[str, ...] = tuple(GEMM_FEATURES)


def feature_names(op: str = "gemm") -> tuple[str, ...]:
    """Every feature of `op`, in their defined order."""
    return tuple(OP_FEATURES[op])


def columns(shapes, op: str = "gemm") -> dict[str, np.ndarray]:
    """The raw shape columns of a table (DataFrame or mapping) as float64 arrays."""
    return {key: np.asarray(shapes[key], dtype=np.float64) for key in SHAPE_COLUMNS[op]}


def feature_matrix(shapes, names: tuple[str, ...] | None = None, op: str = "gemm") -> np.ndarray:
    """Features `names` (default: all of the op's) of every shape (rows) as a float64 matrix."""
    cols, table = columns(shapes, op), OP_FEATURES[op]
    return np.column_stack([table[name].compute(cols) for name in names or feature_names(op)]).astype(np.float64)


def cpp_definition(name: str, op: str = "gemm") -> str:
    """The C++ statement defining feature `name` from `p`, e.g. `const double log2_m = std::log2(double(p.m));`."""
    return f"const double {name} = {OP_FEATURES[op][name].cpp};"
