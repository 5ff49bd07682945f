"""tools/shapes/gemm_nets.py: known layers, conventions, deduplication, and the committed files are current."""
import csv
import importlib.util
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "tools" / "shapes" / "gemm_nets.py"
spec = importlib.util.spec_from_file_location("gemm_nets", SCRIPT)
gemm_nets = importlib.util.module_from_spec(spec)
sys.modules["gemm_nets"] = gemm_nets  # dataclasses look their module up
spec.loader.exec_module(gemm_nets)


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_generated_files_match_committed_ones(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), "--out-dir", str(tmp_path)], check=True, capture_output=True)
    for name in ("gemm_nets.csv", "gemm_nets_quick.csv"):
        committed = ROOT / "data" / "shapes" / name
        assert committed.read_text() == (tmp_path / name).read_text(), f"{name} is stale: rerun {SCRIPT}"
    full = rows_of(tmp_path / "gemm_nets.csv")
    quick = rows_of(tmp_path / "gemm_nets_quick.csv")
    assert (tmp_path / "gemm_nets.csv").read_text().splitlines()[0] == "m,k,n,batch,trans_a,trans_b,net,layer,kind"
    keys = [(r["m"], r["k"], r["n"], r["batch"]) for r in full]
    assert len(keys) == len(set(keys))
    assert 35 <= len(quick) <= 45 and {tuple(r.values()) for r in quick} <= {tuple(r.values()) for r in full}
    assert {r["kind"] for r in quick} == set(gemm_nets.KINDS)


def test_known_layers():
    got = {(g.net, g.layer, g.kind, g.batch if g.kind != "fc" else g.m): (g.m, g.k, g.n, g.batch)
           for g in gemm_nets.all_gemms()}
    assert got[("vgg16", "conv1_1", "im2col", 1)] == (224 * 224, 27, 64, 1)
    assert got[("vgg16", "conv5_3", "winograd2", 16)] == (16 * 7 * 7, 512, 512, 16)
    assert got[("vgg16", "conv5_3", "winograd4", 36)] == (16 * 4 * 4, 512, 512, 36)
    assert got[("vgg16", "fc6", "fc", 16)] == (16, 25088, 4096, 1)
    assert got[("resnet50", "conv1", "im2col", 1)] == (112 * 112, 147, 64, 1)
    assert got[("resnet50", "layer2.0.conv2", "im2col", 1)] == (28 * 28, 9 * 128, 128, 1)  # stride 2 on the 3x3
    assert got[("resnet50", "layer2.0.downsample", "im2col", 16)] == (28 * 28, 256, 512, 16)
    assert got[("resnet50", "layer1.0.downsample", "conv1x1", 1)] == (56 * 56, 64, 256, 1)
    assert got[("resnet50", "fc", "fc", 1)] == (1, 2048, 1000, 1)
    assert got[("mobilenet_v2", "features.2.expand", "conv1x1", 1)] == (112 * 112, 16, 96, 1)
    assert got[("mobilenet_v2", "features.2.project", "conv1x1", 1)] == (56 * 56, 96, 24, 1)
    assert got[("mobilenet_v2", "features.18", "conv1x1", 1)] == (7 * 7, 320, 1280, 1)
    assert not any(g.net == "mobilenet_v2" and g.kind.startswith("winograd") for g in gemm_nets.all_gemms())
