// The portable cross-entropy backward kernel. A group covers Items * N consecutive positions of one batch
// entry; item i owns N consecutive positions (one N-wide vector: 16 bytes for float4 / 8 halves / double2).
// Phase 1 computes each position's gamma and target into private arrays (read once). Then a uniform loop
// over the classes, Unroll classes per phase (Unroll independent vector loads in flight per item), reads
// log_probs[b][k][h..h+N) and writes grad at the same place: consecutive items on consecutive vectors, so
// both streams are fully coalesced on CUDA and contiguous SIMD on the CPU. No reductions.
// The CPU (Lanes: items are SIMD lanes) takes one position per item (N = 1) in groups of 1024, each class's
// run then 4 KB of float, whole pages for the prefetcher; a group is one of two uniform cases, a batch
// entry's last group (its positions checked) or not (no checks), and the classes go in whole blocks of
// Unroll, then one at a time, with no per-class condition; every item computes and only a last group's loads
// and stores are masked (no exp under a condition); a half goes through its bits (load_if, store_if).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ops/cross_entropy/plan.hpp"
#include "portkern/kernel/half.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::ops::cross_entropy_impl {

template <class T, int N, int Items = 128, int Unroll = 4, bool Lanes = false>
struct BackwardKernel {
  using group_shape = kernel::Shape<Items>;
  using C = Compute<T>;
  static constexpr std::int64_t span = std::int64_t(Items) * N;
  Args<T> a;
  std::int64_t groups_per_batch;

  // Lanes (the CPU's form, items as SIMD lanes): a uniform branch, only a batch entry's last group can reach
  // past its positions and needs checks, and whole blocks of classes without per-class conditions. Otherwise
  // (CUDA's form, measured faster there: 1.13x the native twin's time with the CPU's blocks against 0.87x)
  // one loop over the classes in steps of Unroll, each vector's positions and each class checked.
  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t b = g.x() / groups_per_batch, h_group = (g.x() - b * groups_per_batch) * span;
    if constexpr (Lanes) {
      if (h_group + span <= a.positions) phase<false>(g, b, h_group);
      else phase<true>(g, b, h_group);
    } else {
      phase<true>(g, b, h_group);
    }
  }

  template <bool Checked, class Group>
  PORTKERN_INLINE void phase(Group& g, std::int64_t b, std::int64_t h_group) const {
    const std::int64_t H = a.positions, W = a.classes;
    const int classes = int(W);   // checked < 2^31 by the API
    kernel::private_array<C, N, Group> gamma;
    kernel::private_array<int, N, Group> target;   // -1: none (past the end or out of range)
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t h0 = h_group + std::int64_t(item.x) * N;
      PORTKERN_UNROLL
      for (int e = 0; e < N; ++e) {
        const std::int64_t h = h0 + e, i = b * H + h;
        const bool in = !Checked || h < H;
        target(item, e) = valid_target(in ? a.target[i] : -1, W);
        gamma(item, e) = in ? position_gamma(a, i) : C(0);
      }
    });
    if constexpr (Lanes) {   // whole blocks of Unroll classes, then the rest one class per phase
      int k0 = 0;
      for (; k0 + Unroll <= classes; k0 += Unroll) lanes_classes<Checked, Unroll>(g, b, h_group, k0, gamma, target);
      for (; k0 < classes; ++k0) lanes_classes<Checked, 1>(g, b, h_group, k0, gamma, target);
    } else {
      threads_classes(g, b, h_group, gamma, target);
    }
  }

  // The CPU's form: grad[b][k0 + u][h] for u < U, one position per item (N = 1): every item computes, only the
  // loads and stores of a last group are masked (no call under a condition), U loads in flight per item.
  template <bool Checked, int U, class Group, class Gamma, class Target>
  PORTKERN_INLINE void lanes_classes(Group& g, std::int64_t b, std::int64_t h_group, int k0, Gamma& gamma,
                                     Target& target) const {
    static_assert(N == 1, "items as SIMD lanes: one position per item");
    const std::int64_t H = a.positions, W = a.classes;
    const T* L = a.log_probs + b * W * H;
    T* G = a.grad + b * W * H;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t h0 = h_group + item.x;
      const bool in = !Checked || h0 < H;
      C l[U];   // widened as loaded: an array of half structs would stay in memory
      PORTKERN_UNROLL
      for (int u = 0; u < U; ++u) l[u] = widen(load_if(L + std::int64_t(k0 + u) * H + h0, in));
      PORTKERN_UNROLL
      for (int u = 0; u < U; ++u) {
        const T o = narrow<T>(class_gradient(gamma(item, 0), target(item, 0), k0 + u, l[u]));
        store_if(G + std::int64_t(k0 + u) * H + h0, o, in);
      }
    });
  }

  // CUDA's form (see operator()): every class in steps of Unroll, each vector of positions and each class
  // checked, Unroll vector loads in flight per item.
  template <class Group, class Gamma, class Target>
  PORTKERN_INLINE void threads_classes(Group& g, std::int64_t b, std::int64_t h_group, Gamma& gamma,
                                       Target& target) const {
    const std::int64_t H = a.positions, W = a.classes;
    const int classes = int(W);
    const T* L = a.log_probs + b * W * H;
    T* G = a.grad + b * W * H;
    for (int k0 = 0; k0 < classes; k0 += Unroll) {   // an int class index: one compare per element
      g.for_each_item([&](kernel::Item item) {
        const std::int64_t h0 = h_group + std::int64_t(item.x) * N;
        if (h0 >= H) return;   // N divides H on the vector path: a vector is wholly in or out
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
            o[e] = narrow<T>(class_gradient(gamma(item, e), target(item, e), k0 + u, widen(l[u][e])));
          }
          o.store(G + std::int64_t(k0 + u) * H + h0);
        }
      });
    }
  }
};

// The CPU's form for half: 16 positions an item, widened and narrowed natively (kernel::load_float and
// store_half: one instruction per 16 halves on x86, where items as lanes spend about 25 on the integer
// conversions), the 16 positions as SIMD lanes (PORTKERN_LANES, exp through libmvec); 64 items, so a group
// spans 1024 positions as BackwardKernel's CPU form does. The item past a batch entry's end, in its last
// group, converts lane by lane.
template <int Items = 64, int Unroll = 4>
struct HalfVectorKernel {
  static constexpr int N = 16;
  using group_shape = kernel::Shape<Items>;
  static constexpr std::int64_t span = std::int64_t(Items) * N;
  Args<half> a;
  std::int64_t groups_per_batch;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t b = g.x() / groups_per_batch, h_group = (g.x() - b * groups_per_batch) * span;
    if (h_group + span <= a.positions) phase<false>(g, b, h_group);
    else phase<true>(g, b, h_group);
  }

  template <bool Checked, class Group>
  PORTKERN_INLINE void phase(Group& g, std::int64_t b, std::int64_t h_group) const {
    const std::int64_t H = a.positions, W = a.classes;
    const int classes = int(W);   // checked < 2^31 by the API
    kernel::private_array<kernel::vec<float, N>, 1, Group> gamma;
    kernel::private_array<kernel::vec<int, N>, 1, Group> target;   // -1: none (past the end or out of range)
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t h0 = h_group + std::int64_t(item.x) * N;
      for (int e = 0; e < N; ++e) {   // once per position, against once per position and class below
        const std::int64_t h = h0 + e, i = b * H + h;
        const bool in = !Checked || h < H;
        target(item, 0)[e] = valid_target(in ? a.target[i] : -1, W);
        gamma(item, 0)[e] = in ? position_gamma(a, i) : 0.f;
      }
    });
    int k0 = 0;
    for (; k0 + Unroll <= classes; k0 += Unroll) some_classes<Checked, Unroll>(g, b, h_group, k0, gamma, target);
    for (; k0 < classes; ++k0) some_classes<Checked, 1>(g, b, h_group, k0, gamma, target);
  }

  // grad[b][k0 + u][h] for u < U: U vectors loaded, then computed and stored.
  template <bool Checked, int U, class Group, class Gamma, class Target>
  PORTKERN_INLINE void some_classes(Group& g, std::int64_t b, std::int64_t h_group, int k0, Gamma& gamma,
                                    Target& target) const {
    const std::int64_t H = a.positions, W = a.classes;
    const half* L = a.log_probs + b * W * H;
    half* G = a.grad + b * W * H;
    g.for_each_item([&](kernel::Item item) {
      const std::int64_t h0 = h_group + std::int64_t(item.x) * N;
      const kernel::vec<float, N>& gm = gamma(item, 0);
      const kernel::vec<int, N>& tg = target(item, 0);
      if (!Checked || h0 + N <= H) {
        kernel::vec<float, N> l[U];
        PORTKERN_UNROLL
        for (int u = 0; u < U; ++u) l[u] = kernel::load_float<N>(L + std::int64_t(k0 + u) * H + h0);
        PORTKERN_UNROLL
        for (int u = 0; u < U; ++u) {
          kernel::vec<float, N> o;
          PORTKERN_LANES
          for (int e = 0; e < N; ++e) o[e] = class_gradient(gm[e], tg[e], k0 + u, l[u][e]);
          kernel::store_half(o, G + std::int64_t(k0 + u) * H + h0);
        }
      } else if (h0 < H) {   // the batch entry's last positions
        for (int u = 0; u < U; ++u)
          for (int e = 0; e < int(H - h0); ++e) {
            const std::int64_t at = std::int64_t(k0 + u) * H + h0 + e;
            G[at] = kernel::to_half(class_gradient(gm[e], tg[e], k0 + u, kernel::to_float(L[at])));
          }
      }
    });
  }
};

template <class Backend, class T, int N>
void launch_width(Queue& queue, const Args<T>& a) {
  // The CPU: 1024 positions per group, so that each class's run of the group is a few KB long (whole pages
  // for the prefetcher) rather than 128 elements; for half, HalfVectorKernel.
  using Kernel = std::conditional_t<
      Backend::items_are_lanes,
      std::conditional_t<std::is_same_v<T, half>, HalfVectorKernel<>, BackwardKernel<T, N, 1024, 4, true>>,
      BackwardKernel<T, N>>;
  const std::int64_t per_batch = (a.positions + Kernel::span - 1) / Kernel::span;
  Backend::launch(queue, kernel::Range{per_batch * a.batch}, Kernel{a, per_batch});
}

// The launch sequence, written once over the back end: the kernel for the call's vector width (one
// position per item on the CPU, whose items are SIMD lanes).
template <class Backend, class T>
void run(Queue& queue, const Args<T>& a) {
  if constexpr (!Backend::items_are_lanes) {
    switch (a.width) {
      case 2: return launch_width<Backend, T, 2>(queue, a);
      case 4:
        if constexpr (sizeof(T) <= 4) return launch_width<Backend, T, 4>(queue, a);
        break;
      case 8:
        if constexpr (sizeof(T) <= 2) return launch_width<Backend, T, 8>(queue, a);
        break;
    }
  }
  return launch_width<Backend, T, 1>(queue, a);
}

}  // namespace portkern::ops::cross_entropy_impl
