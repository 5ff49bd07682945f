// The small-k family: C = alpha * op(A) op(B) + beta * C when k is a handful (the Winograd and first-layer
// GEMMs of the networks: k = 3 ... 16 over tens of thousands of rows). With 2k flops per output such a GEMM
// is bound by writing C (m * n * batch elements), not by arithmetic; tiled kernels, built for reuse along k,
// reach about half of the bandwidth there (ratio 0.47-0.56 to cuBLAS at k = 3). Here each thread owns 4
// consecutive rows x 4 columns of C: it loads its 4 x k slice of A once (16-byte loads when op(A) = A and
// alignment allows), reads the 4 columns' k values of B through the read-only cache (broadcast across the
// warp) and writes 4 columns of 4 rows as 16-byte stores. Correct for any k (the loop is not unrolled past
// 8), chosen by the cost model only for k <= 16.
#pragma once

#include "cuda_common.cuh"

namespace portkern::gemm_impl::cuda_native::detail {

constexpr int smallk_threads = 256, smallk_rows = 4, smallk_cols = 4;

template <class T, bool VEC>
__global__ void __launch_bounds__(smallk_threads) smallk_kernel(const GemmArgs<T> p, bool ta, bool tb,
                                                                std::int64_t row_blocks, std::int64_t col_groups) {
  std::int64_t block = blockIdx.x;
  const std::int64_t rb = block % row_blocks;
  block /= row_blocks;
  const std::int64_t cg = block % col_groups, bi = block / col_groups;
  const std::int64_t i0 = (rb * smallk_threads + threadIdx.x) * smallk_rows, j0 = cg * smallk_cols;
  if (i0 >= p.m) return;
  const T* a = p.a + bi * p.sa;
  const T* b = p.b + bi * p.sb;
  T* c = p.c + bi * p.sc;
  const bool full_rows = i0 + smallk_rows <= p.m;
  T acc[smallk_rows][smallk_cols] = {};
#pragma unroll 8
  for (std::int64_t l = 0; l < p.k; ++l) {
    T x[smallk_rows];
    if (VEC && full_rows) {
      const Vec16<T> v0 = ldg16(a + l * p.lda + i0);
      if constexpr (sizeof(T) == 4) {
        x[0] = v0.v[0], x[1] = v0.v[1], x[2] = v0.v[2], x[3] = v0.v[3];
      } else {
        const Vec16<T> v1 = ldg16(a + l * p.lda + i0 + 2);
        x[0] = v0.v[0], x[1] = v0.v[1], x[2] = v1.v[0], x[3] = v1.v[1];
      }
    } else {
#pragma unroll
      for (int r = 0; r < smallk_rows; ++r) {
        const std::int64_t i = i0 + r < p.m ? i0 + r : p.m - 1;   // clamp: rows past m are computed, not stored
        x[r] = __ldg(ta ? a + i * p.lda + l : a + l * p.lda + i);
      }
    }
#pragma unroll
    for (int q = 0; q < smallk_cols; ++q) {
      const std::int64_t j = j0 + q < p.n ? j0 + q : p.n - 1;
      const T y = __ldg(tb ? b + l * p.ldb + j : b + j * p.ldb + l);
#pragma unroll
      for (int r = 0; r < smallk_rows; ++r) acc[r][q] = fma(x[r], y, acc[r][q]);
    }
  }
#pragma unroll
  for (int q = 0; q < smallk_cols; ++q) {
    if (j0 + q >= p.n) break;
    T* col = c + (j0 + q) * p.ldc + i0;
    if (p.vec_c && full_rows) {
      T out[4];
      if (p.beta != T(0)) ld4(col, out);
#pragma unroll
      for (int r = 0; r < smallk_rows; ++r)
        out[r] = p.beta != T(0) ? fma(p.beta, out[r], p.alpha * acc[r][q]) : p.alpha * acc[r][q];
      st4(col, out);
    } else {
      for (int r = 0; r < smallk_rows && i0 + r < p.m; ++r)
        col[r] = p.beta != T(0) ? fma(p.beta, col[r], p.alpha * acc[r][q]) : p.alpha * acc[r][q];
    }
  }
}

template <class T>
inline void launch_smallk(cudaStream_t s, bool ta, bool tb, const GemmArgs<T>& args) {
  const std::int64_t row_blocks = (args.m + smallk_threads * smallk_rows - 1) / (smallk_threads * smallk_rows);
  const std::int64_t col_groups = (args.n + smallk_cols - 1) / smallk_cols;
  const std::int64_t blocks = row_blocks * col_groups * args.batch;
  if (blocks > 0x7fffffffLL) fail("portkern::gemm (cuda_native)", "problem too large for the small-k grid");
  const bool vec = !ta && vec_ok(args.a, args.lda, args.sa, args.batch);
  if (vec) smallk_kernel<T, true><<<unsigned(blocks), smallk_threads, 0, s>>>(args, ta, tb, row_blocks, col_groups);
  else smallk_kernel<T, false><<<unsigned(blocks), smallk_threads, 0, s>>>(args, ta, tb, row_blocks, col_groups);
  check_launch("smallk_kernel launch");
}

}  // namespace portkern::gemm_impl::cuda_native::detail
