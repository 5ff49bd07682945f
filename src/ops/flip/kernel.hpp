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

template <class T, int Items = 256, int PerItem = 16, bool Lanes = false>
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

  // A group is one of four uniform cases: whether its rows are reversed (then consecutive items read
  // consecutive addresses downwards) and whether it is a whole chunk (or a whole set of rows), which needs no
  // check per element. Lanes (the CPU's launch: items are SIMD lanes; GCC 12 vectorises no masked reversed
  // access and leaves such an item loop scalar) makes the checked cases mask-free: a reversed chunk's items
  // past the row read its last element, packed groups repeat their last run.
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    if (rows_per_group > 1) {   // whole: the group's rows fill all of its elements
      if constexpr (Lanes) {
        const bool whole = (g.x() + 1) * rows_per_group <= plan.rows && rows_per_group * plan.length == chunk;
        if (plan.last_flipped) whole ? packed_rows<true, false>(g) : packed_rows<true, true>(g);
        else whole ? packed_rows<false, false>(g) : packed_rows<false, true>(g);
      } else {
        packed_rows_walked(g);
      }
      return;
    }
    const bool whole = plan.length - (g.x() % chunks_per_row) * chunk >= chunk;
    if (plan.last_flipped) whole ? row_chunk<true, false>(g) : row_chunk<true, true>(g);
    else whole ? row_chunk<false, false>(g) : row_chunk<false, true>(g);
  }

  // A chunk of one row: element c of the chunk comes from src[c] (src[-c] when reversed).
  template <bool Flipped, bool Checked, class Group>
  PORTKERN_INLINE void row_chunk(Group& g) const {
    const std::int64_t row = g.x() / chunks_per_row, col0 = (g.x() % chunks_per_row) * chunk;
    const T* src = in + source_row(plan, row) * plan.length + (Flipped ? plan.length - 1 - col0 : col0);
    T* dst = out + row * plan.length + col0;
    const std::int64_t n = plan.length - col0 < chunk ? plan.length - col0 : chunk;
    g.for_each_item([&](kernel::Item item) {
      T v[PerItem] = {};
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t c = std::int64_t(e) * Items + item.x;
        if constexpr (Lanes && Flipped && Checked) {   // a clamped read (GCC makes it a gather)
          const std::int64_t last = n - 1, clamped = c < last ? c : last;
          v[e] = src[-clamped];
        } else {
          if (!Checked || c < n) v[e] = src[Flipped ? -c : c];
        }
      }
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t c = std::int64_t(e) * Items + item.x;
        if (!Checked || c < n) dst[c] = v[e];
      }
    });
  }

  // Several whole rows per group, length % Items == 0: every item crosses to the next row at the same
  // element e. Checked: the group's rows end before its last elements (the last group, or rows that do not
  // divide the chunk); those elements are dead.
  // Lanes: where element e of every item lies is uniform (row row0 + r, columns col + item.x), so the walk and
  // the source rows are found once before the phase, which is then a plain copy of Items-element runs (the
  // walk's source_row call under a per-item condition kept the item loop scalar); a dead element repeats the
  // last live run (its item stores the same values to the same place again), so the phase has no masks.
  template <bool Flipped, bool Checked, class Group>
  PORTKERN_INLINE void packed_rows(Group& g) const {
    static_assert(Lanes, "CUDA's packed rows are packed_rows_walked");
    const std::int64_t row0 = g.x() * rows_per_group;
    const std::int64_t row_end = row0 + rows_per_group < plan.rows ? row0 + rows_per_group : plan.rows;
    // The group's rows are contiguous in the output: element e of item x goes to out[first + e * Items + x]
    // for e * Items < live.
    const std::int64_t first = row0 * plan.length, live = (row_end - row0) * plan.length;
    std::int64_t from[PerItem];   // element e of item x comes from in[from[e] +- x]
    std::int64_t row = row0, col = 0;
    from[0] = source_row(plan, row) * plan.length + (Flipped ? plan.length - 1 : 0);
    PORTKERN_UNROLL
    for (int e = 1; e < PerItem; ++e) {
      col += Items;
      from[e] = from[e - 1] + (Flipped ? -Items : Items);
      if (col >= plan.length) {
        col -= plan.length;
        ++row;
        if (row < row_end) from[e] = source_row(plan, row) * plan.length + (Flipped ? plan.length - 1 - col : col);
      }
      if (Checked && e * Items >= live) from[e] = from[e - 1];
    }
    std::int64_t to[PerItem];   // element e of item x goes to out[to[e] + x]
    PORTKERN_UNROLL
    for (int e = 0; e < PerItem; ++e) to[e] = first + (Checked && e * Items >= live ? live - Items : e * Items);
    g.for_each_item([&](kernel::Item item) {
      T v[PerItem];
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) v[e] = in[Flipped ? from[e] - item.x : from[e] + item.x];
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) out[to[e] + item.x] = v[e];
    });
  }

  // CUDA's packed rows: each item walks its elements, finding a row's source when it crosses into it, so
  // that the loads stay interleaved with the walk (few registers: 16 doubles in flight already spill).
  template <class Group>
  PORTKERN_INLINE void packed_rows_walked(Group& g) const {
    const std::int64_t row0 = g.x() * rows_per_group;
    const std::int64_t row_end = row0 + rows_per_group < plan.rows ? row0 + rows_per_group : plan.rows;
    const auto source = [&](std::int64_t row, std::int64_t col) {
      return source_row(plan, row) * plan.length + (plan.last_flipped ? plan.length - 1 - col : col);
    };
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

// The launch sequence, written once over the back end. CUDA: 256 items of 16 elements. CPU (items are SIMD
// lanes): 1024 items of 4 (the same 4096-element chunk; 16 elements per item are 16 interleaved streams,
// 1.4x slower on long rows), except rows that pack only with 256 items (a multiple of 256 shorter than a
// chunk, not of 1024), which would otherwise take a masked group each; packed groups repeat runs.
template <class Backend, class T>
void run(Queue& queue, const Plan& plan, const T* in, T* out) {
  const auto launch = [&](auto kernel_type) {
    using Kernel = decltype(kernel_type);
    std::int64_t chunks_per_row, rows_per_group, groups;
    Kernel::layout(plan, chunks_per_row, rows_per_group, groups);
    Backend::launch(queue, kernel::Range{groups}, Kernel{plan, chunks_per_row, rows_per_group, in, out});
  };
  if constexpr (Backend::items_are_lanes) {
    if (plan.length < 4096 && plan.length % 1024 != 0 && plan.length % 256 == 0)
      return launch(FlipKernel<T, 256, 16, true>{});
    return launch(FlipKernel<T, 1024, 4, true>{});
  } else {
    launch(FlipKernel<T>{});
  }
}

}  // namespace portkern::ops::flip_impl
