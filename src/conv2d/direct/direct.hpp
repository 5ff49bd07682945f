// The `direct` convolution family: seed 000's Algorithm 1, written once in the kernel model.
//
// Computes the whole convolution (any window, stride, padding, dilation and groups, bias and ReLU) with one
// item per output element: a group is one output pixel and `Items` consecutive output channels; each item sums
// window_h x window_w x (in_c / groups) products, reading the filter's k-contiguous rows (consecutive items read
// consecutive addresses: coalesced on CUDA, SIMD lanes on the CPU) and the input values of its channel group
// (shared by all items in a dense convolution; in a depthwise one, consecutive channels across the items).
// Parameters: Items (output channels per group). It is the baseline of the benchmarks, the reference on the
// device, and the only path for dilation > 1 and for grouped and depthwise convolutions.
#pragma once

#include "conv2d/args.hpp"

namespace portkern::conv2d_impl {

template <int Items = 64>
struct Conv2dDirect {
  using group_shape = kernel::Shape<Items>;
  ConvArgs a;

  // x: output pixels (n, y, x), y: blocks of output channels.
  kernel::Range groups() const {
    return {a.batch * a.out_h * a.out_w, (a.out_c + Items - 1) / Items, 1};
  }

  // Two uniform cases: a dense convolution, whose items read the same input channels, or a grouped one, whose
  // items each find their group's channels (an integer division per item, which cost dense layers 10-25%).
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    if (a.groups == 1) convolve<false>(g);
    else convolve<true>(g);
  }

  template <bool Grouped, class Group>
  PORTKERN_INLINE void convolve(Group& g) const {
    const std::int64_t pixel = g.x(), ox = pixel % a.out_w, oy = (pixel / a.out_w) % a.out_h,
                       n = pixel / (a.out_w * a.out_h);
    const std::int64_t k0 = g.y() * Items;
    const std::int64_t group_in = a.in_c / a.groups, group_out = a.out_c / a.groups;
    const float* image = a.input + n * a.in_h * a.in_w * a.in_c;
    float* out = a.output + pixel * a.out_c;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t k = k0 + item.x;
      if (k >= a.out_c) return;
      const std::int64_t first_in = Grouped ? k / group_out * group_in : 0;   // its group's first input channel
      float acc = 0.f;
      for (std::int64_t r = 0; r < a.window_h; ++r) {
        const std::int64_t iy = oy * a.stride_h + r * a.dilation_h - a.pad_top;
        if (iy < 0 || iy >= a.in_h) continue;
        for (std::int64_t s = 0; s < a.window_w; ++s) {
          const std::int64_t ix = ox * a.stride_w + s * a.dilation_w - a.pad_left;
          if (ix < 0 || ix >= a.in_w) continue;
          const float* in = image + (iy * a.in_w + ix) * a.in_c + first_in;
          const float* f = a.filter + (r * a.window_w + s) * group_in * a.out_c + k;
          for (std::int64_t c = 0; c < group_in; ++c) acc += in[c] * f[c * a.out_c];
        }
      }
      out[k] = finish(acc, a, out - a.output + k, k);
    });
  }
};

}  // namespace portkern::conv2d_impl
