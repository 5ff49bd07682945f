// The portable flip kernel. A group moves Items * PerItem elements (16 KB of floats): item i takes elements
// i, i + Items, ... so that consecutive items touch consecutive addresses on both sides (a reversed row is
// read backwards: still one cache line per 32 items on CUDA, a permuted vector on the CPU). Each item loads
// all its elements before it stores any, so PerItem loads are in flight (a load-store pair per element
// serialises them: the stores may alias the loads). Rows of at least a chunk are cut into chunks; shorter
// rows whose length is a multiple of Items are packed several to a group (a group per 4 KB row was bound by
// block scheduling: 27% of copy bandwidth). The row's source is found once per row (uniform integer work),
// not once per element as in the HeCBench original, whose int64 div/mod per element made it ALU-bound.
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
  std::int64_t chunks_per_row;   // rows of >= chunk elements: groups per row
  std::int64_t rows_per_group;   // shorter rows (length % Items == 0): rows per group; else 1

  const T* in;
  T* out;

  // How a plan's rows map to groups.
  static void layout(const Plan& plan, std::int64_t& chunks_per_row, std::int64_t& rows_per_group,
                     std::int64_t& groups) {
    rows_per_group = plan.length < chunk && plan.length % Items == 0 ? chunk / plan.length : 1;
    chunks_per_row = (plan.length + chunk - 1) / chunk;
    groups = rows_per_group > 1 ? (plan.rows + rows_per_group - 1) / rows_per_group : plan.rows * chunks_per_row;
  }

  PORTKERN_INLINE std::int64_t source(std::int64_t row, std::int64_t col) const {
    return source_row(plan, row) * plan.length + (plan.last_flipped ? plan.length - 1 - col : col);
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    if (rows_per_group > 1) return packed_rows(g);
    const std::int64_t row = g.x() / chunks_per_row, col0 = (g.x() % chunks_per_row) * chunk;
    const std::int64_t src_row = source_row(plan, row) * plan.length;
    T* dst = out + row * plan.length + col0;
    const std::int64_t n = plan.length - col0 < chunk ? plan.length - col0 : chunk;
    g.for_each_item([&](kernel::Item item) {
      T v[PerItem] = {};
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t c = std::int64_t(e) * Items + item.x;
        const std::int64_t col = col0 + c;
        if (c < n) v[e] = in[src_row + (plan.last_flipped ? plan.length - 1 - col : col)];
      }
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t c = std::int64_t(e) * Items + item.x;
        if (c < n) dst[c] = v[e];
      }
    });
  }

  // Several whole rows per group; every item crosses to the next row at the same step (length % Items == 0).
  template <class Group>
  PORTKERN_INLINE void packed_rows(Group& g) const {
    const std::int64_t row0 = g.x() * rows_per_group;
    const std::int64_t row_end = row0 + rows_per_group < plan.rows ? row0 + rows_per_group : plan.rows;
    g.for_each_item([&](kernel::Item item) {
      T v[PerItem] = {};
      std::int64_t row = row0, col = item.x, src = source(row, col);
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        if (row < row_end) v[e] = in[src];
        col += Items;
        src += plan.last_flipped ? -Items : Items;
        if (col >= plan.length) {
          col -= plan.length;
          ++row;
          if (row < row_end) src = source(row, col);
        }
      }
      row = row0, col = item.x;
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        if (row < row_end) out[row * plan.length + col] = v[e];
        col += Items;
        if (col >= plan.length) col -= plan.length, ++row;
      }
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend, class T>
void run(Queue& queue, const Plan& plan, const T* in, T* out) {
  using Kernel = FlipKernel<T>;
  std::int64_t chunks_per_row, rows_per_group, groups;
  Kernel::layout(plan, chunks_per_row, rows_per_group, groups);
  Backend::launch(queue, kernel::Range{groups}, Kernel{plan, chunks_per_row, rows_per_group, in, out});
}

}  // namespace portkern::ops::flip_impl
