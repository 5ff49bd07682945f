// gelu on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin, which exists only
// for `portkern bench ops` (the portable/native ratio).
#pragma once

#include <cstdint>

#include "portkern/kernel/half.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::gelu_impl {

// rows = batch * seq rows of `hidden` halves.
void portable_cpu(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias);
void portable_cuda(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias);
void native_cuda(Queue& queue, std::int64_t rows, std::int64_t hidden, half* src, const half* bias);

// Halves per vector access: 8 (16 bytes) when hidden % 8 == 0 and both pointers are 16-byte aligned, 2 when
// hidden is even and both are 4-byte aligned, else 1.
inline int vector_width(std::int64_t hidden, const half* src, const half* bias) {
  const auto a = reinterpret_cast<std::uintptr_t>(src) | reinterpret_cast<std::uintptr_t>(bias);
  if (hidden % 8 == 0 && a % 16 == 0) return 8;
  if (hidden % 2 == 0 && a % 4 == 0) return 2;
  return 1;
}

}  // namespace portkern::ops::gelu_impl
