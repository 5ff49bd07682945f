// Hand-written deployment of the device class cuda-generic: any CUDA GPU other than those with a class of their
// own (e.g. sm_80, sm_89, sm_100). Never tuned on such a GPU: it asks for nothing that is not on every GPU the
// build targets (the tiled configuration without local memory, cuda_native's kernels, whose `auto` choice
// is a cost model of m, n, k and batch rather than a tree fitted to one GPU) and lets cuda_native/auto decide.
#pragma once

#include <array>
#include <cmath>
#include <span>
#include <string_view>

#include "portkern/deploy/selector.hpp"

namespace portkern::deploy::cuda_generic {

struct gemm {
  static constexpr std::string_view device_class = "cuda-generic";
  static constexpr std::array<std::string_view, 2> families = {"cuda_native", "tiled"};
  static constexpr std::array<std::string_view, 1> cuda_native = {"cuda_native/auto"};
  static constexpr std::array<std::string_view, 1> tiled = {"tiled/r4a4c4_wg16x8_global"};

  static int select_family(const Problem&, Path* = nullptr) { return 0; }
  static int select_cuda_native(const Problem&, Path* = nullptr) { return 0; }
  static int select_tiled(const Problem&, Path* = nullptr) { return 0; }
  // As a generated header: the configurations of `family` (empty when it is not deployed), and its pick.
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
