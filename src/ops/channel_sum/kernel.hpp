// The portable channel_sum kernels (the plan in plan.hpp cuts the work).
//
// NCHW: a group of 256 items reduces one segment of one (n, c) plane: passes of 4 unrolled loads of V int32
// per item (item i takes vectors i, i + 256, ... : coalesced), sum and sum of squares kept per item in
// uint64, then one group reduction of the pair and two 64-bit atomic adds. (CPU: 64 items, 16 unrolled.)
// NHWC: a group of X x Y items reduces a tile of X channels over `span` pixels: item (x, y) owns channel
// tile * X + x (for C < X: channel x % C of pixel x / C) and walks pixels y, y + Y, ... (each row of X items
// reads one contiguous run); the Y rows (and the pixels sharing a row) are combined in group-local memory, and
// one item per channel adds to the outputs. X x Y = 32 x 8 on CUDA (a 128-byte run per warp), 512 x 2 on the
// CPU (whole pixels up to C = 512: the CPU's prefetchers stream them, where 128-channel runs of 2 KB pixels
// ran at 40% of copy).
// Both: passes whose elements all exist are a phase without checks, the last one of a group a checked phase.
#pragma once

#include <cstdint>

#include "ops/channel_sum/plan.hpp"
#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/math.hpp"
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
    // Whole passes (no checks), then the segment's last, shorter one if any.
    std::int64_t base = s0;
    for (; base + pass <= s1; base += pass) accumulate_pass<false>(g, acc, src, base, s1);
    if (base < s1) accumulate_pass<true>(g, acc, src, base, s1);
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

  template <bool Checked, class Group, class Acc>
  PORTKERN_INLINE void accumulate_pass(Group& g, Acc& acc, const std::int32_t* src, std::int64_t base,
                                       std::int64_t s1) const {
    g.for_each_item([&](kernel::Item item) {
      unsigned long long s = acc(item, 0), q = acc(item, 1);
      PORTKERN_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const std::int64_t j = base + (std::int64_t(u) * Items + item.x) * V;
        if (!Checked || j < s1) {
          const auto v = kernel::vec<std::int32_t, V>::load(src + j);
          PORTKERN_UNROLL
          for (int e = 0; e < V; ++e) accumulate(s, q, v[e]);
        }
      }
      acc(item, 0) = s, acc(item, 1) = q;
    });
  }
};

template <int X = 32, int Y = 8, int Unroll = 4>
struct NhwcKernel {
  using group_shape = kernel::Shape<X, Y>;

  Plan plan;
  const std::int32_t* in;
  std::int64_t *sum, *sumsq;

  // Item x of a row reads offset tile * X + x of the row's pixel (channel x % C of pixel x / C for C < X:
  // (x / C) * C + x % C = x), so consecutive items read contiguously. Whole passes have no checks per pixel.
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t tile = g.x() % plan.tiles, p0 = (g.x() / plan.tiles) * plan.span;
    const std::int64_t pixels = plan.n * plan.hw, c = plan.c;
    const std::int64_t p1 = pixels - p0 < plan.span ? pixels : p0 + plan.span;
    const int width = plan.width, per_row = plan.per_row;
    const std::int64_t step = std::int64_t(Y) * per_row;   // pixels per row of the whole group
    // Items past the tile's channels (C not a multiple of X) or past its whole pixels (X % C != 0) idle.
    const int items = width < X ? per_row * width : (c - tile * X < X ? int(c - tile * X) : X);
    const std::int32_t* src = in + tile * X;
    kernel::private_array<unsigned long long, 2, Group> acc;
    g.for_each_item([&](kernel::Item item) { acc(item, 0) = 0, acc(item, 1) = 0; });
    std::int64_t base = p0;
    for (; base + step * Unroll <= p1; base += step * Unroll) accumulate_pass<false>(g, acc, src, base, p1, items);
    if (base < p1) accumulate_pass<true>(g, acc, src, base, p1, items);
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

  template <bool Checked, class Group, class Acc>
  PORTKERN_INLINE void accumulate_pass(Group& g, Acc& acc, const std::int32_t* src, std::int64_t base,
                                       std::int64_t p1, int items) const {
    const int per_row = plan.per_row, width = plan.width;
    const std::int64_t step = std::int64_t(Y) * per_row, c = plan.c;
    g.for_each_item([&](kernel::Item item) {
      if (item.x >= items) return;
      unsigned long long s = acc(item, 0), q = acc(item, 1);
      const std::int64_t p = base + std::int64_t(item.y) * per_row;   // the item row's first pixel
      const int px = Checked && width < X ? kernel::quotient32(item.x, width) : 0;   // the item's pixel
      PORTKERN_UNROLL
      for (int u = 0; u < Unroll; ++u)
        if (!Checked || p + px + u * step < p1) accumulate(s, q, src[(p + u * step) * c + item.x]);
      acc(item, 0) = s, acc(item, 1) = q;
    });
  }
};

// The launch sequence, written once over the back end. CUDA: the plan of the default Cut, 16-byte vectors
// where they fit. CPU (items are SIMD lanes): the plan of cpu_cut, one int32 per item, NCHW groups of 64 items
// (the group reduction costs log2(items) phases over all the items: 256 were 20% slower, 1024 2.5x slower).
template <class Backend>
void run(Queue& queue, const Plan& plan, const std::int32_t* in, std::int64_t* sum, std::int64_t* sumsq) {
  Backend::launch(queue, kernel::Range{(plan.c + 255) / 256}, ZeroKernel{plan.c, sum, sumsq});
  if (plan.n * plan.hw == 0) return;
  const kernel::Range nhwc_groups{plan.tiles * plan.chunks}, nchw_groups{plan.n * plan.c * plan.segments};
  if constexpr (Backend::items_are_lanes) {
    if (plan.nhwc) Backend::launch(queue, nhwc_groups, NhwcKernel<cpu_tile_channels, cpu_item_rows, cpu_unroll>{plan, in, sum, sumsq});
    else Backend::launch(queue, nchw_groups, NchwKernel<1, 64, 16>{plan, in, sum, sumsq});
  } else {
    if (plan.nhwc) Backend::launch(queue, nhwc_groups, NhwcKernel<>{plan, in, sum, sumsq});
    else if (plan.vector) Backend::launch(queue, nchw_groups, NchwKernel<4>{plan, in, sum, sumsq});
    else Backend::launch(queue, nchw_groups, NchwKernel<1>{plan, in, sum, sumsq});
  }
}

}  // namespace portkern::ops::channel_sum_impl
