// The portable logprob kernels.
//  RowKernel: one group per (b, t) row of logits. The row is read once: each phase covers Items * Unroll
//    float4 (16-byte loads, Unroll independent loads in flight per item), consecutive items on consecutive
//    vectors; each item keeps an online (max, sum of exp(x - max)) pair, rescaling its sum once per float4
//    when the max grows. Two group_reduces (the max, then the rescaled sums) merge the pairs; item 0 writes the token's log-probability.
//    Rows with t >= len - 1 are skipped without reading (and get 0).
//  RowKernelLanes: the CPU's form, whose items are SIMD lanes: one group per row as RowKernel, one element per
//    item and access, two passes over the row, which a core's L2 still holds (200 KB at V = 50257): its max
//    first, then sum exp(x - max) (one exp per element, no rescaling, no per-item branch). Whole steps of
//    Items * Unroll columns are phases without checks; only the row's last, partial step masks its loads.
//    The exp pass is compute-bound (libmvec's expf, about a cycle per element on AVX-512): a group taking
//    a run of rows and finding row i's max in the phases that sum row i - 1's exponentials was 20% faster
//    on rows in the L3 cache but 20% slower on rows from DRAM (fewer loads in flight among the exps).
//  SumKernel: one group per sequence, a group_reduce of its log-probabilities (accumulated in double:
//    ~1000 terms of magnitude ~10 would lose ~1e-3 in float; it is a negligible B * T pass).
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>

#include "ops/logprob/plan.hpp"
#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::ops::logprob_impl {

template <int Items = 256, int Unroll = 4>
struct RowKernel {
  using group_shape = kernel::Shape<Items>;
  Args a;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t per_seq = a.steps - 1;
    const std::int64_t row = g.x();
    const std::int64_t b = row / per_seq, t = row - b * per_seq;
    if (t >= std::int64_t(a.lengths[b]) - 1) {   // uniform: past the sequence's end
      g.for_each_item([&](kernel::Item item) {
        if (item.linear == 0) a.log_probs[row] = 0.f;
      });
      return;
    }
    const float* r = a.logits + (b * a.steps + t) * a.padded;
    kernel::private_array<float, 2, Group> state;   // (running max, running sum)
    g.for_each_item([&](kernel::Item item) {
      state(item, 0) = -FLT_MAX;
      state(item, 1) = 0.f;
    });
    std::int64_t done = 0;   // columns covered by the vector phases
    if (a.vectorized) {
      const std::int64_t nvec = a.vocab / 4;
      for (std::int64_t base = 0; base < nvec; base += std::int64_t(Items) * Unroll) {
        g.for_each_item([&](kernel::Item item) {
          float x[Unroll][4];
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u) {
            const std::int64_t i = base + std::int64_t(u) * Items + item.x;
            if (i < nvec) {
              const auto v = kernel::vec<float, 4>::load(r + 4 * i);
              PORTKERN_UNROLL
              for (int e = 0; e < 4; ++e) x[u][e] = v[e];
            } else {
              PORTKERN_UNROLL
              for (int e = 0; e < 4; ++e) x[u][e] = -INFINITY;
            }
          }
          float m = state(item, 0);
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u)
            PORTKERN_UNROLL
            for (int e = 0; e < 4; ++e) m = kernel::fmax(m, x[u][e]);
          float s = state(item, 1) * kernel::exp(state(item, 0) - m);
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u)
            PORTKERN_UNROLL
            for (int e = 0; e < 4; ++e) s += kernel::exp(x[u][e] - m);
          state(item, 0) = m;
          state(item, 1) = s;
        });
      }
      done = nvec * 4;
    }
    for (std::int64_t base = done; base < a.vocab; base += Items) {   // scalar rest (all of it if unaligned)
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t c = base + item.x;
        const float x = c < a.vocab ? r[c] : -INFINITY;
        const float m = kernel::fmax(state(item, 0), x);
        state(item, 1) = state(item, 1) * kernel::exp(state(item, 0) - m) + kernel::exp(x - m);
        state(item, 0) = m;
      });
    }
    // Merge the items' states: the row max, then each item's sum rescaled to it and summed (two reductions
    // of plain floats, which lower to warp shuffles on CUDA).
    const float row_max = kernel::group_reduce<0, float>(
        g, [&](kernel::Item item) { return state(item, 0); }, [](float x, float y) { return kernel::fmax(x, y); },
        -FLT_MAX);
    const float row_sum = kernel::group_reduce<1, float>(
        g, [&](kernel::Item item) { return state(item, 1) * kernel::exp(state(item, 0) - row_max); },
        [](float x, float y) { return x + y; }, 0.f);
    const int id = a.ids[b * a.steps + t + 1];
    g.for_each_item([&](kernel::Item item) {
      if (item.linear != 0) return;
      const float target = id >= 0 && id < a.vocab ? r[id] : NAN;
      a.log_probs[row] = target - row_max - kernel::log(row_sum + 1e-9f);
    });
  }
};

template <int Items = 256, int Unroll = 8>
struct RowKernelLanes {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t step = std::int64_t(Items) * Unroll;   // columns per phase
  Args a;

  // acc(item) = f(acc(item), x) for the item's columns x of the step at base: base + u * Items + item.x,
  // u < Unroll (Checked: the row's last, partial step, reading -inf past the row's end).
  template <bool Checked, class Group, class Acc, class F>
  PORTKERN_INLINE void step_phase(Group& g, Acc& acc, const float* r, std::int64_t base, F f) const {
    g.for_each_item([&](kernel::Item item) {
      float s = acc(item, 0);
      PORTKERN_UNROLL
      for (int u = 0; u < Unroll; ++u) {
        const std::int64_t c = base + u * Items + item.x;
        s = f(s, !Checked || c < a.vocab ? r[c] : -INFINITY);
      }
      acc(item, 0) = s;
    });
  }

  // One pass over the row: acc(item) from init folded with f over all its columns.
  template <class Group, class Acc, class F>
  PORTKERN_INLINE void pass(Group& g, Acc& acc, const float* r, float init, F f) const {
    g.for_each_item([&](kernel::Item item) { acc(item, 0) = init; });
    const std::int64_t whole = a.vocab / step * step;
    for (std::int64_t base = 0; base < whole; base += step) step_phase<false>(g, acc, r, base, f);
    if (whole < a.vocab) step_phase<true>(g, acc, r, whole, f);   // uniform
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t per_seq = a.steps - 1, row = g.x(), b = row / per_seq, t = row - b * per_seq;
    if (t >= std::int64_t(a.lengths[b]) - 1) {   // uniform: past the sequence's end
      g.for_each_item([&](kernel::Item item) {
        if (item.linear == 0) a.log_probs[row] = 0.f;
      });
      return;
    }
    const float* r = a.logits + (b * a.steps + t) * a.padded;
    kernel::private_array<float, 1, Group> acc;
    // x > m ? x : m is fmax(m, x) here (m is never NaN; a NaN x makes the row's sum NaN), and a float select
    // that GCC keeps one (fmax's x != x, false for the padding, it would turn into a mask select).
    pass(g, acc, r, -FLT_MAX, [](float m, float x) { return x > m ? x : m; });
    const float row_max = kernel::group_reduce<0, float>(
        g, [&](kernel::Item item) { return acc(item, 0); }, [](float x, float y) { return kernel::fmax(x, y); },
        -FLT_MAX);
    pass(g, acc, r, 0.f, [row_max](float s, float x) { return s + kernel::exp(x - row_max); });
    const float row_sum = kernel::group_reduce<1, float>(
        g, [&](kernel::Item item) { return acc(item, 0); }, [](float x, float y) { return x + y; }, 0.f);
    const int id = a.ids[b * a.steps + t + 1];
    g.for_each_item([&](kernel::Item item) {
      if (item.linear != 0) return;
      const float target = id >= 0 && id < a.vocab ? r[id] : NAN;
      a.log_probs[row] = target - row_max - kernel::log(row_sum + 1e-9f);
    });
  }
};

template <int Items = 256>
struct SumKernel {
  using group_shape = kernel::Shape<Items>;
  Args a;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t b = g.x(), per_seq = a.steps - 1;
    const std::int64_t n = std::int64_t(a.lengths[b]) - 1;   // counted tokens, < per_seq + 1
    const float* lp = a.log_probs + b * per_seq;
    kernel::private_array<double, 1, Group> acc;
    g.for_each_item([&](kernel::Item item) { acc(item, 0) = 0.0; });
    for (std::int64_t base = 0; base < n; base += Items)
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t t = base + item.x;
        if (t < n) acc(item, 0) += double(lp[t]);
      });
    const double sum = kernel::group_reduce<0, double>(
        g, [&](kernel::Item item) { return acc(item, 0); }, [](double x, double y) { return x + y; }, 0.0);
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) a.cum[b] = float(sum);
    });
  }
};

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, const Args& a) {
  const kernel::Range rows{a.batch * (a.steps - 1)};
  if (a.steps > 1) {
    if constexpr (Backend::items_are_lanes) Backend::launch(queue, rows, RowKernelLanes<>{a});
    else Backend::launch(queue, rows, RowKernel<>{a});
  }
  Backend::launch(queue, kernel::Range{a.batch}, SumKernel<>{a});
}

}  // namespace portkern::ops::logprob_impl
