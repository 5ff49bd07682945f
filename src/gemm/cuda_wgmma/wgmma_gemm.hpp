// The GEMM on Hopper's warpgroup tensor-core instructions (`wgmma`): C (fp32) = alpha * op(A) * op(B) + beta * C
// with A and B bfloat16 or IEEE half, products and sums in fp32 (cuBLAS's cublasGemmEx with 16BF / 16F inputs
// and 32F compute), or fp32 multiplied as TF32 (CUBLAS_COMPUTE_32F_FAST_TF32) or as 3xTF32, at IEEE SGEMM's
// accuracy (the cuda_native family's wgmma configurations on sm_90). Column-major BLAS semantics, strided
// batches; beta == 0 never reads C. Plain C++ here (no CUDA types): the choice of kernel is wgmma_gemm.cpp, the
// kernels are launch.hpp's. A may also be the windows of an NHWC image, a 2-D convolution as one implicit GEMM
// (Windows, convolution(): the conv2d algorithm implicit_wgmma).
//
// What it computes with (wgmma_kernel.cuh): a persistent grid, one thread block per multiprocessor, walking
// 128 x BN tiles of C (BN 256, 128 or 64) with three warpgroups. The producer's one thread issues the tensor
// memory accelerator's copies (TMA) of 128-byte-swizzled k-tiles of A and B into a ring of shared-memory
// stages, each completing on an mbarrier; two consumer warpgroups each multiply 64 rows of the tile with
// `wgmma.mma_async` reading both operands from shared memory, and free a stage as soon as the products that
// read it are done. 16-bit operands may be K- or M/N-major (all four transposes). TF32 instructions read only
// K-major operands from shared memory, so fp32 inputs take A from registers instead: copied as stored, loaded
// by each consumer thread, rounded to TF32 or split into 3xTF32's two parts there. B is rewritten first as
// K-major TF32 rows (tf32_operand.cu; 3xTF32 always, both parts; TF32 where not K-major or aligned), and so is
// an A the copy engine cannot read. 3xTF32 multiplies each k-step three times, summing a k-tile apart before
// adding it to C's sums in round-to-nearest fp32 (the tensor cores' sums truncate). Where the tiles are fewer
// than the multiprocessors, k is split into parts: the first of a tile's parts to finish writes C as an unsplit
// product would, the others add theirs once it has landed (no pass over C first). The copy engine needs 16-byte
// aligned A and B with leading dimensions and batch strides multiples of 16 bytes; an operand without them is
// copied into the stages by the producer warpgroup's threads instead (cp.async, in the same swizzled layout; fp32:
// A alone, into registers), or, aligned to less than 4 bytes, copied by a pass first. Small k (small_k.cu) and
// single rows (gemv.cu) of 16-bit inputs take fp32 kernels bound by memory; GPUs other than compute capability 9.0 a plain SIMT kernel (correct anywhere, not fast).
//
// When it wins: products of 16-bit operands with m and n of a few hundred and more, k of 3-32 with few columns;
// fp32 products with m and n of a few hundred and more, k >= 64 (3xTF32: 1.5-2.5x cuBLAS SGEMM on squares of
// 1024 and more and on networks' tall products); products of few rows with many columns as the transposed
// product, C^T = op(B)^T op(A)^T, which the route prices beside the product as it is. It loses where m and n are
// both small, and on k of 3-32 for fp32. docs/precision.md has the figures beside cuBLAS.
#pragma once

#include <cstdint>
#include <string>

#include "gemm/args.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

// What A and B hold and how they are multiplied: bfloat16 or IEEE half values; or fp32 values multiplied as
// TF32 (10-bit mantissas, rounded to nearest) or as 3xTF32 (each value split into two TF32 parts, the three
// largest of the four products summed: an error of the order of IEEE SGEMM's).
enum class Input { bf16, f16, tf32, tf32x3 };

// A as the patch matrix of a 2-D convolution over an NHWC fp32 image (implicit GEMM, never stored): row m the
// output pixel m (images one after another), column k = (r * window_w + s) * channels + c the window's tap (r, s)
// at input channel c, zero where the tap falls in the padding. Coordinates fit 32 bits (windows_fit).
struct Windows {
  const void* image = nullptr;
  int height = 0, width = 0, channels = 0;
  int out_h = 0, out_w = 0, window_w = 0;
  int stride_h = 1, stride_w = 1, pad_top = 0, pad_left = 0, dilation_h = 1, dilation_w = 1;
  std::int64_t pixels = 0, depth = 0;   // m and k of the product
};

// A convolution's epilogue (windows): C(i, j) + residual(i, j) (the residual laid out as C) + bias[j], then ReLU
// where relu; nothing where all are empty.
struct Epilogue {
  const float* bias = nullptr;
  const float* residual = nullptr;
  bool relu = false;

  bool any() const { return bias || residual || relu; }
};

struct Problem {
  bool trans_a = false, trans_b = false;
  std::int64_t m = 0, n = 0, k = 0;
  float alpha = 1;
  const void* a = nullptr;   // values of `Input` (16-bit, or fp32)
  std::int64_t lda = 0, stride_a = 0;
  const void* b = nullptr;
  std::int64_t ldb = 0, stride_b = 0;
  float beta = 0;
  float* c = nullptr;
  std::int64_t ldc = 0, stride_c = 0;
  std::int64_t batch = 1;
  bool c_transposed = false;   // C(i, j) stored at c[j + i * ldc]: the transposed product of a call (wgmma_gemm.cpp)
  // A as windows of an image (fp32 inputs; trans_a, batch 1, a = windows->image), copied by the copy engine in
  // im2col mode or by the producer's threads; nullptr: A is a matrix.
  const Windows* windows = nullptr;
  // fp32 inputs: B is prepare_b's rows (b, ldb = b_rows_ld(k), !trans_b, batch 1), read as they are at TF32 and
  // 3xTF32 alike, never rewritten; the product is then never transposed.
  bool b_rows = false;
  // Windows: the epilogue, applied as C is written where fuses_epilogue says so (else the caller's to apply).
  Epilogue epilogue{};
};

// B of fp32 products prepared once, for a B multiplied by in many calls (a convolution's filter): op(B) as the
// kernels read it, n K-major rows of b_rows_ld(k) values, each holding its values' TF32 parts (rounded to nearest)
// at 0..k-1 and, from b_rows_ld(k) / 2 on, the TF32 parts of what those leave (3xTF32's small parts), zeros
// between. `rows` holds n * b_rows_ld(k) floats on the queue's device; op(B) is k x n (B n x k where trans_b),
// ldb B's leading dimension. Queued on the queue's stream, like the products that read the rows.
std::int64_t b_rows_ld(std::int64_t k);
void prepare_b(Queue& queue, const float* b, bool trans_b, std::int64_t k, std::int64_t n, std::int64_t ldb,
               float* rows);

// The problem of a GEMM call's arguments (fp32, bfloat16 or IEEE half A and B; the epilogue is not this family's).
template <class In>
Problem problem_of(bool trans_a, bool trans_b, const GemmArgs<float, In>& g) {
  return {trans_a, trans_b, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.stride_a, g.b, g.ldb, g.stride_b, g.beta, g.c, g.ldc,
          g.stride_c, g.batch};
}

// The convolution of an NHWC image by a filter of window_h x window_w x channels x out_c (RSCK), fp32, as this
// family's product: C (pixels x out_c, each pixel's out_c outputs contiguous) = windows x filter, at TF32 or
// 3xTF32 (`input`); `windows` must outlive the call's queueing. Requires windows_fit.
// `filter_rows`: the filter as prepare_b's rows (op(B) = the filter, k x out_c), or nullptr: rewritten each call.
Problem convolution(const Windows& windows, const float* filter, std::int64_t out_c, float* output,
                    const float* filter_rows = nullptr);
// Whether a convolution's coordinates fit the kernels' 32-bit ones and its image is aligned to 4 bytes.
bool windows_fit(const Windows& w, std::int64_t out_c);

// Whether `run` applies p.epilogue as it writes C (a non-empty one, windows, k not split, beta 0, and not the kernel
// of 256 columns with A in registers; not with PORTKERN_WGMMA_EPILOGUE=pass, for measurement): where not, the
// caller applies it after. Requires `applies`. Calls without an epilogue run the kernels without finish().
bool fuses_epilogue(const Device& device, Input input, const Problem& p);

// Whether `device` has the wgmma instructions (compute capability 9.0), which fp32 inputs need.
bool has_wgmma(const Device& device);

// Whether `run` takes p on `device`: always for 16-bit inputs; fp32 ones (TF32, 3xTF32) need compute capability
// 9.0 (they have no fallback: the caller's other kernels serve other GPUs).
bool applies(const Device& device, Input input, const Problem& p);

// The cost model's time for `run` on `p` (microseconds, fp32 inputs: rewriting the operands included), for
// callers choosing between it and other kernels; requires `applies`.
double estimated_us(const Device& device, Input input, const Problem& p);

// Runs on the queue's stream (its device current); m, n, k, batch > 0 (the caller's quick returns), arguments
// already checked, `applies`. fp32 operands the TF32 instructions cannot read (and those PORTKERN_WGMMA_COPY=repack
// sends there) are first rewritten into the queue's scratch memory as K-major TF32 rows. Errors throw
// portkern::Error. Returns whether it applied p.epilogue as it wrote C (fuses_epilogue's answer, from the same
// route): where not, the caller applies it after.
bool run(Queue& queue, Input input, const Problem& p);

// The kernel `run` launches for `p` on `device`: "wgmma_128x<BN>" (fp32 inputs: "wgmma_tf32_128x<BN>",
// "wgmma_tf32x3_128x<BN>"), with "_split<S>" when k is split into S parts, "_a_in_registers" when A is
// multiplied from registers, "_swapped" when the transposed product is multiplied (C^T = op(B)^T op(A)^T) and
// "_a_by_threads" / "_b_by_threads" when the producer's threads copy an operand the copy engine cannot read,
// "_windows" when A is windows of an image (copied in im2col mode; "_windows_by_threads" by the producer's threads;
// "_epilogue" after it when the kernel applies a non-empty epilogue), "_c_by_threads" when the consumers' threads write C element by element (C not aligned to 16 bytes, fewer than
// 4 rows, beta neither 0 nor 1 with k unsplit, or PORTKERN_WGMMA_C=threads), "_repacked" when an operand is copied first
// (PORTKERN_WGMMA_COPY=repack; 3xTF32 always rewrites B: not named); "small_k" (k <= 16, or k <= 32 with n <= 32:
// fp32 FMA, bound by writing C), "gemv" (m == 1, B not transposed), "gemv_swapped" (n == 1, A
// transposed: the transposed product's), or "simt".
std::string kernel_for(const Device& device, Input input, const Problem& p);

}  // namespace portkern::gemm_impl::cuda_wgmma
