// Hand-written deployment of the device class cpu-generic: any CPU without AVX2 (the plain C++ micro-kernels
// under the GEMMs); deploy/cuda-generic/conv2d.hpp reuses it.
// Never tuned on such a device: a 1x1 window at stride 1 without padding is one GEMM (gemm_1x1), everything
// else im2col + GEMM (im2col/chunked), whose speed is the GEMM's; the rule in src/conv2d/rule.cpp sends a shape
// gemm_1x1 does not take to im2col.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "portkern/deploy/selector.hpp"

namespace portkern::deploy::cpu_generic {

struct conv2d {
  static constexpr std::string_view device_class = "cpu-generic";
  static constexpr std::array<std::string_view, 2> families = {"gemm_1x1", "im2col"};
  // The configuration the library runs where the pick does not apply to a call (tools/tuning/runtime_rules.py).
  static constexpr std::string_view fallback = "im2col/chunked";
  static constexpr std::array<std::string_view, 1> gemm_1x1 = {"gemm_1x1/default"};
  static constexpr std::array<std::string_view, 1> im2col = {"im2col/chunked"};

  static int select_family(const ConvProblem& p, Path* path = nullptr) {
    const double window_h = double(p.window_h), window_w = double(p.window_w);
    if (le(path, "window_h", window_h, 1.5) && le(path, "window_w", window_w, 1.5)) return 0;
    return 1;
  }
  static int select_gemm_1x1(const ConvProblem&, Path* = nullptr) { return 0; }
  static int select_im2col(const ConvProblem&, Path* = nullptr) { return 0; }
  // As a generated header: the configurations of `family` (empty when it is not deployed), and its pick.
  static std::span<const std::string_view> configs_of(std::string_view family) {
    if (family == "gemm_1x1") return gemm_1x1;
    if (family == "im2col") return im2col;
    return {};
  }
  static int select_in(std::string_view family, const ConvProblem& p, Path* path = nullptr) {
    if (family == "gemm_1x1") return select_gemm_1x1(p, path);
    if (family == "im2col") return select_im2col(p, path);
    return 0;
  }
};

}  // namespace portkern::deploy::cpu_generic
