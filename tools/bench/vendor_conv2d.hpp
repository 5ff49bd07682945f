// The vendor convolutions portkern is measured against, behind one call shape: oneDNN on the CPU (a
// convolution primitive, NHWC data, weights reordered once from RSCK into the layout it prefers), cuDNN on a
// GPU (NHWC, FMA math: no TF32, the fastest algorithm cudnnFindConvolutionForwardAlgorithm reports). Each is
// present only when the build found it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "portkern/dnn.hpp"

namespace portkern::bench {

struct VendorConv2d {
  std::string name;
  // Prepares one layer (descriptors, weight layout, workspace: not timed) and returns the call to time, which
  // computes output from input and the RSCK filter; `impl` receives the vendor's implementation name.
  std::function<std::function<void()>(Queue&, const Conv2dDesc&, const float* input, const float* filter,
                                      float* output, std::string* impl)>
      prepare;
};

std::vector<VendorConv2d> cpu_vendor_conv2d(int threads);
std::vector<VendorConv2d> cuda_vendor_conv2d();

inline std::vector<VendorConv2d> vendor_conv2d(const Device& device, int threads) {
  return device.is_cpu() ? cpu_vendor_conv2d(threads) : cuda_vendor_conv2d();
}

}  // namespace portkern::bench
