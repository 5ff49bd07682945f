// The `windowed` configurations this build instantiates (the same on every back end), and the call of one of
// them by name. Hand-picked from the space: 32 or 64 output channels a group at tiles of 128 or 64 pixels, items
// of 2 to 8 pixels by 4 or 8 channels (those of 8 x 8 with 32 channels and 2 x 8 with 64 on 4 x 16 tiles left
// out: ptxas spilled them under their register caps; t8x16_k32_p4v8 and t4x16_k64_p4v8 keep 8 bytes of stack,
// sm_90). The first, the default and CUDA's pick for first layers (rule.cpp), ran best of these on 9 of 17 stems
// on the H200 at batch 4 and within 3% on 2 more; the fourth (8 channels an item) on the stride-1 ones of long
// grids, which rule.cpp gives it (docs/performance.md, 2026-11-29, twentieth session).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "common/config_names.hpp"
#include "conv2d/windowed/windowed.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

inline constexpr std::array<std::string_view, 9> windowed_instantiated = {
    "windowed/t8x16_k32_p4v4", "windowed/t8x16_k64_p4v8", "windowed/t4x16_k64_p4v8",
    "windowed/t8x16_k32_p4v8", "windowed/t8x16_k64_p8v8", "windowed/t4x16_k32_p4v4",
    "windowed/t8x16_k32_p2v4", "windowed/t8x16_k64_p2v4", "windowed/t4x16_k32_p2v4"};

// Calls launch(Conv2dWindowed<P>{args, vector_k}) for the configuration named `config`; false if none is.
template <class Launch>
bool with_windowed_conv(std::string_view config, const ConvArgs& args, bool vector_k, Launch&& launch) {
  return config_names::with_instantiated<windowed_instantiated>(config, [&]<std::size_t I>() {
    launch(Conv2dWindowed<parse_windowed(windowed_instantiated[I])>{args, vector_k});
  });
}

// Defined by kernels.cpp (the CPU) and kernels.cu (CUDA): false when `config` is not instantiated.
bool run_windowed_cpu(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_k);
bool run_windowed_cuda(const Queue& queue, std::string_view config, const ConvArgs& args, bool vector_k);

}  // namespace portkern::conv2d_impl
