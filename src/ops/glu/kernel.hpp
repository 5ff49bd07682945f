// The portable glu kernel. A group owns a flat chunk of Y (Items * V * PerItem elements); each item walks
// its V-wide vectors (row_walk: no division per element), loads all of its P and Q vectors first (the loads
// are independent, so they are all in flight together on CUDA), then computes and stores.
#pragma once

#include <cstdint>

#include "ops/glu/backends.hpp"
#include "ops/glu/row_walk.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::glu_impl {

// Lanes: the CPU's form (items are SIMD lanes), which takes row_walk's uniform cases.
template <int V, bool Lanes = false, int Items = 256, int PerItem = 4>
struct GluKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t step = std::int64_t(Items) * V;
  static constexpr int per_item = PerItem;

  row_walk::Plan plan;
  const float* x;
  float* y;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    row_walk::dispatch<Lanes>(*this, plan, g);
  }

  template <bool Checked, bool Aligned, class Group>
  PORTKERN_INLINE void phase(Group& g) const {
    const row_walk::Pos start = row_walk::group_start(plan, g.x());
    const std::int64_t first = g.x() * plan.chunk;
    const std::int64_t len = plan.length;
    g.for_each_item([&](kernel::Item item) {
      row_walk::Walk<Aligned> walk(plan, start, std::int64_t(item.x) * V);
      kernel::vec<float, V> p[PerItem] = {}, q[PerItem] = {};
      std::int64_t out[PerItem];
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k) {
        out[k] = first + k * step + std::int64_t(item.x) * V;
        if (!Checked || out[k] < plan.total) {
          const float* src = x + walk.row() * 2 * len + walk.col();
          p[k] = kernel::vec<float, V>::load(src);
          q[k] = kernel::vec<float, V>::load(src + len);
        }
        walk.next(plan);
      }
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k) {
        if (!Checked || out[k] < plan.total) {
          kernel::vec<float, V> r;
          PORTKERN_UNROLL
          for (int e = 0; e < V; ++e) r[e] = p[k][e] * kernel::sigmoid(q[k][e]);
          r.store(y + out[k]);
        }
      }
    });
  }
};

template <int V>
row_walk::Plan plan_for(const Problem& p) {
  using K = GluKernel<V>;
  return row_walk::make_plan(p.rows, p.half, 1, K::step, K::per_item);
}

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Problem& p, const float* x, float* y) {
  constexpr bool lanes = Backend::items_are_lanes;
  if constexpr (!lanes) {
    if (vector_width(p, x, y) == 4) {
      const auto plan = plan_for<4>(p);
      return Backend::launch(queue, kernel::Range{plan.groups()}, GluKernel<4, lanes>{plan, x, y});
    }
  }
  const auto plan = plan_for<1>(p);
  Backend::launch(queue, kernel::Range{plan.groups()}, GluKernel<1, lanes>{plan, x, y});
}

}  // namespace portkern::ops::glu_impl
