// In-order queues. On a GPU a queue is a CUDA stream: launches and copies are asynchronous and run in the
// order they were submitted, wait() blocks until all have finished. On the CPU work runs when it is
// submitted, on the queue's OpenMP threads, so wait() has nothing to wait for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "portkern/runtime/device.hpp"

namespace portkern {

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

 private:
  void fill_pattern(void* dst, const void* pattern, std::size_t pattern_bytes, std::size_t count);
  Device device_;
  int cpu_threads_ = 1;
  void* stream_ = nullptr;
};

}  // namespace portkern
