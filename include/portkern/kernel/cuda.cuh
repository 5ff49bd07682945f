// The kernel model on CUDA: a group is a thread block, an item a thread. for_each_item(f) calls f once in
// each thread, barrier() is __syncthreads(), local<T, Id>() is a __shared__ variable, a private_array is a
// register array (index it with compile-time constants, or it moves to local memory). A kernel whose groups
// share nothing may ask for several groups a block (packed_groups, model.hpp): group k of a block is its
// threads with threadIdx.y = k. Include only from .cu files.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "portkern/error.hpp"
#include "portkern/kernel/cuda/diagonal_fragment.cuh"
#include "portkern/kernel/cuda/fragment.cuh"
#include "portkern/kernel/model.hpp"
#include "portkern/runtime/queue.hpp"
#include "portkern/runtime/cuda_check.hpp"

namespace portkern::kernel::cuda {

// Groups of shape S, Pack of them a thread block (one-dimensional groups only: threadIdx.y tells them apart).
template <class S, int Pack = 1>
struct Group {
  using shape = S;
  static_assert(Pack == 1 || (S::y == 1 && S::z == 1), "packed groups are one-dimensional");
  std::int64_t groups_x;   // the launch's groups along x (a packed launch's last block may run past them)

  __device__ std::int64_t x() const {
    return Pack == 1 ? std::int64_t(blockIdx.x) : std::int64_t(blockIdx.x) * Pack + threadIdx.y;
  }
  __device__ std::int64_t y() const { return blockIdx.y; }
  __device__ std::int64_t z() const { return blockIdx.z; }
  __device__ Range range() const { return Range{groups_x, gridDim.y, gridDim.z}; }

  template <class F>
  __device__ __forceinline__ void for_each_item(F&& f) const {
    const int x = threadIdx.x, y = S::y > 1 ? int(threadIdx.y) : 0, z = S::z > 1 ? int(threadIdx.z) : 0;
    f(Item{x, y, z, (z * S::y + y) * S::x + x});
  }

  // f(item) for the items whose x is below `count` (uniform): the threads past it skip the phase.
  template <class F>
  __device__ __forceinline__ void for_each_item_below(std::int64_t count, F&& f) const {
    if (std::int64_t(threadIdx.x) < count) for_each_item(f);
  }

  __device__ __forceinline__ void barrier() const {
    static_assert(Pack == 1, "packed groups share their block: they may not synchronise");
    __syncthreads();
  }

  template <class T, int Id>
  __device__ __forceinline__ T& local() const {
    static_assert(Pack == 1, "packed groups share their block: they have no group-local memory");
    __shared__ alignas(16) T storage;
    return storage;
  }

  // Matrix fragments and staged copies (portkern/kernel/fragment.hpp): registers, cp.async into shared memory.
  template <class Layout>
  using staged_tiles = std::enable_if_t<Pack == 1, StagedTiles<Layout>>;
  template <class Layout>
  using fragment = std::enable_if_t<Pack == 1, Fragment<Layout>>;

  // Rows sums per item in its registers (portkern/kernel/diagonal_fragment.hpp); one-dimensional groups.
  template <class T, int Rows, int Lanes = 1>
  using diagonal_fragment_type = DiagonalFragment<T, (S::y == 1 && S::z == 1 ? Rows : -1), Lanes>;

  template <class T, int N>
  struct private_array_type {
    T values[N];
    __device__ __forceinline__ T& operator()(const Item&, int i) { return values[i]; }
  };
};

// Groups of Kernel a thread block: its packed_groups where it asks for them (model.hpp), else 1.
template <class Kernel>
__host__ __device__ constexpr int packed() {
  if constexpr (requires { Kernel::packed_groups; }) {
    static_assert(Kernel::packed_groups >= 1 && Kernel::packed_groups * Kernel::group_shape::size <= 1024,
                  "packed_groups: at least 1, and at most 1024 threads a block");
    return Kernel::packed_groups;
  } else {
    return 1;
  }
}

template <class Kernel>
__device__ __forceinline__ void run_group(const Kernel& kernel, std::int64_t groups_x) {
  Group<typename Kernel::group_shape, packed<Kernel>()> group{groups_x};
  if (packed<Kernel>() > 1 && group.x() >= groups_x) return;   // the last block's groups past the launch's
  kernel(group);
}

template <class Kernel>
__global__ void __launch_bounds__(Kernel::group_shape::size * packed<Kernel>()) entry(const Kernel kernel,
                                                                                     std::int64_t groups_x) {
  run_group(kernel, groups_x);
}

// The entry of a kernel that asks for resident_groups blocks a multiprocessor (model.hpp): registers capped so
// that they fit. A separate entry: __launch_bounds__ with a second argument of 1 still changes other kernels'
// code (ptxas, sm_90: 4 more registers on tiled's).
template <class Kernel>
__global__ void __launch_bounds__(Kernel::group_shape::size * packed<Kernel>(), Kernel::resident_groups)
    resident_entry(const Kernel kernel, std::int64_t groups_x) {
  run_group(kernel, groups_x);
}

template <class Kernel>
constexpr auto entry_of() {
  if constexpr (requires { Kernel::resident_groups; }) {
    static_assert(Kernel::resident_groups >= 1, "resident_groups: at least 1");
    return &resident_entry<Kernel>;
  } else {
    return &entry<Kernel>;
  }
}

// The most dynamic shared memory any GPU gives a block (227 KiB, sm_90).
inline constexpr std::size_t max_dynamic_shared = 227 * 1024;

// Bytes of a kernel's staged tiles' ring when it names a `staged_block` (fragment.hpp), else 0.
template <class Kernel>
constexpr std::size_t staged_bytes() {
  if constexpr (requires { typename Kernel::staged_block; })
    return StagedTiles<typename Kernel::staged_block>::storage_bytes;
  else
    return 0;
}

// Bytes of dynamic shared memory a kernel's launch reserves: its staged tiles' ring (none without one).
template <class Kernel>
constexpr std::size_t dynamic_shared_bytes() {
  static_assert(staged_bytes<Kernel>() <= max_dynamic_shared,
                "more shared memory than any GPU gives a block (227 KiB, sm_90)");
  return staged_bytes<Kernel>();
}

// Selects the queue's device and opts the kernel into its dynamic shared memory beyond the default 48 KiB (an
// Error naming the size where the device has less).
template <class Kernel>
void prepare(const Queue& queue, const char* function) {
  PORTKERN_CUDA_CHECK(function, cudaSetDevice(queue.device().index()));
  constexpr std::size_t dynamic = dynamic_shared_bytes<Kernel>();
  if constexpr (dynamic > 48 * 1024) {
    int most = 0;
    PORTKERN_CUDA_CHECK(function, cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                                         queue.device().index()));
    require(dynamic <= std::size_t(most), function, "the group's shared memory (bytes)", std::int64_t(dynamic),
            "<= " + std::to_string(most) + ", the most a block of this device may use");
    PORTKERN_CUDA_CHECK(function, cudaFuncSetAttribute(entry_of<Kernel>(),
                                                       cudaFuncAttributeMaxDynamicSharedMemorySize, int(dynamic)));
  }
}

// How many groups of the kernel the queue's device runs at once: its multiprocessors times the blocks one of
// them holds (threads, registers and shared memory permitting) times the groups a block. Computed once per
// device: it does not change.
template <class Kernel>
std::int64_t resident_groups(const Queue& queue) {
  static std::array<std::atomic<std::int64_t>, 64> known{};   // per device index: count + 1, 0 while unknown
  const int device = queue.device().index();
  if (device < int(known.size()))
    if (const std::int64_t seen = known[device].load(std::memory_order_relaxed)) return seen - 1;
  const char* function = "portkern::kernel::resident_groups";
  prepare<Kernel>(queue, function);
  int per_processor = 0;
  PORTKERN_CUDA_CHECK(function, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                    &per_processor, entry_of<Kernel>(), Kernel::group_shape::size * packed<Kernel>(),
                                    dynamic_shared_bytes<Kernel>()));
  const std::int64_t count =
      std::int64_t(per_processor) * queue.device().properties().compute_units * packed<Kernel>();
  if (device < int(known.size())) known[device].store(count + 1, std::memory_order_relaxed);
  return count;
}

// Launches kernel(group) for every group of `groups` on the queue's stream; checks the launch.
template <class Kernel>
void launch(const Queue& queue, const Range& groups, const Kernel& kernel) {
  using S = typename Kernel::group_shape;
  static_assert(S::size <= 1024, "a CUDA block has at most 1024 threads");
  constexpr int pack = packed<Kernel>();
  const char* function = "portkern::kernel::launch";
  require(groups.x >= 0 && groups.y >= 0 && groups.z >= 0, function, "groups.x*y*z", groups.size(),
          "made of non-negative counts");
  if (groups.size() == 0) return;
  require(groups.x < (std::int64_t(1) << 31), function, "groups.x", groups.x, "< 2^31 on CUDA");
  require(groups.y < 65536, function, "groups.y", groups.y, "< 65536 on CUDA");
  require(groups.z < 65536, function, "groups.z", groups.z, "< 65536 on CUDA");
  prepare<Kernel>(queue, function);
  constexpr std::size_t dynamic = dynamic_shared_bytes<Kernel>();
  const dim3 grid(unsigned((groups.x + pack - 1) / pack), unsigned(groups.y), unsigned(groups.z));
  const dim3 block(S::x, pack > 1 ? pack : S::y, S::z);
  entry_of<Kernel>()<<<grid, block, dynamic, static_cast<cudaStream_t>(queue.native_stream())>>>(kernel, groups.x);
  PORTKERN_CUDA_CHECK(function, cudaGetLastError());
}

// The back end as a type (see kernel::cpu::Backend).
struct Backend {
  static constexpr bool is_cuda = true;
  // Items are threads: an item that loads a 16-byte vector (kernel::vec) makes one wide access (cpu.hpp's
  // Backend says what the CPU wants instead).
  static constexpr bool items_are_lanes = false;
  template <class Kernel>
  static void launch(const Queue& queue, const Range& groups, const Kernel& kernel) {
    cuda::launch(queue, groups, kernel);
  }
};

}  // namespace portkern::kernel::cuda
