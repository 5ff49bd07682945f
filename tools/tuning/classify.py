"""Runtime classifiers choosing one of the N deployed configurations from shape features (seed 001 §5).

  DecisionTreeA      unlimited depth, leaves of 1 sample
  DecisionTreeB      max depth 6, >= 3 samples per leaf
  DecisionTreeC      max depth 3, >= 4 samples per leaf
  1/3/7NearestNeighbor, LinearSVM, RadialSVM, MLP
                     on standardised features (Pipeline with StandardScaler): these are distance / margin
                     based, and seed 001's flat RBF-SVM row came from unscaled features
  RandomForest       100 trees
  CostTreeB          cost-sensitive tree (cost_tree.py), max depth 4, >= 4 samples per leaf
  CostTreeC          cost-sensitive tree, max depth 2, >= 4 samples per leaf

Targets (`fit`): per training shape, the speed of each of the N deployed configurations (shapes x N, larger is
better; GFLOP/s or any positive measure), or only the index (0..N-1) of the fastest. The label classifiers learn
the fastest; the cost trees learn what each choice costs (a near miss is cheap, a slow pick is not).
Only depth-limited trees are deployable (they are emitted as C++ by codegen.py): see DEPLOYABLE.
`tree_to_dict` exports a fitted tree in the JSON form codegen.py reads.
"""
from __future__ import annotations

import warnings
import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from cost_tree import CostTree

TREE_SPECS = {
    "DecisionTreeA": {},
    "DecisionTreeB": {"max_depth": 6, "min_samples_leaf": 3},
    "DecisionTreeC": {"max_depth": 3, "min_samples_leaf": 4},
}
COST_TREE_SPECS = {
    "CostTreeB": {"max_depth": 4, "min_samples_leaf": 4},
    "CostTreeC": {"max_depth": 2, "min_samples_leaf": 4},
}
DEPLOYABLE = ("DecisionTreeB", "DecisionTreeC", "CostTreeB", "CostTreeC")


def _scaled(model) -> object:
    return make_pipeline(StandardScaler(), model)


def make(name: str, seed: int = 0, n_train: int | None = None):
    """A fresh, unfitted classifier called `name` (see CLASSIFIERS)."""
    if name in TREE_SPECS:
        return DecisionTreeClassifier(random_state=seed, **TREE_SPECS[name])
    if name in COST_TREE_SPECS:
        return CostTree(**COST_TREE_SPECS[name])
    if name.endswith("NearestNeighbor"):
        k = int(name[: -len("NearestNeighbor")])
        return _scaled(KNeighborsClassifier(n_neighbors=min(k, n_train or k)))
    if name == "LinearSVM":
        return _scaled(SVC(kernel="linear", C=1.0, random_state=seed))
    if name == "RadialSVM":
        return _scaled(SVC(kernel="rbf", C=1.0, gamma="scale", random_state=seed))
    if name == "RandomForest":
        return RandomForestClassifier(n_estimators=100, random_state=seed, n_jobs=1)
    if name == "MLP":
        return _scaled(MLPClassifier(hidden_layer_sizes=(64, 64), max_iter=2000, random_state=seed))
    raise ValueError(f"unknown classifier {name!r}; known: {CLASSIFIERS}")


CLASSIFIERS = ("DecisionTreeA", "DecisionTreeB", "DecisionTreeC", "CostTreeB", "CostTreeC", "1NearestNeighbor",
               "3NearestNeighbor", "7NearestNeighbor", "LinearSVM", "RadialSVM", "RandomForest", "MLP")


def spec(name: str) -> str:
    """Human-readable parameters of a classifier, e.g. "DecisionTreeB (max_depth=6, min_samples_leaf=3)"."""
    params = TREE_SPECS.get(name, COST_TREE_SPECS.get(name))
    if params is None:
        return name
    return f"{name} ({', '.join(f'{k}={v}' for k, v in params.items()) or 'unlimited'})"


def name_of(spec_text: str) -> str:
    """The classifier name a `spec` string starts with ("DecisionTreeB (max_depth=6, ...)" -> "DecisionTreeB")."""
    return spec_text.partition(" ")[0]


class Constant:
    """The classifier used when all training labels agree (SVMs refuse a single class)."""

    def __init__(self, label: int):
        self.label = label

    def predict(self, x: np.ndarray) -> np.ndarray:
        return np.full(len(x), self.label, dtype=int)


def fit(name: str, features: np.ndarray, targets: np.ndarray, seed: int = 0):
    """Fit classifier `name` on features and targets (per shape: the speeds of the N classes, or the index of the
    fastest; module docstring); returns an object with .predict giving class indices."""
    targets = np.asarray(targets)
    if name in COST_TREE_SPECS:
        if targets.ndim == 1:   # only the winners are known: every other class costs the most
            targets = np.eye(int(targets.max()) + 1)[targets]
        return make(name, seed).fit(features, targets)
    labels = targets.argmax(axis=1) if targets.ndim == 2 else targets
    if len(np.unique(labels)) == 1 and name not in TREE_SPECS:
        return Constant(int(labels[0]))
    model = make(name, seed, len(labels))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(features, labels)
    return model


def tree_to_dict(tree: DecisionTreeClassifier | CostTree, feature_names: tuple[str, ...] | list[str]) -> dict:
    """A fitted decision tree (sklearn's or a CostTree) as nested JSON-able dicts: leaves {"leaf": class} (the
    class the tree predicts there), nodes {"feature": name, "threshold": t, "le": subtree, "gt": subtree} (left
    branch when value <= t), plus "features": the feature names the tree uses, in order of first use. A split
    whose two sides predict the same class (sklearn keeps those: they purify the training labels) becomes that
    leaf, so the exported tree predicts exactly what the fitted one does with fewer tests."""
    root = tree.to_dict(feature_names) if isinstance(tree, CostTree) else _sklearn_root(tree, feature_names)
    used: list[str] = []

    def depth(n: dict) -> int:
        if "leaf" in n:
            return 0
        if n["feature"] not in used:
            used.append(n["feature"])
        return 1 + max(depth(n["le"]), depth(n["gt"]))

    d = depth(root)
    return {"features": used, "root": root, "depth": d, "leaves": leaves(root)}


def _sklearn_root(tree: DecisionTreeClassifier, feature_names: tuple[str, ...] | list[str]) -> dict:
    """The root node of a fitted sklearn tree in tree_to_dict's node form."""
    t = tree.tree_

    def node(i: int) -> dict:
        if t.children_left[i] == t.children_right[i]:  # leaf
            return {"leaf": int(tree.classes_[int(np.argmax(t.value[i][0]))])}
        le, gt = node(t.children_left[i]), node(t.children_right[i])
        if "leaf" in le and le == gt:
            return le
        return {"feature": feature_names[t.feature[i]], "threshold": float(t.threshold[i]), "le": le, "gt": gt}

    return node(0)


def leaves(n: dict) -> int:
    """How many leaves an exported (sub)tree has."""
    return 1 if "leaf" in n else leaves(n["le"]) + leaves(n["gt"])


def leaf_values(n: dict) -> set[int]:
    """The classes an exported (sub)tree can predict."""
    return {n["leaf"]} if "leaf" in n else leaf_values(n["le"]) | leaf_values(n["gt"])


def relabel(n: dict, mapping: dict[int, int]) -> dict:
    """An exported (sub)tree with its leaf classes renamed by `mapping`."""
    if "leaf" in n:
        return {"leaf": mapping[n["leaf"]]}
    return {**n, "le": relabel(n["le"], mapping), "gt": relabel(n["gt"], mapping)}


def predict_dict(tree: dict, features: np.ndarray, feature_names: tuple[str, ...] | list[str]) -> np.ndarray:
    """Evaluate an exported tree (tree_to_dict form) on feature rows, in double precision like the C++ code."""
    index = {name: i for i, name in enumerate(feature_names)}
    out = np.empty(len(features), dtype=int)
    for r, row in enumerate(features):
        n = tree["root"]
        while "leaf" not in n:
            n = n["le"] if row[index[n["feature"]]] <= n["threshold"] else n["gt"]
        out[r] = n["leaf"]
    return out

