// 2-D max and average pooling over NHWC, written once in the kernel model: a group is one output pixel and
// 64 consecutive channels, each item one channel (consecutive addresses across items). Only window elements
// inside the image take part: max ignores padding, average divides by the number of in-bounds elements.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::conv2d_impl {

struct PoolArgs {
  std::int64_t batch, in_h, in_w, channels, window_h, window_w, stride_h, stride_w, pad_top, pad_left, out_h, out_w;
  const float* input;
  float* output;
};

template <bool Max>
struct Pool2d {
  static constexpr int items = 64;
  using group_shape = kernel::Shape<items>;
  PoolArgs a;

  kernel::Range groups() const { return {a.batch * a.out_h * a.out_w, (a.channels + items - 1) / items, 1}; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t pixel = g.x(), ox = pixel % a.out_w, oy = (pixel / a.out_w) % a.out_h,
                       n = pixel / (a.out_w * a.out_h);
    const std::int64_t y0 = oy * a.stride_h - a.pad_top, x0 = ox * a.stride_w - a.pad_left;
    const std::int64_t y_begin = y0 < 0 ? 0 : y0, y_end = y0 + a.window_h < a.in_h ? y0 + a.window_h : a.in_h;
    const std::int64_t x_begin = x0 < 0 ? 0 : x0, x_end = x0 + a.window_w < a.in_w ? x0 + a.window_w : a.in_w;
    const float* image = a.input + n * a.in_h * a.in_w * a.channels;
    const std::int64_t c0 = g.y() * items, channels = a.channels - c0;
    // The window's loops outside the items, one phase per element with the accumulator in a private array:
    // on CUDA the same per-thread loop, on the CPU the items are the SIMD lanes of every step.
    kernel::private_array<float, 1, Group> acc;
    g.for_each_item_below(channels, [&](kernel::Item item) {
      acc(item, 0) = Max ? image[(y_begin * a.in_w + x_begin) * a.channels + c0 + item.x] : 0.f;
    });
    for (std::int64_t y = y_begin; y < y_end; ++y)
      for (std::int64_t x = x_begin; x < x_end; ++x) {
        const float* row = image + (y * a.in_w + x) * a.channels + c0;
        g.for_each_item_below(channels, [&](kernel::Item item) {
          const float value = row[item.x];
          if constexpr (Max)
            acc(item, 0) = value > acc(item, 0) ? value : acc(item, 0);
          else
            acc(item, 0) += value;
        });
      }
    const float count = float((y_end - y_begin) * (x_end - x_begin));
    g.for_each_item_below(channels, [&](kernel::Item item) {
      a.output[pixel * a.channels + c0 + item.x] = Max ? acc(item, 0) : acc(item, 0) / count;
    });
  }
};

}  // namespace portkern::conv2d_impl
