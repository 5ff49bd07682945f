#!/usr/bin/env python3
"""Generate data/shapes/conv_unseen_nets.csv: convolutions of networks that no conv2d deployment is tuned on
(the tuning sets are VGG-16, ResNet-50 and data/shapes/conv_more_nets.csv), for judging a deployment on layers
it never saw: `portkern bench conv2d --net data/shapes/conv_unseen_nets.csv`.

Networks (square windows, dense convolutions only; "same" padding unless noted "valid"):
  ResNet-18/34 (the basic blocks' 3x3 layers and 1x1/2 shortcuts), Darknet-53 / YOLOv3 at 416x416 (3x3/2
  downsampling, 1x1 / 3x3 pairs at 208 .. 13), U-Net at 256x256 (3x3 pairs from 64 to 1024 channels),
  Inception-v3 at 299x299 (the stem, valid; its 1x7 / 7x1 layers are not square), Xception's entry flow,
  ZFNet (7x7/2 on 3 channels), SSD300's VGG extras, and the patchify stems of vision transformers and
  ConvNeXt (16x16/16 to 768 channels, 4x4/4 to 96 and 128).

Rows with the same geometry as an earlier row, or as a layer of a tuning set, are left out. Standard library
only; deterministic: python3 tools/shapes/conv_unseen_nets.py [--out FILE]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from conv_nets import ROOT, same, valid, write_distinct


def pair(name, size, in_c, out_c):   # a 3x3 + 3x3 "same" pair (U-Net, ResNet-18's basic block)
    return [same(f"{name}a", 3, 1, size, in_c, out_c), same(f"{name}b", 3, 1, size, out_c, out_c)]


def darknet_stage(name, size, channels):   # a 3x3/2 downsample to `channels`, then a 1x1 / 3x3 residual pair
    return [same(f"{name}_down", 3, 2, size * 2, channels // 2, channels),
            same(f"{name}_1x1", 1, 1, size, channels, channels // 2), same(f"{name}_3x3", 3, 1, size, channels // 2, channels)]


NETS = {
    "resnet18": [same("layer2.0.conv1", 3, 2, 56, 64, 128), same("layer2.0.downsample", 1, 2, 56, 64, 128),
                 same("layer3.0.conv1", 3, 2, 28, 128, 256), same("layer3.0.downsample", 1, 2, 28, 128, 256),
                 same("layer4.0.conv1", 3, 2, 14, 256, 512), same("layer4.0.downsample", 1, 2, 14, 256, 512)],
    "darknet53": [same("conv0", 3, 1, 416, 3, 32), *darknet_stage("stage1", 208, 64), *darknet_stage("stage2", 104, 128),
                  *darknet_stage("stage3", 52, 256), *darknet_stage("stage4", 26, 512), *darknet_stage("stage5", 13, 1024)],
    "unet": [*pair("enc1", 256, 3, 64), *pair("enc2", 128, 64, 128), *pair("enc3", 64, 128, 256), *pair("enc4", 32, 256, 512),
             *pair("bottom", 16, 512, 1024), same("dec4", 3, 1, 32, 1024, 512), same("dec3", 3, 1, 64, 512, 256),
             same("dec2", 3, 1, 128, 256, 128), same("dec1", 3, 1, 256, 128, 64), same("head", 1, 1, 256, 64, 2)],
    "inception_v3": [valid("conv1", 3, 2, 299, 3, 32), valid("conv2", 3, 1, 149, 32, 32), same("conv3", 3, 1, 147, 32, 64),
                     valid("conv4", 1, 1, 73, 64, 80), valid("conv5", 3, 1, 73, 80, 192),
                     same("mixed5b_5x5", 5, 1, 35, 48, 64), same("mixed5b_3x3dbl", 3, 1, 35, 64, 96),
                     same("mixed5b_3x3dbl2", 3, 1, 35, 96, 96), valid("mixed6a_3x3", 3, 2, 35, 288, 384)],
    "xception": [valid("conv1", 3, 2, 299, 3, 32), valid("conv2", 3, 1, 149, 32, 64), same("block1_skip", 1, 2, 147, 64, 128)],
    "zfnet": [valid("conv1", 7, 2, 225, 3, 96), same("conv2", 5, 2, 110, 96, 256)],
    "ssd300": [same("conv6", 3, 1, 19, 512, 1024), same("conv8_2", 3, 2, 19, 256, 512), same("conv9_2", 3, 2, 10, 128, 256),
               valid("conv10_2", 3, 1, 5, 128, 256)],
    "vit_b16": [valid("patch_embed", 16, 16, 224, 3, 768)],
    "convnext_t": [valid("stem", 4, 4, 224, 3, 96), valid("downsample1", 2, 2, 56, 96, 192)],
    "swin_b": [valid("patch_embed", 4, 4, 224, 3, 128)],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "data/shapes/conv_unseen_nets.csv")
    write_distinct(NETS, ["conv_vgg16.csv", "conv_resnet50.csv", "conv_more_nets.csv"], parser.parse_args().out)


if __name__ == "__main__":
    main()
