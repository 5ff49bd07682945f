// grouped/gemm: a grouped convolution as one GEMM per channel group (CPU only).
//
// What it computes
//   For each group g of `groups`: output channels [g * Kg, (g + 1) * Kg) (Kg = out_c / groups) of every pixel =
//   the group's filter (Kg x window_h * window_w * Cg, Cg = in_c / groups: rows g * Kg.. of the RSCK filter seen
//   as out_c x window_h * window_w * Cg, leading dimension out_c; packed into the CPU GEMM's panels, once by
//   conv2d_pack_filter or else on each call) times the patches of its Cg input channels, then the epilogue
//   (bias, residual, ReLU) on each tile. The work, (group, output row) pairs group by group, is split evenly
//   over the cores; each core walks its share in chunks of one group's rows. Undilated, a chunk's patches are
//   read in place (im2col/in_place's patch micro-kernels) from a band of the group's channels of the padded rows
//   its windows read, a copy of a fraction of the image (1.12x the patches written out on 43 grouped layers,
//   docs/performance.md); dilated, they are written out as im2col's, a chunk that stays in the core's cache.
//   The products are cpu_packed's (prepacked.hpp), whatever the queue's GEMM family, as im2col/in_place's.
//
// When it wins
//   Where the groups have channels enough to fill the GEMM's vectors and are not grouped/default's block-
//   diagonal ones of 8 (or of 16 on small or strided images): groups of 24, 32, 48, 64 and more channels (RegNet,
//   ResNeXt), few groups of many channels (AlexNet's 2, ShuffleNet's 3). Depthwise convolutions (Kg and Cg of 1)
//   go to `depthwise`.
#pragma once

#include <vector>

#include "conv2d/args.hpp"
#include "portkern/gemm_packed.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

// Runs the grouped convolution `a` (any window, stride, padding and dilation) on the CPU queue q; a.packed_filter,
// where set, points at the groups' packed filters (pack_group_filters), one after the other.
void run_grouped_gemm(Queue& q, const ConvArgs& a);

// The RSCK filter of `groups` groups (out_c x width as a column-major matrix, leading dimension out_c; width =
// window_h * window_w * in_c / groups) packed a group's rows at a time: group g's out_c / groups rows from g *
// out_c / groups on.
std::vector<GemmPackedA<float>> pack_group_filters(Queue& q, std::int64_t groups, std::int64_t out_c,
                                                   std::int64_t width, const float* filter);

}  // namespace portkern::conv2d_impl
