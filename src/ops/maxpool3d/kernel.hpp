// The portable maxpool3d kernels. A group of 32 x 8 items covers 8 consecutive output rows (across images:
// the image and row of the first are found once per group, the others by stepping) and a chunk of columns;
// item (x, y) takes row y and columns x, x + 32, ... so a row of 32 items reads contiguous input.
// Vector path (window = stride = 2): an item makes 4 outputs from two 32-byte runs of each of its two input
// rows (four 16-byte loads, all issued before any store) and writes one 16-byte vector; 4 such per item.
// Scalar path (any window, stride): 8 outputs per item, each the running max of its window.
#pragma once

#include <cstdint>
#include <limits>

#include "ops/maxpool3d/plan.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::maxpool3d_impl {

// The image and output row of item row `y` in a group whose first row is (z0, y0).
PORTKERN_INLINE void locate(const Plan& plan, std::int64_t z0, std::int64_t y0, int y, std::int64_t& z,
                            std::int64_t& row) {
  z = z0, row = y0 + y;
  while (row >= plan.h_out) row -= plan.h_out, ++z;
}

template <bool Vector>
struct MaxpoolKernel {
  static constexpr int X = 32, Y = 8, K = Vector ? 4 : 8;        // per item: K vectors of 4, or K outputs
  static constexpr std::int64_t columns = std::int64_t(X) * K * (Vector ? 4 : 1);   // output columns per group
  using group_shape = kernel::Shape<X, Y>;

  Plan plan;
  std::int64_t column_chunks;
  const float* in;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t block = g.x() / column_chunks, col0 = (g.x() % column_chunks) * columns;
    const std::int64_t r0 = block * Y, rows = plan.z * plan.h_out;
    const std::int64_t z0 = r0 / plan.h_out, y0 = r0 % plan.h_out;   // once per group
    g.for_each_item([&](kernel::Item item) {
      if (r0 + item.y >= rows) return;
      std::int64_t z, row;
      locate(plan, z0, y0, item.y, z, row);
      const float* src = in + (z * plan.h_in + row * plan.stride) * plan.w_in;
      float* dst = out + (z * plan.h_out + row) * plan.w_out;
      if constexpr (Vector) {
        using V = kernel::vec<float, 4>;
        V a[K][4] = {};
        PORTKERN_UNROLL
        for (int k = 0; k < K; ++k) {
          const std::int64_t o = col0 + (std::int64_t(k) * X + item.x) * 4;   // first of 4 outputs
          if (o < plan.w_out) {
            a[k][0] = V::load(src + 2 * o), a[k][1] = V::load(src + 2 * o + 4);
            a[k][2] = V::load(src + plan.w_in + 2 * o), a[k][3] = V::load(src + plan.w_in + 2 * o + 4);
          }
        }
        PORTKERN_UNROLL
        for (int k = 0; k < K; ++k) {
          const std::int64_t o = col0 + (std::int64_t(k) * X + item.x) * 4;
          if (o >= plan.w_out) continue;
          V m;
          PORTKERN_UNROLL
          for (int e = 0; e < 4; ++e) {   // output e: columns 2e, 2e + 1 of the 8, in both rows
            const V& top = a[k][e / 2];
            const V& bottom = a[k][2 + e / 2];
            const int c = 2 * (e % 2);
            m[e] = max_step(max_step(max_step(top[c], top[c + 1]), bottom[c]), bottom[c + 1]);
          }
          m.store(dst + o);
        }
      } else {
        PORTKERN_UNROLL
        for (int k = 0; k < K; ++k) {
          const std::int64_t o = col0 + std::int64_t(k) * X + item.x;
          if (o >= plan.w_out) continue;
          const float* w = src + o * plan.stride;
          float m = -std::numeric_limits<float>::infinity();
          for (std::int64_t r = 0; r < plan.window; ++r, w += plan.w_in)
            for (std::int64_t c = 0; c < plan.window; ++c) m = max_step(m, w[c]);
          dst[o] = m;
        }
      }
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Plan& plan, const float* in, float* out) {
  const auto launch = [&](auto kernel_type) {
    using Kernel = decltype(kernel_type);
    const std::int64_t chunks = (plan.w_out + Kernel::columns - 1) / Kernel::columns;
    const std::int64_t blocks = (plan.z * plan.h_out + Kernel::Y - 1) / Kernel::Y;
    Backend::launch(queue, kernel::Range{blocks * chunks}, Kernel{plan, chunks, in, out});
  };
  if (plan.vector) launch(MaxpoolKernel<true>{});
  else launch(MaxpoolKernel<false>{});
}

}  // namespace portkern::ops::maxpool3d_impl
