"""tools/shapes/gemm_more_nets.py: known layers, layout conventions, one row per (shape, network), the 25-shape
tuning set, and the committed files are current."""
import csv
import subprocess
import sys

from conftest import ROOT

SHAPES = ROOT / "tools" / "shapes"
SCRIPT = SHAPES / "gemm_more_nets.py"
sys.path.insert(0, str(SHAPES))

import gemm_more_nets  # noqa: E402
import gemm_nets  # noqa: E402

UNSEEN = {"alexnet", "googlenet", "densenet121", "squeezenet1_1", "efficientnet_b0", "resnext50", "vit_b16",
          "gpt2_prefill", "gpt2_decode", "dlrm", "ncf", "lstm", "gru", "odd"}


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def shape(row):
    return tuple(int(row[c]) for c in ("m", "k", "n", "batch", "trans_a", "trans_b"))


def test_generated_files_match_committed_ones(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), "--out-dir", str(tmp_path)], check=True, capture_output=True)
    for name in ("gemm_more_nets.csv", "gemm_tune25.csv", "gemm_unseen60.csv"):
        committed = ROOT / "data" / "shapes" / name
        assert committed.read_text() == (tmp_path / name).read_text(), f"{name} is stale: rerun {SCRIPT}"
        assert committed.read_text().splitlines()[0] == "m,k,n,batch,trans_a,trans_b,net,layer,kind"
    more = rows_of(tmp_path / "gemm_more_nets.csv")
    pairs = [(shape(r), r["net"]) for r in more]
    assert len(pairs) == len(set(pairs)) and 250 <= len(more) <= 500
    assert {r["net"] for r in more} == UNSEEN | {"bert_base"}
    assert {r["kind"] for r in more} == set(gemm_more_nets.MORE_KINDS)
    # a shape of several networks has a row in each
    nets_of = {}
    for s, net in pairs:
        nets_of.setdefault(s, set()).add(net)
    assert nets_of[(12544, 147, 64, 32, 0, 0)] == {"googlenet", "densenet121", "resnext50"}
    assert nets_of[(1, 768, 768, 1, 0, 0)] == {"bert_base", "gpt2_decode"}


def test_tuning_set_sees_only_the_seed_networks_and_bert():
    tune = rows_of(ROOT / "data" / "shapes" / "gemm_tune25.csv")
    seed = {shape(r): r for r in rows_of(ROOT / "data" / "shapes" / "gemm_nets.csv")}
    more = rows_of(ROOT / "data" / "shapes" / "gemm_more_nets.csv")
    bert = {shape(r) for r in more if r["net"] == "bert_base"}
    unseen = {shape(r) for r in more if r["net"] != "bert_base"}
    assert len(tune) == 25 and len({shape(r) for r in tune}) == 25
    assert not {shape(r) for r in tune} & unseen
    assert {r["net"] for r in tune} == {"vgg16", "resnet50", "mobilenet_v2", "bert_base"}
    for r in tune:
        assert seed.get(shape(r)) == r if r["net"] != "bert_base" else shape(r) in bert
    assert {r["kind"] for r in tune} == set(gemm_nets.KINDS) | {"linear", "bmm"}


def test_known_layers():
    got = {}
    for g in gemm_more_nets.more_gemms():
        got.setdefault((g.net, g.layer, g.m if g.kind in ("fc", "rnn") else g.batch), g.key)
    # (m, k, n, batch, trans_a, trans_b)
    assert got[("alexnet", "conv1", 1)] == (55 * 55, 11 * 11 * 3, 96, 1, 0, 0)      # 11x11/4 valid on 227
    assert got[("alexnet", "conv2", 32)] == (27 * 27, 5 * 5 * 96, 256, 32, 0, 0)
    assert got[("alexnet", "fc6", 32)] == (32, 9216, 4096, 1, 0, 0)
    assert got[("googlenet", "inception4e.5x5", 1)] == (14 * 14, 25 * 32, 128, 1, 0, 0)
    assert got[("densenet121", "denseblock3.layer24.conv1", 1)] == (14 * 14, 256 + 23 * 32, 128, 1, 0, 0)
    assert got[("densenet121", "transition3.conv", 1)] == (14 * 14, 1024, 512, 1, 0, 0)
    assert got[("squeezenet1_1", "conv1", 1)] == (111 * 111, 27, 64, 1, 0, 0)        # 3x3/2 valid on 224
    assert got[("efficientnet_b0", "blocks.15.project", 1)] == (7 * 7, 1152, 320, 1, 0, 0)
    assert got[("resnext50", "layer4.0.conv1", 1)] == (14 * 14, 1024, 1024, 1, 0, 0)
    # BERT-base, sequence 128, one sequence: tokens x 768 times 768 x 2304 (Q, K and V fused)
    assert got[("bert_base", "seq128.layer0.qkv", 1)] == (128, 768, 2304, 1, 0, 0)
    assert got[("bert_base", "seq384.layer0.scores", 8 * 12)] == (384, 64, 384, 8 * 12, 0, 1)   # Q K^T: NT
    assert got[("bert_base", "seq384.layer0.context", 8 * 12)] == (384, 384, 64, 8 * 12, 0, 0)
    assert got[("vit_b16", "patch_embed", 16)] == (196, 16 * 16 * 3, 768, 16, 0, 0)
    assert got[("vit_b16", "layer0.mlp_up", 1)] == (197, 768, 3072, 1, 0, 0)
    assert got[("gpt2_prefill", "lm_head", 1)] == (512, 768, 50257, 1, 0, 1)
    assert got[("gpt2_decode", "layer0.qkv", 1)] == (1, 768, 2304, 1, 0, 0)           # m = batch: GEMV-like
    assert got[("gpt2_decode", "layer0.scores", 16 * 12)] == (1, 64, 512, 16 * 12, 0, 1)
    assert got[("dlrm", "top_l.0", 2048)] == (2048, 479, 1024, 1, 0, 0)
    assert got[("dlrm", "interaction", 128)] == (27, 128, 27, 128, 0, 1)
    assert got[("lstm", "gates", 64)] == (64, 2048, 4096, 1, 0, 0)
    assert got[("gru", "gates_hidden", 1)] == (1, 1024, 3072, 1, 0, 0)
    assert all(2053 in g.key[:3] or 1021 in g.key[:3] or 97 in g.key[:3] for g in gemm_more_nets.odd())
    assert not any(g.kind.startswith("winograd") and g.net == "efficientnet_b0" for g in gemm_more_nets.more_gemms())
