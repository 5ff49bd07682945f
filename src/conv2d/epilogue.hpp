// Bias, a residual and ReLU applied in place to `rows` x `channels` of row-major data: data = relu?(data +
// residual[r][c] + bias[c]). The GEMM-based algorithms' epilogue (no residual), and the network runner's after
// a residual block or a linear layer (portkern/net.hpp). Written once in the kernel model: a group is one
// row (a pixel) and `items` consecutive channels.
#pragma once

#include "conv2d/args.hpp"

namespace portkern::conv2d_impl {

struct BiasRelu {
  static constexpr int items = 64;
  using group_shape = kernel::Shape<items>;
  std::int64_t rows, channels;
  float* data;
  const float* bias;       // channels values, or nullptr
  const float* residual;   // rows x channels, or nullptr
  bool relu;

  kernel::Range groups() const { return {rows, (channels + items - 1) / items, 1}; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    float* row = data + g.x() * channels;
    const float* add = residual ? residual + g.x() * channels : nullptr;
    const std::int64_t k0 = g.y() * items;
    g.for_each_item_below(channels - k0, [&](kernel::Item item) {
      const std::int64_t k = k0 + item.x;
      row[k] = finish(kernel::plus_if_set(row[k], add, k, row), bias, relu, k, data);
    });
  }
};

}  // namespace portkern::conv2d_impl
