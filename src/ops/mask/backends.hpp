// mask on each back end: the portable kernel (CPU, CUDA) and the hand-written CUDA twin, which exists only
// for `portkern bench ops` (the portable/native ratio).
#pragma once

#include <cstdint>

#include "portkern/ops/mask.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::ops::mask_impl {

struct Problem {
  MaskKind kind = MaskKind::sequence;
  std::int64_t batches = 1, rows = 0, cols = 0;   // batches = max(batch, 1)
  std::int32_t fill = 0;
  const std::int32_t* per_row = nullptr;
  std::int64_t radius = 0;
};

void portable_cpu(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out);
void portable_cuda(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out);
void native_cuda(Queue& queue, const Problem& p, const std::int32_t* in, std::int32_t* out);

inline int vector_width(const Problem& p, const std::int32_t* in, const std::int32_t* out) {
  const auto a = reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out);
  return p.cols % 4 == 0 && a % 16 == 0 ? 4 : 1;
}

// The columns kept (not filled) in row j: [lo, hi).
struct Keep {
  std::int64_t lo, hi;
};

template <MaskKind Kind>
#if defined(__CUDACC__)
__host__ __device__ __forceinline__
#else
inline __attribute__((always_inline))
#endif
Keep keep_range(std::int64_t j, const std::int32_t* per_row, std::int64_t radius) {
  constexpr std::int64_t all = INT64_MAX;
  if constexpr (Kind == MaskKind::sequence) return {0, per_row[j]};
  else if constexpr (Kind == MaskKind::window) return {per_row[j] - radius, std::int64_t(per_row[j]) + radius + 1};
  else if constexpr (Kind == MaskKind::upper) return {0, j + 1};
  else if constexpr (Kind == MaskKind::lower) return {j, all};
  else if constexpr (Kind == MaskKind::upper_diag) return {0, j};
  else return {j + 1, all};
}

}  // namespace portkern::ops::mask_impl
