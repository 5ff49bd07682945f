// The `implicit` configurations this build instantiates per back end, and the call of one by name (each back
// end's kernels file instantiates its own list). Hand-picked from the staged GEMM's space, not tuned: on the
// CPU blocks of the micro-kernels' cache blocking, from 64 x 96 (few blocks: threads kept busy) to 512 x 96;
// on CUDA 3xTF32 blocks of 128 x 128, 64 x 128 and 64 x 64 (layers of 64 channels, few pixels), the same three
// with TF32 fragments (the tf32 precision's), and one IEEE SIMT block.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "common/config_names.hpp"
#include "conv2d/implicit/implicit.hpp"
#include "portkern/runtime/queue.hpp"

namespace portkern::conv2d_impl {

inline constexpr std::array<std::string_view, 6> implicit_cpu_instantiated = {
    "implicit/r4a1c3_wg16x16_staged_k256_s2",  "implicit/r8a1c3_wg16x16_staged_k256_s2",
    "implicit/r16a1c3_wg16x16_staged_k512_s2", "implicit/r4a1c6_wg16x16_staged_k256_s2",
    "implicit/r16a1c12_wg16x16_staged_k256_s2", "implicit/r32a1c6_wg16x16_staged_k512_s2"};
inline constexpr std::array<std::string_view, 7> implicit_cuda_instantiated = {
    "implicit/r8a1c8_wg16x16_staged_k32_s3_x3",   "implicit/r8a1c8_wg8x16_staged_k32_s3_x3",
    "implicit/r4a1c4_wg16x16_staged_k32_s3_x3",   "implicit/r8a1c8_wg16x16_staged_k16_s3",
    "implicit/r8a1c8_wg16x16_staged_k32_s3_tf32", "implicit/r8a1c8_wg8x16_staged_k32_s3_tf32",
    "implicit/r4a1c4_wg16x16_staged_k32_s3_tf32"};

// Calls launch(Conv2dImplicit<P>{args}) for the configuration of `names` called `config`; false if none is.
template <const auto& names, class Launch>
bool with_implicit_conv(std::string_view config, const ConvArgs& args, Launch&& launch) {
  return config_names::with_instantiated<names>(
      config, [&]<std::size_t I>() { launch(Conv2dImplicit<parse_implicit(names[I])>{args}); });
}

// Defined by kernels.cpp (the CPU: always one split) and kernels.cu (CUDA: split where the blocks are few).
enum class ImplicitRun { not_instantiated, done, epilogue_left };
ImplicitRun run_implicit_cpu(Queue& queue, std::string_view config, const ConvArgs& args);
ImplicitRun run_implicit_cuda(Queue& queue, std::string_view config, const ConvArgs& args);

}  // namespace portkern::conv2d_impl
