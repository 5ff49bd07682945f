// A kernel exercising the group building blocks (reduce, inclusive scan, atomics), written once and run by
// the CPU and GPU tests, with a group of 21 items (not a power of two, not a whole warp: the model's
// local-memory form on CUDA too) and one of 256 items in three dimensions (whole warps: CUDA's shuffles).
#pragma once

#include <cstdint>

#include "portkern/kernel/atomic.hpp"
#include "portkern/kernel/group_algorithms.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::testing {

// Per group g (linear index), item i (linear) holds v = 1000 g + i + 1. Writes
//   sums[g] = sum of v, maxima[g] = max of v, scans[g * 21 + i] = v(0) + ... + v(i);
// and every item adds 1 to counters[i % 5] and raises counters[5] to v (atomics across all groups).
template <class Shape>
struct GroupCheckOf {
  using group_shape = Shape;
  static constexpr int size = group_shape::size;
  int* sums;
  int* maxima;
  int* scans;
  int* counters;

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const std::int64_t group = (g.z() * g.range().y + g.y()) * g.range().x + g.x();
    auto v = [&](kernel::Item item) { return int(group * 1000 + item.linear + 1); };
    const int sum = kernel::group_reduce<0, int>(g, v, [](int a, int b) { return a + b; }, 0);
    const int max = kernel::group_reduce<0, int>(g, v, [](int a, int b) { return a > b ? a : b; }, 0);
    kernel::group_inclusive_scan<1, int>(g, v, [](int a, int b) { return a + b; },
                                         [&](kernel::Item item, int prefix) { scans[group * size + item.linear] = prefix; });
    g.for_each_item([&](kernel::Item item) {
      if (item.linear == 0) sums[group] = sum, maxima[group] = max;
      kernel::atomic_add(&counters[item.linear % 5], 1);
      kernel::atomic_max(&counters[5], v(item));
    });
  }
};

using GroupCheck = GroupCheckOf<kernel::Shape<7, 3>>;
using GroupCheckWarps = GroupCheckOf<kernel::Shape<32, 4, 2>>;

template <class Kernel>
void run_group_check_cpu(Queue& q, const kernel::Range& groups, const Kernel& kernel);
template <class Kernel>
void run_group_check_cuda(Queue& q, const kernel::Range& groups, const Kernel& kernel);

}  // namespace portkern::testing
