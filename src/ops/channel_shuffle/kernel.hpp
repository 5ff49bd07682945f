// The portable channel-shuffle kernels.
//
// NCHW: a group copies a chunk of Items * PerItem vectors of V floats of one output plane (n, c); the plane
// and its source plane are found once per group. Item i takes vectors i, i + Items, ... so consecutive items
// touch consecutive 16-byte words (coalesced on CUDA, one SIMD loop on the CPU).
//
// NHWC: a group of 32 x 8 items covers a tile of 32 channels (tiles = ceil(C / 32)) of Rows * 8 pixels. Item
// (x, y) owns one output channel co and its source channel (computed once); it walks pixels y, y + 8, ...
// so each row of 32 items reads and writes one 128-byte run of a pixel. For C < 32, the 32 items of a row
// cover floor(32 / C) whole pixels (item x: channel x % C of pixel x / C), so small C wastes few items.
#pragma once

#include <cstdint>

#include "ops/channel_shuffle/plan.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::channel_shuffle_impl {

template <int V, int Items = 256, int PerItem = 4>
struct NchwKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t chunk = std::int64_t(Items) * PerItem * V;

  Plan plan;
  std::int64_t chunks_per_plane;
  const float* in;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t plane = g.x() / chunks_per_plane, col0 = (g.x() % chunks_per_plane) * chunk;
    const std::int64_t b = plane / plan.c, co = plane % plan.c;
    const float* src = in + (b * plan.c + source_channel(plan, co)) * plan.hw + col0;
    float* dst = out + plane * plan.hw + col0;
    const std::int64_t n = plan.hw - col0 < chunk ? plan.hw - col0 : chunk;   // a multiple of V
    g.for_each_item([&](kernel::Item item) {
      kernel::vec<float, V> v[PerItem] = {};   // all loads first: in and out may not be marked restrict
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t j = (std::int64_t(e) * Items + item.x) * V;
        if (j < n) v[e] = kernel::vec<float, V>::load(src + j);
      }
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t j = (std::int64_t(e) * Items + item.x) * V;
        if (j < n) v[e].store(dst + j);
      }
    });
  }
};

struct NhwcKernel {
  static constexpr int X = 32, Y = 8, Rows = 8;   // 32 channels x 8 item rows x 8 pixel steps per group
  using group_shape = kernel::Shape<X, Y>;

  Plan plan;
  std::int64_t tiles;      // ceil(C / 32)
  int width;               // channels per item row: min(C, 32)
  int per_row;             // pixels per item row: 32 / width
  const float* in;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t tile = g.x() % tiles, chunk = g.x() / tiles;
    const std::int64_t pixels = plan.n * plan.hw;
    const std::int64_t step = std::int64_t(Y) * per_row;         // pixels per pass of the whole group
    const std::int64_t p0 = chunk * step * Rows;
    const std::int64_t c = plan.c, groups = plan.groups, k = plan.k;
    g.for_each_item([&](kernel::Item item) {
      const int cx = item.x % width, px = item.x / width;           // once per item, 32-bit
      const std::int64_t co = tile * X + cx;
      if (px >= per_row || co >= c) return;
      const std::int64_t ci = (co % groups) * k + co / groups;
      const std::int64_t p = p0 + std::int64_t(item.y) * per_row + px;
      float v[Rows] = {};   // all loads first, then the stores
      PORTKERN_UNROLL
      for (int r = 0; r < Rows; ++r)
        if (p + r * step < pixels) v[r] = in[(p + r * step) * c + ci];
      PORTKERN_UNROLL
      for (int r = 0; r < Rows; ++r)
        if (p + r * step < pixels) out[(p + r * step) * c + co] = v[r];
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Plan& plan, const float* in, float* out) {
  if (!plan.nhwc) {
    const auto launch = [&](auto kernel_type) {
      using Kernel = decltype(kernel_type);
      const std::int64_t chunks = (plan.hw + Kernel::chunk - 1) / Kernel::chunk;
      Backend::launch(queue, kernel::Range{plan.n * plan.c * chunks}, Kernel{plan, chunks, in, out});
    };
    if (plan.vector) launch(NchwKernel<4>{});
    else launch(NchwKernel<1>{});
    return;
  }
  const int width = plan.c < NhwcKernel::X ? int(plan.c) : NhwcKernel::X;
  const int per_row = NhwcKernel::X / width;
  const std::int64_t tiles = (plan.c + NhwcKernel::X - 1) / NhwcKernel::X;
  const std::int64_t per_group = std::int64_t(NhwcKernel::Y) * per_row * NhwcKernel::Rows;
  const std::int64_t chunks = (plan.n * plan.hw + per_group - 1) / per_group;
  Backend::launch(queue, kernel::Range{chunks * tiles}, NhwcKernel{plan, tiles, width, per_row, in, out});
}

}  // namespace portkern::ops::channel_shuffle_impl
