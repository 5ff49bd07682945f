// `portkern bench gemm --set ladder`: seed 002's optimisation ladder (src/gemm/tiled/ladder.hpp) on one device —
// each step's GFLOP/s, its efficiency against the device's measured fp32 peak, the gain over the previous
// step, and the library's own pick as the last ("tuned") step, next to the vendor.
#pragma once

#include <nlohmann/json.hpp>

#include "portkern/runtime/device.hpp"

namespace portkern::bench {

// Rows of {"step", "config", "change", "m", "n", "k", "gflops", "efficiency", "speedup", "max_rel_error"}.
nlohmann::json bench_ladder(const Device& device, std::int64_t size, int threads);
void print_ladder(const nlohmann::json& result);

}  // namespace portkern::bench
