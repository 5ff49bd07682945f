// Hand-written deployment of the device class cuda-generic (any CUDA GPU without a class of its own): first layers
// of at most 4 input channels on `windowed` (a window region in group-local memory, SIMT, so any GPU runs it; the
// sm_90 deployments learned this pick from measurements: it was the best configuration on all 102 first-layer
// shapes of the H200's datasets, docs/tuning.md), else the generic CPU class's rule (gemm_1x1 for a 1x1 window,
// im2col + GEMM otherwise, deploy/cpu-generic/conv2d.hpp) with im2col in one piece, as on the GPU classes.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "deploy/cpu-generic/conv2d.hpp"

namespace portkern::deploy::cuda_generic {

struct conv2d : cpu_generic::conv2d {
  static constexpr std::string_view device_class = "cuda-generic";
  // The generic CPU class's families, and `windowed` after them.
  static constexpr std::array<std::string_view, 3> families = {"gemm_1x1", "im2col", "windowed"};
  // The configuration the library runs where the pick does not apply to a call (tools/tuning/runtime_rules.py).
  static constexpr std::string_view fallback = "im2col/whole";
  static constexpr std::array<std::string_view, 1> im2col = {"im2col/whole"};
  static constexpr std::array<std::string_view, 1> windowed = {"windowed/t8x16_k32_p4v4"};

  static int select_family(const ConvProblem& p, Path* path = nullptr) {
    if (le(path, "in_c", double(p.in_c), 4.5)) return 2;
    return cpu_generic::conv2d::select_family(p, path);
  }
  static std::span<const std::string_view> configs_of(std::string_view family) {
    if (family == "im2col") return im2col;
    if (family == "windowed") return windowed;
    return cpu_generic::conv2d::configs_of(family);
  }
};

}  // namespace portkern::deploy::cuda_generic
