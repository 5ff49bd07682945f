// How a benchmark row reports the vendor libraries beside portkern, for GEMM and convolution alike.
//
// Every vendor measured on the row's data lands in "refs" with its GFLOP/s, spread over rounds, precision,
// implementation (kernel, engine or ISA) and error against float64. The ratio compares portkern with the
// fastest vendor at the row's precision: fp32 arithmetic ("ieee") for the accurate and ieee precisions, TF32
// tensor cores ("tf32") for the tf32 one (fp32 where no vendor has TF32: the CPU); a TF32 vendor is also shown
// beside it, in "ref_tf32", with its error.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace portkern::bench {

struct VendorFigure {
  std::string name;        // "onednn", "cublas", "cudnn_tf32", ...
  std::string precision;   // "ieee" or "tf32"
  std::string impl;        // what it ran
  double gflops = 0;
  double spread = 0;       // over rounds, as contest() reports it
  double max_rel_error = 0;
};

// Adds "refs", "ref_library", "ref_impl", "ref_gflops", "ref_spread", "ratio" and, when a TF32 vendor was
// measured, "ref_tf32" {"library", "impl", "gflops", "max_rel_error"} to `row`, which holds "gflops".
// `reference`: the vendors' precision the ratio uses ("ieee" or "tf32").
void add_vendor_figures(nlohmann::json& row, const std::vector<VendorFigure>& vendors,
                        const std::string& reference = "ieee");

// The columns a benchmark table ends with, and a row's cells for them: the best same-precision vendor, its
// GFLOP/s, the ratio, the larger spread of portkern's and the vendor's figures, portkern's max relative
// error; with `tf32`, also the TF32 vendor's GFLOP/s and error.
std::vector<std::string> vendor_headers(bool tf32);
std::vector<std::string> vendor_cells(const nlohmann::json& row, bool tf32);

// Prints the lines "vendor NAME (PRECISION): KERNEL" of a result's "vendors" list, so a reader can judge the
// anchor (OpenBLAS's core, oneDNN's ISA, cuBLAS's math mode), and the host's load before and after the run.
void print_vendors(const nlohmann::json& result, std::ostream& out);

// Whether any row of `rows` has a TF32 vendor figure.
bool has_tf32(const nlohmann::json& rows);

// The geometric mean of the positive values of `values` (NaN where there is none): the benches' summaries.
double geomean(const std::vector<double>& values);

// Geometric mean over the rows with a TF32 vendor figure of portkern's GFLOP/s over that figure.
double tf32_geomean_ratio(const nlohmann::json& rows);

}  // namespace portkern::bench
