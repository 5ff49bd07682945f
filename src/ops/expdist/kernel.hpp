// The portable expdist kernels. PairsKernel: a group of 32 x 8 items takes a block of 128 a-points and 256
// b-points, staged (coordinates and scales) in local memory; item (x, y) holds a-points x + 32 k (k < 4) in
// registers and walks b-points 32 y .. 32 y + 31 (the same b for all items of a CUDA warp: broadcast reads),
// 128 pairs per item. Padded a-points (beyond m) are dropped when the item's sums are combined; the b loop
// stops at n (a bound uniform over each warp / SIMD row). The group's sum (group_reduce) is its partial.
// SumKernel: one group of 256 items sums the partials in float64 in a fixed order.
#pragma once

#include <cstdint>

#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/kernel/math.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::expdist_impl {

constexpr int group_x = 32, group_y = 8, a_per_item = 4, b_per_row = 32;
constexpr int a_block = group_x * a_per_item;   // 128
constexpr int b_block = group_y * b_per_row;    // 256

struct Blocks {
  std::int64_t a_blocks, b_blocks;
  std::int64_t count() const { return a_blocks * b_blocks; }
};
inline Blocks blocks(std::int64_t m, std::int64_t n) {
  return {(m + a_block - 1) / a_block, (n + b_block - 1) / b_block};
}

// One pair's term, shared with the native twin.
template <class T>
PORTKERN_INLINE T term(T ax, T ay, T sa, T bx, T by, T sb) {
  const T dx = ax - bx, dy = ay - by;
  return kernel::exp(-((dx * dx + dy * dy) / (sa + sb)));
}

// Lanes (the CPU's form): the b loop outside the items, see operator(); otherwise each item walks its b-points
// in a loop of its own (CUDA's form: 1.06-1.19x the native twin's time with the loop outside, 1.00 inside).
template <class T, bool Lanes = false>
struct PairsKernel {
  using group_shape = kernel::Shape<group_x, group_y>;
  std::int64_t m, n, a_blocks;
  const T* a;
  const T* b;
  const T* sigma_a;
  const T* sigma_b;
  T* partials;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    auto& ax = g.template local<T[a_block], 0>();
    auto& ay = g.template local<T[a_block], 1>();
    auto& as = g.template local<T[a_block], 2>();
    auto& bx = g.template local<T[b_block], 3>();
    auto& by = g.template local<T[b_block], 4>();
    auto& bs = g.template local<T[b_block], 5>();
    const std::int64_t ab = g.x() % a_blocks, bb = g.x() / a_blocks;
    const std::int64_t a0 = ab * a_block, b0 = bb * b_block;
    const int a_valid = int(m - a0 < a_block ? m - a0 : a_block);
    const int b_valid = int(n - b0 < b_block ? n - b0 : b_block);
    g.for_each_item([&](kernel::Item item) {   // 256 items: one b-point each, the first 128 one a-point each
      const int l = item.linear;
      const bool bv = l < b_valid;
      bx[l] = bv ? b[b0 + l] : T(0);
      by[l] = bv ? b[n + b0 + l] : T(0);
      bs[l] = bv ? sigma_b[b0 + l] : T(1);
      if (l < a_block) {
        const bool av = l < a_valid;
        ax[l] = av ? a[a0 + l] : T(0);
        ay[l] = av ? a[m + a0 + l] : T(0);
        as[l] = av ? sigma_a[a0 + l] : T(1);
      }
    });
    g.barrier();
    // The item's a-points and sums, held across the b loop (registers on CUDA).
    kernel::private_array<T, a_per_item, Group> acc, px, py, ps;
    g.for_each_item([&](kernel::Item item) {
      PORTKERN_UNROLL
      for (int k = 0; k < a_per_item; ++k) {
        const int i = item.x + group_x * k;
        px(item, k) = ax[i], py(item, k) = ay[i], ps(item, k) = as[i], acc(item, k) = T(0);
      }
    });
    if constexpr (Lanes) {
      // The b loop outside the items, one phase per b-point of an item's row: the items are the SIMD lanes of
      // each step. Padded b-points (the last b block) hold (0, 0, 1): their terms are computed and dropped,
      // no branch around them.
      for (int l = 0; l < b_per_row; ++l)
        g.for_each_item([&](kernel::Item item) {
          const int j = item.y * b_per_row + l;
          const T qx = bx[j], qy = by[j], qs = bs[j];
          PORTKERN_UNROLL
          for (int k = 0; k < a_per_item; ++k) {
            const T t = term(px(item, k), py(item, k), ps(item, k), qx, qy, qs);
            acc(item, k) += j < b_valid ? t : T(0);
          }
        });
    } else {
      g.for_each_item([&](kernel::Item item) {   // the item's own loop over its b-points, up to n
        const int j0 = item.y * b_per_row;
        const int jn = b_valid - j0 < b_per_row ? b_valid - j0 : b_per_row;   // may be <= 0
        for (int l = 0; l < jn; ++l) {
          const T qx = bx[j0 + l], qy = by[j0 + l], qs = bs[j0 + l];
          PORTKERN_UNROLL
          for (int k = 0; k < a_per_item; ++k) acc(item, k) += term(px(item, k), py(item, k), ps(item, k), qx, qy, qs);
        }
      });
    }
    const T total = kernel::group_reduce<6>(
        g,
        [&](kernel::Item item) {
          T sum = T(0);
          PORTKERN_UNROLL
          for (int k = 0; k < a_per_item; ++k) sum += item.x + group_x * k < a_valid ? acc(item, k) : T(0);
          return sum;
        },
        [](T x, T y) { return x + y; }, T(0));
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) partials[g.x()] = total;
    });
  }
};

template <class T>
struct SumKernel {
  using group_shape = kernel::Shape<256>;
  std::int64_t count;
  const T* partials;
  T* cost;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const double total = kernel::group_reduce<0>(
        g,
        [&](kernel::Item item) {
          double s = 0;
          for (std::int64_t i = item.x; i < count; i += 256) s += double(partials[i]);
          return s;
        },
        [](double x, double y) { return x + y; }, 0.0);
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) cost[0] = T(total);
    });
  }
};

template <class Backend, class T>
void run(Queue& queue, std::int64_t m, std::int64_t n, const T* a, const T* b, const T* sigma_a, const T* sigma_b,
         T* cost, T* workspace) {
  const Blocks bl = blocks(m, n);
  Backend::launch(queue, kernel::Range{bl.count()},
                  PairsKernel<T, Backend::items_are_lanes>{m, n, bl.a_blocks, a, b, sigma_a, sigma_b, workspace});
  Backend::launch(queue, kernel::Range{1}, SumKernel<T>{bl.count(), workspace, cost});
}

}  // namespace portkern::ops::expdist_impl
