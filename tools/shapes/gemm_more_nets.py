#!/usr/bin/env python3
"""Generate the GEMMs of networks the tuning set does not contain, and a 25-shape tuning set.

Writes, relative to the repository root:
  data/shapes/gemm_more_nets.csv  the GEMMs of 13 more networks and some odd sizes (below: 15 `net` labels), for
                                  judging a tuned selection on networks it never saw (tools/tuning/analyze.py
                                  --networks)
  data/shapes/gemm_unseen60.csv   60 distinct shapes of the networks the tuning set never saw (unseen_set)
  data/shapes/gemm_tune25.csv     a deterministic 25-shape tuning set, stratified over kinds and sizes, drawn only
                                  from VGG-16, ResNet-50, MobileNetV2 (gemm_nets.py) and BERT-base, so that every
                                  other network stays unseen

Header and conventions as in gemm_nets.py (`m,k,n,batch,trans_a,trans_b,net,layer,kind`): C (m x n) =
op(A) (m x k) * op(B) (k x n) in column-major BLAS semantics, `batch` independent GEMMs of one strided-batched
call; trans_a / trans_b say how BLAS sees A and B stored (1: A is stored k x m, B is stored n x k).

Layout. The rows describe each product in its mathematical orientation: activations are A, with one row per
image, token or sample (m = tokens = batch x sequence for a transformer's dense layers, m = batch for a fully
connected layer or an RNN step), and dense weights are B stored in x out (k x n), as TensorFlow keeps them, so a
dense layer is NN. A product multiplies by a transposed operand only where both operands are stored the same way,
one per token: attention scores Q K^T (Q and K both tokens x head size: NT), GPT-2's logits H E^T (E, the
token embedding, is vocabulary x hidden: NT) and DLRM's feature interaction Z Z^T (NT).
A framework keeping tensors row-major (PyTorch, NumPy) holds a row-major r x c tensor, which is a column-major
c x r matrix: it runs the row-major C = op(A) op(B) as the column-major C^T = op(B)^T op(A)^T, i.e. calls BLAS
with m and n exchanged and A and B exchanged, each operand keeping its trans flag (k, batch and the work are the
same). PyTorch's nn.Linear, whose weight W is out x in, computes X W^T: BERT-base's QKV projection at sequence
128, recorded here as m=128, k=768, n=2304, NN, reaches cuBLAS as gemm(T, N, m=2304, n=128, k=768); the
attention scores, recorded as m=128, k=64, n=128, batch=12, NT, as gemm(T, N, m=128, n=128, k=64, batch=12).

Kinds: im2col, conv1x1, fc, winograd2, winograd4 as in gemm_nets.py (a Winograd GEMM for every 3x3 stride-1
convolution), plus
  linear   a transformer's dense layer applied to every token: m = tokens, k = in, n = out, batch = 1
  bmm      a product of two activations, batched per (sequence, head) or per sample: attention scores
           (m = queries, k = head size, n = keys, NT) and context (m = queries, k = keys, n = head size), DLRM's
           interaction (m = n = 27 feature vectors, k = their size, NT)
  rnn      one time step of a recurrent layer: m = batch, k = the inputs concatenated, n = the gates

Networks and batch sizes (CNNs on 224x224x3 inputs with "same" padding unless noted; depthwise and grouped
convolutions are not dense GEMMs and are skipped, as are squeeze-and-excitation blocks):
  alexnet        (1, 32) 227x227 input, conv1 11x11/4 valid, conv2 5x5, three 3x3 convs, FC 9216-4096-4096-1000
  googlenet      (1, 32) Inception v1: the 7x7/2 stem, conv2 (1x1) and conv3 (3x3), inception 3a, 4a, 4e and 5b
                 (1x1 branches, 3x3 and 5x5 convs after their 1x1 reductions, the pool projections), FC 1024-1000
  densenet121    (1, 32) the 7x7/2 stem; per dense block its first and last layer (1x1 bottleneck to 128 channels,
                 3x3 to 32: the bottleneck's k grows by 32 from layer to layer, the layers between interpolate),
                 the transitions, FC 1024-1000
  squeezenet1_1  (1, 32) conv1 3x3/2 valid (224 -> 111), fire modules 2-9 (squeeze 1x1, expand 1x1 and 3x3), conv10
                 (1x1 to 1000 classes)
  efficientnet_b0 (1, 32) the 3x3/2 stem, every MBConv block's expansion and projection 1x1 conv, the head 1x1 conv
                 to 1280, FC 1280-1000
  resnext50      (1, 32) ResNeXt-50 32x4d: the 7x7/2 stem, every bottleneck's 1x1 convs (to and from its grouped
                 3x3), the projection shortcuts (strided ones are im2col), FC 2048-1000
  vit_b16        (1, 16) ViT-B/16: the 16x16/16 patch embedding (an im2col GEMM, 196 patches), 12 encoder layers at 197
                 tokens (hidden 768, 12 heads of 64, MLP 3072: QKV, scores, context, projection, MLP), head 768-1000
  bert_base      (1, 8) at sequence 128 and 384: 12 encoder layers (as ViT's), the pooler 768-768 on the CLS tokens
  gpt2_prefill   (1, 4) GPT-2 small on a 512-token prompt: 12 decoder layers (as BERT's, causal attention computed
                 whole), the logits of every token against the tied 50257 x 768 embedding (NT)
  gpt2_decode    (1, 16) one new token per sequence attending to a KV cache of 512 keys (its own included): the
                 dense layers and logits at m = batch (GEMV-like), scores m=1, k=64, n=512 and context m=1, k=512,
                 n=64 per (sequence, head)
  dlrm           (128, 2048) DLRM as in MLPerf (Criteo Terabyte): bottom MLP 13-512-256-128, the interaction of
                 27 vectors of 128 (26 embeddings and the bottom MLP's output), top MLP 479-1024-1024-512-256-1
                 (479 = 128 + 27 * 26 / 2: the bottom MLP ends at the embeddings' size, 128)
  ncf            (128, 2048) NCF's MLP tower 256-128-64
  lstm           (1, 64) one step of an LSTM layer with 1024 inputs and hidden 1024: the gates [x, h] W, k = 2048,
                 n = 4 * 1024
  gru            (1, 64) one step of a GRU layer with 512 inputs and hidden 1024 as cuDNN / PyTorch run it: x W_i and
                 h W_h separately (the reset gate multiplies h W_h), n = 3 * 1024 each
  odd            deliberately odd sizes: a prime (97, 1021 or 2053) in one dimension, the others network-like

A network's repeated layers and batch sizes that give the same GEMM are merged into one row whose layer gets the
suffix " (xN)", N = occurrences within the network; a shape used by several of these networks has one row per
network, so that the rows (with gemm_nets.csv's, which name only the first of VGG-16, ResNet-50 and MobileNetV2
for a shape they share) say every network a shape belongs to. Benchmarking the rows of several networks measures
such a shape once per row (`portkern tune` skips what it has measured already).

gemm_tune25.csv: gemm_nets.csv's shapes plus BERT-base's distinct ones not among them, less the shapes that
another network here uses too (ResNet-50's 7x7 stem is GoogLeNet's, BERT's pooler at batch 1 is a GPT-2 decode
projection: those would not leave that network unseen), sampled with
gemm_nets.py's quick_subset (every kind at least 3 rows, the rest proportional to the kinds' sizes, evenly over
each kind's FLOP range); `net` and `layer` as in the file each row comes from.

Standard library only; deterministic. Run as `python3 tools/shapes/gemm_more_nets.py [--out-dir DIR]`.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

from gemm_nets import KINDS, Conv, Dense, Gemm, all_gemms, deduplicate, gemms_of, quick_subset, write_csv

MORE_KINDS = KINDS + ("linear", "bmm", "rnn")
TUNE_ROWS = 25
UNSEEN_ROWS = 60
UNSEEN_MAX_FLOPS = 4e9
CNN_BATCHES = (1, 32)


def inception(net: str, name: str, hw: int, in_c: int, c1: int, r3: int, c3: int, r5: int, c5: int,
              proj: int) -> list[Conv]:
    """An Inception v1 module's convolutions (the pool branch's 3x3 max-pool is no GEMM)."""
    return [Conv(net, f"{name}.1x1", 1, 1, hw, in_c, c1), Conv(net, f"{name}.3x3_reduce", 1, 1, hw, in_c, r3),
            Conv(net, f"{name}.3x3", 3, 1, hw, r3, c3), Conv(net, f"{name}.5x5_reduce", 1, 1, hw, in_c, r5),
            Conv(net, f"{name}.5x5", 5, 1, hw, r5, c5), Conv(net, f"{name}.pool_proj", 1, 1, hw, in_c, proj)]


def alexnet() -> list:
    """AlexNet (one tower, 227x227 input): 5 convolutions, 3 max-pools 3x3/2 (55 -> 27 -> 13 -> 6), 3 FC layers."""
    net = "alexnet"
    return [Conv(net, "conv1", 11, 4, 227, 3, 96, valid=True), Conv(net, "conv2", 5, 1, 27, 96, 256),
            Conv(net, "conv3", 3, 1, 13, 256, 384), Conv(net, "conv4", 3, 1, 13, 384, 384),
            Conv(net, "conv5", 3, 1, 13, 384, 256), Dense(net, "fc6", 6 * 6 * 256, 4096),
            Dense(net, "fc7", 4096, 4096), Dense(net, "fc8", 4096, 1000)]


def googlenet() -> list:
    """GoogLeNet (Inception v1): stem, inception 3a, 4a, 4e, 5b (the other modules' GEMMs lie between these),
    global average pool, FC 1024 -> 1000."""
    net = "googlenet"
    return [Conv(net, "conv1", 7, 2, 224, 3, 64), Conv(net, "conv2", 1, 1, 56, 64, 64),
            Conv(net, "conv3", 3, 1, 56, 64, 192),
            *inception(net, "inception3a", 28, 192, 64, 96, 128, 16, 32, 32),
            *inception(net, "inception4a", 14, 480, 192, 96, 208, 16, 48, 64),
            *inception(net, "inception4e", 14, 528, 256, 160, 320, 32, 128, 128),
            *inception(net, "inception5b", 7, 832, 384, 192, 384, 48, 128, 128),
            Dense(net, "fc", 1024, 1000)]


def densenet121() -> list:
    """DenseNet-121 (growth 32, blocks of 6, 12, 24, 16 layers at 56, 28, 14, 7): the stem, each block's first and
    last layer (1x1 bottleneck to 128, 3x3 to 32), the transitions halving the channels, FC 1024 -> 1000."""
    net = "densenet121"
    layers: list = [Conv(net, "features.conv0", 7, 2, 224, 3, 64)]
    c = 64
    for block, (count, hw) in enumerate([(6, 56), (12, 28), (24, 14), (16, 7)], start=1):
        for i in (1, count):
            in_c = c + 32 * (i - 1)
            layers.append(Conv(net, f"denseblock{block}.layer{i}.conv1", 1, 1, hw, in_c, 128))
            layers.append(Conv(net, f"denseblock{block}.layer{i}.conv2", 3, 1, hw, 128, 32))
        c += 32 * count
        if block < 4:
            layers.append(Conv(net, f"transition{block}.conv", 1, 1, hw, c, c // 2))
            c //= 2
    layers.append(Dense(net, "classifier", c, 1000))
    return layers


def squeezenet1_1() -> list:
    """SqueezeNet 1.1: conv1 3x3/2 valid (224 -> 111), max-pools 3x3/2 (111 -> 55 -> 27 -> 13) after conv1, fire3
    and fire5, fire modules 2-9, conv10 1x1 to 1000 classes (then global average pool)."""
    net = "squeezenet1_1"
    layers: list = [Conv(net, "conv1", 3, 2, 224, 3, 64, valid=True)]
    for index, (hw, in_c, squeeze, expand) in enumerate(
            [(55, 64, 16, 64), (55, 128, 16, 64), (27, 128, 32, 128), (27, 256, 32, 128), (13, 256, 48, 192),
             (13, 384, 48, 192), (13, 384, 64, 256), (13, 512, 64, 256)], start=2):
        layers += [Conv(net, f"fire{index}.squeeze", 1, 1, hw, in_c, squeeze),
                   Conv(net, f"fire{index}.expand1x1", 1, 1, hw, squeeze, expand),
                   Conv(net, f"fire{index}.expand3x3", 3, 1, hw, squeeze, expand)]
    layers.append(Conv(net, "conv10", 1, 1, 13, 512, 1000))
    return layers


def efficientnet_b0() -> list:
    """EfficientNet-B0: 3x3/2 stem to 32, 16 MBConv blocks (expansion 1x1 by t unless t == 1, depthwise k x k
    carrying the stride — skipped, squeeze-and-excitation — skipped, projection 1x1), head 1x1 to 1280,
    FC 1280 -> 1000."""
    net = "efficientnet_b0"
    layers: list = [Conv(net, "stem", 3, 2, 224, 3, 32)]
    hw, c, index = 112, 32, 0
    for t, width, repeats, stride in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 40, 2, 2), (6, 80, 3, 2), (6, 112, 3, 1),
                                      (6, 192, 4, 2), (6, 320, 1, 1)]:
        for r in range(repeats):
            s = stride if r == 0 else 1
            if t != 1:
                layers.append(Conv(net, f"blocks.{index}.expand", 1, 1, hw, c, c * t))
            hw = math.ceil(hw / s)
            layers.append(Conv(net, f"blocks.{index}.project", 1, 1, hw, c * t, width))
            c, index = width, index + 1
    layers += [Conv(net, "head", 1, 1, hw, c, 1280), Dense(net, "classifier", 1280, 1000)]
    return layers


def resnext50() -> list:
    """ResNeXt-50 32x4d: ResNet-50's layout (gemm_nets.resnet50) with bottleneck widths 128-1024 and grouped 3x3
    convolutions (32 groups — skipped); the 1x1 convs, projections, stem and FC."""
    net = "resnext50"
    layers: list = [Conv(net, "conv1", 7, 2, 224, 3, 64)]
    hw, c = 56, 64
    for stage, (width, blocks, stride) in enumerate([(128, 3, 1), (256, 4, 2), (512, 6, 2), (1024, 3, 2)], start=1):
        out = 2 * width
        for b in range(blocks):
            s = stride if b == 0 else 1
            out_hw = math.ceil(hw / s)
            layers.append(Conv(net, f"layer{stage}.{b}.conv1", 1, 1, hw, c, width))
            layers.append(Conv(net, f"layer{stage}.{b}.conv3", 1, 1, out_hw, width, out))
            if b == 0:
                layers.append(Conv(net, f"layer{stage}.{b}.downsample", 1, s, hw, c, out))
            hw, c = out_hw, out
    layers.append(Dense(net, "fc", c, 1000))
    return layers


def encoder_layers(net: str, prefix: str, sequences: int, queries: int, keys: int, hidden: int = 768,
                   heads: int = 12, mlp: int = 3072, depth: int = 12) -> list[Gemm]:
    """The GEMMs of `depth` transformer layers over `sequences` sequences of `queries` new tokens each attending to
    `keys` keys (keys == queries but for cached decoding): fused QKV, scores (NT), context, output projection,
    MLP up and down."""
    tokens, size, batch = sequences * queries, hidden // heads, sequences * heads
    rows = []
    for i in range(depth):
        name = f"{prefix}layer{i}"
        rows += [Gemm(tokens, hidden, 3 * hidden, 1, net, f"{name}.qkv", "linear"),
                 Gemm(queries, size, keys, batch, net, f"{name}.scores", "bmm", trans_b=1),
                 Gemm(queries, keys, size, batch, net, f"{name}.context", "bmm"),
                 Gemm(tokens, hidden, hidden, 1, net, f"{name}.proj", "linear"),
                 Gemm(tokens, hidden, mlp, 1, net, f"{name}.mlp_up", "linear"),
                 Gemm(tokens, mlp, hidden, 1, net, f"{name}.mlp_down", "linear")]
    return rows


def vit_b16(batch: int) -> list[Gemm]:
    """ViT-B/16 on 224x224 images: patch embedding, 12 encoder layers at 196 patches + the class token, head."""
    net = "vit_b16"
    return [*gemms_of(Conv(net, "patch_embed", 16, 16, 224, 3, 768), batch),
            *encoder_layers(net, "", batch, 197, 197), Gemm(batch, 768, 1000, 1, net, "head", "fc")]


def bert_base(batch: int) -> list[Gemm]:
    """BERT-base at sequence 128 and 384: 12 encoder layers and the pooler (dense 768 -> 768 on the CLS tokens)."""
    net = "bert_base"
    rows = []
    for seq in (128, 384):
        rows += encoder_layers(net, f"seq{seq}.", batch, seq, seq)
        rows.append(Gemm(batch, 768, 768, 1, net, f"seq{seq}.pooler", "fc"))
    return rows


def gpt2_prefill(batch: int) -> list[Gemm]:
    """GPT-2 small on a 512-token prompt: 12 decoder layers, the logits of every token (tied embedding, NT)."""
    net = "gpt2_prefill"
    return [*encoder_layers(net, "", batch, 512, 512),
            Gemm(batch * 512, 768, 50257, 1, net, "lm_head", "linear", trans_b=1)]


def gpt2_decode(batch: int) -> list[Gemm]:
    """GPT-2 small generating one token per sequence with 512 cached keys: 12 decoder layers, the logits."""
    net = "gpt2_decode"
    return [*encoder_layers(net, "", batch, 1, 512), Gemm(batch, 768, 50257, 1, net, "lm_head", "linear", trans_b=1)]


def mlp(net: str, prefix: str, widths: list[int], batch: int) -> list[Gemm]:
    """The fully connected layers widths[0] -> widths[1] -> ... at `batch` samples."""
    return [Gemm(batch, a, b, 1, net, f"{prefix}{i}", "fc") for i, (a, b) in enumerate(zip(widths, widths[1:]))]


def dlrm(batch: int) -> list[Gemm]:
    """DLRM (MLPerf, Criteo Terabyte): bottom MLP, the pairwise dot products of 27 vectors of 128 per sample
    (Z Z^T, of which the 351 below the diagonal feed the top MLP), top MLP."""
    return [*mlp("dlrm", "bot_l.", [13, 512, 256, 128], batch),
            Gemm(27, 128, 27, batch, "dlrm", "interaction", "bmm", trans_b=1),
            *mlp("dlrm", "top_l.", [128 + 27 * 26 // 2, 1024, 1024, 512, 256, 1], batch)]


def ncf(batch: int) -> list[Gemm]:
    """NCF's MLP tower on concatenated user and item embeddings (2 x 128)."""
    return mlp("ncf", "mlp.", [256, 128, 64], batch)


def lstm(batch: int) -> list[Gemm]:
    """One time step of an LSTM layer (1024 inputs, hidden 1024): the four gates of [x, h]."""
    return [Gemm(batch, 1024 + 1024, 4 * 1024, 1, "lstm", "gates", "rnn")]


def gru(batch: int) -> list[Gemm]:
    """One time step of a GRU layer (512 inputs, hidden 1024): the input and hidden parts of the three gates."""
    return [Gemm(batch, 512, 3 * 1024, 1, "gru", "gates_input", "rnn"),
            Gemm(batch, 1024, 3 * 1024, 1, "gru", "gates_hidden", "rnn")]


def odd() -> list[Gemm]:
    """Network-like GEMMs with one prime dimension (97, 1021, 2053)."""
    rows = [(97, 768, 3072, 1, 0, 0, "97 tokens.mlp_up", "linear"),
            (1021, 768, 768, 1, 0, 0, "1021 tokens.proj", "linear"),
            (2053, 1024, 4096, 1, 0, 0, "2053 tokens.mlp_up", "linear"),
            (97, 64, 97, 12, 0, 1, "97 tokens.scores", "bmm"),
            (1021, 1021, 64, 12, 0, 0, "1021 tokens.context", "bmm"),
            (3136, 97, 256, 1, 0, 0, "97 channels.1x1", "conv1x1"),
            (784, 1152, 1021, 1, 0, 0, "1021 filters.3x3", "im2col"),
            (2053, 256, 256, 16, 0, 0, "2053 tiles", "winograd2"),
            (16, 2053, 1000, 1, 0, 0, "2053 features", "fc"),
            (1, 4096, 1021, 1, 0, 0, "1021 classes", "fc"),
            (64, 2053, 4096, 1, 0, 0, "2053 inputs", "rnn")]
    return [Gemm(m, k, n, b, "odd", layer, kind, ta, tb) for m, k, n, b, ta, tb, layer, kind in rows]


CNNS = (alexnet, googlenet, densenet121, squeezenet1_1, efficientnet_b0, resnext50)
BATCHED = ((vit_b16, (1, 16)), (bert_base, (1, 8)), (gpt2_prefill, (1, 4)), (gpt2_decode, (1, 16)),
           (dlrm, (128, 2048)), (ncf, (128, 2048)), (lstm, (1, 64)), (gru, (1, 64)))


def more_gemms() -> list[Gemm]:
    """Every GEMM of every network in the module docstring, in network / batch / layer order (with repeats)."""
    rows = []
    for net in CNNS:
        for batch in CNN_BATCHES:
            for layer in net():
                rows.extend(gemms_of(layer, batch))
    for net, batches in BATCHED:
        for batch in batches:
            rows.extend(net(batch))
    return rows + odd()


def per_network(rows: list[Gemm]) -> list[tuple[Gemm, int]]:
    """The distinct (shape, network) pairs of `rows`, first occurrence kept, with their counts."""
    return deduplicate(rows, key=lambda g: (g.key, g.net))


def tuning_set(total: int = TUNE_ROWS) -> list[tuple[Gemm, int]]:
    """gemm_tune25.csv: a stratified sample of the seed networks' and BERT-base's distinct shapes that no other
    network here uses."""
    seed = deduplicate(all_gemms())
    known = {g.key for g, _ in seed}
    bert = [(g, n) for g, n in deduplicate([g for b in (1, 8) for g in bert_base(b)]) if g.key not in known]
    unseen = {g.key for g in more_gemms() if g.net != "bert_base"}
    return quick_subset([r for r in seed + bert if r[0].key not in unseen], total, MORE_KINDS)


def unseen_set(total: int = UNSEEN_ROWS) -> list[tuple[Gemm, int]]:
    """gemm_unseen60.csv: a stratified sample of the distinct shapes of the networks gemm_tune25.csv never saw
    (every network here but BERT-base), without transposes (what the tuning builds instantiate) and of at most
    UNSEEN_MAX_FLOPS (a 2-core CPU measures the whole staged space on it in about half an hour): the shapes a
    deployment is evaluated on, leaving whole networks out."""
    seen = {g.key for g, _ in tuning_set()}
    rows = [(g, n) for g, n in deduplicate([g for g in more_gemms() if g.net != "bert_base"])
            if not g.trans_a and not g.trans_b and g.flops <= UNSEEN_MAX_FLOPS and g.key not in seen]
    return quick_subset(rows, total, MORE_KINDS)


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=Path, default=root / "data" / "shapes")
    args = parser.parse_args()
    rows = per_network(more_gemms())
    tune = tuning_set()
    write_csv(args.out_dir / "gemm_more_nets.csv", rows)
    write_csv(args.out_dir / "gemm_tune25.csv", tune)
    unseen = unseen_set()
    write_csv(args.out_dir / "gemm_unseen60.csv", unseen)
    nets = dict.fromkeys(g.net for g, _ in rows)
    print(f"{args.out_dir / 'gemm_more_nets.csv'}: {len(rows)} rows, {len({g.key for g, _ in rows})} distinct "
          f"shapes (" + ", ".join(f"{net} {sum(g.net == net for g, _ in rows)}" for net in nets) + ")")
    print(f"{args.out_dir / 'gemm_tune25.csv'}: {len(tune)} rows (" +
          ", ".join(f"{k} {sum(g.kind == k for g, _ in tune)}" for k in MORE_KINDS) + ")")
    print(f"{args.out_dir / 'gemm_unseen60.csv'}: {len(unseen)} rows (" +
          ", ".join(f"{net} {sum(g.net == net for g, _ in unseen)}" for net in dict.fromkeys(g.net for g, _ in unseen)) + ")")


if __name__ == "__main__":
    main()
