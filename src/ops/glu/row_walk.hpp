// A building block shared by glu, concat and mask (they include it from here): an item's walk over its
// group's chunk of a row-major [rows][length] array without a division per element.
//
// A group owns the flat chunk [group * chunk, (group + 1) * chunk) with chunk = Items * V * PerItem; item i
// takes the V-element vectors at i * V + k * Items * V, k < PerItem, so consecutive items touch
// consecutive addresses. The (row, col) of the item's first vector costs one division by `length` per
// group (uniform) plus, only for rows shorter than a step (Items * V), one small 32-bit division per item;
// each further vector is an add and a conditional subtract. Optionally the walk also keeps row % `period`
// (mask's row index j within a batch) the same way. A vector never straddles two rows when length % V == 0,
// which the callers guarantee before choosing V > 1.
//
// On the CPU, kernels take a group as one of four uniform cases (dispatch), each a phase of its own without
// what it does not need: Checked only for the last group, which can reach past the end; Aligned where rows are a whole
// number of steps long, so that a step never crosses a row: every item's position is then the group's
// (uniform) plus the item's offset, and consecutive items make contiguous accesses, which the CPU's
// vectorised item loop turns into vector loads and stores rather than gathers (Walk).
#pragma once

#include <cstdint>

#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::row_walk {

struct Plan {
  std::int64_t total = 0;    // rows * length elements
  std::int64_t length = 1;   // elements per row (>= 1)
  std::int64_t period = 1;   // for the tracked row % period (>= 1)
  std::int64_t step = 1;     // Items * V: elements between an item's consecutive vectors
  std::int64_t chunk = 1;    // step * PerItem: elements per group
  std::int64_t step_rows = 0, step_cols = 0, step_sub = 0;   // step = step_rows * length + step_cols;
                                                             // step_sub = step_rows % period
  std::int64_t groups() const { return (total + chunk - 1) / chunk; }
};

inline Plan make_plan(std::int64_t rows, std::int64_t length, std::int64_t period, std::int64_t step,
                      int per_item) {
  Plan p;
  p.length = length < 1 ? 1 : length;
  p.total = rows * length;
  p.period = period < 1 ? 1 : period;
  p.step = step;
  p.chunk = step * per_item;
  p.step_rows = step / p.length;
  p.step_cols = step % p.length;
  p.step_sub = p.step_rows % p.period;
  return p;
}

struct Pos {
  std::int64_t row, col, sub;   // sub = row % period (only kept up to date when tracked)
};

// The uniform part: where the group's chunk starts.
PORTKERN_INLINE Pos group_start(const Plan& p, std::int64_t group) {
  const std::int64_t first = group * p.chunk;
  const std::int64_t row = first / p.length;
  return Pos{row, first - row * p.length, row % p.period};
}

// The item's first vector (offset `offset` = item * V from the group's start, offset < step). Rows longer
// than a step (uniform) cross at most one row; shorter ones take a quotient of 32-bit values (s.col < length
// + step < 2 * step), kernel::quotient32, which the CPU's vectorised item loop computes in SIMD lanes.
template <bool TrackSub>
PORTKERN_INLINE Pos item_start(const Plan& p, Pos s, std::int64_t offset) {
  s.col += offset;
  const std::int64_t q = p.step_rows == 0 ? std::int64_t(s.col >= p.length) : kernel::quotient32(s.col, p.length);
  s.col -= q * p.length;
  s.row += q;
  if constexpr (TrackSub) {
    s.sub += q;
    s.sub -= kernel::quotient32(s.sub, p.period) * p.period;   // sub < period + step
  }
  return s;
}

// The next vector of the item, one step on.
template <bool TrackSub>
PORTKERN_INLINE void advance(const Plan& p, Pos& s) {
  s.col += p.step_cols;
  s.row += p.step_rows;
  if constexpr (TrackSub) s.sub += p.step_sub;
  if (s.col >= p.length) {
    s.col -= p.length;
    ++s.row;
    if constexpr (TrackSub) ++s.sub;
  }
  if constexpr (TrackSub) {
    if (s.sub >= p.period) s.sub -= p.period;   // sub <= (period - 1) + (period - 1) + 1
  }
}

// An item's walk over its vectors: row() and col() of the current one, next() to the following one.
template <bool Aligned, bool TrackSub = false>
struct Walk {
  Pos pos;             // Aligned: the group's (uniform) position; else the item's own
  std::int64_t lane;   // Aligned: the item's columns past pos; else 0

  PORTKERN_INLINE Walk(const Plan& p, const Pos& start, std::int64_t offset)
      : pos(Aligned ? start : item_start<TrackSub>(p, start, offset)), lane(Aligned ? offset : 0) {}
  PORTKERN_INLINE std::int64_t row() const { return pos.row; }
  PORTKERN_INLINE std::int64_t col() const { return pos.col + lane; }
  PORTKERN_INLINE std::int64_t sub() const { return pos.sub; }
  PORTKERN_INLINE void next(const Plan& p) { advance<TrackSub>(p, pos); }
};

// Runs kernel.phase<Checked, Aligned>(g) for the group's uniform case (see the header), where the items are
// SIMD lanes (Lanes: the CPU). Threads (CUDA) take every group in the one checked, per-item phase: the
// uniform cases save them little and their code costs registers (gelu's 8-half vectors: 54 against 47,
// 1.05x the time on the H100).
template <bool Lanes, class Kernel, class Group>
PORTKERN_INLINE void dispatch(const Kernel& kernel, const Plan& p, Group& g) {
  if constexpr (!Lanes) {
    kernel.template phase<true, false>(g);
  } else {
    const bool last = (g.x() + 1) * p.chunk > p.total;
    if (p.length % p.step == 0) {
      if (last) kernel.template phase<true, true>(g);
      else kernel.template phase<false, true>(g);
    } else {
      if (last) kernel.template phase<true, false>(g);
      else kernel.template phase<false, false>(g);
    }
  }
}

}  // namespace portkern::ops::row_walk
