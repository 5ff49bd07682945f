// The `depthwise` convolution family (MobileNet, EfficientNet): groups = in_c = out_c, each output channel the
// window_h x window_w convolution of its own input channel, written once in the kernel model.
//
// A group is one output row of one image (or one pixel, below) and `Items` consecutive channels; it walks its
// pixels, and for each runs a phase per tap of the window, in which item c adds the tap's product for channel c
// to its private sum (a register on CUDA; on the CPU the item loop is then the innermost loop, a vector loop:
// with the taps inside one phase GCC 12 left it scalar, 2-4 GFLOP/s), and a last phase that stores the sums.
// In NHWC the channels are the innermost dimension, so the items of a phase read consecutive input, filter and
// output addresses: SIMD lanes on the CPU, coalesced on CUDA. The taps inside the image are worked out per
// pixel, once for all items (uniform bounds: no per-tap or per-item condition), and the phase covers only the
// channels below out_c. Any window, stride, padding and dilation; bias, residual and ReLU in the store.
// Parameters: Items (channels per group), WholeRows (a group walks a whole output row, the CPU's mapping; else
// one pixel, CUDA's: with a row per group the H100 had too few groups, 31-124 GFLOP/s on MobileNetV2 /
// EfficientNet layers where a pixel per group ran 86-489), Grouped (the `grouped` algorithm: any groups, each
// output channel the sum over its group's in_c / groups input channels, a phase per tap and input channel in
// which item k reads its group's channel: a gathered load on the CPU, a value its group's threads share on
// CUDA; the first channel of each item's group is worked out once per group of items; where every item of a
// group of items is in the same channel group, one value read for all of them). It wins wherever it
// applies: the dense algorithms do not take groups, and `direct` sums each item's taps inside one phase, which
// GCC leaves scalar (4-6.5 GFLOP/s on ResNeXt's grouped layers on 2 Xeon cores).
#pragma once

#include <algorithm>

#include "conv2d/args.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::conv2d_impl {

template <int Items = 64, bool WholeRows = true, bool Grouped = false>
struct Conv2dDepthwise {
  using group_shape = kernel::Shape<Items>;
  ConvArgs a;

  // The output pixels of a group: a whole row, or one.
  PORTKERN_INLINE std::int64_t row_pixels() const { return WholeRows ? a.out_w : 1; }

  // x: output rows (n, y) or pixels (n, y, x), y: blocks of channels.
  kernel::Range groups() const {
    return {a.batch * a.out_h * (a.out_w / row_pixels()), (a.out_c + Items - 1) / Items, 1};
  }

  // The taps [first, end) of a window along one axis that fall inside [0, size), for the output at `out`.
  PORTKERN_INLINE static void inside(std::int64_t out, std::int64_t stride, std::int64_t pad, std::int64_t dilation,
                                     std::int64_t window, std::int64_t size, std::int64_t& first, std::int64_t& end) {
    const std::int64_t origin = out * stride - pad;   // the input index of tap 0
    first = origin >= 0 ? 0 : (-origin + dilation - 1) / dilation;
    const std::int64_t last = size - 1 - origin;      // the largest tap offset still inside
    end = last < 0 ? 0 : std::min(window, last / dilation + 1);
    if (end < first) end = first;
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t pixels = row_pixels(), first_x = WholeRows ? 0 : g.x() % a.out_w;
    const std::int64_t row = WholeRows ? g.x() : g.x() / a.out_w, oy = row % a.out_h, n = row / a.out_h;
    const std::int64_t c0 = g.y() * Items;
    const std::int64_t channels = a.out_c - c0;   // the items with a channel (all but in the last block)
    // Grouped: each output channel's group has group_in input channels, the first of item k's at first(k).
    const std::int64_t group_in = Grouped ? a.in_c / a.groups : 1, group_out = a.out_c / a.groups;
    // Where a group's output channels are a multiple of Items, the items of a group of items share one (uniform).
    const bool uniform = group_out % Items == 0;
    const std::int64_t first0 = c0 / group_out * group_in;
    kernel::private_array<int, 1, Group> first;
    if constexpr (Grouped)
      if (!uniform)
        g.for_each_item_below(channels,
                              [&](kernel::Item item) { first(item, 0) = int((c0 + item.x) / group_out * group_in); });
    std::int64_t r0, r1;
    inside(oy, a.stride_h, a.pad_top, a.dilation_h, a.window_h, a.in_h, r0, r1);
    // Offsets (not pointers: tap (0, 0) may lie outside the image) of the row's first input and output.
    const std::int64_t image = (n * a.in_h + oy * a.stride_h - a.pad_top) * a.in_w * a.in_c + (Grouped ? 0 : c0);
    const std::int64_t out_row = (n * a.out_h + oy) * a.out_w * a.out_c + c0;
    const float* filter = a.filter + c0;
    kernel::private_array<float, 1, Group> acc;   // each item's sum over the taps of the current pixel
    for (std::int64_t ox = first_x; ox < first_x + pixels; ++ox) {
      std::int64_t s0, s1;
      inside(ox, a.stride_w, a.pad_left, a.dilation_w, a.window_w, a.in_w, s0, s1);
      const std::int64_t pixel = image + (ox * a.stride_w - a.pad_left) * a.in_c;   // tap (0, 0)
      const std::int64_t out = out_row + ox * a.out_c;
      g.for_each_item_below(channels, [&](kernel::Item item) { acc(item, 0) = 0.f; });
      for (std::int64_t r = r0; r < r1; ++r)
        for (std::int64_t s = s0; s < s1; ++s) {   // a phase per tap (and input channel): the item loop innermost
          const float* in = a.input + pixel + (r * a.dilation_h * a.in_w + s * a.dilation_w) * a.in_c;
          const float* f = filter + (r * a.window_w + s) * group_in * a.out_c;
          if constexpr (Grouped) {
            if (uniform) {   // the items' channels all lie in one group: its input value is the same for every item
              for (std::int64_t c = 0; c < group_in; ++c, f += a.out_c) {
                const float v = in[first0 + c];
                g.for_each_item_below(channels, [&](kernel::Item item) { acc(item, 0) += v * f[item.x]; });
              }
            } else {
              for (std::int64_t c = 0; c < group_in; ++c, f += a.out_c)
                g.for_each_item_below(channels,
                                      [&](kernel::Item item) { acc(item, 0) += in[first(item, 0) + c] * f[item.x]; });
            }
          } else {
            g.for_each_item_below(channels, [&](kernel::Item item) { acc(item, 0) += in[item.x] * f[item.x]; });
          }
        }
      g.for_each_item_below(channels, [&](kernel::Item item) {
        a.output[out + item.x] = finish(acc(item, 0), a, out + item.x, c0 + item.x);
      });
    }
  }
};

}  // namespace portkern::conv2d_impl
