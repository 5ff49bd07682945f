// Atomic read-modify-write on device memory, for kernels in the model: atomicAdd/atomicMax on CUDA,
// std::atomic_ref on the CPU (groups run on several OpenMP threads at once).
#pragma once

#if !defined(__CUDA_ARCH__)
#include <atomic>
#endif

#include "portkern/kernel/model.hpp"

namespace portkern::kernel {

template <class T>
PORTKERN_INLINE T atomic_add(T* address, T value) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(address, value);
#else
  return std::atomic_ref<T>(*address).fetch_add(value, std::memory_order_relaxed);
#endif
}

// Integer maximum (for floats, compare-and-swap loops belong to the operator that needs them).
template <class T>
PORTKERN_INLINE T atomic_max(T* address, T value) {
#if defined(__CUDA_ARCH__)
  return atomicMax(address, value);
#else
  std::atomic_ref<T> target(*address);
  T seen = target.load(std::memory_order_relaxed);
  while (seen < value && !target.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
  return seen;
#endif
}

}  // namespace portkern::kernel
