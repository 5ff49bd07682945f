// grouped/gemm: a grouped convolution as one GEMM per channel group (CPU only).
//
// What it computes
//   For each group g of `groups`: output channels [g * Kg, (g + 1) * Kg) (Kg = out_c / groups) of every pixel =
//   the group's filter (Kg x window_h * window_w * Cg, Cg = in_c / groups: rows g * Kg.. of the RSCK filter seen
//   as out_c x window_h * window_w * Cg, leading dimension out_c) times the patches of its Cg input channels
//   (im2col.hpp's channel_group), then the epilogue (bias, residual, ReLU) on the group's channels. Each core
//   takes its own output rows (for_each_core_part) in chunks whose patches stay in its cache, and runs every
//   group's im2col and GEMM on them in turn.
//
// When it wins
//   Where the groups have channels enough to fill the GEMM's vectors: ResNeXt's 3x3 layers of 32 groups of
//   4-32 channels, against `grouped` (depthwise.hpp's phases, which keep each sum in memory between taps).
//   Depthwise convolutions (Kg and Cg of 1) go to `depthwise`.
#pragma once

#include "conv2d/args.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

// Runs the grouped convolution `a` (any window, stride, padding and dilation) on the CPU queue q.
void run_grouped_gemm(Queue& q, const ConvArgs& a);

}  // namespace portkern::conv2d_impl
