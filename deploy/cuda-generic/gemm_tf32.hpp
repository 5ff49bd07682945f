// Hand-written deployment of the device class cuda-generic for the tf32 precision (portkern/precision.hpp):
// as deploy/cuda-generic/gemm.hpp, with the portable family's block multiplied by TF32 tensor-core atoms (one
// product per atom instead of 3xTF32's three: the same 32 x 128 block, items, k-tiles and stages). cuda_native/auto
// has no TF32 kernel: it computes as at the default precision.
#pragma once

#include <array>
#include <cmath>
#include <span>
#include <string_view>

#include "portkern/deploy/selector.hpp"
#include "portkern/precision.hpp"

namespace portkern::deploy::cuda_generic {

struct gemm_tf32 {
  static constexpr std::string_view device_class = "cuda-generic";
  static constexpr Precision precision = Precision::tf32;
  static constexpr std::array<std::string_view, 2> families = {"cuda_native", "tiled"};
  static constexpr std::array<std::string_view, 1> cuda_native = {"cuda_native/auto"};
  static constexpr std::array<std::string_view, 1> tiled = {"tiled/r4a1c8_wg8x16_staged_k32_s2_tf32"};

  static int select_family(const Problem&, Path* = nullptr) { return 0; }
  static int select_cuda_native(const Problem&, Path* = nullptr) { return 0; }
  static int select_tiled(const Problem&, Path* = nullptr) { return 0; }
  static std::span<const std::string_view> configs_of(std::string_view family) {
    if (family == "cuda_native") return cuda_native;
    if (family == "tiled") return tiled;
    return {};
  }
  static int select_in(std::string_view family, const Problem& p, Path* path = nullptr) {
    if (family == "cuda_native") return select_cuda_native(p, path);
    if (family == "tiled") return select_tiled(p, path);
    return 0;
  }
};

}  // namespace portkern::deploy::cuda_generic
