// `portkern bench conv2d`: every applicable convolution algorithm of portkern next to the vendor library
// (oneDNN on the CPU, cuDNN on a GPU) on the same data in the same run, per layer of a network's shape file
// (data/shapes/conv_<net>.csv): GFLOP/s of each algorithm, the library's pick, the vendor, their ratio, and the
// maximum relative error against float64. FLOPs = 2 * batch * out_h * out_w * out_k * in_c * window^2.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "portkern/dnn.hpp"

namespace portkern::bench {

struct ConvLayer {
  std::string name;
  std::int64_t window, stride, in_h, in_w, in_c, out_h, out_w, out_k;
};

// The shapes CSV of a network name (vgg16 -> data/shapes/conv_vgg16.csv); a path is returned as it is.
std::string conv_shapes_path(const std::string& net);

// Reads a shapes CSV (layer,window,stride,in_h,in_w,in_c,out_h,out_w,out_k).
std::vector<ConvLayer> read_conv_layers(const std::string& path);

// "3x3/1 56x56x64->64": window x window / stride, input rows x columns x channels -> output channels.
std::string layer_label(const ConvLayer& layer);

// The layer as a descriptor: padding 0 where (in - window)/stride + 1 == out, else (window - 1)/2.
Conv2dDesc layer_desc(const ConvLayer& layer, std::int64_t batch);

struct Conv2dBenchOptions {
  std::string net = "vgg16";        // vgg16 or resnet50 (data/shapes/conv_<net>.csv), or a CSV path
  std::int64_t batch = 1;
  std::vector<std::string> algorithms;   // empty: every applicable one
  int threads = 0;
  bool quick = true;
};

// {"device": ..., "net": ..., "rows": [{"op": "conv2d", "layer", "batch", "window", "stride", "in_h", "in_w",
//   "in_c", "out_h", "out_w", "out_k", "pad", "algorithms": {name: {"config", "gflops", "max_rel_error"}},
//   "algorithm", "config", "gflops", "max_rel_error", "refs", "ref_library", "ref_impl", "ref_gflops",
//   "ratio"}]}; the row's algorithm is the library's pick (conv2d_select).
nlohmann::json bench_conv2d(const Device& device, const Conv2dBenchOptions& options);
void print_conv2d(const nlohmann::json& result);

}  // namespace portkern::bench
