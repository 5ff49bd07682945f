// The portable attention kernels.
//
// ChunkKernel: one group of 256 items per chunk of rows (plan.hpp). Scores: the chunk's rows go 8 at a time;
// item x takes columns x*Vec, x*Vec + 256*Vec, ... of the 8 rows (coalesced Vec-wide loads, 8 independent
// loads in flight per q load), so 8 partial dot products per item, reduced over the group in 3 short phases
// (8 x 256 -> 8 x 32 -> 8 x 8 -> 8) into the chunk's score list in local memory. Then the chunk's max and
// exp-sum (group_reduce), the weights exp(s - max) in place, and the V pass: item x owns Vec columns per
// 256*Vec-column tile and accumulates the weighted rows (8 loads in flight), writing the chunk's partial
// row. K and V are read once each.
//
// ChunkKernelLanes: the CPU's chunk kernel, whose items are SIMD lanes (one column per item and access), for
// the CPU's few long chunks (make_cpu_plan). Scores: the chunk's rows go 8 at a time; per column step of
// Items * Unroll columns a phase adds K[row][c] * q[c] into each item's 8 sums (a private array), whole
// steps without checks, the last partial one with masked loads; the sums of the items are then added
// pairwise in local memory (halving strides: contiguous across the items) into the row's score. Then the
// chunk's max, the weights exp(s - max) and their sum. V pass: 8 rows at a time, each column step adds the
// rows' weighted values, in row order, into the chunk's partial row in the workspace (read back from L1 for
// the next 8 rows): V is read row by row, 8 rows in flight. A last tile of fewer than 8 rows goes one row
// at a time.
//
// CombineKernel: a group of 256 items owns 32 columns (Shape<32/Vec, 8*Vec>: x = Vec-wide column, y = a lane
// over chunks); the global max M and L = sum_b exp(m_b - M) l_b are reduced first (every group does this
// redundantly: 2 * chunks floats, cache hits), then each lane sums exp(m_b - M) P_b over its chunks, the
// lanes are summed in local memory in a fixed order and divided by L. Deterministic.
#pragma once

#include <cmath>
#include <cstdint>

#include "ops/attention/plan.hpp"
#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::attention_impl {

constexpr int tile_rows = 8;

template <int Vec>
struct ChunkKernel {
  using group_shape = kernel::Shape<256>;
  using V4 = kernel::vec<float, Vec>;
  static constexpr std::int64_t span = 256 * Vec;   // columns per tile

  Plan plan;
  const float* K;
  const float* V;
  const float* q;
  float* workspace;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t d = plan.d, b = g.x(), row0 = b * plan.chunk_rows;
    const int rows = plan.rows_of(b);
    auto& scores = g.template local<float[max_chunk_rows], 0>();
    auto& scratch = g.template local<float[tile_rows][256], 1>();
    auto& red = g.template local<float[tile_rows][32], 2>();
    auto& red2 = g.template local<float[tile_rows][8], 3>();

    // Scores, 8 rows at a time.
    for (int t0 = 0; t0 < rows; t0 += tile_rows) {
      const float* k0 = K + (row0 + t0) * d;
      const int live = rows - t0 < tile_rows ? rows - t0 : tile_rows;   // uniform
      g.for_each_item([&](kernel::Item item) {
        float acc[tile_rows];
        PORTKERN_UNROLL
        for (int r = 0; r < tile_rows; ++r) acc[r] = 0.f;
        for (std::int64_t c = std::int64_t(item.x) * Vec; c < d; c += span) {
          const V4 qv = V4::load(q + c);
          PORTKERN_UNROLL
          for (int r = 0; r < tile_rows; ++r) {
            if (r < live) {
              const V4 kv = V4::load(k0 + r * d + c);
              PORTKERN_UNROLL
              for (int e = 0; e < Vec; ++e) acc[r] += kv[e] * qv[e];
            }
          }
        }
        PORTKERN_UNROLL
        for (int r = 0; r < tile_rows; ++r) scratch[r][item.x] = acc[r];
      });
      g.barrier();
      g.for_each_item([&](kernel::Item item) {
        const int r = item.x >> 5, lane = item.x & 31;
        float s = 0.f;
        PORTKERN_UNROLL
        for (int j = 0; j < 8; ++j) s += scratch[r][lane + 32 * j];
        red[r][lane] = s;
      });
      g.barrier();
      g.for_each_item([&](kernel::Item item) {
        if (item.x < tile_rows * 8) {
          const int r = item.x >> 3, k = item.x & 7;
          red2[r][k] = (red[r][4 * k] + red[r][4 * k + 1]) + (red[r][4 * k + 2] + red[r][4 * k + 3]);
        }
      });
      g.barrier();
      g.for_each_item([&](kernel::Item item) {
        if (item.x < tile_rows) {
          float s = 0.f;
          PORTKERN_UNROLL
          for (int k = 0; k < 8; ++k) s += red2[item.x][k];
          scores[t0 + item.x] = s;
        }
      });
      g.barrier();
    }

    // The chunk's max, weights exp(s - max) in place, their sum.
    const float m = kernel::group_reduce<4, float>(
        g, [&](kernel::Item item) { return item.x < rows ? scores[item.x] : -INFINITY; },
        [](float a, float c) { return a > c ? a : c; }, -INFINITY);
    const float l = kernel::group_reduce<4, float>(
        g,
        [&](kernel::Item item) {
          float w = 0.f;
          if (item.x < rows) scores[item.x] = w = kernel::exp(scores[item.x] - m);
          return w;
        },
        [](float a, float c) { return a + c; }, 0.f);   // ends with a barrier: the weights are visible

    // V pass: the chunk's partial row sum_i w_i V[i].
    float* partial = workspace + plan.partial_offset() + b * d;
    const float* v0 = V + row0 * d;
    for (std::int64_t c0 = 0; c0 < d; c0 += span) {
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t c = c0 + std::int64_t(item.x) * Vec;
        if (c < d) {
          V4 acc;
          PORTKERN_UNROLL
          for (int e = 0; e < Vec; ++e) acc[e] = 0.f;
          int r = 0;
          for (; r + tile_rows <= rows; r += tile_rows) {
            V4 v[tile_rows];
            PORTKERN_UNROLL
            for (int u = 0; u < tile_rows; ++u) v[u] = V4::load(v0 + (r + u) * d + c);
            PORTKERN_UNROLL
            for (int u = 0; u < tile_rows; ++u) {
              const float w = scores[r + u];
              PORTKERN_UNROLL
              for (int e = 0; e < Vec; ++e) acc[e] += w * v[u][e];
            }
          }
          for (; r < rows; ++r) {
            const V4 v = V4::load(v0 + r * d + c);
            const float w = scores[r];
            PORTKERN_UNROLL
            for (int e = 0; e < Vec; ++e) acc[e] += w * v[e];
          }
          acc.store(partial + c);
        }
      });
    }
    g.for_each_item([&](kernel::Item item) {
      if (item.x == 0) {
        workspace[plan.max_offset() + b] = m;
        workspace[plan.sum_offset() + b] = l;
      }
    });
  }
};

template <int Items = 32, int Unroll = 4>
struct ChunkKernelLanes {
  static_assert((Items & (Items - 1)) == 0, "the items' sums are added pairwise, halving");
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t step = std::int64_t(Items) * Unroll;   // columns per phase

  Plan plan;
  const float* K;
  const float* V;
  const float* q;
  float* workspace;

  // acc(item, r) += K[r][c] * q[c] for the item's columns c of the step at c0, r < Rows (k0: row 0 of K).
  template <int Rows, bool Checked, class Group, class Acc>
  PORTKERN_INLINE void dot_step(Group& g, Acc& acc, const float* k0, std::int64_t c0) const {
    const std::int64_t d = plan.d;
    g.for_each_item([&](kernel::Item item) {
      float s[Rows];
      PORTKERN_UNROLL
      for (int r = 0; r < Rows; ++r) s[r] = acc(item, r);
      PORTKERN_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const std::int64_t c = c0 + u * Items + item.x;
        const bool in = !Checked || c < d;
        const float qc = in ? q[c] : 0.f;
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r) s[r] += (in ? k0[r * d + c] : 0.f) * qc;
      }
      PORTKERN_UNROLL
      for (int r = 0; r < Rows; ++r) acc(item, r) = s[r];
    });
  }

  // scores[t0 + r] = K[row0 + t0 + r] . q for r < Rows.
  template <int Rows, class Group>
  PORTKERN_INLINE void score_tile(Group& g, float (&scores)[max_chunk_rows], const float* k0, int t0) const {
    const std::int64_t d = plan.d, whole = d / step * step;
    kernel::private_array<float, Rows, Group> acc;
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int r = 0; r < Rows; ++r) acc(item, r) = 0.f;
    });
    for (std::int64_t c0 = 0; c0 < whole; c0 += step) dot_step<Rows, false>(g, acc, k0, c0);
    if (whole < d) dot_step<Rows, true>(g, acc, k0, whole);   // uniform
    auto& red = g.template local<float[tile_rows][Items], 1>();
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int r = 0; r < Rows; ++r) red[r][item.x] = acc(item, r);
    });
    g.barrier();
    for (int half = Items / 2; half > 0; half /= 2) {   // a fixed order: deterministic
      g.for_each_item([&](kernel::Item item) {
        if (item.x < half) {
          PORTKERN_UNROLL
          for (int r = 0; r < Rows; ++r) red[r][item.x] += red[r][item.x + half];
        }
      });
      g.barrier();
    }
    g.for_each_item([&](kernel::Item item) {
      if (item.x < Rows) scores[t0 + item.x] = red[item.x][0];
    });
    g.barrier();
  }

  // partial[c] (First: =, else +=) sum_r w[r] V[r][c] over the Rows rows at v0, for the item's columns of
  // the step at c0. The weights are uniform values held outside the phase (not loads inside it).
  template <int Rows, bool First, bool Checked, class Group>
  PORTKERN_INLINE void weigh_step(Group& g, float* partial, const float* v0, const float (&w)[Rows],
                                  std::int64_t c0) const {
    const std::int64_t d = plan.d;
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const std::int64_t c = c0 + u * Items + item.x;
        const bool in = !Checked || c < d;
        float acc = First || !in ? 0.f : partial[c];
        PORTKERN_UNROLL
        for (int r = 0; r < Rows; ++r) acc += w[r] * (in ? v0[r * d + c] : 0.f);
        if (in) partial[c] = acc;
      }
    });
  }

  template <int Rows, bool First, class Group>
  PORTKERN_INLINE void weigh_tile(Group& g, float* partial, const float* v0, const float* weights) const {
    const std::int64_t d = plan.d, whole = d / step * step;
    float w[Rows];
    PORTKERN_UNROLL
    for (int r = 0; r < Rows; ++r) w[r] = weights[r];
    for (std::int64_t c0 = 0; c0 < whole; c0 += step) weigh_step<Rows, First, false>(g, partial, v0, w, c0);
    if (whole < d) weigh_step<Rows, First, true>(g, partial, v0, w, whole);   // uniform
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t d = plan.d, b = g.x(), row0 = b * plan.chunk_rows;
    const int rows = plan.rows_of(b);
    const int tiled = rows / tile_rows * tile_rows;   // rows in whole tiles of 8
    auto& scores = g.template local<float[max_chunk_rows], 0>();
    const float* k0 = K + row0 * d;
    for (int t0 = 0; t0 < tiled; t0 += tile_rows) score_tile<tile_rows>(g, scores, k0 + t0 * d, t0);
    for (int t0 = tiled; t0 < rows; ++t0) score_tile<1>(g, scores, k0 + t0 * d, t0);

    // The chunk's max, weights exp(s - max) in place, their sum (each item over rows x, x + Items, ...).
    const float m = kernel::group_reduce<2, float>(
        g,
        [&](kernel::Item item) {
          float v = -INFINITY;
          for (int r = item.x; r < rows; r += Items) v = v > scores[r] ? v : scores[r];
          return v;
        },
        [](float a, float c) { return a > c ? a : c; }, -INFINITY);
    const float l = kernel::group_reduce<2, float>(
        g,
        [&](kernel::Item item) {
          float s = 0.f;
          for (int r = item.x; r < rows; r += Items) s += scores[r] = kernel::exp(scores[r] - m);
          return s;
        },
        [](float a, float c) { return a + c; }, 0.f);   // ends with a barrier: the weights are visible

    float* partial = workspace + plan.partial_offset() + b * d;
    const float* v0 = V + row0 * d;
    if (tiled > 0) weigh_tile<tile_rows, true>(g, partial, v0, scores);
    else weigh_tile<1, true>(g, partial, v0, scores);
    const int next = tiled > 0 ? tile_rows : 1;
    for (int t0 = next; t0 < tiled; t0 += tile_rows) weigh_tile<tile_rows, false>(g, partial, v0 + t0 * d, scores + t0);
    for (int t0 = tiled > next ? tiled : next; t0 < rows; ++t0)
      weigh_tile<1, false>(g, partial, v0 + t0 * d, scores + t0);
    g.for_each_item([&](kernel::Item item) {
      if (item.x == 0) {
        workspace[plan.max_offset() + b] = m;
        workspace[plan.sum_offset() + b] = l;
      }
    });
  }
};

template <int Vec>
struct CombineKernel {
  static constexpr int cols = 32;             // columns per group
  static constexpr int X = cols / Vec, Y = 256 / X;
  using group_shape = kernel::Shape<X, Y>;
  using V4 = kernel::vec<float, Vec>;

  Plan plan;
  const float* workspace;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t d = plan.d, B = plan.chunks;
    const float* cmax = workspace + plan.max_offset();
    const float* csum = workspace + plan.sum_offset();
    const float M = kernel::group_reduce<0, float>(
        g,
        [&](kernel::Item item) {
          float m = -INFINITY;
          for (std::int64_t b = item.linear; b < B; b += 256) m = m > cmax[b] ? m : cmax[b];
          return m;
        },
        [](float a, float c) { return a > c ? a : c; }, -INFINITY);
    const float L = kernel::group_reduce<0, float>(
        g,
        [&](kernel::Item item) {
          float s = 0.f;
          for (std::int64_t b = item.linear; b < B; b += 256) s += kernel::exp(cmax[b] - M) * csum[b];
          return s;
        },
        [](float a, float c) { return a + c; }, 0.f);

    auto& lanes = g.template local<V4[Y][X], 1>();
    const std::int64_t c0 = g.x() * cols;
    const float* partial = workspace + plan.partial_offset();
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t c = c0 + std::int64_t(item.x) * Vec;
      V4 acc;
      PORTKERN_UNROLL
      for (int e = 0; e < Vec; ++e) acc[e] = 0.f;
      if (c < d) {
        for (std::int64_t b = item.y; b < B; b += Y) {
          const float scale = kernel::exp(cmax[b] - M);
          const V4 p = V4::load(partial + b * d + c);
          PORTKERN_UNROLL
          for (int e = 0; e < Vec; ++e) acc[e] += scale * p[e];
        }
      }
      lanes[item.y][item.x] = acc;
    });
    g.barrier();
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t c = c0 + std::int64_t(item.x) * Vec;
      if (item.y == 0 && c < d) {
        V4 acc = lanes[0][item.x];
        for (int y = 1; y < Y; ++y) {
          PORTKERN_UNROLL
          for (int e = 0; e < Vec; ++e) acc[e] += lanes[y][item.x][e];
        }
        PORTKERN_UNROLL
        for (int e = 0; e < Vec; ++e) acc[e] /= L;
        acc.store(out + c);
      }
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend, int Vec>
void run(Queue& queue, const Plan& plan, const float* K, const float* V, const float* q, float* out,
         float* workspace) {
  Backend::launch(queue, kernel::Range{plan.chunks}, ChunkKernel<Vec>{plan, K, V, q, workspace});
  const std::int64_t groups = (plan.d + CombineKernel<Vec>::cols - 1) / CombineKernel<Vec>::cols;
  Backend::launch(queue, kernel::Range{groups}, CombineKernel<Vec>{plan, workspace, out});
}

template <class Backend>
void run(Queue& queue, const Plan& plan, bool vector, const float* K, const float* V, const float* q, float* out,
         float* workspace) {
  if constexpr (Backend::items_are_lanes) {   // one column per item, the CPU's chunk kernel
    Backend::launch(queue, kernel::Range{plan.chunks}, ChunkKernelLanes<>{plan, K, V, q, workspace});
    const std::int64_t groups = (plan.d + CombineKernel<1>::cols - 1) / CombineKernel<1>::cols;
    return Backend::launch(queue, kernel::Range{groups}, CombineKernel<1>{plan, workspace, out});
  }
  if (vector) return run<Backend, 4>(queue, plan, K, V, q, out, workspace);
  run<Backend, 1>(queue, plan, K, V, q, out, workspace);
}

}  // namespace portkern::ops::attention_impl
