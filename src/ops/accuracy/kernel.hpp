// The portable accuracy kernel: one group per row. The label and its score are read once per group
// (uniform loads); each phase covers Items * Unroll float4 of the row (16-byte loads, Unroll in flight per
// item, consecutive items on consecutive vectors), each item counting the entries that rank ahead of the
// label; a group_reduce of ints (warp shuffles on CUDA) gives the rank, and item 0 adds 1 to the count with
// an atomic when rank <= k (one atomic per correct row, spread over the whole run).
// On the CPU, whose items are SIMD lanes (Lanes), one score per item and access instead: whole steps of
// Items * Unroll columns are phases without checks, only the row's last, partial step masks its loads; a
// group of 64 items (8 columns each per step): the rank's group_reduce costs log2(items) phases per row, and
// with 256 items a row of 10000 columns took a fifth longer (19 against 23 GB/s on 2 threads).
#pragma once

#include <cstdint>

#include "ops/accuracy/plan.hpp"
#include "portkern/kernel/atomic.hpp"
#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::ops::accuracy_impl {

// 1 if column c's score x ranks ahead of (or is) the label's: x > s, or x == s at a column <= y.
PORTKERN_INLINE int ahead(float x, float s, std::int64_t c, std::int64_t y) { return (x > s) | ((x == s) & (c <= y)); }

template <int Items = 256, int Unroll = 4, bool Lanes = false>
struct RowKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t step = std::int64_t(Items) * Unroll;   // Lanes: columns per phase
  Args a;

  // Lanes: adds to n(item) the columns base + u * Items + item.x (u < Unroll) that rank ahead, those below
  // `end` only where Checked.
  template <bool Checked, class Group, class Count>
  PORTKERN_INLINE void count_step(Group& g, Count& n, const float* row, float s, std::int64_t y,
                                  std::int64_t base) const {
    g.for_each_item([&](kernel::Item item) {
      int k = 0;
      PORTKERN_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const std::int64_t c = base + u * Items + item.x;
        const bool in = !Checked || c < a.classes;
        k += int(in) & ahead(in ? row[c] : 0.f, s, c, y);
      }
      n(item, 0) += k;
    });
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t r = g.x();
    const std::int64_t y = a.labels[r];
    if (y < 0 || y >= a.classes) return;   // uniform: a bad label is a wrong row
    const float* row = a.scores + r * a.classes;
    const float s = row[y];
    kernel::private_array<int, 1, Group> n;
    g.for_each_item([&](kernel::Item item) { n(item, 0) = 0; });
    std::int64_t done = 0;
    if constexpr (Lanes) {
      const std::int64_t whole = a.classes / step * step;
      for (std::int64_t base = 0; base < whole; base += step) count_step<false>(g, n, row, s, y, base);
      if (whole < a.classes) count_step<true>(g, n, row, s, y, whole);   // uniform
      done = a.classes;
    } else if (a.vectorized) {
      const std::int64_t nvec = a.classes / 4;
      for (std::int64_t base = 0; base < nvec; base += std::int64_t(Items) * Unroll) {
        g.for_each_item([&](kernel::Item item) {
          kernel::vec<float, 4> v[Unroll];
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u) {
            const std::int64_t i = base + std::int64_t(u) * Items + item.x;
            if (i < nvec) v[u] = kernel::vec<float, 4>::load(row + 4 * i);
          }
          int k = 0;
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u) {
            const std::int64_t i = base + std::int64_t(u) * Items + item.x;
            if (i < nvec) {
              PORTKERN_UNROLL
              for (int e = 0; e < 4; ++e) k += ahead(v[u][e], s, 4 * i + e, y);
            }
          }
          n(item, 0) += k;
        });
      }
      done = nvec * 4;
    }
    for (std::int64_t base = done; base < a.classes; base += Items)   // scalar rest (all of it if unaligned)
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t c = base + item.x;
        if (c < a.classes) n(item, 0) += ahead(row[c], s, c, y);
      });
    const int rank = kernel::group_reduce<0, int>(
        g, [&](kernel::Item item) { return n(item, 0); }, [](int x, int z) { return x + z; }, 0);
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0 && rank <= a.top_k) kernel::atomic_add(a.count, 1);
    });
  }
};

// The launch sequence, written once over the back end (the count was zeroed by api.cpp).
template <class Backend>
void run(Queue& queue, const Args& a) {
  if constexpr (Backend::items_are_lanes) Backend::launch(queue, kernel::Range{a.rows}, RowKernel<64, 8, true>{a});
  else Backend::launch(queue, kernel::Range{a.rows}, RowKernel<>{a});
}

}  // namespace portkern::ops::accuracy_impl
