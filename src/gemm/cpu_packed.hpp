// cpu_packed: the native CPU GEMM family of portkern (float and double, BLAS semantics).
//
// What it computes
//   Column-major C = alpha * op(A) * op(B) + beta * C for `batch` independent problems, op(X) = X or X^T.
//
// Algorithm (Goto / BLIS style)
//   for jc in n step NC:                         B block (KC x NC) lives in L3
//     for pc in k step KC:                       pack op(B)[pc.., jc..] into NR-wide row panels
//       for ic in m step MC:                     pack op(A)[ic.., pc..] into MR-tall column panels (L2)
//         for jr in NC step NR:                  one B micro-panel (KC x NR) stays in L1
//           for ir in MC step MR:                micro-kernel: MR x NR tile of C in registers,
//                                                rank-1 FMA updates over KC, then C = alpha*acc + beta*C
//   Packing handles both transposes, so one micro-kernel serves NN/NT/TN/TT. Edge tiles use exact
//   micro-kernels (fewer columns, fewer vectors, masked last vector), so m, n need not be multiples.
//   Small-operand paths skip packing: A is read in place when it is not transposed and little reused,
//   B is read in place when only one row tile of C uses it; m == 1 or n == 1 becomes a GEMV loop.
//
// Parameters (chosen at run time from the CPU: __builtin_cpu_supports("avx512f"))
//   AVX-512, float : MR x NR = 32 x 12 (2 zmm x 12 columns = 24 accumulators), KC 384, MC 384, NC 4092
//   AVX-512, double: MR x NR = 16 x 12,                                        KC 384, MC 192, NC 4092
//   AVX2+FMA       : MR x NR = 16 x 6 (float) / 8 x 6 (double), 12 ymm accumulators
//   (KC x NR of B fits L1 = 32 KiB, MC x KC of A fits half of L2 = 1 MiB on Zen 4.)
//
// Threads (OpenMP, exactly `threads` at most)
//   batch >= threads: problems are spread over threads, one thread per problem. Otherwise each problem
//   is split into a tm x tn x tk grid of blocks (tk > 1 only for small m, n and large k: partial
//   products are reduced at the end), chosen by a cost model of compute, packing and imbalance.
//
// When it wins
//   Compute-bound shapes reach ~90% of the FMA peak; it does best against OpenBLAS on shapes OpenBLAS
//   neither blocks nor threads well (small m/n with huge k, tall-skinny, batched small problems),
//   and relies on exact edge kernels instead of padded tiles for ragged sizes.
#pragma once
#include <cstdint>

namespace portkern::gemm_impl::cpu_packed {

// Column-major BLAS semantics: C = alpha * op(A) * op(B) + beta * C for each of `batch` problems,
// problem i uses a + i*stride_a, b + i*stride_b, c + i*stride_c. op(A) is m x k, op(B) is k x n.
// beta == 0: C is not read (NaN/Inf in C must not propagate). k == 0 or alpha == 0: C = beta*C only
// (beta == 0 -> zeros). Arguments are already validated by the caller; m, n, k, batch >= 1 here except k may be 0.
// threads: the number of OpenMP threads to use (>= 1).
template <class T>
void run(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
         const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb, std::int64_t stride_b,
         T beta, T* c, std::int64_t ldc, std::int64_t stride_c, std::int64_t batch, int threads);

extern template void run<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*,
                                std::int64_t, std::int64_t, const float*, std::int64_t, std::int64_t, float,
                                float*, std::int64_t, std::int64_t, std::int64_t, int);
extern template void run<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                                 std::int64_t, std::int64_t, const double*, std::int64_t, std::int64_t, double,
                                 double*, std::int64_t, std::int64_t, std::int64_t, int);

}  // namespace portkern::gemm_impl::cpu_packed
