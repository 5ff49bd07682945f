// The portable concat kernel. A group owns a flat chunk of the output (Items * V * PerItem floats); each
// item walks its V-float vectors with row_walk (shared with glu), picks the source row of in1 or in2 by the
// column, issues all of its loads, then all of its stores.
#pragma once

#include <cstdint>

#include "ops/concat/backends.hpp"
#include "ops/glu/row_walk.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::concat_impl {

// Lanes: the CPU's form (items are SIMD lanes), which takes row_walk's uniform cases, and in whole steps of
// an aligned group one phase per step (copy_step).
template <int V, bool Lanes = false, int Items = 256, int PerItem = 4>
struct ConcatKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t step = std::int64_t(Items) * V;
  static constexpr int per_item = PerItem;

  row_walk::Plan plan;
  std::int64_t len1, len2;
  const float* in1;
  const float* in2;
  float* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    row_walk::dispatch<Lanes>(*this, plan, g);
  }

  template <bool Checked, bool Aligned, class Group>
  PORTKERN_INLINE void phase(Group& g) const {
    const row_walk::Pos start = row_walk::group_start(plan, g.x());
    const std::int64_t first = g.x() * plan.chunk;
    if constexpr (Lanes && Aligned && !Checked) {   // the CPU's whole steps: one phase per step, uniform source
      row_walk::Pos pos = start;
      for (int k = 0; k < PerItem; ++k) {
        copy_step(g, pos.row, pos.col, out + first + k * step);
        row_walk::advance<false>(plan, pos);
      }
      return;
    }
    g.for_each_item([&](kernel::Item item) {
      row_walk::Walk<Aligned> walk(plan, start, std::int64_t(item.x) * V);
      kernel::vec<float, V> v[PerItem] = {};
      std::int64_t at[PerItem];
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k) {
        at[k] = first + k * step + std::int64_t(item.x) * V;
        if (!Checked || at[k] < plan.total) {
          const std::int64_t row = walk.row(), col = walk.col();
          if constexpr (Aligned) {   // two loads under complementary conditions: on the CPU two masked
            if (col < len1) v[k] = kernel::vec<float, V>::load(in1 + row * len1 + col);   // contiguous loads
            else v[k] = kernel::vec<float, V>::load(in2 + row * len2 + (col - len1));     // (not a gather)
          } else {                   // one load through the selected pointer (a gather either way)
            v[k] = kernel::vec<float, V>::load(col < len1 ? in1 + row * len1 + col : in2 + row * len2 + (col - len1));
          }
        }
        walk.next(plan);
      }
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k)
        if (!Checked || at[k] < plan.total) v[k].store(out + at[k]);
    });
  }

  // One step (Items * V elements of row `row` from column `col`) to dst: a plain copy from in1 or in2 where
  // the step lies wholly in one of them (a uniform test), the two masked loads only where it straddles them.
  template <class Group>
  PORTKERN_INLINE void copy_step(Group& g, std::int64_t row, std::int64_t col, float* dst) const {
    if (col + step <= len1 || col >= len1) {
      const float* src = col < len1 ? in1 + row * len1 + col : in2 + row * len2 + (col - len1);
      g.for_each_item([&](kernel::Item item) {
        kernel::vec<float, V>::load(src + std::int64_t(item.x) * V).store(dst + std::int64_t(item.x) * V);
      });
    } else {
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t c = col + std::int64_t(item.x) * V;
        kernel::vec<float, V> v;
        if (c < len1) v = kernel::vec<float, V>::load(in1 + row * len1 + c);
        else v = kernel::vec<float, V>::load(in2 + row * len2 + (c - len1));
        v.store(dst + std::int64_t(item.x) * V);
      });
    }
  }
};

template <class Backend, int V>
void run_width(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out) {
  using K = ConcatKernel<V, Backend::items_are_lanes>;
  const auto plan = row_walk::make_plan(p.rows, p.len1 + p.len2, 1, K::step, K::per_item);
  Backend::launch(queue, kernel::Range{plan.groups()}, K{plan, p.len1, p.len2, in1, in2, out});
}

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out) {
  if (!Backend::items_are_lanes && vector_width(p, in1, in2, out) == 4) run_width<Backend, 4>(queue, p, in1, in2, out);
  else run_width<Backend, 1>(queue, p, in1, in2, out);
}

}  // namespace portkern::ops::concat_impl
