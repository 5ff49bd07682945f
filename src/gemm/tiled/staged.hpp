// The `tiled` family's staged mode: the GEMM written once on the kernel model's matrix fragments and staged
// copies (portkern/kernel/fragment.hpp), the model's fast path on both back ends.
//
// Computes, for each of `batch` problems, C = alpha * op(A) * op(B) + beta * C, column-major (BLAS). A group
// owns a block of wg_m*r x wg_n*c of C; it walks k in tiles of k_tile with `stages` tiles in flight (fewer
// for double): while the fragment multiplies tile t, the copies of tiles t+1 .. t+stages-1 are under way. Where the blocks of C
// alone would leave most of the device idle (fewer blocks than it runs groups at once), k is split over
// several groups per block (split_k: each adds its partial product into C, which a first pass scaled by beta).
// Lowerings: on CUDA the copies are cp.async into shared memory and the fragment is r x c registers per
// item (SIMT FMA), or with `tf32x3` (names ending "_x3") mma.sync atoms with fp32 accuracy (float; double and
// the CPU compute the IEEE product); on the CPU the copies pack the micro-kernels' panels and the fragment is
// the block of C updated by the ISA's micro-kernels (GEMV where the block is one row or column). When it
// wins: on a GPU, 8 x 8 per item on 16 x 16 items with 3xTF32 fragments, 32-deep k-tiles and 3 stages for
// large problems, smaller tiles for skinny ones; on the CPU, blocks of 64-512 x 96-768 by 256-512 of k (the
// micro-kernels' cache blocking), the smaller ones where few blocks would leave threads idle.
#pragma once

#include <cstdint>

#include "gemm/args.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "portkern/kernel/fragment.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::gemm_impl {

template <TiledConfig P, class T, bool TransA, bool TransB>
struct GemmStaged {
  static_assert(P.memory == TiledMemory::staged && P.stages >= 2, "a staged configuration");
  static constexpr TiledConfig config = P;
  static constexpr bool trans_a = TransA, trans_b = TransB;
  using group_shape = kernel::Shape<P.wg_m, P.wg_n>;
  // A configuration's ring of tiles is sized for float (what the tuning measures): wider elements keep its
  // group-local memory, and so its occupancy, by fewer tiles in flight (at least two). A double instance of
  // 128 x 128 x 32 blocks in 4 stages would need 276 KiB of shared memory, more than any GPU has.
  static constexpr int stages_of_t = P.stages * int(sizeof(float)) / int(sizeof(T)) < 2
                                         ? 2 : P.stages * int(sizeof(float)) / int(sizeof(T));
  using Block = kernel::BlockShape<T, P.block_m(), P.block_n(), P.k_tile, stages_of_t, P.wg_m, P.wg_n, P.arithmetic,
                                   TransA, !TransB>;
  using staged_block = Block;   // the launch reserves the staged tiles' group-local memory
  static constexpr int BM = Block::BM, BN = Block::BN, KT = Block::KT, stages = Block::Stages;
  static constexpr std::int64_t min_tiles_per_split = 4;   // a split keeps the pipeline of stages busy

  GemmArgs<T> args;
  std::int64_t splits = 1;        // groups along k per block of C (> 1: partial products added into C)
  std::int64_t split_depth = 0;   // k of one split, a multiple of KT (with splits == 1: args.k)

  // The kernel for a device that runs `resident` groups of it at once: k is split over floor(resident /
  // blocks) groups per block of C where the blocks alone are fewer, each split at least min_tiles_per_split
  // k-tiles deep.
  static GemmStaged planned(const GemmArgs<T>& g, std::int64_t resident) {
    const std::int64_t blocks = (g.m + BM - 1) / BM * ((g.n + BN - 1) / BN) * g.batch;
    const kernel::DepthSplit split = kernel::split_depth(blocks, g.k, KT, resident, min_tiles_per_split);
    return {g, split.splits, split.depth};
  }
  // A first pass C = beta * C is needed: the splits add their partial products into C.
  PORTKERN_INLINE bool accumulates() const { return splits > 1; }

  kernel::Range groups(const GemmArgs<T>& g) const {
    return {(g.m + BM - 1) / BM, (g.n + BN - 1) / BN, g.batch * splits};
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const GemmArgs<T>& p = args;
    const std::int64_t z = g.z() / splits, l0 = g.z() % splits * split_depth;
    const std::int64_t k = split_depth < p.k - l0 ? split_depth : p.k - l0;
    // The operands from k = l0 on: op(A)(i, l) is a[i + l*lda] (a[l + i*lda] transposed), op(B)(l, j) is
    // b[l + j*ldb] (b[j + l*ldb] transposed).
    const kernel::MatrixOperand<T> a{p.a + z * p.stride_a + l0 * (TransA ? 1 : p.lda), p.lda, TransA};
    const kernel::MatrixOperand<T> b{p.b + z * p.stride_b + l0 * (TransB ? p.ldb : 1), p.ldb, TransB};
    const std::int64_t m0 = g.x() * BM, n0 = g.y() * BN;
    const kernel::BlockOutput<T> out{p.c + z * p.stride_c + n0 * p.ldc + m0,
                                     p.ldc,
                                     BM < p.m - m0 ? BM : p.m - m0,
                                     BN < p.n - n0 ? BN : p.n - n0,
                                     p.alpha,
                                     p.beta,
                                     accumulates()};

    typename Group::template staged_tiles<Block> tiles(g);
    typename Group::template fragment<Block> acc(g, out);
    for (int s = 0; s < stages - 1; ++s) tiles.copy(g, s, a, b, m0, n0, std::int64_t(s) * KT, p.m, p.n, k);
    const std::int64_t count = (k + KT - 1) / KT;
    for (std::int64_t t = 0; t < count; ++t) {
      tiles.wait(g);
      tiles.copy(g, int((t + stages - 1) % stages), a, b, m0, n0, (t + stages - 1) * KT, p.m, p.n, k);
      acc.mma(g, tiles, int(t % stages));
    }
    acc.store(g);
  }
};

}  // namespace portkern::gemm_impl
