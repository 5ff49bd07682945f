// The portable dense_embedding kernel. A group of 64 x 4 items owns `rows_per_group` consecutive rows of the
// flat buffer. Phase 1: one item per row finds the row's batch by binary search in the offsets (largest b
// with offsets[b] <= row * D; empty batches are skipped by construction) into group-local memory. Then, per
// step of 4 rows and per pass of 64 * Unroll vectors along D (uniform loops), item (x, y) adds dense[b] to
// Unroll vectors of row y: consecutive items touch consecutive 16-byte words of input, dense and out.
// On the CPU, whose items are SIMD lanes (Lanes: a group of 64 x 1 items), one element per item and access,
// row by row: whole steps of 64 * Unroll elements are phases without checks, only a row's last, partial
// step masks its loads and stores.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ops/dense_embedding/plan.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::dense_embedding_impl {

template <int V, int Unroll = 4, bool Lanes = false>
struct DenseEmbeddingKernel {
  static constexpr int X = 64, Y = Lanes ? 1 : 4, MaxRows = 64;
  static constexpr std::int64_t step = std::int64_t(X) * Unroll;   // Lanes: elements per phase
  using group_shape = kernel::Shape<X, Y>;

  Plan plan;
  const std::int64_t* offsets;
  const float* input;
  const float* dense;
  float* out;

  // Lanes: dst[j] = src[j] + add[j] for j = base + u * X + item.x, u < Unroll (below dim only where Checked).
  template <bool Checked, class Group>
  PORTKERN_INLINE void add_step(Group& g, const float* src, const float* add, float* dst, std::int64_t base) const {
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const std::int64_t j = base + u * X + item.x;
        if (!Checked || j < plan.dim) dst[j] = src[j] + add[j];
      }
    });
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    using Vec = kernel::vec<float, V>;
    const std::int64_t row0 = plan.first_row + g.x() * plan.rows_per_group;
    const std::int64_t rows = plan.last_row - row0 < plan.rows_per_group ? plan.last_row - row0 : plan.rows_per_group;
    const std::int64_t dim = plan.dim, vectors = dim / V;
    auto& batch = g.template local<std::int64_t[MaxRows], 0>();
    g.for_each_item([&](kernel::Item item) {
      if (item.linear >= rows) return;
      const std::int64_t e = (row0 + item.linear) * dim;
      std::int64_t lo = 0, hi = plan.batches;   // offsets[lo] <= e < offsets[hi]
      while (hi - lo > 1) {
        const std::int64_t mid = (lo + hi) / 2;
        if (offsets[mid] <= e) lo = mid;
        else hi = mid;
      }
      batch[item.linear] = lo;
    });
    g.barrier();
    if constexpr (Lanes) {
      const std::int64_t whole = dim / step * step;
      for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t row = row0 + r;
        const float* src = input + row * dim;
        const float* add = dense + batch[r] * dim;
        float* dst = out + row * dim;
        for (std::int64_t base = 0; base < whole; base += step) add_step<false>(g, src, add, dst, base);
        if (whole < dim) add_step<true>(g, src, add, dst, whole);   // uniform
      }
    } else {
      for (std::int64_t r = 0; r < rows; r += Y) {
        for (std::int64_t base = 0; base < vectors; base += std::int64_t(X) * Unroll) {
          g.for_each_item([&](kernel::Item item) {
            if (r + item.y >= rows) return;
            const std::int64_t row = row0 + r + item.y;
            const float* src = input + row * dim;
            const float* add = dense + batch[r + item.y] * dim;
            float* dst = out + row * dim;
            Vec a[Unroll] = {}, b[Unroll] = {};
            PORTKERN_UNROLL
            for (int u = 0; u < Unroll; ++u) {
              const std::int64_t j = (base + std::int64_t(u) * X + item.x) * V;
              if (j < dim) a[u] = Vec::load(src + j), b[u] = Vec::load(add + j);
            }
            PORTKERN_UNROLL
            for (int u = 0; u < Unroll; ++u) {
              const std::int64_t j = (base + std::int64_t(u) * X + item.x) * V;
              if (j >= dim) continue;
              PORTKERN_UNROLL
              for (int e = 0; e < V; ++e) a[u][e] += b[u][e];
              a[u].store(dst + j);
            }
          });
        }
      }
    }
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Plan& plan, const std::int64_t* offsets, const float* input, const float* dense,
         float* out) {
  const std::int64_t groups = (plan.last_row - plan.first_row + plan.rows_per_group - 1) / plan.rows_per_group;
  if constexpr (Backend::items_are_lanes)
    Backend::launch(queue, kernel::Range{groups}, DenseEmbeddingKernel<1, 4, true>{plan, offsets, input, dense, out});
  else if (plan.vector)
    Backend::launch(queue, kernel::Range{groups}, DenseEmbeddingKernel<4>{plan, offsets, input, dense, out});
  else
    Backend::launch(queue, kernel::Range{groups}, DenseEmbeddingKernel<1>{plan, offsets, input, dense, out});
}

}  // namespace portkern::ops::dense_embedding_impl
