"""What the library does around a generated deployment, which the analysis must model, and the hand-written
rules that deployments replaced, kept as baselines.

Fallback: a conv2d deployment's pick that does not apply to a shape (a tree that never saw a 7x7 window may
choose Winograd for one, or gemm_1x1 for a 1x1 window of stride 2) is replaced at run time by im2col, which
takes any undilated convolution (src/conv2d/rule.cpp): on a CPU im2col/in_place, the patches read in place
(above im2col/chunked on 326 of the 330 rows of the cpu-avx512 dataset of 2026-11-26; 1.17x geomean), on a GPU
im2col/whole. The analysis scores a pick that cannot run on a shape as that fallback.

Baselines: what each replaced rule would pick per shape of a dataset, so that the analysis reports the
deployment against the rule it replaces on the same measurements.

conv2d: the rule of src/conv2d/rule.cpp before `portkern tune conv2d` (commit 6d1f211), in order:
  1x1 window, stride 1, no padding            -> gemm_1x1/default
  3x3, stride 1, in_c >= 16 and out_c >= 16   -> winograd/f4 when the output is at least 20 x 20, else winograd/f2
  anything else                               -> im2col/chunked on a CPU, im2col/whole on a GPU
"""
from __future__ import annotations

import pandas as pd


def conv2d_rule(shapes: pd.DataFrame, device: str) -> list[str]:
    """The configuration the hand-written conv2d rule picks for each shape (dilation 1) on `device`."""
    picks = []
    for s in shapes.itertuples(index=False):
        if s.window_h == 1 and s.window_w == 1 and s.stride_h == 1 and s.stride_w == 1 and s.pad_h == 0 \
                and s.pad_w == 0:
            picks.append("gemm_1x1/default")
        elif s.window_h == 3 and s.window_w == 3 and s.stride_h == 1 and s.stride_w == 1 and s.in_c >= 16 \
                and s.out_c >= 16:
            picks.append("winograd/f4" if s.out_h >= 20 and s.out_w >= 20 else "winograd/f2")
        else:
            picks.append("im2col/chunked" if device.startswith("cpu") else "im2col/whole")
    return picks


def conv2d_fallback(device: str) -> str:
    """The configuration the library runs when the deployment's pick does not apply."""
    return "im2col/in_place" if device.startswith("cpu") else "im2col/whole"


FALLBACKS = {"conv2d": conv2d_fallback}
BASELINES = {"conv2d": ("hand-written rule (src/conv2d/rule.cpp before tuning)", conv2d_rule)}
