// `portkern bench gemm`: portkern's GEMM next to the vendor libraries on the same data in the same run, per
// shape: GFLOP/s, the best vendor and the ratio to it, the maximum relative error against float64.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "bench/shapes.hpp"
#include "portkern/precision.hpp"
#include "portkern/runtime/device.hpp"

namespace portkern::bench {

struct GemmBenchOptions {
  std::vector<GemmShape> shapes;
  std::string family;       // empty: the deployment's pick; else the best deployed configuration of this family
  std::string config;       // else this configuration (any the build runs, e.g. a ladder step's)
  int threads = 0;          // CPU threads (0: all)
  bool double_precision = false;
  Precision precision = Precision::accurate;   // of float products (portkern/precision.hpp)
  bool quick = true;        // shorter samples
  bool packed = false;      // portkern's products through gemm_packed, A packed once per operand set (untimed)
};

// {"device": ..., "rows": [{"op", "m", "n", "k", "batch", "trans_a", "trans_b", "family", "config", "gflops",
//   "ref_library", "ref_gflops", "refs", "ratio", "max_rel_error", ...}]}
nlohmann::json bench_gemm(const Device& device, const GemmBenchOptions& options);
void print_gemm(const nlohmann::json& result);

// Geometric mean of the rows' `ratio` (NaN when there is none).
double geomean_ratio(const nlohmann::json& rows);

}  // namespace portkern::bench
