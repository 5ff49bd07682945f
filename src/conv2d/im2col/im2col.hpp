// im2col: the input patches of a range of output rows as a row-major matrix, one row per output pixel and
// window_h * window_w * in_c columns ordered (r, s, c) — the filter's RSCK order, so that the filter is the
// other GEMM operand as it is stored. Out-of-image elements (padding) are zeros. Written once in the kernel
// model: a group is one output row (n, y) and one window row r; its items copy the window row's
// window_w * in_c values, which are contiguous in the NHWC input when dilation_w is 1 and always contiguous in
// the matrix, for every output column in turn.
#pragma once

#include "conv2d/args.hpp"

namespace portkern::conv2d_impl {

struct Im2col {
  static constexpr int items = 64;
  using group_shape = kernel::Shape<items>;
  ConvArgs a;
  std::int64_t row_begin, row_end;   // output rows t = n * out_h + y in [row_begin, row_end)
  float* cols;                       // (row_end - row_begin) * out_w rows of window_h * window_w * in_c

  kernel::Range groups() const {
    return {(row_end - row_begin) * a.window_h, (a.window_w * a.in_c + items - 1) / items, 1};
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t r = g.x() % a.window_h, t = row_begin + g.x() / a.window_h;
    const std::int64_t oy = t % a.out_h, n = t / a.out_h;
    const std::int64_t span = a.window_w * a.in_c, width = a.window_h * span;
    const std::int64_t j0 = g.y() * items;
    const std::int64_t iy = oy * a.stride_h + r * a.dilation_h - a.pad_top;
    const bool row_inside = iy >= 0 && iy < a.in_h;
    const float* image_row = a.input + (n * a.in_h + (row_inside ? iy : 0)) * a.in_w * a.in_c;
    float* dst = cols + (t - row_begin) * a.out_w * width + r * span;
    // The group's items [j0, j_end) cross the window columns s_first.. (one division per group).
    const std::int64_t j_end = span < j0 + items ? span : j0 + items, s_first = j0 / a.in_c;
    for (std::int64_t ox = 0; ox < a.out_w; ++ox) {
      const std::int64_t ix0 = ox * a.stride_w - a.pad_left;
      float* to = dst + ox * width + j0;
      // Interior windows (no padding, no dilation): the window row is one contiguous run of the input —
      // a uniform branch to a plain copy, without the bounds checks.
      if (row_inside && a.dilation_w == 1 && ix0 >= 0 && ix0 + a.window_w <= a.in_w) {
        const float* src = image_row + ix0 * a.in_c + j0;
        g.for_each_item_below(j_end - j0, [&](kernel::Item item) { to[item.x] = src[item.x]; });
        continue;
      }
      // Elsewhere window column by window column: a run of in_c channels, or zeros outside the image.
      for (std::int64_t s = s_first; s * a.in_c < j_end; ++s) {
        const std::int64_t ix = ix0 + s * a.dilation_w, first = s * a.in_c;
        const bool inside = row_inside && ix >= 0 && ix < a.in_w;
        const int lo = int((first > j0 ? first : j0) - j0);
        const int hi = int((first + a.in_c < j_end ? first + a.in_c : j_end) - j0);
        // image_row[at + x]: channel j0 + x - first of column ix (an index, not a pointer: outside the image
        // it would point outside the allocation; and worked out inside only: a huge padding overflows ix * in_c)
        const std::int64_t at = inside ? ix * a.in_c - first + j0 : 0;
        g.for_each_item_below(hi, [&](kernel::Item item) {
          if (item.x >= lo) to[item.x] = inside ? image_row[at + item.x] : 0.f;
        });
      }
    }
  }
};

}  // namespace portkern::conv2d_impl
