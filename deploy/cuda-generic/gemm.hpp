// Hand-written deployment of the device class cuda-generic: any CUDA GPU other than those with a class of their
// own (the build's sm_90 code runs on later GPUs through its PTX). Never tuned on such a GPU, it asks for what
// every such GPU has and adapts to the device's features at run time instead of a tree fitted to one GPU:
// cuda_native/auto chooses its kernel and split from a cost model over the problem and the multiprocessor count;
// the portable family's configuration is the cuda-sm90 deployment's smallest 3xTF32 block (32 x 128, 2 stages:
// 46 KiB of shared memory, within every such GPU's limit), whose split of k is planned from the device's
// multiprocessors and the blocks each holds (registers and shared memory: kernel::cuda::resident_groups).
#pragma once

#include <array>
#include <cmath>
#include <span>
#include <string_view>

#include "portkern/deploy/selector.hpp"

namespace portkern::deploy::cuda_generic {

// What the class's deployments for every precision share (gemm_ieee.hpp, gemm_tf32.hpp): the same pick for
// every problem, cuda_native/auto or the portable family's one configuration, D::tiled.
template <class D>
struct one_each {
  static constexpr std::string_view device_class = "cuda-generic";
  static constexpr std::array<std::string_view, 2> families = {"cuda_native", "tiled"};
  static constexpr std::array<std::string_view, 1> cuda_native = {"cuda_native/auto"};

  static int select_family(const Problem&, Path* = nullptr) { return 0; }
  static int select_cuda_native(const Problem&, Path* = nullptr) { return 0; }
  static int select_tiled(const Problem&, Path* = nullptr) { return 0; }
  // As a generated header: the configurations of `family` (empty when it is not deployed), and its pick.
  static std::span<const std::string_view> configs_of(std::string_view family) {
    if (family == "cuda_native") return cuda_native;
    if (family == "tiled") return D::tiled;
    return {};
  }
  static int select_in(std::string_view family, const Problem& p, Path* path = nullptr) {
    if (family == "cuda_native") return select_cuda_native(p, path);
    if (family == "tiled") return select_tiled(p, path);
    return 0;
  }
};

struct gemm : one_each<gemm> {
  static constexpr std::array<std::string_view, 1> tiled = {"tiled/r4a1c8_wg8x16_staged_k32_s2_x3"};
};

}  // namespace portkern::deploy::cuda_generic
