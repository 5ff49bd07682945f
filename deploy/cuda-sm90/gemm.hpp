// Hand-written deployment (until `portkern tune gemm --device cuda:0 --deploy` generates it): the
// configurations the library instantiates for Hopper GPUs (sm_90), and the rule that picks one per call.
#pragma once

#include <array>
#include <cmath>
#include <string_view>

#include "portkern/deploy/selector.hpp"

namespace portkern::deploy::cuda_sm90 {

struct gemm {
  static constexpr std::string_view device_class = "cuda-sm90";
  static constexpr std::array<std::string_view, 2> families = {"cuda_native", "tiled"};
  // cuda_native/auto: the native family's own cost model picks the kernel (SIMT tiles, split-K, 3xTF32, small-k).
  static constexpr std::array<std::string_view, 5> cuda_native = {
      "cuda_native/auto", "cuda_native/simt", "cuda_native/splitk", "cuda_native/tf32x3", "cuda_native/smallk"};
  static constexpr std::array<std::string_view, 3> tiled = {
      "tiled/r8a1c8_wg16x16_localdb_k16_v4", "tiled/r4a1c4_wg16x16_local_k16_v1", "tiled/r1a8c8_wg64x1_global"};

  static int select_family(const Problem&, Path* = nullptr) { return 0; }
  static int select_cuda_native(const Problem&, Path* = nullptr) { return 0; }
  static int select_tiled(const Problem& p, Path* path = nullptr) {
    const double log2_mn = std::log2(double(p.m) * double(p.n));
    if (le(path, "log2_mn", log2_mn, 14.0)) return 1;
    return 0;
  }
};

}  // namespace portkern::deploy::cuda_sm90
