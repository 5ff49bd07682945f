// glu on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin, which exists only
// for `portkern bench ops` (the portable/native ratio).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops::glu_impl {

// The operator as the kernels see it: M rows; output rows of `half` elements, input rows of 2 * half.
struct Problem {
  std::int64_t rows = 0, half = 0;
};

void portable_cpu(Queue& queue, const Problem& p, const float* x, float* y);
void portable_cuda(Queue& queue, const Problem& p, const float* x, float* y);
void native_cuda(Queue& queue, const Problem& p, const float* x, float* y);

// 4 when 16-byte vectors fit (half % 4 == 0, both pointers 16-byte aligned), else 1.
inline int vector_width(const Problem& p, const float* x, const float* y) {
  const bool aligned = (reinterpret_cast<std::uintptr_t>(x) | reinterpret_cast<std::uintptr_t>(y)) % 16 == 0;
  return p.half % 4 == 0 && aligned ? 4 : 1;
}

}  // namespace portkern::ops::glu_impl
