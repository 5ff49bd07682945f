// The vendor convolutions portkern is measured against, behind one call shape: oneDNN on the CPU (a
// convolution primitive, NHWC data, weights reordered once from RSCK into the layout it prefers), cuDNN on a
// GPU (every engine configuration of its graph API in both layouts, timed: the fastest fp32 plan, and the
// fastest plan of all with TF32 tensor cores allowed, see vendor_conv2d_cuda.cpp). Each is present only when
// the build found it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portkern/dnn.hpp"

namespace portkern::bench {

// One prepared way for a vendor to compute a layer (descriptors, weight layout, workspace, algorithm search:
// all done before timing).
struct VendorConvCall {
  std::string name;        // "onednn", "cudnn", "cudnn_tf32"
  std::string precision;   // "ieee": fp32 arithmetic, the ratio's reference; "tf32": shown beside it
  std::string impl;        // the implementation, engine and layout the vendor chose
  std::function<void()> run;         // the call to time
  std::function<void()> to_output;   // puts run's result into the benchmark's NHWC output (empty: run does)
  std::function<void()> rest;        // lets the vendor's threads go quiet (empty: nothing to do)
};

struct VendorConv2d {
  using Prepare = std::function<std::vector<VendorConvCall>(Queue&, const Conv2dDesc&, const float* input,
                                                            const float* filter, float* output)>;
  std::string name;
  // Prepares the calls that compute `output` (NHWC) from `input` (NHWC) and the RSCK `filter`; a call may
  // work on copies in another layout made here, from the data `input` holds now (to_output brings its result
  // back), as a benchmark on fixed data may.
  Prepare prepare;
  // The same among the plans that read `input` and write `output` where they are, whatever they hold when
  // the call runs (a network whose activations change from pass to pass, and stay NHWC).
  Prepare prepare_in_place;
};

std::vector<VendorConv2d> cpu_vendor_conv2d(int threads);
std::vector<VendorConv2d> cuda_vendor_conv2d();

inline std::vector<VendorConv2d> vendor_conv2d(const Device& device, int threads) {
  return device.is_cpu() ? cpu_vendor_conv2d(threads) : cuda_vendor_conv2d();
}

}  // namespace portkern::bench
