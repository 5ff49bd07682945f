"""Leave-networks-out: shape lists mapped to networks, the splits' shared-shape rule, and analyze.py --networks on
synthetic data where one network's shapes are unlike all the others'."""
import csv
import json
import random

import numpy as np
import pandas as pd
import pytest

import analyze
import dataset
import evaluate
import synthetic
from conftest import synthetic_shapes

HEADER = ["m", "k", "n", "batch", "trans_a", "trans_b", "net", "layer", "kind"]
FAST = ["--normalisations", "standard", "--methods", "top_n,kmeans/centroid", "--n-min", "4", "--n-max", "6"]


def write_shape_list(path, networks: dict[str, list[tuple]]) -> None:
    """A shape list (gemm_nets.csv's columns) of (m, n, k, batch) shapes per network."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for net, shapes in networks.items():
            w.writerows([m, k, n, batch, 0, 0, net, f"layer{i}", "fc"] for i, (m, n, k, batch) in enumerate(shapes))


def network_shapes(seed: int = 5) -> dict[str, list[tuple]]:
    """Four networks of CNN-like (m, n, k, batch) shapes, the first shape of net_a also net_b's, and `unlike`:
    GEMV-like shapes (m <= 3, k <= 5, n >= 2048) that no other network resembles."""
    rng = random.Random(seed)
    draw = {"cnn": lambda: (rng.choice([49, 196, 784, 3136, 12544]), rng.choice([64, 128, 256, 512]),
                            rng.choice([64, 147, 256, 576, 1152]), rng.choice([1, 16])),
            "gemv": lambda: (rng.choice([1, 2, 3]), rng.choice([2048, 4096, 8192]), rng.choice([2, 3, 5]), 1)}
    seen, nets = set(), {}
    for net, kind, count in [("net_a", "cnn", 12), ("net_b", "cnn", 12), ("net_c", "cnn", 12), ("net_d", "cnn", 12),
                             ("unlike", "gemv", 8)]:
        nets[net] = []
        while len(nets[net]) < count:
            shape = draw[kind]()
            if shape not in seen:
                seen.add(shape)
                nets[net].append(shape)
    nets["net_b"].append(nets["net_a"][0])
    return nets


def key(shape: tuple) -> tuple:
    m, n, k, batch = shape
    return ("gemm", m, n, k, batch, 0, 0)


def test_network_splits_hold_a_shared_shape_out_with_each_of_its_networks():
    keys = [key((s, s, s, 1)) for s in range(1, 7)]
    networks = {keys[0]: {"a"}, keys[1]: {"a", "b"}, keys[2]: {"b"}, keys[3]: {"c"}, keys[4]: {"b", "c"}}
    splits = evaluate.network_splits(keys, networks)
    assert list(splits) == ["a", "b", "c"]
    assert splits["a"].test.tolist() == [0, 1] and splits["a"].train.tolist() == [2, 3, 4, 5]
    assert splits["b"].test.tolist() == [1, 2, 4] and splits["b"].train.tolist() == [0, 3, 5]
    assert splits["c"].test.tolist() == [3, 4] and splits["c"].train.tolist() == [0, 1, 2, 5]
    for sp in splits.values():   # the shape of no network (5) is always trained on
        assert 5 in sp.train and not set(sp.train) & set(sp.test)


def test_read_networks_unites_rows_and_files(tmp_path):
    write_shape_list(tmp_path / "a.csv", {"x": [(4, 5, 6, 1), (7, 8, 9, 2)], "y": [(4, 5, 6, 1)]})
    (tmp_path / "b.csv").write_text("# a comment\nm,k,n,batch,net\n7,9,8,2,z\n10,10,10,1,z\n")
    got = dataset.read_networks([tmp_path / "a.csv", tmp_path / "b.csv"])
    # shape lists are m,k,n; keys follow the datasets' m,n,k; trans flags default to 0
    assert got == {key((4, 5, 6, 1)): {"x", "y"}, key((7, 8, 9, 2)): {"x", "z"}, key((10, 10, 10, 1)): {"z"}}
    (tmp_path / "c.csv").write_text("m,k,n,batch\n1,2,3,1\n")
    with pytest.raises(dataset.DatasetError, match="net column"):
        dataset.read_networks([tmp_path / "c.csv"])
    with pytest.raises(dataset.DatasetError):
        dataset.read_networks([tmp_path / "a.csv"], op="conv2d")


def test_read_networks_keys_conv_layers_at_each_batch(tmp_path):
    (tmp_path / "c.csv").write_text("layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k,groups\n"
                                    "r/conv1,7,2,230,230,3,112,112,64,1\n"    # padded image: no padding
                                    "r/conv2,3,1,56,56,64,56,56,64,1\n"       # same size out: half the window
                                    "s/stem,3,1,56,56,64,56,56,64,1\n"        # the same layer in another network
                                    "s/dw,3,1,56,56,64,56,56,64,64\n")        # grouped: not a dense key
    got = dataset.read_networks([tmp_path / "c.csv"], op="conv2d", batches=[1, 4])
    conv = lambda b, *s: ("conv2d", b, *s)
    assert got == {conv(1, 230, 230, 3, 112, 112, 64, 7, 7, 2, 2, 0, 0): {"r"},
                   conv(4, 230, 230, 3, 112, 112, 64, 7, 7, 2, 2, 0, 0): {"r"},
                   conv(1, 56, 56, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1): {"r", "s"},
                   conv(4, 56, 56, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1): {"r", "s"}}
    (tmp_path / "conv_vgg.csv").write_text("layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k\n"
                                           "conv1_1,3,1,56,56,64,56,56,64\n")   # no '/': the file names it
    assert dataset.read_networks([tmp_path / "conv_vgg.csv"], op="conv2d", batches=[1]) == \
        {conv(1, 56, 56, 64, 56, 56, 64, 3, 3, 1, 1, 1, 1): {"vgg"}}
    with pytest.raises(dataset.DatasetError, match="batches"):
        dataset.read_networks([tmp_path / "c.csv"], op="conv2d")
    (tmp_path / "g.csv").write_text("m,k,n,batch,net\n4,5,6,1,x\n")   # a GEMM list is no layer list
    with pytest.raises(dataset.DatasetError, match="layer list"):
        dataset.read_networks([tmp_path / "g.csv"], op="conv2d", batches=[1])


def test_an_unlike_network_scores_visibly_lower(tmp_path):
    nets = network_shapes()
    shapes = sorted({s for lst in nets.values() for s in lst}) + [(100, 100, 100, 1)]   # the last: no network
    synthetic.write(tmp_path / "data.csv", synthetic.rows(shapes, n_configs=40, device="test-device"))
    write_shape_list(tmp_path / "nets.csv", nets)
    out = tmp_path / "out"
    analyze.main([str(tmp_path / "data.csv"), "--out", str(out), *FAST, "--networks", str(tmp_path / "nets.csv")])
    loo = json.loads((out / "selection.json").read_text())["leave_networks_out"]
    per_net = loo["networks"]
    assert list(per_net) == ["net_a", "net_b", "net_c", "net_d", "unlike"] and loo["unlabelled_shapes"] == 1
    # the shape of net_a and net_b is held out with either, and trained on with neither
    assert [per_net[n]["shapes"] for n in ("net_a", "net_b")] == [12, 13]
    assert per_net["net_b"]["training_shapes"] == len(shapes) - 13
    others = evaluate.geomean([per_net[n]["score"] for n in ("net_a", "net_b", "net_c", "net_d")])
    assert per_net["unlike"]["score"] < 0.5 * others and per_net["unlike"]["score"] < loo["random_split"]["score"]
    assert loo["geomean"]["score"] == pytest.approx(evaluate.geomean([r["score"] for r in per_net.values()]))
    assert per_net["unlike"]["families"]["tiled"] == per_net["unlike"]["score"]   # one family: its best is the best
    report = (out / "report.md").read_text()
    assert report.startswith("# test-device gemm") and "Leave-networks-out" in report and "| unlike | 8 |" in report
    table = (out / "leave_networks_out.csv").read_text().splitlines()
    assert table[0] == "network,held-out shapes,training shapes,% of best of all,tiled: % of family best"
    assert table[-2].startswith("geomean over networks,,,") and table[-1].startswith("random split,")
    # the recipe deployed is the candidate best on networks left out, and its score is the one reported
    recipes = pd.read_csv(out / "recipes_by_networks.csv")
    assert len(recipes) > 1 and loo["geomean"]["families"]["tiled"] == pytest.approx(recipes["networks"].max(), abs=1e-5)


def test_several_families_score_the_family_tree_and_each_family(two_family_csv, tmp_path):
    shapes = synthetic_shapes()
    nets = {f"net{i}": shapes[i::3] for i in range(3)}
    nets["net0"].append(shapes[1])
    write_shape_list(tmp_path / "nets.csv", nets)
    out = tmp_path / "out"
    analyze.main([str(two_family_csv), "--out", str(out), *FAST, "--networks", str(tmp_path / "nets.csv")])
    result = json.loads((out / "selection.json").read_text())
    loo = result["leave_networks_out"]
    assert result["family_tree"] is not None and set(loo["networks"]) == {"net0", "net1", "net2"}
    assert loo["networks"]["net0"]["shapes"] == len(shapes[0::3]) + 1
    for r in loo["networks"].values():
        assert 0 < r["score"] <= 1 and set(r["families"]) == {f["name"] for f in result["families"]}
        assert all(v is None or 0 < v <= 1 for v in r["families"].values())
    assert np.isclose(loo["random_split"]["score"], result["score"])
    assert (out / "report.md").read_text().startswith("# test-device gemm: leaving whole networks out")


@pytest.mark.parametrize("data", ["dataset_csv", "two_family_csv"])
def test_a_network_of_the_random_splits_held_out_shapes_scores_as_the_random_split(data, request, tmp_path):
    """Leaving out the random split's held-out shapes refits exactly the random split's models."""
    path = request.getfixturevalue(data)
    table = dataset.load([path])
    sp = evaluate.split(table.n_shapes, 0.25, 0)
    held = table.shapes.iloc[sp.test]
    write_shape_list(tmp_path / "nets.csv", {"held": list(zip(held.m, held.n, held.k, held.batch))})
    out = tmp_path / "out"
    analyze.main([str(path), "--out", str(out), *FAST, "--networks", str(tmp_path / "nets.csv")])
    result = json.loads((out / "selection.json").read_text())
    loo = result["leave_networks_out"]
    assert loo["networks"]["held"]["shapes"] == len(sp.test) and loo["unlabelled_shapes"] == len(sp.train)
    assert loo["networks"]["held"]["score"] == pytest.approx(result["score"], abs=1e-12)
    for fam in result["families"]:
        assert loo["networks"]["held"]["families"][fam["name"]] == pytest.approx(fam["score"], abs=1e-12)


def test_a_family_of_no_shape_leaves_the_family_tree_scored_by_networks(two_family_csv, tmp_path, capsys):
    """A family that applies to no shape (every row failed: conv2d's depthwise on dense layers) is not analysed, so
    that the family tree's classifiers are each scored on networks left out (they scored 0% beside it)."""
    rows = list(csv.reader(two_family_csv.read_text().splitlines()))
    shapes = synthetic_shapes()
    failed = [["test-device", "gemm", "empty", "empty/default", m, n, k, batch, 0, 0, 0, 0, 0]
              for m, n, k, batch in shapes]
    synthetic.write(tmp_path / "data.csv", rows[1:] + failed)
    write_shape_list(tmp_path / "nets.csv", {f"net{i}": shapes[i::3] for i in range(3)})
    out = tmp_path / "out"
    analyze.main([str(tmp_path / "data.csv"), "--out", str(out), *FAST, "--networks", str(tmp_path / "nets.csv")])
    printed = capsys.readouterr().out
    assert "no shape measured for empty: not analysed" in printed
    scores = printed.split("family tree by networks left out: ")[1].splitlines()[0]
    assert "0.00%" not in scores, scores
    assert {f["name"] for f in json.loads((out / "selection.json").read_text())["families"]} <= {"tiled", "cpu_packed"}
