// In-order queues. On a GPU a queue is a CUDA stream: launches and copies are asynchronous and run in the
// order they were submitted, wait() blocks until all have finished. On the CPU work runs when it is
// submitted, on the queue's OpenMP threads, so wait() has nothing to wait for.
//
// Threads (docs/threading.md). A Queue may be shared between threads:
//   - Any number of threads may call the library's functions (gemm, conv2d, pooling, transpose, the
//     operators, copy, fill, wait, check_pointer) with the same queue at the same time, or with different
//     queues. Each call is correct as if it ran alone.
//   - On the CPU each call runs on its calling thread with its own team of cpu_threads() OpenMP threads, so
//     N concurrent calls use up to N * cpu_threads() threads. On a GPU, calls from several threads go to the
//     one stream in the order they reach it, which between threads is unspecified, and wait() waits for all
//     of them: a thread that needs another thread's results synchronises with that thread itself.
//   - Calls that run at the same time must not write memory that another of them reads or writes: the
//     library does not lock the caller's data.
//   - Not safe: destroying, moving or assigning a queue while another thread uses it.
// Scratch memory. Calls that need temporary device memory (conv2d's im2col and Winograd algorithms) lease it
// from the queue: a block is one call's alone for the call's duration, so concurrent calls on one queue each
// get their own block (they do not wait for each other); a finished call's block is kept for the next call.
// The queue holds at most the blocks of the calls that ran on it at the same time (one per call, or one per
// core on the CPU), each at most 5/4 of the largest request, and frees them all when it is destroyed
// (release_scratch() frees them sooner).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "portkern/runtime/device.hpp"

namespace portkern {

namespace detail {
class ScratchPool;   // src/runtime/scratch.hpp
}

class Queue {
 public:
  // cpu_threads: OpenMP threads for CPU work (0: all cores). Ignored on a GPU.
  explicit Queue(Device device = Device::cpu(), int cpu_threads = 0);
  ~Queue();
  Queue(Queue&& other) noexcept;
  Queue& operator=(Queue&& other) noexcept;
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  const Device& device() const { return device_; }
  int cpu_threads() const { return cpu_threads_; }
  void* native_stream() const { return stream_; }   // cudaStream_t on a GPU, nullptr on the CPU

  // The GEMM family that the GEMMs submitted on this queue use, the library's own inside conv2d included,
  // unless a call forces one: "tiled" runs everything through the single-source family (its deployed
  // configurations); empty (the default): the deployment chooses among all families.
  void set_gemm_family(std::string family) { gemm_family_ = std::move(family); }
  const std::string& gemm_family() const { return gemm_family_; }

  // Copies `bytes` between any two of host memory and this queue's device memory.
  void copy_bytes(void* dst, const void* src, std::size_t bytes);
  template <class T>
  void copy(T* dst, const T* src, std::size_t count) { copy_bytes(dst, src, count * sizeof(T)); }

  // Sets `count` elements of this queue's device memory to `value` (T of 1, 2, 4 or 8 bytes).
  template <class T>
  void fill(T* dst, T value, std::size_t count) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
    fill_pattern(dst, &value, sizeof(T), count);
  }

  void wait();

  // Throws unless `pointer` is memory this queue's device can use: on a GPU, memory of that GPU (or
  // managed memory); on the CPU, not GPU device memory. `function` and `argument` name it in the message.
  void check_pointer(const void* pointer, std::string_view function, std::string_view argument) const;

  // Bytes of scratch memory the queue holds now (leased to running calls, or kept for the next call).
  std::size_t scratch_bytes() const;
  // Frees the scratch memory that no running call holds.
  void release_scratch();
  // The pool the library's calls lease scratch memory from (src/runtime/scratch.hpp); thread-safe.
  detail::ScratchPool& scratch_pool() const;

 private:
  void fill_pattern(void* dst, const void* pattern, std::size_t pattern_bytes, std::size_t count);
  void release() noexcept;
  Device device_;
  int cpu_threads_ = 1;
  void* stream_ = nullptr;
  std::unique_ptr<detail::ScratchPool> scratch_;
  std::string gemm_family_;
};

}  // namespace portkern
