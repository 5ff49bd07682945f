// The arguments every convolution kernel sees: a completed, checked descriptor flattened into plain values
// (kernels copy them to the device by value) and the device pointers.
#pragma once

#include <cstdint>

#include "portkern/kernel/model.hpp"

namespace portkern::conv2d_impl {

struct ConvArgs {
  std::int64_t batch, in_h, in_w, in_c, out_c;
  std::int64_t window_h, window_w, stride_h, stride_w, pad_top, pad_left, dilation_h, dilation_w;
  std::int64_t out_h, out_w;
  const float* input;    // NHWC
  const float* filter;   // RSCK
  float* output;         // NHWC
  const float* bias;     // out_c values or nullptr
  bool relu;
};

// The epilogue every algorithm applies to an accumulated value of output channel k.
PORTKERN_INLINE float finish(float value, const float* bias, bool relu, std::int64_t k) {
  if (bias) value += bias[k];
  return relu && value < 0.f ? 0.f : value;
}

}  // namespace portkern::conv2d_impl
