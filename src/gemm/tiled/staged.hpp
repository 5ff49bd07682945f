// The `tiled` family's staged mode: the GEMM written once on the kernel model's matrix fragments and staged
// copies (portkern/kernel/fragment.hpp), the model's fast path on both back ends.
//
// Computes, for each of `batch` problems, C = alpha * op(A) * op(B) + beta * C, column-major (BLAS). A group
// owns a block of wg_m*r x wg_n*c of C; it walks k in tiles of k_tile with `stages` tiles in flight: while
// the fragment multiplies tile t, the copies of tiles t+1 .. t+stages-1 are under way.
// Lowerings: on CUDA the copies are cp.async into shared memory and the fragment is r x c registers per
// item (SIMT FMA), or with `tf32x3` (names ending "_x3") mma.sync atoms with fp32 accuracy (float; double and
// the CPU compute the IEEE product); on the CPU the copies pack the micro-kernels' panels and the fragment is the block of C
// updated by the ISA's micro-kernels. When it wins: on a GPU, 8 x 8 per item on 16 x 16 items with 3-4
// stages for large problems, smaller tiles for skinny ones; on the CPU, blocks of 128-512 x 256-1024 by
// 256-512 of k (the micro-kernels' cache blocking).
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
  using Block = kernel::BlockShape<T, P.block_m(), P.block_n(), P.k_tile, P.stages, P.wg_m, P.wg_n, P.tf32x3,
                                   TransA, !TransB>;
  using staged_block = Block;   // the launch reserves the staged tiles' group-local memory
  static constexpr int BM = Block::BM, BN = Block::BN, KT = Block::KT, stages = Block::Stages;

  GemmArgs<T> args;

  static kernel::Range groups(const GemmArgs<T>& g) {
    return {(g.m + BM - 1) / BM, (g.n + BN - 1) / BN, g.batch};
  }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    const GemmArgs<T>& p = args;
    const kernel::MatrixOperand<T> a{p.a + g.z() * p.stride_a, p.lda, TransA};
    const kernel::MatrixOperand<T> b{p.b + g.z() * p.stride_b, p.ldb, TransB};
    const std::int64_t m0 = g.x() * BM, n0 = g.y() * BN;
    const kernel::BlockOutput<T> out{p.c + g.z() * p.stride_c + n0 * p.ldc + m0, p.ldc,
                                     BM < p.m - m0 ? BM : p.m - m0, BN < p.n - n0 ? BN : p.n - n0, p.alpha, p.beta};

    typename Group::template staged_tiles<Block> tiles(g);
    typename Group::template fragment<Block> acc(g, out);
    for (int s = 0; s < stages - 1; ++s) tiles.copy(g, s, a, b, m0, n0, std::int64_t(s) * KT, p.m, p.n, p.k);
    const std::int64_t count = (p.k + KT - 1) / KT;
    for (std::int64_t t = 0; t < count; ++t) {
      tiles.wait(g);
      tiles.copy(g, int((t + stages - 1) % stages), a, b, m0, n0, (t + stages - 1) * KT, p.m, p.n, p.k);
      acc.mma(g, tiles, int(t % stages));
    }
    acc.store(g);
  }
};

}  // namespace portkern::gemm_impl
