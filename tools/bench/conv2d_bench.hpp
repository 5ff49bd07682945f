// `portkern bench conv2d`: every applicable convolution algorithm of portkern next to the vendor library
// (oneDNN on the CPU, cuDNN on a GPU) on the same data in the same run, per layer of a network's shape file
// (data/shapes/conv_<net>.csv): GFLOP/s of each algorithm, the library's pick, the vendor, their ratio, and the
// maximum relative error against float64. FLOPs = 2 * batch * out_h * out_w * out_k * in_c * window^2.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/conv_layers.hpp"
#include "portkern/dnn.hpp"

namespace portkern::bench {

// What --algo may name: the algorithms and the configurations the benchmark measures on `device`.
std::vector<std::string> conv2d_bench_names(const Device& device);

struct Conv2dBenchOptions {
  std::string net = "vgg16";        // vgg16 or resnet50 (data/shapes/conv_<net>.csv), or a CSV path
  std::int64_t batch = 1;
  std::vector<std::string> algorithms;   // empty: every applicable one
  int threads = 0;
  bool quick = true;
  Precision precision = Precision::accurate;   // ours, and the vendor's the ratio compares with (tf32: its TF32)
  bool epilogue = false;   // also time the pick with a bias, a residual and ReLU, in the same contest
};

// {"device": ..., "net": ..., "rows": [{"op": "conv2d", "layer", "batch", "window", "stride", "in_h", "in_w",
//   "in_c", "out_h", "out_w", "out_k", "pad", "algorithms": {name: {"config", "gflops", "max_rel_error"}},
//   "algorithm", "config", "gflops", "max_rel_error", "refs", "ref_library", "ref_impl", "ref_gflops",
//   "ratio", "epilogue": {"gflops", "cost", "spread", "max_rel_error"} (with options.epilogue; cost: its time
//   over the plain pick's)}]}; the row's algorithm is the library's pick (conv2d_select).
nlohmann::json bench_conv2d(const Device& device, const Conv2dBenchOptions& options);
void print_conv2d(const nlohmann::json& result);

}  // namespace portkern::bench
