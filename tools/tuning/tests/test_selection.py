import numpy as np
import pytest

import classify
import dataset
import evaluate
import normalise
import selection
from features import feature_matrix


@pytest.fixture(scope="module")
def data(dataset_csv):
    t = dataset.load([dataset_csv])
    return t, feature_matrix(t.shapes), evaluate.split(t.n_shapes, 0.25, 0)


@pytest.mark.parametrize("norm", ["standard", "standard_cutoff"])
@pytest.mark.parametrize("method", selection.method_names())
def test_every_method_returns_n_distinct_configs(data, method, norm):
    t, feats, sp = data
    x = normalise.NORMALISATIONS[norm](t.perf[sp.train])
    for n in (4, 7):
        sel = selection.select(method, x, t.perf[sp.train], feats[sp.train], n, seed=0)
        assert len(sel) == n and len(set(sel)) == n
        assert all(isinstance(c, int) and 0 <= c < t.n_configs for c in sel)
        assert sel == selection.select(method, x, t.perf[sp.train], feats[sp.train], n, seed=0)  # deterministic


def test_top_n_takes_most_often_best():
    perf = np.array([[1.0, 2.0, 3.0], [1.0, 5.0, 3.0], [0.0, 9.0, 1.0], [4.0, 1.0, 2.0]])
    assert selection.top_n(perf, 1) == [1]
    assert selection.top_n(perf, 2) == [1, 2]  # tie 0 vs 2 (once each): better mean wins


def test_cluster_representatives():
    x = np.array([[1.0, 0.5, 0.0], [0.9, 0.6, 0.0], [0.0, 0.2, 1.0]])
    picked = selection.pick_from_clusters(x, selection.Clusters(np.array([0, 0, 1])), 2, "geomean")
    assert picked == [0, 2]
    # a cluster whose best is taken moves on to its next best
    picked = selection.pick_from_clusters(x, selection.Clusters(np.array([0, 1, -1])), 2, "centroid")
    assert picked == [0, 1]


@pytest.mark.parametrize("name", classify.CLASSIFIERS)
def test_every_classifier_runs_and_scores_within_the_oracle(data, name):
    t, feats, sp = data
    x = normalise.standard(t.perf[sp.train])
    sel = selection.select("kmeans/centroid", x, t.perf[sp.train], feats[sp.train], 6)
    model = classify.fit(name, feats[sp.train], t.perf[sp.train][:, sel], seed=0)
    pred = model.predict(feats[sp.test])
    assert pred.shape == (len(sp.test),) and set(pred) <= set(range(6))
    chosen = evaluate.choice_score(t.perf[sp.test], np.asarray(sel)[pred])
    oracle = evaluate.oracle_score(t.perf[sp.test], sel)
    assert 0 < chosen <= oracle + 1e-12 <= 1 + 1e-12


def test_single_label_training_data():
    feats = np.arange(12.0).reshape(6, 2)
    for name in classify.CLASSIFIERS:
        assert classify.fit(name, feats, np.zeros(6, dtype=int)).predict(feats).tolist() == [0] * 6


def test_evaluation_bounds(data):
    t, _, sp = data
    perf = t.perf[sp.test]
    best = perf.argmax(axis=1)
    assert evaluate.choice_score(perf, best) == pytest.approx(1.0)
    assert evaluate.oracle_score(perf, list(range(t.n_configs))) == pytest.approx(1.0)
    assert evaluate.oracle_score(perf, [0, 1]) >= evaluate.oracle_score(perf, [0])
    assert evaluate.choice_score(np.array([[0.0, 2.0]]), np.array([0])) == pytest.approx(evaluate.SCORE_FLOOR)
    assert evaluate.failures(np.array([[0.0, 2.0]]), np.array([0])) == 1
