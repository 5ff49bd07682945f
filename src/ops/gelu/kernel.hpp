// The portable gelu kernel. A group owns a flat chunk of src (Items * V * PerItem halves); each item walks
// its V-half vectors with row_walk (the bias column follows without a division per element), loads all its
// src and bias vectors first, then computes in float and stores in place.
#pragma once

#include <cstdint>

#include "ops/glu/row_walk.hpp"
#include "portkern/kernel/half.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::ops::gelu_impl {

// The GELU (tanh form) of u in float.
PORTKERN_INLINE float gelu_float(float u) {
  const float t = kernel::tanh(0.79788456f * (u + 0.044715f * u * u * u));
  return 0.5f * u * (1.f + t);
}

// The GELU of a half, rounded to half.
PORTKERN_INLINE half gelu_of(half h) { return kernel::to_half(gelu_float(kernel::to_float(h))); }

// u = half(x + b) in half arithmetic, then the GELU.
PORTKERN_INLINE half gelu_bias_one(half x, half b) {
  return gelu_of(kernel::to_half(kernel::to_float(x) + kernel::to_float(b)));
}

// The same on V halves in place at x (bias at b), with vector conversions and the GELU's lanes as SIMD lanes.
template <int V>
PORTKERN_INLINE void gelu_bias_vector(half* x, const half* b) {
  const kernel::vec<float, V> xf = kernel::load_float<V>(x), bf = kernel::load_float<V>(b);
  kernel::vec<float, V> sum, y;
  PORTKERN_LANES
  for (int e = 0; e < V; ++e) sum[e] = xf[e] + bf[e];
  const kernel::vec<float, V> u = kernel::round_to_half(sum);
  PORTKERN_LANES
  for (int e = 0; e < V; ++e) y[e] = gelu_float(u[e]);
  kernel::store_half(y, x);
}

// Lanes: the CPU's forms: V = 16 halves an item through gelu_bias, or V = 1 with the items as SIMD lanes
// (row_walk's aligned case for contiguous accesses).
template <int V, bool Lanes = false, int Items = 256, int PerItem = 4>
struct GeluKernel {
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t step = std::int64_t(Items) * V;
  static constexpr int per_item = PerItem;

  row_walk::Plan plan;
  half* src;
  const half* bias;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    row_walk::dispatch<Lanes>(*this, plan, g);
  }

  template <bool Checked, bool Aligned, class Group>
  PORTKERN_INLINE void phase(Group& g) const {
    const row_walk::Pos start = row_walk::group_start(plan, g.x());
    const std::int64_t first = g.x() * plan.chunk;
    g.for_each_item([&](kernel::Item item) {
      row_walk::Walk<Aligned> walk(plan, start, std::int64_t(item.x) * V);
      if constexpr (Lanes && V > 1) {   // the CPU's vectors: widened and narrowed natively (half.hpp)
        PORTKERN_UNROLL
        for (int k = 0; k < PerItem; ++k) {
          const std::int64_t at = first + k * step + std::int64_t(item.x) * V;
          if (!Checked || at < plan.total) gelu_bias_vector<V>(src + at, bias + walk.col());
          walk.next(plan);
        }
        return;
      }
      kernel::vec<half, V> x[PerItem] = {}, b[PerItem] = {};
      std::int64_t at[PerItem];
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k) {
        at[k] = first + k * step + std::int64_t(item.x) * V;
        if (!Checked || at[k] < plan.total) {
          x[k] = kernel::vec<half, V>::load(src + at[k]);
          b[k] = kernel::vec<half, V>::load(bias + walk.col());
        }
        walk.next(plan);
      }
      PORTKERN_UNROLL
      for (int k = 0; k < PerItem; ++k) {
        if (!Checked || at[k] < plan.total) {
          kernel::vec<half, V> y;
          if constexpr (V >= 2) {   // the bias add on pairs (one HADD2 on CUDA, as the native twin does)
            PORTKERN_UNROLL
            for (int e = 0; e < V; e += 2) {
              const half2 u = kernel::add(half2{x[k][e], x[k][e + 1]}, half2{b[k][e], b[k][e + 1]});
              y[e] = gelu_of(u.x);
              y[e + 1] = gelu_of(u.y);
            }
          } else {
            y[0] = gelu_bias_one(x[k][0], b[k][0]);
          }
          y.store(src + at[k]);
        }
      }
    });
  }
};

template <class Backend, int V>
void run_width(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias) {
  using K = GeluKernel<V, Backend::items_are_lanes>;
  const auto plan = row_walk::make_plan(rows, hidden, 1, K::step, K::per_item);
  Backend::launch(queue, kernel::Range{plan.groups()}, K{plan, src, bias});
}

// The launch sequence, written once over the back end.
template <class Backend>
void run(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias) {
  if constexpr (Backend::items_are_lanes) {   // an item's 16 halves in one SIMD register, else items as lanes
    if (hidden % 16 == 0) return run_width<Backend, 16>(queue, rows, hidden, src, bias);
  } else {
    const int v = vector_width(hidden, src, bias);
    if (v == 8) return run_width<Backend, 8>(queue, rows, hidden, src, bias);
    if (v == 2) return run_width<Backend, 2>(queue, rows, hidden, src, bias);
  }
  run_width<Backend, 1>(queue, rows, hidden, src, bias);
}

}  // namespace portkern::ops::gelu_impl
