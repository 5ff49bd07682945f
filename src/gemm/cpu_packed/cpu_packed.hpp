// cpu_packed: the native CPU GEMM family of portkern (float and double, BLAS semantics).
//
// What it computes
//   Column-major C = alpha * op(A) * op(B) + beta * C for `batch` independent problems, op(X) = X or X^T.
//
// Algorithm (Goto / BLIS style)
//   for jc in n step NC:                         B block (KC x NC)
//     for pc in k step KC:                       pack op(B)[pc.., jc..] into NR-wide row panels
//       for ic in m step MC:                     pack op(A)[ic.., pc..] into MR-tall column panels (L2)
//         for jr in NC step NR:                  one B micro-panel (KC x NR) stays in L1
//           for ir in MC step MR:                micro-kernel: MR x NR tile of C in registers,
//                                                rank-1 FMA updates over KC, then C = alpha*acc + beta*C
//   Packing handles both transposes (AVX-512 packs with 16x16 / 8x8 in-register transposes), so
//   one micro-kernel serves NN/NT/TN/TT. Edge tiles use exact micro-kernels (fewer columns, fewer
//   vectors, a partial last vector), so m and n need not be multiples of MR and NR.
//   Packing is skipped where it does not pay: non-transposed B is read in place (broadcasts from NR
//   column streams) when m <= 16 MR; A is read in place, where the ISA's kernels allow it (AVX-512's
//   masked loads), when it is not transposed and m <= MR or n <= 2 NR; m == 1 or n == 1 runs as a GEMV
//   (dot or axpy form, whichever reads memory in order).
//   KC and MC are cut into equal blocks; with B in place, KC grows until the A panel fills the L2 budget.
//
// Layout (BLIS's): this family is a portable frame (cpu_packed.cpp: blocking, packing, GEMV, threads) over
// per-ISA micro-kernels behind one signature (portkern/kernel/cpu/microkernel.hpp), one file per ISA in
// cpu_packed/, each compiled with its own target flags. The set used is the CPU's device class's, chosen at run
// time (portkern/runtime/device_class.hpp: CPUID, or PORTKERN_CPU_CLASS), and its block sizes are data of
// that set:
//   cpu-avx512, float : MR x NR = 64 x 6 (4 zmm x 6 columns = 24 accumulators), KC 512, MC 288, NC 4092
//   cpu-avx512, double: MR x NR = 32 x 6,                                         KC 256, MC 192, NC 4092
//   cpu-avx2          : MR x NR = 16 x 6 (float) / 8 x 6 (double), 12 ymm accumulators, KC 384/256, MC 192/96
//   cpu-generic       : plain C++, MR x NR = 8 x 6 (float) / 4 x 6 (double), KC 256, MC 128
//   (On Zen 4: KC x NR of B = 12 KiB fits L1 = 32 KiB; MC x KC of A = 576 KiB is about half of L2 = 1 MiB.
//   64 x 6 beat 32 x 12, 48 x 8, 32 x 14 and 16 x 16: fewer broadcasts per FMA.)
//
// Threads (OpenMP, `threads` at most)
//   batch >= threads: whole problems per thread. Otherwise each problem is split into a tm x tn x tk
//   grid (tk > 1 only where m has fewer MR tiles than threads; partial products are reduced at the end), chosen by a
//   cost model of compute, packing and imbalance. Problems under ~32K multiply-adds run on one thread.
//
// When it wins
//   About 88-90% of the FMA peak on large problems (on par with oneDNN's sgemm, ahead of OpenBLAS);
//   clearly ahead on small m with huge k or n (m = 1, 16, 32, 49: no packing, k split over threads),
//   batches of small problems, and ragged sizes. Weakest on tall-skinny problems with n = 64, where
//   packing A from memory is not hidden behind compute (~0.8-0.9 of oneDNN).
#pragma once
#include <cstdint>

#include "gemm/args.hpp"

namespace portkern::gemm_impl::cpu_packed {

// Column-major BLAS semantics: C = alpha * op(A) * op(B) + beta * C for each of `batch` problems,
// problem i uses a + i*stride_a, b + i*stride_b, c + i*stride_c. op(A) is m x k, op(B) is k x n.
// beta == 0: C is not read (NaN/Inf in C must not propagate). k == 0 or alpha == 0: C = beta*C only
// (beta == 0 -> zeros). Arguments are already validated by the caller; m, n, k, batch >= 1 here except k may be 0.
// threads: the number of OpenMP threads to use (>= 1). The epilogue (gemm/args.hpp) is applied to each
// micro-tile of C as its last k block is stored, while the tile is in L1 (after the reduction when k is split
// over threads).
template <class T>
void run(bool trans_a, bool trans_b, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
         const T* a, std::int64_t lda, std::int64_t stride_a, const T* b, std::int64_t ldb, std::int64_t stride_b,
         T beta, T* c, std::int64_t ldc, std::int64_t stride_c, std::int64_t batch, int threads,
         const GemmEpilogue<T>& epilogue = {});

extern template void run<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*,
                                std::int64_t, std::int64_t, const float*, std::int64_t, std::int64_t, float,
                                float*, std::int64_t, std::int64_t, std::int64_t, int, const GemmEpilogue<float>&);
extern template void run<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                                 std::int64_t, std::int64_t, const double*, std::int64_t, std::int64_t, double,
                                 double*, std::int64_t, std::int64_t, std::int64_t, int,
                                 const GemmEpilogue<double>&);

}  // namespace portkern::gemm_impl::cpu_packed
