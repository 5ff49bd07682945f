// `portkern bench gemm --dtype bf16`: the BF16 GEMM (bfloat16 A and B, fp32 sums and C) next to oneDNN's bf16
// matmul (plain layouts, f32 destination: the same call a user makes) on the same data in the same run, per
// shape: GFLOP/s, the ratio, each one's maximum relative error against float64 on the rounded inputs.
#pragma once

#include <nlohmann/json.hpp>

#include "bench/gemm_bench.hpp"

namespace portkern::bench {

// The rows as bench_gemm's (print_gemm prints them); CPU only.
nlohmann::json bench_gemm_bf16(const Device& device, const GemmBenchOptions& options);

}  // namespace portkern::bench
