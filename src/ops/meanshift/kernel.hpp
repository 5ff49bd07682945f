// The portable mean-shift kernels (see include/portkern/ops/meanshift.hpp for the design). Both accumulate
// one neighbour at a time with accumulate(), shared with the native twin.
#pragma once

#include <cstdint>

#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::meanshift_impl {

struct Params {
  float neg_inv_two_sigma2;   // -1 / (2 sigma^2)
  float radius2;
};

// s[0..2] += w q, s[3] += w, for the neighbour q of point p.
PORTKERN_INLINE void accumulate(const Params& c, float px, float py, float pz, float qx, float qy, float qz,
                                float (&s)[4]) {
  const float dx = px - qx, dy = py - qy, dz = pz - qz;
  const float d2 = dx * dx + dy * dy + dz * dz;
  const float e = kernel::fast_exp(d2 * c.neg_inv_two_sigma2);   // for every neighbour: no call under a branch
  const float w = d2 <= c.radius2 ? e : 0.f;
  s[0] += w * qx;
  s[1] += w * qy;
  s[2] += w * qz;
  s[3] += w;
}

struct GlobalKernel {
  static constexpr int items = 64;
  using group_shape = kernel::Shape<items>;
  Params c;
  std::int64_t n;
  const float* in;
  float* out;

  // The neighbour loop outside the items (the same neighbour for every item), one phase per neighbour with the
  // item's point and sums in a private array: the per-thread loop on CUDA, the SIMD lanes on the CPU.
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t base = g.x() * items;
    kernel::private_array<float, 7, Group> st;   // own point (3), sums (4)
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t i = base + item.x < n ? base + item.x : n - 1;   // past the end: a copy of the last
      st(item, 0) = in[3 * i], st(item, 1) = in[3 * i + 1], st(item, 2) = in[3 * i + 2];
      PORTKERN_UNROLL
      for (int k = 0; k < 4; ++k) st(item, 3 + k) = 0.f;
    });
    for (std::int64_t j = 0; j < n; ++j) {
      const float qx = in[3 * j], qy = in[3 * j + 1], qz = in[3 * j + 2];
      g.for_each_item([&](kernel::Item item) {
        float s[4] = {st(item, 3), st(item, 4), st(item, 5), st(item, 6)};
        accumulate(c, st(item, 0), st(item, 1), st(item, 2), qx, qy, qz, s);
        PORTKERN_UNROLL
        for (int k = 0; k < 4; ++k) st(item, 3 + k) = s[k];
      });
    }
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t i = base + item.x;
      if (i < n) {
        out[3 * i] = st(item, 3) / st(item, 6);
        out[3 * i + 1] = st(item, 4) / st(item, 6);
        out[3 * i + 2] = st(item, 5) / st(item, 6);
      }
    });
  }
};

constexpr int tiled_points = 16, tiled_slices = 16, tile = tiled_points * tiled_slices, per_slice = tile / tiled_slices;

struct TiledKernel {
  using group_shape = kernel::Shape<tiled_points, tiled_slices>;
  using float4 = kernel::vec<float, 4>;
  Params c;
  std::int64_t n;
  const float* in;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& neighbours = g.template local<float4[tile], 0>();
    auto& partial = g.template local<float[4][tiled_slices][tiled_points], 1>();
    kernel::private_array<float, 7, Group> st;   // own point (3), sums (4)
    const std::int64_t i0 = g.x() * tiled_points;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t i = i0 + item.x;
      const bool valid = i < n;   // items past the end use a dummy point and never read in[3 i]
      st(item, 0) = valid ? in[3 * i] : 0.f;
      st(item, 1) = valid ? in[3 * i + 1] : 0.f;
      st(item, 2) = valid ? in[3 * i + 2] : 0.f;
      PORTKERN_UNROLL
      for (int k = 0; k < 4; ++k) st(item, 3 + k) = 0.f;
    });
    for (std::int64_t t0 = 0; t0 < n; t0 += tile) {
      const int count = int(n - t0 < tile ? n - t0 : tile);
      g.for_each_item([&](kernel::Item item) {
        const int l = item.linear;
        if (l < count) {
          const std::int64_t j = t0 + l;
          float4 q;
          q[0] = in[3 * j], q[1] = in[3 * j + 1], q[2] = in[3 * j + 2], q[3] = 0.f;
          neighbours[l] = q;
        }
      });
      g.barrier();
      if (count == tile)   // a full tile (uniform): each slice's neighbour loop outside the items
        for (int l = 0; l < per_slice; ++l)
          g.for_each_item([&](kernel::Item item) {
            float s[4] = {st(item, 3), st(item, 4), st(item, 5), st(item, 6)};
            const float4 q = neighbours[item.y * per_slice + l];
            accumulate(c, st(item, 0), st(item, 1), st(item, 2), q[0], q[1], q[2], s);
            PORTKERN_UNROLL
            for (int k = 0; k < 4; ++k) st(item, 3 + k) = s[k];
          });
      else   // the last, partial tile
        g.for_each_item([&](kernel::Item item) {
          const int j0 = item.y * per_slice;
          const int jn = count - j0 < per_slice ? count - j0 : per_slice;   // may be <= 0
          const float px = st(item, 0), py = st(item, 1), pz = st(item, 2);
          float s[4] = {st(item, 3), st(item, 4), st(item, 5), st(item, 6)};
          for (int l = 0; l < jn; ++l) {
            const float4 q = neighbours[j0 + l];
            accumulate(c, px, py, pz, q[0], q[1], q[2], s);
          }
          PORTKERN_UNROLL
          for (int k = 0; k < 4; ++k) st(item, 3 + k) = s[k];
        });
      g.barrier();   // the next tile overwrites `neighbours`
    }
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int k = 0; k < 4; ++k) partial[k][item.y][item.x] = st(item, 3 + k);
    });
    g.barrier();
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t i = i0 + item.x;
      if (item.y == 0 && i < n) {
        float s[4] = {0.f, 0.f, 0.f, 0.f};
        for (int y = 0; y < tiled_slices; ++y) {
          PORTKERN_UNROLL
          for (int k = 0; k < 4; ++k) s[k] += partial[k][y][item.x];
        }
        out[3 * i] = s[0] / s[3];
        out[3 * i + 1] = s[1] / s[3];
        out[3 * i + 2] = s[2] / s[3];
      }
    });
  }
};

template <class Backend>
void run(Queue& queue, bool tiled, const Params& c, std::int64_t n, const float* in, float* out) {
  if (tiled)
    Backend::launch(queue, kernel::Range{(n + tiled_points - 1) / tiled_points}, TiledKernel{c, n, in, out});
  else
    Backend::launch(queue, kernel::Range{(n + GlobalKernel::items - 1) / GlobalKernel::items},
                    GlobalKernel{c, n, in, out});
}

}  // namespace portkern::ops::meanshift_impl
