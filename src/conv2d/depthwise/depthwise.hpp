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
// group of items is in the same channel group, one value read for all of them). The depthwise mode wins wherever
// it applies: the dense algorithms do not take groups, and `direct` sums each item's taps inside one phase, which
// GCC leaves scalar. The grouped mode wins on the CPU (ResNeXt-50's grouped layers: 21.6-70.4 GFLOP/s on 2 Xeon
// cores, direct 4.6-6.8); on the H100 direct's one thread per output with its taps in registers ran them 1.31x
// faster, and the rule keeps direct there (rule.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

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
    first = origin >= 0 ? 0 : -(origin + 1) / dilation + 1;
    // The largest tap offset still inside, size - 1 - origin, in 64 unsigned bits: with a huge padding it exceeds
    // the signed ones (fuzz_conv_desc).
    if (origin > size - 1) {
      end = 0;
    } else {
      const std::uint64_t last = origin >= 0 ? std::uint64_t(size - 1 - origin)
                                             : std::uint64_t(size - 1) + std::uint64_t(-(origin + 1)) + 1;
      end = std::int64_t(std::min<std::uint64_t>(std::uint64_t(window), last / std::uint64_t(dilation) + 1));
    }
    if (end < first) end = first;
  }

  // What the pixels of a group share: its channel block and, grouped, its channels' groups; its image, the input
  // row of its taps' first row (outside the image where the window meets the padding) and its taps inside the
  // image along y, and the offset of its first output. An input's offset is worked out for taps inside the
  // image only: tap (0, 0)'s may lie far outside it (a padding of 2^62 overflowed the pointer; fuzz_conv_desc).
  struct Row {
    std::int64_t c0, channels, group_in, first0, r0, r1, n, iy0, out_row;
    bool uniform;   // grouped: every item's channel lies in the same group (its input value is shared)
  };

  // Pixels per block where a row's pixels have every tap inside the image along x (the CPU's rows), in a grouped
  // convolution whose items share their input values: each phase then updates P sums per item with one read of
  // the tap's filter values (ResNeXt-50's 16- and 32-channel groups on 2 Xeon cores: 27.6 -> 60.6 and 50.3 ->
  // 71.2 GFLOP/s). Not for the depthwise or gathering phases: there four pixels per phase ran 2-3x and 1.2x
  // slower (MobileNetV2 43.7 -> 17.3 GFLOP/s; ResNeXt's 4-channel groups 26.9 -> 22.5).
  static constexpr int P = WholeRows && Grouped ? 4 : 1;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t pixels = row_pixels(), first_x = WholeRows ? 0 : g.x() % a.out_w;
    const std::int64_t row = WholeRows ? g.x() : g.x() / a.out_w, oy = row % a.out_h, n = row / a.out_h;
    Row w;
    w.c0 = g.y() * Items;
    w.channels = a.out_c - w.c0;   // the items with a channel (all but in the last block)
    // Grouped: each output channel's group has group_in input channels, the first of item k's at first(k).
    w.group_in = Grouped ? a.in_c / a.groups : 1;
    const std::int64_t group_out = a.out_c / a.groups;
    // Where a group's output channels are a multiple of Items, the items of a group of items share one (uniform).
    w.uniform = group_out % Items == 0;
    w.first0 = w.c0 / group_out * w.group_in;
    kernel::private_array<int, 1, Group> first;
    if constexpr (Grouped)
      if (!w.uniform)
        g.for_each_item_below(w.channels,
                              [&](kernel::Item item) { first(item, 0) = int((w.c0 + item.x) / group_out * w.group_in); });
    inside(oy, a.stride_h, a.pad_top, a.dilation_h, a.window_h, a.in_h, w.r0, w.r1);
    w.n = n;
    w.iy0 = oy * a.stride_h - a.pad_top;
    w.out_row = (n * a.out_h + oy) * a.out_w * a.out_c + w.c0;
    // The pixels whose taps all lie inside the image along x: [x_lo, x_hi), without overflow where the padding
    // is near 2^63 (fuzz_conv_desc). `last` is the last column tap 0 may take in the unpadded image.
    const std::int64_t x_lo = a.pad_left == 0 ? 0 : (a.pad_left - 1) / a.stride_w + 1;
    const std::int64_t last = a.in_w - 1 - (a.window_w - 1) * a.dilation_w;
    constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
    std::int64_t x_hi = a.out_w;   // where last + pad_left exceeds 64 bits, every pixel's taps end inside
    if (last < 0 && a.pad_left < -last) x_hi = 0;
    else if (last <= 0 || a.pad_left <= most - last) x_hi = (last + a.pad_left) / a.stride_w + 1;
    kernel::private_array<float, P, Group> acc;   // each item's sums over the taps of the current pixels
    for (std::int64_t ox = first_x; ox < first_x + pixels;) {
      if (P > 1 && w.uniform && ox >= x_lo && ox + P <= x_hi) {
        convolve<P>(g, w, ox, 0, a.window_w, first, acc);
        ox += P;
      } else {
        std::int64_t s0, s1;
        inside(ox, a.stride_w, a.pad_left, a.dilation_w, a.window_w, a.in_w, s0, s1);
        convolve<1>(g, w, ox, s0, s1, first, acc);
        ox += 1;
      }
    }
  }

  // The outputs of Q consecutive pixels from ox on, whose taps along x are [s0, s1) (all of them for Q > 1): a
  // phase per tap (and input channel), the item loop innermost, the Q sums of an item updated together.
  template <int Q, class Group, class First, class Acc>
  PORTKERN_INLINE void convolve(Group& g, const Row& w, std::int64_t ox, std::int64_t s0, std::int64_t s1,
                                First& first, Acc& acc) const {
    // From one pixel's input to the next's: used where Q > 1, whose pixels' taps all lie inside the image (a
    // single pixel's stride may be far larger than the image: 2^62 overflowed; fuzz_conv_desc).
    const std::int64_t step = Q > 1 ? a.stride_w * a.in_c : 0;
    const std::int64_t ix0 = ox * a.stride_w - a.pad_left;   // the input column of the first pixel's tap 0
    const std::int64_t out = w.out_row + ox * a.out_c;
    const float* filter = a.filter + w.c0;
    g.for_each_item_below(w.channels, [&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int q = 0; q < Q; ++q) acc(item, q) = 0.f;
    });
    for (std::int64_t r = w.r0; r < w.r1; ++r)
      for (std::int64_t s = s0; s < s1; ++s) {
        const std::int64_t iy = w.iy0 + r * a.dilation_h, ix = ix0 + s * a.dilation_w;   // inside the image
        const float* in = a.input + ((w.n * a.in_h + iy) * a.in_w + ix) * a.in_c + (Grouped ? 0 : w.c0);
        const float* f = filter + (r * a.window_w + s) * w.group_in * a.out_c;
        if constexpr (Grouped) {
          if (w.uniform) {   // the items' channels all lie in one group: its input value is the same for every item
            for (std::int64_t c = 0; c < w.group_in; ++c, f += a.out_c) {
              float v[Q];
              PORTKERN_UNROLL
              for (int q = 0; q < Q; ++q) v[q] = in[q * step + w.first0 + c];
              g.for_each_item_below(w.channels, [&](kernel::Item item) {
                const float weight = f[item.x];
                PORTKERN_UNROLL
                for (int q = 0; q < Q; ++q) acc(item, q) += v[q] * weight;
              });
            }
          } else {
            for (std::int64_t c = 0; c < w.group_in; ++c, f += a.out_c)
              g.for_each_item_below(w.channels, [&](kernel::Item item) {
                const float weight = f[item.x];
                const float* x = in + first(item, 0) + c;
                PORTKERN_UNROLL
                for (int q = 0; q < Q; ++q) acc(item, q) += x[q * step] * weight;
              });
          }
        } else {
          g.for_each_item_below(w.channels, [&](kernel::Item item) {
            const float weight = f[item.x];
            PORTKERN_UNROLL
            for (int q = 0; q < Q; ++q) acc(item, q) += in[q * step + item.x] * weight;
          });
        }
      }
    g.for_each_item_below(w.channels, [&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int q = 0; q < Q; ++q) {
        const std::int64_t at = out + q * a.out_c + item.x;
        a.output[at] = finish(acc(item, q), a, at, w.c0 + item.x);
      }
    });
  }
};

}  // namespace portkern::conv2d_impl
