// Group-level building blocks of the kernel model, written once in the model itself (phases, local memory,
// barriers), so they run on both back ends: a reduction and an inclusive scan over the items of a group.
// Every item must call them (they contain barriers); the result of a reduction is uniform.
//
//   const float total = kernel::group_reduce<3>(g, [&](kernel::Item it) { return x[it.linear]; },
//                                               [](float a, float b) { return a + b; }, 0.f);
//
// Id names the local scratch (as in g.local<T, Id>): two reductions in flight need two ids. Cost: one
// local-memory pass and log2(group size) phases; on CUDA a warp-shuffle specialisation would save the
// phases of the first 32 items (a native refinement, not done yet).
#pragma once

#include "portkern/kernel/model.hpp"
#include "portkern/kernel/private_array.hpp"

namespace portkern::kernel {

namespace detail {
constexpr int ceil_pow2(int n) {
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
