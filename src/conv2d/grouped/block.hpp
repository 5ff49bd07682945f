// Where the grouped algorithm's CPU block-diagonal mode applies: groups of G = 2, 4 or 8 input and output
// channels, G no more than a vector's lanes, whose products per tap are G lane permutes of one vector of the
// input, and groups of 16 or 32, whose vectors lie within one group, G broadcast loads of the input
// (diagonal_fragment.hpp's fma_block). ResNeXt-50 layer1 (32 groups of 4) on 2 Xeon cores: 25 -> 170 GFLOP/s,
// 1.74x oneDNN; groups of 8 (ResNeXt-50 layer2, ResNeXt-101 32x8d layer1, RegNetY-400MF): 141-164, where a GEMM
// per group ran 32-40 (data/results/xeon-2026-11-28-eleventh/); groups of 16 and 32 (ResNeXt-50 layer3 / 4):
// 93 -> 169 and 106 -> 129, 0.51 and 0.41 of oneDNN (xeon-2026-11-28-twelfth/); on one Zen 5 core 0.80 and 0.49,
// 2 cores 0.80 and 0.65, since the broadcasts' weights sit at constant offsets and a row's edge pixels are summed
// down the rows (zen5-2026-11-29-fifteenth/). Groups of 64 stay on a GEMM: blocks of one 64-channel group ran
// 0.45-0.55x its speed (ResNeXt-101 32x8d layer4 and three other layers).
#pragma once

#include <cstdint>

#include "portkern/kernel/cpu/diagonal_fragment.hpp"

namespace portkern::conv2d_impl {

// G where the mode applies to a convolution of in_c -> out_c channels in `groups` groups, else 0.
inline int block_diagonal_channels(std::int64_t in_c, std::int64_t out_c, std::int64_t groups) {
  const std::int64_t g_in = in_c / groups, g_out = out_c / groups;
  const bool fits = g_out <= kernel::cpu::widest_vector_bytes / std::int64_t(sizeof(float));
  if (g_in != g_out) return 0;
  if ((g_out == 2 || g_out == 4 || g_out == 8) && fits) return int(g_out);
  return g_out == 16 || g_out == 32 ? int(g_out) : 0;   // whole vectors of one group: broadcasts
}

}  // namespace portkern::conv2d_impl
