// The `implicit` algorithm: convolution as an implicit GEMM, written once on the kernel model's matrix
// fragments and staged copies (portkern/kernel/fragment.hpp), with no im2col buffer.
//
// What it computes: the NHWC output (out_c x pixels, column-major) = filter (out_c x window_h * window_w *
// in_c, RSCK as stored) * patches, plus bias, plus residual, then ReLU, all in the fragment's store. The
// patches are a WindowOperand: the staged copies gather each k-tile's windows straight from the input (CUDA:
// cp.async into shared memory, 16-byte chunks of 4 channels, zeros for padding; CPU: the micro-kernels read
// a tile's windows in place, NR column streams stride_w * in_c apart, where the tile's windows are inside the
// image, and gather the rest into a small panel).
//
// Groups: a grouped convolution is an implicit GEMM per group (out_c / groups filters by the group's windows:
// its in_c / groups channels of each pixel, in_c apart), the groups' blocks side by side in the launch.
//
// Parameters: the staged GEMM's (gemm/tiled/tiled_config.hpp), named "implicit/" + the staged name: a group
// owns a block of wg_m * r output channels by wg_n * c pixels and walks the depth in k-tiles of k_tile with
// `stages` in flight; `_x3` multiplies with 3xTF32 tensor-core atoms on CUDA (fp32 accuracy).
//
// When it wins: where im2col's buffer dominates, i.e. strided and large windows with many channels (the
// patches of a stride-2 3x3 layer are 2.25x its input, those of a 3x3 stride-1 layer 9x); 3x3 stride-1 layers
// stay Winograd's, 1x1 layers gemm_1x1's, 3-channel first layers (windows too narrow to read in place) im2col's.
// On CUDA, grouped layers of few wide groups (RegNet's groups of 128-232 channels, AlexNet's 2 of 192), whose
// products `direct` computes without the fragments (docs/performance.md).
#pragma once

#include <cstdint>

#include "conv2d/args.hpp"
#include "gemm/tiled/tiled_config.hpp"
#include "portkern/kernel/fragment.hpp"
#include "portkern/kernel/model.hpp"

namespace portkern::conv2d_impl {

inline constexpr std::string_view implicit_prefix = "implicit/";

constexpr gemm_impl::TiledConfig parse_implicit(std::string_view name, bool* ok = nullptr) {
  return gemm_impl::parse_tiled(name, ok, implicit_prefix);
}

template <gemm_impl::TiledConfig P>
struct Conv2dImplicit {
  static_assert(P.memory == gemm_impl::TiledMemory::staged, "a staged configuration");
  using group_shape = kernel::Shape<P.wg_m, P.wg_n>;
  // A: the filter, column-major out_c x depth (not along k); B: the windows, along k (channels).
  using Block = kernel::BlockShape<float, P.block_m(), P.block_n(), P.k_tile, P.stages, P.wg_m, P.wg_n, P.arithmetic,
                                   false, true>;
  using staged_block = Block;   // the launch reserves the staged tiles' group-local memory
  static constexpr int BM = Block::BM, BN = Block::BN, KT = Block::KT, stages = Block::Stages;

  static constexpr std::int64_t min_tiles_per_split = 4;   // a split keeps the pipeline of stages busy

  ConvArgs a;
  std::int64_t splits = 1;        // groups along the depth per block (> 1: partial products added into the output)
  std::int64_t split_depth = 0;   // depth of one split, a multiple of KT (unread with one split)

  PORTKERN_INLINE std::int64_t pixels() const { return a.batch * a.out_h * a.out_w; }
  PORTKERN_INLINE std::int64_t group_in() const { return a.in_c / a.groups; }     // channels of a group
  PORTKERN_INLINE std::int64_t group_out() const { return a.out_c / a.groups; }   // filters of a group
  PORTKERN_INLINE std::int64_t depth() const { return a.window_h * a.window_w * group_in(); }
  PORTKERN_INLINE std::int64_t blocks_m() const { return (group_out() + BM - 1) / BM; }   // of one group
  // Pixel blocks along x (the larger count), the groups' output-channel blocks along y (group by group),
  // splits of the depth along z.
  kernel::Range groups() const { return {(pixels() + BN - 1) / BN, a.groups * blocks_m(), splits}; }

  // The kernel for a device that runs `resident` groups of it at once: as the staged GEMM, the depth is split
  // over floor(resident / blocks) groups per block where the blocks alone are fewer (small images at batch 1),
  // each split at least min_tiles_per_split k-tiles deep. Split, the groups add their partial products into a
  // zeroed output and the epilogue is left to a pass of its own (accumulates()).
  static Conv2dImplicit planned(const ConvArgs& args, std::int64_t resident) {
    const Conv2dImplicit whole{args};
    const std::int64_t blocks = (whole.pixels() + BN - 1) / BN * args.groups * whole.blocks_m();
    const kernel::DepthSplit split = kernel::split_depth(blocks, whole.depth(), KT, resident, min_tiles_per_split);
    return {args, split.splits, split.depth};
  }
  PORTKERN_INLINE bool accumulates() const { return splits > 1; }

  template <class Group>
  PORTKERN_KERNEL void operator()(Group& g) const {
    // This group's depth is [l_begin, k): the copies take depths from the window's start (the window operand
    // is addressed by them), the first one at l_begin.
    // The group's product: its filters' rows [0, m) of the filter's columns from `channel` on, its channels'
    // windows, its output channels from `channel` on.
    const std::int64_t group = g.y() / blocks_m(), m0 = (g.y() - group * blocks_m()) * BM, n0 = g.x() * BN;
    const std::int64_t m = group_out(), n = pixels(), l_begin = g.z() * split_depth, channel = group * m;
    const std::int64_t k = accumulates() && l_begin + split_depth < depth() ? l_begin + split_depth : depth();
    const kernel::MatrixOperand<float> filter{a.filter + channel, a.out_c, false};
    const kernel::WindowOperand<float> windows{a.input + group * group_in(),
                                               a.in_h,
                                               a.in_w,
                                               group_in(),
                                               a.in_c,
                                               a.window_h,
                                               a.window_w,
                                               a.stride_h,
                                               a.stride_w,
                                               a.pad_top,
                                               a.pad_left,
                                               a.out_h,
                                               a.out_w};
    const std::int64_t first = n0 * a.out_c + channel + m0;
    const kernel::BlockOutput<float> out{a.output + first,
                                         a.out_c,
                                         BM < m - m0 ? BM : m - m0,
                                         BN < n - n0 ? BN : n - n0,
                                         1.f,
                                         0.f,
                                         accumulates(),
                                         a.bias && !accumulates() ? a.bias + channel + m0 : nullptr,
                                         a.residual && !accumulates() ? a.residual + first : nullptr,
                                         a.relu && !accumulates()};

    typename Group::template staged_tiles<Block> tiles(g);
    typename Group::template fragment<Block> acc(g, out);
    for (int s = 0; s < stages - 1; ++s)
      tiles.copy(g, s, filter, windows, m0, n0, l_begin + std::int64_t(s) * KT, m, n, k);
    const std::int64_t count = (k - l_begin + KT - 1) / KT;
    for (std::int64_t t = 0; t < count; ++t) {
      tiles.wait(g);
      tiles.copy(g, int((t + stages - 1) % stages), filter, windows, m0, n0, l_begin + (t + stages - 1) * KT, m, n, k);
      acc.mma(g, tiles, int(t % stages));
    }
    acc.store(g);
  }
};

}  // namespace portkern::conv2d_impl
