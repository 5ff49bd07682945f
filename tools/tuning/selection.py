"""Choosing N configurations to deploy from the training shapes (seed 001 §4).

Every method takes the normalised training matrix X (shapes x configurations, see normalise.py), the raw
GFLOP/s matrix, the shape features and N, and returns N distinct configuration indices.

  top_n          the N configurations that are best (raw GFLOP/s) on the most training shapes — the baseline
  greedy         coverage: add, one at a time, the configuration that most raises the training shapes' geomean
                 of the best selected one (the oracle score the evaluation reports); a shape already served
                 at 99% gains little from a second configuration, one served at 50% gains much
  kmeans         k-means (k = N) on the rows of X
  pca_kmeans     k-means on X projected on the principal components explaining 95% of its variance
  spectral       spectral clustering (nearest-neighbour affinity graph) of the rows of X
  hdbscan        HDBSCAN of the rows of X; it has no cluster count parameter, so min_cluster_size and
                 min_samples are swept and the setting giving N clusters (else the nearest count below N,
                 else above) is used; noise points are ignored
  dtree          a regression tree from the shape features to the rows of X with N leaves; leaves = clusters

Each cluster yields a configuration through its representative, in one of two variants (seed 001 §4.2):
  /centroid  the best configuration of the cluster's centroid (k-means centres mapped back from PCA space;
             for methods that only give labels, the mean of the cluster's rows; for dtree, the leaf value)
  /geomean   the best configuration of the geometric mean of the cluster's rows (values clipped at 1e-3 so
             that a single clamped-to-zero entry does not zero a configuration)

Clusters are visited largest first; when a cluster's best configuration is already taken, its next best
is used, so the N configurations are distinct. When a method gives fewer than N clusters (HDBSCAN), the
remaining places are filled round-robin from the clusters' ranked lists.
"""
from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np
from sklearn.cluster import HDBSCAN, KMeans, SpectralClustering
from sklearn.decomposition import PCA
from sklearn.tree import DecisionTreeRegressor

import evaluate

GEOMEAN_FLOOR = 1e-3
PCA_VARIANCE = 0.95


@dataclass
class Clusters:
    """Rows grouped into clusters: labels (-1 = noise) and optionally one representative vector per label."""
    labels: np.ndarray
    centroids: dict[int, np.ndarray] | None = None


def rank_configs(vector: np.ndarray) -> np.ndarray:
    """Configuration indices, best (largest value) first; ties by index."""
    return np.lexsort((np.arange(len(vector)), -vector))


def geomean_rows(rows: np.ndarray) -> np.ndarray:
    """Column-wise geometric mean of `rows`, with values clipped below at GEOMEAN_FLOOR."""
    return np.exp(np.log(np.maximum(rows, GEOMEAN_FLOOR)).mean(axis=0))


def pick_from_clusters(x: np.ndarray, clusters: Clusters, n: int, representative: str) -> list[int]:
    """N distinct configurations from the clusters' representatives (see the module docstring)."""
    labels = np.asarray(clusters.labels)
    ids = [lab for lab in np.unique(labels) if lab >= 0]
    ids.sort(key=lambda lab: (-int((labels == lab).sum()), lab))
    rankings = []
    for lab in ids:
        members = x[labels == lab]
        if representative == "geomean":
            vec = geomean_rows(members)
        elif clusters.centroids is not None and lab in clusters.centroids:
            vec = clusters.centroids[lab]
        else:
            vec = members.mean(axis=0)
        rankings.append(rank_configs(vec))
    if not rankings:  # everything was noise: treat all rows as one cluster
        rankings.append(rank_configs(geomean_rows(x) if representative == "geomean" else x.mean(axis=0)))
    chosen: list[int] = []
    taken: set[int] = set()
    depth = [0] * len(rankings)
    while len(chosen) < min(n, x.shape[1]):
        for i, ranking in enumerate(rankings):
            if len(chosen) >= min(n, x.shape[1]):
                break
            while depth[i] < len(ranking) and int(ranking[depth[i]]) in taken:
                depth[i] += 1
            if depth[i] < len(ranking):
                c = int(ranking[depth[i]])
                chosen.append(c)
                taken.add(c)
    return chosen


# --- clustering methods: (x, features, n, seed) -> Clusters -------------------------------------------------

def cluster_kmeans(x: np.ndarray, features: np.ndarray, n: int, seed: int) -> Clusters:
    km = KMeans(n_clusters=min(n, len(x)), n_init=10, random_state=seed).fit(x)
    return Clusters(km.labels_, {i: c for i, c in enumerate(km.cluster_centers_)})


def cluster_pca_kmeans(x: np.ndarray, features: np.ndarray, n: int, seed: int) -> Clusters:
    pca = _pca(x, seed)
    z = pca.transform(x)
    km = KMeans(n_clusters=min(n, len(x)), n_init=10, random_state=seed).fit(z)
    centres = pca.inverse_transform(km.cluster_centers_)
    return Clusters(km.labels_, {i: c for i, c in enumerate(centres)})


def cluster_spectral(x: np.ndarray, features: np.ndarray, n: int, seed: int) -> Clusters:
    neighbours = max(2, min(10, len(x) - 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "graph is not fully connected" is expected for outlying shapes
        sc = SpectralClustering(n_clusters=min(n, len(x)), affinity="nearest_neighbors", n_neighbors=neighbours,
                                assign_labels="kmeans", random_state=seed).fit(x)
    return Clusters(sc.labels_)


def cluster_hdbscan(x: np.ndarray, features: np.ndarray, n: int, seed: int) -> Clusters:
    sweep = hdbscan_sweep(x)
    counts = sorted(sweep)
    below = [c for c in counts if 0 < c <= n]
    count = max(below) if below else min(counts)
    return Clusters(sweep[count])


def hdbscan_sweep(x: np.ndarray) -> dict[int, np.ndarray]:
    """Cluster count -> labels of the first (min_cluster_size, min_samples) setting giving that many clusters."""
    return _hdbscan_sweep_cached(x.tobytes(), x.shape)


@lru_cache(maxsize=32)
def _hdbscan_sweep_cached(data: bytes, shape: tuple[int, int]) -> dict[int, np.ndarray]:
    x = np.frombuffer(data, dtype=np.float64).reshape(shape)
    found: dict[int, np.ndarray] = {}
    for min_samples in (1, 2, 3, 5, 8):
        for size in range(2, max(3, len(x) // 4)):
            if min_samples > len(x):
                continue
            labels = HDBSCAN(min_cluster_size=size, min_samples=min_samples, copy=True).fit(x).labels_
            count = int(labels.max()) + 1
            found.setdefault(count, labels)
    if not found:
        found[1] = np.zeros(len(x), dtype=int)
    return found


def cluster_dtree(x: np.ndarray, features: np.ndarray, n: int, seed: int) -> Clusters:
    tree = DecisionTreeRegressor(max_leaf_nodes=max(2, n), random_state=seed).fit(features, x)
    leaves = tree.apply(features)
    ids = {leaf: i for i, leaf in enumerate(np.unique(leaves))}
    return Clusters(np.array([ids[leaf] for leaf in leaves]),
                    {ids[leaf]: tree.tree_.value[leaf][:, 0] for leaf in ids})


def _pca(x: np.ndarray, seed: int) -> PCA:
    pca = PCA(n_components=PCA_VARIANCE, svd_solver="full", random_state=seed).fit(x)
    if pca.n_components_ < 2 and min(x.shape) >= 2:
        pca = PCA(n_components=2, random_state=seed).fit(x)
    return pca


CLUSTERINGS: dict[str, Callable[[np.ndarray, np.ndarray, int, int], Clusters]] = {
    "kmeans": cluster_kmeans,
    "pca_kmeans": cluster_pca_kmeans,
    "spectral": cluster_spectral,
    "hdbscan": cluster_hdbscan,
    "dtree": cluster_dtree,
}
REPRESENTATIVES = ("centroid", "geomean")


def top_n(perf: np.ndarray, n: int) -> list[int]:
    """The N configurations best on the most shapes (raw GFLOP/s); ties, and places left when fewer than N
    configurations are ever best, go to the best mean standard-normalised performance."""
    best = perf.argmax(axis=1)
    counts = np.bincount(best, minlength=perf.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_std = np.nan_to_num(perf / perf.max(axis=1, keepdims=True)).mean(axis=0)
    order = np.lexsort((np.arange(perf.shape[1]), -mean_std, -counts))
    return [int(c) for c in order[:n]]


def greedy(perf: np.ndarray, n: int) -> list[int]:
    """N configurations chosen one at a time, each the one that most raises the sum over shapes of log(best
    selected / best of all) (module docstring); ties to the lower index."""
    cost = evaluate.log_relative(perf)
    chosen: list[int] = []
    served = np.full(len(perf), np.log(evaluate.SCORE_FLOOR))
    for _ in range(min(n, perf.shape[1])):
        gain = np.maximum(served[:, None], cost).sum(axis=0)
        gain[chosen] = -np.inf
        c = int(np.argmax(gain))
        chosen.append(c)
        served = np.maximum(served, cost[:, c])
    return chosen


def method_names() -> list[str]:
    """All selection methods: "top_n", "greedy" and "<clustering>/<representative>"."""
    return ["top_n", "greedy"] + [f"{c}/{r}" for c in CLUSTERINGS for r in REPRESENTATIVES]


def select(method: str, x: np.ndarray, perf: np.ndarray, features: np.ndarray, n: int, seed: int = 0) -> list[int]:
    """N distinct configuration indices chosen by `method` (see method_names) from the training data."""
    if method == "top_n":
        return top_n(perf, n)
    if method == "greedy":
        return greedy(perf, n)
    clustering, _, representative = method.partition("/")
    if clustering not in CLUSTERINGS or representative not in REPRESENTATIVES:
        raise ValueError(f"unknown selection method {method!r}; known: {method_names()}")
    if x.shape[1] <= n:
        return list(range(x.shape[1]))
    return pick_from_clusters(x, clusters_of(clustering, x, features, n, seed), n, representative)


_CLUSTER_CACHE: dict[tuple, Clusters] = {}


def clusters_of(clustering: str, x: np.ndarray, features: np.ndarray, n: int, seed: int) -> Clusters:
    """CLUSTERINGS[clustering](x, features, n, seed), memoised so both representatives share one clustering."""
    key = (clustering, n, seed, x.shape, hashlib.sha1(x.tobytes()).hexdigest(),
           hashlib.sha1(np.ascontiguousarray(features).tobytes()).hexdigest())
    if key not in _CLUSTER_CACHE:
        if len(_CLUSTER_CACHE) > 256:
            _CLUSTER_CACHE.clear()
        _CLUSTER_CACHE[key] = CLUSTERINGS[clustering](x, features, n, seed)
    return _CLUSTER_CACHE[key]
