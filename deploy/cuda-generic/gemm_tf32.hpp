// Hand-written deployment of the device class cuda-generic for the tf32 precision (portkern/precision.hpp):
// as deploy/cuda-generic/gemm.hpp, with the portable family's block multiplied by TF32 tensor-core atoms (one
// product per atom instead of 3xTF32's three: the same 32 x 128 block, items, k-tiles and stages).
// cuda_native/auto has no TF32 kernel: it computes as at the default precision.
#pragma once

#include <array>
#include <string_view>

#include "deploy/cuda-generic/gemm.hpp"
#include "portkern/precision.hpp"

namespace portkern::deploy::cuda_generic {

struct gemm_tf32 : one_each<gemm_tf32> {
  static constexpr Precision precision = Precision::tf32;
  static constexpr std::array<std::string_view, 1> tiled = {"tiled/r4a1c8_wg8x16_staged_k32_s2_tf32"};
};

}  // namespace portkern::deploy::cuda_generic
