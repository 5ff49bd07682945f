#!/usr/bin/env python3
"""Generate the GEMM problem set of seed 001 ("matrix sizes from VGG, ResNet and MobileNet").

Writes, relative to the repository root:
  data/shapes/gemm_nets.csv        every distinct GEMM of VGG-16, ResNet-50 and MobileNetV2 at batch 1 and 16
  data/shapes/gemm_nets_quick.csv  a deterministic, stratified subset (~40 rows) for time-boxed runs

Convention (as in shared/shapes/gemm_seed.csv): C (m x n) = A (m x k) * B (k x n), repeated `batch` times,
no transposes (trans_a = trans_b = 0).

  im2col   a convolution lowered in NHWC: m = out_h*out_w, k = window_h*window_w*in_c, n = out_k,
           batch = network batch (one strided-batched GEMM per image). Strided 1x1 convs (ResNet's
           projection shortcuts) are im2col too: the input has to be subsampled first.
  conv1x1  a 1x1 stride-1 convolution, no lowering needed: m = out_h*out_w, k = in_c, n = out_k,
           batch = network batch.
  fc       a fully connected layer: m = network batch, k = in features, n = out features, batch = 1.
  winograd2/winograd4
           the batched GEMMs of Winograd F(2x2,3x3) / F(4x4,3x3) for every 3x3 stride-1 convolution: one GEMM
           per transform point (batch = 16 / 36), m = network batch * ceil(out_h/r) * ceil(out_w/r) tiles
           (r = 2 / 4), k = in_c, n = out_k.

Depthwise convolutions (MobileNetV2) are not GEMMs and are skipped. Pooling layers only change sizes.

Networks: VGG-16 (configuration D), ResNet-50 v1.5 (torchvision layout: the stride of a down-sampling
bottleneck sits on its 3x3 conv, projection shortcut = 1x1 conv with the same stride), MobileNetV2 (width 1.0),
all on 224x224x3 inputs with "same" padding (out = ceil(in / stride)).

Identical (m, k, n, batch) rows are merged; the row keeps the net and layer of its first occurrence, and when
the shape occurs more than once its layer gets the suffix " (xN)", N = number of occurrences (layers x nets
x batch sizes) — the count lives there so that the header stays exactly
`m,k,n,batch,trans_a,trans_b,net,layer,kind`.

Standard library only; deterministic. Run as `python3 tools/shapes/gemm_nets.py [--out-dir DIR] [--batches 1,16]`
(the committed files use the default batches 1 and 16).
"""
from __future__ import annotations

import argparse
import csv
import math
from dataclasses import dataclass
from pathlib import Path

BATCHES = (1, 16)
IMAGE = 224
QUICK_ROWS = 40
HEADER = ["m", "k", "n", "batch", "trans_a", "trans_b", "net", "layer", "kind"]
KINDS = ("im2col", "conv1x1", "fc", "winograd2", "winograd4")


@dataclass(frozen=True)
class Conv:
    """A dense 2-D convolution with a square window and "same" padding (no padding when `valid`)."""
    net: str
    name: str
    window: int
    stride: int
    in_hw: int
    in_c: int
    out_k: int
    valid: bool = False

    @property
    def out_hw(self) -> int:
        if self.valid:
            return (self.in_hw - self.window) // self.stride + 1
        return math.ceil(self.in_hw / self.stride)


@dataclass(frozen=True)
class Dense:
    """A fully connected layer."""
    net: str
    name: str
    in_features: int
    out_features: int


@dataclass(frozen=True)
class Gemm:
    m: int
    k: int
    n: int
    batch: int
    net: str
    layer: str
    kind: str
    trans_a: int = 0
    trans_b: int = 0

    @property
    def key(self) -> tuple[int, int, int, int, int, int]:
        return (self.m, self.k, self.n, self.batch, self.trans_a, self.trans_b)

    @property
    def flops(self) -> int:
        return 2 * self.m * self.k * self.n * self.batch


def vgg16() -> list:
    """VGG-16 (configuration D): 13 3x3 convs in 5 blocks, each block ending in a 2x2 max-pool; 3 FC layers."""
    layers: list = []
    hw, c = IMAGE, 3
    for block, (width, convs) in enumerate([(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)], start=1):
        for i in range(1, convs + 1):
            layers.append(Conv("vgg16", f"conv{block}_{i}", 3, 1, hw, c, width))
            c = width
        hw //= 2
    feats = hw * hw * c  # 7 * 7 * 512 = 25088
    for name, out in (("fc6", 4096), ("fc7", 4096), ("fc8", 1000)):
        layers.append(Dense("vgg16", name, feats, out))
        feats = out
    return layers


def resnet50() -> list:
    """ResNet-50 v1.5: 7x7/2 stem, 3x3/2 max-pool, 4 stages of bottlenecks (1x1, 3x3 with the stage's stride, 1x1
    expanding 4x), a strided 1x1 projection on each stage's first block, global average pool, FC 2048 -> 1000."""
    layers: list = [Conv("resnet50", "conv1", 7, 2, IMAGE, 3, 64)]
    hw = math.ceil(layers[0].out_hw / 2)  # max-pool 3x3/2: 112 -> 56
    c = 64
    for stage, (mid, blocks, stride) in enumerate([(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)], start=1):
        out = 4 * mid
        for b in range(blocks):
            s = stride if b == 0 else 1
            prefix = f"layer{stage}.{b}"
            layers.append(Conv("resnet50", f"{prefix}.conv1", 1, 1, hw, c, mid))
            layers.append(Conv("resnet50", f"{prefix}.conv2", 3, s, hw, mid, mid))
            out_hw = math.ceil(hw / s)
            layers.append(Conv("resnet50", f"{prefix}.conv3", 1, 1, out_hw, mid, out))
            if b == 0:
                layers.append(Conv("resnet50", f"{prefix}.downsample", 1, s, hw, c, out))
            hw, c = out_hw, out
    layers.append(Dense("resnet50", "fc", c, 1000))
    return layers


def mobilenet_v2() -> list:
    """MobileNetV2 (width 1.0): 3x3/2 stem, 17 inverted residual blocks (1x1 expansion by t unless t == 1,
    depthwise 3x3 carrying the stride — skipped, 1x1 projection), final 1x1 conv to 1280, FC 1280 -> 1000."""
    layers: list = [Conv("mobilenet_v2", "features.0", 3, 2, IMAGE, 3, 32)]
    hw, c = layers[0].out_hw, 32
    index = 1
    for t, width, repeats, stride in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                                      (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for r in range(repeats):
            s = stride if r == 0 else 1
            hidden = c * t
            if t != 1:
                layers.append(Conv("mobilenet_v2", f"features.{index}.expand", 1, 1, hw, c, hidden))
            hw = math.ceil(hw / s)  # the depthwise conv applies the stride
            layers.append(Conv("mobilenet_v2", f"features.{index}.project", 1, 1, hw, hidden, width))
            c = width
            index += 1
    layers.append(Conv("mobilenet_v2", f"features.{index}", 1, 1, hw, c, 1280))
    layers.append(Dense("mobilenet_v2", "classifier", 1280, 1000))
    return layers


def gemms_of(layer, batch: int) -> list[Gemm]:
    """The GEMMs computing `layer` for a network batch of `batch` images (see the module docstring)."""
    if isinstance(layer, Dense):
        return [Gemm(batch, layer.in_features, layer.out_features, 1, layer.net, layer.name, "fc")]
    out = layer.out_hw
    kind = "conv1x1" if layer.window == 1 and layer.stride == 1 else "im2col"
    rows = [Gemm(out * out, layer.window * layer.window * layer.in_c, layer.out_k, batch, layer.net, layer.name,
                 kind)]
    if layer.window == 3 and layer.stride == 1:
        for tile, points, kind in ((2, 16, "winograd2"), (4, 36, "winograd4")):
            tiles = batch * math.ceil(out / tile) ** 2
            rows.append(Gemm(tiles, layer.in_c, layer.out_k, points, layer.net, layer.name, kind))
    return rows


def all_gemms(batches: tuple[int, ...] = BATCHES) -> list[Gemm]:
    """Every GEMM of every network at every batch size, in network / batch / layer order (with repeats)."""
    rows = []
    for net in (vgg16(), resnet50(), mobilenet_v2()):
        for batch in batches:
            for layer in net:
                rows.extend(gemms_of(layer, batch))
    return rows


def deduplicate(rows: list[Gemm], key=lambda g: g.key) -> list[tuple[Gemm, int]]:
    """Merge rows with the same `key` (default: the shape, (m, k, n, batch, trans_a, trans_b)), keeping the first
    and counting the occurrences."""
    first: dict[tuple, Gemm] = {}
    count: dict[tuple, int] = {}
    for g in rows:
        first.setdefault(key(g), g)
        count[key(g)] = count.get(key(g), 0) + 1
    return [(g, count[k]) for k, g in first.items()]


def quick_subset(rows: list[tuple[Gemm, int]], total: int = QUICK_ROWS,
                 kinds: tuple[str, ...] = KINDS) -> list[tuple[Gemm, int]]:
    """A deterministic stratified sample of distinct shapes: each of `kinds` gets a share of `total` proportional
    to its size (at least 4, largest remainders first), and within a kind the rows are spread evenly over the
    range of FLOP counts."""
    by_kind = {kind: sorted((r for r in rows if r[0].kind == kind), key=lambda r: (r[0].flops, r[0].key))
               for kind in kinds}
    by_kind = {k: v for k, v in by_kind.items() if v}
    total = min(total, len(rows))
    floor = min(4, total // max(1, len(by_kind)))
    quota = {k: min(len(v), floor) for k, v in by_kind.items()}
    spare = total - sum(quota.values())
    size = sum(len(v) for v in by_kind.values())
    ideal = {k: total * len(v) / size for k, v in by_kind.items()}
    while spare > 0:
        open_kinds = [k for k in by_kind if quota[k] < len(by_kind[k])]
        if not open_kinds:
            break
        k = max(open_kinds, key=lambda k: (ideal[k] - quota[k], -kinds.index(k)))
        quota[k] += 1
        spare -= 1
    chosen = []
    for kind in kinds:
        items = by_kind.get(kind, [])
        q = quota.get(kind, 0)
        if q == 0:
            continue
        picks = sorted({round(i * (len(items) - 1) / (q - 1)) for i in range(q)} if q > 1 else {len(items) // 2})
        chosen.extend(items[i] for i in picks)
    order = {r[0].key: i for i, r in enumerate(rows)}
    return sorted(chosen, key=lambda r: order[r[0].key])


def write_csv(path: Path, rows: list[tuple[Gemm, int]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(HEADER)
        for g, n in rows:
            layer = g.layer if n == 1 else f"{g.layer} (x{n})"
            w.writerow([g.m, g.k, g.n, g.batch, g.trans_a, g.trans_b, g.net, layer, g.kind])


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", type=Path, default=root / "data" / "shapes")
    parser.add_argument("--batches", default=",".join(map(str, BATCHES)),
                        help="comma-separated network batch sizes (default: %(default)s)")
    args = parser.parse_args()
    rows = deduplicate(all_gemms(tuple(int(b) for b in args.batches.split(","))))
    quick = quick_subset(rows)
    write_csv(args.out_dir / "gemm_nets.csv", rows)
    write_csv(args.out_dir / "gemm_nets_quick.csv", quick)
    kinds = ", ".join(f"{k} {sum(r[0].kind == k for r in rows)}" for k in KINDS)
    print(f"{args.out_dir / 'gemm_nets.csv'}: {len(rows)} distinct GEMMs ({kinds})")
    print(f"{args.out_dir / 'gemm_nets_quick.csv'}: {len(quick)} rows")


if __name__ == "__main__":
    main()
