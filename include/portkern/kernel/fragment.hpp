// Matrix fragments and staged copies: the kernel model's two primitives for a fast GEMM-like kernel, written
// once and lowered natively by each back end (as SYCL's joint_matrix, CuTe's MMA atoms and copy pipelines,
// and BLIS's micro-kernel signature do).
//
// A group owns a BM x BN block of an output matrix and walks the depth k in tiles of KT:
//
//   using L = kernel::BlockShape<T, BM, BN, KT, Stages>;
//   typename Group::template staged_tiles<L> tiles(g);        // group-local ring of Stages (A, B) tiles
//   typename Group::template fragment<L> acc(g, out);         // the accumulator of the block, zeroed
//   for (int s = 0; s < Stages - 1; ++s) tiles.copy(g, s, a, b, m0, n0, s * KT, k);   // issued ahead
//   for (std::int64_t t = 0; t < tiles_of_k; ++t) {
//     tiles.wait(g);                                           // tile t is in its slot, visible to the group
//     tiles.copy(g, (t + Stages - 1) % Stages, a, b, m0, n0, (t + Stages - 1) * KT, k);  // the next, in flight
//     acc.mma(g, tiles, t % Stages);                          // acc += A_tile * B_tile
//   }
//   acc.store(g);                                              // out = alpha * acc + beta * out (or += alpha * acc)
//
// Every call is group-scope and uniform: on CUDA every item of the group makes it and does its share; on the
// CPU the group makes it once. A copy of a tile starting at or beyond k is a no-op (the pipeline's tail).
//
// What each back end lowers them to:
//   staged_tiles  CUDA: a ring of Stages tiles in dynamic shared memory (a kernel names its block as
//                 `using staged_block = ...;` so that the launch reserves it) filled with cp.async (16-byte chunks where the
//                 operand's alignment allows, zero-filled past the matrix's edges), a commit group per copy,
//                 wait = cp.async.wait_group<Stages - 2> + barrier; plain loads before sm_80.
//                 CPU: the packing of op(A) and op(B) blocks into the micro-kernels' panels
//                 (portkern/kernel/cpu/pack.hpp), done when the tile is first multiplied, with one buffer.
//                 A WindowOperand B (implicit GEMM): CUDA gathers windows with cp.async (zeros for padding);
//                 the CPU's micro-kernels read them in place, or from a small gathered panel.
//   fragment      CUDA: registers; IEEE: each item owns TM x TN outputs in 4-wide runs (16-byte shared
//                 loads), SIMT FMA (fp32 / fp64); 3xTF32: warps own 16 x 8 mma.sync tiles of the block,
//                 each k-tile's product summed apart and added with round-to-nearest (atoms.cuh); TF32:
//                 the same tiles, one product per atom of the operands rounded to TF32.
//                 CPU: the block of the output itself, updated by the ISA's register-blocked micro-kernels
//                 (portkern/kernel/cpu/microkernel.hpp: AVX-512, AVX2 or plain C++), alpha and beta applied
//                 on the first tile as BLIS does.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"
#include "portkern/kernel/plus_if_set.hpp"
#include "portkern/precision.hpp"

namespace portkern::kernel {

// op(X) of a column-major matrix: element (i, j) at data[transposed ? i * ld + j : j * ld + i].
template <class T>
struct MatrixOperand {
  const T* data;
  std::int64_t ld;
  bool transposed;
};

// op(B) of an implicit GEMM: the patches of an NHWC image (undilated windows of window_h x window_w, zeros
// outside the image), never stored. B is (window_h * window_w * channels) x pixels: B(l, j) is element
// l = (r * window_w + s) * channels + c of output pixel j = (n * out_h + y) * out_w + x's patch, input
// pixel (y * stride_h + r - pad_top, x * stride_w + s - pad_left) channel c, at input[pixel * pixel_stride +
// c] — im2col's matrix, whose rows follow a filter stored RSCK. Contiguous along k within a run of channels
// (within a whole window row where the window is inside the image and pixel_stride == channels). A group of a
// grouped convolution is the window operand of its channels: input at the group's first channel, channels the
// group's, pixel_stride the image's.
template <class T>
struct WindowOperand {
  const T* input;
  std::int64_t height, width, channels, pixel_stride;   // of the input image (pixel_stride >= channels)
  std::int64_t window_h, window_w, stride_h, stride_w, pad_top, pad_left;
  std::int64_t out_h, out_w;
  PORTKERN_INLINE std::int64_t depth() const { return window_h * window_w * channels; }
};

// The output block a fragment is stored to: rows x cols of column-major c (the block's first element),
// out = alpha * acc + beta * out; or, with `accumulate`, out += alpha * acc added atomically (other groups add
// their partial products to the same block; beta is not applied). An epilogue (not with `accumulate`) follows:
// plus bias[row], plus residual (laid out as c, from the block's first element), then ReLU where `relu`.
template <class T>
struct BlockOutput {
  T* c;
  std::int64_t ldc, rows, cols;
  T alpha, beta;   // beta == 0: the output is not read (NaN there does not come through)
  bool accumulate = false;
  const T* bias = nullptr;       // rows values, or nullptr
  const T* residual = nullptr;   // rows x cols with leading dimension ldc, or nullptr
  bool relu = false;
  PORTKERN_INLINE bool has_epilogue() const { return bias || residual || relu; }
  // out's final value from v = alpha * acc (+ beta * out).
  PORTKERN_INLINE T finished(T v, std::int64_t row, std::int64_t col) const {
    v = plus_if_set(v, bias, row, c);                    // c: the block, rows x cols, readable
    v = plus_if_set(v, residual, col * ldc + row, c);
    return relu && v < T(0) ? T(0) : v;
  }
};

// The shape of a group's block multiply: a BM x BN block, k-tiles of KT, Stages tiles in flight, the group's
// items as ItemsM x ItemsN (CUDA's threads; in the SIMT lowering each owns BM / ItemsM x BN / ItemsN outputs),
// and the multiply's arithmetic (portkern/precision.hpp): IEEE FMA, or for float on tensor cores where the
// back end has them 3xTF32 (fp32 accuracy) or TF32 (atoms.cuh; the CPU computes the IEEE product either way);
// and which operands are contiguous along k in memory (A transposed, B not), which a lowering may copy in
// k-major tiles.
template <class T, int BM_, int BN_, int KT_, int Stages_, int ItemsM, int ItemsN,
          Arithmetic Arith = Arithmetic::ieee, bool AAlongK = false, bool BAlongK = false>
struct BlockShape {
  using value_type = T;
  static constexpr int BM = BM_, BN = BN_, KT = KT_, Stages = Stages_, items_m = ItemsM, items_n = ItemsN;
  static constexpr Arithmetic arithmetic = Arith;
  static constexpr bool a_along_k = AAlongK, b_along_k = BAlongK;
  static constexpr int TM = BM / ItemsM, TN = BN / ItemsN;
  static_assert(BM % ItemsM == 0 && BN % ItemsN == 0, "the items must split the block evenly");
  static_assert(Stages >= 2, "a pipeline of at least two stages: one in use, one in flight");
};

// How a staged pipeline splits its depth k over groups: where `blocks` output blocks alone would leave a device
// that runs `resident` groups at once idle, floor(resident / blocks) groups per block, each at least
// `min_tiles` k-tiles of `kt` deep (so that the pipeline of stages stays busy); the groups of a block then add
// their partial products into it. splits == 1: the whole depth in one group.
struct DepthSplit {
  std::int64_t splits, depth;   // depth: of one split, a multiple of kt (the last split may be shorter)
};
constexpr DepthSplit split_depth(std::int64_t blocks, std::int64_t k, std::int64_t kt, std::int64_t resident,
                                 std::int64_t min_tiles) {
  const std::int64_t tiles = (k + kt - 1) / kt;
  std::int64_t want = blocks > 0 ? resident / blocks : 1;
  if (want > tiles / min_tiles) want = tiles / min_tiles;
  if (want <= 1) return {1, k};
  const std::int64_t depth = (tiles + want - 1) / want * kt;
  return {(k + depth - 1) / depth, depth};
}

}  // namespace portkern::kernel
