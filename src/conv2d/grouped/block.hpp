// Where the grouped algorithm's CPU block-diagonal mode applies: groups of G = 2, 4 or 8 input and output
// channels, G no more than a vector's lanes, whose products per tap are G lane permutes of one vector of the
// input (diagonal_fragment.hpp's fma_block). ResNeXt-50 layer1 (32 groups of 4) on 2 Xeon cores: 25 -> 170
// GFLOP/s, 1.74x oneDNN; groups of 8 (ResNeXt-50 layer2, ResNeXt-101 32x8d layer1, RegNetY-400MF): 141-164,
// where a GEMM per group ran 32-40 (data/results/xeon-2026-11-28-eleventh/).
#pragma once

#include <cstdint>

#include "portkern/kernel/cpu/diagonal_fragment.hpp"

namespace portkern::conv2d_impl {

// G where the mode applies to a convolution of in_c -> out_c channels in `groups` groups, else 0.
inline int block_diagonal_channels(std::int64_t in_c, std::int64_t out_c, std::int64_t groups) {
  const std::int64_t g_in = in_c / groups, g_out = out_c / groups;
  const bool fits = g_out <= kernel::cpu::widest_vector_bytes / std::int64_t(sizeof(float));
  return g_in == g_out && (g_out == 2 || g_out == 4 || g_out == 8) && fits ? int(g_out) : 0;
}

}  // namespace portkern::conv2d_impl
