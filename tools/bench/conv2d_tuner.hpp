// `portkern tune conv2d`: measures every configuration of every convolution algorithm this build
// instantiates (conv2d_space: direct, the deployed tiled configurations, im2col whole / chunked, gemm_1x1,
// winograd F(2x2) / F(4x4)) on every layer x batch of network shape files, and appends long-format CSV rows
//   device,op,family,config,batch,in_h,in_w,in_c,out_h,out_w,out_c,window_h,window_w,stride_h,stride_w,
//   pad_h,pad_w,gflops,time_ms,reps
// (op "conv2d", family = the algorithm, fp32). Measured as `portkern bench conv2d` measures (Winograd with
// its weights transformed once). Resumable like `tune gemm`. A configuration that does not apply to a shape
// (winograd on a 1x1 window), throws or computes a wrong result is recorded with gflops 0 and reps 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "portkern/precision.hpp"
#include "portkern/runtime/device.hpp"

namespace portkern::bench {

struct ConvTuneOptions {
  // data/shapes/conv_<net>.csv, or CSV paths: the layers the deployments are tuned on
  std::vector<std::string> nets = {"resnet50", "vgg16", "more_nets", "stems"};
  std::vector<std::int64_t> batches = {1, 4};
  std::string out;           // CSV file (appended)
  double time_ms = 0;        // per sample; 0: 20 on the CPU, 2 on a GPU
  int pause_ms = -1;         // between configurations; -1: 5 on the CPU, 0 on a GPU
  int threads = 0;
  double max_mflop = 0;      // skip shapes of more MFLOP than this (0: none)
  Precision precision = Precision::accurate;   // every configuration measured at it (a dataset per precision)
};

void tune_conv2d(const Device& device, const ConvTuneOptions& options);

// The default dataset path of a precision: data/tuning/<device-class>/conv2d.csv (accurate) or
// conv2d-<precision>.csv (the datasets analyze.py --precision reads).
std::string default_conv2d_tuning_csv(const Device& device, Precision precision);

}  // namespace portkern::bench
