// The cuda_wgmma family's kernels behind wgmma_gemm.cpp's choice: the wgmma pipeline (wgmma_launch.cu, sm_90a),
// the product for small k (small_k.cu), the matrix-vector product (gemv.cu), the plain SIMT kernel
// (simt_fallback.cu), the copy that gives an operand the leading dimension the pipeline's copy engine needs
// (repack.cu) and the one that rewrites fp32 operands as TF32 rows (tf32_operand.cu; all but the first for every
// architecture the build targets).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "gemm/cuda_wgmma/wgmma_gemm.hpp"

namespace portkern::gemm_impl::cuda_wgmma {

// How the wgmma pipeline's epilogue writes C (wgmma_kernel.cuh): element by element by the consumers' threads
// (any C; beta * C read where beta is neither 0 nor 1), or through the copy engine, which needs C's base, leading
// dimension and batch stride aligned to 16 bytes and at least 4 rows (columns of transposed C; the kernel's
// threads write the last 1-3 past a multiple of 4): stored (beta = 0) or added (beta = 1). Where k is split, the
// parts after the first add theirs, atomically or through the copy engine's reductions.
enum class CStore { threads, engine, engine_add };

// The width of the tiles of C, 128 x 64 (8 stages), 128 x 128 (6) or 128 x 256 (4: every width fills 192 KiB
// of stages), and the number of parts k is split into (splits > 1: the first part of a tile to finish writes
// beta * C plus its product, the others add theirs once it has landed; counters order them).
struct Plan {
  int columns = 256;
  int splits = 1;
  double us = 0;   // the model's time for it (wgmma_gemm.cpp), copies of the operands aside
  bool a_registers = false;   // fp32 inputs: A read as stored, multiplied from registers (wgmma_kernel.cuh)
  // Operands the copy engine cannot read, copied by the producer's threads instead in pieces of this many bytes
  // (4, 8 or 16; 0: by the copy engine; wgmma_kernel.cuh's ThreadCopy).
  int a_chunk = 0, b_chunk = 0;
  CStore c_store = CStore::threads;
  bool fused_epilogue = false;   // the problem's epilogue (not empty) applied as C is written (windows, k unsplit, beta 0)
};

// Whether a kernel can apply a convolution's epilogue as it writes C (Plan::fused_epilogue): the windows kernels
// but the one of 256 columns with A in registers, whose consumers have no registers left for it (ptxas spilled).
constexpr bool epilogue_fusable(int columns, bool a_registers, bool windows) {
  return windows && !(columns == 256 && a_registers);
}
template <int BN, bool ARegisters, bool Windows>
constexpr bool epilogue_fusable() { return epilogue_fusable(BN, ARegisters, Windows); }

// The bounding box of the copy engine's im2col mode over an image (A as windows): the first and last input
// positions of the windows' top-left taps, as offsets from the image's first and last rows and columns (the
// traversal from lower to the image's extent + upper, by the strides, visits the out_h x out_w positions).
struct ImageCorners {
  std::int64_t lower_w, lower_h, upper_w, upper_h;
};
inline ImageCorners image_corners(const Windows& w) {
  return {-std::int64_t(w.pad_left), -std::int64_t(w.pad_top),
          std::int64_t(w.out_w - 1) * w.stride_w - w.pad_left - (w.width - 1),
          std::int64_t(w.out_h - 1) * w.stride_h - w.pad_top - (w.height - 1)};
}

// The counters that order the parts of a split k where beta != 1, for `tiles` tiles of C over all problems: one
// per tile and consumer warpgroup, zero before the launch and again after it (wgmma_kernel.cuh).
constexpr std::int64_t counters_for(std::int64_t tiles) { return 2 * tiles; }
// Whether a product split into `splits` parts needs them: beta != 1 (with beta = 1 every part adds at once).
constexpr bool ordered_split(int splits, float beta) { return splits > 1 && beta != 1.f; }

// Requires compute capability 9.0 and, for operands not copied by threads, the TMA conditions wgmma_gemm.cpp
// checks; a persistent grid of at most one block per multiprocessor. TF32 inputs: B K-major (!p.trans_b), and A too unless plan.a_registers; for
// tf32x3, B's rows (and A's, unless plan.a_registers) written by launch_tf32_operand with this segment_k.
// `counters`: where plan.splits > 1 and beta != 1, counters_for(the tiles) zeroed counters, else unused.
void launch_wgmma(Input input, Plan plan, const Problem& p, std::int64_t segment_k, int multiprocessors,
                  std::uint32_t* counters, cudaStream_t stream);
void launch_simt(Input input, const Problem& p, cudaStream_t stream);

// k <= small_k_limit (and at most 65535 blocks of 32 columns): any layout, any GPU.
constexpr int small_k_limit = 32;
bool small_k_fits(const Problem& p);
bool small_k_wins(const Problem& p);   // where it is chosen by default
void launch_small_k(Input input, const Problem& p, cudaStream_t stream);

// m == 1 with B not transposed: any layout, any GPU.
bool gemv_fits(const Problem& p);
void launch_gemv(Input input, const Problem& p, cudaStream_t stream);

// dst = src for `batch` problems of inner x outer 16-bit values, src's columns ld apart and problems stride
// apart, dst's columns ld_dst apart and problems ld_dst * outer apart.
void launch_repack(const void* src, std::int64_t inner, std::int64_t outer, std::int64_t ld, std::int64_t stride,
                   std::int64_t batch, void* dst, std::int64_t ld_dst, cudaStream_t stream);

// fp32 operands as the TF32 kernels read them: for each of `batch` problems of `rows` (m or n) x k, row r of dst
// (ld_dst values long, problems rows * ld_dst apart) holds, at 0..k-1, the operand's values along k rounded to
// TF32 (nearest, ties away) and, when segment_k > 0, at segment_k.. the TF32 rounding of what that leaves
// (3xTF32's small parts), zeros up to segment_k in both. The source element (l, r) is src[l + r * ld] when `k_major`
// (op(A) = A^T, op(B) = B), else src[r + l * ld]; problems stride apart (0: one matrix for all).
void launch_tf32_operand(const float* src, bool k_major, std::int64_t k, std::int64_t rows, std::int64_t ld,
                         std::int64_t stride, std::int64_t batch, float* dst, std::int64_t ld_dst,
                         std::int64_t segment_k, cudaStream_t stream);

// Calls launch(first, count) for consecutive runs of at most 65535 problems, the most one grid dimension holds
// (the kernels that give each problem a grid index).
template <class Launch>
void per_grid_of_problems(std::int64_t batch, Launch launch) {
  constexpr std::int64_t most = 65535;
  for (std::int64_t first = 0; first < batch; first += most) launch(first, unsigned(std::min(batch - first, most)));
}

}  // namespace portkern::gemm_impl::cuda_wgmma
