// im2col/in_place: the im2col GEMM with its patches read where they lie instead of written out (CPU only).
//
// What it computes
//   The convolution as output (out_c x pixels, NHWC) = filter (out_c x window_h * window_w * in_c, packed as
//   gemm_pack_a's panels) * patches, then the epilogue (bias, residual, ReLU) on each tile as it leaves the
//   registers. A patch (the column of one output pixel) is window_h runs of window_w * in_c contiguous
//   values of the NHWC image, one per window row, a padded image row apart: the CPU's patch micro-kernels
//   (portkern/kernel/cpu/microkernel.hpp) broadcast them straight from the image, so no patch matrix is
//   written or read back, and the only copy is of the image into a zero border when the convolution pads (in
//   bands of output rows that stay in a core's cache, each core its own share). A tile of pixels whose windows'
//   top or bottom rows lie wholly in that border skips them (on small images: 2 of a 3x3 window's 21 rows of
//   taps down a 7 x 7 image).
//   First layers (1-4 channels, a filter whose panels of 1-4 vectors stay in L1, rows of at least a tile) skip the
//   GEMM's tile loop: where the CPU's set has patch-row kernels for their column step (stride_w * channels), each
//   output row is one call per panel, the epilogue fused into its stores (microkernel.hpp's PatchRowKernel).
//
// When it wins
//   Where im2col's patch matrix is large beside the image: large windows and few channels (ResNet's 7x7/2
//   first layer, 27 of im2col's 49 values per pixel are copies), and strided layers. The patch runs are as
//   long as window_w * in_c, so 3-channel images multiply in runs of 21 (7x7) or 9 (3x3) steps.
#pragma once

#include <cstdint>

#include "conv2d/args.hpp"
#include "portkern/gemm_packed.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

// Runs the undilated, ungrouped convolution `a` on the CPU queue q.
void run_im2col_in_place(Queue& q, const ConvArgs& a);

// The image as far as its windows reach, inside the zero border they read, of `channels` of its channels a pixel
// (all of them, or a channel group's): pad_top rows and pad_left columns before it; after it as many as the last
// window needs (bottom / right padding no window reads is left out, and so are the image's own rows and columns no
// window reads: a huge padding copies no more than its windows' reach).
struct PaddedImage {
  std::int64_t h, w, channels;
  std::int64_t row_floats;   // w * channels, checked
  bool copied;               // false: the input itself (all channels, no border needed)
  // Whether the GEMM skips the window rows that read only the zero border above or below the image (PatchRows):
  // where they are at least 2% of the windows' rows, and a tile's depth is 256 or more.
  bool skips_border_rows;
};
PaddedImage padded_image(const ConvArgs& a, std::int64_t channels);

// The convolution `a` in bands of output rows, each core part (of `parts`) its share of the (channel group, output
// row) pairs: a band, of one group and one image, copies the padded rows of the group's p.channels channels its
// windows read (as many rows as stay in a core's cache: 0.5 MiB, PORTKERN_CONV2D_CHUNK_MB), then multiplies its
// pixels by filters[group] (the group's out_c / groups rows, packed), the epilogue on each tile. groups = 1: the
// ungrouped convolution, p of all in_c channels.
void run_bands(Queue& q, const ConvArgs& a, const PaddedImage& p, const GemmPackedA<float>* filters,
               std::int64_t groups, std::int64_t parts);

}  // namespace portkern::conv2d_impl
