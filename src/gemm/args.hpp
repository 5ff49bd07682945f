// The arguments of one strided-batched GEMM, shared by the kernels, the API and the benchmarks.
#pragma once

#include <cstdint>

#include "portkern/precision.hpp"

namespace portkern::gemm_impl {

// C = alpha * op(A) * op(B) + beta * C for `batch` problems at the given strides (column-major), at the
// caller's precision (portkern/precision.hpp; a family whose configuration fixes its arithmetic ignores it).
template <class T>
struct GemmArgs {
  std::int64_t m, n, k;
  T alpha;
  const T* a;
  std::int64_t lda, stride_a;
  const T* b;
  std::int64_t ldb, stride_b;
  T beta;
  T* c;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
  Precision precision = Precision::accurate;
};

}  // namespace portkern::gemm_impl
