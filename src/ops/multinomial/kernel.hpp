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

// The CPU's form, whose items are SIMD lanes (consecutive items should load consecutive weights): the row in
// blocks of Items * PerItem = 1024 weights.
//  1. Sum: item i adds the weights i, i + Items, ... (contiguous loads), a group_reduce gives sum(w).
//  2. Search, block by block: the block's sum, the same way; while carry + that sum <= u * sum(w) the block is
//     passed over (carry += its sum). The block where the prefix crosses is taken as the CUDA form takes a
//     chunk: item i owns the PerItem consecutive weights i * PerItem, ... (an interleaved load group, which
//     the vectoriser turns into loads and permutes), their sums' exclusive scan over the items gives each
//     segment's offset, each item walks its segment (from its private array: item-fastest) and marks its
//     first j with w_j > 0 and prefix_j > u * sum(w); a group_reduce (min) makes it the group's. Rounding may
//     leave the block without a hit: the search then goes on from the next block.
//  3. No hit in the row (u * sum(w) beyond the last prefix, by rounding): the last positive weight (a max
//     over the items of the last positive j they saw).
// Whole blocks are phases without checks; only the row's last, partial block masks its loads (zeros).
template <int Items = 64, int PerItem = 16>
struct SampleKernelLanes {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t block = std::int64_t(Items) * PerItem;
  Args a;

  // The weight at j (0 past the row's end where Checked).
  template <bool Checked>
  PORTKERN_INLINE float weight(const float* row, std::int64_t j) const {
    return !Checked || j < a.categories ? row[j] : 0.f;
  }

  // acc(item) += the block's weights base + item.x + Items * e, e < PerItem.
  template <bool Checked, class Group, class Acc>
  PORTKERN_INLINE void add_block(Group& g, Acc& acc, const float* row, std::int64_t base) const {
    g.for_each_item([&](kernel::Item item) {
      float s = acc(item, 0);
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) s += weight<Checked>(row, base + item.x + Items * e);
      acc(item, 0) = s;
    });
  }

  // The block's sum.
  template <bool Checked, class Group>
  PORTKERN_INLINE float block_sum(Group& g, const float* row, std::int64_t base) const {
    kernel::private_array<float, 1, Group> acc;
    g.for_each_item([&](kernel::Item item) { acc(item, 0) = 0.f; });
    add_block<Checked>(g, acc, row, base);
    return kernel::group_reduce<0, float>(
        g, [&](kernel::Item item) { return acc(item, 0); }, [](float p, float q) { return p + q; }, 0.f);
  }

  // The first j of the block with w_j > 0 and carry + prefix_j > target, INT_MAX if none.
  template <bool Checked, class Group>
  PORTKERN_INLINE int search(Group& g, const float* row, std::int64_t base, float carry, float target) const {
    kernel::private_array<float, PerItem, Group> x;   // the segment's weights
    kernel::private_array<float, 1, Group> part;      // the segment's sum, then its offset in the row
    g.for_each_item([&](kernel::Item item) {
      float s = 0.f;
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        x(item, e) = weight<Checked>(row, base + item.x * PerItem + e);
        s += x(item, e);
      }
      part(item, 0) = s;
    });
    kernel::group_inclusive_scan<1, float>(
        g, [&](kernel::Item item) { return part(item, 0); }, [](float p, float q) { return p + q; },
        [&](kernel::Item item, float inclusive) { part(item, 0) = carry + (inclusive - part(item, 0)); });
    kernel::private_array<int, 1, Group> hit;
    g.for_each_item([&](kernel::Item item) {
      const int j0 = int(base) + item.x * PerItem;
      float prefix = part(item, 0);
      int first = INT_MAX;
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const float w = x(item, e);
        prefix += w;
        const int j = (w > 0.f) & (prefix > target) ? j0 + e : INT_MAX;   // zeros past the end are never positive
        first = j < first ? j : first;                                       // (selects, no branch)
      }
      hit(item, 0) = first;
    });
    return kernel::group_reduce<2, int>(
        g, [&](kernel::Item item) { return hit(item, 0); }, [](int p, int q) { return p < q ? p : q; }, INT_MAX);
  }

  // The last j with w_j > 0 (-1 if none) among the block's weights, merged into last(item).
  template <bool Checked, class Group, class Last>
  PORTKERN_INLINE void last_positive(Group& g, Last& last, const float* row, std::int64_t base) const {
    g.for_each_item([&](kernel::Item item) {
      int l = last(item, 0);
      PORTKERN_UNROLL
      for (int e = 0; e < PerItem; ++e) {
        const std::int64_t j = base + item.x + Items * e;
        l = weight<Checked>(row, j) > 0.f ? int(j) : l;
      }
      last(item, 0) = l;
    });
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t r = g.x(), n = a.categories;
    const float* row = a.weights + r * n;
    const std::int64_t whole = n / block * block;   // blocks [0, whole) need no checks
    kernel::private_array<float, 1, Group> acc;
    g.for_each_item([&](kernel::Item item) { acc(item, 0) = 0.f; });
    for (std::int64_t base = 0; base < whole; base += block) add_block<false>(g, acc, row, base);
    if (whole < n) add_block<true>(g, acc, row, whole);
    const float total = kernel::group_reduce<0, float>(
        g, [&](kernel::Item item) { return acc(item, 0); }, [](float p, float q) { return p + q; }, 0.f);
    int found = 0;   // a zero (or NaN) row: 0
    if (total > 0.f) {   // uniform
      const float target = a.uniforms[r] * total;
      float carry = 0.f;
      found = INT_MAX;
      for (std::int64_t base = 0; base < n && found == INT_MAX; base += block) {
        const bool checked = base == whole;
        const float sum = checked ? block_sum<true>(g, row, base) : block_sum<false>(g, row, base);
        if (carry + sum > target)
          found = checked ? search<true>(g, row, base, carry, target) : search<false>(g, row, base, carry, target);
        carry += sum;
      }
      if (found == INT_MAX) {   // rounding left u * sum(w) beyond the last prefix: the last positive weight
        kernel::private_array<int, 1, Group> last;
        g.for_each_item([&](kernel::Item item) { last(item, 0) = -1; });
        for (std::int64_t base = 0; base < whole; base += block) last_positive<false>(g, last, row, base);
        if (whole < n) last_positive<true>(g, last, row, whole);
        const int l = kernel::group_reduce<3, int>(
            g, [&](kernel::Item item) { return last(item, 0); }, [](int p, int q) { return p > q ? p : q; }, -1);
        found = l < 0 ? 0 : l;
      }
    }
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) a.out[r] = found;
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Args& a) {
  if constexpr (Backend::items_are_lanes) Backend::launch(queue, kernel::Range{a.rows}, SampleKernelLanes<>{a});
  else Backend::launch(queue, kernel::Range{a.rows}, SampleKernel<>{a});
}

}  // namespace portkern::ops::multinomial_impl
