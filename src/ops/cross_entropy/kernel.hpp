// The portable cross-entropy backward kernel. A group covers Items * N consecutive positions of one batch
// entry; item i owns N consecutive positions (one N-wide vector: 16 bytes for float4 / 8 halves / double2).
// Phase 1 computes each position's gamma and target into private arrays (read once). Then a uniform loop
// over the classes, Unroll classes per phase (Unroll independent vector loads in flight per item), reads
// log_probs[b][k][h..h+N) and writes grad at the same place: consecutive items on consecutive vectors, so
// both streams are fully coalesced on CUDA and contiguous SIMD on the CPU. No reductions.
#pragma once

#include <cstdint>

#include "ops/cross_entropy/plan.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::ops::cross_entropy_impl {

template <class T, int N, int Items = 128, int Unroll = 4>
struct BackwardKernel {
  using group_shape = kernel::Shape<Items>;
  using C = Compute<T>;
  static constexpr std::int64_t span = std::int64_t(Items) * N;
  Args<T> a;
  std::int64_t groups_per_batch;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t b = g.x() / groups_per_batch, h_group = (g.x() - b * groups_per_batch) * span;
    const std::int64_t H = a.positions, W = a.classes;
    const int classes = int(W);   // checked < 2^31 by the API
    kernel::private_array<C, N, Group> gamma;
    kernel::private_array<int, N, Group> target;   // -1: none (past the end or out of range)
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t h0 = h_group + std::int64_t(item.x) * N;
      PORTKERN_UNROLL
      for (int e = 0; e < N; ++e) {
        const std::int64_t h = h0 + e, i = b * H + h;
        const bool in = h < H;
        const std::int64_t t = in ? a.target[i] : -1;
        target(item, e) = t >= 0 && t < W ? int(t) : -1;
        gamma(item, e) = in ? -(widen(a.grad_out[i]) + C(a.mask[i]) * widen(a.grad_out_neg[i])) * widen(a.weight[i])
                            : C(0);
      }
    });
    const T* L = a.log_probs + b * W * H;
    T* G = a.grad + b * W * H;
    for (int k0 = 0; k0 < classes; k0 += Unroll) {   // an int class index: one compare per element
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t h0 = h_group + std::int64_t(item.x) * N;
        if (h0 >= H) return;   // N divides H on the vector path: a vector is wholly in or out
        if constexpr (N > 1) {
          kernel::vec<T, N> l[Unroll];
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u)
            if (k0 + u < classes) l[u] = kernel::vec<T, N>::load(L + std::int64_t(k0 + u) * H + h0);
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u) {
            if (k0 + u >= classes) continue;
            kernel::vec<T, N> o;
            PORTKERN_UNROLL
            for (int e = 0; e < N; ++e) {
              const C onehot = target(item, e) == k0 + u ? C(1) : C(0);
              o[e] = narrow<T>(gamma(item, e) * (onehot - kernel::exp(widen(l[u][e]))));
            }
            o.store(G + std::int64_t(k0 + u) * H + h0);
          }
        } else {
          T l[Unroll];
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u)
            if (k0 + u < classes) l[u] = L[std::int64_t(k0 + u) * H + h0];
          PORTKERN_UNROLL
          for (int u = 0; u < Unroll; ++u) {
            if (k0 + u >= classes) continue;
            const C onehot = target(item, 0) == k0 + u ? C(1) : C(0);
            G[std::int64_t(k0 + u) * H + h0] = narrow<T>(gamma(item, 0) * (onehot - kernel::exp(widen(l[u]))));
          }
        }
      });
    }
  }
};

template <class Backend, class T, int N>
void launch_width(Queue& queue, const Args<T>& a) {
  using Kernel = BackwardKernel<T, N>;
  const std::int64_t per_batch = (a.positions + Kernel::span - 1) / Kernel::span;
  Backend::launch(queue, kernel::Range{per_batch * a.batch}, Kernel{a, per_batch});
}

// The launch sequence, written once over the back end: the kernel for the call's vector width.
template <class Backend, class T>
void run(Queue& queue, const Args<T>& a) {
  switch (a.width) {
    case 1: return launch_width<Backend, T, 1>(queue, a);
    case 2: return launch_width<Backend, T, 2>(queue, a);
    case 4:
      if constexpr (sizeof(T) <= 4) return launch_width<Backend, T, 4>(queue, a);
      break;
    case 8:
      if constexpr (sizeof(T) <= 2) return launch_width<Backend, T, 8>(queue, a);
      break;
  }
  return launch_width<Backend, T, 1>(queue, a);
}

}  // namespace portkern::ops::cross_entropy_impl
