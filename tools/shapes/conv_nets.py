#!/usr/bin/env python3
"""Generate data/shapes/conv_more_nets.csv: the distinct convolutions of more networks than the seed's VGG-16
and ResNet-50, for `portkern tune conv2d` (the selector learns which algorithm wins from the layers it is
tuned on: the seed's two networks alone have a single 7x7 layer, a single 3-channel 3x3 layer and no 5x5).

Networks (224x224x3 inputs unless noted; "same" padding, out = ceil(in / stride), unless noted "valid"):
  AlexNet (227x227, conv1 11x11/4 valid), GoogLeNet (Inception v1: the stem, inception 3a, 4a, 4e and 5b),
  MobileNet v1 (conv1 and the pointwise 1x1 layers; depthwise convolutions are not conv2d's), MobileNetV2
  (conv1, the expansion and projection 1x1 layers of one block per resolution), SqueezeNet 1.1 (conv1 3x3/2
  valid, the fire modules 2, 4, 6, 8, conv10) and DenseNet-121 (growth 32: bottleneck 1x1 to 128 channels
  at a few input widths, the 3x3 to 32 channels, the transitions).

Columns as in the seed's files: layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k; `layer` is
"<net>/<layer>". Rows with the same geometry as an earlier row (or as a VGG-16 / ResNet-50 layer) are left
out. Standard library only; deterministic: python3 tools/shapes/conv_nets.py [--out FILE]
"""
from __future__ import annotations

import argparse
import csv
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def same(name, window, stride, size, in_c, out_c):
    out = math.ceil(size / stride)
    return (name, window, stride, size, size, in_c, out, out, out_c)


def valid(name, window, stride, size, in_c, out_c):
    out = (size - window) // stride + 1
    return (name, window, stride, size, size, in_c, out, out, out_c)


def inception(name, size, in_c, c1, r3, c3, r5, c5, proj):
    return [same(f"{name}_1x1", 1, 1, size, in_c, c1), same(f"{name}_3x3_reduce", 1, 1, size, in_c, r3),
            same(f"{name}_3x3", 3, 1, size, r3, c3), same(f"{name}_5x5_reduce", 1, 1, size, in_c, r5),
            same(f"{name}_5x5", 5, 1, size, r5, c5), same(f"{name}_pool_proj", 1, 1, size, in_c, proj)]


def fire(name, size, in_c, squeeze, expand):
    return [same(f"{name}_squeeze", 1, 1, size, in_c, squeeze), same(f"{name}_expand1x1", 1, 1, size, squeeze, expand),
            same(f"{name}_expand3x3", 3, 1, size, squeeze, expand)]


NETS = {
    "alexnet": [valid("conv1", 11, 4, 227, 3, 96), same("conv2", 5, 1, 27, 96, 256), same("conv3", 3, 1, 13, 256, 384),
                same("conv4", 3, 1, 13, 384, 384), same("conv5", 3, 1, 13, 384, 256)],
    "googlenet": [same("conv1", 7, 2, 224, 3, 64), same("conv2_reduce", 1, 1, 56, 64, 64), same("conv2", 3, 1, 56, 64, 192),
                  *inception("3a", 28, 192, 64, 96, 128, 16, 32, 32), *inception("4a", 14, 480, 192, 96, 208, 16, 48, 64),
                  *inception("4e", 14, 528, 256, 160, 320, 32, 128, 128),
                  *inception("5b", 7, 832, 384, 192, 384, 48, 128, 128)],
    "mobilenet_v1": [same("conv1", 3, 2, 224, 3, 32), same("pw1", 1, 1, 112, 32, 64), same("pw2", 1, 1, 56, 64, 128),
                     same("pw3", 1, 1, 56, 128, 128), same("pw4", 1, 1, 28, 128, 256), same("pw5", 1, 1, 28, 256, 256),
                     same("pw6", 1, 1, 14, 256, 512), same("pw7", 1, 1, 14, 512, 512), same("pw12", 1, 1, 7, 512, 1024),
                     same("pw13", 1, 1, 7, 1024, 1024)],
    "mobilenet_v2": [same("block1_project", 1, 1, 112, 32, 16), same("block2_expand", 1, 1, 112, 16, 96),
                     same("block2_project", 1, 1, 56, 96, 24), same("block3_expand", 1, 1, 56, 24, 144),
                     same("block4_project", 1, 1, 28, 144, 32), same("block5_expand", 1, 1, 28, 32, 192),
                     same("block8_expand", 1, 1, 14, 64, 384), same("block8_project", 1, 1, 14, 384, 64),
                     same("block14_expand", 1, 1, 7, 160, 960), same("block14_project", 1, 1, 7, 960, 160),
                     same("conv_last", 1, 1, 7, 320, 1280)],
    "squeezenet1_1": [valid("conv1", 3, 2, 224, 3, 64), *fire("fire2", 55, 64, 16, 64), *fire("fire4", 27, 128, 32, 128),
                      *fire("fire6", 13, 256, 48, 192), *fire("fire8", 13, 384, 64, 256),
                      same("conv10", 1, 1, 13, 512, 1000)],
    "densenet121": [same("block1_bottleneck_64", 1, 1, 56, 64, 128), same("block1_bottleneck_160", 1, 1, 56, 160, 128),
                    same("block1_conv_56", 3, 1, 56, 128, 32), same("transition1", 1, 1, 56, 256, 128),
                    same("block2_bottleneck_320", 1, 1, 28, 320, 128), same("block2_conv_28", 3, 1, 28, 128, 32),
                    same("block3_bottleneck_768", 1, 1, 14, 768, 128), same("block3_conv_14", 3, 1, 14, 128, 32),
                    same("transition3", 1, 1, 14, 1024, 512), same("block4_conv_7", 3, 1, 7, 128, 32)],
}


def geometry(row) -> tuple:
    return tuple(row[1:])


SHAPE_COLUMNS = ("window", "stride", "in_h", "in_w", "in_c", "out_h", "out_w", "out_k")


def write_distinct(nets: dict, known: list[str], out: Path) -> None:
    """Writes the layers of `nets` to `out` as "<net>/<layer>" rows, each geometry once and none with the geometry
    of a layer in the shape files `known` (names in data/shapes/)."""
    seen = set()
    for name in known:
        with open(ROOT / "data/shapes" / name) as f:
            for r in csv.DictReader(f):
                seen.add(tuple(int(r[k]) for k in SHAPE_COLUMNS))
    rows = []
    for net, layers in nets.items():
        for row in layers:
            if geometry(row) not in seen:
                seen.add(geometry(row))
                rows.append((f"{net}/{row[0]}", *row[1:]))
    with open(out, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["layer", *SHAPE_COLUMNS])
        writer.writerows(rows)
    print(f"wrote {out}: {len(rows)} layers")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "data/shapes/conv_more_nets.csv")
    write_distinct(NETS, ["conv_vgg16.csv", "conv_resnet50.csv"], parser.parse_args().out)


if __name__ == "__main__":
    main()
