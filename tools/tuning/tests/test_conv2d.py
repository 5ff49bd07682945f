"""The pipeline on a conv2d dataset: algorithms as families (some apply only to some windows), the analysis,
the comparison with the hand-written rule, and a generated header whose C++ choices equal the Python trees'."""
import csv
import json
import random
import shutil
import subprocess

import numpy as np
import pytest

import analyze
import classify
import codegen
import dataset
from conftest import ROOT
from features import feature_matrix, feature_names

GXX = shutil.which("g++")
CONFIGS = [("direct", "direct/default"), ("tiled", "tiled/t1x1_c1_k1"), ("tiled", "tiled/t2x4_c4_k4"),
           ("im2col", "im2col/chunked"), ("im2col", "im2col/whole"), ("gemm_1x1", "gemm_1x1/default"),
           ("winograd", "winograd/f2"), ("winograd", "winograd/f4")]


def conv_shapes(count=48, seed=3):
    rng = random.Random(seed)
    shapes = set()
    while len(shapes) < count:
        window, stride = rng.choice([(1, 1), (1, 1), (3, 1), (3, 1), (3, 2), (7, 2)])
        out = rng.choice([7, 14, 28, 56, 112])
        in_c, out_c = rng.choice([3, 64, 128, 256, 512]), rng.choice([64, 128, 256, 512])
        pad = (window - 1) // 2
        shapes.add((rng.choice([1, 2, 4, 8]), out * stride, out * stride, in_c, out, out, out_c, window, window,
                    stride, stride, pad, pad))
    return sorted(shapes)


def gflops(shape, config):
    """A made-up but structured model: winograd wins on large 3x3 outputs, gemm_1x1 on 1x1, im2col elsewhere;
    0 where the algorithm does not apply."""
    batch, _, _, in_c, out_h, _, out_c, window, _, stride, _, _, _ = shape
    size = np.log2(batch * out_h * out_h * out_c * in_c * window * window)
    if config == "gemm_1x1/default":
        return 0.0 if window != 1 or stride != 1 else 40.0 + size
    if config.startswith("winograd"):
        if window != 3 or stride != 1:
            return 0.0
        return 30.0 + size + (8.0 if (out_h >= 20) == (config == "winograd/f4") else 0.0)
    if config.startswith("im2col"):
        return 25.0 + size + (2.0 if (batch >= 4) == (config == "im2col/whole") else 0.0)
    return 5.0 + (config == "tiled/t2x4_c4_k4") * 3.0


@pytest.fixture(scope="module")
def conv_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("conv") / "conv2d.csv"
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(dataset.columns("conv2d"))
        for shape in conv_shapes():
            for family, config in CONFIGS:
                g = gflops(shape, config)
                out.writerow(["cpu-test", "conv2d", family, config, *shape, g, 1.0 if g else "", 10 if g else 0])
    return path


def test_conv_dataset_loads_with_its_own_shape_key(conv_csv):
    t = dataset.load([conv_csv], op="conv2d")
    assert t.op == "conv2d" and t.n_shapes == 48 and t.n_configs == len(CONFIGS)
    assert t.shape_key == ["op", *dataset.SHAPE_COLUMNS["conv2d"]]
    assert feature_matrix(t.shapes, op="conv2d").shape == (48, len(feature_names("conv2d")))
    with pytest.raises(dataset.DatasetError, match="missing columns"):
        dataset.load([conv_csv], op="gemm")


@pytest.mark.skipif(GXX is None, reason="g++ not installed")
def test_conv_analysis_deploys_the_winning_algorithms_and_a_matching_header(conv_csv, tmp_path):
    opts = analyze.Options(n_min=2, n_max=4, normalisations=("standard",), methods=("top_n", "kmeans/centroid"),
                           classifiers=("DecisionTreeB", "DecisionTreeC"), quiet=True)
    result = analyze.analyse([str(conv_csv)], tmp_path / "out", op="conv2d", opts=opts)
    # direct and tiled are never the fastest in the model: the family tree never picks them, so they are not
    # deployed (the library still instantiates them for forced choices and dilation)
    assert [f["name"] for f in result["families"]] == ["gemm_1x1", "im2col", "winograd"]
    assert result["n_configs"] == 5
    # the model's structure is easy to learn: the shipped deployment is near the best on every shape
    base = result["baseline"]
    assert base["all_shapes"]["deployment"] > 0.97
    assert 0 < base["all_shapes"]["baseline"] <= 1
    assert (tmp_path / "out" / "deployed_vs_baseline.csv").exists()

    header = codegen.header(json.loads(json.dumps(result)), "cpu-test")
    assert "static int select_family(const ConvProblem& p, Path* path = nullptr) {" in header
    (tmp_path / "conv2d.hpp").write_text(header)
    (tmp_path / "main.cpp").write_text("""
#include <cstdio>
#include "conv2d.hpp"
int main() {
  using D = portkern::deploy::cpu_test::conv2d;
  portkern::deploy::ConvProblem p;
  while (std::scanf("%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld", &p.batch, &p.in_h, &p.in_w, &p.in_c,
                    &p.out_h, &p.out_w, &p.out_c, &p.window_h, &p.window_w, &p.stride_h, &p.stride_w, &p.pad_h,
                    &p.pad_w) == 13) {
    const std::string_view family = D::families[D::select_family(p)];
    std::printf("%s\\n", std::string(D::configs_of(family)[D::select_in(family, p)]).c_str());
  }
}
""")
    exe = tmp_path / "main"
    subprocess.run([GXX, "-std=c++20", "-O1", "-Wall", "-Wextra", "-Werror", "-Wno-format", "-I",
                    str(ROOT / "include"), "-I", str(tmp_path), str(tmp_path / "main.cpp"), "-o", str(exe)],
                   check=True)
    shapes = conv_shapes() + [(1, 9, 9, 5, 9, 9, 7, 5, 5, 1, 1, 2, 2)]   # plus a 5x5 window never seen
    stdin = "\n".join(" ".join(map(str, s)) for s in shapes) + "\n"
    got = subprocess.run([str(exe)], input=stdin, capture_output=True, text=True, check=True).stdout.split()

    import pandas as pd
    frame = pd.DataFrame(shapes, columns=dataset.SHAPE_COLUMNS["conv2d"])
    feats, names = feature_matrix(frame, op="conv2d"), feature_names("conv2d")
    fams = classify.predict_dict(result["family_tree"], feats, names)
    expected = []
    for row, f in zip(feats, fams):
        fam = result["families"][f]
        leaf = 0 if fam["tree"] is None else int(classify.predict_dict(fam["tree"], row[None, :], names)[0])
        expected.append(fam["configs"][leaf])
    assert got == expected
