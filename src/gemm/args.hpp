// The arguments of one strided-batched GEMM, shared by the kernels, the API and the benchmarks.
#pragma once

#include <cstdint>

#include "portkern/kernel/plus_if_set.hpp"
#include "portkern/precision.hpp"

namespace portkern::gemm_impl {

// What a caller may ask to be applied to each element of C once its product is complete (a convolution's or a
// linear layer's epilogue): c(i, j) = relu?(c(i, j) + residual(i, j) + bias[i]), the residual laid out as C
// (ldc, stride_c), bias, residual and relu each optional. A family that fuses it (FamilyEntry::fuses_epilogue)
// applies it to each tile of C while the tile is in cache; gemm_with_epilogue() (fused.hpp) says whether the
// family did.
template <class T>
struct GemmEpilogue {
  const T* bias = nullptr;       // m values, or nullptr
  const T* residual = nullptr;   // as C, or nullptr
  bool relu = false;

  bool any() const { return bias || residual || relu; }

  // The epilogue of the block of C starting at row i, column j of a problem with leading dimension ldc.
  GemmEpilogue at(std::int64_t i, std::int64_t j, std::int64_t ldc) const {
    return {bias ? bias + i : nullptr, residual ? residual + i + j * ldc : nullptr, relu};
  }

  // Applies it to rows x cols of C at c (the block this epilogue was taken `at`); nothing when it is empty. One
  // pass over each column, the operands that are not set selected away (kernel/plus_if_set.hpp).
  void apply(std::int64_t rows, std::int64_t cols, T* c, std::int64_t ldc) const {
    if (!any()) return;
    for (std::int64_t j = 0; j < cols; ++j) {
      T* cj = c + j * ldc;
      const T* rj = residual ? residual + j * ldc : nullptr;
      for (std::int64_t i = 0; i < rows; ++i) {
        const T v = kernel::plus_if_set(kernel::plus_if_set(cj[i], rj, i, cj), bias, i, cj);
        cj[i] = relu && v < T(0) ? T(0) : v;
      }
    }
  }
};

// C = alpha * op(A) * op(B) + beta * C for `batch` problems at the given strides (column-major), at the
// caller's precision (portkern/precision.hpp; a family whose configuration fixes its arithmetic ignores it).
// A and B hold `In` values: T's own, or bfloat16 / float16 for the GEMMs on 16-bit inputs (T = float: fp32
// products, sums and C).
template <class T, class In = T>
struct GemmArgs {
  std::int64_t m, n, k;
  T alpha;
  const In* a;
  std::int64_t lda, stride_a;
  const In* b;
  std::int64_t ldb, stride_b;
  T beta;
  T* c;
  std::int64_t ldc, stride_c;
  std::int64_t batch;
  Precision precision = Precision::accurate;
  GemmEpilogue<T> epilogue{};   // applied only by a family that fuses it (FamilyEntry::fuses_epilogue)
};

}  // namespace portkern::gemm_impl
