// The kernel model on the CPU. Groups are spread over the queue's OpenMP threads (static schedule); inside a
// group, each for_each_item phase is a loop nest over the items whose innermost (x) loop is marked for SIMD,
// a barrier is the end of a phase, a private_array holds one value per item so the x loop can vectorise
// across items, and local memory is a thread-local buffer reused by the groups that thread runs.
#pragma once

#include <cstdint>

#include <atomic>
#include <exception>
#include <mutex>

#include "portkern/error.hpp"
#include "portkern/kernel/cpu/diagonal_fragment.hpp"
#include "portkern/kernel/cpu/fragment.hpp"
#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::kernel::cpu {

template <class S>
class Group {
 public:
  using shape = S;

  Group(std::int64_t linear, const Range& range, std::uint64_t launch = 0) : range_(range), launch_(launch) {
    x_ = linear % range.x;
    y_ = (linear / range.x) % range.y;
    z_ = linear / (range.x * range.y);
  }

  // This group's index in each dimension, and the number of groups.
  std::int64_t x() const { return x_; }
  std::int64_t y() const { return y_; }
  std::int64_t z() const { return z_; }
  const Range& range() const { return range_; }
  // Which launch this group belongs to (distinct for every launch of the process): per-thread state that
  // groups of one launch share, such as packed operands, is valid for that launch only.
  std::uint64_t launch() const { return launch_; }

  template <class F>
  PORTKERN_INLINE void for_each_item(F&& f) const {
    for (int z = 0; z < S::z; ++z)
      for (int y = 0; y < S::y; ++y) {
#pragma omp simd
        for (int x = 0; x < S::x; ++x) f(Item{x, y, z, (z * S::y + y) * S::x + x});
      }
  }

  // f(item) for the items whose x is below `count` (uniform; a group's last items past the end of the data):
  // the item loop's trip count, not a condition in every item, so the phase stays a plain vector loop (a
  // per-item condition on a 64-bit index becomes masked accesses GCC 12 does not vectorise with float data).
  template <class F>
  PORTKERN_INLINE void for_each_item_below(std::int64_t count, F&& f) const {
    const int xs = count >= S::x ? S::x : count <= 0 ? 0 : int(count);
    for (int z = 0; z < S::z; ++z)
      for (int y = 0; y < S::y; ++y) {
#pragma omp simd
        for (int x = 0; x < xs; ++x) f(Item{x, y, z, (z * S::y + y) * S::x + x});
      }
  }

  void barrier() const {}

  template <class T, int Id>
  T& local() const {
    alignas(64) static thread_local T storage;
    return storage;
  }

  // Matrix fragments and staged copies (portkern/kernel/fragment.hpp): the micro-kernels and their packing.
  template <class Layout>
  using staged_tiles = StagedTiles<Layout>;
  template <class Layout>
  using fragment = Fragment<Layout>;

  // Rows sums per item in SIMD registers (portkern/kernel/diagonal_fragment.hpp); one-dimensional groups.
  // Lanes columns an item: the same vectors over X * Lanes columns (items are lanes already).
  template <class T, int Rows, int Lanes = 1>
  using diagonal_fragment_type = DiagonalFragment<T, Rows, (S::y == 1 && S::z == 1 ? S::x * Lanes : -1)>;

  // One T[N] per item, laid out item-fastest so that a phase's item loop reads consecutive memory.
  template <class T, int N>
  struct private_array_type {
    T values[N][S::size];
    PORTKERN_INLINE T& operator()(const Item& item, int i) { return values[i][item.linear]; }
  };

 private:
  Range range_;
  std::uint64_t launch_;
  std::int64_t x_, y_, z_;
};

// A number distinct for every launch (Group::launch()).
inline std::uint64_t next_launch() {
  static std::atomic<std::uint64_t> count{0};
  return count.fetch_add(1, std::memory_order_relaxed) + 1;
}

// Runs kernel(group) for every group of `groups` on the queue's CPU threads. An exception a group throws (a
// fragment's scratch that cannot be allocated) does not leave the parallel region: the remaining groups of
// that thread are skipped and the first exception is rethrown after the region.
template <class Kernel>
void launch(const Queue& queue, const Range& groups, const Kernel& kernel) {
  require(groups.x >= 0 && groups.y >= 0 && groups.z >= 0, "portkern::kernel::launch", "groups.x*y*z",
          groups.size(), "made of non-negative counts");
  const std::int64_t total = groups.size();
  if (total == 0) return;
  std::exception_ptr first;
  std::mutex first_mutex;
  const std::uint64_t launch_id = next_launch();
#pragma omp parallel num_threads(queue.cpu_threads())
  {
    // Each thread runs its own copy of the kernel object, as each CUDA launch gets its arguments by value:
    // the compiler then knows the kernel's members (pointers, sizes) cannot change under the kernel's own
    // stores, keeps them in registers, and can vectorise the item loops (through a shared reference, every
    // store may alias them, so each is reloaded per item and GCC gives up on the loop).
    const Kernel own = kernel;
    bool failed = false;
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < total; ++i) {
      if (failed) continue;
      try {
        Group<typename Kernel::group_shape> group(i, groups, launch_id);
        own(group);
      } catch (...) {
        failed = true;
        const std::lock_guard lock(first_mutex);
        if (!first) first = std::current_exception();
      }
    }
  }
  if (first) std::rethrow_exception(first);
}

// The back end as a type, for host code written once over both (an operator's launch sequence is a template
// over Backend, instantiated in a .cpp for the CPU and in a .cu for CUDA).
struct Backend {
  static constexpr bool is_cuda = false;
  // Items are the SIMD lanes of a phase's vectorised item loop: consecutive items should touch consecutive
  // elements (one element per item and access, kernel::vec<T, 1>), since an item's own vector of N elements
  // becomes an N-way interleaved access across the lanes. Launch code picks its vector width with it.
  static constexpr bool items_are_lanes = true;
  template <class Kernel>
  static void launch(const Queue& queue, const Range& groups, const Kernel& kernel) {
    cpu::launch(queue, groups, kernel);
  }
};

}  // namespace portkern::kernel::cpu
