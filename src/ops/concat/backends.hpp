// concat on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin, which exists only
// for `portkern bench ops` (the portable/native ratio).
#pragma once

#include <cstdint>

#include "portkern/runtime/queue.hpp"

namespace portkern::ops::concat_impl {

// The copy as the kernels see it: `rows` output rows, each len1 floats of in1's row then len2 of in2's.
struct Problem {
  std::int64_t rows = 0, len1 = 0, len2 = 0;
};

void portable_cpu(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out);
void portable_cuda(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out);
void native_cuda(Queue& queue, const Problem& p, const float* in1, const float* in2, float* out);

// 4 when 16-byte vectors never straddle a row or the in1/in2 boundary and every pointer is aligned, else 1.
inline int vector_width(const Problem& p, const float* in1, const float* in2, const float* out) {
  const auto a = reinterpret_cast<std::uintptr_t>(in1) | reinterpret_cast<std::uintptr_t>(in2) |
                 reinterpret_cast<std::uintptr_t>(out);
  return p.len1 % 4 == 0 && p.len2 % 4 == 0 && a % 16 == 0 ? 4 : 1;
}

}  // namespace portkern::ops::concat_impl
