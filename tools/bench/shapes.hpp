// GEMM problem sets for the benchmarks and the tuner: the named sets of `portkern bench gemm --set` and any
// CSV file whose header names at least m,k,n,batch (optionally trans_a,trans_b; other columns ignored).
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "portkern/deploy/selector.hpp"
#include "portkern/runtime/device.hpp"

namespace portkern::bench {

using GemmShape = deploy::Problem;

// The shapes CSV at `path` (gemm_shapes_csv.cpp), or read from `in` (`source` names it in errors).
std::vector<GemmShape> read_gemm_shapes(const std::string& path);
std::vector<GemmShape> read_gemm_shapes(std::istream& in, const std::string& source);

// "square", "pow2", "seed", "nets", "nets-quick" (data files are looked up under the repository's data/).
std::vector<GemmShape> gemm_set(const std::string& name, const Device& device);

// A set name (gemm_set) or else a shapes CSV file (read_gemm_shapes).
std::vector<GemmShape> gemm_shapes(const std::string& set_or_file, const Device& device);

// The repository's data/ folder (PORTKERN_DATA_DIR overrides).
std::string data_dir();

}  // namespace portkern::bench
