// The portable flip kernel. A group moves one chunk of Items * PerItem elements of one row; item i takes the
// chunk's elements i, i + Items, ... so that consecutive items touch consecutive addresses on both sides
// (a reversed row is read backwards, still one cache line per 32 items on CUDA, a permuted vector on the
// CPU). The row and its source are found once per group (uniform integer work), not once per element as in
// the HeCBench original, whose int64 div/mod per element made it ALU-bound.
#pragma once

#include <cstdint>

#include "ops/flip/plan.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::flip_impl {

template <class T, int Items = 256, int PerItem = 16>
struct FlipKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t chunk = std::int64_t(Items) * PerItem;

  Plan plan;
  std::int64_t chunks_per_row;
  const T* in;
  T* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t row = g.x() / chunks_per_row, col0 = (g.x() % chunks_per_row) * chunk;
    const T* src = in + source_row(plan, row) * plan.length;
    T* dst = out + row * plan.length;
    const std::int64_t n = plan.length - col0 < chunk ? plan.length - col0 : chunk;
    const std::int64_t last = plan.length - 1;
    if (plan.last_flipped) {
      g.for_each_item([&](kernel::Item item) {
        PORTKERN_UNROLL
        for (int e = 0; e < PerItem; ++e) {
          const std::int64_t c = std::int64_t(e) * Items + item.x;
          if (c < n) dst[col0 + c] = src[last - col0 - c];
        }
      });
    } else {
      g.for_each_item([&](kernel::Item item) {
        PORTKERN_UNROLL
        for (int e = 0; e < PerItem; ++e) {
          const std::int64_t c = std::int64_t(e) * Items + item.x;
          if (c < n) dst[col0 + c] = src[col0 + c];
        }
      });
    }
  }
};

// The launch sequence, written once over the back end.
template <class Backend, class T>
void run(Queue& queue, const Plan& plan, const T* in, T* out) {
  using Kernel = FlipKernel<T>;
  const std::int64_t chunks = (plan.length + Kernel::chunk - 1) / Kernel::chunk;
  Backend::launch(queue, kernel::Range{plan.rows * chunks}, Kernel{plan, chunks, in, out});
}

}  // namespace portkern::ops::flip_impl
