// The portable mask kernel, one template for the six kinds. A group owns a flat chunk of the tensor (Items * V
// * PerItem int32); each item walks its V-wide vectors with row_walk (shared with glu), which also keeps the
// row index j = row % rows without a division, finds the kept interval [lo, hi) of row j once per vector,
// and selects in or fill per element. All loads are issued before the stores.
#pragma once

#include <cstdint>

#include "ops/glu/row_walk.hpp"
#include "ops/mask/backends.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::mask_impl {

// Lanes: the CPU's form (items are SIMD lanes), which takes row_walk's uniform cases.
template <MaskKind Kind, int V, bool Lanes = false, int Items = 256, int PerItem = 4>
struct MaskKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t step = std::int64_t(Items) * V;
  static constexpr int per_item = PerItem;

  row_walk::Plan plan;
  const std::int32_t* per_row;
  std::int64_t radius;
  std::int32_t fill;
  const std::int32_t* in;
  std::int32_t* out;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    row_walk::dispatch<Lanes>(*this, plan, g);
  }

  template <bool Checked, bool Aligned, class Group>
  PORTKERN_INLINE void phase(Group& g) const {
    const row_walk::Pos start = row_walk::group_start(plan, g.x());
    const std::int64_t first = g.x() * plan.chunk;
    g.for_each_item([&](kernel::Item item) {
      row_walk::Walk<Aligned, true> walk(plan, start, std::int64_t(item.x) * V);
      kernel::vec<std::int32_t, V> v[PerItem] = {};
      std::int64_t at[PerItem], col[PerItem];
      Keep keep[PerItem];
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k) {
        at[k] = first + k * step + std::int64_t(item.x) * V;
        col[k] = walk.col();
        keep[k] = Keep{0, 0};
        if (!Checked || at[k] < plan.total) {
          v[k] = kernel::vec<std::int32_t, V>::load(in + at[k]);
          keep[k] = keep_range<Kind>(walk.sub(), per_row, radius);
        }
        walk.next(plan);
      }
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k) {
        if (!Checked || at[k] < plan.total) {
          PORTKERN_UNROLL
          for (int e = 0; e < V; ++e) {
            const std::int64_t c = col[k] + e;
            v[k][e] = c >= keep[k].lo && c < keep[k].hi ? v[k][e] : fill;
          }
          v[k].store(out + at[k]);
        }
      }
    });
  }
};

template <class Backend, MaskKind Kind, int V>
void run_kind(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  using K = MaskKernel<Kind, V, Backend::items_are_lanes>;
  const auto plan = row_walk::make_plan(p.batches * p.rows, p.cols, p.rows, K::step, K::per_item);
  Backend::launch(queue, kernel::Range{plan.groups()}, K{plan, p.per_row, p.radius, p.fill, in, out});
}

template <class Backend, int V>
void run_width(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  switch (p.kind) {
    case MaskKind::sequence: return run_kind<Backend, MaskKind::sequence, V>(queue, p, in, out);
    case MaskKind::window: return run_kind<Backend, MaskKind::window, V>(queue, p, in, out);
    case MaskKind::upper: return run_kind<Backend, MaskKind::upper, V>(queue, p, in, out);
    case MaskKind::lower: return run_kind<Backend, MaskKind::lower, V>(queue, p, in, out);
    case MaskKind::upper_diag: return run_kind<Backend, MaskKind::upper_diag, V>(queue, p, in, out);
    case MaskKind::lower_diag: return run_kind<Backend, MaskKind::lower_diag, V>(queue, p, in, out);
  }
}

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out) {
  if (!Backend::items_are_lanes && vector_width(p, in, out) == 4) run_width<Backend, 4>(queue, p, in, out);
  else run_width<Backend, 1>(queue, p, in, out);
}

}  // namespace portkern::ops::mask_impl
