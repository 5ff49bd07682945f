// Shared pieces of the native CUDA GEMM families (cuda_simt.cuh, cuda_splitk.cuh, cuda_tf32x3.cuh):
// the one error helper, the argument block every kernel takes, vector helpers and the C = beta*C pre-pass.
//
// Conventions (all families): column-major BLAS semantics. For each of `batch` problems (pointers offset by
// i*stride_a/b/c) C = alpha * op(A) * op(B) + beta * C, op(A) is m x k, op(B) is k x n.
//   op(A)(i,p) = trans_a ? a[p + i*lda] : a[i + p*lda]
//   op(B)(p,j) = trans_b ? b[j + p*ldb] : b[p + j*ldb]
// beta == 0: C is never read. All address arithmetic that can exceed 2^31 is 64-bit.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "portkern/runtime/cuda_check.hpp"

namespace portkern::gemm_impl::cuda_native::detail {

// Every CUDA call and launch of the family is checked through the runtime's one check (portkern::Error).
inline void check(cudaError_t e, const char* what) { ::portkern::detail::cuda_check(e, "portkern::gemm (cuda_native)", what); }
inline void check_launch(const char* what) { check(cudaGetLastError(), what); }

// Everything a GEMM kernel needs, passed by value (lives in the constant bank).
template <class T>
struct GemmArgs {
  std::int64_t m, n, k;
  T alpha, beta;
  const T* a;
  std::int64_t lda, sa;
  const T* b;
  std::int64_t ldb, sb;
  T* c;
  std::int64_t ldc, sc;
  std::int64_t batch;
  int splits;                // >1: split-K, partial products are atomically added into C (pre-scaled by beta)
  std::int64_t k_per_split;  // multiple of the kernel's BK
  bool vec_c;                // C pointer, ldc, stride_c allow 16-byte accesses
};

inline bool aligned16(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0; }

// 16-byte vector loads of an operand are legal when every column start is 16-byte aligned.
template <class T>
inline bool vec_ok(const T* p, std::int64_t ld, std::int64_t stride, std::int64_t batch) {
  constexpr std::int64_t nv = 16 / sizeof(T);
  return aligned16(p) && ld % nv == 0 && (batch == 1 || stride % nv == 0);
}

// ---- device helpers ------------------------------------------------------------------------------------

// Four consecutive elements from a 16-byte aligned address (float: one 128-bit access; double: two).
template <class T>
__device__ __forceinline__ void ld4(const T* p, T (&o)[4]) {
  if constexpr (sizeof(T) == 4) {
    const float4 v = *reinterpret_cast<const float4*>(p);
    o[0] = v.x, o[1] = v.y, o[2] = v.z, o[3] = v.w;
  } else {
    const double2 v0 = reinterpret_cast<const double2*>(p)[0];
    const double2 v1 = reinterpret_cast<const double2*>(p)[1];
    o[0] = v0.x, o[1] = v0.y, o[2] = v1.x, o[3] = v1.y;
  }
}
template <class T>
__device__ __forceinline__ void st4(T* p, const T (&o)[4]) {
  if constexpr (sizeof(T) == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(o[0], o[1], o[2], o[3]);
  } else {
    reinterpret_cast<double2*>(p)[0] = make_double2(o[0], o[1]);
    reinterpret_cast<double2*>(p)[1] = make_double2(o[2], o[3]);
  }
}

// One 16-byte vector (4 floats or 2 doubles).
template <class T>
struct Vec16 {
  static constexpr int N = 16 / sizeof(T);
  T v[N];
};
template <class T>
__device__ __forceinline__ Vec16<T> ldg16(const T* p) {
  Vec16<T> r;
  if constexpr (sizeof(T) == 4) {
    const float4 v = __ldg(reinterpret_cast<const float4*>(p));
    r.v[0] = v.x, r.v[1] = v.y, r.v[2] = v.z, r.v[3] = v.w;
  } else {
    const double2 v = __ldg(reinterpret_cast<const double2*>(p));
    r.v[0] = v.x, r.v[1] = v.y;
  }
  return r;
}
template <class T>
__device__ __forceinline__ void sts16(T* p, const Vec16<T>& r) {
  if constexpr (sizeof(T) == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(r.v[0], r.v[1], r.v[2], r.v[3]);
  } else {
    *reinterpret_cast<double2*>(p) = make_double2(r.v[0], r.v[1]);
  }
}

// C = beta * C over the m x n x batch view (beta == 0 writes zeros without reading). Used before split-K
// accumulation and for the alpha == 0 / k == 0 quick return.
template <class T>
__global__ void scale_c_kernel(T* __restrict__ c, std::int64_t m, std::int64_t n, std::int64_t ldc,
                               std::int64_t sc, std::int64_t batch, T beta) {
  const std::int64_t cols = n * batch;
  for (std::int64_t col = blockIdx.y; col < cols; col += gridDim.y) {
    const std::int64_t bi = col / n, j = col - bi * n;
    T* p = c + bi * sc + j * ldc;
    for (std::int64_t i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; i < m;
         i += (std::int64_t)gridDim.x * blockDim.x) {
      p[i] = beta == T(0) ? T(0) : beta * p[i];
    }
  }
}

template <class T>
inline void launch_scale_c(cudaStream_t s, T* c, std::int64_t m, std::int64_t n, std::int64_t ldc, std::int64_t sc,
                           std::int64_t batch, T beta) {
  if (beta == T(1)) return;
  const std::int64_t cols = n * batch;
  dim3 grid((unsigned)((m + 255) / 256 < 1024 ? (m + 255) / 256 : 1024),
            (unsigned)(cols < 65535 ? cols : 65535));
  scale_c_kernel<T><<<grid, 256, 0, s>>>(c, m, n, ldc, sc, batch, beta);
  check_launch("scale_c_kernel launch");
}

}  // namespace portkern::gemm_impl::cuda_native::detail
