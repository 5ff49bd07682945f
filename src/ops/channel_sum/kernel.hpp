// The portable channel_sum kernels (the plan in plan.hpp cuts the work).
//
// NCHW: a group of 256 items reduces one segment of one (n, c) plane: passes of 4 unrolled loads of V int32
// per item (item i takes vectors i, i + 256, ... : coalesced), sum and sum of squares kept per item in
// uint64, then one group reduction of the pair and two 64-bit atomic adds.
// NHWC: a group of 32 x 8 items reduces a tile of 32 channels over `span` pixels: item (x, y) owns channel
// tile * 32 + x (for C < 32: channel x % C of pixel x / C) and walks pixels y, y + 8, ... (each row of 32
// items reads one 128-byte run); the 8 rows (and the pixels sharing a row) are combined in group-local
// memory, and one item per channel adds to the outputs.
#pragma once

#include <cstdint>

#include "ops/channel_sum/plan.hpp"
#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::ops::channel_sum_impl {

struct Sums {
  unsigned long long s, q;
};

PORTKERN_INLINE void accumulate(unsigned long long& s, unsigned long long& q, std::int32_t x) {
  const std::int64_t v = x;
  s += static_cast<unsigned long long>(v);
  q += static_cast<unsigned long long>(v * v);   // |x| <= 2^31: x^2 <= 2^62 fits
}

struct ZeroKernel {
  using group_shape = kernel::Shape<256>;
  std::int64_t c;
  std::int64_t *sum, *sumsq;
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t i = g.x() * 256 + item.x;
      if (i < c) sum[i] = 0, sumsq[i] = 0;
    });
  }
};

template <int V, int Items = 256, int Unroll = 4>
struct NchwKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t pass = std::int64_t(Items) * V * Unroll;

  Plan plan;
  const std::int32_t* in;
  std::int64_t *sum, *sumsq;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t plane = g.x() / plan.segments, s0 = (g.x() % plan.segments) * plan.segment;
    const std::int64_t channel = plane % plan.c;
    const std::int64_t s1 = plan.hw - s0 < plan.segment ? plan.hw : s0 + plan.segment;
    const std::int32_t* src = in + plane * plan.hw;
    kernel::private_array<unsigned long long, 2, Group> acc;
    g.for_each_item([&](kernel::Item item) { acc(item, 0) = 0, acc(item, 1) = 0; });
    for (std::int64_t base = s0; base < s1; base += pass) {
      g.for_each_item([&](kernel::Item item) {
        unsigned long long s = acc(item, 0), q = acc(item, 1);
        PORTKERN_UNROLL
        for (int u = 0; u < Unroll; ++u) {
          const std::int64_t j = base + (std::int64_t(u) * Items + item.x) * V;
          if (j < s1) {
            const auto v = kernel::vec<std::int32_t, V>::load(src + j);
            PORTKERN_UNROLL
            for (int e = 0; e < V; ++e) accumulate(s, q, v[e]);
          }
        }
        acc(item, 0) = s, acc(item, 1) = q;
      });
    }
    // Two reductions of a plain integer rather than one of the pair: on CUDA they lower to warp shuffles (the
    // pair took the model's shared-memory form: 1.44 x the native twin's time on 1x32x224x224).
    const auto add = [](unsigned long long a, unsigned long long b) { return a + b; };
    const unsigned long long total_s =
        kernel::group_reduce<0, unsigned long long>(g, [&](kernel::Item item) { return acc(item, 0); }, add, 0ull);
    const unsigned long long total_q =
        kernel::group_reduce<1, unsigned long long>(g, [&](kernel::Item item) { return acc(item, 1); }, add, 0ull);
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) atomic_add_wrapping(sum + channel, total_s), atomic_add_wrapping(sumsq + channel, total_q);
    });
  }
};

struct NhwcKernel {
  static constexpr int X = 32, Y = 8, Unroll = 4;
  using group_shape = kernel::Shape<X, Y>;

  Plan plan;
  const std::int32_t* in;
  std::int64_t *sum, *sumsq;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t tile = g.x() % plan.tiles, p0 = (g.x() / plan.tiles) * plan.span;
    const std::int64_t pixels = plan.n * plan.hw, c = plan.c;
    const std::int64_t p1 = pixels - p0 < plan.span ? pixels : p0 + plan.span;
    const int width = plan.width, per_row = plan.per_row;
    const std::int64_t step = std::int64_t(Y) * per_row;   // pixels per row of the whole group
    kernel::private_array<unsigned long long, 2, Group> acc;
    g.for_each_item([&](kernel::Item item) { acc(item, 0) = 0, acc(item, 1) = 0; });
    for (std::int64_t base = p0; base < p1; base += step * Unroll) {
      g.for_each_item([&](kernel::Item item) {
        const int cx = item.x % width, px = item.x / width;
        const std::int64_t co = tile * X + cx;
        if (px >= per_row || co >= c) return;
        unsigned long long s = acc(item, 0), q = acc(item, 1);
        const std::int64_t p = base + std::int64_t(item.y) * per_row + px;
        PORTKERN_UNROLL
        for (int u = 0; u < Unroll; ++u)
          if (p + u * step < p1) accumulate(s, q, in[(p + u * step) * c + co]);
        acc(item, 0) = s, acc(item, 1) = q;
      });
    }
    auto& partial = g.template local<Sums[Y][X], 0>();
    g.for_each_item([&](kernel::Item item) { partial[item.y][item.x] = Sums{acc(item, 0), acc(item, 1)}; });
    g.barrier();
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t co = tile * X + item.x;
      if (item.y != 0 || item.x >= width || co >= c) return;
      unsigned long long s = 0, q = 0;
      for (int y = 0; y < Y; ++y)
        for (int k = 0; k < per_row; ++k) s += partial[y][item.x + k * width].s, q += partial[y][item.x + k * width].q;
      atomic_add_wrapping(sum + co, s);
      atomic_add_wrapping(sumsq + co, q);
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq) {
  Backend::launch(queue, kernel::Range{(plan.c + 255) / 256}, ZeroKernel{plan.c, sum, sumsq});
  if (plan.n * plan.hw == 0) return;
  if (plan.nhwc)
    Backend::launch(queue, kernel::Range{plan.tiles * plan.chunks}, NhwcKernel{plan, in, sum, sumsq});
  else if (plan.vector)
    Backend::launch(queue, kernel::Range{plan.n * plan.c * plan.segments}, NchwKernel<4>{plan, in, sum, sumsq});
  else
    Backend::launch(queue, kernel::Range{plan.n * plan.c * plan.segments}, NchwKernel<1>{plan, in, sum, sumsq});
}

}  // namespace portkern::ops::channel_sum_impl
