// Hand-written deployment of the device class cuda-generic (any CUDA GPU without a class of its own): the
// generic CPU class's rule (gemm_1x1 for a 1x1 window, im2col + GEMM otherwise, deploy/cpu-generic/conv2d.hpp)
// with im2col in one piece, as on the GPU classes.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "deploy/cpu-generic/conv2d.hpp"

namespace portkern::deploy::cuda_generic {

struct conv2d : cpu_generic::conv2d {
  static constexpr std::string_view device_class = "cuda-generic";
  // The configuration the library runs where the pick does not apply to a call (tools/tuning/runtime_rules.py).
  static constexpr std::string_view fallback = "im2col/whole";
  static constexpr std::array<std::string_view, 1> im2col = {"im2col/whole"};
  static std::span<const std::string_view> configs_of(std::string_view family) {
    return family == "im2col" ? std::span<const std::string_view>(im2col) : cpu_generic::conv2d::configs_of(family);
  }
};

}  // namespace portkern::deploy::cuda_generic
