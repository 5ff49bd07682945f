// The CPU's matrix-vector products, the lowering of a product with one row or one column of output: the ISA
// set's own routines where it has them (portkern/kernel/cpu/microkernel.hpp), else these portable ones (the
// compiler vectorises them). Shared by the packed GEMM's frame (src/gemm/cpu_packed/cpu_packed.cpp) and the
// kernel model's fragments on the CPU (portkern/kernel/cpu/fragment.hpp).
//
//   gemv_dot:  y[r*ys] = alpha * dot(m + r*ldm, x) + beta * y[r*ys] for r < rows; rows of m and x of length k
//   gemv_axpy: y[0:rows] = alpha * sum_p x[p] * m[p*ldm + (0:rows)] + beta * y (column p of m contiguous)
// beta == 0: y is not read.
#pragma once

#include <cstdint>

#include "portkern/kernel/cpu/microkernel.hpp"

namespace portkern::kernel::cpu {

template <class T>
void gemv_dot_generic(std::int64_t rows, std::int64_t k, const T* m, std::int64_t ldm, const T* x, T alpha, T beta,
                      T* y, std::int64_t ys) {
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* row = m + r * ldm;
    T s[8] = {};
    std::int64_t p = 0;
    for (; p + 8 <= k; p += 8)
      for (int q = 0; q < 8; ++q) s[q] += row[p + q] * x[p + q];
    for (; p < k; ++p) s[0] += row[p] * x[p];
    const T t = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    T* out = y + r * ys;
    *out = beta == T(0) ? alpha * t : alpha * t + beta * *out;
  }
}

template <class T>
void gemv_axpy_generic(std::int64_t rows, std::int64_t k, const T* m, std::int64_t ldm, const T* x, T alpha, T beta,
                       T* y) {
  constexpr std::int64_t B = 256;
  for (std::int64_t r0 = 0; r0 < rows; r0 += B) {
    const std::int64_t len = B < rows - r0 ? B : rows - r0;
    T acc[B] = {};
    for (std::int64_t p = 0; p < k; ++p) {
      const T* column = m + r0 + p * ldm;
      const T xp = x[p];
      for (std::int64_t i = 0; i < len; ++i) acc[i] += xp * column[i];
    }
    for (std::int64_t i = 0; i < len; ++i) y[r0 + i] = beta == T(0) ? alpha * acc[i] : alpha * acc[i] + beta * y[r0 + i];
  }
}

template <class T>
void gemv_dot(const MicroKernels<T>& set, std::int64_t rows, std::int64_t k, const T* m, std::int64_t ldm, const T* x,
              T alpha, T beta, T* y, std::int64_t ys) {
  if (set.gemv_dot)
    set.gemv_dot(rows, k, m, ldm, x, alpha, beta, y, ys);
  else
    gemv_dot_generic(rows, k, m, ldm, x, alpha, beta, y, ys);
}

template <class T>
void gemv_axpy(const MicroKernels<T>& set, std::int64_t rows, std::int64_t k, const T* m, std::int64_t ldm,
               const T* x, T alpha, T beta, T* y) {
  if (set.gemv_axpy)
    set.gemv_axpy(rows, k, m, ldm, x, alpha, beta, y);
  else
    gemv_axpy_generic(rows, k, m, ldm, x, alpha, beta, y);
}

}  // namespace portkern::kernel::cpu
