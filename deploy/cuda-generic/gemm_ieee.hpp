// Hand-written deployment of the device class cuda-generic for the ieee precision (portkern/precision.hpp):
// as deploy/cuda-generic/gemm.hpp, whose cuda_native/auto already keeps off the tensor cores at this precision,
// with the portable family's block computed by SIMT FMA (the same 32 x 128 block and items, 16-deep k-tiles:
// the IEEE fragment's space; 16 KiB of shared memory in 2 stages).
#pragma once

#include <array>
#include <string_view>

#include "deploy/cuda-generic/gemm.hpp"
#include "portkern/precision.hpp"

namespace portkern::deploy::cuda_generic {

struct gemm_ieee : one_each<gemm_ieee> {
  static constexpr Precision precision = Precision::ieee;
  static constexpr std::array<std::string_view, 1> tiled = {"tiled/r4a1c8_wg8x16_staged_k16_s2"};
};

}  // namespace portkern::deploy::cuda_generic
