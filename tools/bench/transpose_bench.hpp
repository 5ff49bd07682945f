// The kernel model's zero-overhead benchmark: the portable tiled transpose against its hand-written twin
// (CUDA kernel on a GPU, plain OpenMP loop nest on the CPU) and against the device's copy bandwidth.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "portkern/runtime/device.hpp"

namespace portkern::bench {

struct TransposeOptions {
  bool full = false;   // more and larger sizes
  int threads = 0;     // CPU threads (0: all)
};

// Rows of {"op", "rows", "cols", "portable_gbs", "native_gbs", "ratio", "copy_gbs", "fraction_of_copy", "verified"}.
nlohmann::json bench_transpose(const Device& device, const TransposeOptions& options);
void print_transpose(const nlohmann::json& rows);

}  // namespace portkern::bench
