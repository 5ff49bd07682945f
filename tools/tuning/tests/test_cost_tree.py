"""The cost-sensitive tree (cost_tree.py) and the greedy coverage selection (selection.greedy)."""
from __future__ import annotations

import numpy as np
import pytest

import classify
import evaluate
import selection
from cost_tree import CostTree


def test_a_leaf_runs_the_class_with_the_best_geomean_not_the_most_wins():
    # class 1 wins 3 of 4 shapes by 1%, and runs the fourth at 10%; class 0 is 99% everywhere
    gains = np.array([[0.99, 1.0], [0.99, 1.0], [0.99, 1.0], [1.0, 0.1]])
    x = np.zeros((4, 1))
    assert CostTree(max_depth=0, min_samples_leaf=1).fit(x, gains).predict(x).tolist() == [0] * 4
    labels = classify.fit("DecisionTreeC", x, gains).predict(x)
    assert labels.tolist() == [1] * 4   # what a label tree does with the same data


def test_splits_where_the_best_class_changes_and_only_there():
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 10, size=(40, 3))
    small = x[:, 1] <= 4.0
    gains = np.where(small[:, None], [1.0, 0.5], [0.6, 1.0]) * rng.uniform(0.97, 1.0, size=(40, 2))
    tree = CostTree(max_depth=3, min_samples_leaf=2).fit(x, gains)
    assert (tree.predict(x) == np.where(small, 0, 1)).all()
    exported = classify.tree_to_dict(tree, ["a", "b", "c"])
    assert exported["features"] == ["b"] and exported["leaves"] == 2   # noise-only splits were not kept
    assert classify.predict_dict(exported, x, ["a", "b", "c"]).tolist() == tree.predict(x).tolist()


def test_min_samples_leaf_and_depth_are_respected():
    x = np.arange(10.0)[:, None]
    gains = np.eye(10)[np.arange(10)] + 1e-3   # every shape wants its own class
    tree = CostTree(max_depth=2, min_samples_leaf=3).fit(x, gains)
    exported = classify.tree_to_dict(tree, ["x"])
    assert exported["depth"] <= 2 and exported["leaves"] <= 3


def test_failed_configurations_cost_much_but_stay_finite():
    gains = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 1.0]])
    cost = np.log(np.maximum(gains / gains.max(axis=1, keepdims=True), 1e-3))
    tree = CostTree(max_depth=0, min_samples_leaf=1).fit(np.zeros((3, 1)), gains)
    assert tree.predict(np.zeros((1, 1)))[0] == int(np.argmax(cost.sum(axis=0)))


def test_labels_only_become_one_hot_gains():
    x = np.arange(8.0)[:, None]   # CostTreeC keeps 4 shapes a leaf
    labels = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    assert classify.fit("CostTreeC", x, labels).predict(x).tolist() == labels.tolist()


def test_bad_arguments():
    with pytest.raises(ValueError):
        CostTree(max_depth=-1, min_samples_leaf=1)
    with pytest.raises(ValueError):
        CostTree(max_depth=2, min_samples_leaf=1).fit(np.zeros((3, 1)), np.ones((2, 2)))
    with pytest.raises(RuntimeError):
        CostTree(max_depth=2, min_samples_leaf=1).predict(np.zeros((1, 1)))


def test_greedy_takes_the_complement_not_the_near_duplicate():
    # configs 0 and 1 are near twins, good on shapes 0-2; config 2 is the only good one on shape 3
    perf = np.array([[100, 99, 20], [100, 99, 20], [100, 99, 20], [10, 10, 100.0]])
    assert selection.greedy(perf, 2) == [0, 2]
    sel = selection.greedy(perf, 3)
    assert sorted(sel) == [0, 1, 2]
    assert evaluate.oracle_score(perf, sel[:2]) == pytest.approx(1.0)


def test_greedy_is_a_selection_method():
    assert "greedy" in selection.method_names()
    perf = np.random.default_rng(0).uniform(1, 2, size=(12, 7))
    sel = selection.select("greedy", perf, perf, np.zeros((12, 1)), 4)
    assert len(set(sel)) == 4 and all(0 <= c < 7 for c in sel)
