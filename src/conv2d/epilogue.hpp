// Bias and ReLU applied in place to `rows` x out_c of NHWC output (the GEMM-based algorithms' epilogue),
// written once in the kernel model: a group is one pixel and `Items` consecutive channels.
#pragma once

#include "conv2d/args.hpp"

namespace portkern::conv2d_impl {

struct BiasRelu {
  static constexpr int items = 64;
  using group_shape = kernel::Shape<items>;
  std::int64_t rows, channels;
  float* data;
  const float* bias;
  bool relu;

  kernel::Range groups() const { return {rows, (channels + items - 1) / items, 1}; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    float* row = data + g.x() * channels;
    const std::int64_t k0 = g.y() * items;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t k = k0 + item.x;
      if (k < channels) row[k] = finish(row[k], bias, relu, k);
    });
  }
};

}  // namespace portkern::conv2d_impl
