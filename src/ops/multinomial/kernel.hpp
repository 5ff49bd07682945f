// The portable multinomial kernel: one group per row, a chunk of Items * PerItem = 2048 weights per step,
// each item owning PerItem consecutive weights (four 16-byte loads) in a private array.
//  1. Sum: every chunk is loaded, each item sums its segment, a group_reduce gives sum(w) (the first
//     chunk stays in the private array, so rows of <= 2048 weights are read once).
//  2. Search, chunk by chunk: a group_inclusive_scan of the segment sums gives each item its segment's
//     offset; the item walks its segment with a running sum and marks its first j with w_j > 0 and
//     prefix_j > u * sum(w), and its last j with w_j > 0; two int group_reduces (min, max) make them the
//     group's. The loop stops at the first chunk with a hit, carrying the chunk total forward otherwise.
// Reductions and the scan are over plain floats and ints: warp shuffles on CUDA. Compared with HeCBench's
// 256-wide Hillis-Steele scan with two barriers per step on every 256 weights, this is 8x fewer group steps.
#pragma once

#include <climits>
#include <cstdint>

#include "ops/multinomial/plan.hpp"
#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::ops::multinomial_impl {

template <int Items = 128, int PerItem = 16>
struct SampleKernel {
  static_assert(PerItem % 4 == 0, "segments are whole float4");
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t chunk = std::int64_t(Items) * PerItem;
  Args a;

  // Item `item`'s segment of the chunk at `base` into x (zeros past the row's end).
  template <class PrivateArray>
  PORTKERN_INLINE void load(PrivateArray& x, const kernel::Item& item,
                            const float* row, std::int64_t base) const {
    const std::int64_t j0 = base + std::int64_t(item.x) * PerItem;
    if (a.vectorized) {
      PORTKERN_UNROLL
      for (int q = 0; q < PerItem / 4; ++q) {
        const std::int64_t j = j0 + 4 * q;
        kernel::vec<float, 4> v{{0.f, 0.f, 0.f, 0.f}};
        if (j < a.categories) v = kernel::vec<float, 4>::load(row + j);   // categories % 4 == 0: whole vector
        PORTKERN_UNROLL
        for (int e = 0; e < 4; ++e) x(item, 4 * q + e) = v[e];
      }
    } else {
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) x(item, e) = j0 + e < a.categories ? row[j0 + e] : 0.f;
    }
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t r = g.x();
    const float* row = a.weights + r * a.categories;
    kernel::private_array<float, PerItem, Group> x;   // the segment's weights
    kernel::private_array<float, 1, Group> part;      // the segment's sum, then its offset in the row
    g.for_each_item([&](kernel::Item item) { part(item, 0) = 0.f; });
    for (std::int64_t base = chunk; base < a.categories; base += chunk)   // chunks 1, 2, ...
      g.for_each_item([&](kernel::Item item) {
        load(x, item, row, base);
        float s = 0.f;
        PORTKERN_UNROLL
        for (int e = 0; e < PerItem; ++e) s += x(item, e);
        part(item, 0) += s;
      });
    g.for_each_item([&](kernel::Item item) {   // chunk 0 last: it stays in x
      load(x, item, row, 0);
      float s = 0.f;
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) s += x(item, e);
      part(item, 0) += s;
    });
    const float total = kernel::group_reduce<0, float>(
        g, [&](kernel::Item item) { return part(item, 0); }, [](float p, float q) { return p + q; }, 0.f);
    if (!(total > 0.f)) {   // uniform: an all-zero (or NaN) row
      g.for_each_item([&](kernel::Item item) {
        if (item.linear == 0) a.out[r] = 0;
      });
      return;
    }
    const float target = a.uniforms[r] * total;
    auto& chunk_total = g.template local<float, 2>();
    float carry = 0.f;
    int last = -1;
    for (std::int64_t base = 0; base < a.categories; base += chunk) {
      g.for_each_item([&](kernel::Item item) {
        if (base > 0) load(x, item, row, base);
        float s = 0.f;
        PORTKERN_UNROLL
        for (int e = 0; e < PerItem; ++e) s += x(item, e);
        part(item, 0) = s;
      });
      kernel::group_inclusive_scan<1, float>(
          g, [&](kernel::Item item) { return part(item, 0); }, [](float p, float q) { return p + q; },
          [&](kernel::Item item, float inclusive) {
            if (item.linear == Items - 1) chunk_total = inclusive;
            part(item, 0) = carry + (inclusive - part(item, 0));   // the segment's exclusive offset
          });
      kernel::private_array<int, 2, Group> hit;   // (first j with prefix_j > target, last j with w_j > 0)
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t j0 = base + std::int64_t(item.x) * PerItem;
        float prefix = part(item, 0);
        int first = INT_MAX, lastpos = -1;
        PORTKERN_UNROLL
        for (int e = 0; e < PerItem; ++e) {
          const float w = x(item, e);
          prefix += w;
          const bool positive = w > 0.f;   // zeros past the row's end are never positive
          if (positive && prefix > target && first == INT_MAX) first = int(j0 + e);
          if (positive) lastpos = int(j0 + e);
        }
        hit(item, 0) = first;
        hit(item, 1) = lastpos;
      });
      const int first = kernel::group_reduce<3, int>(
          g, [&](kernel::Item item) { return hit(item, 0); }, [](int p, int q) { return p < q ? p : q; }, INT_MAX);
      const int lastpos = kernel::group_reduce<4, int>(
          g, [&](kernel::Item item) { return hit(item, 1); }, [](int p, int q) { return p > q ? p : q; }, -1);
      if (first != INT_MAX) {   // uniform
        g.for_each_item([&](kernel::Item item) {
          if (item.linear == 0) a.out[r] = first;
        });
        return;
      }
      if (lastpos > last) last = lastpos;
      carry += chunk_total;
    }
    g.for_each_item([&](kernel::Item item) {   // rounding left u * sum beyond the last prefix
      if (item.linear == 0) a.out[r] = last < 0 ? 0 : last;
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Args& a) {
  Backend::launch(queue, kernel::Range{a.rows}, SampleKernel<>{a});
}

}  // namespace portkern::ops::multinomial_impl
