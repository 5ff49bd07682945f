// Group-level building blocks of the kernel model, written once in the model itself (phases, local memory,
// barriers), so they run on both back ends: a reduction and an inclusive scan over the items of a group.
// Every item must call them (they contain barriers); the result of a reduction is uniform.
//
//   const float total = kernel::group_reduce<3>(g, [&](kernel::Item it) { return x[it.linear]; },
//                                               [](float a, float b) { return a + b; }, 0.f);
//
// Id names the local scratch (as in g.local<T, Id>): two reductions in flight need two ids. Cost in the
// model: one local-memory pass and log2(group size) phases. On CUDA, for arithmetic T and groups of whole
// warps, the same calls lower to warp shuffles (5 steps per warp, no barrier) and one exchange of the warp
// results through shared memory: two barriers in all, what a hand-written block reduction does.
#pragma once

#include <type_traits>

#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::kernel {

namespace detail {
PORTKERN_INLINE constexpr int ceil_pow2(int n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}
}  // namespace detail

// op-reduction of value(item) over the group's items; `identity` is op's neutral element (unused unless the
// group is empty, which it never is: kept for the signature's clarity).
template <int Id, class T, class Group, class Value, class Op>
PORTKERN_INLINE T group_reduce(Group& g, Value&& value, Op op, T identity) {
  using S = typename Group::shape;
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_arithmetic_v<T> && S::size % 32 == 0) {
    constexpr int warps = S::size / 32;
    auto& partial = g.template local<T[warps], Id>();
    T v = identity;
    int linear = 0;
    g.for_each_item([&](Item item) { v = value(item), linear = item.linear; });
    PORTKERN_UNROLL
    for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
    if (linear % 32 == 0) partial[linear / 32] = v;
    g.barrier();
    T total = partial[0];
    PORTKERN_UNROLL
    for (int w = 1; w < warps; ++w) total = op(total, partial[w]);
    g.barrier();   // the scratch may be reused right after
    return total;
  }
#endif
  auto& scratch = g.template local<T[S::size], Id>();
  g.for_each_item([&](Item item) { scratch[item.linear] = value(item); });
  g.barrier();
  for (int stride = detail::ceil_pow2(S::size) / 2; stride > 0; stride /= 2) {
    g.for_each_item([&](Item item) {
      if (item.linear < stride && item.linear + stride < S::size)
        scratch[item.linear] = op(scratch[item.linear], scratch[item.linear + stride]);
    });
    g.barrier();
  }
  const T result = S::size > 0 ? scratch[0] : identity;
  g.barrier();   // the scratch may be reused right after
  return result;
}

// Inclusive op-scan: out(item, value) receives op(value(0), ..., value(item)) in item order (linear index).
template <int Id, class T, class Group, class Value, class Op, class Out>
PORTKERN_INLINE void group_inclusive_scan(Group& g, Value&& value, Op op, Out&& out) {
  using S = typename Group::shape;
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_arithmetic_v<T> && S::size % 32 == 0) {   // warp scans, then the warps' totals
    constexpr int warps = S::size / 32;
    auto& totals = g.template local<T[warps], Id>();
    T v{};
    Item me{};
    g.for_each_item([&](Item item) { v = value(item), me = item; });
    const int lane = me.linear % 32, warp = me.linear / 32;
    PORTKERN_UNROLL
    for (int distance = 1; distance < 32; distance *= 2) {
      const T before = __shfl_up_sync(0xffffffffu, v, distance);
      if (lane >= distance) v = op(before, v);
    }
    if (lane == 31) totals[warp] = v;
    g.barrier();
    if (warp > 0) {
      T carry = totals[0];
      for (int w = 1; w < warp; ++w) carry = op(carry, totals[w]);
      v = op(carry, v);
    }
    out(me, v);
    g.barrier();
    return;
  }
#endif
  auto& buffers = g.template local<T[2][S::size], Id>();
  g.for_each_item([&](Item item) { buffers[0][item.linear] = value(item); });
  g.barrier();
  int from = 0;
  for (int distance = 1; distance < S::size; distance *= 2) {   // Hillis-Steele, double-buffered
    g.for_each_item([&](Item item) {
      const T mine = buffers[from][item.linear];
      buffers[from ^ 1][item.linear] = item.linear >= distance ? op(buffers[from][item.linear - distance], mine) : mine;
    });
    g.barrier();
    from ^= 1;
  }
  g.for_each_item([&](Item item) { out(item, buffers[from][item.linear]); });
  g.barrier();
}

}  // namespace portkern::kernel
