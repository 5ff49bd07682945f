// Queues and memory: the CPU does the work at once; a GPU queue forwards to a CUDA stream.
#include "portkern/runtime/queue.hpp"

#include <omp.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "portkern/error.hpp"
#include "portkern/runtime/buffer.hpp"
#include "portkern/kernel/cpu/pages.hpp"
#include "runtime/cpu/cpu_backend.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "runtime/scratch.hpp"

namespace portkern {

namespace {
std::string for_purpose(std::string_view purpose) {
  return purpose.empty() ? std::string() : " for " + std::string(purpose);
}
}  // namespace

void* allocate(const Device& device, std::size_t bytes, std::string_view purpose) {
  return detail::allocate(device, bytes, purpose, kernel::cpu::PageUse::buffer);
}

void* detail::allocate(const Device& device, std::size_t bytes, std::string_view purpose, kernel::cpu::PageUse use) {
  require(bytes > 0, "portkern::allocate", "bytes", bytes, "> 0");
  const std::uint64_t available = device.properties().memory_bytes;
  const std::string asked = std::to_string(bytes) + " bytes on " + device.name() + for_purpose(purpose);
  if (bytes > available) fail("portkern::allocate", "cannot allocate " + asked + ": the device has " + std::to_string(available));
  if (device.is_cuda()) {
    try {
      return detail::cuda::allocate(device.index(), bytes);
    } catch (const Error& e) {   // "...: CUDA error 'out of memory'": keep the cause, say what it was for
      const std::string cause = e.what();
      const std::size_t at = cause.find("CUDA error");
      fail("portkern::allocate", "cannot allocate " + asked + ": " + (at == std::string::npos ? cause : cause.substr(at)));
    }
  }
  void* pointer = kernel::cpu::allocate_pages(bytes, use);
  if (!pointer) fail("portkern::allocate", "cannot allocate " + asked + ": out of memory");
  return pointer;
}

void deallocate(const Device& device, void* pointer) noexcept {
  if (!pointer) return;
  if (device.is_cuda())
    detail::cuda::deallocate(device.index(), pointer);
  else
    std::free(pointer);
}

Queue::Queue(Device device, int cpu_threads) : device_(device) {
  require(cpu_threads >= 0, "portkern::Queue", "cpu_threads", cpu_threads, ">= 0 (0: all cores)");
  cpu_threads_ = cpu_threads > 0 ? cpu_threads : omp_get_max_threads();
  scratch_ = std::make_unique<detail::ScratchPool>(device_);
  if (device_.is_cuda()) stream_ = detail::cuda::create_stream(device_.index());
}

// The stream first: its queued work finishes before the scratch it may use is freed (cudaFree waits).
void Queue::release() noexcept {
  if (stream_) detail::cuda::destroy_stream(device_.index(), std::exchange(stream_, nullptr));
  scratch_.reset();
}

Queue::~Queue() { release(); }

Queue::Queue(Queue&& other) noexcept
    : device_(other.device_),
      cpu_threads_(other.cpu_threads_),
      stream_(std::exchange(other.stream_, nullptr)),
      scratch_(std::move(other.scratch_)),
      gemm_family_(std::move(other.gemm_family_)) {}

Queue& Queue::operator=(Queue&& other) noexcept {
  if (this != &other) {
    release();
    device_ = other.device_;
    cpu_threads_ = other.cpu_threads_;
    stream_ = std::exchange(other.stream_, nullptr);
    scratch_ = std::move(other.scratch_);
    gemm_family_ = std::move(other.gemm_family_);
  }
  return *this;
}

detail::ScratchPool& Queue::scratch_pool() const {
  if (!scratch_) fail("portkern::Queue", "this queue was moved from: it has no scratch memory");
  return *scratch_;
}

std::size_t Queue::scratch_bytes() const { return scratch_ ? scratch_->bytes_held() : 0; }

void Queue::release_scratch() {
  if (scratch_) scratch_->release_idle();
}

void Queue::copy_bytes(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  require(dst != nullptr, "portkern::Queue::copy", "dst", "nullptr", "a valid pointer");
  require(src != nullptr, "portkern::Queue::copy", "src", "nullptr", "a valid pointer");
  if (device_.is_cuda()) return detail::cuda::copy(stream_, dst, src, bytes);   // any direction
  check_pointer(dst, "portkern::Queue::copy", "dst");   // a CPU queue cannot reach GPU memory
  check_pointer(src, "portkern::Queue::copy", "src");
  std::memcpy(dst, src, bytes);
}

void Queue::fill_pattern(void* dst, const void* pattern, std::size_t pattern_bytes, std::size_t count) {
  if (count == 0) return;
  require(dst != nullptr, "portkern::Queue::fill", "dst", "nullptr", "a valid pointer");
  check_pointer(dst, "portkern::Queue::fill", "dst");
  if (device_.is_cuda()) return detail::cuda::fill(stream_, dst, pattern, pattern_bytes, count);
  auto* bytes = static_cast<unsigned char*>(dst);
#pragma omp parallel for schedule(static) num_threads(cpu_threads_) if (count > (1 << 16))
  for (std::size_t i = 0; i < count; ++i) std::memcpy(bytes + i * pattern_bytes, pattern, pattern_bytes);
}

void Queue::wait() {
  if (device_.is_cuda()) detail::cuda::wait(stream_);
}

void Queue::check_pointer(const void* pointer, std::string_view function, std::string_view argument) const {
  require(pointer != nullptr, function, argument, "nullptr", "a valid pointer");
  if (cuda_device_count() == 0) return;   // without GPUs every pointer is host memory
  int owner = -1;
  const auto memory = detail::cuda::memory_of(pointer, &owner);
  if (device_.is_cpu()) {
    if (memory == detail::cuda::Memory::device)
      fail(function, "argument " + std::string(argument) + " is memory of cuda:" + std::to_string(owner) +
                         ", but the queue runs on cpu");
    return;
  }
  if (memory == detail::cuda::Memory::managed) return;
  if (memory != detail::cuda::Memory::device || owner != device_.index())
    fail(function, "argument " + std::string(argument) + " is " +
                       (memory == detail::cuda::Memory::host ? std::string("host memory")
                                                             : "memory of cuda:" + std::to_string(owner)) +
                       ", but the queue runs on " + device_.name());
}

}  // namespace portkern
