// `portkern bench gemm --dtype bf16|fp16`: the GEMM on 16-bit inputs (bfloat16 or IEEE half A and B, fp32 sums
// and C) next to the vendor's on the same data in the same run: on the CPU oneDNN's matmul of that type (plain
// layouts, f32 destination: the same call a user makes; none where this oneDNN has no such matmul), on a GPU
// cuBLAS's at its best. Per shape: GFLOP/s, the ratio, each one's maximum relative error against float64 on the
// rounded inputs.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "bench/gemm_bench.hpp"

namespace portkern::bench {

// The rows as bench_gemm's (print_gemm prints them); `type` is "bf16" or "fp16".
nlohmann::json bench_gemm_half(const Device& device, const GemmBenchOptions& options, const std::string& type);

}  // namespace portkern::bench
