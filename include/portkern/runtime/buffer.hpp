// Typed device memory with RAII: Buffer<float> x(device, n) owns n floats on `device` until it goes out of
// scope. CPU buffers are 64-byte aligned, GPU buffers come from cudaMalloc (256-byte aligned). A size too
// large for 64 bits or an allocation that fails is a portkern::Error naming the bytes asked and what for.
// Threads: distinct Buffers may be used from any threads; one Buffer's contents follow the rules of the
// queue calls that read and write it (runtime/queue.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "portkern/checked.hpp"
#include "portkern/error.hpp"
#include "portkern/runtime/device.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern {

// Untyped allocation on `device`; throws Error when `bytes` is more than the device can give, naming the
// bytes and `purpose` (e.g. "conv2d scratch (im2col patches)") when one is given.
void* allocate(const Device& device, std::size_t bytes, std::string_view purpose = {});
void deallocate(const Device& device, void* pointer) noexcept;

template <class T>
class Buffer {
 public:
  Buffer() = default;
  // `purpose` names the memory in the error an allocation that fails throws.
  Buffer(const Device& device, std::int64_t count, std::string_view purpose = {}) : device_(device) {
    require(count > 0, "portkern::Buffer", "count", count, "> 0");
    data_ = static_cast<T*>(allocate(device, checked_bytes(count, sizeof(T), "portkern::Buffer", "count"), purpose));
    size_ = std::size_t(count);
  }
  ~Buffer() { release(); }
  Buffer(Buffer&& other) noexcept { swap(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  const Device& device() const { return device_; }

  // Host <-> device copies through `queue` (which must belong to this buffer's device); both wait.
  void upload(Queue& queue, std::span<const T> host) {
    require(host.size() <= size_, "portkern::Buffer::upload", "host.size()", host.size(), "<= the buffer's size");
    queue.copy(data_, host.data(), host.size());
    queue.wait();
  }
  std::vector<T> download(Queue& queue) const {
    std::vector<T> host;
    try {
      host.resize(size_);
    } catch (const std::bad_alloc&) {
      fail("portkern::Buffer::download", "cannot allocate " + std::to_string(size_ * sizeof(T)) + " bytes of host memory");
    }
    queue.copy(host.data(), data_, size_);
    queue.wait();
    return host;
  }

 private:
  void release() noexcept {
    if (data_) deallocate(device_, data_);
    data_ = nullptr;
    size_ = 0;
  }
  void swap(Buffer& other) noexcept {
    std::swap(device_, other.device_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }
  Device device_ = Device::cpu();
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace portkern
