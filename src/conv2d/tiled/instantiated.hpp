// The `tiled` configurations this build instantiates, and the call of one of them by name (each back end's
// kernels file instantiates them all). Hand-picked, not tuned: every code path of the family, so that the
// tests cover it — small tiles with scalar channels for tiny channel counts, 2x2 to 4x4 tiles with vectors of
// 4 for the rest, one of each vector width. The tuner measures them all; a deployment picks among them (a test
// checks that every deployed one is here).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "common/config_names.hpp"
#include "conv2d/tiled/tiled.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

inline constexpr std::array<std::string_view, 8> tiled_instantiated = {
    "tiled/t1x1_c1_k1", "tiled/t1x4_c1_k4", "tiled/t2x2_c2_k2", "tiled/t2x4_c4_k4",
    "tiled/t4x4_c4_k4", "tiled/t4x4_c1_k1", "tiled/t4x2_c4_k1", "tiled/t1x2_c2_k4"};

// Calls launch(Conv2dTiled<P>{...}) for the instantiated configuration named `config`; false if none is.
template <class Launch>
bool with_tiled_conv(std::string_view config, const ConvArgs& args, bool vector_c, bool vector_k, Launch&& launch) {
  return config_names::with_instantiated<tiled_instantiated>(config, [&]<std::size_t I>() {
    launch(Conv2dTiled<parse_tiled_conv(tiled_instantiated[I])>{args, vector_c, vector_k});
  });
}

// Defined by kernels.cpp (the CPU) and kernels.cu (CUDA): false when `config` is not instantiated.
bool run_tiled_cpu(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_c, bool vector_k);
bool run_tiled_cuda(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_c, bool vector_k);

}  // namespace portkern::conv2d_impl
