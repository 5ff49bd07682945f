// Seed 002's optimisation ladder of a GEMM kernel, as configurations of the portable `tiled` family: each
// step makes one change to the previous one, and `portkern bench gemm --set ladder` measures every step
// against the device's peak, on both back ends, ending with what the library itself picks ("tuned").
// These configurations are instantiated for every transpose and precision, whatever the deployment lists. A
// step names one configuration for both back ends, except the fragment steps, whose block and k-tile differ
// (a GPU's registers and shared memory against the CPU's caches; the CPU has no TF32).
#pragma once

#include <array>
#include <string_view>

namespace portkern::gemm_impl {

struct LadderStep {
  std::string_view name, cpu_config, cuda_config, change;
  constexpr std::string_view config(bool cpu) const { return cpu ? cpu_config : cuda_config; }
};

inline constexpr std::array<LadderStep, 8> ladder_steps = {{
    {"naive", "tiled/r1a1c1_wg16x16_global", "tiled/r1a1c1_wg16x16_global",
     "one output per item, operands straight from memory"},
    {"multiple outputs", "tiled/r4a1c4_wg16x16_global", "tiled/r4a1c4_wg16x16_global",
     "4 x 4 outputs per item: each loaded value used 4 times"},
    {"permuted", "tiled/r4a4c4_wg16x16_global", "tiled/r4a4c4_wg16x16_global",
     "k loop moved inside the item: 4 values of k per step, loads hoisted"},
    {"local memory", "tiled/r4a1c4_wg16x16_local_k16_v1", "tiled/r4a1c4_wg16x16_local_k16_v1",
     "the group stages 64 x 16 tiles of A and B in local memory"},
    {"bank-conflict-free", "tiled/r4a1c4_wg16x16_localdb_k16_v1", "tiled/r4a1c4_wg16x16_localdb_k16_v1",
     "padded tiles, double-buffered: one barrier per k-tile"},
    {"vectorised", "tiled/r8a1c8_wg16x16_localdb_k16_v4", "tiled/r8a1c8_wg16x16_localdb_k16_v4",
     "8 x 8 outputs per item, 16-byte cooperative loads"},
    {"fragments + staged copies", "tiled/r16a1c24_wg16x16_staged_k512_s2", "tiled/r8a1c8_wg16x16_staged_k16_s2",
     "the model's fragments and staged copies: micro-kernels over packed panels (CPU), cp.async pipeline (CUDA)"},
    {"3xTF32 fragments", "tiled/r16a1c24_wg16x16_staged_k512_s2", "tiled/r8a1c8_wg16x16_staged_k32_s3_x3",
     "CUDA: the fragment on tensor cores (mma.sync 3xTF32, fp32 accuracy), 32-deep k-tiles, 3 stages; CPU: as before"},
}};

constexpr std::array<std::string_view, ladder_steps.size()> ladder_configs_of(bool cpu) {
  std::array<std::string_view, ladder_steps.size()> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = ladder_steps[i].config(cpu);
  return names;
}
inline constexpr auto ladder_cpu_configs = ladder_configs_of(true);
inline constexpr auto ladder_cuda_configs = ladder_configs_of(false);

}  // namespace portkern::gemm_impl
