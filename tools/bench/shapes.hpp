// GEMM problem sets for the benchmarks and the tuner: the named sets of `portkern bench gemm --set` and any
// CSV file whose header names at least m,k,n,batch (optionally trans_a,trans_b; other columns ignored).
#pragma once

#include <string>
#include <vector>

#include "portkern/deploy/selector.hpp"
#include "portkern/runtime/device.hpp"

namespace portkern::bench {

using GemmShape = deploy::Problem;

std::vector<GemmShape> read_gemm_shapes(const std::string& path);

// "square", "pow2", "seed", "nets", "nets-quick" (data files are looked up under the repository's data/).
std::vector<GemmShape> gemm_set(const std::string& name, const Device& device);

// The repository's data/ folder (PORTKERN_DATA_DIR overrides).
std::string data_dir();

}  // namespace portkern::bench
