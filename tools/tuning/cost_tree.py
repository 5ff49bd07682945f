"""A decision tree fitted to what a wrong choice costs, not to labels.

A classification tree learns, per training shape, the label "which of the N configurations was fastest" and
counts a near miss (a configuration at 99% of the best) as wrong as a disaster (one at 30%). With a few dozen
shapes and configurations within noise of each other, it then spends its splits separating labels that do not
matter, and its leaves may pick a configuration that is fast on most of their shapes and very slow on one.

`CostTree` instead reads each shape's speed of every class (`gains`: shapes x classes, larger is better) and
grows the tree that maximises the deployment's score directly: a leaf runs one class on all its shapes, the one
with the largest sum of log(speed / the shape's best speed) over them (the geomean over shapes that the
evaluation reports), and a split is kept only when the best class of each side raises that sum. Splits are
greedy (depth first) at the midpoints between sorted feature values, with at least `min_samples_leaf` shapes on
each side, up to `max_depth` levels. The terms are evaluate.log_relative's, floored as the evaluation's scores
are, so that a failed configuration is very costly but finite.

The fitted tree exports to the same dict form as classify.tree_to_dict, so codegen.py emits it unchanged.
"""
from __future__ import annotations

import numpy as np

from evaluate import log_relative


class CostTree:
    """Greedy tree over features maximising the summed log relative speed of each leaf's class (module doc)."""

    def __init__(self, max_depth: int, min_samples_leaf: int):
        if max_depth < 0 or min_samples_leaf < 1:
            raise ValueError(f"max_depth must be >= 0 and min_samples_leaf >= 1, got {max_depth}, {min_samples_leaf}")
        self.max_depth, self.min_samples_leaf = max_depth, min_samples_leaf
        self.root: dict | None = None

    def fit(self, features: np.ndarray, gains: np.ndarray) -> "CostTree":
        features, cost = np.asarray(features, dtype=np.float64), log_relative(np.asarray(gains, dtype=np.float64))
        if len(features) != len(cost) or len(features) == 0:
            raise ValueError(f"need one row of gains per feature row, got {len(features)} and {len(cost)}")
        self.root = self._grow(features, cost, np.arange(len(features)), self.max_depth)
        return self

    def _grow(self, x: np.ndarray, cost: np.ndarray, rows: np.ndarray, depth: int) -> dict:
        totals = cost[rows].sum(axis=0)
        leaf = {"leaf": int(np.argmax(totals))}
        if depth == 0 or len(rows) < 2 * self.min_samples_leaf:
            return leaf
        best_value, best_split = float(totals.max()), None
        lo, hi = self.min_samples_leaf, len(rows) - self.min_samples_leaf
        for f in range(x.shape[1]):
            order = rows[np.argsort(x[rows, f], kind="stable")]
            values = x[order, f]
            prefix = np.cumsum(cost[order], axis=0)
            # a split after position i - 1 puts rows order[:i] on the left; only between distinct values
            cut = np.arange(lo, hi + 1)   # hi <= len(rows) - 1: values[cut] exists
            cut = cut[values[cut - 1] < values[cut]]
            if cut.size == 0:
                continue
            left = prefix[cut - 1]
            value = left.max(axis=1) + (prefix[-1] - left).max(axis=1)
            i = int(np.argmax(value))
            if value[i] > best_value + 1e-9:
                best_value, best_split = float(value[i]), (f, 0.5 * (values[cut[i] - 1] + values[cut[i]]))
        if best_split is None:
            return leaf
        f, threshold = best_split
        goes_left = x[rows, f] <= threshold
        return {"feature": f, "threshold": float(threshold),
                "le": self._grow(x, cost, rows[goes_left], depth - 1),
                "gt": self._grow(x, cost, rows[~goes_left], depth - 1)}

    def predict(self, features: np.ndarray) -> np.ndarray:
        if self.root is None:
            raise RuntimeError("CostTree.predict before fit")
        out = np.empty(len(features), dtype=int)
        for r, row in enumerate(np.asarray(features, dtype=np.float64)):
            n = self.root
            while "leaf" not in n:
                n = n["le"] if row[n["feature"]] <= n["threshold"] else n["gt"]
            out[r] = n["leaf"]
        return out

    def to_dict(self, feature_names) -> dict:
        """The tree in classify.tree_to_dict's form (feature indices replaced by names, equal siblings merged)."""
        def named(n: dict) -> dict:
            if "leaf" in n:
                return dict(n)
            le, gt = named(n["le"]), named(n["gt"])
            if "leaf" in le and le == gt:
                return le
            return {"feature": feature_names[n["feature"]], "threshold": n["threshold"], "le": le, "gt": gt}
        return named(self.root)
