// The GEMM on Hopper's warpgroup tensor-core instructions (`wgmma`), for 16-bit inputs: C (fp32) = alpha *
// op(A) * op(B) + beta * C with A and B bfloat16 or IEEE half, products and sums in fp32 (cuBLAS's
// cublasGemmEx with 16BF / 16F inputs and 32F compute). Column-major BLAS semantics, strided batches; beta == 0
// never reads C. Plain C++ here (no CUDA types): the choice of kernel is wgmma_gemm.cpp, the kernels are
// launch.hpp's.
//
// What it computes with (wgmma_kernel.cuh): a persistent grid, one thread block per multiprocessor, walking
// 128 x BN tiles of C (BN 256, 128 or 64) with three warpgroups. The producer's one thread issues the tensor
// memory accelerator's copies (TMA) of 128-byte-swizzled k-tiles of A and B into a ring of shared-memory
// stages, each completing on an mbarrier; two consumer warpgroups each multiply 64 rows of the tile with
// `wgmma.mma_async` reading both operands from shared memory, and free a stage as soon as the products that
// read it are done. Either operand may be K- or M/N-major (all four transposes). Where the tiles are fewer than
// the multiprocessors, k is split into parts that add into C atomically. The copy engine needs 16-byte aligned
// A and B with lda, ldb and batch strides multiples of 8; an operand without them is copied first. Small k
// (small_k.cu) and single rows (gemv.cu) take fp32 kernels bound by memory; GPUs other than compute capability
// 9.0 a plain SIMT kernel (correct anywhere, not fast).
//
// When it wins: products of 16-bit operands with m and n of a few hundred and more, k of 3-32 with few
// columns (docs/precision.md has the figures beside cuBLAS); it loses on products of 16-64 rows and on
// operands that must be copied first.
#pragma once

#include <cstdint>
#include <string>

#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

enum class Input { bf16, f16 };

struct Problem {
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0;
  float alpha = 1;
  const void* a = nullptr;   // 16-bit values of `Input`
  std::int64_t lda = 0, stride_a = 0;
  const void* b = nullptr;
  std::int64_t ldb = 0, stride_b = 0;
  float beta = 0;
  float* c = nullptr;
  std::int64_t ldc = 0, stride_c = 0;
  std::int64_t batch = 1;
};

// Runs on the queue's stream (its device current); m, n, k, batch > 0 (the caller's quick returns), arguments
// already checked. Operands the copy engine cannot read are first copied into the queue's scratch memory.
// Errors throw portkern::Error.
void run(Queue& queue, Input input, const Problem& p);

// The kernel `run` launches for `p` on `device`: "wgmma_128x<BN>", with "_split<S>" when k is split
// into S parts and "_repacked" when an operand is copied first; "small_k" (k <= 16, or k <= 32 with n <= 32:
// fp32 FMA, bound by writing C), "gemv" (m == 1, B not transposed), or "simt".
std::string kernel_for(const Device& device, Input input, const Problem& p);

}  // namespace portkern::gemm_impl::cuda_wgmma
