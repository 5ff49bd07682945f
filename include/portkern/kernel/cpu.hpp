// The kernel model on the CPU. Groups are spread over the queue's OpenMP threads (static schedule); inside a
// group, each for_each_item phase is a loop nest over the items whose innermost (x) loop is marked for SIMD,
// a barrier is the end of a phase, a private_array holds one value per item so the x loop can vectorise
// across items, and local memory is a thread-local buffer reused by the groups that thread runs.
#pragma once

#include <cstdint>

#include "portkern/error.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::kernel::cpu {

template <class S>
class Group {
 public:
  using shape = S;

  Group(std::int64_t linear, const Range& range) : range_(range) {
    x_ = linear % range.x;
    y_ = (linear / range.x) % range.y;
    z_ = linear / (range.x * range.y);
  }

  // This group's index in each dimension, and the number of groups.
  std::int64_t x() const { return x_; }
  std::int64_t y() const { return y_; }
  std::int64_t z() const { return z_; }
  const Range& range() const { return range_; }

  template <class F>
  PORTKERN_INLINE void for_each_item(F&& f) const {
    for (int z = 0; z < S::z; ++z)
      for (int y = 0; y < S::y; ++y) {
#pragma omp simd
        for (int x = 0; x < S::x; ++x) f(Item{x, y, z, (z * S::y + y) * S::x + x});
      }
  }

  void barrier() const {}

  template <class T, int Id>
  T& local() const {
    alignas(64) static thread_local T storage;
    return storage;
  }

  // One T[N] per item, laid out item-fastest so that a phase's item loop reads consecutive memory.
  template <class T, int N>
  struct private_array_type {
    T values[N][S::size];
    PORTKERN_INLINE T& operator()(const Item& item, int i) { return values[i][item.linear]; }
  };

 private:
  Range range_;
  std::int64_t x_, y_, z_;
};

// Runs kernel(group) for every group of `groups` on the queue's CPU threads.
template <class Kernel>
void launch(const Queue& queue, const Range& groups, const Kernel& kernel) {
  require(groups.x >= 0 && groups.y >= 0 && groups.z >= 0, "portkern::kernel::launch", "groups.x*y*z",
          groups.size(), "made of non-negative counts");
  const std::int64_t total = groups.size();
  if (total == 0) return;
#pragma omp parallel for schedule(static) num_threads(queue.cpu_threads())
  for (std::int64_t i = 0; i < total; ++i) {
    Group<typename Kernel::group_shape> group(i, groups);
    kernel(group);
  }
}

// The back end as a type, for host code written once over both (an operator's launch sequence is a template
// over Backend, instantiated in a .cpp for the CPU and in a .cu for CUDA).
struct Backend {
  static constexpr bool is_cuda = false;
  template <class Kernel>
  static void launch(const Queue& queue, const Range& groups, const Kernel& kernel) {
    cpu::launch(queue, groups, kernel);
  }
};

}  // namespace portkern::kernel::cpu
