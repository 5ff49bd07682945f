// Single-launch path for m == 1 with op(B) = B (each column of B contiguous in k) and n >= 256 (every family's
// run() takes it; with fewer columns the split-K tiles fill the SMs better): C(0,j) = alpha * sum_p
// op(A)(0,p) * B(p,j) + beta * C(0,j). A GEMV over the columns of B, memory bound (B is read once). One warp per
// column j: 16-byte loads of B (and of A when op(A) is contiguous) when alignment allows, a warp-shuffle
// reduction, one store (beta == 0: C not read). Batch on grid y (chunked to 65535 by the launcher).
// Replaces the split-K tile path (two launches, m*n*splits atomics) that ran (1,4096,1000) at 0.5-0.7 of cuBLAS.
#pragma once

#include "cuda_common.cuh"

namespace portkern::gemm_impl::cuda_native::detail {

template <class T, bool VEC>
__global__ void __launch_bounds__(256) gemv_m1_kernel(const GemmArgs<T> p, bool ta) {
  const int lane = threadIdx.x & 31;
  const std::int64_t j = (std::int64_t)blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
  if (j >= p.n) return;  // whole warp leaves together
  const std::int64_t bi = blockIdx.y;
  const T* a = p.a + bi * p.sa;
  const T* b = p.b + bi * p.sb + j * p.ldb;
  // op(A)(0,q) = ta ? a[q] : a[q*lda]
  const std::int64_t astep = ta ? 1 : p.lda;
  const std::int64_t k = p.k;
  T s0 = T(0), s1 = T(0);
  std::int64_t q0 = 0;
  if constexpr (VEC) {  // T = float, b column and a (contiguous: astep == 1) 16-byte aligned
    const std::int64_t kv = k / 4 * 4;
#pragma unroll 4
    for (std::int64_t q = 4 * lane; q < kv; q += 128) {
      const float4 bv = __ldg(reinterpret_cast<const float4*>(b + q));
      const float4 av = __ldg(reinterpret_cast<const float4*>(a + q));
      s0 = fma(av.x, bv.x, s0);
      s1 = fma(av.y, bv.y, s1);
      s0 = fma(av.z, bv.z, s0);
      s1 = fma(av.w, bv.w, s1);
    }
    q0 = kv;
  }
#pragma unroll 4
  for (std::int64_t q = q0 + lane; q < k; q += 32) s0 = fma(__ldg(a + q * astep), __ldg(b + q), s0);
  T s = s0 + s1;
#pragma unroll
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) {
    T* c = p.c + bi * p.sc + j * p.ldc;
    const T v = p.alpha * s;
    *c = p.beta != T(0) ? fma(p.beta, *c, v) : v;
  }
}

template <class T>
inline void launch_gemv_m1(cudaStream_t s, bool ta, const GemmArgs<T>& args) {
  constexpr int WARPS = 8;
  bool vec = false;
  if constexpr (sizeof(T) == 4) {  // op(A) row contiguous (ta, or lda == 1), everything 16-byte aligned
    vec = (ta || args.lda == 1) && vec_ok(args.b, args.ldb, args.sb, args.batch) && aligned16(args.a) &&
          (args.batch == 1 || args.sa % 4 == 0);
  }
  const std::int64_t blocks = (args.n + WARPS - 1) / WARPS;
  if (blocks > 0x7fffffffLL) fail("portkern::gemm (cuda_native)", "problem too large for the grid");
  for (std::int64_t b0 = 0; b0 < args.batch; b0 += 65535) {
    GemmArgs<T> a = args;
    a.batch = (args.batch - b0) < 65535 ? (args.batch - b0) : 65535;
    a.a += b0 * args.sa;
    a.b += b0 * args.sb;
    a.c += b0 * args.sc;
    dim3 grid((unsigned)blocks, (unsigned)a.batch);
    if constexpr (sizeof(T) == 4) {
      if (vec) gemv_m1_kernel<T, true><<<grid, 32 * WARPS, 0, s>>>(a, ta);
      else gemv_m1_kernel<T, false><<<grid, 32 * WARPS, 0, s>>>(a, ta);
    } else {
      gemv_m1_kernel<T, false><<<grid, 32 * WARPS, 0, s>>>(a, ta);
    }
    check_launch("gemv_m1_kernel launch");
  }
}

}  // namespace portkern::gemm_impl::cuda_native::detail
